"""Player keys over HTTP: `POST/GET /battles/{id}/keys`, `DELETE /battles/{id}/keys/{key_id}`
(issue 34 item 5). The referee's key (or the battle's integration key) mints a key for
one player, lists them (never a secret) and revokes one; the rules are in
service.battles.player_keys."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Response, delete, get, post, route
from litestar.enums import HttpMethod, MediaType, RequestEncodingType
from litestar.openapi.spec import Example
from litestar.params import Body, PathParameter
from litestar.status_codes import HTTP_204_NO_CONTENT

from service.battles import player_keys
from service.http.routes import (
    SECURED,
    AppRequest,
    Authorization,
    BattleId,
    created,
    location_header,
    problems,
    service_of,
)
from service.schemas import BattleKeyList, CreateBattleKeyRequest, CreatedBattleKey

__all__ = ["PLAYER_KEY_ROUTES"]

KeyId = Annotated[str, PathParameter(min_length=1, max_length=128)]
_MINT_EXAMPLES = [
    Example(
        summary="A side key for one player, limited to two units, for one evening",
        value={
            "role": "side",
            "side": "north",
            "label": "Alice (vtt user 4127)",
            "units": ["n_sol", "aria"],
            "expires_at": "2030-01-01T23:00:00Z",
        },
    ),
    Example(summary="An observer key", value={"role": "observer", "label": "stream overlay"}),
]
MintBody = Annotated[
    CreateBattleKeyRequest, Body(media_type=RequestEncodingType.JSON, examples=_MINT_EXAMPLES)
]


@route(
    "/battles/{battle_id:str}/keys",
    http_method=[HttpMethod.OPTIONS],
    include_in_schema=False,
    sync_to_thread=False,
)
def keys_options() -> Response[None]:
    """The OPTIONS of `/battles/{id}/keys`, which two handlers share (createBattleKey,
    listBattleKeys): Litestar's own names only the first registered (as in
    service.http.battle_list). Registered before both."""
    return Response(
        content=None,
        status_code=HTTP_204_NO_CONTENT,
        headers={"Allow": "GET, OPTIONS, POST"},
        media_type=MediaType.TEXT,
    )


@post(
    "/battles/{battle_id:str}/keys",
    operation_id="createBattleKey",
    tags=["keys"],
    summary="Mint a key for one player (referee or integration key); the key is shown once",
    description=(
        "A side or observer key with a label (the player's name or a VTT user id), recorded "
        "as the actor of the events its commands append; optionally limited to some units "
        "(a command ordering another one is refused, 403 not-permitted) and an expiry. "
        "Only its SHA-256 is stored: the answer is the one time the key is shown."
    ),
    status_code=201,
    responses=problems(400, 401, 403, 404, 415, 422),
    response_headers=location_header("The battle's keys: /battles/{battle_id}/keys"),
    security=SECURED,
)
async def create_battle_key(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    data: MintBody,
) -> Response[CreatedBattleKey]:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    answer = await player_keys.mint(service, battle_id, principal, data)
    return created(answer, f"/battles/{battle_id}/keys")


@get(
    "/battles/{battle_id:str}/keys",
    operation_id="listBattleKeys",
    tags=["keys"],
    summary="The battle's player keys, revoked ones too (never their secrets)",
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def list_battle_keys(
    request: AppRequest, battle_id: BattleId, authorization: Authorization
) -> BattleKeyList:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    return BattleKeyList(keys=await player_keys.list_keys(service, battle_id, principal))


@delete(
    "/battles/{battle_id:str}/keys/{key_id:str}",
    operation_id="revokeBattleKey",
    tags=["keys"],
    summary="Revoke a player key: from this answer on, every worker answers it 401",
    description=(
        "Idempotent: revoking a revoked key answers 204 again (and keeps its time). The "
        "key's open streams end too, on every worker: SSE with an `event: problem` message "
        "(401 revoked-key), a WebSocket with that problem message and close code 4401."
    ),
    status_code=204,
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def revoke_battle_key(
    request: AppRequest, battle_id: BattleId, key_id: KeyId, authorization: Authorization
) -> None:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    await player_keys.revoke(service, battle_id, principal, key_id)
    # Its open streams end, here and on the other workers (service.live.fanout): stored
    # first, so that every stream's check of the key reads the revocation.
    request.app.state.hub.key_revoked(key_id)


# The OPTIONS handler first: it must be on the path before either of the others.
PLAYER_KEY_ROUTES: list[Any] = [
    keys_options,
    create_battle_key,
    list_battle_keys,
    revoke_battle_key,
]
