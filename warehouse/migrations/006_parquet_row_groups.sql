-- Smaller Parquet row groups: a writer holds a whole row group in memory (about 170 MB for the
-- measurement columns at DuckDB's default of 122,880 rows), so a large run's peak memory
-- stays flat; readers lose nothing measurable on tables of this size.
CALL lake.set_option('parquet_row_group_size', 8192);
