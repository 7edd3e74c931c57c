-- One benchmark configuration across SDK versions, oldest SDK first, with the change against
-- the previous SDK; built from measurement_history, so a value re-published with a new SDK
-- and rows that differ only by SDK both count.
CREATE OR REPLACE TEMP VIEW sdk_progression AS
WITH published AS (
    SELECT
        *,
        list_transform(
            string_split(regexp_extract(sdk, '^[0-9]+(\.[0-9]+)*'), '.'),
            part -> TRY_CAST(part AS INTEGER)
        ) AS sdk_sort_key
    FROM measurement_history
    WHERE sdk IS NOT NULL AND model_canonical IS NOT NULL
), per_sdk AS (
    -- A number corrected without an SDK change keeps only its newest version.
    SELECT
        *,
        row_number() OVER (
            PARTITION BY model_canonical, variant, workload, phase, dataset, batch_size_number,
                         activation_dtype, weight_dtype, vendor, system, framework_canonical,
                         metric, unit, sdk, sdk_prerelease
            ORDER BY valid_from_snapshot DESC, is_current DESC, measurement_key
        ) AS pick
    FROM published
), stepped AS (
    SELECT
        *,
        count(*) OVER configuration AS sdks_compared,
        row_number() OVER by_sdk AS sdk_step,
        lag(sdk) OVER by_sdk AS previous_sdk,
        lag(value) OVER by_sdk AS previous_value
    FROM per_sdk
    WHERE pick = 1
    WINDOW
        configuration AS (
            PARTITION BY model_canonical, variant, workload, phase, dataset, batch_size_number,
                         activation_dtype, weight_dtype, vendor, system, framework_canonical,
                         metric, unit
        ),
        -- A pre-release sorts before the release of the same number.
        by_sdk AS (configuration ORDER BY sdk_sort_key, sdk_prerelease DESC, sdk)
)
SELECT
    model_canonical,
    variant,
    workload,
    phase,
    dataset,
    batch_size_number,
    activation_dtype,
    weight_dtype,
    vendor,
    system,
    framework_canonical,
    metric,
    unit,
    sdk_step,  -- 1 for the oldest SDK of the configuration, then 2, 3, ... in numeric SDK order
    sdk,
    sdk_prerelease,
    sdk_version,
    value,
    previous_sdk,  -- SDK of the step before; NULL on the first step
    previous_value,  -- Value at the step before; NULL on the first step
    100.0 * (value - previous_value) / previous_value
        AS pct_change,  -- Change against the previous SDK in percent; NULL on the first step
    CASE
        WHEN previous_value IS NULL OR metric = 'eval_metric' THEN NULL
        WHEN metric = 'throughput' THEN value > previous_value
        ELSE value < previous_value
    END AS improved,  -- True if better: more throughput, less latency, time or place
    sdks_compared,  -- SDK versions in this configuration's progression
    is_current,  -- True when this step's value is the one the warehouse holds now
    valid_from_snapshot,  -- Snapshot that wrote this step's value
    measurement_key,
    source_id
FROM stepped
WHERE sdks_compared > 1
ORDER BY model_canonical, variant NULLS FIRST, workload, system, framework_canonical, metric,
         dataset NULLS FIRST, batch_size_number NULLS FIRST, sdk_step;
