"""The ingest stages composed as plain functions; the Prefect flow calls the same functions."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import os
import signal
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import polars as pl

from perfledger.flows import budget, readers, settings
from perfledger.flows.archived import archived_sha256
from perfledger.flows.mlperf_stage import is_results_tree_document, prepare_results_tree
from perfledger.flows.warm_up import warm_up_normalizing
from perfledger.schemas.frame_runs import parts_by
from perfledger.schemas.label_mappings import LabelMappings, mapping_path, read_mappings
from perfledger.schemas.measurements import MEASUREMENT_DTYPES
from perfledger.schemas.normalize import (
    QUARANTINE_SCHEMA,
    DocumentContext,
    empty_quarantine,
    normalize_cells,
    normalize_documents,
    quarantine_frame,
)
from perfledger.schemas.validate import validate_measurements
from perfledger.sources import archive, remote_archive
from perfledger.sources.capture_time import checked, instant, is_newer
from perfledger.sources.claims.extract import ClaimResult
from perfledger.sources.collect import (
    CollectedDocument,
    collect_captures,
    collect_paths,
    fetch_source,
    is_url,
    source_for_url,
)
from perfledger.sources.decode import UndecodableDocument, decode_document
from perfledger.sources.layouts.base import ParsedDocument
from perfledger.sources.layouts.html_table import may_hold_spans
from perfledger.sources.parse import (
    ParseFailure,
    cells_pass,
    check_cells,
    parser_version,
)
from perfledger.sources.registry import USER_REGISTRY, Registry, RegistryError, load_registry
from perfledger.warehouse import compaction, lake, location, shared_settings
from perfledger.warehouse.load import (
    DocumentLoad,
    RunCounts,
    RunStage,
    SourceState,
    commit_run,
    current_versions,
    known_documents,
    legacy_file_ids,
    with_value_counts,
)
from perfledger.warehouse.reviews import read_reviews, review_path

Progress = Callable[[str], None]


class RunTracker:
    """What a run says as it goes: by default one line per document to `progress`. A live
    display on a terminal (flows/live_progress.py) shows the same as a progress bar."""

    def __init__(self, progress: Progress = lambda message: None):
        self.progress = progress

    def message(self, text: str) -> None:
        self.progress(text)

    def collected(self, count: int) -> None:
        self.progress(f"collected {count} document(s)")

    def read(self, name: str, load: DocumentLoad) -> None:
        self.progress(f"{name}: {load.status}{' - ' + load.message if load.message else ''}")

    def writing(self) -> None:
        """The documents of a run are read; its transaction is being written."""


PREPARE_CHUNK = 64  # documents normalized and validated together by prepare_many


@dataclass
class RunResult:
    run_id: str
    snapshot_id: int | None
    documents: list[DocumentLoad]
    counts: RunCounts
    tables_found: int


@dataclass
class IngestSummary:
    """What an ingest did. Every count covers every run; `runs` holds only the runs that
    wrote a snapshot (a run that changed nothing writes none, see load.commit_run)."""

    warehouse: Path
    all_runs: list[RunResult] = field(default_factory=list)

    @property
    def runs(self) -> list[RunResult]:
        """The runs that wrote a snapshot, each with its snapshot id."""
        return [run for run in self.all_runs if run.snapshot_id is not None]

    @property
    def documents_read(self) -> int:
        return sum(len(run.documents) for run in self.all_runs)

    def count_status(self, status: str) -> int:
        return sum(1 for run in self.all_runs for d in run.documents if d.status == status)

    @property
    def tables_found(self) -> int:
        return sum(run.tables_found for run in self.all_runs)

    def total(self, name: str) -> int:
        """A value count of RunCounts summed over the runs: `values_quarantined` counts the
        values set aside (stages parse, normalize, validate), not the claim-like sentences
        set aside, which `claim_counts` gives; `perfledger quarantine` lists both."""
        return sum(getattr(run.counts, name) for run in self.all_runs)

    def claim_counts(self) -> tuple[int, int]:
        """(claims found, claim-like sentences set aside) in the documents applied."""
        applied = [d for run in self.all_runs for d in run.documents if d.status == "new"]
        return (sum(d.claims_found for d in applied), sum(d.claims_rejected for d in applied))

    @property
    def failures(self) -> list[DocumentLoad]:
        return [d for run in self.all_runs for d in run.documents if d.status == "failed"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during an ingest, with what it had committed by then (each run commits whole
    or not at all, so the run in progress wrote nothing)."""

    def __init__(self, summary: IngestSummary):
        super().__init__()
        self.summary = summary


@contextlib.contextmanager
def _interruptible(summary: IngestSummary) -> Iterator[None]:
    try:
        yield
    except Interrupted:
        raise
    except KeyboardInterrupt as interrupt:
        raise Interrupted(summary) from interrupt


def missing_paths(targets: list[str]) -> list[str]:
    """The targets that are neither a URL nor a file or folder of this machine."""
    return [target for target in targets if not is_url(target) and not os.path.lexists(target)]


def collect(
    targets: list[str],
    registry: Registry,
    warehouse: Path,
    source_name: str | None = None,
    captured_at: str | None = None,
    validators: dict | None = None,
    mlperf_round: str | None = None,
) -> list[CollectedDocument]:
    """Fetch stage: URLs are fetched, files and folders read, and with no target at all the
    named source is fetched, or else the bundled demo corpus is read."""
    store = lake.archive_dir(warehouse)
    validators = validators or {}
    if not targets and source_name is not None:
        if source_name not in registry.sources:
            raise RegistryError(
                f"no source named '{source_name}' in the registry; "
                "see `perfledger sources` or `perfledger add-source`"
            )
        return [fetch_source(registry.sources[source_name], store, validators)]
    if not targets:
        return collect_captures(registry, store)
    urls = [target for target in targets if is_url(target)]
    fetched = []
    for url in urls:
        source = (
            registry.sources[source_name]
            if source_name in registry.sources
            else source_for_url(url, registry)
        )
        fetched.append(fetch_source(source, store, validators))
    files = collect_paths(
        [Path(target) for target in targets if not is_url(target)],
        registry,
        store,
        source_name=source_name,
        captured_at=captured_at,
        mlperf_round=mlperf_round,
    )
    return fetched + files


def registry_for(warehouse: Path) -> Registry:
    """The bundled registry plus the sources the user added beside this warehouse."""
    return load_registry(user_path=warehouse / USER_REGISTRY)


def fetch_validators(connection) -> dict[str, tuple[str | None, str | None]]:
    from perfledger.warehouse.query import query_text

    rows = connection.execute(query_text("fetch_validators")).fetchall()
    return {url: (etag, last_modified) for url, etag, last_modified in rows}


def plan_runs(documents: list[CollectedDocument]) -> list[list[CollectedDocument]]:
    """Split documents, in capture order, into runs holding at most one version per source."""
    runs: list[list[CollectedDocument]] = []
    current: list[CollectedDocument] = []
    seen: set[str] = set()
    for document in sorted(documents, key=lambda d: instant(d.captured_at)):
        if document.source_id in seen:
            runs.append(current)
            current, seen = [], set()
        current.append(document)
        seen.add(document.source_id)
    if current:
        runs.append(current)
    return runs


def _quarantine_from_problems(parsed: ParsedDocument, document: CollectedDocument) -> pl.DataFrame:
    if not parsed.problems:
        return empty_quarantine()
    rows = [
        {
            "document_sha256": document.document_sha256,
            "source_id": document.source_id,
            "stage": "parse",
            "check": problem.check,
            "reason": problem.reason,
            "table_index": problem.table_index,
            "table_title": None,
            "row_number": None,
            "column_name": None,
            "raw_value": problem.raw,
            "raw_row": None,
            "line_number": problem.line_number,
        }
        for problem in parsed.problems
    ]
    return pl.DataFrame(rows, schema=QUARANTINE_SCHEMA)


def _quarantine_from_rejected_claims(
    rejected: pl.DataFrame, document: CollectedDocument
) -> pl.DataFrame:
    if rejected.height == 0:
        return empty_quarantine()  # the usual case, without a query
    return quarantine_frame(
        rejected,
        document_sha256=archived_sha256(document),
        source_id=document.source_id,
        stage="claims",
        check=pl.col("check"),
        reason=pl.col("reason"),
        raw_value=pl.col("sentence"),
        line_number=pl.col("line_number"),
    )


def prepare(
    document: CollectedDocument,
    known: set[str],
    current: dict[str, SourceState],
    warehouse: Path,
    force: bool = False,
    mappings: LabelMappings | None = None,
) -> DocumentLoad:
    """Parse, normalize and validate one document version into what the load stage writes.

    `force` re-reads a version already applied (after a vocabulary or parser fix).
    `mappings`: the label mappings to apply, as the run read them (a worker on another
    machine has no copy of the warehouse's); by default those beside `warehouse`.
    """
    item = _triage(document, known, current, warehouse, force)
    if isinstance(item, DocumentLoad):
        return item
    outcome = next(readers.read_all(budget.read_archived, [_read_job(item, warehouse)]))
    read = _parsed_from(item, outcome, known)
    if isinstance(read, DocumentLoad):
        return read
    if mappings is None:
        mappings = label_mappings(warehouse)
    normalized = normalize_cells(read.parsed.cells, read.context, mappings)
    good, invalid = validate_measurements(normalized.measurements)
    return _finish(read, normalized.quarantine, good, invalid, known)


def prepare_many(
    documents: Iterable[CollectedDocument],
    known: set[str],
    current: dict[str, SourceState],
    warehouse: Path,
    force: bool = False,
) -> Iterator[DocumentLoad]:
    """`prepare` for each document, in order, with the same results.

    The documents to read are read side by side by flows/readers.py (worker processes for a
    large run) while this process normalizes and validates them PREPARE_CHUNK at a time,
    since each polars query and pandera check costs more in fixed overhead than one page's
    rows take."""
    triaged = [
        (document, _triage(document, known, current, warehouse, force)) for document in documents
    ]
    mappings = label_mappings(warehouse)
    # Reader processes also plan the tables of what they read (budget.read_archived), while
    # this process reads the values of the chunk before.
    plan = readers.reads_in_workers(sum(isinstance(item, _ToRead) for _, item in triaged))
    jobs = [
        _read_job(item, warehouse, check=False, mappings=mappings if plan else None)
        for _, item in triaged
        if isinstance(item, _ToRead)
    ]
    # Readers work up to a chunk ahead, so that they go on while this process normalizes.
    # While they start, this process compiles what normalizing needs, as they do for reading.
    outcomes = readers.read_all(
        budget.read_archived, jobs, lookahead=PREPARE_CHUNK, meanwhile=warm_up_normalizing
    )
    try:
        pending: list[DocumentLoad | _Parsed] = []
        sources: set[str] = set()
        for document, item in triaged:
            if len(sources) >= PREPARE_CHUNK or document.source_id in sources:
                yield from _finish_chunk(pending, known, mappings)
                pending, sources = [], set()
            read = _parsed_from(item, next(outcomes), known) if isinstance(item, _ToRead) else item
            pending.append(read)
            if isinstance(read, _Parsed):
                sources.add(document.source_id)
        yield from _finish_chunk(pending, known, mappings)
    finally:
        outcomes.close()


@dataclass
class _ToRead:
    """A document version that must be read: its bytes are new, or a re-read is forced."""

    document: CollectedDocument
    base: DocumentLoad
    state: SourceState | None
    current_s: float | None  # when the current version was captured; None: none is
    force: bool


@dataclass
class _Parsed:
    """A document version read and parsed, waiting for normalization."""

    document: CollectedDocument
    base: DocumentLoad
    parsed: ParsedDocument
    context: DocumentContext
    state: SourceState | None
    current_s: float | None
    force: bool
    layout_name: str
    claims: ClaimResult


def _triage(
    document: CollectedDocument,
    known: set[str],
    current: dict[str, SourceState],
    warehouse: Path,
    force: bool,
) -> DocumentLoad | _ToRead:
    """The finished DocumentLoad when the document needs no reading, else what reading needs."""
    base = DocumentLoad(
        source_id=document.source_id,
        source_url=document.source_url,
        document_sha256=document.document_sha256 or "",
        status="failed",
    )
    base.fetch_record = document.fetch
    if document.error is not None:
        base.message = document.error
        base.errors.append((document.location, "fetch", document.error))
        return base
    if document.not_modified:
        base.status = "unchanged"
        base.message = "the server answered 304 Not Modified"
        return base
    sha256 = document.document_sha256
    state = current.get(document.source_id)
    current_sha = state.document_sha256 if state else None
    current_s = state.captured_s if state else None
    base.previous_sha256 = current_sha
    if force and sha256 == current_sha:
        current_s = None
    elif sha256 == current_sha or (
        sha256 in known and not is_newer(document.captured_at, current_s)
    ):
        base.status = "unchanged"
        base.message = "same bytes as a version already read"
        return base
    if is_results_tree_document(document):  # its files meet the size budget one by one
        try:
            prepared = prepare_results_tree(document, base, warehouse, sha256 not in known)
        except Exception as error:  # a broken tree fails alone, as a broken page does
            return _parse_failed(document, base, _unexpected(error), known)
        prepared.status = "new" if is_newer(document.captured_at, current_s) else "stale"
        return prepared
    refusal = budget.size_refusal(document.byte_size)
    if refusal is not None:
        return _parse_failed(document, base, ParseFailure(refusal), known)
    return _ToRead(document, base, state, current_s, force)


def _read_job(
    item: _ToRead, warehouse: Path, check: bool = True, mappings: LabelMappings | None = None
) -> readers.ReadJob:
    """Parse and claims run under the document's time budget, in a worker process for a
    large document or a large run; see flows/budget.py and flows/readers.py. With the
    run's `mappings`, a worker process plans the document's tables too."""
    document = item.document
    args = (
        lake.archive_dir(warehouse),
        archived_sha256(document),
        document.content_type,
        document.layout,
        check,
        document.archive_url,
        (document.source_id, mappings) if mappings is not None else None,
    )
    return readers.ReadJob(
        args, document.byte_size, functools.partial(_may_hold_spans, document, warehouse)
    )


def _may_hold_spans(document: CollectedDocument, warehouse: Path) -> bool:
    """False only for a document large enough for the question to matter, whose text has
    no span attribute; a document that cannot be read here says True and fails where it
    is read, with the reason."""
    isolate_above = budget.Budget.from_env().isolate_above_bytes
    if not isolate_above < document.byte_size <= isolate_above * budget.SPAN_FREE_FACTOR:
        return True  # where it is read does not depend on the answer
    try:
        data = remote_archive.read(
            lake.archive_dir(warehouse), archived_sha256(document), document.archive_url
        )
        text, _ = decode_document(data, document.content_type)
    except (OSError, UndecodableDocument):
        return True
    return may_hold_spans(text)


def _parsed_from(
    item: _ToRead, outcome: readers.Outcome, known: set[str]
) -> DocumentLoad | _Parsed:
    document, base = item.document, item.base
    try:
        parsed, layout_name, claims, plans = budget.outcome_value(
            *outcome, budget.Budget.from_env()
        )
    except (ParseFailure, budget.BudgetExceeded) as error:
        return _parse_failed(document, base, error, known)
    except Exception as error:  # a parser bug on one page must not cost the run the others
        return _parse_failed(document, base, _unexpected(error), known)
    context = DocumentContext(
        source_id=document.source_id,
        source_url=document.source_url,
        document_sha256=archived_sha256(document),
        document_title=parsed.metadata.title,
        captured_at=document.captured_at,
        parser_version=parser_version(layout_name),
        language=parsed.metadata.language,
        outline=parsed.outline,
        plans=plans,
    )
    return _Parsed(
        document, base, parsed, context, item.state, item.current_s, item.force, layout_name, claims
    )


def label_mappings(warehouse: Path) -> LabelMappings:
    """The label mappings recorded beside the warehouse (`perfledger map-label`)."""
    return read_mappings(mapping_path(warehouse))


def _unexpected(error: Exception) -> ParseFailure:
    return ParseFailure(f"reading the document failed: {type(error).__name__}: {error}")


def _parse_failed(
    document: CollectedDocument,
    base: DocumentLoad,
    error: Exception,
    known: set[str],
    stage: str = "parse",
) -> DocumentLoad:
    base.message = f"{document.location}: {error}"
    base.errors.append((document.location, stage, str(error)))
    base.document_row = _document_row(document, None, "unparsed", known)
    return base


def _check_chunk_cells(
    pending: list[DocumentLoad | _Parsed], known: set[str]
) -> list[DocumentLoad | _Parsed]:
    """The chunk's cells checked at once; only when that fails is each document checked, so
    a document with malformed cells fails alone, as it does in `prepare`."""
    parsed = [item.parsed.cells for item in pending if isinstance(item, _Parsed)]
    if not parsed or cells_pass(parsed):
        return pending
    checked: list[DocumentLoad | _Parsed] = []
    for item in pending:
        if isinstance(item, _Parsed):
            try:
                check_cells(item.parsed, item.layout_name)
            except ParseFailure as error:
                item = _parse_failed(item.document, item.base, error, known)
        checked.append(item)
    return checked


def _finish_chunk(
    pending: list[DocumentLoad | _Parsed], known: set[str], mappings: LabelMappings
) -> Iterator[DocumentLoad]:
    """Normalize and validate the parsed documents of a chunk together, then finish each."""
    pending = _check_chunk_cells(pending, known)
    parsed = [item for item in pending if isinstance(item, _Parsed)]
    if not parsed:  # nothing to normalize: every document is finished already
        yield from (item for item in pending if isinstance(item, DocumentLoad))
        return
    try:
        normalized = normalize_documents(
            [(item.parsed.cells, item.context) for item in parsed], mappings
        )
    except Exception:  # noqa: BLE001 - a document the reading fails on fails alone, below
        pending, normalized = _normalized_one_by_one(pending, known, mappings)
        parsed = [item for item in pending if isinstance(item, _Parsed)]
        if not parsed:
            yield from (item for item in pending if isinstance(item, DocumentLoad))
            return
    frames = [n.measurements for n in normalized]
    try:
        chunk = pl.concat(frames)
    except pl.exceptions.SchemaError:  # a document's frame typed otherwise: cast them all
        schema = pl.Schema(MEASUREMENT_DTYPES)
        chunk = pl.concat([frame.cast(schema) for frame in frames])
    good, invalid = validate_measurements(chunk)
    # A chunk holds one version per source, so the source tells the documents apart.
    good_by = parts_by(good, "source_id")
    invalid_by = parts_by(invalid, "source_id")
    quarantine_of = {id(item): n.quarantine for item, n in zip(parsed, normalized, strict=True)}
    for item in pending:
        if isinstance(item, DocumentLoad):
            yield item
            continue
        key = (item.document.source_id,)
        good_rows = good_by[key] if key in good_by else good.clear()
        invalid_rows = invalid_by[key] if key in invalid_by else invalid.clear()
        yield _finish(item, quarantine_of[id(item)], good_rows, invalid_rows, known)


def _normalized_one_by_one(
    pending: list[DocumentLoad | _Parsed], known: set[str], mappings: LabelMappings
) -> tuple[list[DocumentLoad | _Parsed], list]:
    """The chunk's documents read one by one, after reading them together failed: a document
    whose tables the reading fails on fails alone, the error its reason, and its bytes stay
    in the archive for `perfledger reprocess` once the reading is mended; the others load."""
    kept: list[DocumentLoad | _Parsed] = []
    normalized = []
    for item in pending:
        if isinstance(item, _Parsed):
            try:
                normalized += normalize_documents([(item.parsed.cells, item.context)], mappings)
            except Exception as error:  # noqa: BLE001 - its failure is the document's outcome
                reason = f"reading its tables failed ({type(error).__name__}: {error})"
                failure = ParseFailure(reason)
                item = _parse_failed(item.document, item.base, failure, known, "normalize")
        kept.append(item)
    return kept, normalized


def _finish(
    read: _Parsed,
    normalized_quarantine: pl.DataFrame,
    good: pl.DataFrame,
    invalid: pl.DataFrame,
    known: set[str],
) -> DocumentLoad:
    """Claims, quarantine and status of a normalized, validated document version."""
    document, base, parsed, state = read.document, read.base, read.parsed, read.state
    claims = read.claims
    parts = [
        _quarantine_from_problems(parsed, document),
        normalized_quarantine,
        invalid,
        _quarantine_from_rejected_claims(claims.rejected, document),
    ]
    found = [part for part in parts if part.height]
    quarantine = pl.concat(found) if found else empty_quarantine()
    base.claims = claims.claims
    base.document_row = _document_row(document, parsed, read.context.parser_version, known)
    base.cells = parsed.cells if document.document_sha256 not in known else None
    base.measurements = good
    base.quarantine = quarantine
    base.status = "new" if is_newer(document.captured_at, read.current_s) else "stale"
    if base.status == "new" and good.height == 0 and state and state.value_count and not read.force:
        # A version without a single value where the last one had many is far more often a
        # broken or error page than a real withdrawal: keep the stored values.
        base.status = "failed"
        base.message = (
            f"{document.location}: no value found where the stored version has "
            f"{state.value_count}; stored values kept"
        )
        base.errors.append((document.location, "validate", base.message))
        return base
    set_aside = claims.rejected.height
    # The run's summary counts the same two kinds apart: values quarantined, and claim-like
    # sentences set aside (both are rows of `perfledger quarantine`, stage "claims" for these).
    base.message = (
        f"{parsed.table_count} tables, {good.height} values, "
        f"{quarantine.height - set_aside} values quarantined, {claims.claims.height} claims"
        + (
            f" ({set_aside} claim-like sentence{'s' if set_aside > 1 else ''} set aside)"
            if set_aside
            else ""
        )
        if base.status == "new"
        else "older than the version already read: archived, not applied"
    )
    base.tables_found = parsed.table_count
    base.prose = parsed.prose
    return base


def _document_row(
    document: CollectedDocument, parsed: ParsedDocument | None, version: str, known: set[str]
) -> dict | None:
    if document.document_sha256 in known:
        return None
    metadata = parsed.metadata if parsed else None
    return {
        "document_sha256": document.document_sha256,
        "source_id": document.source_id,
        "source_url": document.source_url,
        "content_type": document.content_type,
        "byte_size": document.byte_size,
        "layout": version.split("/")[0],
        "parser_version": version,
        "title": metadata.title if metadata else None,
        "author": metadata.author if metadata else None,
        "published_date": metadata.published_date if metadata else None,
        "last_updated_date": metadata.last_updated_date if metadata else None,
        "language": metadata.language if metadata else None,
        "captured_at": document.captured_at,
        "archive_path": document.archive_path,
        "first_run_id": None,
        "tables_found": parsed.table_count if parsed else 0,
        "cells_found": parsed.cells.height if parsed else 0,
    }


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ-") + uuid.uuid4().hex[:8]


def write_run(
    connection,
    documents: Iterable[DocumentLoad],
    trigger: str,
    started_at: str,
    warehouse: Path,
    summary: IngestSummary | None = None,
) -> RunResult:
    """Load stage for one run: one transaction, one snapshot; the run is added to `summary`.

    `documents` may be a generator: each document is staged as soon as it is prepared, so
    a run of any size holds one batch of frames in memory, never the whole run."""
    run_id = new_run_id()
    with RunStage(warehouse) as stage:
        for document in documents:
            if document.document_row is not None:
                document.document_row["first_run_id"] = run_id
            stage.add(document)
        loaded = stage.documents
        tables = sum(d.tables_found for d in loaded if d.status == "new")
        run = {
            "run_id": run_id,
            "started_at": started_at,
            "finished_at": datetime.now(UTC).isoformat(),
            "trigger": trigger,
            "parser_version": "",
            "documents_read": len(loaded),
            "documents_new": sum(d.status == "new" for d in loaded),
            "documents_unchanged": sum(d.status == "unchanged" for d in loaded),
            "documents_failed": sum(d.status == "failed" for d in loaded),
            "tables_found": tables,
        }
        reviews = read_reviews(review_path(warehouse))
        budget.pause_at("load")  # test-only: a crash test kills the run here
        with _ctrl_c_after_commit():
            counts = commit_run(connection, run, stage, reviews)
            if counts is None:  # the run changed nothing, and wrote no snapshot
                result = RunResult(run_id, None, loaded, RunCounts(), tables)
            else:
                result = RunResult(
                    run_id, lake.current_snapshot(connection), loaded, counts, tables
                )
            if summary is not None:
                summary.all_runs.append(result)
    return result


@contextlib.contextmanager
def _ctrl_c_after_commit() -> Iterator[None]:
    """Ctrl-C during a run's commit takes effect once the commit is over and counted: an
    interrupted ingest then knows exactly which runs it committed."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread receives it
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _current_documents(connection, registry: Registry, warehouse: Path) -> list[CollectedDocument]:
    from perfledger.warehouse.query import query_text

    documents = []
    archive_url = location.archive_url(warehouse)
    for row in connection.execute(query_text("current_documents")).fetchall():
        source_id, url, path, content_type, size, sha256, captured_at = row
        source = registry.sources.get(source_id)
        documents.append(
            CollectedDocument(
                source_id=source_id,
                source_url=url,
                location=path,
                captured_at=captured_at,
                content_type=content_type or "",
                layout=source.layout if source else "auto",
                document_sha256=sha256,
                archive_path=path,
                byte_size=size,
                archive_url=archive_url,
            )
        )
    return documents


@functools.cache
def _freeze_startup_objects() -> None:
    """Spare the cyclic garbage collector the objects alive before the first run: the
    modules, mostly. A run allocates enough to trigger full collections, and each one would
    walk those objects again (a tenth of a second of a re-run of 1,000 unchanged files).
    Once per process, so that no garbage of an earlier run is frozen with them."""
    gc.freeze()


def reprocess(
    warehouse: Path,
    *,
    source_names: list[str] | None = None,
    wait_s: float = 0.0,
    progress: Progress = lambda message: None,
    tracker: RunTracker | None = None,
) -> IngestSummary:
    """Re-read the archived current version of each source with today's parser and vocabularies.

    Nothing is fetched: values quarantined for an unknown label come back once the
    vocabulary knows it, and a parser fix applies to stored pages.
    """
    lake.require_warehouse(warehouse)  # there is nothing to re-read in a new one
    tracker = tracker or RunTracker(progress)
    _freeze_startup_objects()
    shared_settings.pull(warehouse)
    registry = registry_for(warehouse)
    summary = IngestSummary(warehouse=warehouse)
    with _interruptible(summary), lake.writer_lock(warehouse, wait_s, waiting=tracker.message):
        connection = lake.connect(warehouse, views=False)
        try:
            documents = [
                d
                for d in _current_documents(connection, registry, warehouse)
                if not source_names or d.source_id in source_names
            ]
            known = known_documents(connection)
            current = with_value_counts(
                connection,
                current_versions(connection),
                {document.source_id for document in documents},
            )
            started = datetime.now(UTC).isoformat()
            if documents:
                tracker.collected(len(documents))
                prepared = _followed_by(
                    _reported(
                        documents,
                        prepare_many(documents, known, current, warehouse, force=True),
                        lambda document, load: tracker.read(document.source_id, load),
                    ),
                    tracker.writing,
                )
                write_run(connection, prepared, "reprocess", started, warehouse, summary)
        finally:
            connection.close()
    return summary


def _prepare_run(
    batch: list[CollectedDocument],
    prepare_stage: Callable | None,
    known: set[str],
    current: dict[str, SourceState],
    warehouse: Path,
) -> Iterator[DocumentLoad]:
    """A run's documents prepared in order, as the load stage asks for them: by the given
    stage one at a time, or else by prepare_many."""
    if prepare_stage is None:
        return prepare_many(batch, known, current, warehouse)
    return (prepare_stage(document, known, current, warehouse) for document in batch)


def _followed_by(
    items: Iterator[DocumentLoad], action: Callable[[], None]
) -> Iterator[DocumentLoad]:
    yield from items
    action()


def _reported(
    documents: list[CollectedDocument],
    loads: Iterator[DocumentLoad],
    report: Callable[[CollectedDocument, DocumentLoad], None],
) -> Iterator[DocumentLoad]:
    for document, load in zip(documents, loads, strict=True):
        report(document, load)
        yield load


def ingest(
    targets: list[str],
    warehouse: Path,
    *,
    trigger: str = "cli",
    wait_s: float = 0.0,
    progress: Progress = lambda message: None,
    collect_stage: Callable | None = None,
    prepare_stage: Callable | None = None,
    source_name: str | None = None,
    captured_at: str | None = None,
    mlperf_round: str | None = None,
    tracker: RunTracker | None = None,
) -> IngestSummary:
    """Collect, parse, normalize, validate and load; one snapshot per planned run.

    The stage callables default to the plain functions (for the prepare stage, prepare_many:
    prepare's results, a chunk of documents at a time); the Prefect flow passes its tasks,
    which wrap the same functions, so both paths give the same values. `tracker` says how
    the run goes (by default, lines to `progress`).
    """
    collect_stage = collect_stage or collect
    tracker = tracker or RunTracker(progress)
    if any(not target.strip() for target in targets):
        # Path("") is the current folder: an unset shell variable would ingest all of it.
        raise ValueError("an empty PATH_OR_URL was given; name a file, folder or URL")
    if missing := missing_paths(targets):
        # Before anything is opened: a mistyped path creates no warehouse and runs nothing.
        raise ValueError(f"no such file or folder: {', '.join(missing)}; nothing was read")
    if captured_at is not None:
        captured_at = checked(captured_at, "--captured-at")
    merge_every = settings.merge_every()
    readers.start_early(targets)
    _freeze_startup_objects()
    shared_settings.pull(warehouse)  # a shared warehouse's sources, mappings and reviews
    registry = registry_for(warehouse)
    summary = IngestSummary(warehouse=warehouse)
    with _interruptible(summary), lake.writer_lock(warehouse, wait_s, waiting=tracker.message):
        connection, documents, first_current = _open_and_collect(
            lambda validators: collect_stage(
                targets, registry, warehouse, source_name, captured_at, validators, mlperf_round
            ),
            warehouse,
            fetching=_fetches(targets, source_name),
        )
        try:
            if source_name is None:
                documents = with_legacy_ids(documents, legacy_file_ids(connection))
            tracker.collected(len(documents))
            documents = _mirror_archive(documents, warehouse, first_current, tracker.message)
            budget.pause_at("collected")  # test-only: a crash test kills the run here
            runs = plan_runs(documents)
            for position, batch in enumerate(runs):
                started = datetime.now(UTC).isoformat()
                # The first run's current versions were read as the warehouse opened; each
                # later run reads them again, after the run before changed them.
                current = current_versions(connection) if first_current is None else first_current
                first_current = None
                read = _sources_read(batch, current)
                # Only a document that is not its source's current version is looked up in
                # `known`: a run of unchanged files needs neither it nor the value counts.
                known = known_documents(connection) if read else set()
                current = with_value_counts(connection, current, read)
                prepared = _followed_by(
                    _reported(
                        batch,
                        _prepare_run(batch, prepare_stage, known, current, warehouse),
                        lambda document, load: tracker.read(document.location, load),
                    ),
                    tracker.writing,
                )
                if position == len(runs) - 1:
                    # Once the last run is read, the idle readers' memory need not wait for
                    # its commit (the largest part of a large run's peak).
                    prepared = _followed_by(prepared, budget.stop_workers)
                write_run(connection, prepared, trigger, started, warehouse, summary)
                _merge_when_due(
                    connection, summary.all_runs[-1].snapshot_id, merge_every, tracker.message
                )
        finally:
            connection.close()
            budget.stop_workers()  # those started early for a run that read nothing, too
    return summary


def with_legacy_ids(
    documents: list[CollectedDocument], legacy: dict[str, str]
) -> list[CollectedDocument]:
    """Files whose source was named by an earlier version (the stem of the file's name, see
    migration 012) keep that source: found by the URL of its current version's file."""
    if not legacy:
        return documents
    return [
        dataclasses.replace(document, source_id=legacy[document.source_url])
        if document.source_url in legacy and document.source_id.startswith("file-")
        else document
        for document in documents
    ]


def _mirror_archive(
    documents: list[CollectedDocument],
    warehouse: Path,
    current: dict[str, SourceState],
    progress: Progress,
) -> list[CollectedDocument]:
    """A shared warehouse's documents put on its bucket before any snapshot names them, and
    marked as kept there, so that every machine reads them (sources/remote_archive.py).
    Only documents that are not their source's current version can be missing there."""
    url = location.archive_url(warehouse)
    if url is None:
        return documents
    local = lake.archive_dir(warehouse)
    # A document that failed after it was archived (over a budget, say) is recorded too.
    new = [
        (sha256, document)
        for document in documents
        if (sha256 := document.document_sha256) is not None
        and (document.error is None or archive.stored_path(local, sha256) is not None)
        and (
            document.source_id not in current
            or current[document.source_id].document_sha256 != sha256
        )
    ]
    sha256s = [sha256 for sha256, _ in new]
    for sha256, document in new:
        if is_results_tree_document(document):
            sha256s += remote_archive.manifest_members(local, sha256, url)
    put = remote_archive.upload(local, url, sha256s)
    if put:
        progress(f"archived {put} file(s) on {url}")
    return [dataclasses.replace(document, archive_url=url) for document in documents]


def _merge_when_due(connection, snapshot_id: int | None, every: int, progress: Progress) -> None:
    """Merge the warehouse's small files once every `every` snapshots (see
    warehouse/compaction.py). The run is committed by then: a merge that fails leaves the
    files as they were, says why, and the next due run tries again. A run that wrote no
    snapshot (None) added no file."""
    if snapshot_id is None or not compaction.due(snapshot_id, every):
        return
    try:
        # test-only: a crash test kills the run here, its merge written but not committed
        merged = compaction.compact(connection, before_commit=lambda: budget.pause_at("merge"))
    except duckdb.Error as error:
        progress(f"small files not merged this time: {error}")
        return
    progress(f"merged {merged.files_merged} small data files into {merged.files_written}")


def _open_and_collect(
    collect_documents: Callable[[dict], list[CollectedDocument]],
    warehouse: Path,
    *,
    fetching: bool,
) -> tuple[duckdb.DuckDBPyConnection, list[CollectedDocument], dict[str, SourceState]]:
    """The warehouse opened, its current versions read and the documents collected.

    Reading files needs nothing from the warehouse, so they are read while another thread
    opens it (DuckDB works without holding the GIL): a re-run of unchanged files is mostly
    these two waits. Fetching needs the validators of the last fetches first."""
    if fetching:
        connection, current = _open_for_run(warehouse)
        try:
            return connection, collect_documents(fetch_validators(connection)), current
        except BaseException:
            connection.close()
            raise
    with ThreadPoolExecutor(1, thread_name_prefix="perfledger-open") as pool:
        opening = pool.submit(_open_for_run, warehouse)
        try:
            documents = collect_documents({})
        except BaseException:
            with contextlib.suppress(Exception):
                opening.result()[0].close()
            raise
        connection, current = opening.result()
    return connection, documents, current


def _open_for_run(warehouse: Path) -> tuple[duckdb.DuckDBPyConnection, dict[str, SourceState]]:
    connection = lake.connect(warehouse, views=False)
    try:
        return connection, current_versions(connection)
    except BaseException:
        connection.close()
        raise


def _fetches(targets: list[str], source_name: str | None) -> bool:
    """Whether collecting fetches a URL, and needs the validators of the last fetches."""
    return any(is_url(target) for target in targets) or (not targets and source_name is not None)


def _sources_read(batch: list[CollectedDocument], current: dict[str, SourceState]) -> set[str]:
    """The sources of the batch whose document is not their current version."""
    return {
        document.source_id
        for document in batch
        if document.source_id not in current
        or current[document.source_id].document_sha256 != document.document_sha256
    }
