-- A rolling upgrade past 0015 (issue 36's follow-up): 0015 replaced the 21-argument
-- battle_try_append_many with one taking each event's dispute, so a worker still running
-- the version before it failed every append once 0015 was applied. This puts the
-- 21-argument signature back as a wrapper that appends with no dispute (NULL), as that
-- worker would have: it never writes a correction that names one. (docs/OPERATING.md,
-- "Upgrading past migration 0015", says what such a worker does with one it reads.)
CREATE OR REPLACE FUNCTION battle_try_append_many(
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
    p_actor_key_ids   text[]
) RETURNS TABLE (i integer, code text, first_position bigint, message text, detail text)
LANGUAGE sql AS $$
    SELECT * FROM battle_try_append_many(
        p_counts, p_battle_ids, p_expected, p_command_id, p_request_hash, p_first_version,
        p_last_version, p_versions, p_types, p_data, p_audiences, p_recorded_at,
        p_actor_roles, p_actor_sides, p_command_ids, p_prev_hashes, p_hashes, p_salts,
        p_command_versions, p_actor_labels, p_actor_key_ids, NULL::text[]
    )
$$;
