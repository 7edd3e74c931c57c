"""Load one run into the warehouse: a single transaction, so a single DuckLake snapshot."""

from __future__ import annotations

import contextlib
import json
import tempfile
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, get_args

import duckdb
import polars as pl

from perfledger.warehouse import lake, sql
from perfledger.warehouse.lake import LAKE
from perfledger.warehouse.mlperf_load import load_official
from perfledger.warehouse.reviews import apply_reviews
from perfledger.warehouse.single_row import single_value

# Frames a run stages per document before its transaction writes them.
StagedFrame = Literal["cells", "measurements", "quarantine", "claims"]
STAGED_FRAMES: tuple[StagedFrame, ...] = get_args(StagedFrame)
STAGE_BATCH_ROWS = 20_000  # rows held per frame before they are spilled to the stage folder
# The commit applies a run's values this many staged rows at a time (whole parts, whole
# sources): what it holds of them (keys, marks) then stays the same whatever the run's size.
COMMIT_GROUP_ROWS = 200_000

# Columns whose change is a change of the published value; lineage and position are not.
# The columns added later (statistic, spread, qualifier, settings, row_label, label_sources,
# unresolved) are not hashed: the statistic, the remark and the settings are part of the
# value's key, a spread is part of its raw text, and the others say where its labels came
# from; hashing them would make every value of every existing warehouse look changed.
CONTENT_COLUMNS = (
    "row_identity",
    "model",
    "model_canonical",
    "variant",
    "platform",
    "vendor",
    "system",
    "accelerator",
    "accelerator_count",
    "sdk_version",
    "sdk",
    "sdk_prerelease",
    "framework",
    "framework_canonical",
    "dataset",
    "batch_size",
    "batch_size_number",
    "precision",
    "activation_dtype",
    "weight_dtype",
    "division",
    "quality_target",
    "mlperf_id",
    "workload",
    "phase",
    "metric",
    "value",
    "unit",
    "item_kind",
    "value_per_accelerator",
    "published_number",
    "unit_published",
    "approximate",
    "raw_value",
)


@dataclass
class RunCounts:
    values_added: int = 0
    values_changed: int = 0
    values_removed: int = 0
    values_quarantined: int = 0


@dataclass
class DocumentLoad:
    """One document version as the load stage receives it."""

    source_id: str
    source_url: str
    document_sha256: str
    status: str  # "new" (apply), "unchanged", "stale", "failed"
    message: str = ""
    document_row: dict | None = None  # columns of the documents table, for a first sighting
    cells: pl.DataFrame | None = None
    measurements: pl.DataFrame | None = None
    quarantine: pl.DataFrame | None = None
    errors: list[tuple[str, str, str]] = field(default_factory=list)  # (location, stage, reason)
    tables_found: int = 0
    prose: list[tuple[int, str]] = field(default_factory=list)
    counts: RunCounts = field(default_factory=RunCounts)  # this document's share of the run
    previous_sha256: str | None = None  # the version this one replaces
    claims: pl.DataFrame | None = None
    fetch_record: dict | None = None
    mlperf: object | None = None  # official MLPerf results read from a results tree
    # What the run's summary says of the claims once the frames are staged (and let go).
    claims_found: int = 0
    claims_rejected: int = 0


def legacy_file_ids(connection: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The ids of sources read before a file's id was its path (migration 012), by the URL
    of the file each one's current version came from: `file:///.../b/index.html` ->
    `file-index`."""
    return dict(
        connection.execute("SELECT source_url, source_id FROM legacy_file_sources").fetchall()
    )


def known_documents(connection: duckdb.DuckDBPyConnection) -> set[str]:
    rows = connection.execute("SELECT document_sha256 FROM documents").fetchall()
    return {row[0] for row in rows}


@dataclass(frozen=True)
class SourceState:
    """The version a source's current values come from."""

    document_sha256: str
    captured_s: float  # seconds since the epoch
    # How many values that version holds; None until with_value_counts counted them, which
    # a run does only for the sources it reads a new version of.
    value_count: int | None = None


def current_versions(connection: duckdb.DuckDBPyConnection) -> dict[str, SourceState]:
    """Each source's current version: the last one applied, by capture time. Read from
    document_revisions, a row per applied version (migration 007 filled in the versions
    applied before it existed), not from run_documents, which grows with every run."""
    rows = connection.execute(
        """
        SELECT source_id, arg_max(document_sha256, captured_at), epoch(max(captured_at))
        FROM document_revisions GROUP BY source_id
        """
    ).fetchall()
    # Seconds, compared with documents' capture times as instants (sources/capture_time.py).
    return {source_id: SourceState(sha256, seconds) for source_id, sha256, seconds in rows}


def with_value_counts(
    connection: duckdb.DuckDBPyConnection,
    current: dict[str, SourceState],
    source_ids: Iterable[str],
) -> dict[str, SourceState]:
    """`current`, with the stored values of these sources counted (a scan of the values:
    a run asks it only for the sources it reads a new version of)."""
    wanted = sorted(set(source_ids) & current.keys())
    if not wanted:
        return current
    with sql.text_in(connection, "source_id", wanted, "_counted_sources") as counted:
        counts = dict(
            connection.execute(
                f"SELECT source_id, count(*) FROM measurement_values WHERE {counted} GROUP BY 1"
            ).fetchall()
        )
    return current | {
        source_id: replace(current[source_id], value_count=counts.get(source_id, 0))
        for source_id in wanted
    }


def load_run(
    connection: duckdb.DuckDBPyConnection,
    run: dict,
    documents: Iterable[DocumentLoad],
    reviews: pl.DataFrame | None = None,
) -> RunCounts | None:
    """Write a run's documents, cells, value changes and quarantine; commit once or not at
    all (None: the run changed nothing; see commit_run)."""
    with RunStage() as stage:
        for document in documents:
            stage.add(document)
        return commit_run(connection, run, stage, reviews)


class RunStage:
    """A run's documents as they are prepared: the large frames are spilled to Parquet files
    batch by batch, so memory holds one batch whatever the number of documents, and the
    commit writes each table with one statement (one data file, not one per document)."""

    def __init__(self, parent: Path | None = None):
        self._folder = tempfile.TemporaryDirectory(prefix=".staging-", dir=parent)
        self.folder = Path(self._folder.name)
        self.documents: list[DocumentLoad] = []
        self._applied_sources: set[str] = set()
        self._buffers: dict[StagedFrame, list[pl.DataFrame]] = {name: [] for name in STAGED_FRAMES}
        self._rows = dict.fromkeys(STAGED_FRAMES, 0)
        self._parts = dict.fromkeys(STAGED_FRAMES, 0)
        self._cell_documents: list[tuple[str, int]] = []  # (document_sha256, rows) buffered
        self._value_keys = _StagedValueKeys()
        self._buffered_value_sources: list[str] = []  # sources of the buffered measurements
        self._part_value_sources: list[tuple[list[str], int]] = []  # (sources, rows) per part

    def __enter__(self) -> RunStage:
        return self

    def __exit__(self, *_exc) -> None:
        self._value_keys.close()  # before the folder goes: it writes there
        self._folder.cleanup()

    def add(self, document: DocumentLoad) -> None:
        """Stage one document's frames and keep only its small parts in memory."""
        if document.cells is not None and document.cells.height:
            # The document column is added once per batch (see _batch): one polars call per
            # document cost more than the column itself.
            self._cell_documents.append((document.document_sha256, document.cells.height))
            self._append("cells", document.cells)
        if document.status == "new":
            # Each source appears once per run (see flows.pipeline.plan_runs): the set-based
            # writes below attribute every staged row to its source.
            if document.source_id in self._applied_sources:
                raise ValueError(f"source {document.source_id} has two new versions in one run")
            self._applied_sources.add(document.source_id)
            if document.measurements is not None and document.measurements.height:
                self._buffered_value_sources.append(document.source_id)
            self._append("measurements", document.measurements)
            self._append("quarantine", document.quarantine)
            if document.quarantine is not None:
                # A comparison of one column, not a filter of the frame: a tenth of the cost.
                document.counts.values_quarantined += int(
                    (document.quarantine.get_column("stage") != "claims").sum()
                )
            if document.claims is not None and document.claims.height:
                self._append(
                    "claims",
                    document.claims.select(
                        pl.lit(document.source_id).alias("source_id"),
                        pl.lit(document.source_url).alias("source_url"),
                        pl.lit(document.document_sha256).alias("document_sha256"),
                        pl.all(),
                    ),
                )
        document.claims_found = document.claims.height if document.claims is not None else 0
        if document.quarantine is not None and document.quarantine.height:
            document.claims_rejected = int(
                (document.quarantine.get_column("stage") == "claims").sum()
            )
        # Only the small parts stay: even an empty frame holds some kilobytes of its own, and
        # a run keeps every document until it commits.
        document.cells = None
        document.measurements = None
        document.quarantine = None
        document.claims = None
        document.prose = []
        self.documents.append(document)

    def _append(self, name: StagedFrame, frame: pl.DataFrame | None) -> None:
        if frame is None or frame.height == 0:
            return
        self._buffers[name].append(frame)
        self._rows[name] += frame.height
        if self._rows[name] >= STAGE_BATCH_ROWS:
            self._spill(name)

    def _batch(self, name: StagedFrame) -> pl.DataFrame:
        """The frames buffered under `name` as one frame."""
        frame = _concat(self._buffers[name])
        if name == "cells":
            frame = frame.with_columns(_repeated("document_sha256", self._cell_documents))
        return frame

    def _spill(self, name: StagedFrame) -> None:
        # Read back once, within the run: speed matters more than size (zstd cost 3x the
        # time), and no reader filters on the statistics (a tenth of the writing time).
        frame, path = self._batch(name), self._part_path(name, self._parts[name])
        frame.write_parquet(path, compression="lz4", statistics=False)
        if name == "measurements":
            self._value_keys.add(path, frame.schema)
            self._part_value_sources.append((self._buffered_value_sources, frame.height))
            self._buffered_value_sources = []
        self._parts[name] += 1
        self._buffers[name] = []
        self._rows[name] = 0
        if name == "cells":
            self._cell_documents = []

    def _part_path(self, name: StagedFrame, part: int) -> Path:
        return self.folder / f"{name}-{part:05d}.parquet"

    def _on_disk(self, name: StagedFrame) -> str:
        """A SQL relation over the parts staged under `name`, its last batch spilled first."""
        if self._buffers[name]:
            self._spill(name)
        return self._parts_relation(name, 0, self._parts[name])

    def _parts_relation(self, name: StagedFrame, first: int, last: int) -> str:
        # A list, not a pattern: each reading of the parts sees them in one order.
        return _files_relation(
            [self._part_path(name, part) for part in range(first, last)], union_by_name=True
        )

    def spill_measurements(self) -> None:
        """Spill the last measurements of a run whose others are on disk, so that their keys
        are computed while the commit writes the cells."""
        if self._parts["measurements"] and self._buffers["measurements"]:
            self._spill("measurements")

    def value_groups(self, applied_sources: list[str]) -> list[ValueGroup]:
        """The applied sources' staged values in groups of whole parts of up to
        COMMIT_GROUP_ROWS rows, each with its sources, its rows and (once computed) their
        keys; the applied sources without a staged value are in the last group. After
        `spill_measurements`.

        One group holds everything when the run fits in memory, or when the parts' columns
        differ (their keys are then computed over all parts at once, as DuckDB reads them
        together; see _StagedValueKeys)."""
        if self._parts["measurements"]:
            self._on_disk("measurements")  # the last batch spilled, as every part is
        keys = self._value_keys.finished() if self._parts["measurements"] else []
        if not keys:
            with self.relation(None, "measurements") as rows:  # a file of the stage
                return [ValueGroup(applied_sources, rows, None)]
        groups: list[ValueGroup] = []
        grouped: set[str] = set()
        first = 0
        while first < len(self._part_value_sources):
            last, rows = first, 0
            while last < len(self._part_value_sources) and (
                last == first or rows + self._part_value_sources[last][1] <= COMMIT_GROUP_ROWS
            ):
                rows += self._part_value_sources[last][1]
                last += 1
            sources = [
                source for part in self._part_value_sources[first:last] for source in part[0]
            ]
            grouped.update(sources)
            groups.append(
                ValueGroup(
                    sources,
                    self._parts_relation("measurements", first, last),
                    _files_relation(keys[first:last]),
                )
            )
            first = last
        rest = [source for source in applied_sources if source not in grouped]
        if rest:
            # The sources read without a value join the last group: they add no row to
            # hold in memory, and a group of their own would make a run of one group
            # (marked within the transaction) a run of several (marked before it, statement
            # by statement: a third of a second more for a few hundred pages).
            last = groups[-1]
            groups[-1] = ValueGroup([*last.sources, *rest], last.rows, last.keys)
        return groups

    @contextlib.contextmanager
    def relation(self, connection, name: StagedFrame) -> Iterator[str | None]:
        """A SQL relation over everything staged under `name`, or None when nothing was."""
        if self._parts[name]:
            yield self._on_disk(name)
            return
        if not self._buffers[name]:
            yield None
            return
        # A run small enough for one batch: one file, read as the spilled parts are, but
        # without their keys computed apart (the commit computes them; see value_keys).
        path = self._part_path(name, self._parts[name])
        self._batch(name).write_parquet(path, compression="lz4", statistics=False)
        yield f"read_parquet('{sql.text(str(path))}')"


@dataclass(frozen=True)
class ValueGroup:
    """Applied sources whose staged values the commit applies together."""

    sources: list[str]
    rows: str | None  # a SQL relation over their staged values; None: they have none
    keys: str | None  # over those values' keys, in the same order; None: to be computed


def _files_relation(paths: list[Path], *, union_by_name: bool = False) -> str:
    files = ", ".join(f"'{sql.text(str(path))}'" for path in paths)
    return f"read_parquet([{files}]{', union_by_name = true' if union_by_name else ''})"


class _StagedValueKeys:
    """The key and content hash of each staged measurement, a file per staged part, computed
    on a thread of their own while the run goes on. The hash (34 columns cast to text) is
    the costliest expression of the load: computed in the transaction, it kept the commit,
    which runs alone at the end of the run, waiting.

    A part read alone gives the text the commit would give over all parts only when DuckDB
    reads each column with one type in every part, so the files are used only when every
    part has the same columns and types (the usual case)."""

    def __init__(self):
        self._worker: ThreadPoolExecutor | None = None
        self._pending: list[Future] = []
        self._schema: pl.Schema | None = None
        self._same_schema = True

    def add(self, part: Path, schema: pl.Schema) -> None:
        if self._schema is None:
            self._schema = schema
        elif schema != self._schema:
            self._same_schema = False
        if not self._same_schema:
            return
        if self._worker is None:
            self._worker = ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="perfledger-value-keys"
            )
        self._pending.append(self._worker.submit(_write_value_keys, part))

    def finished(self) -> list[Path]:
        """Every part's keys file, in the parts' order, once all are written; [] when they
        are not to be used."""
        paths = [future.result() for future in self._pending]
        return paths if self._same_schema else []

    def close(self) -> None:
        if self._worker is not None:
            self._worker.shutdown(wait=True, cancel_futures=True)


def _write_value_keys(part: Path) -> Path:
    """Write `_keys_query` over one staged part to a file beside it, in the part's order."""
    target = part.with_name(f"keys-{part.name}")
    # A database of its own for each part, closed at once: one kept open holds on to 20 MB
    # for the rest of the run. One thread, which keeps the order and the memory small (and
    # the run's readers have the cores); small row groups for the same reason. No extension
    # is needed to read Parquet and hash; none may be fetched.
    rows = f"read_parquet('{sql.text(str(part))}')"
    with duckdb.connect(
        config={
            "threads": 1,
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
        }
    ) as connection:
        connection.execute(
            f"COPY ({_keys_query(rows)}) TO '{sql.text(str(target))}' "
            "(FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE 8192)"
        )
    return target


def _keys_query(rows: str) -> str:
    """Each row's measurement key and content hash (the content columns cast to text, as
    stored by every earlier run: the text must not change) and its source."""
    content = ", ".join(f'"{name}"' for name in CONTENT_COLUMNS)
    return f"""
        SELECT md5(source_id || chr(31) || row_identity) AS measurement_key,
               md5(CAST(ROW({content}) AS VARCHAR)) AS content_hash, source_id
        FROM {rows}"""


def _concat(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """One frame: a vertical concatenation when the frames have the same columns and types,
    the usual case (polars checks it, at a fraction of the cost of a diagonal one or of
    comparing the schemas here), else a diagonal one."""
    try:
        return pl.concat(frames, how="vertical")
    except (pl.exceptions.SchemaError, pl.exceptions.ShapeError):
        return pl.concat(frames, how="diagonal_relaxed")


def _repeated(name: str, runs: list[tuple[str, int]]) -> pl.Series:
    """A text column holding each value of `runs` for its number of rows."""
    return pl.concat(
        [
            pl.Series(name, [value], dtype=pl.String).new_from_index(0, count)
            for value, count in runs
        ]
    )


def commit_run(
    connection: duckdb.DuckDBPyConnection,
    run: dict,
    stage: RunStage,
    reviews: pl.DataFrame | None = None,
) -> RunCounts | None:
    """Write a staged run in one transaction: one snapshot, or nothing at all.

    A run that would change nothing writes nothing and returns None: every document it read
    is its source's current version, already known, read without an error nor an HTTP
    fetch, and the reviews change no claim. Its documents' sightings (where and when each
    was read) are in the archive's sightings log, outside the catalog. Anything else is
    recorded, in `runs` and a snapshot: a failure, a first sighting, an older version, and
    every fetch (the `fetches` table keeps each one, and the validators of the next)."""
    counts = RunCounts()
    documents = stage.documents
    applied = [d for d in documents if d.status == "new"]
    idle = not any(_needs_recording(document) for document in documents)
    if idle and (reviews is None or reviews.height == 0):
        return None
    stage.spill_measurements()
    groups = stage.value_groups([d.source_id for d in applied]) if applied else []
    marked = mark_groups(connection, groups, applied, stage.folder)
    connection.execute("BEGIN")
    try:
        if idle and reviews is not None and not apply_reviews(connection, reviews):
            connection.execute("ROLLBACK")
            return None
        if applied:
            _create_revision_rows(connection)
        _record_documents(connection, run["run_id"], documents, stage)
        if applied:
            _apply_values(connection, run["run_id"], applied, stage, groups, marked)
            _replace_claims(connection, run["run_id"], applied, stage)
        load_official(
            connection,
            run["run_id"],
            [
                (document.source_id, document.mlperf)
                for document in applied
                if document.mlperf is not None
            ],
        )
        for document in applied:
            for name, value in document.counts.__dict__.items():
                setattr(counts, name, getattr(counts, name) + value)
        if applied:
            _record_revisions(connection, run["run_id"], applied)
            _write_revisions(connection)
        if reviews is not None:
            apply_reviews(connection, reviews)
        run_row = {**run, **counts.__dict__}
        names = ", ".join(f'"{name}"' for name in run_row)
        connection.execute(f"INSERT INTO runs ({names}) VALUES ({sql.literals(run_row.values())})")
        message = sql.literal(f"ingest run {run['run_id']}")
        info = sql.literal(json.dumps(_commit_info(run, documents)))
        connection.execute(
            f"CALL {LAKE}.set_commit_message('perfledger', {message}, extra_info => {info})"
        )
        lake.confirm_writer_lock()
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    finally:
        if applied:
            connection.execute("DROP TABLE IF EXISTS temp.main._revision_rows")
    return counts


def _needs_recording(document: DocumentLoad) -> bool:
    return (
        document.status != "unchanged"
        or document.document_row is not None
        or bool(document.errors)
        or document.fetch_record is not None
    )


def _commit_info(run: dict, documents: list[DocumentLoad]) -> dict:
    return {
        "run_id": run["run_id"],
        "trigger": run["trigger"],
        "documents": [
            {"source_id": d.source_id, "sha256": d.document_sha256, "status": d.status}
            for d in documents
        ],
    }


def _record_documents(
    connection, run_id: str, documents: list[DocumentLoad], stage: RunStage
) -> None:
    """Every document read, new or not: its run row, first sighting, cells, fetch, errors."""
    run_rows = [(run_id, d.source_id, d.document_sha256, d.status, d.message) for d in documents]
    _insert_rows(
        connection,
        "run_documents",
        pl.DataFrame(
            run_rows,
            schema=["run_id", "source_id", "document_sha256", "status", "message"],
            orient="row",
        ),
    )
    first_sightings = [d.document_row for d in documents if d.document_row is not None]
    if first_sightings:
        _insert_rows(
            connection, "documents", pl.DataFrame(first_sightings, infer_schema_length=None)
        )
    with stage.relation(connection, "cells") as cells:
        if cells is not None:
            # Every thread: a row group of cells is a few MB, and this write is most of what
            # a large run does after its last page is read, with the other cores idle.
            _insert_relation(connection, "cells", cells)
    fetches = [
        {"run_id": run_id, "source_id": d.source_id, **d.fetch_record}
        for d in documents
        if d.fetch_record is not None
    ]
    if fetches:
        _insert_rows(connection, "fetches", pl.DataFrame(fetches, infer_schema_length=None))
    errors = [
        (run_id, d.source_id, location, d.document_sha256, stage_name, reason)
        for d in documents
        for location, stage_name, reason in d.errors
    ]
    if errors:
        _insert_rows(
            connection,
            "document_errors",
            pl.DataFrame(
                errors,
                schema=["run_id", "source_id", "location", "document_sha256", "stage", "reason"],
                orient="row",
            ),
        )


def _insert_rows(connection, table: str, frame: pl.DataFrame) -> None:
    """Insert a frame by column name, so a frame's column order never matters."""
    with sql.frame_view(connection, "_incoming_rows", frame) as rows:
        _insert_relation(connection, table, rows, frame.columns)


def _insert_relation(
    connection, table: str, relation: str, columns: list[str] | None = None
) -> None:
    columns = columns or _relation_columns(connection, relation)
    names = ", ".join(f'"{name}"' for name in columns)
    connection.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM {relation}")


@contextlib.contextmanager
def _one_writer_thread(connection) -> Iterator[None]:
    """Each thread writing a DuckLake table buffers a Parquet row group of its own: with one
    writer thread a large run's peak memory is that of one row group (see migration 006)."""
    threads = single_value(connection.execute("SELECT current_setting('threads')"))
    connection.execute("SET threads = 1")
    try:
        yield
    finally:
        connection.execute(f"SET threads = {int(threads)}")


def _relation_columns(connection, relation: str) -> list[str]:
    """The relation's columns in order, from a query's description (information_schema
    costs four times as much on a DuckLake table)."""
    return [
        column[0] for column in connection.execute(f"SELECT * FROM {relation} LIMIT 0").description
    ]


def _apply_values(
    connection,
    run_id: str,
    applied: list[DocumentLoad],
    stage: RunStage,
    groups: list[ValueGroup],
    marked: list[MarkedGroup],
) -> None:
    """Bring each applied source's current values to its new version: update, insert and
    delete by key, a group of sources at a time. The groups of a large run were marked
    before the transaction (`mark_groups`); a run of one group is marked here."""
    if not marked:
        (group,) = groups
        with _marked_here(connection, group, applied) as here:
            _write_group(connection, run_id, here)
    for group in marked:
        _write_group(connection, run_id, group)
    with sql.frame_view(connection, "_applied", _sources_frame(applied)):
        connection.execute(
            "DELETE FROM quarantined_values WHERE source_id IN (SELECT source_id FROM _applied)"
        )
    with stage.relation(connection, "quarantine") as quarantine:
        if quarantine is not None:
            names = ", ".join(f'"{name}"' for name in _relation_columns(connection, quarantine))
            connection.execute(
                f"INSERT INTO quarantined_values ({names}, run_id) "
                f"SELECT {names}, {sql.literal(run_id)} FROM {quarantine}"
            )


def _write_group(connection, run_id: str, group: MarkedGroup) -> None:
    with sql.frame_view(connection, "_applied", _sources_frame(group.documents)):
        connection.execute(
            f"""
            CREATE OR REPLACE TEMP VIEW _values AS
            SELECT k.measurement_key, k.content_hash, k.added, k.changed,
                   '{sql.text(run_id)}' AS run_id, v.*
            FROM {group.rows or _NO_ROWS} AS v POSITIONAL JOIN {group.marks} AS k
            """
        )
        try:
            with _one_writer_thread(connection):
                _write_values(connection, group.totals, group.marks)
        finally:
            connection.execute("DROP VIEW IF EXISTS _values")


# The staged rows of a group without any: the columns of a stored value, none of its own.
_NO_ROWS = (
    "(SELECT * EXCLUDE (measurement_key, content_hash, run_id) FROM measurement_values LIMIT 0)"
)


@dataclass(frozen=True)
class MarkedGroup:
    """A group of applied documents whose values were compared with the stored ones."""

    documents: list[DocumentLoad]
    rows: str | None  # their staged values; None: they have none
    marks: str  # each staged value's key, hash and marks (added, changed), in staged order
    totals: RunCounts


def _group_documents(group: ValueGroup, applied: list[DocumentLoad]) -> list[DocumentLoad]:
    members = set(group.sources)
    return [d for d in applied if d.source_id in members]


@contextlib.contextmanager
def _marked_here(
    connection, group: ValueGroup, applied: list[DocumentLoad]
) -> Iterator[MarkedGroup]:
    """The group marked into the temporary table `_keys`, dropped once written."""
    documents = _group_documents(group, applied)
    with sql.frame_view(connection, "_applied", _sources_frame(documents)):
        try:
            _define_keys(connection, group.rows or _NO_ROWS, group.keys)
            _mark_existing(connection)
            totals = _count_changes(connection, documents)
            yield MarkedGroup(documents, group.rows, "_keys", totals)
        finally:
            connection.execute("DROP TABLE IF EXISTS _keys")
            connection.execute("DROP TABLE IF EXISTS _stored")


def mark_groups(
    connection, groups: list[ValueGroup], applied: list[DocumentLoad], folder: Path
) -> list[MarkedGroup]:
    """The groups of a run of several, each compared with the stored values into a file of
    marks; [] for a run of one group, which the transaction marks itself.

    Before the run's transaction, each statement its own: what a transaction creates and
    drops in temporary tables stays in memory until it ends, so a group's keys and marks
    (some 20 MB per 200,000 values) would add up over a large run. The writer's lock keeps
    the stored values as they are until the transaction writes them. (A run of one group
    is marked in its transaction: each statement of its own costs a catalog round trip.)"""
    if len(groups) < 2:
        return []
    marked = []
    for index, group in enumerate(groups):
        marks = folder / f"marks-{index:05d}.parquet"
        with _marked_here(connection, group, applied) as here:
            connection.execute(
                "COPY (SELECT measurement_key, content_hash, added, changed FROM _keys) "
                f"TO '{sql.text(str(marks))}' (FORMAT parquet, COMPRESSION uncompressed)"
            )
        marked.append(
            MarkedGroup(
                here.documents, group.rows, f"read_parquet('{sql.text(str(marks))}')", here.totals
            )
        )
    return marked


def _sources_frame(documents: list[DocumentLoad]) -> pl.DataFrame:
    return pl.DataFrame(
        {"source_id": [d.source_id for d in documents]}, schema={"source_id": pl.String}
    )


def _define_keys(connection, rows: str, keys: str | None = None) -> None:
    """`_keys`: each staged value's key and content hash, in the staged order, and whether it
    is new or changed (marked by `_mark_existing`). The writes read the staged rows again,
    paired with their marks by position (which keeps the staged order; see
    `preserve_insertion_order` in warehouse/lake.py), not by a join that would hold the
    group's rows in a hash table.

    The content hash is computed once: `_keys` reads it from `keys` when the stage computed
    it during the run (see `_StagedValueKeys`), else computes it with every thread."""
    source = (
        f"SELECT measurement_key, content_hash, source_id FROM {keys}"
        if keys
        else (_keys_query(rows))
    )
    connection.execute(
        f"CREATE OR REPLACE TEMP TABLE _keys AS SELECT *, true AS added, false AS changed "
        f"FROM ({source})"
    )


def _mark_existing(connection) -> None:
    """Mark each `_keys` row whose key its source holds already (not added) and, of those,
    the ones whose stored hash differs (changed). The writes filter the staged rows on the
    marks rather than join them with the table: a join may be planned with the group's rows,
    every column, in its hash table. An update in place keeps the rows' order.

    The group's sources' stored keys are read once, into `_stored`, which the count of
    removed values reads again: each scan of a DuckLake table costs its catalog lookups."""
    # A key stored twice counts as changed when either hash differs: hence min and max.
    connection.execute(
        """
        CREATE OR REPLACE TEMP TABLE _stored AS
        SELECT measurement_key, source_id, min(content_hash) AS low, max(content_hash) AS high,
               count(*) AS copies
        FROM measurement_values WHERE source_id IN (SELECT source_id FROM _applied)
        GROUP BY measurement_key, source_id
        """
    )
    connection.execute(
        """
        UPDATE _keys SET added = false,
               changed = stored.low <> _keys.content_hash OR stored.high <> _keys.content_hash
        FROM _stored AS stored
        WHERE stored.measurement_key = _keys.measurement_key
          AND stored.source_id = _keys.source_id
        """
    )


def _count_changes(connection, applied: list[DocumentLoad]) -> RunCounts:
    """Each applied document's values added, changed and removed, from one query; returns
    their totals. Added and changed are the marks `_mark_existing` set."""
    rows = connection.execute(
        """
        WITH removed AS (
            SELECT source_id, sum(copies) AS removed FROM _stored
            WHERE measurement_key NOT IN (SELECT measurement_key FROM _keys)
            GROUP BY source_id
        ), incoming AS (
            SELECT source_id, count(*) FILTER (WHERE added) AS added,
                   count(*) FILTER (WHERE changed) AS changed
            FROM _keys GROUP BY source_id
        )
        SELECT a.source_id, coalesce(i.added, 0), coalesce(i.changed, 0),
               coalesce(r.removed, 0)
        FROM _applied a LEFT JOIN incoming i USING (source_id)
        LEFT JOIN removed r USING (source_id)
        """
    ).fetchall()
    by_source = {source: (added, changed, removed) for source, added, changed, removed in rows}
    totals = RunCounts()
    for document in applied:
        added, changed, removed = by_source[document.source_id]
        document.counts.values_added += added
        document.counts.values_changed += changed
        document.counts.values_removed += removed
        totals.values_added += added
        totals.values_changed += changed
        totals.values_removed += removed
    return totals


def _write_values(connection, totals: RunCounts, marks: str) -> None:
    """Update, insert and delete by key; a statement with nothing to do is skipped, since
    each costs a catalog round trip even when it touches no row."""
    columns = _table_columns(connection, "measurement_values")
    assignments = ", ".join(
        f'"{name}" = v."{name}"' for name in columns if name != "measurement_key"
    )
    if totals.values_changed:
        connection.execute(
            f"""UPDATE measurement_values SET {assignments}
                FROM (SELECT * FROM _values WHERE changed) v
                WHERE measurement_values.measurement_key = v.measurement_key
                  AND measurement_values.source_id = v.source_id
                  AND measurement_values.content_hash <> v.content_hash"""
        )
    column_list = ", ".join(f'"{name}"' for name in columns)
    if totals.values_added:
        connection.execute(
            f"INSERT INTO measurement_values ({column_list}) "
            f"SELECT {column_list} FROM _values WHERE added"
        )
    if totals.values_removed:
        connection.execute(
            f"""DELETE FROM measurement_values WHERE source_id IN (SELECT source_id FROM _applied)
                AND measurement_key NOT IN (SELECT measurement_key FROM {marks})"""
        )


def _replace_claims(connection, run_id: str, applied: list[DocumentLoad], stage: RunStage) -> None:
    sources = [d.source_id for d in applied]
    with sql.text_in(connection, "source_id", sources, "_replaced_sources") as replaced:
        connection.execute(f"DELETE FROM claim_rows WHERE {replaced}")
    with stage.relation(connection, "claims") as claims:
        if claims is None:
            return
        connection.execute(
            f"""
            INSERT INTO claim_rows BY NAME
            SELECT md5(concat_ws(chr(31), source_id, sentence, claim_text, char_start::VARCHAR))
                       AS claim_id,
                   {sql.literal(run_id)} AS run_id, *
            FROM {claims}
            """
        )


def _create_revision_rows(connection) -> None:
    connection.execute(
        """CREATE OR REPLACE TEMP TABLE _revision_rows (
               run_id VARCHAR, source_id VARCHAR, document_sha256 VARCHAR,
               previous_sha256 VARCHAR, values_added INTEGER, values_changed INTEGER,
               values_removed INTEGER, changed BOOLEAN, position INTEGER)"""
    )


def _record_revisions(connection, run_id: str, applied: list[DocumentLoad]) -> None:
    """Note the applied documents' revisions with one statement (one per document cost a
    millisecond each); `_write_revisions` writes them to the warehouse."""
    if not applied:
        return
    rows = pl.DataFrame(
        [
            (
                run_id,
                d.source_id,
                d.document_sha256,
                d.previous_sha256,
                d.counts.values_added,
                d.counts.values_changed,
                d.counts.values_removed,
                d.counts.values_added + d.counts.values_changed + d.counts.values_removed > 0,
                position,
            )
            for position, d in enumerate(applied)
        ],
        schema={
            "run_id": pl.String,
            "source_id": pl.String,
            "document_sha256": pl.String,
            "previous_sha256": pl.String,
            "values_added": pl.Int32,
            "values_changed": pl.Int32,
            "values_removed": pl.Int32,
            "changed": pl.Boolean,
            "position": pl.Int32,
        },
        orient="row",
    )
    with sql.frame_view(connection, "_incoming_revisions", rows) as incoming:
        connection.execute(f"INSERT INTO _revision_rows SELECT * FROM {incoming}")


def _write_revisions(connection) -> None:
    shas = [
        sha
        for row in connection.execute(
            "SELECT document_sha256, previous_sha256 FROM temp.main._revision_rows"
        ).fetchall()
        for sha in row
        if sha
    ]
    if not shas:
        return
    # A list of values, not a join, lets DuckLake skip every data file whose sha256 range
    # misses it: after a long history, most of `documents` is one small file per run.
    with sql.text_in(connection, "document_sha256", sorted(set(shas)), "_revised") as revised:
        _insert_revisions(connection, revised)


def _insert_revisions(connection, revised: str) -> None:
    connection.execute(
        f"""
        WITH versions AS (SELECT * FROM documents WHERE {revised})
        INSERT INTO document_revisions
        SELECT r.run_id, r.source_id, new.document_sha256, old.document_sha256,
               new.captured_at,
               coalesce(new.last_updated_date, new.published_date),
               coalesce(old.last_updated_date, old.published_date),
               r.values_added, r.values_changed, r.values_removed, r.changed,
               r.changed AND old.document_sha256 IS NOT NULL
                 AND coalesce(new.last_updated_date, new.published_date)
                     IS NOT DISTINCT FROM coalesce(old.last_updated_date, old.published_date)
        FROM temp.main._revision_rows AS r
        JOIN versions AS new ON new.document_sha256 = r.document_sha256
        LEFT JOIN versions AS old ON old.document_sha256 = r.previous_sha256
        ORDER BY r.position
        """
    )


def _table_columns(connection, table: str) -> list[str]:
    return _relation_columns(connection, f"{LAKE}.main.{table}")
