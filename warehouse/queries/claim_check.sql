-- Each claim beside the warehouse's own measurements of both systems, when both exist.
-- The best published value per side is used (highest throughput, lowest time or latency),
-- and the measured ratio is put in the claim's "better" direction.
-- $tolerance: how far below the claimed ratio a measured one still supports it;
-- $source: one source's claims, or NULL for all.
WITH matched AS (
    -- "DGX A100 640GB" names a memory option of the system the tables call "DGX A100".
    SELECT
        c.claim_id,
        CASE
            WHEN m.system = c.subject OR starts_with(c.subject, m.system || ' ') THEN 'subject'
            ELSE 'baseline'
        END AS side,
        m.metric,
        m.value,
        m.model_canonical
    FROM claims AS c
    JOIN measurements AS m
      ON m.metric = c.metric
     AND (m.system = c.subject OR starts_with(c.subject, m.system || ' ')
          OR m.system = c.baseline OR starts_with(c.baseline, m.system || ' '))
     AND (m.model_canonical = c.model OR starts_with(m.model_canonical, c.model || ' '))
     AND (c.task IS NULL OR m.workload IS NULL OR m.workload = c.task)
    WHERE c.metric IN ('throughput', 'latency', 'time_to_train', 'time_to_result')
), sides AS (
    SELECT
        claim_id,
        side,
        CASE WHEN any_value(metric) = 'throughput' THEN max(value) ELSE min(value) END AS best,
        count(*) AS rows_used,
        string_agg(DISTINCT model_canonical, ', ') AS models_used
    FROM matched
    GROUP BY claim_id, side
), measured AS (
    SELECT
        c.claim_id,
        s.best AS subject_value,
        b.best AS baseline_value,
        CASE WHEN c.metric = 'throughput' THEN s.best / b.best ELSE b.best / s.best END
            AS measured_ratio,
        s.rows_used + b.rows_used AS rows_used,
        s.models_used AS models_used
    FROM claims AS c
    JOIN sides AS s ON s.claim_id = c.claim_id AND s.side = 'subject'
    JOIN sides AS b ON b.claim_id = c.claim_id AND b.side = 'baseline'
)
SELECT
    c.claim_id,
    c.source_id,
    c.subject,
    c.baseline,
    c.model,
    c.metric,
    c.ratio AS claimed_ratio,
    c.qualifier,
    m.measured_ratio,
    m.subject_value,
    m.baseline_value,
    m.rows_used,
    m.models_used,
    CASE
        WHEN c.is_qualitative THEN 'not checkable'
        WHEN m.measured_ratio IS NULL THEN 'not checkable'
        WHEN m.measured_ratio >= c.ratio * (1 - $tolerance) THEN 'supported'
        ELSE 'contradicted'
    END AS verdict,
    CASE
        WHEN c.is_qualitative THEN 'the claim states no number'
        WHEN c.subject IS NULL OR c.baseline IS NULL THEN 'the claim does not name both systems'
        WHEN m.measured_ratio IS NULL THEN 'the warehouse lacks measurements of one side'
        ELSE printf('measured %.3gx against claimed %.3gx', m.measured_ratio, c.ratio)
    END AS explanation,
    c.sentence
FROM claims AS c
LEFT JOIN measured AS m USING (claim_id)
WHERE $source IS NULL OR c.source_id = $source
ORDER BY verdict DESC, c.source_id, c.claim_index;
