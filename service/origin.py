"""A fork's origin: its parent's log up to the version forked, read with the fork's keys.

A fork begins with its parent's state, so its players need the parent's log to audit
how their start came about, but they hold only the fork's keys. `GET
/battles/{fork}/origin/events` answers the parent's events up to `forked_at`, filtered
and sealed for the fork key's role and side as any read is (`service.sealing`); its last
event must hash to the `forked_head_hash` the fork's `BattleCreated` recorded.

Which hidden events of the parent are handed whole: those the parent had unsealed for
all by the version forked (it had ended there and reveals on end), and all of them once
the fork itself has ended and reveals on end. What the parent revealed after the version
forked does not count: the fork may still be playing from that hidden state.

Only the direct parent: the origin of a fork of a fork is read with the parent's keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from litestar import get
from litestar.params import QueryParameter

from domain.actors import Actor
from service.errors import NotFound
from service.routes import (
    MAX_VERSION,
    SECURED,
    AppRequest,
    Authorization,
    BattleId,
    problems,
    service_of,
)
from service.schemas import OriginEventPage
from service.sealing import Sealer, unsealed_upto

if TYPE_CHECKING:
    from service.battles import BattleService

__all__ = ["ORIGIN_ROUTES", "origin_events"]


async def origin_events(
    service: BattleService, fork_id: str, actor: Actor, after: int, limit: int
) -> OriginEventPage:
    """The parent's events after `after` (at most `limit`), up to the version forked."""
    fork = await service.loaded(fork_id)
    meta = fork.battle.meta
    created = meta.created
    parent_id, at = created.forked_from, created.forked_at
    if parent_id is None or at is None:
        raise NotFound(f"battle {fork_id} is not a fork: it has no origin", code="not-a-fork")
    parent = await service.loaded(parent_id)
    upto = (
        at if unsealed_upto(meta) else unsealed_upto((await service.state_at(parent_id, at)).meta)
    )
    stored = await service.store.read(parent_id, after=after, limit=limit, upto=at)
    undone = parent.timeline.undone(at) if parent.timeline.has_undo else set()
    sealer = Sealer(actor, upto)
    last = stored[-1].version if stored else after
    return OriginEventPage(
        battle_id=parent_id,
        version=at,
        events=[sealer.out(e, e.version in undone) for e in stored],
        next_after=last if stored and last < at else None,
        forked_from=parent_id,
        forked_at=at,
        forked_head_hash=created.forked_head_hash,
    )


@get(
    "/battles/{battle_id:str}/origin/events",
    operation_id="listOriginEvents",
    tags=["battles"],
    summary="A fork's origin: its parent's log up to the version forked, with the fork's key",
    description=(
        "The parent's events after `after`, up to `forked_at`, paged like listEvents and "
        "filtered and sealed for the fork key's role and side. The parent's event at "
        "`forked_at` hashes to `forked_head_hash`, recorded in the fork's first event. "
        "404 (not-a-fork) for a battle that is not a fork."
    ),
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def list_origin_events(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    after: Annotated[
        int, QueryParameter(ge=0, le=MAX_VERSION, description="Return events after this version")
    ] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=1000, description="At most this many")] = 100,
) -> OriginEventPage:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    return await origin_events(service, battle_id, principal.actor, after, limit)


ORIGIN_ROUTES: list[Any] = [list_origin_events]
