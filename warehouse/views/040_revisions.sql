-- Every new version of a source, with its value changes; silent_revision marks a page whose
-- data changed while the date it states (last updated, else published) did not.
CREATE OR REPLACE TEMP VIEW revisions AS
SELECT
    source_id,
    captured_at,
    document_sha256,
    previous_sha256,
    stated_date,
    previous_stated_date,
    values_added,
    values_changed,
    values_removed,
    data_changed,
    silent_revision,
    run_id
FROM lake.main.document_revisions
ORDER BY source_id, captured_at;
