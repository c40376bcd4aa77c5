-- With BATTLE_PG_POSITIONS=stamped (the default stays `counter`), appends no longer take
-- the one counter row (issue 37 item 3). The row made positions
-- gap-free and visible in commit order by serialising every append across battles, one
-- commit (one WAL flush) at a time. Now positions are given in two steps:
--
-- 1. battle_try_append_unstamped (the body of battle_try_append_many, 0015, otherwise
--    unchanged) inserts each event at a placeholder position, -nextval('events_unstamped'):
--    negative, unique, and taken from a sequence, which no transaction holds. Appends of
--    different battles no longer wait for each other's commits.
-- 2. battle_stamp, a short transaction of its own, takes an advisory lock (stamps go one
--    at a time) and the counter row FOR UPDATE, and
--    gives every committed, unstamped event its position in one UPDATE: the counter + 1,
--    + 2, ... Battles in the order of their first placeholder, each battle's events in
--    version order (so an append's events stay consecutive and a battle's positions rise
--    with its versions); the counter moves by as many.
--
-- Why readers still never skip: they read only positions > P >= 0, never a placeholder.
-- Every position is given by a stamp that holds its lock and the counter row until it
-- commits (PostgreSQL lets go of a transaction's locks only once its commit is visible),
-- so stamps commit one after another and each gives the positions right after the last
-- one's: whatever a reader sees is a gap-free prefix 1..N, and a later stamp can only
-- give positions above N. An append that commits late simply waits for the next stamp;
-- nothing is ever given a position below one already visible.
--
-- The row is held now only for the stamp (one UPDATE and its commit), and one stamp
-- covers every append committed meanwhile, of any process.
--
-- Rows stamped before (all of them, on an existing database) keep their positions: the
-- table is not rewritten. battle_try_append_many is kept as it was, so a worker of the
-- version before this one still appends (taking the counter row in its transaction, as
-- the stamps do: the two kinds stay in one order). But its reads do not stamp: it could
-- read a placeholder and append after it, so `stamped` is turned on only once every
-- worker has this migration (docs/OPERATING.md). Within one stamp, positions follow the
-- placeholders' order, not the commits': readers cannot tell, as they see the stamp whole.

CREATE SEQUENCE events_unstamped;
GRANT USAGE ON SEQUENCE events_unstamped TO battle_app;

-- The log stays immutable, but for the stamp: an UPDATE that changes nothing but a
-- placeholder (negative) position into a position (positive).
CREATE OR REPLACE FUNCTION events_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    stamped bigint;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        IF OLD.position < 0 AND NEW.position > 0 THEN
            stamped := NEW.position;
            NEW.position := OLD.position;
            IF NEW IS NOT DISTINCT FROM OLD THEN
                NEW.position := stamped;
                RETURN NEW;
            END IF;
        END IF;
    END IF;
    RAISE EXCEPTION 'events are immutable: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE FUNCTION battle_try_append_unstamped(
    p_counts          integer[],
    p_battle_ids      text[],
    p_expected        integer[],
    p_command_id      text[],
    p_request_hash    text[],
    p_first_version   integer[],
    p_last_version    integer[],
    p_versions        integer[],
    p_types           text[],
    p_data            bytea[],
    p_audiences       text[],
    p_recorded_at     text[],
    p_actor_roles     text[],
    p_actor_sides     text[],
    p_command_ids     text[],
    p_prev_hashes     text[],
    p_hashes          text[],
    p_salts           text[],
    p_command_versions integer[],
    p_actor_labels    text[],
    p_actor_key_ids   text[],
    p_disputes        text[]
) RETURNS TABLE (i integer, code text, first_position bigint, message text, detail text)
LANGUAGE plpgsql AS $$
DECLARE
    lo        integer := 1;
    hi        integer;
    n         integer;
    v_current integer;
    v_found   text;
BEGIN
    FOR k IN 1 .. coalesce(cardinality(p_counts), 0) LOOP
        n := p_counts[k];
        hi := lo + n - 1;
        i := k;
        code := 'ok';
        first_position := NULL;
        message := NULL;
        detail := NULL;
        IF p_command_id[k] IS NOT NULL THEN
            SELECT c.request_hash INTO v_found FROM commands c
                WHERE c.battle_id = p_battle_ids[k] AND c.command_id = p_command_id[k];
            IF FOUND THEN
                IF v_found <> p_request_hash[k] THEN
                    code := 'BS001';
                    message := format('Idempotency-Key %s was already used for another request',
                                      p_command_id[k]);
                ELSE
                    code := 'BS002';
                    message := format('command %s was already applied', p_command_id[k]);
                END IF;
            END IF;
        END IF;
        IF code = 'ok' THEN
            SELECT coalesce(max(e.version), 0) INTO v_current FROM events e
                WHERE e.battle_id = p_battle_ids[k];
            IF v_current <> p_expected[k] THEN
                code := 'BS003';
                message := format('battle %s is at version %s, not %s',
                                  p_battle_ids[k], v_current, p_expected[k]);
                detail := v_current::text;
            END IF;
        END IF;
        IF code = 'ok' THEN
            FOR j IN 1 .. n LOOP
                IF p_versions[lo + j - 1] <> p_expected[k] + j THEN
                    code := 'BS004';
                    message := format(
                        'event %s of the batch is v%s, not v%s: the log would have a gap',
                        j, p_versions[lo + j - 1], p_expected[k] + j);
                    EXIT;
                END IF;
            END LOOP;
        END IF;
        IF code = 'ok' THEN
            INSERT INTO events (position, battle_id, version, type, data, audience,
                                recorded_at, actor_role, actor_side, command_id, prev_hash, hash,
                                salt, command_version, actor_label, actor_key_id, dispute)
            SELECT -nextval('events_unstamped'), p_battle_ids[k], x.v, x.t, x.d, x.a, x.r,
                   x.ar, x.s, x.c, x.ph, x.h, x.salt, x.cv, x.al, x.ak, x.dp
            FROM unnest(p_versions[lo:hi], p_types[lo:hi], p_data[lo:hi], p_audiences[lo:hi],
                        p_recorded_at[lo:hi], p_actor_roles[lo:hi], p_actor_sides[lo:hi],
                        p_command_ids[lo:hi], p_prev_hashes[lo:hi], p_hashes[lo:hi],
                        p_salts[lo:hi], p_command_versions[lo:hi], p_actor_labels[lo:hi],
                        p_actor_key_ids[lo:hi], p_disputes[lo:hi])
                 AS x(v, t, d, a, r, ar, s, c, ph, h, salt, cv, al, ak, dp);
            IF p_command_id[k] IS NOT NULL THEN
                INSERT INTO commands (battle_id, command_id, request_hash, first_version,
                                      last_version)
                VALUES (p_battle_ids[k], p_command_id[k], p_request_hash[k],
                        p_first_version[k], p_last_version[k]);
            END IF;
        END IF;
        RETURN NEXT;
        lo := hi + 1;
    END LOOP;
END $$;

-- Stamp every committed, unstamped event (see the top), then answer the positions of
-- the events asked for, by (battle, version), in the order asked (NULL: no such event).
-- Stamps are serialised by an advisory lock, which writes nothing: a stamp that finds,
-- once it holds the lock, that another stamp covered the events it was asked for (the
-- usual case with many writers) ends there, read-only, with no WAL flush of its own.
-- One with work takes the counter row too (FOR UPDATE), as a worker of the version
-- before this one (or on BATTLE_PG_POSITIONS=counter) does in its append: the row is
-- what keeps positions in order, the UPDATE reading the counter only once it holds it;
-- the advisory lock only spares the flush. Asked for none, it stamps whatever waits.
-- SECURITY DEFINER: the service's role may not UPDATE events (events.postgres_guards);
-- this function, the schema owner's, does only this one UPDATE, which the trigger allows.
-- Its search_path is set below to the schema then pg_temp, last: with `FROM CURRENT`,
-- pg_temp would be searched first, and a caller's temporary `events` table (with a
-- trigger of its own) would run the caller's code as the owner. Only battle_app runs it.
CREATE FUNCTION battle_stamp(p_battle_ids text[], p_versions integer[])
RETURNS TABLE (i integer, stamped bigint)
LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    everything boolean := coalesce(cardinality(p_battle_ids), 0) = 0;
    pos bigint;
    n   bigint;
BEGIN
    FOR attempt IN 1 .. 2 LOOP
        -- Each statement sees what committed before it began: the second time, after
        -- the lock, every stamp before this one.
        IF everything THEN
            EXIT WHEN NOT EXISTS (SELECT FROM events w WHERE w.position < 0);
        ELSE
            EXIT WHEN NOT EXISTS (
                SELECT FROM unnest(p_battle_ids, p_versions) AS x(b, v)
                JOIN events e ON e.battle_id = x.b AND e.version = x.v
                WHERE e.position < 0
            );
        END IF;
        IF attempt = 1 THEN
            PERFORM pg_advisory_xact_lock(hashtext('battle-service:stamp:' || current_schema()));
            CONTINUE;
        END IF;
        SELECT ep.position INTO pos FROM event_position ep WHERE ep.id FOR UPDATE;
        UPDATE events e SET position = pos + t.o
        FROM (
            SELECT u.placeholder, row_number() OVER (ORDER BY u.first DESC, u.version) AS o
            FROM (
                SELECT w.position AS placeholder, w.version,
                       max(w.position) OVER (PARTITION BY w.battle_id) AS first
                FROM events w WHERE w.position < 0
            ) u
        ) t
        WHERE e.position = t.placeholder;
        GET DIAGNOSTICS n = ROW_COUNT;
        UPDATE event_position SET position = pos + n WHERE id;
    END LOOP;
    RETURN QUERY
        SELECT x.o::integer, e.position
        FROM unnest(p_battle_ids, p_versions) WITH ORDINALITY AS x(b, v, o)
        LEFT JOIN events e ON e.battle_id = x.b AND e.version = x.v
        ORDER BY x.o;
END $$;

DO $$ BEGIN
    EXECUTE format(
        'ALTER FUNCTION battle_stamp(text[], integer[]) SET search_path = %I, pg_temp',
        current_schema()
    );
END $$;
REVOKE EXECUTE ON FUNCTION battle_stamp(text[], integer[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION battle_stamp(text[], integer[]) TO battle_app;
