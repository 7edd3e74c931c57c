-- Labels a value carries since pages of every vendor are read: the row's label cells, the
-- statistic of its column (p99, mean...), the +/- spread, a remark on one of a cell's values,
-- the row's other settings, where each label came from, and the labels kept as published but
-- not resolved. Values stored before have them NULL until their page is read again.
ALTER TABLE measurement_values ADD COLUMN row_label VARCHAR;
ALTER TABLE measurement_values ADD COLUMN statistic VARCHAR;
ALTER TABLE measurement_values ADD COLUMN spread DOUBLE;
ALTER TABLE measurement_values ADD COLUMN qualifier VARCHAR;
ALTER TABLE measurement_values ADD COLUMN settings VARCHAR;
ALTER TABLE measurement_values ADD COLUMN label_sources VARCHAR;
ALTER TABLE measurement_values ADD COLUMN unresolved VARCHAR;
ALTER TABLE documents ADD COLUMN language VARCHAR;
