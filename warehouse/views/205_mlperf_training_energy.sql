-- Official MLPerf Training energy to train, one row per system and benchmark whose runs were measured for power (a power/ folder of power logs), as MLCommons' result summarizer computes it: every run's energy, and the mean of those of the runs the time to train uses.
CREATE OR REPLACE TEMP VIEW mlperf_training_energy AS
WITH run_lists AS (
    SELECT
        source_id,
        mlperf_round,
        submitter,
        system_id,
        benchmark,
        list(
            struct_pack(run := run_name, energy_joules := energy_joules, role := score_role)
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
    y.accelerator,
    y.accelerator_count,
    s.benchmark,
    s.model_canonical,
    s.score_minutes,  -- Official time to train in minutes
    s.energy_joules,  -- Official energy to train in joules: the mean energy of the runs the time to train uses, times the scaling factor; NULL when it cannot be computed (energy_reason)
    s.energy_reason,  -- Why a folder measured for power has no energy to train
    s.valid,
    r.runs,  -- Every run: name, energy in joules, and its role in the score
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
WHERE s.energy_joules IS NOT NULL OR s.energy_reason IS NOT NULL
ORDER BY s.mlperf_round, s.division, s.model_canonical, y.accelerator_count, s.submitter,
         s.system_id;
