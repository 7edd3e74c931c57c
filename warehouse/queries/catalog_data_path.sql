-- SQLite, on a copy of a warehouse's catalog: the copy's own folder for its data files.
UPDATE ducklake_metadata SET value = ? WHERE key = 'data_path';
