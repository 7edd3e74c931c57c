-- What a rate is counted per as published ("TPS/GPU", "tokens/s/chip", "tok/s/user"):
-- accelerator, node or user; NULL for the whole system's rate. Values stored before have it
-- NULL until their page is read again.
ALTER TABLE measurement_values ADD COLUMN rate_per VARCHAR;
