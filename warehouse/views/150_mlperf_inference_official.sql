-- Official MLPerf Inference results, one row per system, benchmark and scenario, with the system described, the value per accelerator and why a result is invalid.
CREATE OR REPLACE TEMP VIEW mlperf_inference_official AS
SELECT
    r.mlperf_round,
    r.division,
    r.submitter,
    r.system_id,
    y.system_name,
    y.vendor,
    y.system,
    y.accelerator,
    y.accelerator_count,
    y.accelerator_model_name,
    y.host_processor_model_name,
    y.framework,
    y.availability,
    r.benchmark,
    r.model,
    r.accuracy_target,  -- 99 or 99.9 (% of the reference accuracy), NULL when the benchmark has one target
    r.scenario,  -- Offline, Server, SingleStream or MultiStream
    r.metric,  -- The official result of the scenario: tokens_per_second, samples_per_second, completed_samples_per_second, latency_p90, latency_p99...
    r.value,  -- In `unit`
    r.unit,  -- tokens/s, samples/s, queries/s or ms
    CASE WHEN r.unit <> 'ms' AND y.accelerator_count > 0
         THEN r.value / y.accelerator_count END AS value_per_accelerator,  -- Throughput per accelerator (NULL for latencies and CPU-only systems)
    r.valid,  -- Every rule of the round's submission checker kept
    r.reason,  -- Why not, when not valid
    r.result_validity,  -- VALID or INVALID, as LoadGen logged it
    r.accuracy,  -- Accuracy numbers read from accuracy.txt (JSON)
    r.accuracy_ok,  -- The accuracy reaches the benchmark's target
    r.power_watts,  -- Average power of an Offline or Server power result
    r.energy_mj_per_query,  -- Energy per query of a SingleStream or MultiStream power result
    r.result_field,  -- The LoadGen key the value was read from
    r.source_file,  -- The log it was read from
    r.path,
    r.source_id,
    r.run_id
FROM lake.main.mlperf_inference_results AS r
LEFT JOIN lake.main.mlperf_inference_systems AS y
    ON y.source_id = r.source_id
   AND y.mlperf_round IS NOT DISTINCT FROM r.mlperf_round
   AND y.division IS NOT DISTINCT FROM r.division
   AND y.submitter = r.submitter
   AND y.system_id = r.system_id
ORDER BY r.mlperf_round, r.division, r.model, r.scenario, r.accuracy_target, y.accelerator_count,
         y.system, r.submitter, r.system_id;
