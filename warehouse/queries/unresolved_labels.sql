-- Labels kept as published but not resolved, as `perfledger labels` lists them.
SELECT * FROM unresolved_labels;
