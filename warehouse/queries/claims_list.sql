-- The claims found in page prose, as `perfledger claims` lists them; $source: one source's,
-- or NULL for all.
SELECT claim_id, source_id, subject, baseline, model, metric, ratio, ratio_text, qualifier,
       is_qualitative, confidence, review_status, sentence
FROM claims
WHERE $source IS NULL OR source_id = $source
ORDER BY source_id, claim_index;
