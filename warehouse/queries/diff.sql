-- Values added, removed and changed between two snapshots, matched on the natural key.
-- The first columns are those of earlier versions, in their order; what a person reads the
-- value by (model, platform, configuration) and each side's unit follow.
WITH before AS (
    SELECT * FROM lake.main.measurement_values AT (VERSION => {from_version})
), after AS (
    SELECT * FROM lake.main.measurement_values AT (VERSION => {to_version})
)
SELECT
    CASE
        WHEN b.measurement_key IS NULL THEN 'added'
        WHEN a.measurement_key IS NULL THEN 'removed'
        ELSE 'changed'
    END AS change,
    coalesce(a.source_id, b.source_id) AS source_id,
    coalesce(a.row_identity, b.row_identity) AS row_identity,
    coalesce(a.metric, b.metric) AS metric,
    b.raw_value AS old_raw_value,
    a.raw_value AS new_raw_value,
    b.value AS old_value,
    a.value AS new_value,
    coalesce(a.unit, b.unit) AS unit,
    b.sdk_version AS old_sdk_version,
    a.sdk_version AS new_sdk_version,
    b.document_sha256 AS old_document_sha256,
    a.document_sha256 AS new_document_sha256,
    coalesce(a.measurement_key, b.measurement_key) AS measurement_key,
    coalesce(a.model, b.model) AS model,
    coalesce(a.platform, b.platform) AS platform,
    coalesce(a.workload, b.workload) AS workload,
    coalesce(a.variant, b.variant) AS variant,
    coalesce(a.framework, b.framework) AS framework,
    coalesce(a.dataset, b.dataset) AS dataset,
    coalesce(a.batch_size, b.batch_size) AS batch_size,
    coalesce(a.precision, b.precision) AS precision,
    coalesce(a.division, b.division) AS division,
    b.unit AS old_unit,
    a.unit AS new_unit
FROM after AS a
FULL OUTER JOIN before AS b USING (measurement_key)
WHERE b.measurement_key IS NULL
   OR a.measurement_key IS NULL
   OR a.content_hash IS DISTINCT FROM b.content_hash
ORDER BY source_id, metric, change, model, platform, row_identity;
