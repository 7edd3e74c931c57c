-- Quarantined values with the stage, the check and the reason, as `perfledger quarantine`
-- lists them; $source: one source's, or NULL for all.
SELECT source_id, stage, "check", reason, table_title, row_number, column_name, raw_value,
       line_number
FROM quarantine
WHERE $source IS NULL OR source_id = $source
ORDER BY source_id, table_index, row_number;
