"""The fetcher against real HTTP servers on 127.0.0.1: outcomes, limits, politeness."""

from __future__ import annotations

import contextlib
import dataclasses
import email.utils
import gzip
import http.server
import ipaddress
import itertools
import pickle
import socket
import socketserver
import ssl
import struct
import threading
import time
import tracemalloc
import zlib
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

import perfledger.sources.fetch as fetch_module
from perfledger.sources.fetch import (
    DEFAULT_USER_AGENT,
    FetchError,
    FetchPolicy,
    FetchResult,
    address_refusal,
    fetch,
    parse_retry_after,
)
from perfledger.sources.robots import parse_robots

PAGE = b"<html><head><title>H100 training results</title></head><body><h1>Results</h1></body>"
LOOPBACK = ("127.0.0.1", "::1")


# --- harness -------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def only_loopback(monkeypatch):
    """Fail any test that would let the fetcher resolve or reach anything off this machine."""
    real_connect = socket.socket.connect
    real_getaddrinfo = socket.getaddrinfo

    def guarded_connect(sock, address):
        if address[0] not in LOOPBACK:
            raise AssertionError(f"test tried to connect to {address}")
        return real_connect(sock, address)

    def guarded_getaddrinfo(host, *args, **kwargs):
        if host != "localhost" and not is_ip_literal(host):
            raise socket.gaierror(socket.EAI_NONAME, f"tests resolve no names ({host})")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)


def is_ip_literal(host) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@pytest.fixture(scope="module")
def shared_server():
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    yield server
    server.clear()
    server.stop()


@pytest.fixture
def web(shared_server):
    shared_server.clear()
    yield shared_server
    shared_server.clear()


def make_policy(**overrides) -> FetchPolicy:
    settings = dict(
        allowed_hosts=frozenset({"127.0.0.1"}),
        allow_local=True,
        timeout_s=2.0,
        max_bytes=1_000_000,
        max_retries=2,
        backoff_base_s=0.05,
        retry_after_cap_s=5.0,
        min_interval_per_host_s=0.0,
        respect_robots=False,
        max_redirects=5,
    )
    settings.update(overrides)
    return FetchPolicy(**settings)


def requests_to(server: HTTPServer, path: str) -> list[Request]:
    return [request for request, _ in server.log if request.path == path]


class RawServer:
    """A TCP server on 127.0.0.1 whose answer to each connection a test scripts byte by byte."""

    def __init__(self, behaviour: Callable[[socket.socket, threading.Event], None]) -> None:
        self.connections = 0
        self.stop = threading.Event()
        outer = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                outer.connections += 1
                read_request_head(self.request)
                # The client hanging up first is what several tests want.
                with contextlib.suppress(OSError):
                    behaviour(self.request, outer.stop)

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/page"

    def __enter__(self) -> RawServer:
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.stop.set()
        self._server.shutdown()
        self._server.server_close()


def read_request_head(conn: socket.socket) -> bytes:
    conn.settimeout(5)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def assert_fetched_now(result: FetchResult) -> None:
    stamp = datetime.fromisoformat(result.fetched_at)
    assert stamp.tzinfo is not None and stamp.utcoffset() == timedelta(0)
    assert abs((datetime.now(UTC) - stamp).total_seconds()) < 60


# A self-signed certificate for 127.0.0.1, valid 2020-2120, used only by the TLS test.
TEST_KEY_PEM = """\
-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7iWD8q9Tvxl0Xe06
6thrB8QkCfKl4xALnZyr8061buqhRANCAAR91AJ0UjuGoRWIMeahCPi5gUtUSgJD
m1lLLdBaWSpbQ6fJDUF1KpX155H5k44pqnI7YmkCBLsW6q2BW5/ZkgVG
-----END PRIVATE KEY-----
"""
TEST_CERT_PEM = """\
-----BEGIN CERTIFICATE-----
MIIBWDCB/6ADAgECAhR0IpVADCYNSqj3o/7cdTqYzQirajAKBggqhkjOPQQDAjAa
MRgwFgYDVQQDDA9wZXJmbGVkZ2VyLXRlc3QwIBcNMjAwMTAxMDAwMDAwWhgPMjEy
MDAxMDEwMDAwMDBaMBoxGDAWBgNVBAMMD3BlcmZsZWRnZXItdGVzdDBZMBMGByqG
SM49AgEGCCqGSM49AwEHA0IABH3UAnRSO4ahFYgx5qEI+LmBS1RKAkObWUst0FpZ
KltDp8kNQXUqlfXnkfmTjimqcjtiaQIEuxbqrYFbn9mSBUajITAfMA8GA1UdEQQI
MAaHBH8AAAEwDAYDVR0TAQH/BAIwADAKBggqhkjOPQQDAgNIADBFAiEA6WwAGTMJ
/yBU1t55zfDais76XxwErHAvsnpxn1lRTcECIHSFc3g1coR8yPf6tVswyIRq3THm
cJC/zfnw9gj3gH3C
-----END CERTIFICATE-----
"""


class TLSPageServer:
    """An HTTPS server on 127.0.0.1 that serves PAGE with the test certificate."""

    def __init__(self, directory) -> None:
        (directory / "key.pem").write_text(TEST_KEY_PEM)
        (directory / "cert.pem").write_text(TEST_CERT_PEM)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(directory / "cert.pem", directory / "key.pem")
        self.requests = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(PAGE)))
                self.end_headers()
                self.wfile.write(PAGE)

            def log_message(self, *args) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.socket = context.wrap_socket(self._server.socket, server_side=True)

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self._server.server_address[1]}/page"

    def __enter__(self) -> TLSPageServer:
        threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()


# --- a plain page --------------------------------------------------------------------------


def test_ok_page_returns_body_and_names_the_project(web):
    web.expect_request("/bench").respond_with_data(
        PAGE, content_type="text/html; charset=utf-8", headers={"ETag": '"v1"'}
    )
    url = web.url_for("/bench")
    result = fetch(url, make_policy())
    assert result.outcome == "ok" and result.reason == ""
    assert (result.status, result.attempts, result.body) == (200, 1, PAGE)
    assert result.url == url and result.final_url == url
    assert result.headers["etag"] == '"v1"'
    assert result.headers["content-type"] == "text/html; charset=utf-8"
    assert result.not_modified is False
    assert 0 <= result.elapsed_s < 2
    assert_fetched_now(result)
    (request,) = requests_to(web, "/bench")
    assert request.headers["User-Agent"] == DEFAULT_USER_AGENT
    assert "perfledger" in request.headers["User-Agent"]
    assert "If-None-Match" not in request.headers
    assert "If-Modified-Since" not in request.headers


def test_gzip_body_is_decoded(web):
    web.expect_request("/z").respond_with_data(
        gzip.compress(PAGE), content_type="text/html", headers={"Content-Encoding": "gzip"}
    )
    result = fetch(web.url_for("/z"), make_policy())
    assert (result.outcome, result.status, result.body) == ("ok", 200, PAGE)
    assert "gzip" in requests_to(web, "/z")[0].headers["Accept-Encoding"]


def test_raw_deflate_body_is_decoded(web):
    squeezer = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    raw_deflate = squeezer.compress(PAGE) + squeezer.flush()
    web.expect_request("/d").respond_with_data(
        raw_deflate, content_type="text/html", headers={"Content-Encoding": "deflate"}
    )
    result = fetch(web.url_for("/d"), make_policy())
    assert (result.outcome, result.body) == ("ok", PAGE)


def test_https_page_is_fetched_with_a_verified_certificate(tmp_path, monkeypatch):
    trusting = ssl.create_default_context(cadata=TEST_CERT_PEM)
    monkeypatch.setattr(fetch_module, "tls_context", lambda: trusting)
    with TLSPageServer(tmp_path) as server:
        result = fetch(server.url, make_policy())
    assert (result.outcome, result.status, result.attempts, result.body) == ("ok", 200, 1, PAGE)


def test_https_certificate_failure_is_not_retried(tmp_path):
    with TLSPageServer(tmp_path) as server:
        result = fetch(server.url, make_policy(max_retries=2))
        assert server.requests == 0
    assert (result.outcome, result.status, result.attempts) == ("network_error", None, 1)
    assert "CERTIFICATE_VERIFY_FAILED" in result.reason


# --- retries -------------------------------------------------------------------------------


def test_500_then_200_is_ok_after_two_attempts(web):
    web.expect_oneshot_request("/flaky").respond_with_data("oops", status=500)
    web.expect_request("/flaky").respond_with_data(PAGE, content_type="text/html")
    result = fetch(web.url_for("/flaky"), make_policy())
    assert (result.outcome, result.status, result.attempts, result.body) == ("ok", 200, 2, PAGE)
    assert len(requests_to(web, "/flaky")) == 2


def test_persistent_503_stops_after_max_retries_with_backoff(web):
    web.expect_request("/down").respond_with_data("maintenance", status=503)
    result = fetch(web.url_for("/down"), make_policy(max_retries=2, backoff_base_s=0.1))
    assert (result.outcome, result.status, result.attempts) == ("http_error", 503, 3)
    assert result.body == b"maintenance"
    assert "503" in result.reason and "3 attempts" in result.reason
    assert result.elapsed_s >= 0.1 + 0.2  # backoff doubled between the two retries
    assert len(requests_to(web, "/down")) == 3


def test_404_is_not_retried_and_keeps_its_body(web):
    web.expect_request("/gone").respond_with_data("no such page", status=404)
    result = fetch(web.url_for("/gone"), make_policy())
    assert (result.outcome, result.status, result.attempts) == ("http_error", 404, 1)
    assert result.body == b"no such page"
    assert len(requests_to(web, "/gone")) == 1


def test_429_with_retry_after_seconds_waits_then_succeeds(web):
    web.expect_oneshot_request("/busy").respond_with_data(
        "slow down", status=429, headers={"Retry-After": "1"}
    )
    web.expect_request("/busy").respond_with_data(PAGE, content_type="text/html")
    result = fetch(web.url_for("/busy"), make_policy())
    assert (result.outcome, result.status, result.attempts) == ("ok", 200, 2)
    assert 1.0 <= result.elapsed_s < 3.0  # upper bound only guards against a hang


def test_503_with_retry_after_http_date_waits_until_that_date(web):
    # HTTP-dates have whole seconds: two seconds ahead means a wait of one to two seconds.
    when = email.utils.format_datetime(datetime.now(UTC) + timedelta(seconds=2), usegmt=True)
    web.expect_oneshot_request("/later").respond_with_data(
        "later", status=503, headers={"Retry-After": when}
    )
    web.expect_request("/later").respond_with_data(PAGE, content_type="text/html")
    result = fetch(web.url_for("/later"), make_policy())
    assert (result.outcome, result.attempts) == ("ok", 2)
    assert 0.9 <= result.elapsed_s < 3.5


def test_retry_after_beyond_cap_ends_the_fetch_at_once(web):
    web.expect_request("/banned").respond_with_data(
        "go away", status=429, headers={"Retry-After": "3600"}
    )
    result = fetch(web.url_for("/banned"), make_policy(retry_after_cap_s=5.0))
    assert (result.outcome, result.status, result.attempts) == ("http_error", 429, 1)
    assert "Retry-After" in result.reason and "3600" in result.reason
    assert result.elapsed_s < 2.0  # neither 3600 s nor the 5 s cap was waited
    assert len(requests_to(web, "/banned")) == 1


def test_parse_retry_after_reads_seconds_and_dates():
    now = datetime(2025, 3, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("7", now) == 7.0
    assert parse_retry_after(" 0 ", now) == 0.0
    assert parse_retry_after("Sat, 01 Mar 2025 12:00:30 GMT", now) == 30.0
    assert parse_retry_after("Sat, 01 Mar 2025 11:00:00 GMT", now) == 0.0  # already past
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after("-5", now) is None
    assert parse_retry_after(None, now) is None


# --- conditional requests ------------------------------------------------------------------


def test_304_is_not_modified_and_validators_are_sent(web):
    web.expect_request(
        "/cond",
        headers={"If-None-Match": '"abc"', "If-Modified-Since": "Wed, 01 Jan 2025 00:00:00 GMT"},
    ).respond_with_data("", status=304, headers={"ETag": '"abc"'})
    result = fetch(
        web.url_for("/cond"),
        make_policy(),
        etag='"abc"',
        last_modified="Wed, 01 Jan 2025 00:00:00 GMT",
    )
    assert (result.outcome, result.status, result.body) == ("not_modified", 304, b"")
    assert result.not_modified is True and result.attempts == 1
    assert result.headers["etag"] == '"abc"'
    (request,) = requests_to(web, "/cond")
    assert request.headers["If-None-Match"] == '"abc"'
    assert request.headers["If-Modified-Since"] == "Wed, 01 Jan 2025 00:00:00 GMT"


def test_last_modified_may_be_a_datetime(web):
    web.expect_request("/cond2").respond_with_data("", status=304)
    stamp = datetime(2025, 1, 1, tzinfo=UTC)
    result = fetch(web.url_for("/cond2"), make_policy(), last_modified=stamp)
    assert result.outcome == "not_modified"
    sent = requests_to(web, "/cond2")[0].headers["If-Modified-Since"]
    assert sent == "Wed, 01 Jan 2025 00:00:00 GMT"


# --- time limits and broken connections ----------------------------------------------------


HEAD_200 = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"


def trickle_steadily(conn, stop):
    conn.sendall(HEAD_200)
    while not stop.wait(0.05):  # a byte every 50 ms: no single read ever times out
        conn.sendall(b"x")


def send_one_late_byte(conn, stop):
    conn.sendall(HEAD_200)
    stop.wait(0.8)  # the read that starts now may only wait what is left of the second
    conn.sendall(b"x")
    stop.wait(10)


@pytest.mark.parametrize(
    ("behaviour", "body_sizes"),
    [(trickle_steadily, range(1, 26)), (send_one_late_byte, [1])],
    ids=["steady", "late-byte"],
)
def test_slow_body_stops_at_the_whole_request_timeout(behaviour, body_sizes):
    with RawServer(behaviour) as server:
        result = fetch(server.url, make_policy(timeout_s=1.0))
    assert (result.outcome, result.status, result.attempts) == ("timeout", 200, 1)
    # A per-read timeout would end the late-byte case at 1.8 s and the steady one never.
    assert 1.0 <= result.elapsed_s < 1.5
    assert len(result.body) in body_sizes and set(result.body) == {ord("x")}
    assert "timeout_s" in result.reason
    assert server.connections == 1


def test_silent_server_times_out_without_a_status():
    def silent(conn, stop):
        stop.wait(10)

    with RawServer(silent) as server:
        result = fetch(server.url, make_policy(timeout_s=1.0))
    assert (result.outcome, result.status, result.attempts, result.body) == (
        "timeout",
        None,
        1,
        b"",
    )
    assert 1.0 <= result.elapsed_s < 2.0
    assert result.headers == {}


@pytest.mark.parametrize("abrupt", [False, True], ids=["closed", "reset"])
def test_connection_dropped_mid_body_is_network_error_after_retries(abrupt):
    def drop_mid_body(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n")
        conn.sendall(b"a" * 100)
        stop.wait(0.2)  # let the client read the 100 bytes before the connection dies
        if abrupt:
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    with RawServer(drop_mid_body) as server:
        result = fetch(server.url, make_policy(max_retries=2))
    assert (result.outcome, result.attempts) == ("network_error", 3)
    assert "3 attempts" in result.reason
    if abrupt:
        # A reset may discard bytes the client had not read yet, so only a prefix is sure.
        assert result.status in (200, None) and (b"a" * 100).startswith(result.body)
    else:
        assert (result.status, result.body) == (200, b"a" * 100)
    assert server.connections == 3


def test_connection_refused_is_network_error_after_retries():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = fetch(f"http://127.0.0.1:{port}/", make_policy(max_retries=1))
    assert (result.outcome, result.status, result.attempts) == ("network_error", None, 2)
    assert result.body == b"" and "ConnectError" in result.reason


# --- size limits ---------------------------------------------------------------------------


def gzip_bomb(inflated_mib: int) -> bytes:
    """A valid gzip stream of `inflated_mib` MiB of zeros, built without holding them."""
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    mib = bytes(1 << 20)
    # After a full flush the compressor forgets its history, so each MiB encodes the same.
    block = squeezer.compress(mib) + squeezer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(inflated_mib):
        crc = zlib.crc32(mib, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    trailer = struct.pack("<II", crc, (inflated_mib << 20) & 0xFFFFFFFF)
    return header + block * inflated_mib + squeezer.flush() + trailer


def test_gzip_bomb_stops_at_max_bytes_quickly_and_in_little_memory():
    bomb = gzip_bomb(1024)
    assert len(bomb) < 1_100_000
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
    head += b"Content-Length: %d\r\n\r\n" % len(bomb)

    def serve_bomb(conn, stop):
        conn.sendall(head + bomb)

    max_bytes = 2_000_000
    # A raw socket server allocates nothing while sending, so the traced peak is the
    # fetcher's own.
    with RawServer(serve_bomb) as server:
        tracemalloc.start()
        try:
            result = fetch(server.url, make_policy(max_bytes=max_bytes))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert (result.outcome, result.status, result.attempts) == ("too_large", 200, 1)
    assert len(result.body) == max_bytes and result.body == bytes(max_bytes)
    assert "max_bytes" in result.reason
    assert result.elapsed_s < 3
    assert peak < 3 * max_bytes  # the body and its final copy: nowhere near the gigabyte


def test_plain_body_over_max_bytes_is_too_large(web):
    web.expect_request("/big").respond_with_data(b"y" * 50_000, content_type="text/html")
    result = fetch(web.url_for("/big"), make_policy(max_bytes=10_000))
    assert (result.outcome, result.status, len(result.body)) == ("too_large", 200, 10_000)


# --- rate limit ----------------------------------------------------------------------------


def test_requests_to_one_host_are_spaced_across_threads(web):
    # Three threads share one policy: robots.txt must be fetched once, and every request to
    # the host, robots.txt included, must start at least one interval after the previous.
    arrivals: list[tuple[float, str]] = []

    def record(request: Request) -> Response:
        arrivals.append((time.monotonic(), request.path))
        if request.path == "/robots.txt":
            return Response("User-agent: *\nAllow: /\n", content_type="text/plain")
        return Response(PAGE, content_type="text/html")

    web.expect_request("/robots.txt").respond_with_handler(record)
    web.expect_request("/paced").respond_with_handler(record)
    policy = make_policy(min_interval_per_host_s=0.3, respect_robots=True)
    results: list[FetchResult] = []
    threads = [
        threading.Thread(target=lambda: results.append(fetch(web.url_for("/paced"), policy)))
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [(result.outcome, result.attempts) for result in results] == [("ok", 1)] * 3
    arrivals.sort()
    assert [path for _, path in arrivals] == ["/robots.txt"] + ["/paced"] * 3
    times = [when for when, _ in arrivals]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    # Arrival stamps carry the test server's own scheduling noise, hence the slack; without
    # the limit the gaps would be a few milliseconds.
    assert all(gap >= 0.15 for gap in gaps), gaps
    assert times[-1] - times[0] >= 0.75


# --- robots.txt ----------------------------------------------------------------------------


def test_robots_disallow_blocks_before_the_page_is_requested(web):
    web.expect_request("/robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private/\n", content_type="text/plain"
    )
    web.expect_request("/private/specs").respond_with_data(PAGE, content_type="text/html")
    result = fetch(web.url_for("/private/specs"), make_policy(respect_robots=True))
    assert (result.outcome, result.status, result.attempts) == ("blocked_robots", None, 0)
    assert "/private/specs" in result.reason and result.body == b""
    assert requests_to(web, "/private/specs") == []
    (robots_request,) = requests_to(web, "/robots.txt")
    assert robots_request.headers["User-Agent"] == DEFAULT_USER_AGENT


def test_robots_is_fetched_once_per_policy_and_allowed_paths_pass(web):
    web.expect_request("/robots.txt").respond_with_data(
        "User-agent: perfledger\nAllow: /\nDisallow: /drafts\n\nUser-agent: *\nDisallow: /\n",
        content_type="text/plain",
    )
    web.expect_request("/results").respond_with_data(PAGE, content_type="text/html")
    policy = make_policy(respect_robots=True)
    first = fetch(web.url_for("/results"), policy)
    second = fetch(web.url_for("/results"), policy)
    drafts = fetch(web.url_for("/drafts/x"), policy)
    assert (first.outcome, second.outcome, drafts.outcome) == ("ok", "ok", "blocked_robots")
    assert first.attempts == 1  # robots.txt is not counted
    assert len(requests_to(web, "/robots.txt")) == 1
    assert all(r.headers["User-Agent"] == DEFAULT_USER_AGENT for r, _ in web.log)
    fetch(web.url_for("/results"), make_policy(respect_robots=True))  # a new policy asks again
    assert len(requests_to(web, "/robots.txt")) == 2


def test_robots_404_allows_everything(web):
    web.expect_request("/robots.txt").respond_with_data("nope", status=404)
    web.expect_request("/any").respond_with_data(PAGE, content_type="text/html")
    result = fetch(web.url_for("/any"), make_policy(respect_robots=True))
    assert (result.outcome, result.status, result.attempts) == ("ok", 200, 1)


@pytest.mark.parametrize("status", [500, 429])
def test_robots_server_error_or_throttle_counts_as_disallow_all(web, status):
    web.expect_request("/robots.txt").respond_with_data("broken", status=status)
    web.expect_request("/any").respond_with_data(PAGE, content_type="text/html")
    result = fetch(web.url_for("/any"), make_policy(respect_robots=True, max_retries=1))
    assert (result.outcome, result.status, result.attempts) == ("blocked_robots", None, 0)
    assert str(status) in result.reason
    assert len(requests_to(web, "/robots.txt")) == 2  # robots.txt got its retry too
    assert requests_to(web, "/any") == []


@pytest.mark.parametrize(
    ("robots", "path", "allowed"),
    [
        ("User-agent: *\nAllow: /\nDisallow: /private\n", "/private/x", False),
        ("User-agent: *\nDisallow: /\nAllow: /public\n", "/public/x", True),
        ("User-agent: *\nDisallow: /p\nAllow: /p\n", "/p", True),  # tie: Allow wins
        ("User-agent: *\nDisallow: /*.pdf$\n", "/docs/a.pdf", False),
        ("User-agent: *\nDisallow: /*.pdf$\n", "/docs/a.pdf?x=1", True),
        ("User-agent: *\nDisallow: /*?\n", "/page?session=1", False),
        ("User-agent: *\nDisallow:\n", "/anything", True),
        ("User-agent: other\nDisallow: /\n", "/x", True),
        ("User-agent: PerfLedger/2.0\nDisallow: /x\nUser-agent: *\nAllow: /\n", "/x/y", False),
        ("User-agent: *\nDisallow: /caf\u00e9\n", "/caf%C3%A9/menu", False),
        ("User-agent: *\nDisallow: /%7euser\n", "/~user/page", False),
        ("User-agent: *\nDisallow: /\n", "/robots.txt", True),
        ("Disallow: /\n", "/x", True),  # a rule outside any group is ignored
    ],
)
def test_robots_rules_follow_rfc_9309(robots, path, allowed):
    assert parse_robots(robots).can_fetch(DEFAULT_USER_AGENT, path) is allowed


# --- redirects -----------------------------------------------------------------------------


def test_relative_redirect_is_followed(web):
    web.expect_request("/old").respond_with_data("", status=301, headers={"Location": "/new"})
    web.expect_request("/new").respond_with_data(PAGE, content_type="text/html")
    result = fetch(web.url_for("/old"), make_policy())
    assert (result.outcome, result.status, result.attempts, result.body) == ("ok", 200, 2, PAGE)
    assert result.url == web.url_for("/old") and result.final_url == web.url_for("/new")
    assert all(r.headers["User-Agent"] == DEFAULT_USER_AGENT for r, _ in web.log)


def test_redirect_loop_is_detected(web):
    web.expect_request("/a").respond_with_data("", status=302, headers={"Location": "/b"})
    web.expect_request("/b").respond_with_data("", status=302, headers={"Location": "/a"})
    result = fetch(web.url_for("/a"), make_policy())
    assert (result.outcome, result.status, result.attempts) == ("redirect_loop", 302, 2)
    assert result.final_url == web.url_for("/b") and "loops back" in result.reason


def test_too_many_redirects_is_a_redirect_loop(web):
    for hop in range(5):
        web.expect_request(f"/r{hop}").respond_with_data(
            "", status=307, headers={"Location": f"/r{hop + 1}"}
        )
    result = fetch(web.url_for("/r0"), make_policy(max_redirects=3))
    assert (result.outcome, result.status, result.attempts) == ("redirect_loop", 307, 4)
    assert "more than 3 redirects" in result.reason
    assert requests_to(web, "/r4") == []


@pytest.mark.parametrize(
    ("location", "outcome"),
    [
        ("https://evil.example/steal", "blocked_host"),
        ("ftp://127.0.0.1/file", "blocked_host"),
        ("http://169.254.169.254/latest/meta-data/", "blocked_address"),
        ("http://[::ffff:169.254.169.254]/", "blocked_address"),
    ],
)
def test_redirect_to_a_forbidden_place_is_refused(web, location, outcome):
    web.expect_request("/jump").respond_with_data(
        "moved", status=302, headers={"Location": location}
    )
    allowed = {"127.0.0.1", "169.254.169.254", "::ffff:169.254.169.254"}
    result = fetch(web.url_for("/jump"), make_policy(allowed_hosts=frozenset(allowed)))
    assert (result.outcome, result.status, result.attempts) == (outcome, 302, 1)
    assert result.body == b"moved" and result.final_url == web.url_for("/jump")
    assert "redirected to" in result.reason
    assert len(web.log) == 1


# --- addresses -----------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_loopback_is_blocked_before_any_request_unless_allowed(web, host):
    web.expect_request("/secret").respond_with_data(PAGE, content_type="text/html")
    url = web.url_for("/secret").replace("127.0.0.1", host)
    policy = make_policy(allowed_hosts=frozenset({host}), allow_local=False, respect_robots=True)
    result = fetch(url, policy)
    assert (result.outcome, result.status, result.attempts) == ("blocked_address", None, 0)
    assert "loopback" in result.reason
    assert web.log == []


def test_host_outside_allowed_hosts_is_blocked_without_lookup(web):
    result = fetch("https://www.example.com/bench", make_policy())
    assert (result.outcome, result.status, result.attempts) == ("blocked_host", None, 0)
    assert "www.example.com" in result.reason


def test_address_is_checked_again_at_connect_time(web, monkeypatch):
    # The name first resolves to a public address and then, like a DNS rebinding attack,
    # to loopback: the connection must be refused on the second answer.
    web.expect_request("/rebind").respond_with_data(PAGE, content_type="text/html")
    answers = iter(["93.184.216.34", "127.0.0.1"])

    def rebinding(host, port, *args, **kwargs):
        address = next(answers, "127.0.0.1")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    url = web.url_for("/rebind").replace("127.0.0.1", "rebind.test")
    policy = make_policy(allowed_hosts=frozenset({"rebind.test"}), allow_local=False)
    result = fetch(url, policy)
    assert (result.outcome, result.status, result.attempts) == ("blocked_address", None, 1)
    assert "127.0.0.1" in result.reason
    assert web.log == []


@pytest.mark.parametrize(
    ("address", "blocked", "blocked_even_if_local"),
    [
        ("93.184.216.34", False, False),
        ("2606:4700::6810:85e5", False, False),
        ("127.0.0.1", True, False),
        ("::1", True, False),
        ("10.1.2.3", True, False),
        ("172.16.0.1", True, False),
        ("192.168.1.1", True, False),
        ("fd00::1", True, False),
        ("169.254.169.254", True, True),
        ("fe80::1", True, True),
        ("224.0.0.1", True, True),
        ("ff02::1", True, True),
        ("0.0.0.0", True, True),
        ("240.0.0.1", True, True),
        ("100.64.0.1", True, True),
        ("::ffff:127.0.0.1", True, False),
        ("::ffff:169.254.169.254", True, True),
        ("2002:7f00:1::1", True, False),
        ("64:ff9b::a9fe:a9fe", True, True),
    ],
)
def test_address_classification(address, blocked, blocked_even_if_local):
    ip = ipaddress.ip_address(address)
    assert (address_refusal(ip, allow_local=False) is not None) is blocked
    assert (address_refusal(ip, allow_local=True) is not None) is blocked_even_if_local


# --- what a 200 carries --------------------------------------------------------------------


def serve(web: HTTPServer, body: bytes, content_type: str | None) -> str:
    response = Response(body)
    if content_type is None:
        del response.headers["Content-Type"]
    else:
        response.headers["Content-Type"] = content_type
    web.expect_request("/doc").respond_with_response(response)
    return web.url_for("/doc")


@pytest.mark.parametrize(
    ("body", "content_type", "outcome"),
    [
        (b"", "text/html", "empty_body"),
        (b"  \n\t ", "text/html", "empty_body"),
        (b"\x89PNG\r\n\x1a\n" + bytes(64), "image/png", "not_html"),
        (b"<html>ok</html>", "application/octet-stream", "not_html"),
        (b"%PDF-1.7\n%binary", "text/html", "not_html"),
        (b"PK\x03\x04zipped", None, "not_html"),
        (b"<html>\x00\x01\x02</html>", "text/html", "not_html"),
        (b"<html><title>Results</title><p>text</p></html>", "text/plain", "ok"),
        (b"# MLPerf results\n\n| chip | score |\n", "text/markdown; charset=utf-8", "ok"),
        (b"<!doctype html><title>Benchmarks</title>", None, "ok"),
        (b"<html><title>404 Not Found</title></html>", "text/html", "error_page"),
        (
            b"<html><title>Acme</title><h1>Page <b>not</b> found</h1></html>",
            "text/html",
            "error_page",
        ),
        (b"<html><title>Access Denied</title></html>", "text/html", "error_page"),
        (b"<html><head><title>Just a moment...</title></head></html>", "text/html", "error_page"),
        (b"# 404\n\nThis page moved.", "text/markdown", "error_page"),
        (b"<html><title>Top 500 systems</title><h1>MLPerf 4.04</h1></html>", "text/html", "ok"),
    ],
)
def test_a_200_is_classified(web, body, content_type, outcome):
    result = fetch(serve(web, body, content_type), make_policy())
    assert (result.outcome, result.status, result.attempts) == (outcome, 200, 1)
    assert result.body == body
    assert (result.reason == "") is (outcome == "ok")


def test_unknown_content_encoding_is_kept_raw_as_not_html(web):
    web.expect_request("/br").respond_with_data(
        b"\x0b\x02\x80raw", content_type="text/html", headers={"Content-Encoding": "br"}
    )
    result = fetch(web.url_for("/br"), make_policy())
    assert (result.outcome, result.status, result.body) == ("not_html", 200, b"\x0b\x02\x80raw")
    assert "br" in result.reason


# --- misuse --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    ["ftp://127.0.0.1/x", "file:///etc/passwd", "not a url", "http://", "http://u:p@127.0.0.1/"],
)
def test_misuse_raises_fetch_error_without_any_request(web, url):
    with pytest.raises(FetchError):
        fetch(url, make_policy())
    assert web.log == []


def test_bad_validator_raises_fetch_error(web):
    with pytest.raises(FetchError):
        fetch(web.url_for("/x"), make_policy(), etag='"a"\r\nX-Injected: 1')
    assert web.log == []


@pytest.mark.parametrize(
    "overrides",
    [
        {"timeout_s": 0},
        {"max_bytes": 0},
        {"max_retries": -1},
        {"allowed_hosts": "www.graphcore.ai"},
        {"user_agent": "two\nlines"},
    ],
)
def test_bad_policy_raises_fetch_error(overrides):
    with pytest.raises(FetchError):
        make_policy(**overrides)


def test_policy_normalises_allowed_hosts():
    policy = FetchPolicy(allowed_hosts=frozenset({"WWW.Graphcore.AI."}))
    assert policy.allowed_hosts == frozenset({"www.graphcore.ai"})
    assert policy.respect_robots and not policy.allow_local


def test_policy_survives_pickling_and_asdict_with_a_fresh_robots_cache():
    # Task runners pickle arguments; the cache holds locks and must not break that.
    policy = make_policy(respect_robots=True)
    clone = pickle.loads(pickle.dumps(policy))
    assert clone == policy and clone.robots_cache is not policy.robots_cache
    assert dataclasses.asdict(policy)["allowed_hosts"] == frozenset({"127.0.0.1"})
