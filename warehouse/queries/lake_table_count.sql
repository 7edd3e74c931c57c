-- `perfledger doctor`: the tables of the attached warehouse.
SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'lake';
