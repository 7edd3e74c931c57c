-- A dry run's copy of a SQLite catalog (run by sqlite3, not DuckDB): its data files are
-- written to the copy's own folder, ? (the folder's path, ending in /).
UPDATE ducklake_metadata SET value = ? WHERE key = 'data_path';
