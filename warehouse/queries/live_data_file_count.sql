-- `perfledger doctor` on a shared warehouse: its live data files, as the catalog counts them.
SELECT coalesce(sum(file_count), 0) FROM ducklake_table_info('lake');
