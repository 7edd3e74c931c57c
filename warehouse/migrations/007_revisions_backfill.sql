-- Versions applied before document_revisions existed get their revision row, their value
-- changes unknown (NULL), so that a source's current version can be read from this table
-- alone: it holds one row per applied version, where run_documents holds a row per document
-- per run, unchanged ones too, and grows with every scheduled run.
INSERT INTO document_revisions
WITH applied AS (
    SELECT rd.run_id, rd.source_id, d.document_sha256, d.captured_at,
           coalesce(d.last_updated_date, d.published_date) AS stated_date
    FROM run_documents AS rd JOIN documents AS d USING (document_sha256)
    WHERE rd.status = 'new'
),
in_order AS (
    SELECT *,
           lag(document_sha256) OVER by_source AS previous_sha256,
           lag(stated_date) OVER by_source AS previous_stated_date
    FROM applied
    WINDOW by_source AS (PARTITION BY source_id ORDER BY captured_at, run_id)
)
SELECT run_id, source_id, document_sha256, previous_sha256, captured_at, stated_date,
       previous_stated_date, NULL, NULL, NULL, NULL, NULL
FROM in_order
WHERE NOT EXISTS (
    SELECT 1 FROM document_revisions AS r
    WHERE r.run_id = in_order.run_id AND r.source_id = in_order.source_id
)
ORDER BY captured_at, run_id;
