-- One identity per model and dataset, so that vendors compare on one GROUP BY: the model's
-- identity across pages (family and size), what its name adds (version, fine-tune), the
-- dataset's canonical name; and the sockets of an official CPU-only MLPerf system. Values
-- stored before have them NULL until their page is read again.
ALTER TABLE measurement_values ADD COLUMN model_base VARCHAR;
ALTER TABLE measurement_values ADD COLUMN model_variant VARCHAR;
ALTER TABLE measurement_values ADD COLUMN dataset_canonical VARCHAR;
ALTER TABLE mlperf_inference_systems ADD COLUMN host_processors_per_node BIGINT;
