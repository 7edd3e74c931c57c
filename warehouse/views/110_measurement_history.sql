-- Every version of every value across snapshots, from DuckLake's change feed: when each
-- version became valid, when it stopped being valid, and why.
CREATE OR REPLACE TEMP VIEW measurement_history AS
WITH feed AS (
    -- Timestamp bounds, because a view cannot compute snapshot ids and the feed takes
    -- literals only; rows after the attached snapshot are cut so --as-of stays consistent.
    SELECT
        *,
        change_type IN ('insert', 'update_postimage') AS starts_version
    FROM lake.table_changes(
        'measurement_values',
        TIMESTAMPTZ '1970-01-01 00:00:00+00',
        TIMESTAMPTZ '9999-12-31 00:00:00+00'
    )
    WHERE snapshot_id <= (SELECT id FROM lake.current_snapshot())
), bounded AS (
    -- Within one snapshot an ending sorts before a start, so a value replaced in snapshot s
    -- ends at s and its successor starts at s.
    SELECT
        *,
        min(CASE WHEN NOT starts_version THEN snapshot_id END) OVER later AS valid_to_snapshot,
        min(CASE WHEN starts_version THEN snapshot_id END) OVER later AS next_version_snapshot,
        max(CASE WHEN NOT starts_version THEN snapshot_id END) OVER earlier AS previous_end_snapshot
    FROM feed
    WINDOW
        later AS (
            PARTITION BY measurement_key ORDER BY snapshot_id, starts_version
            ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING
        ),
        earlier AS (
            PARTITION BY measurement_key ORDER BY snapshot_id, starts_version
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        )
)
SELECT
    b.measurement_key,
    b.row_identity,
    row_number() OVER (PARTITION BY b.measurement_key ORDER BY b.snapshot_id)
        AS version,  -- 1 for a value's first version, then 2, 3, ...
    CASE WHEN b.previous_end_snapshot = b.snapshot_id THEN 'changed' ELSE 'added' END
        AS change,  -- How the version began: added (new, or back after a removal) or changed
    b.snapshot_id AS valid_from_snapshot,  -- Snapshot that wrote this version
    started.snapshot_time AS valid_from_time,  -- Commit time of valid_from_snapshot
    b.valid_to_snapshot,  -- Snapshot that replaced or removed this version; NULL while current
    ended.snapshot_time AS valid_to_time,  -- Commit time of valid_to_snapshot; NULL while current
    CASE
        WHEN b.valid_to_snapshot IS NULL THEN NULL
        WHEN b.next_version_snapshot = b.valid_to_snapshot THEN 'changed'
        ELSE 'removed'
    END AS ended_by,  -- How the version stopped being valid: changed, removed; NULL if current
    b.valid_to_snapshot IS NULL AS is_current,  -- True for the version the warehouse holds now
    b.source_id,
    b.source_url,
    b.document_sha256,
    b.captured_at,
    b.run_id,
    b.table_title,
    b.row_number,
    b.column_name,
    b.model,
    b.model_canonical,
    b.variant,
    b.platform,
    b.vendor,
    b.system,
    b.accelerator,
    b.accelerator_count,
    b.sdk_version,
    b.sdk,
    b.sdk_prerelease,
    b.framework,
    b.framework_canonical,
    b.dataset,
    b.batch_size,
    b.batch_size_number,
    b.precision,
    b.activation_dtype,
    b.weight_dtype,
    b.division,
    b.mlperf_id,
    b.workload,
    b.phase,
    b.metric,
    b.value,
    b.unit,
    b.item_kind,
    b.value_per_accelerator,
    b.raw_value
FROM bounded AS b
LEFT JOIN lake.snapshots() AS started ON started.snapshot_id = b.snapshot_id
LEFT JOIN lake.snapshots() AS ended ON ended.snapshot_id = b.valid_to_snapshot
WHERE b.starts_version;
