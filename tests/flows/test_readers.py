"""Documents read side by side in worker processes: same values, in order, each within budget."""

from __future__ import annotations

import gc
import time

import pytest

from bench.accuracy import measure_accuracy
from bench.generate import generate
from perfledger.flows import budget, pipeline, readers
from perfledger.flows.budget import Budget, BudgetExceeded
from perfledger.warehouse import lake
from tests.reliability import jobs

TIGHT = Budget(timeout_s=2.0, isolate_above_bytes=10**9, memory_mb=4096)


@pytest.fixture
def parallel_from_two(monkeypatch):
    monkeypatch.setattr(readers, "PARALLEL_FROM", 2)


def job(*args) -> readers.ReadJob:
    return readers.ReadJob(args, size=1)


def test_outcomes_come_back_in_order_from_several_processes(parallel_from_two):
    outcomes = list(
        readers.read_all(jobs.process_id, [job() for _ in range(12)], budget=TIGHT, readers=2)
    )
    assert [kind for kind, _ in outcomes] == ["ok"] * 12
    assert len({pid for _, pid in outcomes}) == 2


@pytest.mark.parametrize("collecting", [True, False])
def test_the_cycle_collector_is_as_it_was_once_answers_are_unpickled(parallel_from_two, collecting):
    """Answers unpickle with the collector paused; it runs again afterwards only if it ran
    before."""
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        outcomes = list(
            readers.read_all(jobs.process_id, [job() for _ in range(6)], budget=TIGHT, readers=2)
        )
        assert [kind for kind, _ in outcomes] == ["ok"] * 6
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()


def test_one_document_over_budget_fails_alone(parallel_from_two):
    work = [
        (jobs.process_id,),
        (jobs.backtrack, 40_000),
        (jobs.process_id,),
        (jobs.fail, "a parser bug"),
        (jobs.process_id,),
    ]
    outcomes = list(
        readers.read_all(jobs.call, [job(*args) for args in work], budget=TIGHT, readers=2)
    )
    assert [kind for kind, _ in outcomes] == ["ok", "error", "ok", "error", "ok"]
    assert isinstance(outcomes[1][1], BudgetExceeded)
    assert "longer than its 2 s budget" in str(outcomes[1][1])
    with pytest.raises(ValueError, match="a parser bug"):
        budget.outcome_value(*outcomes[3], TIGHT)


def test_a_document_out_of_time_costs_the_documents_sent_with_it_nothing(parallel_from_two):
    """A reader is sent several documents at once (three here) and keeps each one's time
    budget itself: the one out of time fails, and the same reader reads the next."""
    work = [(jobs.process_id,), (jobs.backtrack, 40_000), *[(jobs.process_id,)] * 4]
    outcomes = list(
        readers.read_all(jobs.call, [job(*args) for args in work], budget=TIGHT, readers=2)
    )
    assert [kind for kind, _ in outcomes] == ["ok", "error", "ok", "ok", "ok", "ok"]
    assert "longer than its 2 s budget" in str(outcomes[1][1])
    assert outcomes[0][1] == outcomes[2][1]


def test_a_document_stuck_where_no_timer_reaches_fails_alone(parallel_from_two):
    """Summing a long range is one loop in C, which no timer interrupts: the reader is
    stopped once that step outlasts the budget, and the documents sent with it are read
    again, each alone."""
    work = [(jobs.process_id,), (sum, range(10**12)), *[(jobs.process_id,)] * 4]
    started = time.monotonic()
    outcomes = list(
        readers.read_all(jobs.call, [job(*args) for args in work], budget=TIGHT, readers=2)
    )
    assert [kind for kind, _ in outcomes] == ["ok", "error", "ok", "ok", "ok", "ok"]
    assert "longer than its 2 s budget" in str(outcomes[1][1])
    assert time.monotonic() - started < 30


def test_a_reader_that_dies_costs_only_the_document_that_killed_it(parallel_from_two):
    """The other documents sent with it are read again, each alone."""
    work = [*[(jobs.process_id,)] * 3, (jobs.die,), *[(jobs.process_id,)] * 4]
    outcomes = list(
        readers.read_all(jobs.call, [job(*args) for args in work], budget=TIGHT, readers=2)
    )
    assert [kind for kind, _ in outcomes] == ["ok"] * 3 + ["error"] + ["ok"] * 4
    assert isinstance(outcomes[3][1], BudgetExceeded)
    assert "exited with status 3" in str(outcomes[3][1])


def test_a_run_read_by_workers_loads_the_values_a_run_read_here_loads(
    tmp_path, monkeypatch, parallel_from_two
):
    corpus = tmp_path / "corpus"
    generate(6, 3, corpus, "html")
    loaded = {}
    for count in (1, 2):
        monkeypatch.setenv(readers.READERS_ENV, str(count))
        warehouse = tmp_path / f"warehouse-{count}"
        summary = pipeline.ingest([str(corpus / "pages")], warehouse)
        accuracy = measure_accuracy(corpus / "truth.parquet", warehouse)
        assert accuracy.exact == accuracy.expected > 0
        assert accuracy.unexpected == 0
        with lake.connect(warehouse, read_only=True) as connection:
            loaded[count] = connection.execute(
                "SELECT source_id, table_index, row_number, metric, value, raw_value "
                "FROM measurements ORDER BY ALL"
            ).fetchall()
        assert summary.total("values_added") == len(loaded[count])
    assert loaded[1] == loaded[2]


def test_the_reader_count_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(readers.READERS_ENV, "3")
    assert readers.reader_count() == 3
    monkeypatch.setenv(readers.READERS_ENV, "none")
    with pytest.raises(ValueError, match="PERFLEDGER_READERS must be a whole number"):
        readers.reader_count()


def test_the_readers_stop_once_the_last_run_is_read_before_its_commit(
    tmp_path, monkeypatch, parallel_from_two
):
    """A large run's peak memory is its commit's: the idle readers are not kept through it."""
    corpus = tmp_path / "corpus"
    generate(4, 5, corpus, "text")
    monkeypatch.setenv(readers.READERS_ENV, "2")
    alive_at_commit = []
    commit_run = pipeline.commit_run

    def watched(*args, **kwargs):
        alive_at_commit.append(len(budget.shared_workers()._idle))
        return commit_run(*args, **kwargs)

    monkeypatch.setattr(pipeline, "commit_run", watched)
    summary = pipeline.ingest([str(corpus / "pages")], tmp_path / "warehouse")
    assert summary.count_status("new") == 4
    assert alive_at_commit == [0]


def test_workers_start_as_the_run_opens_and_are_the_ones_that_read(
    tmp_path, monkeypatch, parallel_from_two
):
    """A run of enough documents starts its workers before it opens the warehouse and
    collects: the workers that read are those, and they have started by then."""
    corpus = tmp_path / "corpus"
    generate(4, 5, corpus, "text")
    monkeypatch.setenv(readers.READERS_ENV, "2")
    pool = budget.shared_workers()
    at_collect: list[list[int]] = []
    collect = pipeline.collect

    def watched(*args, **kwargs):
        at_collect.append([worker.process.pid for worker in pool._starting])
        return collect(*args, **kwargs)

    monkeypatch.setattr(pipeline, "collect", watched)
    took: list[list[int]] = []
    take_many = budget.WorkerPool.take_many

    def taking(self, count):
        workers = take_many(self, count)
        took.append([worker.process.pid for worker in workers])
        return workers

    monkeypatch.setattr(budget.WorkerPool, "take_many", taking)
    summary = pipeline.ingest([str(corpus / "pages")], tmp_path / "warehouse")
    assert summary.count_status("new") == 4
    assert len(at_collect[0]) == 2
    assert sorted(took[0]) == sorted(at_collect[0])
    assert pool._starting == [] and pool._idle == []  # all stopped as the run ended


def test_workers_started_for_a_run_that_reads_nothing_are_stopped(
    tmp_path, monkeypatch, parallel_from_two
):
    """The same pages again: nothing to read, and the workers started for them stop."""
    corpus = tmp_path / "corpus"
    generate(3, 5, corpus, "text")
    monkeypatch.setenv(readers.READERS_ENV, "2")
    pipeline.ingest([str(corpus / "pages")], tmp_path / "warehouse")
    started = []
    start_soon = budget.WorkerPool.start_soon

    def starting(self, count):
        start_soon(self, count)
        started.extend(self._starting)

    monkeypatch.setattr(budget.WorkerPool, "start_soon", starting)
    again = pipeline.ingest([str(corpus / "pages")], tmp_path / "warehouse")
    assert again.count_status("new") == 0
    assert len(started) == 2
    assert not any(worker.process.is_alive() for worker in started)
    assert budget.shared_workers()._starting == []


def test_a_few_documents_start_no_worker_early(tmp_path, monkeypatch):
    """Below PARALLEL_FROM documents a run reads in its own process: no worker starts."""
    monkeypatch.setattr(readers, "PARALLEL_FROM", 4)
    monkeypatch.setenv(readers.READERS_ENV, "2")
    folder = tmp_path / "pages"
    (folder / "deeper").mkdir(parents=True)
    for name in ("a.md", "b.md", "deeper/c.md"):
        (folder / name).write_text("# Results\n", encoding="utf-8")
    readers.start_early([str(folder)])
    assert budget.shared_workers()._starting == []
    (folder / "deeper" / "d.md").write_text("# Results\n", encoding="utf-8")
    readers.start_early([str(folder)])
    try:
        assert len(budget.shared_workers()._starting) == 2
    finally:
        budget.stop_workers()
