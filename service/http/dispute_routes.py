"""Routes of disputes: `GET /battles/{id}/disputes` lists them in the caller's view.

Disputes are raised and resolved by commands (`RaiseDispute`, `ResolveDispute`:
domain.disputes); this lists each with its status, the versions disputed, the claim,
the raiser, and once resolved the ruling, its rule and the correcting versions.
"""

from __future__ import annotations

from typing import Any

from litestar import get

from service.http.routes import SECURED, AppRequest, Authorization, BattleId, problems, service_of
from service.schemas import DisputeList

__all__ = ["DISPUTE_ROUTES"]


@get(
    "/battles/{battle_id:str}/disputes",
    operation_id="listDisputes",
    tags=["battles"],
    summary="The disputes of a battle: status, disputed versions, claim, ruling, correction",
    description=(
        "Every dispute the caller may read, in the order raised (`RaiseDispute`, "
        "`ResolveDispute` commands): its status (open, upheld, dismissed), the versions "
        "it disputes, the claim and the rule it invokes, who raised it; once resolved, "
        "the ruling, the rule it rests on and the versions of its correction. A dispute "
        "about events hidden from some reader is listed for its raiser and the referee "
        "only, until those events are unsealed."
    ),
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def list_disputes(
    request: AppRequest, battle_id: BattleId, authorization: Authorization
) -> DisputeList:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    return await service.disputes(battle_id, principal.actor)


DISPUTE_ROUTES: list[Any] = [list_disputes]
