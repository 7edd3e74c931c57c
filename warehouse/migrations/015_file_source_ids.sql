-- A file's source id is now its path below the folder ingested (`file-a/index.html`).
-- Before, it was the slug of its name's stem (`file-index`): docs/a/index.html and
-- docs/b/index.html were one source, each read replacing the other's values. A source named
-- so keeps its id for the file of its current version, found by that file's URL: its values,
-- claims, reviews and label mappings stay as they are, and reading the file again changes
-- nothing. Any other file that shared the source becomes a source of its own at its next
-- ingest and gets back the values the sharing removed (flows/pipeline.py, legacy_ids).
CREATE TABLE IF NOT EXISTS legacy_file_sources (source_url VARCHAR, source_id VARCHAR);

INSERT INTO legacy_file_sources
WITH current_versions AS (
    SELECT source_id, arg_max(document_sha256, captured_at) AS document_sha256
    FROM document_revisions
    GROUP BY source_id
),
named AS (
    SELECT c.source_id, d.source_url,
           -- the file's name, then its stem as Python's Path.stem gives it
           regexp_replace(url_decode(regexp_extract(d.source_url, '[^/]*$')),
                          '(.)\.[^.]+$', '\1') AS stem
    FROM current_versions AS c
    JOIN (SELECT DISTINCT document_sha256, source_url FROM documents) AS d
        USING (document_sha256)
    WHERE c.source_id LIKE 'file-%' AND d.source_url LIKE 'file://%'
)
SELECT source_url, source_id
FROM named
-- the id the slug of the stem gave (sources/collect.py, _slug): not a name given with
-- --source, which keeps meaning what it said
WHERE source_id = 'file-' || coalesce(
    nullif(left(trim(regexp_replace(lower(stem), '[^a-z0-9]+', '-', 'g'), '-'), 80), ''),
    'document')
ORDER BY source_url;
