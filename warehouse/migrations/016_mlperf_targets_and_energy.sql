-- Official MLPerf Training rows as the result summarizer reads them: each run's time to the
-- fraction of a millisecond it logs, the quality target its evaluations must reach (a run
-- that does not is not converged) and whether they did, and the energy of runs measured
-- for power with the score's energy to train. Rows stored before have them NULL until their
-- tree is read again.
ALTER TABLE mlperf_runs ADD COLUMN duration_ms DOUBLE;
ALTER TABLE mlperf_runs ADD COLUMN quality_target VARCHAR;
ALTER TABLE mlperf_runs ADD COLUMN reached_target BOOLEAN;
ALTER TABLE mlperf_runs ADD COLUMN energy_joules DOUBLE;
ALTER TABLE mlperf_scores ADD COLUMN energy_joules DOUBLE;
ALTER TABLE mlperf_scores ADD COLUMN energy_reason VARCHAR;
