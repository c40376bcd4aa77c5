-- The event log and the records kept beside it.
--
-- Positions are gap-free and commit in order: every append takes the one row of
-- event_position FOR UPDATE (through the UPDATE in battle_append) and holds it until
-- commit, so no append can commit a lower position after a higher one is visible. A
-- reader polling "position > P" can therefore never skip an event that commits late.
-- The cost: appends are serialised across all battles, one commit at a time.

CREATE TABLE events (
    position     bigint  PRIMARY KEY,
    battle_id    text    NOT NULL,
    version      integer NOT NULL CHECK (version > 0),
    type         text    NOT NULL,
    data         bytea   NOT NULL,
    audience     text    NOT NULL,
    recorded_at  text    NOT NULL,
    actor_role   text    NOT NULL,
    actor_side   text,
    command_id   text,
    prev_hash    text    NOT NULL,
    hash         text    NOT NULL,
    UNIQUE (battle_id, version)
);

CREATE TABLE event_position (
    id       boolean PRIMARY KEY DEFAULT true CHECK (id),
    position bigint  NOT NULL
);
INSERT INTO event_position (id, position) VALUES (true, 0);

-- The database itself refuses to change the log: no UPDATE, DELETE or TRUNCATE.
CREATE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_are_immutable();
CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_are_immutable();

CREATE TABLE commands (
    battle_id     text    NOT NULL,
    command_id    text    NOT NULL,
    request_hash  text    NOT NULL,
    first_version integer NOT NULL,
    last_version  integer NOT NULL,
    PRIMARY KEY (battle_id, command_id)
);

CREATE TABLE access_keys (
    key_hash  text PRIMARY KEY,
    battle_id text NOT NULL,
    role      text NOT NULL,
    side      text
);

CREATE TABLE secrets (
    battle_id text  NOT NULL,
    name      text  NOT NULL,
    value     bytea NOT NULL,
    PRIMARY KEY (battle_id, name)
);

-- One append in one round trip. Raises SQLSTATE BS001 (Idempotency-Key reused for
-- another request), BS002 (the same command again), BS003 (version conflict; DETAIL is
-- the current version), BS004 (the batch does not follow the battle's head).
-- Returns the position of the first event; the batch's positions are consecutive.
CREATE FUNCTION battle_append(
    p_battle_id     text,
    p_expected      integer,
    p_versions      integer[],
    p_types         text[],
    p_data          bytea[],
    p_audiences     text[],
    p_recorded_at   text[],
    p_actor_roles   text[],
    p_actor_sides   text[],
    p_command_ids   text[],
    p_prev_hashes   text[],
    p_hashes        text[],
    p_command_id    text,
    p_request_hash  text,
    p_first_version integer,
    p_last_version  integer
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    n        integer := coalesce(cardinality(p_versions), 0);
    last_pos bigint;
    v_current integer;
    v_found  text;
BEGIN
    UPDATE event_position SET position = position + n WHERE id RETURNING position INTO last_pos;
    IF p_command_id IS NOT NULL THEN
        SELECT request_hash INTO v_found FROM commands
            WHERE battle_id = p_battle_id AND command_id = p_command_id;
        IF v_found IS NOT NULL THEN
            IF v_found <> p_request_hash THEN
                RAISE EXCEPTION 'Idempotency-Key % was already used for another request',
                    p_command_id USING ERRCODE = 'BS001';
            END IF;
            RAISE EXCEPTION 'command % was already applied', p_command_id USING ERRCODE = 'BS002';
        END IF;
    END IF;
    SELECT coalesce(max(version), 0) INTO v_current FROM events WHERE battle_id = p_battle_id;
    IF v_current <> p_expected THEN
        RAISE EXCEPTION 'battle % is at version %, not %', p_battle_id, v_current, p_expected
            USING ERRCODE = 'BS003', DETAIL = v_current::text;
    END IF;
    FOR i IN 1 .. n LOOP
        IF p_versions[i] <> p_expected + i THEN
            RAISE EXCEPTION 'event % of the batch is v%, not v%: the log would have a gap',
                i, p_versions[i], p_expected + i USING ERRCODE = 'BS004';
        END IF;
    END LOOP;
    INSERT INTO events (position, battle_id, version, type, data, audience, recorded_at,
                        actor_role, actor_side, command_id, prev_hash, hash)
    SELECT last_pos - n + o, p_battle_id, v, t, d, a, r, ar, s, c, ph, h
    FROM unnest(p_versions, p_types, p_data, p_audiences, p_recorded_at, p_actor_roles,
                p_actor_sides, p_command_ids, p_prev_hashes, p_hashes)
         WITH ORDINALITY AS x(v, t, d, a, r, ar, s, c, ph, h, o);
    IF p_command_id IS NOT NULL THEN
        INSERT INTO commands (battle_id, command_id, request_hash, first_version, last_version)
        VALUES (p_battle_id, p_command_id, p_request_hash, p_first_version, p_last_version);
    END IF;
    RETURN last_pos - n + 1;
END $$;
