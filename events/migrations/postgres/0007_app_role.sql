-- The service runs as an application role that may add to the log and read it, and
-- nothing else: no UPDATE, DELETE or TRUNCATE of events, no ownership of any table (an
-- owner may drop or disable triggers), no superuser rights (a superuser may set
-- session_replication_role = replica, under which ordinary triggers do not fire).
--
-- The role is created here if it does not exist yet (NOLOGIN: the operator either lets
-- the service SET ROLE to it, or gives a LOGIN role membership, see README "PostgreSQL
-- roles"). Roles belong to the cluster, not to one database or schema: several schemas
-- (or test runs) share it, and each grants it rights on its own tables.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'battle_app') THEN
        CREATE ROLE battle_app NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS;
    END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;  -- another migration created it at the same moment
END $$;

DO $$
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO battle_app', current_schema());
END $$;

-- The log and what is kept beside it: read and add.
GRANT SELECT, INSERT ON events, commands, access_keys, integrations, integration_battles
    TO battle_app;
-- The global position counter is updated by every append.
GRANT SELECT, UPDATE ON event_position TO battle_app;
-- Dice seeds are stored when committed and may be written again (save_secret upserts).
GRANT SELECT, INSERT, UPDATE ON secrets TO battle_app;
-- The service checks at start that nothing is left to migrate.
GRANT SELECT ON schema_migrations TO battle_app;
-- Tables added by migrations numbered before this one, which it does not name: read and
-- add only. A migration after this one grants what its own tables need.
DO $$
DECLARE
    t text;
BEGIN
    FOR t IN
        SELECT c.relname FROM pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
          AND NOT has_table_privilege('battle_app', c.oid, 'SELECT')
    LOOP
        EXECUTE format('GRANT SELECT, INSERT ON %I TO battle_app', t);
    END LOOP;
END $$;

-- Triggers that fire whatever session_replication_role says (ENABLE ALWAYS): even a
-- session in replica mode cannot change the log through them.
ALTER TABLE events ENABLE ALWAYS TRIGGER events_refuse_update_delete;
ALTER TABLE events ENABLE ALWAYS TRIGGER events_refuse_truncate;

-- An accepted command's record says which events answer a retry; keys and integrations
-- grant power. None of them is changed in place. (PostgreSQL has no REPLACE: an
-- INSERT ... ON CONFLICT DO UPDATE fires the UPDATE triggers.) Deleting a key or an
-- integration only revokes it, and stays possible for the owner.
CREATE FUNCTION battle_records_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% are immutable: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER commands_refuse_update_delete BEFORE UPDATE OR DELETE ON commands
    FOR EACH ROW EXECUTE FUNCTION battle_records_are_immutable();
CREATE TRIGGER commands_refuse_truncate BEFORE TRUNCATE ON commands
    FOR EACH STATEMENT EXECUTE FUNCTION battle_records_are_immutable();
CREATE TRIGGER access_keys_refuse_update BEFORE UPDATE ON access_keys
    FOR EACH ROW EXECUTE FUNCTION battle_records_are_immutable();
CREATE TRIGGER integrations_refuse_update BEFORE UPDATE ON integrations
    FOR EACH ROW EXECUTE FUNCTION battle_records_are_immutable();
ALTER TABLE commands ENABLE ALWAYS TRIGGER commands_refuse_update_delete;
ALTER TABLE commands ENABLE ALWAYS TRIGGER commands_refuse_truncate;
ALTER TABLE access_keys ENABLE ALWAYS TRIGGER access_keys_refuse_update;
ALTER TABLE integrations ENABLE ALWAYS TRIGGER integrations_refuse_update;
