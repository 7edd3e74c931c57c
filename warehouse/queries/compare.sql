-- One model across vendors and chips, as `perfledger compare` lists it: every value of the
-- model's identity ($model, as the catalogue reads what the user typed, $typed) and of the
-- models named by it and more ("BERT": BERT-Base, BERT-Large), narrowed by the options;
-- $best keeps each chip's best value per comparison.
SELECT *
FROM model_comparison
WHERE (lower(model) = lower($model)
       OR starts_with(lower(model), lower($model) || ' ')
       OR starts_with(lower(model), lower($model) || '-')
       OR lower(model_canonical) = lower($typed)
       OR lower(model_published) = lower($typed))
  AND ($metric IS NULL OR metric = $metric)
  AND ($workload IS NULL OR workload = $workload)
  AND ($scenario IS NULL OR lower(scenario) = lower(replace($scenario, '-', '')))
  AND ($precision IS NULL OR precision_class ILIKE '%' || $precision || '%')
  AND ($vendor IS NULL OR vendor ILIKE $vendor)
  AND ($chip IS NULL OR accelerator ILIKE '%' || $chip || '%')
  AND ($official IS NULL OR official = $official)
QUALIFY NOT $best OR row_number() OVER (
    PARTITION BY comparison, vendor, accelerator, unit
    ORDER BY ranking NULLS LAST, official DESC, measurement_key) = 1
ORDER BY model, workload NULLS LAST, metric, scenario NULLS FIRST, precision_class, comparison,
         ranking NULLS LAST, vendor, accelerator, accelerator_count, measurement_key;
