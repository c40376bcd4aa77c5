"""`GET /battles/{id}/timeline`: each side's strength at every version, for the replay
viewer's chart, so that a page need not read the state of every version.

The strength is the ruleset's `strength(view)` (squads, army size, hit points) of the
caller's own view at each version, so it tells the caller nothing that
`GET /battles/{id}/state?version=N` would not. Each point's `hidden` carries the strength,
as last seen, of the caller's units gone out of its sight (service/desk/unseen_strength.py):
a squad that hides is not a loss on its enemy's chart.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import get
from litestar.params import QueryParameter

from domain.actors import Actor
from service.desk.unseen_strength import UnseenStrength, unit_ids
from service.http.routes import (
    MAX_VERSION,
    SECURED,
    AppRequest,
    Authorization,
    BattleId,
    problems,
    service_of,
)

__all__ = ["TIMELINE_ROUTES", "BattleTimeline", "TimelinePoint"]

MAX_POINTS = 1000


class TimelinePoint(msgspec.Struct, kw_only=True):
    version: int
    # side id -> its strength right after this version, in the caller's view
    strength: dict[str, float]
    over: bool
    # side id -> the strength, as last seen, of its units out of the caller's sight (a
    # squad that hid): hidden is not a loss. Only sides with some; empty for the referee.
    hidden: dict[str, float] = {}


class BattleTimeline(msgspec.Struct, kw_only=True):
    battle_id: str
    ruleset: str
    version: int  # the battle's current version
    measure: str  # what the ruleset counts as strength ("squads", "army size", ...)
    sides: list[str]
    points: list[TimelinePoint]  # one per version from ?from=, in order
    next_from: int | None  # pass as ?from= for the next page; null at the head


@get(
    "/battles/{battle_id:str}/timeline",
    operation_id="getBattleTimeline",
    tags=["battles"],
    summary="Each side's strength at every version (squads, army size, hit points)",
    description=(
        "One point per version from `from`, at most `limit`: each side's strength in the "
        "caller's view of the state right after that version, as the ruleset measures it "
        "(`measure`): quickstart counts squads on the field, skirmish the army size of "
        "armies not destroyed, tactical the current HEA of living characters. A unit "
        "hidden from the caller is not counted in `strength`; `hidden` carries, per "
        "side, the strength it had when the caller last saw it, until it is seen again. "
        "Past the current version: no points."
    ),
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def get_battle_timeline(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    start: Annotated[
        int, QueryParameter(name="from", ge=1, le=MAX_VERSION, description="First version")
    ] = 1,
    limit: Annotated[
        int, QueryParameter(ge=1, le=MAX_POINTS, description="At most this many points")
    ] = MAX_POINTS,
) -> BattleTimeline:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    loaded = await service.loaded(battle_id)
    head = loaded.battle.version
    ruleset = loaded.ruleset
    stop = min(head, start + limit - 1)
    actor = principal.actor
    # What went out of sight is carried from version 1: a page starts from the first.
    first = 1 if not actor.is_referee else start
    battles = await service.states(battle_id, first, stop) if start <= stop else []
    unseen = UnseenStrength(ruleset.strength)
    points = []
    for b in battles:
        view = ruleset.view(b.game, actor)
        hidden = {} if actor.is_referee else unseen.step(view, unit_ids(_everything(ruleset, b)))
        if b.version >= start:
            points.append(
                TimelinePoint(
                    version=b.version,
                    strength=ruleset.strength(view),
                    over=ruleset.is_over(b.game),
                    hidden={side: n for side, n in hidden.items() if n},
                )
            )
    sides = list(points[-1].strength) if points else []
    if not sides:
        first = ruleset.view(loaded.battle.game, actor)
        sides = list(ruleset.strength(first))
    return BattleTimeline(
        battle_id=battle_id,
        ruleset=ruleset.id,
        version=head,
        measure=ruleset.strength_measure,
        sides=sides,
        points=points,
        next_from=stop + 1 if stop < head else None,
    )


_REFEREE = Actor(role="referee")


def _everything(ruleset: Any, battle: Any) -> dict[str, Any]:
    return dict(ruleset.view(battle.game, _REFEREE))


TIMELINE_ROUTES: list[Any] = [get_battle_timeline]
