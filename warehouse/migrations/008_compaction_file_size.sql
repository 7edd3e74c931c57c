-- Merging small files (warehouse/compaction.py) rewrites every file under the target size
-- along with them. At DuckLake's default of 512 MB that is a whole table of this size at each
-- merge (a 20 MB file of 1,000 pages' values, rewritten to absorb one page's); at 16 MB the
-- files of large runs stay as written and a merge reads only the small ones.
CALL lake.set_option('target_file_size', '16MB');
