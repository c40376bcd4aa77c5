"""`GET /battles`: the battles a key may see, oldest first, paged by a cursor, filtered.

An integration's key lists every battle created with it; a battle's key, its battle.
The store hands the battles' first events by global position (`read_firsts`, on an
index of first events); the cursor is the position of the last one looked at, so a page
never skips or repeats a battle, even while battles are being created. Filters on the
ruleset and creation time are read from the first event; `over` and `version` need the
battle folded (the battle cache), which bounds `limit` to 100. A filtered page scans at
most `_SCAN` battles: it may come back short, with a `next` cursor to go on from.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import urlencode

import msgspec
from litestar import MediaType, Response, get, route
from litestar.enums import HttpMethod
from litestar.exceptions import ValidationException
from litestar.params import QueryParameter
from litestar.status_codes import HTTP_204_NO_CONTENT

from events.envelope import StoredEvent
from service.battles.provenance import battle_provenance
from service.http.routes import (
    MAX_VERSION,
    SECURED,
    AppRequest,
    Authorization,
    problems,
    service_of,
)
from service.schemas import BattleList, BattleSummary

__all__ = ["BATTLE_LIST_ROUTES"]

_SCAN = 1000  # first events looked at for one page, at most
_READ = 200  # first events read from the store at once
# Litestar converts query values leniently, and msgspec then reads a number (`0.5`,
# `1700000000`) as epoch seconds; the document says `date-time`, so a value that does not
# begin as one is refused (what follows the date is msgspec's RFC 3339 check).
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]")


class _First(msgspec.Struct):
    """What a listing reads of a battle's first event (BattleCreated)."""

    ruleset: str
    title: str = ""
    forked_from: str | None = None


_decode_first = msgspec.json.Decoder(_First).decode


def _recorded(ev: StoredEvent) -> datetime:
    return datetime.fromisoformat(ev.recorded_at.replace("Z", "+00:00"))


@get(
    "/battles",
    operation_id="listBattles",
    tags=["battles"],
    summary="The battles this key may see, oldest first, paged by a cursor",
    description=(
        "With an integration's key: every battle created with it; with a battle's key: "
        "that battle. Filters: `ruleset`, `over`, `created_after`. Follow `next` (or send "
        "`next_after` as `after`) for the next page; both are null on the last."
    ),
    responses=problems(400, 401),
    security=SECURED,
)
async def list_battles(
    request: AppRequest,
    authorization: Authorization,
    after: Annotated[
        int, QueryParameter(ge=0, le=MAX_VERSION, description="The cursor a page answered")
    ] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=100, description="At most this many")] = 50,
    ruleset: Annotated[
        str | None,
        QueryParameter(required=False, min_length=1, max_length=64, description="Only this"),
    ] = None,
    over: Annotated[
        bool | None, QueryParameter(required=False, description="Only finished (or unfinished)")
    ] = None,
    created_after: Annotated[
        datetime | None,
        QueryParameter(required=False, description="Only battles created after this time"),
    ] = None,
) -> BattleList:
    service = service_of(request)
    principal = await service.keys.principal(authorization)
    if principal.integration_id is not None:
        scope: dict[str, Any] = {"integration_id": principal.integration_id}
    else:
        scope = {"battle_id": principal.battle_id}
    raw_created_after = request.query_params.get("created_after")
    if raw_created_after is not None and not _DATE_TIME.match(raw_created_after):
        raise ValidationException(
            detail=f"Validation failed for GET {request.url.path}",
            extra=[
                {
                    "message": "Expected a date-time (RFC 3339), such as 2026-01-31T12:00:00Z",
                    "key": "created_after",
                    "source": "query",
                }
            ],
        )
    if created_after is not None and created_after.tzinfo is None:
        created_after = created_after.replace(tzinfo=UTC)  # a time without a zone: UTC

    found: list[BattleSummary] = []
    cursor, scanned, exhausted = after, 0, False
    while not exhausted and len(found) < limit and scanned < _SCAN:
        asked = min(_READ, _SCAN - scanned)
        page = await service.store.read_firsts(cursor, asked, **scope)
        for i, ev in enumerate(page):
            cursor, scanned = ev.position, scanned + 1
            summary = await _summary(service, ev, ruleset, over, created_after)
            if summary is not None:
                found.append(summary)
            if len(found) == limit:
                # The rest of a short page is known to be empty: no `next` to an empty page.
                exhausted = len(page) < asked and i == len(page) - 1
                break
        else:
            exhausted = len(page) < asked
    if exhausted:
        return BattleList(battles=found)
    query: dict[str, Any] = {
        k: v for k, v in request.query_params.items() if k not in ("after", "limit")
    }
    query.update(after=cursor, limit=limit)
    return BattleList(battles=found, next_after=cursor, next=f"/battles?{urlencode(query)}")


async def _summary(
    service: Any,
    ev: StoredEvent,
    ruleset: str | None,
    over: bool | None,
    created_after: datetime | None,
) -> BattleSummary | None:
    first = _decode_first(ev.data)
    if ruleset is not None and first.ruleset != ruleset:
        return None
    if created_after is not None and _recorded(ev) <= created_after:
        return None
    loaded = await service.loaded(ev.battle_id)
    battle = loaded.battle
    finished = bool(loaded.ruleset.is_over(battle.game))
    if over is not None and finished != over:
        return None
    return BattleSummary(
        battle_id=ev.battle_id,
        title=first.title,
        ruleset=first.ruleset,
        created_at=ev.recorded_at,
        version=battle.version,
        over=finished,
        forked_from=first.forked_from,
        origin=await battle_provenance(service, ev.battle_id, ev),
    )


@route("/battles", http_method=[HttpMethod.OPTIONS], include_in_schema=False, sync_to_thread=False)
def battles_options() -> Response[None]:
    """The OPTIONS of `/battles`, which two handlers share (listBattles, createBattle):
    the one Litestar 2.25 adds answers `Allow` with the methods of the first registered
    only (see service.desk.receipt_routes.VerifyController). Registered before both."""
    return Response(
        content=None,
        status_code=HTTP_204_NO_CONTENT,
        headers={"Allow": "GET, OPTIONS, POST"},
        media_type=MediaType.TEXT,
    )


# The OPTIONS handler first: it must be on the path before either of the others.
BATTLE_LIST_ROUTES: list[Any] = [battles_options, list_battles]
