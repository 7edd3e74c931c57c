-- Every HTTP fetch, whatever its outcome, with status, headers and timing.
CREATE TABLE IF NOT EXISTS fetches (
    run_id VARCHAR,
    source_id VARCHAR,
    url VARCHAR,
    final_url VARCHAR,
    status INTEGER,
    outcome VARCHAR,
    reason VARCHAR,
    elapsed_s DOUBLE,
    attempts INTEGER,
    fetched_at TIMESTAMPTZ,
    etag VARCHAR,
    last_modified VARCHAR,
    headers VARCHAR,
    document_sha256 VARCHAR,
    byte_size BIGINT
);
