-- Warehouse snapshots with the run each one recorded. By default only the snapshots of
-- runs and merges: the warehouse's creation and its schema migrations are left out
-- unless everything is asked for.
SELECT
    s.snapshot_id,
    s.snapshot_time,
    s.commit_message,
    json_extract_string(s.commit_extra_info, '$.run_id') AS run_id,
    json_extract_string(s.commit_extra_info, '$.trigger') AS trigger,
    r.documents_read,
    r.documents_new,
    r.documents_unchanged,
    r.documents_failed,
    r.values_added,
    r.values_changed,
    r.values_removed,
    r.values_quarantined,
    json_extract(s.commit_extra_info, '$.documents') AS documents
FROM lake.snapshots() AS s
LEFT JOIN lake.main.runs AS r
    ON r.run_id = json_extract_string(s.commit_extra_info, '$.run_id')
WHERE $everything
   OR json_extract_string(s.commit_extra_info, '$.run_id') IS NOT NULL
   OR starts_with(s.commit_message, 'compaction')
ORDER BY s.snapshot_id;
