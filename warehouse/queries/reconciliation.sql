-- Each vendor-page MLPerf value beside its official counterpart, as `perfledger reconcile`
-- lists them; $everything: also the rows no official value pairs with.
SELECT * EXCLUDE (measurement_key)
FROM official_reconciliation
WHERE $everything OR verdict <> 'no official record'
ORDER BY kind, source_id, table_title, row_number;
