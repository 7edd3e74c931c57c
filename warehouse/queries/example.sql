-- The query `perfledger ingest` suggests trying after a run that loaded a new document.
SELECT model, platform, sdk_version, framework, value, unit FROM measurements
WHERE model_canonical = 'ResNet-50 v1.5' AND system = 'Bow Pod16'
  AND workload = 'training' AND metric = 'throughput'
