"""Documents read side by side in worker processes, each within its budget, in their order.

Reading (decoding, parsing, finding claims) is the CPU-bound part of a run and pure Python;
with one process per core a run of many documents reads them as many at a time, while this
process normalizes and loads what is already read. A worker starts in about a second (its
imports), so a run reads in workers only from PARALLEL_FROM documents on; below that, and
with PERFLEDGER_READERS=1, every document is read here, one after the other, exactly as
`budget.run_within_budget` reads it.

Each worker reads one document at a time, under the same budgets as any isolated read: a
worker past the time budget or over the memory budget is killed and replaced, and only that
document fails.
"""

from __future__ import annotations

import multiprocessing.connection
import os
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass

from perfledger.flows import budget as budgets
from perfledger.flows import settings
from perfledger.flows.budget import Budget, BudgetExceeded, Worker

READERS_ENV = "PERFLEDGER_READERS"
MAX_READERS = 8
PARALLEL_FROM = 64  # documents to read before starting workers (about 1 s each) pays off
_WATCH_S = 0.1  # how often the dispatcher looks at deadlines and memory

Outcome = tuple[str, object]  # ("ok", result) or ("error", exception), as a worker answers


@dataclass(frozen=True)
class ReadJob:
    args: tuple  # what `function` is called with; must pickle
    size: int  # bytes of the document, for the size rules of run_within_budget
    # Whether the document may hold row or column spans (ditto); asked only of a document
    # read in this process, since the answer costs a read of its bytes.
    may_span: Callable[[], bool] = lambda: True


def reader_count() -> int:
    """PERFLEDGER_READERS, else the cores this process may use (at most MAX_READERS)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return min(settings.env_number(READERS_ENV, max(1, cores), int), MAX_READERS)


def reads_in_workers(count: int, readers: int | None = None) -> bool:
    """Whether `read_all` reads `count` documents in worker processes."""
    readers = reader_count() if readers is None else readers
    return readers >= 2 and count >= PARALLEL_FROM and not multiprocessing.current_process().daemon


def read_all(
    function: Callable,
    jobs: Sequence[ReadJob],
    budget: Budget | None = None,
    readers: int | None = None,
    lookahead: int = 64,
) -> Generator[Outcome, None, None]:
    """The outcome of `function(*job.args)` for each job, in the jobs' order.

    An exception, a budget overrun included, is an ("error", exception) outcome: one
    document's failure never stops the others. `budgets.outcome_value` turns an outcome
    back into the result or raises its exception. At most `lookahead` outcomes are read
    ahead of the caller; closing the generator stops the workers."""
    budget = budget or Budget.from_env()
    readers = reader_count() if readers is None else readers
    if not reads_in_workers(len(jobs), readers):
        return _read_here(function, jobs, budget)
    return _read_in_workers(function, jobs, budget, readers, lookahead)


def _read_here(
    function: Callable, jobs: Sequence[ReadJob], budget: Budget
) -> Generator[Outcome, None, None]:
    for job in jobs:
        try:
            yield (
                "ok",
                budgets.run_within_budget(
                    function, *job.args, size=job.size, budget=budget, spans=job.may_span()
                ),
            )
        except Exception as error:
            yield "error", error


def _read_in_workers(
    function: Callable, jobs: Sequence[ReadJob], budget: Budget, readers: int, lookahead: int
) -> Generator[Outcome, None, None]:
    dispatcher = _Dispatcher(function, jobs, budget, min(readers, len(jobs)), lookahead)
    try:
        yield from dispatcher.outcomes()
    finally:
        dispatcher.close()


class _Dispatcher:
    """Keeps every worker busy from a thread of its own, so workers go on reading while the
    caller works on what was read; at most `lookahead` outcomes wait for the caller."""

    def __init__(
        self,
        function: Callable,
        jobs: Sequence[ReadJob],
        budget: Budget,
        readers: int,
        lookahead: int,
    ) -> None:
        self._function = function
        self._jobs = jobs
        self._budget = budget
        self._lookahead = max(lookahead, readers)
        self._ready: dict[int, Outcome] = {}
        self._taken = 0  # outcomes handed to the caller
        self._stopping = False
        self._failure: BaseException | None = None
        self._changed = threading.Condition()
        self._workers = budgets.shared_workers().take_many(readers)
        self._thread = threading.Thread(
            target=self._dispatch, name="perfledger-readers", daemon=True
        )
        self._thread.start()

    def outcomes(self) -> Iterator[Outcome]:
        for index in range(len(self._jobs)):
            with self._changed:
                while index not in self._ready and self._failure is None:
                    self._changed.wait()
                if index not in self._ready:
                    raise RuntimeError("the document readers stopped") from self._failure
                outcome = self._ready.pop(index)
                self._taken = index + 1
                self._changed.notify_all()
            yield outcome

    def close(self) -> None:
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
        self._thread.join()

    def _dispatch(self) -> None:
        idle: list[Worker] = list(self._workers)
        busy: dict[Worker, tuple[int, float]] = {}  # worker -> (job index, deadline)
        next_job = 0
        try:
            while True:
                with self._changed:
                    if self._stopping:
                        return
                    window = self._taken + self._lookahead - next_job  # sent, not yet taken
                while idle and next_job < len(self._jobs) and window > 0:
                    worker = idle.pop()
                    worker.submit(self._function, self._jobs[next_job].args)
                    busy[worker] = (next_job, time.monotonic() + self._budget.timeout_s)
                    next_job += 1
                    window -= 1
                if not busy:
                    if next_job >= len(self._jobs):
                        return
                    with self._changed:  # the caller has enough waiting: let it catch up
                        if not self._stopping:
                            self._changed.wait(_WATCH_S)
                    continue
                ready = multiprocessing.connection.wait(
                    [worker.connection for worker in busy], timeout=_WATCH_S
                )
                for worker in list(busy):
                    outcome = self._outcome_of(worker, worker.connection in ready, busy[worker][1])
                    if outcome is None:
                        continue
                    index, _ = busy.pop(worker)
                    idle.append(worker if worker.alive() else Worker())
                    with self._changed:
                        self._ready[index] = outcome
                        self._changed.notify_all()
        except BaseException as error:  # the caller must hear of it rather than wait forever
            with self._changed:
                self._failure = error
                self._changed.notify_all()
        finally:
            for worker in busy:
                worker.stop()  # mid-document: never handed out again
            for worker in idle:
                budgets.shared_workers().give_back(worker)

    def _outcome_of(self, worker: Worker, answered: bool, deadline: float) -> Outcome | None:
        try:
            if answered:
                return worker.receive()
            worker.enforce(deadline, self._budget)
        except BudgetExceeded as error:
            return "error", error
        return None
