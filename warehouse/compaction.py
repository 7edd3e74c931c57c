"""Merging the small data files that runs leave, so that reading stays cheap as history grows.

Each run writes a Parquet file or more into every table it touches. DuckLake opens every live
file of a table for each scan, so without merging, each run makes the next one, and every
query, a little slower: a re-run of an unchanged page took about 145 ms on a warehouse of
1,000 runs and about 92 ms once its 5,013 files were merged into 7. DuckLake's merge keeps
time travel whole (a merged file records which rows each snapshot holds), so every
snapshot answers as before.

Ingest merges once every `every` snapshots (PERFLEDGER_COMPACT_EVERY, default 64; 0 never),
in a transaction of its own after a run's commit; `perfledger compact` merges on demand.
Files that a merge replaced stay on disk for a day, for readers still scanning them, and
go at a later merge, with the files of runs that never committed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from perfledger.warehouse import lake, sql
from perfledger.warehouse.lake import LAKE
from perfledger.warehouse.single_row import single_value

EVERY_ENV = "PERFLEDGER_COMPACT_EVERY"
DEFAULT_EVERY = 64
# A reader holding a snapshot open may still scan a replaced file: a day covers any query.
KEEP_OLD = "INTERVAL 1 DAY"


@dataclass(frozen=True)
class Compaction:
    files_merged: int  # live data files replaced by merged ones
    files_written: int
    files_removed: int  # files deleted from disk: replaced by earlier merges, or orphaned


def due(snapshot_id: int, every: int) -> bool:
    """Whether the run that wrote `snapshot_id` should merge: one run in `every`, with no
    query (a re-run of unchanged files is mostly fixed costs, and one more would show)."""
    return every > 0 and snapshot_id % every == 0


def compact(
    connection, reason: str = "compaction", before_commit: Callable[[], None] = lambda: None
) -> Compaction:
    """Merge the small files of every table in one snapshot of its own, then delete what
    is more than a day old among the files earlier merges replaced and the orphaned files
    (written by a run or merge that never committed: a crash, a kill)."""
    connection.execute("BEGIN")
    try:
        merged = connection.execute(f"CALL ducklake_merge_adjacent_files('{LAKE}')").fetchall()
        connection.execute(f"CALL {LAKE}.set_commit_message('perfledger', '{sql.text(reason)}')")
        before_commit()
        lake.confirm_writer_lock()
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(Exception):
            connection.execute("ROLLBACK")
        raise
    removed = sum(
        single_value(
            connection.execute(
                f"SELECT count(*) FROM {function}('{LAKE}', older_than => now() - {KEEP_OLD})"
            )
        )
        for function in ("ducklake_cleanup_old_files", "ducklake_delete_orphaned_files")
    )
    # (schema, table, files processed, files created) per merged table
    return Compaction(sum(row[2] for row in merged), sum(row[3] for row in merged), removed)
