-- The document version each source's current values come from.
SELECT rd.source_id, d.source_url, d.archive_path, d.content_type, d.byte_size,
       d.document_sha256,
       strftime(d.captured_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS captured_at
FROM lake.main.run_documents rd
JOIN lake.main.documents d USING (document_sha256)
WHERE rd.status = 'new'
QUALIFY row_number() OVER (PARTITION BY rd.source_id ORDER BY d.captured_at DESC) = 1
ORDER BY rd.source_id;
