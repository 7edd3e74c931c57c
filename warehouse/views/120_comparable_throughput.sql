-- Throughput per accelerator ranked across systems: rows compare when model, variant,
-- workload, phase, dataset, item kind and activation/weight precision all match; each system
-- shows its best published row.
CREATE OR REPLACE TEMP VIEW comparable_throughput AS
WITH candidates AS (
    -- A value of unstated precision cannot be shown comparable to any other, so it is left out.
    SELECT
        *,
        count(*) OVER per_system AS rows_for_system,
        row_number() OVER (per_system ORDER BY value_per_accelerator DESC, measurement_key) AS pick
    FROM measurements
    WHERE metric = 'throughput'
      AND value_per_accelerator IS NOT NULL
      AND model_canonical IS NOT NULL
      AND workload IS NOT NULL
      AND activation_dtype IS NOT NULL
      AND weight_dtype IS NOT NULL
    WINDOW per_system AS (
        PARTITION BY model_canonical, variant, workload, phase, dataset, item_kind,
                     activation_dtype, weight_dtype, vendor, system
    )
)
SELECT
    model_canonical,
    variant,
    workload,
    phase,
    dataset,
    item_kind,
    activation_dtype,
    weight_dtype,
    vendor,
    system,
    accelerator,
    accelerator_count,
    value_per_accelerator,
    rank() OVER (comparison ORDER BY value_per_accelerator DESC)
        AS rank,  -- 1 for the highest throughput per accelerator in the comparison
    count(*) OVER comparison AS systems_compared,  -- Systems ranked in this comparison group
    value_per_accelerator / max(value_per_accelerator) OVER comparison
        AS ratio_to_best,  -- value_per_accelerator over the best one's (1 for rank 1)
    value AS throughput,  -- Throughput of the whole system, in unit
    unit,
    framework_canonical,
    sdk,
    batch_size_number,
    rows_for_system,  -- Published rows of this system in the group; the best one is shown
    measurement_key,
    source_url
FROM candidates
WHERE pick = 1
WINDOW comparison AS (
    PARTITION BY model_canonical, variant, workload, phase, dataset, item_kind,
                 activation_dtype, weight_dtype
)
ORDER BY model_canonical, variant NULLS FIRST, workload, phase NULLS FIRST, dataset NULLS FIRST,
         item_kind, activation_dtype, weight_dtype, rank, system;
