-- MLPerf results: time to train per division, model and system, from rows carrying an
-- MLPerf id or printed in an MLPerf table.
CREATE OR REPLACE TEMP VIEW mlperf_results AS
SELECT
    mlperf_id,
    division,
    model_canonical,
    model,
    vendor,
    system,
    accelerator,
    accelerator_count,
    framework_canonical,
    sdk,
    dataset,
    quality_target,
    activation_dtype,
    weight_dtype,
    round(value / 60, 6) AS time_to_train_minutes,  -- Time to train in minutes
    value AS time_to_train_seconds,  -- Time to train in seconds (the canonical unit)
    raw_value,
    unit_published,
    table_title,
    source_url,
    measurement_key
FROM measurements
WHERE metric = 'time_to_train'
  AND (mlperf_id IS NOT NULL OR table_title ILIKE '%mlperf%')
ORDER BY division, model_canonical, accelerator_count, system, framework_canonical, mlperf_id;
