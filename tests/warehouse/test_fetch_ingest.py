"""Ingest by URL from a real HTTP server on 127.0.0.1: versions, 304s, faults, nothing lost."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from werkzeug import Response

from perfledger.flows.cli import main
from perfledger.sources import archive
from perfledger.warehouse import lake, query
from tests.conftest import JULY_2023

PAGE = JULY_2023.read_bytes()


def cli(*args, expect=0):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == expect, result.output
    return result.output


def sql(warehouse, text):
    return query.run_sql(warehouse, text)[1]


@pytest.fixture
def registered(httpserver, tmp_path):
    httpserver.expect_request("/robots.txt").respond_with_data("", status=404)
    warehouse = tmp_path / "wh"
    cli(
        "add-source",
        httpserver.url_for("/performance-results"),
        "--name",
        "results",
        "--local",
        "--warehouse",
        str(warehouse),
    )
    return warehouse


def _serve_once(httpserver, body=PAGE, status=200, response_headers=None, **match):
    # One-shot handlers for one path answer in the order they were registered.
    httpserver.expect_oneshot_request("/performance-results", **match).respond_with_response(
        Response(
            body,
            status=status,
            headers=response_headers or {"Content-Type": "text/plain", "ETag": '"v1"'},
        )
    )


def test_a_registered_url_is_fetched_archived_and_loaded(httpserver, registered):
    _serve_once(httpserver)
    output = cli("ingest", "--source", "results", "--warehouse", str(registered))
    assert "values added:        358" in output
    assert sql(
        registered,
        "SELECT value FROM measurements WHERE model_canonical = "
        "'ResNet-50 v1.5' AND system = 'Bow Pod64' AND framework = 'TensorFlow1' "
        "AND metric = 'throughput'",
    ) == [(153205.0,)]
    (fetch,) = sql(
        registered, "SELECT status, outcome, etag, document_sha256, headers FROM lake.main.fetches"
    )
    assert fetch[:4] == (200, "ok", '"v1"', archive.sha256_of(PAGE))
    assert json.loads(fetch[4])["content-type"] == "text/plain"
    sent = httpserver.log[-1][0]
    assert sent.headers["User-Agent"].startswith("perfledger/")


def test_an_unchanged_page_answers_304_and_costs_no_version(httpserver, registered):
    _serve_once(httpserver)
    _serve_once(
        httpserver,
        body=b"",
        status=304,
        response_headers={"ETag": '"v1"'},
        headers={"If-None-Match": '"v1"'},
    )
    cli("ingest", "--source", "results", "--warehouse", str(registered))
    output = cli("ingest", "--source", "results", "--warehouse", str(registered))
    assert "(0 new, 1 unchanged" in output
    assert sql(registered, "SELECT outcome FROM lake.main.fetches ORDER BY fetched_at") == [
        ("ok",),
        ("not_modified",),
    ]
    assert sql(registered, "SELECT count(*) FROM document_versions") == [(1,)]


def test_faults_keep_what_is_stored_and_a_later_good_version_loads(httpserver, registered):
    _serve_once(httpserver)
    cli("ingest", "--source", "results", "--warehouse", str(registered))
    error_page = b"<html><head><title>404 Not Found</title></head><body>gone</body></html>"
    _serve_once(httpserver, body=error_page, response_headers={"Content-Type": "text/html"})
    output = cli("ingest", "--source", "results", "--warehouse", str(registered), expect=1)
    assert "error_page" in output
    assert sql(registered, "SELECT count(*) FROM measurements") == [(358,)]
    kept = sql(
        registered, "SELECT document_sha256 FROM lake.main.fetches WHERE outcome = 'error_page'"
    )
    assert kept == [(archive.sha256_of(error_page),)]
    assert archive.read(lake.archive_dir(registered), kept[0][0]) == error_page

    edited = PAGE.replace(b"\n44,059\n", b"\n45,100\n")
    _serve_once(
        httpserver, body=b"busy", status=500, response_headers={"Content-Type": "text/plain"}
    )
    _serve_once(
        httpserver, body=edited, response_headers={"Content-Type": "text/plain", "ETag": '"v2"'}
    )
    output = cli("ingest", "--source", "results", "--warehouse", str(registered))
    assert "values changed:      1" in output
    assert sql(
        registered, "SELECT attempts, status FROM lake.main.fetches WHERE etag = '\"v2\"'"
    ) == [(2, 200)]


def test_a_loopback_url_is_refused_unless_the_source_is_local(httpserver, tmp_path):
    output = cli(
        "ingest",
        httpserver.url_for("/performance-results"),
        "--warehouse",
        str(tmp_path / "wh"),
        expect=1,
    )
    assert "blocked_address" in output
    assert len(httpserver.log) == 0


def test_the_html_page_served_over_http_gives_the_text_captures_values(httpserver, registered):
    html = (
        JULY_2023.parents[2]
        / "tests"
        / "fixtures"
        / "html"
        / "graphcore_performance_results_2023_07.html"
    ).read_bytes()
    _serve_once(
        httpserver, body=html, response_headers={"Content-Type": "text/html; charset=utf-8"}
    )
    output = cli("ingest", "--source", "results", "--warehouse", str(registered))
    assert "values added:        358" in output
    assert sql(registered, "SELECT DISTINCT parser_version FROM measurements") == [
        ("html_table/1",)
    ]
    assert sql(
        registered,
        "SELECT value, raw_value FROM measurements WHERE metric = "
        "'time_to_train' AND model_canonical = 'GPS++'",
    ) == [(85380.0, "23h 43m")]
