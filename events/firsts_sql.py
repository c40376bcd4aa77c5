"""The query behind `EventStore.read_firsts`, shared by both stores (they differ only in
their placeholder: `?` for SQLite, `%s` for psycopg)."""

from __future__ import annotations

__all__ = ["firsts_query"]


def firsts_query(
    columns: str,
    placeholder: str,
    after_position: int,
    limit: int,
    integration_id: str | None,
    battle_id: str | None,
) -> tuple[str, list[object]]:
    """The SQL and its arguments: battles' first events after a position, in order."""
    p = placeholder
    sql = f"SELECT {columns} FROM events WHERE version = 1 AND position > {p}"
    args: list[object] = [after_position]
    if battle_id is not None:
        sql += f" AND battle_id = {p}"
        args.append(battle_id)
    if integration_id is not None:
        sql += (
            " AND battle_id IN "
            f"(SELECT battle_id FROM integration_battles WHERE integration_id = {p})"
        )
        args.append(integration_id)
    sql += f" ORDER BY position LIMIT {p}"
    args.append(limit)
    return sql, args
