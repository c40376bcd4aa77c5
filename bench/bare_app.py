"""The yardstick: a bare Litestar POST endpoint that decodes a small Struct and answers one."""

from __future__ import annotations

import msgspec
from litestar import Litestar, post

__all__ = ["app"]


class Order(msgspec.Struct, kw_only=True):
    command: dict[str, object]
    expected_version: int | None = None


class Answer(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int


@post("/bare", status_code=200)
async def bare(data: Order) -> Answer:
    return Answer(battle_id="bare", version=len(data.command))


app = Litestar([bare])
