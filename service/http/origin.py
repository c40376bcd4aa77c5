"""A fork's origin: its parent's log up to the version forked, read with the fork's keys.

A fork begins with its parent's state, so its players need the parent's log to audit
how their start came about, but they hold only the fork's keys. `GET
/battles/{fork}/origin/events` answers the parent's events up to `forked_at`, filtered
and sealed for the fork key's role and side as any read is (`service.battles.sealing`); its last
event must hash to the `forked_head_hash` the fork's `BattleCreated` recorded.

Which hidden events of the parent are handed whole: those the parent had unsealed for
all by the version forked (it had ended there and reveals on end), and all of them once
the fork itself has ended and reveals on end. What the parent revealed after the version
forked does not count: the fork may still be playing from that hidden state.

A fork of a fork records its whole ancestry (`BattleCreated.ancestry`: every generation's
battle, the version forked and the hash there, the parent first), and `?generation=N`
reads the N-th (1: the parent, 2: the parent's parent...) up to the version its child was
forked at, with the fork's keys, under the same rule: handed whole if that ancestor had
ended there (and reveals), or once the fork itself has ended (and reveals). A fork made
before ancestry was recorded has only its parent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from litestar import get
from litestar.params import QueryParameter

from domain.actors import Actor
from domain.battle import MAX_GENERATIONS
from service.battles.founding import ancestry_out
from service.battles.sealing import Sealer, unsealed_upto
from service.errors import NotFound
from service.http.routes import (
    MAX_VERSION,
    SECURED,
    AppRequest,
    Authorization,
    BattleId,
    problems,
    service_of,
)
from service.schemas import OriginEventPage

if TYPE_CHECKING:
    from service.battles.service import BattleService

__all__ = ["ORIGIN_ROUTES", "origin_events"]


async def origin_events(
    service: BattleService,
    fork_id: str,
    actor: Actor,
    after: int,
    limit: int,
    generation: int = 1,
) -> OriginEventPage:
    """The events of the fork's ancestor `generation` (1: its parent) after `after` (at
    most `limit`), up to the version its child was forked at."""
    fork = await service.loaded(fork_id)
    meta = fork.battle.meta
    lineage = meta.created.lineage()
    if not lineage:
        raise NotFound(f"battle {fork_id} is not a fork: it has no origin", code="not-a-fork")
    if generation > len(lineage):
        raise NotFound(
            f"battle {fork_id} has {len(lineage)} generation(s) of ancestry, not {generation}",
            code="no-such-generation",
        )
    ancestor = lineage[generation - 1]
    source, at = ancestor.battle_id, ancestor.version
    loaded = await service.loaded(source)
    upto = at if unsealed_upto(meta) else unsealed_upto((await service.state_at(source, at)).meta)
    stored = await service.store.read(source, after=after, limit=limit, upto=at)
    undone = loaded.timeline.undone(at) if loaded.timeline.has_undo else set()
    sealer = Sealer(actor, upto, meta.created.ruleset)  # a fork keeps its parent's
    last = stored[-1].version if stored else after
    return OriginEventPage(
        battle_id=source,
        version=at,
        events=[sealer.out(e, e.version in undone) for e in stored],
        next_after=last if stored and last < at else None,
        forked_from=source,
        forked_at=at,
        forked_head_hash=ancestor.head_hash,
        generation=generation,
        ancestry=ancestry_out(lineage),
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
        "`generation` reads an older ancestor of a fork of a fork (2: the parent's parent), "
        "up to the version its child was forked at; `ancestry` lists every generation. "
        "404 (not-a-fork) for a battle that is not a fork, (no-such-generation) past its "
        "ancestry."
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
    generation: Annotated[
        int,
        QueryParameter(
            ge=1,
            le=MAX_GENERATIONS,
            description="Whose log: 1 the parent, 2 the parent's parent, ... (a fork of a fork)",
        ),
    ] = 1,
) -> OriginEventPage:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    return await origin_events(service, battle_id, principal.actor, after, limit, generation)


ORIGIN_ROUTES: list[Any] = [list_origin_events]
