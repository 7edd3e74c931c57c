-- Labels kept as published but not resolved (a chip, system or model the vocabulary does not
-- know, a precision word), columns whose metric could not be told, units not known, sources
-- whose numbers read two ways for want of a language and sources with values no model names,
-- with how many values each holds back or carries and one example; and the systems and models
-- claims keep as published (outcome claimed; `perfledger review-claim` corrects a claim).
-- `perfledger map-label` records a mapping for one; `perfledger reprocess` then applies it to
-- the archived pages.
CREATE OR REPLACE TEMP VIEW unresolved_labels AS
WITH carried AS (
    SELECT
        split_part(label, '=', 1) AS kind,
        substr(label, strpos(label, '=') + 1) AS label,
        'loaded' AS outcome,
        source_url, table_title, column_name, raw_value
    FROM lake.main.measurement_values,
         unnest(string_split(unresolved, '; ')) AS entries(label)
    WHERE unresolved IS NOT NULL
),
held_back AS (
    SELECT
        CASE q."check" WHEN 'unknown_metric' THEN 'column'
                       WHEN 'ambiguous_number' THEN 'source' ELSE 'unit' END AS kind,
        CASE q."check" WHEN 'unknown_metric' THEN q.column_name
                       WHEN 'ambiguous_number' THEN q.source_id
             ELSE regexp_extract(q.reason, '^unit ''(.*)'' of ''', 1) END AS label,
        'quarantined' AS outcome,
        d.source_url, q.table_title, q.column_name, q.raw_value
    FROM lake.main.quarantined_values AS q
    LEFT JOIN lake.main.documents AS d USING (document_sha256)
    WHERE q."check" IN ('unknown_metric', 'unknown_unit', 'ambiguous_number')
),
claimed AS (
    SELECT
        split_part(label, '=', 1) AS kind,
        substr(label, strpos(label, '=') + 1) AS label,
        'claimed' AS outcome,
        c.source_url, NULL AS table_title, NULL AS column_name, c.claim_text AS raw_value
    FROM lake.main.claim_rows AS c,
         unnest(string_split(c.unresolved, '; ')) AS entries(label)
    WHERE c.unresolved IS NOT NULL AND coalesce(c.review_status, '') <> 'rejected'
),
unnamed AS (
    -- Values no row, column, caption, heading or title names a model for: `perfledger
    -- map-label source SOURCE_ID --set model=...` (or `table SOURCE_ID#INDEX`) says it.
    SELECT 'source' AS kind, source_id AS label, 'no model' AS outcome,
           source_url, table_title, column_name, raw_value
    FROM lake.main.measurement_values
    WHERE model_canonical IS NULL
)
SELECT
    kind,                                   -- platform, precision, model, column, unit or source; system or model of a claim
    label,                                  -- the label as published (a source: its id)
    outcome,                                -- loaded (with the label verbatim), quarantined, claimed (a claim keeps it) or no model (a source's values name none)
    count(*) AS "values",                   -- values (or claims) carrying the label or held back by it
    count(DISTINCT source_url) AS sources,  -- pages where it appears
    min(source_url) AS example_source_url,  -- one page where it appears
    min(table_title) AS example_table_title,  -- the heading of one table holding it
    min(column_name) AS example_column_name,  -- one column holding it
    min(raw_value) AS example_raw_value     -- one value it labels
FROM (SELECT * FROM carried UNION ALL SELECT * FROM held_back UNION ALL SELECT * FROM claimed
      UNION ALL SELECT * FROM unnamed)
GROUP BY kind, label, outcome
ORDER BY "values" DESC, kind, label;
