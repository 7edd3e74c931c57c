-- `perfledger labels`: the labels kept as published but not resolved.
SELECT * FROM unresolved_labels;
