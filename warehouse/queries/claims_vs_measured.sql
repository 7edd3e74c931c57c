-- Each claim that states a ratio, with the ratio the warehouse's own values give where both
-- systems were measured on the claim's model and metric (best value of each system; for
-- latency and durations the baseline's over the subject's, so above 1 means the subject wins).
WITH best AS (
    SELECT
        system,
        model_canonical,
        workload,
        metric,
        CASE WHEN metric = 'throughput' THEN max(value) ELSE min(value) END AS best_value
    FROM measurements
    WHERE metric IN ('throughput', 'latency', 'time_to_train', 'time_to_result')
    GROUP BY system, model_canonical, workload, metric
), measured AS (
    SELECT
        c.claim_id,
        CASE
            WHEN c.metric = 'throughput' THEN max(s.best_value / b.best_value)
            ELSE max(b.best_value / s.best_value)
        END AS measured_ratio
    FROM claims AS c
    JOIN best AS s
        ON s.system = c.subject AND s.model_canonical = c.model AND s.metric = c.metric
       AND (c.task IS NULL OR s.workload = c.task)
    JOIN best AS b
        ON b.system = c.baseline AND b.model_canonical = c.model AND b.metric = c.metric
       AND b.workload IS NOT DISTINCT FROM s.workload
    GROUP BY c.claim_id, c.metric
)
SELECT
    c.claim_id,
    c.subject,
    c.baseline,
    c.model,
    c.task,
    c.metric,
    c.ratio AS claimed_ratio,
    m.measured_ratio,
    c.claim_text,
    c.source_id
FROM claims AS c
LEFT JOIN measured AS m USING (claim_id)
WHERE c.ratio IS NOT NULL
ORDER BY c.ratio DESC, c.claim_id;
