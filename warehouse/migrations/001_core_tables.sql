-- Raw record of every run and every document version read.
CREATE TABLE IF NOT EXISTS runs (
    run_id VARCHAR,
    started_at TIMESTAMPTZ,
    finished_at TIMESTAMPTZ,
    trigger VARCHAR,
    parser_version VARCHAR,
    documents_read INTEGER,
    documents_new INTEGER,
    documents_unchanged INTEGER,
    documents_failed INTEGER,
    tables_found INTEGER,
    values_added INTEGER,
    values_changed INTEGER,
    values_removed INTEGER,
    values_quarantined INTEGER
);

CREATE TABLE IF NOT EXISTS documents (
    document_sha256 VARCHAR,
    source_id VARCHAR,
    source_url VARCHAR,
    content_type VARCHAR,
    byte_size BIGINT,
    layout VARCHAR,
    parser_version VARCHAR,
    title VARCHAR,
    author VARCHAR,
    published_date DATE,
    last_updated_date DATE,
    captured_at TIMESTAMPTZ,
    archive_path VARCHAR,
    first_run_id VARCHAR,
    tables_found INTEGER,
    cells_found INTEGER
);

CREATE TABLE IF NOT EXISTS run_documents (
    run_id VARCHAR,
    source_id VARCHAR,
    document_sha256 VARCHAR,
    status VARCHAR,
    message VARCHAR
);

CREATE TABLE IF NOT EXISTS cells (
    document_sha256 VARCHAR,
    table_index INTEGER,
    table_title VARCHAR,
    table_note VARCHAR,
    row_number INTEGER,
    column_index INTEGER,
    column_name VARCHAR,
    raw_value VARCHAR,
    line_number INTEGER
);

-- Current state per source; DuckLake snapshots keep every earlier state.
CREATE TABLE IF NOT EXISTS measurement_values (
    measurement_key VARCHAR,
    row_identity VARCHAR,
    content_hash VARCHAR,
    source_id VARCHAR,
    source_url VARCHAR,
    document_sha256 VARCHAR,
    document_title VARCHAR,
    captured_at TIMESTAMPTZ,
    parser_version VARCHAR,
    run_id VARCHAR,
    table_index INTEGER,
    table_title VARCHAR,
    row_number INTEGER,
    column_index INTEGER,
    column_name VARCHAR,
    line_number INTEGER,
    model VARCHAR,
    model_canonical VARCHAR,
    variant VARCHAR,
    platform VARCHAR,
    vendor VARCHAR,
    system VARCHAR,
    accelerator VARCHAR,
    accelerator_count BIGINT,
    sdk_version VARCHAR,
    sdk VARCHAR,
    sdk_prerelease BOOLEAN,
    framework VARCHAR,
    framework_canonical VARCHAR,
    dataset VARCHAR,
    batch_size VARCHAR,
    batch_size_number DOUBLE,
    precision VARCHAR,
    activation_dtype VARCHAR,
    weight_dtype VARCHAR,
    division VARCHAR,
    quality_target VARCHAR,
    mlperf_id VARCHAR,
    workload VARCHAR,
    phase VARCHAR,
    metric VARCHAR,
    value DOUBLE,
    unit VARCHAR,
    item_kind VARCHAR,
    value_per_accelerator DOUBLE,
    published_number DOUBLE,
    unit_published VARCHAR,
    approximate BOOLEAN,
    raw_value VARCHAR
);

CREATE TABLE IF NOT EXISTS quarantined_values (
    document_sha256 VARCHAR,
    source_id VARCHAR,
    run_id VARCHAR,
    stage VARCHAR,
    "check" VARCHAR,
    reason VARCHAR,
    table_index INTEGER,
    table_title VARCHAR,
    row_number INTEGER,
    column_name VARCHAR,
    raw_value VARCHAR,
    raw_row VARCHAR,
    line_number INTEGER
);

CREATE TABLE IF NOT EXISTS document_errors (
    run_id VARCHAR,
    source_id VARCHAR,
    location VARCHAR,
    document_sha256 VARCHAR,
    stage VARCHAR,
    reason VARCHAR
);
