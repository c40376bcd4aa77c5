-- One statement commits a whole batch of appends. The store used to send one
-- battle_try_append per append (pipelined, inside BEGIN/COMMIT): adapting and sending
-- each call, and the subtransaction each one opened, cost more than the insert.
--
-- The batch comes flattened: per append its battle, expected version, command record
-- and event count; the events of all appends one after another in the event arrays.
-- The counter row is locked first, so no other append (of any worker) runs until this
-- transaction ends, and each append's checks (the same as battle_append's, with the
-- same SQLSTATEs and messages) see exactly what it will be appended after, the earlier
-- appends of the batch included. A refused append is answered and skipped, without a
-- subtransaction; positions go only to the appends that are made, so they stay
-- gap-free. An unexpected error (a row PostgreSQL cannot store) fails the statement:
-- the store then sends the batch's appends again, each as a batch of its own. Answers one row per append, by ordinal i.
CREATE FUNCTION battle_try_append_many(
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
    p_hashes          text[]
) RETURNS TABLE (i integer, code text, first_position bigint, message text, detail text)
LANGUAGE plpgsql AS $$
DECLARE
    pos       bigint;
    lo        integer := 1;
    hi        integer;
    n         integer;
    v_current integer;
    v_found   text;
BEGIN
    SELECT ep.position INTO pos FROM event_position ep WHERE ep.id FOR UPDATE;
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
                                recorded_at, actor_role, actor_side, command_id, prev_hash, hash)
            SELECT pos + x.o, p_battle_ids[k], x.v, x.t, x.d, x.a, x.r, x.ar, x.s, x.c, x.ph, x.h
            FROM unnest(p_versions[lo:hi], p_types[lo:hi], p_data[lo:hi], p_audiences[lo:hi],
                        p_recorded_at[lo:hi], p_actor_roles[lo:hi], p_actor_sides[lo:hi],
                        p_command_ids[lo:hi], p_prev_hashes[lo:hi], p_hashes[lo:hi])
                 WITH ORDINALITY AS x(v, t, d, a, r, ar, s, c, ph, h, o);
            IF p_command_id[k] IS NOT NULL THEN
                INSERT INTO commands (battle_id, command_id, request_hash, first_version,
                                      last_version)
                VALUES (p_battle_ids[k], p_command_id[k], p_request_hash[k],
                        p_first_version[k], p_last_version[k]);
            END IF;
            first_position := pos + 1;
            pos := pos + n;
        END IF;
        RETURN NEXT;
        lo := hi + 1;
    END LOOP;
    UPDATE event_position SET position = pos WHERE id;
END $$;
