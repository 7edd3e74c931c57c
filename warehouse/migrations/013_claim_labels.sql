-- Claims keep a subject, baseline or model no vocabulary knows as published (a new chip, a
-- serving framework, a software configuration) and list it here, "system=vLLM 0.15.0;
-- model=GPT-OSS 20B", for `perfledger labels`. Claims stored before have it NULL until their
-- page is read again.
ALTER TABLE claim_rows ADD COLUMN unresolved VARCHAR;
