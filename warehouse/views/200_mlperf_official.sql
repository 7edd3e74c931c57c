-- Official MLPerf scores, one row per system and benchmark, with the rule applied and every run behind the score: its minutes, its status and how the score used it.
CREATE OR REPLACE TEMP VIEW mlperf_official AS
WITH run_lists AS (
    SELECT
        source_id,
        mlperf_round,
        submitter,
        system_id,
        benchmark,
        list(
            struct_pack(run := run_name, minutes := minutes, status := status, role := score_role)
            ORDER BY run_index
        ) AS runs
    FROM lake.main.mlperf_runs
    GROUP BY ALL
)
SELECT
    s.mlperf_round,
    s.division,
    s.submitter,
    s.system_id,
    y.system_name,
    y.vendor,
    y.system,
    y.accelerator,
    y.accelerator_count,
    y.framework,
    y.framework_canonical,
    y.sdk_version,
    y.availability,
    s.benchmark,
    s.model_canonical,
    s.score_minutes,  -- Official time to train in minutes: mean of the runs kept by the rule
    s.score_minutes * 60 AS score_seconds,  -- The same score in seconds, the measurements' unit
    s.valid,  -- False when the runs break the rule (count, non-converged runs); score_minutes may then be NULL
    s.reason,
    s.rule_id,
    s.rule_text,
    s.runs_required,
    s.runs_found,
    s.runs_converged,
    s.runs_non_converged,
    s.runs_used,
    s.runs_dropped,  -- Each dropped run with why: fastest, slowest or not_converged
    r.runs,  -- Every run: name, minutes, run_stop status and its role in the score
    s.source_id,
    s.run_id
FROM lake.main.mlperf_scores AS s
LEFT JOIN lake.main.mlperf_systems AS y
    ON y.source_id = s.source_id
   AND y.mlperf_round IS NOT DISTINCT FROM s.mlperf_round
   AND y.submitter = s.submitter
   AND y.system_id = s.system_id
LEFT JOIN run_lists AS r
    ON r.source_id = s.source_id
   AND r.mlperf_round IS NOT DISTINCT FROM s.mlperf_round
   AND r.submitter = s.submitter
   AND r.system_id = s.system_id
   AND r.benchmark = s.benchmark
ORDER BY s.mlperf_round, s.division, s.model_canonical, y.accelerator_count, y.system,
         y.framework_canonical, s.submitter, s.system_id;
