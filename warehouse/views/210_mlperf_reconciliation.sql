-- Vendor-page MLPerf rows against the official score of the same round, division, system, model and framework: both numbers, the difference and a verdict. The table macro mlperf_claim_check(tolerance := 0.10) sets time-to-train claims naming two systems beside the official scores of both.
CREATE OR REPLACE TEMP VIEW mlperf_reconciliation AS
WITH official AS (
    SELECT
        s.source_id,
        s.mlperf_round,
        s.division,
        s.submitter,
        s.system_id,
        s.benchmark,
        s.model_canonical,
        s.score_minutes,
        y.vendor,
        y.system,
        y.framework_canonical
    FROM lake.main.mlperf_scores AS s
    JOIN lake.main.mlperf_systems AS y
        ON y.source_id = s.source_id
       AND y.mlperf_round IS NOT DISTINCT FROM s.mlperf_round
       AND y.submitter = s.submitter
       AND y.system_id = s.system_id
    WHERE s.valid
), published AS (
    -- The round comes from the result id ("2.0-2047"), else the table's or page's title.
    SELECT
        m.*,
        coalesce(
            nullif(regexp_extract(m.mlperf_id, '^\s*(\d+\.\d+)-', 1), ''),
            nullif(regexp_extract(m.table_title, '[vV](\d+\.\d+)', 1), ''),
            nullif(regexp_extract(m.document_title, '[vV](\d+\.\d+)', 1), '')
        ) AS mlperf_round,
        CASE
            WHEN regexp_extract(m.mlperf_id, '^\s*(\d+\.\d+)-', 1) <> '' THEN 'result id'
            WHEN regexp_extract(m.table_title, '[vV](\d+\.\d+)', 1) <> '' THEN 'table title'
            WHEN regexp_extract(m.document_title, '[vV](\d+\.\d+)', 1) <> '' THEN 'page title'
        END AS round_from,
        m.value / 60 AS published_minutes,
        CAST(length(regexp_extract(m.raw_value, '\.(\d+)', 1)) AS INTEGER) AS printed_decimals
    FROM measurements AS m
    WHERE m.metric = 'time_to_train'
      AND (m.mlperf_id IS NOT NULL OR m.table_title ILIKE '%mlperf%')
      -- The official rows are measurements too; they are the reference, not a claim.
      AND m.source_id NOT IN (SELECT source_id FROM lake.main.mlperf_scores)
), candidates AS (
    -- The repository carries no result id, so a submission is found by what both name; a
    -- framework match, then the submitter, then the nearest score settle a tie.
    SELECT
        p.measurement_key,
        o.*,
        count(*) OVER (PARTITION BY p.measurement_key) AS official_candidates,
        row_number() OVER (
            PARTITION BY p.measurement_key
            ORDER BY (o.framework_canonical IS NOT DISTINCT FROM p.framework_canonical) DESC,
                     (lower(o.submitter) LIKE '%' || lower(coalesce(p.vendor, '')) || '%') DESC,
                     abs(o.score_minutes - p.published_minutes), o.submitter, o.system_id
        ) AS pick
    FROM published AS p
    JOIN official AS o
        ON o.mlperf_round = p.mlperf_round
       AND o.system = p.system
       AND o.model_canonical = p.model_canonical
       AND (p.division IS NULL OR lower(o.division) = lower(p.division))
       AND (p.framework_canonical IS NULL OR o.framework_canonical IS NULL
            OR o.framework_canonical = p.framework_canonical)
), compared AS (
    SELECT
        p.*,
        o.score_minutes AS official_minutes,
        o.submitter AS official_submitter,
        o.system_id AS official_system_id,
        o.framework_canonical AS official_framework,
        o.source_id AS official_source_id,
        coalesce(o.official_candidates, 0) AS official_candidates,
        100.0 * (p.published_minutes - o.score_minutes) / o.score_minutes AS difference_pct,
        -- The official score in the page's own unit, rounded as the page prints it.
        round(o.score_minutes * 60 * p.published_number / p.value, p.printed_decimals)
            = p.published_number AS rounds_to_published
    FROM published AS p
    LEFT JOIN candidates AS o ON o.measurement_key = p.measurement_key AND o.pick = 1
)
SELECT
    source_id,
    source_url,
    table_title,
    row_number,
    mlperf_id,
    mlperf_round,
    division,
    system,
    model_canonical,
    framework_canonical,
    raw_value,
    unit_published,
    round(published_minutes, 6) AS published_minutes,  -- The page's time to train, in minutes
    round(official_minutes, 6) AS official_minutes,  -- The official score, in minutes
    round(difference_pct, 3) AS difference_pct,  -- (published - official) / official, in percent
    rounds_to_published,  -- True when the official score, rounded as printed, is the page's number
    CASE
        WHEN official_minutes IS NULL THEN 'no official record'
        WHEN rounds_to_published OR abs(difference_pct) <= 0.5 THEN 'matches'
        ELSE 'differs'
    END AS verdict,  -- matches: same printed number or within 0.5%; differs: further apart; no official record: no valid official score of that round, system, model and framework
    official_submitter,  -- Submitter of the official score compared
    official_system_id,  -- Its system, as named in the results repository
    official_framework,  -- Its framework, canonical
    official_candidates,  -- Official scores that fit the row; above 1 the best fit is shown
    official_source_id,  -- Source the official score was loaded from
    CASE WHEN official_minutes IS NOT NULL THEN
        'round (from the ' || round_from || '), system and model equal'
        || CASE WHEN division IS NOT NULL THEN ', division equal' ELSE '' END
        || CASE WHEN framework_canonical IS NOT NULL AND official_framework IS NOT NULL
                THEN ', framework equal' ELSE '' END
        || CASE WHEN official_candidates > 1
                THEN '; of ' || official_candidates || ' fits: the framework match, then the '
                     || 'submitter named like the vendor, then the nearest score'
                ELSE '' END
    END AS pairing_rule,  -- How the official score was paired with the row
    measurement_key
FROM compared
ORDER BY source_id, mlperf_round, division, model_canonical, system, framework_canonical;

-- Verdict of a measured ratio against a claimed one, `tolerance` either way; a claim worded
-- as a floor ("more than", "over", "at least") is supported by any larger measured ratio.
CREATE OR REPLACE TEMP MACRO mlperf_claim_verdict(measured, claimed, qualifier, tolerance) AS
    CASE
        WHEN measured IS NULL OR claimed IS NULL THEN 'not checkable'
        WHEN measured / claimed - 1 < -tolerance THEN 'contradicted'
        WHEN measured / claimed - 1 <= tolerance THEN 'supported'
        WHEN regexp_matches(coalesce(qualifier, ''), '\b(more than|over|at least)\b') THEN 'supported'
        ELSE 'understated'
    END;

-- Time-to-train claims naming two systems, against the official scores of both in one round:
-- SELECT * FROM mlperf_claim_check() (10%) or mlperf_claim_check(tolerance := 0.05). A table
-- macro, not a view, so the tolerance is the caller's. verdict: supported (within the
-- tolerance), understated (the official scores beat the claim by more), contradicted (they
-- fall short by more) or not checkable.
CREATE OR REPLACE TEMP MACRO mlperf_claim_check(tolerance := 0.10) AS TABLE
WITH official AS (
    SELECT
        s.mlperf_round,
        s.division,
        s.submitter,
        s.system_id,
        s.model_canonical,
        s.score_minutes,
        y.system,
        y.accelerator_count,
        y.accelerator_memory_gb,
        regexp_replace(lower(y.system), '[^a-z0-9+]', '', 'g') AS system_key
    FROM lake.main.mlperf_scores AS s
    JOIN lake.main.mlperf_systems AS y
        ON y.source_id = s.source_id
       AND y.mlperf_round IS NOT DISTINCT FROM s.mlperf_round
       AND y.submitter = s.submitter
       AND y.system_id = s.system_id
    WHERE s.valid
), named AS (
    SELECT claim_id, 'subject' AS side, subject AS name, model FROM claims
    WHERE metric = 'time_to_train' AND subject IS NOT NULL
    UNION ALL
    SELECT claim_id, 'baseline' AS side, baseline AS name, model FROM claims
    WHERE metric = 'time_to_train' AND baseline IS NOT NULL
), keyed AS (
    -- "DGX A100 640GB": the memory size tells which DGX A100 (8x 80 GB), so it is checked
    -- against the system's accelerator memory, never just dropped.
    SELECT
        *,
        regexp_replace(
            lower(regexp_replace(name, '(?i)\s*\d+(\.\d+)?\s*gb\s*$', '')), '[^a-z0-9+]', '', 'g'
        ) AS name_key,
        TRY_CAST(regexp_extract(name, '(?i)(\d+(?:\.\d+)?)\s*gb\s*$', 1) AS DOUBLE) AS memory_gb
    FROM named
), matched AS (
    -- Each side's best official score per round; a closed-division score before an open one.
    SELECT k.claim_id, k.side, o.*
    FROM keyed AS k
    JOIN official AS o
        ON o.system_key = k.name_key
       AND (o.model_canonical = k.model OR starts_with(o.model_canonical, k.model || ' '))
       AND (k.memory_gb IS NULL
            OR k.memory_gb IN (o.accelerator_memory_gb, o.accelerator_memory_gb * o.accelerator_count))
    QUALIFY row_number() OVER (
        PARTITION BY k.claim_id, k.side, o.mlperf_round
        ORDER BY o.division <> 'closed', o.score_minutes, o.submitter, o.system_id
    ) = 1
), pairs AS (
    SELECT
        s.claim_id,
        s.mlperf_round,
        s.submitter || '/' || s.system_id AS subject_submission,
        s.score_minutes AS subject_minutes,
        b.submitter || '/' || b.system_id AS baseline_submission,
        b.score_minutes AS baseline_minutes,
        b.score_minutes / s.score_minutes AS measured_ratio
    FROM matched AS s
    JOIN matched AS b
        ON b.claim_id = s.claim_id AND b.mlperf_round = s.mlperf_round AND b.side = 'baseline'
    WHERE s.side = 'subject'
), readings AS (
    SELECT
        c.*,
        p.* EXCLUDE (claim_id),
        -- "31% faster time-to-train" also reads as 31% less time: 1 / (1 - 0.31) = 1.449x.
        CASE WHEN c.ratio_kind = 'percent_faster' AND c.ratio < 2 THEN 1 / (2 - c.ratio) END
            AS claimed_ratio_as_time_cut
    FROM claims AS c
    LEFT JOIN pairs AS p USING (claim_id)
    WHERE c.metric = 'time_to_train'
)
SELECT
    claim_id,
    source_id,
    subject,
    baseline,
    model,
    metric,
    ratio_text,
    ratio_kind,
    qualifier,
    mlperf_round,
    subject_submission,
    round(subject_minutes, 6) AS subject_minutes,  -- Official score of the subject, minutes
    baseline_submission,
    round(baseline_minutes, 6) AS baseline_minutes,  -- Official score of the baseline, minutes
    ratio AS claimed_ratio,
    round(measured_ratio, 6) AS measured_ratio,  -- baseline time / subject time (above 1: the subject trains faster)
    round(100 * (measured_ratio / ratio - 1), 3) AS deviation_pct,  -- measured against claimed, in percent
    CASE WHEN is_qualitative THEN 'not checkable'
         ELSE mlperf_claim_verdict(measured_ratio, ratio, qualifier, tolerance) END AS verdict,
    round(claimed_ratio_as_time_cut, 6) AS claimed_ratio_as_time_cut,  -- The claim read as a cut in time, for "N% faster"
    CASE WHEN claimed_ratio_as_time_cut IS NOT NULL
         THEN mlperf_claim_verdict(measured_ratio, claimed_ratio_as_time_cut, qualifier, tolerance)
    END AS verdict_as_time_cut,
    CASE
        WHEN is_qualitative THEN 'the claim states no number'
        WHEN subject IS NULL OR baseline IS NULL THEN 'the claim does not name both systems'
        WHEN measured_ratio IS NULL THEN 'no official score of both systems on this model in one round'
        ELSE printf('MLPerf v%s official: %s %.3f min, %s %.3f min; measured %.3fx against claimed %.3fx',
                    mlperf_round, subject, subject_minutes, baseline, baseline_minutes,
                    measured_ratio, ratio)
    END AS explanation,
    sentence
FROM readings
ORDER BY source_id, claim_index, mlperf_round;
