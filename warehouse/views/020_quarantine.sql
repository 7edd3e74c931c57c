-- Values and columns that did not fit, with the stage, the check and a readable reason.
CREATE OR REPLACE TEMP VIEW quarantine AS
SELECT
    q.source_id,
    d.source_url,
    q.document_sha256,
    q.stage,
    q."check",
    q.reason,
    q.table_title,
    q.row_number,
    q.column_name,
    q.raw_value,
    q.raw_row,
    q.line_number,
    q.table_index,
    q.run_id
FROM lake.main.quarantined_values AS q
LEFT JOIN lake.main.documents AS d USING (document_sha256);
