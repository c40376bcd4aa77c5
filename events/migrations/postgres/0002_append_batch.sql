-- Appends in batches: the store commits the appends of many concurrent requests in one
-- transaction (one WAL flush), each call in its own subtransaction, so that a refused
-- append (conflict, duplicate, bad row) undoes only itself and the others still commit.
-- battle_try_append never raises: it answers the SQLSTATE ('ok' when appended), the
-- first position, and the error's message and detail.
CREATE FUNCTION battle_try_append(
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
    p_last_version  integer,
    OUT code           text,
    OUT first_position bigint,
    OUT message        text,
    OUT detail         text
) LANGUAGE plpgsql AS $$
BEGIN
    first_position := battle_append(
        p_battle_id, p_expected, p_versions, p_types, p_data, p_audiences, p_recorded_at,
        p_actor_roles, p_actor_sides, p_command_ids, p_prev_hashes, p_hashes,
        p_command_id, p_request_hash, p_first_version, p_last_version);
    code := 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
                            detail = PG_EXCEPTION_DETAIL;
    first_position := NULL;
END $$;
