"""The routes of receipts: the public keys that check them, and /verify, which checks them
against the log (see events.receipts and service.battles.receipt_checks)."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, MediaType, Response, get, post, route
from litestar.enums import HttpMethod
from litestar.params import JSONBody, QueryParameter
from litestar.status_codes import HTTP_204_NO_CONTENT

from events.receipts import b64url
from service.battles.receipt_checks import parse_query_receipts
from service.battles.signing import public_key_pem, public_key_raw
from service.http.json_body import VERIFY_BODY_MAX
from service.http.routes import SECURED, AppRequest, Authorization, BattleId, problems, service_of
from service.schemas import (
    MAX_RECEIPTS,
    PublicKeyOut,
    PublicKeys,
    VerifyReport,
    VerifyRequest,
)

__all__ = ["RECEIPT_ROUTES"]


@get(
    "/keys",
    operation_id="getKeys",
    tags=["service"],
    summary="The public keys that verify receipts (the current one first, then retired ones)",
    responses=problems(),
)
async def get_keys(request: AppRequest) -> PublicKeys:
    return PublicKeys(
        keys=[
            PublicKeyOut(
                key_id=key_id,
                algorithm="Ed25519",
                public_key=b64url(public_key_raw(key)),
                public_key_pem=public_key_pem(key),
                current=i == 0,
            )
            for i, (key_id, key) in enumerate(service_of(request).signing.public_keys())
        ]
    )


_VERIFY_DESCRIPTION = (
    "The log as the caller is given it: the events it may not see are sealed and checked "
    "by their links only (events_sealed counts them), and their dice are not counted. The "
    "referee's key checks everything. "
    "With receipts kept from earlier answers, also checks that the log still holds each "
    "signed head: a log truncated, or rewritten and re-hashed, fails here, naming the "
    "receipt (receipts[i].status, first_failure.receipt)."
)


class VerifyController(Controller):
    """GET and POST of one path, with its own OPTIONS: the one Litestar 2.25 adds to a path
    with two handlers answers `Allow` with only one of their methods."""

    path = "/battles/{battle_id:str}/verify"

    @route(http_method=[HttpMethod.OPTIONS], include_in_schema=False, sync_to_thread=False)
    def options(self) -> Response[None]:
        return Response(
            content=None,
            status_code=HTTP_204_NO_CONTENT,
            headers={"Allow": "GET, OPTIONS, POST"},
            media_type=MediaType.TEXT,
        )

    @get(
        operation_id="verifyBattle",
        tags=["battles"],
        summary="Check the hash chain and recompute every server die whose seed is revealed",
        description=_VERIFY_DESCRIPTION,
        responses=problems(400, 401, 403, 404, 422),
        security=SECURED,
    )
    async def verify_battle(
        self,
        request: AppRequest,
        battle_id: BattleId,
        authorization: Authorization,
        receipt: Annotated[
            list[str] | None,
            QueryParameter(
                required=False,
                max_items=MAX_RECEIPTS,
                description="A receipt to check: base64url of its JSON (repeat for several)",
            ),
        ] = None,
    ) -> VerifyReport:
        service = service_of(request)
        principal = await service.keys.resolve(authorization, battle_id)
        return await service.verify(battle_id, principal.actor, parse_query_receipts(receipt or []))

    @post(
        operation_id="verifyBattleReceipts",
        tags=["battles"],
        summary="Verify the battle as GET does, checking the receipts sent in the body",
        description=_VERIFY_DESCRIPTION,
        status_code=200,
        request_max_body_size=VERIFY_BODY_MAX,
        responses=problems(400, 401, 403, 404, 413, 415, 422),
        security=SECURED,
    )
    async def verify_battle_receipts(
        self,
        request: AppRequest,
        battle_id: BattleId,
        data: JSONBody[VerifyRequest],
        authorization: Authorization,
    ) -> VerifyReport:
        service = service_of(request)
        principal = await service.keys.resolve(authorization, battle_id)
        return await service.verify(battle_id, principal.actor, data.receipts)


RECEIPT_ROUTES: list[Any] = [get_keys, VerifyController]
