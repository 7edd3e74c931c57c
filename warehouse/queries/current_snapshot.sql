-- The snapshot the run's transaction just wrote.
SELECT id FROM lake.current_snapshot();
