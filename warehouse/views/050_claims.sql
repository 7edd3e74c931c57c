-- One row per comparative claim, with reviewed corrections applied over what was extracted.
CREATE OR REPLACE TEMP VIEW claims AS
SELECT
    c.claim_id,  -- Stable id of the claim: md5 of source, sentence, words and position
    c.source_id,  -- Registry name of the source
    c.source_url,  -- URL of the page as published
    c.document_sha256,  -- sha256 of the page version the claim was read from
    d.title AS document_title,  -- Title the page states
    d.captured_at,  -- When the page version was captured
    c.line_number,
    c.char_start,
    c.char_end,
    c.sentence,
    c.claim_text,
    coalesce(json_extract_string(c.corrections, '$.subject'), c.subject) AS subject,
    coalesce(json_extract_string(c.corrections, '$.baseline'), c.baseline) AS baseline,
    c.baseline_kind,
    c.baseline_count,
    coalesce(json_extract_string(c.corrections, '$.model'), c.model) AS model,
    c.task,
    coalesce(json_extract_string(c.corrections, '$.metric'), c.metric) AS metric,
    c.direction,
    coalesce(TRY_CAST(json_extract_string(c.corrections, '$.ratio') AS DOUBLE), c.ratio) AS ratio,
    c.ratio_text,
    c.ratio_kind,
    coalesce(json_extract_string(c.corrections, '$.qualifier'), c.qualifier) AS qualifier,
    c.conditions,
    c.is_qualitative,
    c.confidence,
    c.method,
    c.unresolved,  -- Subject, baseline or model kept as published: 'system=vLLM 0.15.0; model=...'
    coalesce(c.review_status, 'unreviewed') AS review_status,  -- unreviewed, accepted or corrected
    c.review_note,  -- The reviewer's note
    c.subject AS extracted_subject,  -- Subject as extracted, before review
    c.baseline AS extracted_baseline,  -- Baseline as extracted, before review
    c.ratio AS extracted_ratio,  -- Ratio as extracted, before review
    c.run_id,
    c.claim_index
FROM lake.main.claim_rows AS c
LEFT JOIN lake.main.documents AS d USING (document_sha256)
WHERE coalesce(c.review_status, '') <> 'rejected';
