-- Every document version read, newest capture first per source.
CREATE OR REPLACE TEMP VIEW document_versions AS
SELECT
    source_id,
    source_url,
    document_sha256,
    captured_at,
    title,
    author,
    published_date,
    last_updated_date,
    language,
    content_type,
    byte_size,
    layout,
    parser_version,
    tables_found,
    cells_found,
    archive_path,
    first_run_id
FROM lake.main.documents
ORDER BY source_id, captured_at DESC;
