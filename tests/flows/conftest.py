"""The Prefect servers of the flow tests, one of each kind a session: each takes about 20 s
to start, and no test depends on one that no other test has used."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prefect.testing.utilities import prefect_test_harness

from tests.flows.prefect_servers import Server, running_prefect_server


@pytest.fixture(scope="session")
def prefect_api() -> Iterator[None]:
    """Prefect's test harness: a temporary API that this process's flows report to."""
    with prefect_test_harness(server_startup_timeout=60):
        yield


@pytest.fixture(scope="session")
def prefect_server(tmp_path_factory) -> Iterator[Server]:
    """`prefect server start`, as a user runs it, for the workers and CLI a test starts."""
    with running_prefect_server(tmp_path_factory.mktemp("prefect-home")) as server:
        yield server
