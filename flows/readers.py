"""Documents read side by side in worker processes, each within its budget, in their order.

Reading (decoding, parsing, finding claims) is the CPU-bound part of a run and pure Python;
with one process per core a run of many documents reads them as many at a time, while this
process normalizes and loads what is already read. A worker starts in about a second (its
imports), so a run reads in workers only from PARALLEL_FROM documents on; below that, and
with PERFLEDGER_READERS=1, every document is read here, one after the other, exactly as
`budget.run_within_budget` reads it.

A worker is sent up to MAX_BATCH documents at a time (fewer near the end, so that every
worker has some) and reads them one after the other, each under the same budgets as any
isolated read: its own time budget, kept by the worker's timer, so that a document out of
time fails alone and the worker goes on; and the memory budget, a worker past it being
killed and replaced. The worker then plans the tables of the documents it read in one pass
(flows/budget.py, `_plan_wanted`), paying each polars query's fixed cost once for them all,
and sends their outcomes back together. Should a worker die or be killed with a batch of
several documents, each of them is read again alone, so that only the document to blame
fails.
"""

from __future__ import annotations

import multiprocessing.connection
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass

from perfledger.flows import budget as budgets
from perfledger.flows import settings
from perfledger.flows.budget import Budget, BudgetExceeded, Worker

READERS_ENV = "PERFLEDGER_READERS"
MAX_READERS = 8
PARALLEL_FROM = 64  # documents to read before starting workers (about 1 s each) pays off
# Documents sent to a worker at once: each request and each polars query of planning costs
# about as much for a few pages as for one.
MAX_BATCH = 16
# How much longer than a document's time budget a step of a batch may last before the
# worker is stopped: its own timer, due at the budget, must go off first.
_BATCH_GRACE_S = 2.0
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


def start_early(targets: list[str]) -> None:
    """Start the workers now when `targets` hold enough documents to be read in workers:
    each takes about a second to start, which they then spend while the run opens its
    warehouse and collects its documents rather than after. (Workers started for documents
    that turn out to need no reading are stopped with the others, as the run ends.)"""
    readers = reader_count()
    if reads_in_workers(_documents_at_least(targets, PARALLEL_FROM), readers):
        budgets.shared_workers().start_soon(readers)


def _documents_at_least(targets: list[str], wanted: int) -> int:
    """How many files and URLs `targets` name, counted up to `wanted`."""
    found = 0
    for target in targets:
        if found >= wanted:
            break
        if not os.path.isdir(target):
            found += 1
            continue
        for _folder, _subfolders, files in os.walk(target):
            found += len(files)
            if found >= wanted:
                break
    return found


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
    meanwhile: Callable[[], None] | None = None,
) -> Generator[Outcome, None, None]:
    """The outcome of `function(*job.args)` for each job, in the jobs' order.

    An exception, a budget overrun included, is an ("error", exception) outcome: one
    document's failure never stops the others. `budgets.outcome_value` turns an outcome
    back into the result or raises its exception. At most `lookahead` outcomes are read
    ahead of the caller; closing the generator stops the workers. `meanwhile` is called
    once the workers have their first documents, before the first outcome is waited for
    (not at all when the documents are read in this process)."""
    budget = budget or Budget.from_env()
    readers = reader_count() if readers is None else readers
    if not reads_in_workers(len(jobs), readers):
        return _read_here(function, jobs, budget)
    return _read_in_workers(function, jobs, budget, readers, lookahead, meanwhile)


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
    function: Callable,
    jobs: Sequence[ReadJob],
    budget: Budget,
    readers: int,
    lookahead: int,
    meanwhile: Callable[[], None] | None = None,
) -> Generator[Outcome, None, None]:
    dispatcher = _Dispatcher(function, jobs, budget, min(readers, len(jobs)), lookahead)
    try:
        if meanwhile is not None:
            meanwhile()
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
        busy: dict[Worker, tuple[list[int], float]] = {}  # worker -> (job indexes, sent at)
        alone: deque[int] = deque()  # documents of a batch whose worker died: read one by one
        next_job = 0
        try:
            while True:
                with self._changed:
                    if self._stopping:
                        return
                    window = self._taken + self._lookahead - next_job  # sent, not yet taken
                while idle and (alone or (next_job < len(self._jobs) and window > 0)):
                    if alone:
                        batch = [alone.popleft()]
                    else:
                        count = self._batch_size(next_job, window)
                        batch = list(range(next_job, next_job + count))
                        next_job += count
                        window -= count
                    worker = idle.pop()
                    worker.submit(
                        self._function,
                        [self._jobs[index].args for index in batch],
                        self._budget.timeout_s,
                    )
                    busy[worker] = (batch, time.monotonic())
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
                    batch, sent = busy[worker]
                    answer = self._answer_of(
                        worker, worker.connection in ready, self._deadline(worker, batch, sent)
                    )
                    if answer is None:
                        continue
                    del busy[worker]
                    idle.append(worker if worker.alive() else Worker())
                    if isinstance(answer, list) and len(answer) == len(batch):
                        outcomes: list[Outcome] = answer
                    elif isinstance(answer, tuple) and len(batch) == 1:
                        outcomes = [answer]
                    else:  # which of them is to blame is not known: each is read again alone
                        alone.extend(batch)
                        continue
                    with self._changed:
                        self._ready.update(zip(batch, outcomes, strict=True))
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

    def _batch_size(self, next_job: int, window: int) -> int:
        """Up to MAX_BATCH documents, within the window, and no more than each worker's
        share of those left, so that near the end no worker waits while another reads."""
        share = -(-(len(self._jobs) - next_job) // len(self._workers))
        return max(1, min(MAX_BATCH, window, share))

    def _deadline(self, worker: Worker, batch: list[int], sent: float) -> float:
        """When the worker reading `batch`, sent at `sent`, is stopped: one document, when
        its time budget is over, as any document read in a worker; several, once a step of
        the work (reading one of them, planning them) outlasts the budget by _BATCH_GRACE_S,
        which the worker's own timer prevents but for a document stuck where no Python code
        runs."""
        if len(batch) == 1:
            return sent + self._budget.timeout_s
        return worker.step_started() + self._budget.timeout_s + _BATCH_GRACE_S

    def _answer_of(
        self, worker: Worker, answered: bool, deadline: float
    ) -> list[Outcome] | Outcome | None:
        try:
            if answered:
                return worker.receive()
            worker.enforce(deadline, self._budget)
        except BudgetExceeded as error:
            return "error", error
        return None
