"""Per-document budgets: a size cap checked before parsing and a wall-clock cap on reading.

A document larger than `max_bytes` is refused before anything parses it. Reading a document
(decoding, parsing its layout, finding its claims) must finish within `timeout_s`:

* a document larger than `isolate_above_bytes` (SPAN_FREE_FACTOR times that when it has no
  row or column span), or one read where no timer can be armed (a
  thread other than the main one, as under Prefect's thread runner), is read in a separate
  worker process started with 'spawn' (polars runs threads, so 'fork' is unsafe). The worker
  is killed at the deadline, or as soon as its resident memory passes `memory_mb`, so a page
  built to blow up memory costs that worker, never the run. One worker serves a whole run:
  it starts once (under a second, mostly imports) and is replaced only after a kill.
* a smaller document is read in this process under a SIGALRM timer, which interrupts
  Python code (regular expressions included) at the deadline; starting a worker would cost
  more than reading the usual page (tens of milliseconds).

Either way the document then fails alone with a reason that names the budget, and the run
goes on. Budgets come from the environment: PERFLEDGER_DOCUMENT_TIMEOUT_S (60),
PERFLEDGER_MAX_DOCUMENT_BYTES (50,000,000), PERFLEDGER_ISOLATE_ABOVE_BYTES (250,000) and
PERFLEDGER_DOCUMENT_MEMORY_MB (4096).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from perfledger.flows.settings import env_number

if TYPE_CHECKING:
    from perfledger.schemas.chunk_reading import DocumentPlans
    from perfledger.schemas.label_mappings import LabelMappings
    from perfledger.sources.claims.extract import ClaimResult
    from perfledger.sources.layouts.base import ParsedDocument

TIMEOUT_ENV = "PERFLEDGER_DOCUMENT_TIMEOUT_S"
MAX_BYTES_ENV = "PERFLEDGER_MAX_DOCUMENT_BYTES"
ISOLATE_ENV = "PERFLEDGER_ISOLATE_ABOVE_BYTES"
MEMORY_ENV = "PERFLEDGER_DOCUMENT_MEMORY_MB"
PAUSE_ENV = "PERFLEDGER_TEST_PAUSE_AT"
PAUSE_SECONDS_ENV = "PERFLEDGER_TEST_PAUSE_S"
PAUSE_WHILE_ENV = "PERFLEDGER_TEST_PAUSE_WHILE"  # a file: the pause ends once it is gone
# A worker's imports take a few seconds on a busy machine; that is not the document's time.
STARTUP_TIMEOUT_S = 120.0
# Should the interrupt land where Python cannot raise it (a __del__), it is raised again.
_REPEAT_S = 0.5
_LEAST_S = 0.001  # a timer armed for no time at all would be no timer
_WATCH_S = 0.1  # how often a worker's memory is read while it works
# A page without spans holds a tree and cells of about ten times its size: 4 MB stays small.
SPAN_FREE_FACTOR = 16
_STARTING = threading.Lock()  # one worker starts at a time: starting edits __main__ briefly


@dataclass(frozen=True)
class Budget:
    timeout_s: float = 60.0
    max_bytes: int = 50_000_000
    # Spans can make a small HTML page cost about 1 GB of memory per MB of page in process;
    # below this size that stays near 250 MB, and the worker's start (0.7 s) is not paid.
    isolate_above_bytes: int = 250_000
    memory_mb: int = 4096

    @classmethod
    def from_env(cls) -> Budget:
        defaults = cls()
        return cls(
            timeout_s=env_number(TIMEOUT_ENV, defaults.timeout_s, float),
            max_bytes=env_number(MAX_BYTES_ENV, defaults.max_bytes, int),
            isolate_above_bytes=env_number(ISOLATE_ENV, defaults.isolate_above_bytes, int),
            memory_mb=env_number(MEMORY_ENV, defaults.memory_mb, int),
        )


class BudgetExceeded(RuntimeError):
    """A document went over a budget; the message says which one and how to raise it."""


def size_refusal(byte_size: int, budget: Budget | None = None) -> str | None:
    """Why a document of `byte_size` bytes is not parsed at all, or None when it may be."""
    budget = budget or Budget.from_env()
    if byte_size <= budget.max_bytes:
        return None
    return (
        f"the document is {byte_size:,} bytes, over the {budget.max_bytes:,}-byte budget "
        f"({MAX_BYTES_ENV}); it is archived but was not parsed"
    )


def run_within_budget(
    function: Callable, *args, size: int, budget: Budget | None = None, spans: bool = True
):
    """`function(*args)` within the time budget; raises BudgetExceeded when it is overrun.

    `spans=False` says the document cannot give a table cell a row or column span, which is
    what makes reading a page cost memory in proportion to its tables' area rather than its
    size: such a document is read in this process up to SPAN_FREE_FACTOR times the
    isolation size, and a small run does not pay a worker's start for it.

    `function` and its arguments must pickle (a module-level function, plain values): a
    large document is read in the worker process. Exceptions of `function` reach the caller
    unchanged either way.
    """
    budget = budget or Budget.from_env()
    isolate_above = budget.isolate_above_bytes * (1 if spans else SPAN_FREE_FACTOR)
    if size > isolate_above or not _can_arm_timer():
        return _WORKERS.run(function, args, budget)
    with _deadline(budget.timeout_s):
        return function(*args)


def stop_workers() -> None:
    """Stop the idle worker processes now rather than at exit."""
    _WORKERS.stop_all()


class ReadDocument(NamedTuple):
    parsed: ParsedDocument
    layout_name: str
    claims: ClaimResult
    # its tables' plans, made by a reader process (in the reader, until they are made: what
    # to plan them for)
    plans: DocumentPlans | _PlansWanted | None = None


def read_archived(
    archive_dir: Path,
    sha256: str,
    content_type: str,
    layout: str,
    check: bool = True,
    archive_url: str | None = None,
    plan_for: tuple[str, LabelMappings] | None = None,
) -> ReadDocument:
    """The parsed document, layout name and claims of an archived document version: the
    work a budget bounds, done where the budget says (this process or the worker).

    `plan_for` (the source id and the run's label mappings): in a worker process, the
    document's tables are planned too (schemas/chunk_reading.py, `plan_documents`), work the
    run's own process would otherwise do for every document of a chunk in turn. The worker
    plans them once the documents it was sent together are read (`_plan_wanted`)."""
    from perfledger.sources import remote_archive
    from perfledger.sources.claims.extract import extract_page_claims
    from perfledger.sources.parse import parse_document

    data = remote_archive.read(Path(archive_dir), sha256, archive_url)
    parsed, layout_name = parse_document(data, content_type, layout, check=check)
    claims = extract_page_claims(parsed, layout_name)
    plans = _PlansWanted(*plan_for) if plan_for is not None and _IN_WORKER else None
    return ReadDocument(parsed, layout_name, claims, plans)


class _PlansWanted(NamedTuple):
    """In a worker, a document read whose tables are still to be planned, and for what."""

    source_id: str
    mappings: LabelMappings


def pause_at(point: str) -> None:
    """Test-only: when PERFLEDGER_TEST_PAUSE_AT names `point`, say so on stderr and sleep
    (PERFLEDGER_TEST_PAUSE_S, default 60 s), so a crash test can kill the run right there.
    With PERFLEDGER_TEST_PAUSE_WHILE, the pause ends as soon as that file is gone: a test
    that must look at the paused run whatever the machine's load releases it when done."""
    if os.environ.get(PAUSE_ENV) != point:
        return
    print(f"perfledger: paused at {point}", file=sys.stderr, flush=True)
    seconds = float(os.environ.get(PAUSE_SECONDS_ENV, "60"))
    gate = os.environ.get(PAUSE_WHILE_ENV)
    if gate is None:
        time.sleep(seconds)
        return
    deadline = time.monotonic() + seconds
    while os.path.exists(gate) and time.monotonic() < deadline:
        time.sleep(0.05)


# ---- in this process: a timer ---------------------------------------------------------------


class _OutOfTime(BaseException):
    """Raised by the timer; a BaseException, so a parser's `except Exception` cannot eat it."""


def _can_arm_timer() -> bool:
    return (
        hasattr(signal, "SIGALRM")
        and threading.current_thread() is threading.main_thread()
        and signal.getitimer(signal.ITIMER_REAL)[0] == 0  # never clobber a caller's timer
    )


def _raise_out_of_time(_signum, _frame) -> None:
    raise _OutOfTime


@contextlib.contextmanager
def _deadline(seconds: float, stated: float | None = None) -> Iterator[None]:
    """Raise BudgetExceeded, naming a budget of `stated` seconds (default `seconds`), when
    the block runs longer than `seconds`."""
    previous = signal.signal(signal.SIGALRM, _raise_out_of_time)
    signal.setitimer(signal.ITIMER_REAL, seconds, _REPEAT_S)
    timed_out = False
    try:
        yield
    except _OutOfTime:
        timed_out = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if timed_out:
        raise BudgetExceeded(_time_reason(seconds if stated is None else stated))


@contextlib.contextmanager
def _within(seconds: float | None, stated: float | None) -> Iterator[None]:
    """`_deadline` in `seconds` (at least _LEAST_S); None arms no timer."""
    if seconds is None:
        yield
        return
    with _deadline(max(seconds, _LEAST_S), stated):
        yield


def _time_reason(seconds: float) -> str:
    return (
        f"reading the document took longer than its {seconds:g} s budget ({TIMEOUT_ENV}) and "
        "was stopped; it is archived but was not parsed"
    )


# ---- in a worker process --------------------------------------------------------------------


@contextlib.contextmanager
def _children_allowed() -> Iterator[None]:
    """multiprocessing refuses a daemonic process (a Dask worker's) children, lest they
    outlive it. A document worker cannot: it ends when its pipe closes (`_serve`), and the
    budget kills it when it overruns; so a Dask worker's task thread, which cannot arm a
    timer, reads within the budgets in a document worker too."""
    # The flag lives in the process's private settings (`_config`), which the stubs do not
    # declare.
    config: dict[str, object] = vars(multiprocessing.current_process())["_config"]
    daemonic = config.get("daemon")
    config["daemon"] = False
    try:
        yield
    finally:
        if daemonic:
            config["daemon"] = daemonic


_IN_WORKER = False  # whether this process is a document worker (set by _serve)
# In a worker: when (time.monotonic) it began what it is doing (reading a document, or
# planning), shared with the process that started it (Worker.step_started).
_STEP_STARTED = None


def _serve(connection, step_started) -> None:
    """The worker's loop: read each batch of documents received, send back their outcomes."""
    global _IN_WORKER, _STEP_STARTED
    _IN_WORKER = True
    _STEP_STARTED = step_started
    # Ctrl-C at the terminal reaches the whole process group: the run that started this
    # worker stops it, and it must not die first, printing a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Workers read side by side, one per core: polars' own thread pool would only compete.
    os.environ.setdefault("POLARS_MAX_THREADS", "1")
    from perfledger.flows.warm_up import warm_up

    warm_up()  # imported and compiled here rather than inside the first document's budget
    # The modules and the lexicon live as long as the worker: frozen, the collector's full
    # passes skip them (a reader then reads about 5% faster).
    gc.freeze()
    connection.send(("ready", None))
    while True:
        try:
            function, batch, timeout_s = connection.recv()
        except (EOFError, OSError):
            return
        except Exception as error:  # a request that does not unpickle here
            connection.send(("error", error))
            continue
        outcomes = _read_batch(function, batch, timeout_s)
        _step()
        try:
            connection.send(outcomes)
        except Exception:  # an outcome that does not pickle still gets an answer
            connection.send([_picklable(outcome) for outcome in outcomes])


def _read_batch(function: Callable, batch: list[tuple], timeout_s: float | None) -> list:
    """("ok", `function(*args)`) or ("error", exception) for each args of `batch`, in
    order, each within `timeout_s` of its own, so that a document out of time fails alone
    and the worker goes on with the next; None arms no timer (the process that sent the
    batch stops the worker at the deadline). Then the tables of the documents read are
    planned (`_plan_wanted`)."""
    outcomes: list[tuple[str, object]] = []
    left: list[float | None] = []  # of each document's time, what its reading left
    for args in batch:
        started = _step()
        try:
            with _within(timeout_s, timeout_s):
                outcome: tuple[str, object] = ("ok", function(*args))
        except BaseException as error:  # every failure travels back as data
            outcome = ("error", error)
        outcomes.append(outcome)
        left.append(None if timeout_s is None else timeout_s - (time.monotonic() - started))
    _plan_wanted(outcomes, left, timeout_s)
    return outcomes


def _step() -> float:
    """Note that the worker begins a step of its own time budget, now, and return now."""
    now = time.monotonic()
    if _STEP_STARTED is not None:
        _STEP_STARTED.value = now
    return now


def _plan_wanted(outcomes: list, left: list[float | None], timeout_s: float | None) -> None:
    """Plan the tables of each document read whose plans are wanted (`_PlansWanted`): all in
    one pass (polars' fixed cost per query is then paid once, not per page), within the
    least time any of them has left. Should that pass fail, each is planned alone within
    its own time left, so that one page that cannot be planned costs the others nothing;
    a document out of time then fails as a document read out of time does."""
    from perfledger.schemas.reading_caches import refresh_caches

    wanted = {
        index: (value, value.plans)
        for index, (kind, value) in enumerate(outcomes)
        if kind == "ok" and isinstance(value, ReadDocument)
        if isinstance(value.plans, _PlansWanted)
    }
    if not wanted:
        return
    # Cells not sure to fit are left to the run's process, which checks them and plans them
    # if they pass; so is every document, should the memo not be refreshed.
    planned: dict[int, DocumentPlans | None] = {
        index: None for index, (read, _) in wanted.items() if not _surely_fit(read.parsed.cells)
    }
    try:
        refresh_caches()
    except Exception:  # noqa: BLE001 - the run's process plans them, and says why it cannot
        planned = dict.fromkeys(wanted)
    together: dict[int, list[int]] = {}  # by the mappings they are planned with
    for index, (_, want) in wanted.items():
        if index not in planned:
            together.setdefault(id(want.mappings), []).append(index)
    for indexes in together.values():
        if len(indexes) < 2:
            continue
        seconds = [left[index] for index in indexes]
        _step()
        try:
            with _within(_least(seconds), timeout_s):
                made = _plans_of([wanted[index] for index in indexes])
        except Exception:  # noqa: BLE001 - each is planned alone, below
            continue
        planned.update(zip(indexes, made, strict=True))
    for index, (read, want) in wanted.items():
        if index not in planned:
            _step()
            try:
                with _within(left[index], timeout_s):
                    planned[index] = _planned_alone(read, want)
            except BudgetExceeded as error:
                outcomes[index] = ("error", error)
                continue
        outcomes[index] = ("ok", read._replace(plans=planned[index]))


def _surely_fit(cells) -> bool:
    from perfledger.schemas.cells import surely_fits

    try:
        return surely_fits(cells)
    except Exception:  # noqa: BLE001 - the run's process checks them, and says why they fail
        return False


def _least(seconds: list[float | None]) -> float | None:
    """The least of `seconds`; None (no timer) when any is None."""
    known = [value for value in seconds if value is not None]
    return min(known) if len(known) == len(seconds) else None


def _plans_of(reads: list[tuple[ReadDocument, _PlansWanted]]) -> list[DocumentPlans]:
    from perfledger.schemas.chunk_reading import PageToPlan, plan_documents

    pages = [
        PageToPlan(
            read.parsed.cells,
            read.parsed.outline,
            read.parsed.metadata.title,
            read.parsed.metadata.language,
            want.source_id,
        )
        for read, want in reads
    ]
    return plan_documents(pages, reads[0][1].mappings)


def _planned_alone(read: ReadDocument, want: _PlansWanted) -> DocumentPlans | None:
    try:
        return _plans_of([(read, want)])[0]
    except Exception:  # noqa: BLE001 - the run's process plans the document, and says why
        return None


def _picklable(outcome: tuple[str, object]) -> tuple[str, object]:
    import pickle

    try:
        pickle.dumps(outcome)
    except Exception as error:  # noqa: BLE001 - its failure is the answer
        return "error", RuntimeError(f"{type(error).__name__}: {error}")
    return outcome


def peak_resident_mb() -> float:
    """This process's peak resident memory in MB: VmHWM where Linux gives it, which unlike
    ru_maxrss does not inherit the peak of the process that started this one."""
    import resource

    return resident_mb("self", "VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def resident_mb(pid: int | str, field: str = "VmRSS") -> float | None:
    """Resident memory of a process in MB (Linux), or None where it cannot be read.

    `field="VmHWM"` gives the peak since the process started its program; unlike ru_maxrss,
    it does not inherit the peak of the process that forked it."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class Worker:
    """A spawned process that runs the (function, batch of args) it is sent, one at a time."""

    def __init__(self, wait: bool = True):
        context = multiprocessing.get_context("spawn")
        self.connection, child_end = context.Pipe()
        self._step_started = context.RawValue("d", 0.0)  # written by the worker (`_step`)
        self.process = context.Process(
            target=_serve,
            args=(child_end, self._step_started),
            name="perfledger-document",
            daemon=True,
        )
        with _STARTING, _main_module_hidden(), _children_allowed():
            self.process.start()
        child_end.close()
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Block until the worker has imported what it needs; workers started with
        `wait=False` start side by side and are waited for together."""
        if not self.connection.poll(STARTUP_TIMEOUT_S):
            self.stop()
            raise BudgetExceeded(f"the document worker did not start in {STARTUP_TIMEOUT_S:g} s")
        self._receive()

    def exchange(self, function: Callable, args: tuple, budget: Budget) -> tuple[str, object]:
        """("ok", result) or ("error", exception); BudgetExceeded when the worker was stopped.

        The worker's resident memory is read every _WATCH_S while it works: an address-space
        limit would also count the memory its threads only reserve, which grows with cores."""
        self.submit(function, [args])
        deadline = time.monotonic() + budget.timeout_s
        while not self.connection.poll(max(0.0, min(_WATCH_S, deadline - time.monotonic()))):
            self.enforce(deadline, budget)
        answer = self._receive()
        return answer[0] if isinstance(answer, list) else answer

    def submit(
        self, function: Callable, batch: list[tuple], timeout_s: float | None = None
    ) -> None:
        """Send `function`'s work on each args of `batch` without waiting; `receive` takes the
        outcomes once the connection is ready. `timeout_s`: the time each has, kept by the
        worker; None: the caller stops the worker at the deadline (`enforce`)."""
        self._step_started.value = time.monotonic()
        self.connection.send((function, batch, timeout_s))

    def step_started(self) -> float:
        """When (time.monotonic) the worker began the step of its work it is at: reading
        one of the documents submitted, planning them, or sending them back; each step lasts
        at most the time budget of a document, the worker's timer sees to that."""
        return self._step_started.value

    def enforce(self, deadline: float, budget: Budget) -> None:
        """Stop the worker and raise BudgetExceeded when its work is past the deadline or
        its memory over the budget."""
        if time.monotonic() >= deadline:
            self.stop()
            raise BudgetExceeded(_time_reason(budget.timeout_s))
        pid = self.process.pid
        assert pid is not None, "the worker's process is started in __init__"
        if (resident_mb(pid) or 0) > budget.memory_mb:
            self.stop()
            raise BudgetExceeded(_memory_reason(budget.memory_mb))

    def receive(self) -> list[tuple[str, object]] | tuple[str, object]:
        """The ("ok", result) or ("error", exception) of each args of the batch submitted, or
        one ("error", exception) for the whole batch (a request that did not unpickle in the
        worker); BudgetExceeded when the worker died."""
        return self._receive()

    def _receive(self):
        try:
            with _collector_paused():
                return self.connection.recv()
        except (EOFError, OSError):
            self.process.join(5)
            code = self.process.exitcode
            self.stop()
            raise BudgetExceeded(_death_reason(code)) from None

    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()  # closing twice is harmless


_PAUSES = threading.Lock()
_paused = 0  # threads unpickling an answer now
_collecting = False  # whether the collector ran before the first of them paused it


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while an answer unpickles: a batch's documents, tables'
    plans above all, are thousands of new objects, every one of them reachable from the
    answer, so the passes their allocations set off (about a third of the unpickling's
    time) could free nothing they made. Counted across threads: it runs again when the
    last one is done, if it ran before the first began."""
    global _paused, _collecting
    with _PAUSES:
        if _paused == 0:
            _collecting = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _PAUSES:
            _paused -= 1
            if _paused == 0 and _collecting:
                gc.enable()


def _memory_reason(memory_mb: int) -> str:
    return (
        f"reading the document needed more than its {memory_mb:,} MB memory budget "
        f"({MEMORY_ENV}) and was stopped; it is archived but was not parsed"
    )


def _death_reason(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        how = f"was killed by {signal.Signals(-exitcode).name}"
    else:
        how = f"exited with status {exitcode}"
    return (
        f"the process reading the document {how} (out of memory, or a crash in a native "
        "parser); it is archived but was not parsed"
    )


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """'spawn' runs the parent's main script again in the child unless it is guarded by
    `if __name__ == "__main__"`; the worker needs nothing from it, so it is not named."""
    main = sys.modules["__main__"]
    names = ("__file__", "__spec__")
    saved = {name: main.__dict__[name] for name in names if name in main.__dict__}
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


def outcome_value(kind: str, payload, budget: Budget):
    """The result of a worker's ("ok"|"error", payload) outcome, or its exception raised."""
    if kind == "ok":
        return payload
    if isinstance(payload, MemoryError):
        raise BudgetExceeded(_memory_reason(budget.memory_mb)) from None
    raise payload


class WorkerPool:
    """Idle workers kept for the next document; one per thread reading at the same time."""

    def __init__(self) -> None:
        self._idle: list[Worker] = []
        self._starting: list[Worker] = []  # started by `start_soon`, maybe not ready yet
        self._lock = threading.Lock()

    def start_soon(self, count: int) -> None:
        """Start workers, without waiting for them, until `count` are idle or starting."""
        with self._lock:
            missing = count - len(self._idle) - len(self._starting)
        started = [Worker(wait=False) for _ in range(missing)]
        with self._lock:
            self._starting += started

    def run(self, function: Callable, args: tuple, budget: Budget):
        worker = self.take()
        try:
            kind, payload = worker.exchange(function, args, budget)
        except BaseException:
            worker.stop()  # stopped, or interrupted while it works: never handed out again
            raise
        self.give_back(worker)
        return outcome_value(kind, payload, budget)

    def take(self) -> Worker:
        return self.take_many(1)[0]

    def take_many(self, count: int) -> list[Worker]:
        """`count` workers: idle ones first, the others started side by side."""
        taken: list[Worker] = []
        with self._lock:
            while self._idle and len(taken) < count:
                worker = self._idle.pop()
                if worker.alive():
                    taken.append(worker)
                else:
                    worker.stop()
            started = self._starting[: count - len(taken)]
            del self._starting[: len(started)]
        started += [Worker(wait=False) for _ in range(count - len(taken) - len(started))]
        try:
            for worker in started:
                worker.wait_ready()
        except BaseException:
            for worker in started + taken:
                worker.stop()
            raise
        return taken + started

    def give_back(self, worker: Worker) -> None:
        if not worker.alive():
            worker.stop()
            return
        with self._lock:
            self._idle.append(worker)

    def stop_all(self) -> None:
        with self._lock:
            idle, self._idle = self._idle + self._starting, []
            self._starting = []
        for worker in idle:
            worker.stop()


_WORKERS = WorkerPool()


def shared_workers() -> WorkerPool:
    """The process's pool of idle workers, shared by every reader."""
    return _WORKERS
