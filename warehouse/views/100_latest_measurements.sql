-- The current values: one row per value as the newest version of its page states it
-- (the same rows as measurements).
CREATE OR REPLACE TEMP VIEW latest_measurements AS
SELECT * FROM measurements;
