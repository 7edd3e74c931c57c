-- Official MLPerf Inference results read from a results repository checkout
-- (mlcommons/inference_results_vX.Y), current per source: the systems described and every
-- result (system, benchmark, scenario) with its official value and whether the round's
-- checker rules hold. Columns as schemas/mlperf_inference.py states them.
CREATE TABLE IF NOT EXISTS mlperf_inference_systems (
    source_id VARCHAR,
    run_id VARCHAR,
    mlperf_round VARCHAR,
    division VARCHAR,
    submitter VARCHAR,
    system_id VARCHAR,
    submitter_name VARCHAR,
    system_name VARCHAR,
    system_type VARCHAR,
    status VARCHAR,
    availability VARCHAR,
    number_of_nodes BIGINT,
    accelerators_per_node BIGINT,
    accelerator_count BIGINT,
    accelerator_model_name VARCHAR,
    accelerator_memory_gb DOUBLE,
    host_processor_model_name VARCHAR,
    framework VARCHAR,
    framework_canonical VARCHAR,
    sdk_version VARCHAR,
    vendor VARCHAR,
    system VARCHAR,
    accelerator VARCHAR,
    platform_resolution VARCHAR,
    path VARCHAR
);

CREATE TABLE IF NOT EXISTS mlperf_inference_results (
    source_id VARCHAR,
    run_id VARCHAR,
    mlperf_round VARCHAR,
    round_source VARCHAR,
    division VARCHAR,
    submitter VARCHAR,
    system_id VARCHAR,
    benchmark VARCHAR,
    model VARCHAR,
    accuracy_target VARCHAR,
    scenario VARCHAR,
    metric VARCHAR,
    value DOUBLE,
    unit VARCHAR,
    result_field VARCHAR,
    source_file VARCHAR,
    result_validity VARCHAR,
    valid BOOLEAN,
    reason VARCHAR,
    accuracy VARCHAR,
    accuracy_ok BOOLEAN,
    power_watts DOUBLE,
    energy_mj_per_query DOUBLE,
    path VARCHAR
);
