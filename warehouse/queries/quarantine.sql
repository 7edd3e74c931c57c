-- `perfledger quarantine`: each quarantined value with the stage, the check and the reason.
-- $source: only this source's values (NULL: every source's).
SELECT source_id, stage, "check", reason, table_title, row_number, column_name, raw_value,
       line_number
FROM quarantine
WHERE $source IS NULL OR source_id = $source
ORDER BY source_id, table_index, row_number;
