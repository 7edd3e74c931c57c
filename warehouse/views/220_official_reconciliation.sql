-- Every vendor-page value set beside its official MLPerf counterpart, training and inference in one list (`perfledger reconcile`): both numbers in one unit, the difference, the verdict and the rule that paired them.
CREATE OR REPLACE TEMP VIEW official_reconciliation AS
SELECT
    'training' AS kind,  -- training or inference
    source_id,
    source_url,
    table_title,
    row_number,
    mlperf_round,
    division,
    system,
    model_canonical,
    NULL::VARCHAR AS scenario,  -- Inference scenario (Offline, Server, SingleStream, MultiStream)
    'time_to_train' AS metric,
    raw_value,
    published_minutes AS published_value,  -- The page's value, in `unit`
    official_minutes AS official_value,  -- The official value, in `unit`
    'min' AS unit,
    difference_pct,  -- (published - official) / official, in percent
    verdict,  -- matches, differs or no official record
    pairing_rule,  -- How the official value was paired with the page's
    official_submitter,  -- Submitter of the official value compared
    official_system_id,  -- Its system, as named in the results repository
    official_source_id,  -- Source the official value was loaded from
    measurement_key
FROM mlperf_reconciliation
UNION ALL BY NAME
SELECT
    'inference' AS kind,
    source_id,
    source_url,
    table_title,
    row_number,
    mlperf_round,
    division,
    system,
    model_canonical,
    scenario,
    metric,
    raw_value,
    published_value,
    official_value,
    unit,
    difference_pct,
    verdict,
    pairing_rule,
    official_submitter,
    official_system_id,
    official_source_id,
    measurement_key
FROM mlperf_inference_reconciliation;
