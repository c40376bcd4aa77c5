-- The service's MAC over each row that grants power (service/record_macs.py): a row a
-- database writer changes or adds without the service's secret is refused. Rows made
-- before this migration have none ('') and are refused as well.
ALTER TABLE access_keys ADD COLUMN mac text NOT NULL DEFAULT '';
ALTER TABLE integrations ADD COLUMN mac text NOT NULL DEFAULT '';
ALTER TABLE integration_battles ADD COLUMN mac text NOT NULL DEFAULT '';
