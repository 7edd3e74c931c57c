-- `perfledger reconcile`: each vendor-page value beside its official MLPerf counterpart.
-- $show_all: also the rows that no official value pairs with.
SELECT * EXCLUDE (measurement_key)
FROM official_reconciliation
WHERE $show_all OR verdict <> 'no official record'
ORDER BY kind, source_id, table_title, row_number;
