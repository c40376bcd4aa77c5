-- Disputes' corrections (issue 36): every event an upheld ResolveDispute appends as its
-- correction (the undo and the commands replacing what it undid) names the dispute, in
-- its hash (events.chain). Other events have none (NULL) and hash as before.
-- battle_try_append_many (0013) takes one more array for it, and is otherwise unchanged.
ALTER TABLE events ADD COLUMN dispute text;

DROP FUNCTION battle_try_append_many(
    integer[], text[], integer[], text[], text[], integer[], integer[], integer[], text[],
    bytea[], text[], text[], text[], text[], text[], text[], text[], text[], integer[],
    text[], text[]
);

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
    p_hashes          text[],
    p_salts           text[],
    p_command_versions integer[],
    p_actor_labels    text[],
    p_actor_key_ids   text[],
    p_disputes        text[]
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
                                recorded_at, actor_role, actor_side, command_id, prev_hash, hash,
                                salt, command_version, actor_label, actor_key_id, dispute)
            SELECT pos + x.o, p_battle_ids[k], x.v, x.t, x.d, x.a, x.r, x.ar, x.s, x.c, x.ph, x.h,
                   x.salt, x.cv, x.al, x.ak, x.dp
            FROM unnest(p_versions[lo:hi], p_types[lo:hi], p_data[lo:hi], p_audiences[lo:hi],
                        p_recorded_at[lo:hi], p_actor_roles[lo:hi], p_actor_sides[lo:hi],
                        p_command_ids[lo:hi], p_prev_hashes[lo:hi], p_hashes[lo:hi],
                        p_salts[lo:hi], p_command_versions[lo:hi], p_actor_labels[lo:hi],
                        p_actor_key_ids[lo:hi], p_disputes[lo:hi])
                 WITH ORDINALITY AS x(v, t, d, a, r, ar, s, c, ph, h, salt, cv, al, ak, dp, o);
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
