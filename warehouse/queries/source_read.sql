-- Whether the warehouse has read the source $source at least once.
SELECT EXISTS (SELECT 1 FROM lake.main.run_documents WHERE source_id = $source);
