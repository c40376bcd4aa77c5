"""Routes a table (a VTT, a bot) plays from: `GET /battles/{id}/reach/{unit}`.

The reach of a unit is the ruleset's `reach(state, actor, unit)` (domain.prompts.Reach),
computed by the code that decides its moves, in the caller's view: a unit the caller
cannot see is unknown to it (404 `unknown-entity`, as for a unit that does not exist),
and a ruleset without a grid has no reach (404 `no-reach`).
"""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get
from litestar.params import PathParameter

from domain.prompts import Reach
from service.errors import NotFound
from service.http.routes import (
    SECURED,
    AppRequest,
    Authorization,
    BattleId,
    problems,
    service_of,
)

__all__ = ["TABLE_ROUTES"]

UnitId = Annotated[str, PathParameter(min_length=1, max_length=128)]


@get(
    "/battles/{battle_id:str}/reach/{unit:str}",
    operation_id="getReach",
    tags=["battles"],
    summary="The squares a unit can reach with its next move (grid rulesets)",
    description=(
        "Each square with the movement the cheapest legal move there spends (and, where "
        "facing matters, the facing it may end with); squares within the unit's movement "
        "that it cannot reach, with why; computed by the code that decides moves, in the "
        "caller's view (units hidden from the caller shape nothing). 404 `unknown-entity` "
        "for a unit the caller cannot see; 404 `no-reach` in a ruleset without a grid."
    ),
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def get_reach(
    request: AppRequest, battle_id: BattleId, unit: UnitId, authorization: Authorization
) -> Reach:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    loaded = await service.loaded(battle_id)
    reach = loaded.ruleset.reach
    if reach is None:
        raise NotFound(f"{loaded.ruleset.id} has no grid: its units have no reach", code="no-reach")
    return reach(loaded.battle.game, principal.actor, unit)


TABLE_ROUTES: list[Any] = [get_reach]
