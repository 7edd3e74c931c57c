-- Official MLPerf Training rows read as the MLCommons result summarizer reads them: a system's
-- status as its official availability category ("Available on-premise", "Available cloud",
-- "Research, Development, or Internal (RDI)", "Preview"); every component of a run's last
-- evaluation when it logs several (Mask R-CNN's BBOX and SEGM, as a JSON object); and the
-- scaling.json factor a score was multiplied by (1.0 when the folder has none). Rows stored
-- before have them NULL until their tree is read again.
ALTER TABLE mlperf_systems ADD COLUMN availability_category VARCHAR;
ALTER TABLE mlperf_runs ADD COLUMN last_eval_components VARCHAR;
ALTER TABLE mlperf_scores ADD COLUMN scaling_factor DOUBLE;
