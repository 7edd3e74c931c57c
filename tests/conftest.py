"""Shared fixtures: the bundled demo pages and warehouses built from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfledger.flows import pipeline

# The servers of a shared warehouse (PostgreSQL, S3), for any test folder.
pytest_plugins = ("tests.shared_warehouse_fixtures",)

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CORPUS = PROJECT_ROOT / "sources" / "corpus"
JULY_2023 = CORPUS / "002_74c88246ac92525e.txt"
JANUARY_2022 = CORPUS / "003_e05cfacb797e1ed5.txt"
BLOG_MLPERF_V2 = CORPUS / "000_c64c95d4643991ea.txt"


def read_page(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def demo_warehouse(tmp_path_factory) -> Path:
    """A warehouse holding the demo corpus, shared by read-only tests."""
    folder = tmp_path_factory.mktemp("demo-warehouse")
    pipeline.ingest([], folder)
    return folder


@pytest.fixture
def warehouse(tmp_path) -> Path:
    return tmp_path / "warehouse"
