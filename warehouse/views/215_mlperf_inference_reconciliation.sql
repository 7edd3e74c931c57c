-- Vendor-page MLPerf Inference values against the official result of the same model, system, metric and (where the page says them) scenario, round, accelerator count and accuracy target: both numbers, the difference and a verdict.
CREATE OR REPLACE TEMP VIEW mlperf_inference_reconciliation AS
WITH official AS (
    SELECT
        m.*,
        r.mlperf_round,
        r.division AS official_division,
        r.submitter,
        r.system_id,
        r.scenario
    FROM measurements AS m
    JOIN lake.main.mlperf_inference_results AS r ON r.source_id = m.source_id
    WHERE r.valid
), published AS (
    SELECT
        m.*,
        coalesce(
            nullif(regexp_extract(m.mlperf_id, '^\s*(\d+\.\d+)-', 1), ''),
            nullif(regexp_extract(m.table_title, '[vV](\d+\.\d+)', 1), ''),
            nullif(regexp_extract(m.document_title, '[vV](\d+\.\d+)', 1), '')
        ) AS mlperf_round,
        -- The scenario from the row's settings or labels, its column or the table's title.
        nullif(lower(replace(regexp_extract(
            concat_ws(' ', m.settings, m.row_label, m.column_name, m.table_title),
            '(?i)\b(offline|server|single[ -]?stream|multi[ -]?stream|interactive)\b', 1),
            ' ', '')), '') AS scenario_key,
        CAST(length(regexp_extract(m.raw_value, '\.(\d+)', 1)) AS INTEGER) AS printed_decimals
    FROM measurements AS m
    WHERE m.metric IN ('throughput', 'latency')
      AND coalesce(m.workload, 'inference') = 'inference'
      AND (m.mlperf_id IS NOT NULL OR m.table_title ILIKE '%mlperf%'
           OR m.document_title ILIKE '%mlperf%')
      AND m.source_id NOT IN (SELECT source_id FROM lake.main.mlperf_inference_results)
), candidates AS (
    SELECT
        p.measurement_key,
        o.value AS official_value,
        o.mlperf_round AS official_round,
        o.official_division,
        o.submitter AS official_submitter,
        o.system_id AS official_system_id,
        o.scenario AS official_scenario,
        o.source_id AS official_source_id,
        CASE WHEN o.system = p.system THEN 'system'
             WHEN o.accelerator = p.accelerator AND o.accelerator_count = p.accelerator_count
                 THEN 'accelerator and its count'
             WHEN o.accelerator = p.accelerator THEN 'accelerator (the page names no count)'
             ELSE 'printed number (the page names no hardware)' END AS paired_on,
        count(*) OVER (PARTITION BY p.measurement_key) AS official_candidates,
        row_number() OVER (
            PARTITION BY p.measurement_key
            ORDER BY o.system IS DISTINCT FROM p.system, abs(ln(o.value / p.value)),
                     o.official_division <> 'closed',
                     o.submitter, o.system_id, o.mlperf_round DESC
        ) AS pick
    FROM published AS p
    JOIN official AS o
        -- One model identity ("resnet" on a results page, "resnet50" in the results).
        ON coalesce(o.model_base, o.model_canonical) = coalesce(p.model_base, p.model_canonical)
       -- A system name, else the accelerator and its count: a server's maker names the
       -- system in the results, a chip's vendor often the chips alone on its page; a page
       -- naming the chip but not how many, or no hardware at all (MLCommons' result pages
       -- list it apart from the results table), pairs on the number it prints.
       AND (o.system = p.system
            OR (o.accelerator = p.accelerator AND o.accelerator_count = p.accelerator_count)
            OR (o.accelerator = p.accelerator AND p.accelerator_count IS NULL
                AND round(o.value * p.published_number / p.value, p.printed_decimals)
                    = p.published_number)
            OR (p.accelerator IS NULL AND p.system IS NULL
                AND round(o.value * p.published_number / p.value, p.printed_decimals)
                    = p.published_number))
       AND o.metric = p.metric
       AND o.unit = p.unit
       AND o.item_kind IS NOT DISTINCT FROM p.item_kind
       AND o.statistic IS NOT DISTINCT FROM p.statistic
       AND (p.scenario_key IS NULL OR lower(o.scenario) = p.scenario_key)
       AND (p.mlperf_round IS NULL OR o.mlperf_round = p.mlperf_round)
       AND (p.accelerator_count IS NULL OR o.accelerator_count = p.accelerator_count)
       -- The accuracy target where the page states one ("llama2-70b-99"); an accuracy a
       -- column beside states ("acc: 75.6954") is no target.
       AND (NOT regexp_matches(coalesce(p.quality_target, ''), '^99(\.9)?%$')
            OR o.quality_target = p.quality_target)
       AND (p.division IS NULL OR lower(o.official_division) = lower(p.division))
       AND o.value > 0 AND p.value > 0
), compared AS (
    SELECT
        p.*,
        c.* EXCLUDE (measurement_key, pick),
        100.0 * (p.value - c.official_value) / c.official_value AS difference_pct,
        round(c.official_value * p.published_number / p.value, p.printed_decimals)
            = p.published_number AS rounds_to_published
    FROM published AS p
    LEFT JOIN candidates AS c ON c.measurement_key = p.measurement_key AND c.pick = 1
)
SELECT
    source_id,
    source_url,
    table_title,
    row_number,
    mlperf_id,
    coalesce(mlperf_round, official_round) AS mlperf_round,
    coalesce(division, official_division) AS division,
    system,
    model_canonical,
    coalesce(official_scenario, scenario_key) AS scenario,  -- The official result's scenario, else the one the page names
    metric,
    raw_value,
    value AS published_value,  -- The page's value, in `unit`
    official_value,  -- The official result, in `unit`
    unit,
    round(difference_pct, 3) AS difference_pct,  -- (published - official) / official, in percent
    rounds_to_published,  -- True when the official value, rounded as printed, is the page's number
    CASE
        WHEN official_value IS NULL THEN 'no official record'
        WHEN rounds_to_published OR abs(difference_pct) <= 0.5 THEN 'matches'
        ELSE 'differs'
    END AS verdict,  -- matches: same printed number or within 0.5%; differs: further apart; no official record: no valid official result fits
    'model, ' || paired_on || ', metric and unit equal'
        || CASE WHEN scenario_key IS NOT NULL THEN ', scenario equal' ELSE '' END
        || CASE WHEN mlperf_round IS NOT NULL THEN ', round equal' ELSE '' END
        || CASE WHEN accelerator_count IS NOT NULL THEN ', accelerator count equal' ELSE '' END
        || CASE WHEN regexp_matches(coalesce(quality_target, ''), '^99(\.9)?%$')
                THEN ', accuracy target equal' ELSE '' END
        || CASE WHEN official_candidates > 1
                THEN '; of ' || official_candidates || ' fits: the same system, then the nearest value, then the closed division'
                ELSE '' END AS pairing_rule,  -- How the official result was paired with the row
    official_submitter,  -- Submitter of the official result compared
    official_system_id,  -- Its system, as named in the results repository
    coalesce(official_candidates, 0) AS official_candidates,  -- Official results that fit the row
    official_source_id,  -- Source the official result was loaded from
    measurement_key
FROM compared
ORDER BY source_id, mlperf_round, model_canonical, system, scenario;
