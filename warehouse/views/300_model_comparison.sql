-- Every vendor's values and the official MLPerf results of one model side by side, per accelerator: one row per value with the model's identity across pages, the workload, metric, MLPerf scenario and precision class it is compared on, its chip, vendor and count, its conditions (batch size, dataset, framework, SDK, precision as published) and where it came from, with whether an audited result backs it. `perfledger compare MODEL` prints it.
CREATE OR REPLACE TEMP VIEW model_comparison AS
WITH official_inference AS (
    SELECT source_id, mlperf_round, division, scenario, submitter
    FROM lake.main.mlperf_inference_results
    WHERE valid
), official_training AS (
    SELECT source_id, any_value(mlperf_round) AS mlperf_round, any_value(division) AS division,
           any_value(submitter) AS submitter
    FROM lake.main.mlperf_scores
    WHERE valid
    GROUP BY source_id
), confirmed AS (
    -- A page's value the official results print too (perfledger reconcile: matches).
    SELECT measurement_key, any_value(official_value) AS official_value,
           any_value(official_submitter || '/' || official_system_id) AS official_submission
    FROM official_reconciliation
    WHERE verdict = 'matches'
    GROUP BY measurement_key
), labelled AS (
    SELECT
        m.*,
        coalesce(m.model_base, m.model_canonical) AS model_identity,
        coalesce(i.source_id, t.source_id) IS NOT NULL AS official,
        coalesce(i.submitter, t.submitter) AS submitter,
        coalesce(i.mlperf_round, t.mlperf_round,
                 CASE WHEN concat_ws(' ', m.mlperf_id, m.table_title, m.document_title)
                           ILIKE '%mlperf%'
                      THEN nullif(coalesce(
                          nullif(regexp_extract(m.mlperf_id, '^\s*(\d+\.\d+)-', 1), ''),
                          nullif(regexp_extract(m.table_title, '[vV](\d+\.\d+)', 1), ''),
                          regexp_extract(m.document_title, '[vV](\d+\.\d+)', 1)), '') END
        ) AS round,
        coalesce(m.division, i.division, t.division) AS mlperf_division,
        -- The scenario: the official result's, else the one the row's settings, labels,
        -- column or table name (MLPerf Offline, Server, SingleStream, MultiStream).
        coalesce(i.scenario, CASE WHEN coalesce(m.workload, 'inference') = 'inference' THEN
            CASE lower(replace(replace(regexp_extract(
                     concat_ws(' ', m.settings, m.row_label, m.column_name, m.table_title),
                     '(?i)\b(offline|server|single[ -]?stream|multi[ -]?stream|interactive)\b', 1),
                 ' ', ''), '-', ''))
                WHEN 'offline' THEN 'Offline' WHEN 'server' THEN 'Server'
                WHEN 'singlestream' THEN 'SingleStream' WHEN 'multistream' THEN 'MultiStream'
                WHEN 'interactive' THEN 'Interactive' END END) AS mlperf_scenario,
        CASE
            WHEN m.activation_dtype IN ('fp16', 'bf16', 'mixed') THEN 'fp16/bf16'
            WHEN m.activation_dtype IS NOT NULL THEN m.activation_dtype
            WHEN m.weight_dtype IS NOT NULL THEN m.weight_dtype || ' weights'
        END AS precision_class_stated
    FROM measurements AS m
    LEFT JOIN official_inference AS i ON i.source_id = m.source_id
    LEFT JOIN official_training AS t ON t.source_id = m.source_id
    WHERE coalesce(m.model_base, m.model_canonical) IS NOT NULL
      AND m.metric IN ('throughput', 'latency', 'time_to_train', 'time_to_result', 'accuracy',
                       'loss', 'other')
), compared AS (
    SELECT
        l.*,
        -- An MLPerf result's precision is the submitter's choice within the benchmark's
        -- accuracy target: official results and MLPerf tables compare as such, whatever
        -- precision a page states beside them.
        CASE WHEN l.official OR l.round IS NOT NULL THEN 'per MLPerf rules'
             ELSE coalesce(l.precision_class_stated, 'unstated') END AS precision_class,
        CASE WHEN l.metric = 'throughput' THEN l.value_per_accelerator
             WHEN l.metric <> 'throughput' THEN l.value END AS compared_value,
        c.official_value AS confirmed_official_value,
        c.official_submission AS confirmed_by
    FROM labelled AS l
    LEFT JOIN confirmed AS c USING (measurement_key)
), grouped AS (
    SELECT
        *,
        concat_ws(' · ', model_identity, workload, metric, mlperf_scenario,
                  CASE WHEN regexp_matches(quality_target, '^99(\.9)?%$')
                       THEN 'target ' || quality_target END,
                  precision_class, CASE WHEN metric = 'throughput' THEN item_kind END,
                  statistic, CASE WHEN metric = 'other' THEN column_name END) AS comparison
    FROM compared
), ranked AS (
    SELECT
        g.*,
        -- Another figure (MFU, TFLOP/s, bandwidth) has no one better direction: unranked.
        CASE WHEN compared_value IS NOT NULL AND metric <> 'other' THEN rank() OVER (
            PARTITION BY comparison, compared_value IS NULL, unit
            ORDER BY CASE WHEN metric IN ('throughput', 'accuracy') THEN -compared_value
                          ELSE compared_value END)
        END AS ranking
    FROM grouped AS g
), spread AS (
    SELECT comparison, count(DISTINCT vendor) AS vendors, count(DISTINCT accelerator) AS chips,
           count(DISTINCT source_id) AS sources
    FROM ranked
    GROUP BY comparison
)
SELECT
    r.model_identity AS model,  -- The model's identity across pages: family and size ('ResNet-50', 'Llama 2 70B')
    r.model_canonical,
    r.model_variant,
    r.model AS model_published,  -- The model as the page or the results name it
    r.workload,
    r.metric,
    r.mlperf_scenario AS scenario,  -- MLPerf scenario: Offline, Server, SingleStream, MultiStream or Interactive
    r.precision_class,  -- fp16/bf16 (also mixed), fp8, int8, fp32...; 'int4 weights' for weight-only; 'per MLPerf rules' for an MLPerf result (any precision meeting the benchmark's accuracy target)
    r.comparison,  -- The values compared together: model, workload, metric, scenario, MLPerf accuracy target, precision class, what a throughput counts, statistic, another figure's column header
    r.ranking,  -- 1 for the best value of its comparison (most throughput or accuracy per accelerator, least time); NULL for another figure (MFU, TFLOP/s), which has no one better direction
    s.vendors AS vendors_compared,  -- Chip makers in the comparison
    s.chips AS chips_compared,  -- Distinct chips in the comparison
    r.vendor,  -- The chip's maker
    r.accelerator,
    r.accelerator_count,
    r.system,
    r.compared_value,  -- Throughput per accelerator; the value itself for latencies, times and scores
    r.value_per_accelerator,
    r.value,
    r.unit,
    r.item_kind,
    r.statistic,
    r.activation_dtype,
    r.weight_dtype,
    r.precision,
    r.batch_size_number,
    r.batch_size,
    coalesce(r.dataset_canonical, r.dataset) AS dataset,  -- The dataset, canonical where known
    r.framework_canonical,
    r.sdk,
    r.quality_target,
    r.round AS mlperf_round,
    r.mlperf_division,  -- MLPerf division of an official result or an MLPerf table's row
    r.official,  -- True for an official MLPerf result read from MLCommons' results repository
    r.official OR r.confirmed_official_value IS NOT NULL AS audited,  -- An official result, or a page's value the official results print too (perfledger reconcile: matches)
    r.submitter,  -- The MLPerf submitter of an official result
    r.confirmed_by,  -- The official submission a page's value matches
    r.settings,
    r.row_label,
    r.column_name,
    r.raw_value,
    r.table_title,
    r.source_id,
    r.source_url,
    r.label_sources,
    r.measurement_key
FROM ranked AS r
JOIN spread AS s USING (comparison)
ORDER BY r.model_identity, r.workload NULLS LAST, r.metric, r.mlperf_scenario NULLS FIRST,
         r.precision_class, r.comparison, r.ranking NULLS LAST, r.vendor, r.accelerator,
         r.accelerator_count, r.measurement_key;
