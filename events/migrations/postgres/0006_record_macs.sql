-- The service's MAC over each row that grants power (service/record_macs.py): a row a
-- database writer changes or adds without the service's secret is refused. Rows made
-- before this migration have none ('') and are refused as well.
ALTER TABLE access_keys ADD COLUMN mac text NOT NULL DEFAULT '';
ALTER TABLE integrations ADD COLUMN mac text NOT NULL DEFAULT '';
ALTER TABLE integration_battles ADD COLUMN mac text NOT NULL DEFAULT '';

-- Answers to creations with an Idempotency-Key were kept whole, access keys in clear.
-- They are now sealed (AES-GCM, prefix 'bs1') under a key derived from the
-- Idempotency-Key; the clear ones go (a retry of such an old creation finds no answer).
DELETE FROM secrets
WHERE name LIKE 'created:%' AND substring(value FROM 1 FOR 3) <> 'bs1'::bytea;
