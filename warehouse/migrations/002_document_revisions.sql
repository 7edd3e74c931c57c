-- One row per new version of a source: what changed, and whether the page said so.
CREATE TABLE IF NOT EXISTS document_revisions (
    run_id VARCHAR,
    source_id VARCHAR,
    document_sha256 VARCHAR,
    previous_sha256 VARCHAR,
    captured_at TIMESTAMPTZ,
    stated_date DATE,
    previous_stated_date DATE,
    values_added INTEGER,
    values_changed INTEGER,
    values_removed INTEGER,
    data_changed BOOLEAN,
    silent_revision BOOLEAN
);
