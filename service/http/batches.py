"""The batch route: `POST /battles/{id}/commands/batch`, several commands, all or none.

A thin handler as the command route's (service.http.routes): the same headers
(Authorization, Idempotency-Key, If-Match), the body decoded straight into a
`CommandBatchRequest` with each command kept as sent (service.http.command_body), and the
`CommandResponse` of every event appended. The rules of a batch are
service.battles.batches'.
"""

from __future__ import annotations

import msgspec
from litestar import Response, post
from litestar.params import JSONBody

from events.errors import VersionConflict
from service.http.command_body import (
    BatchBodyRequest,
    CommandAnswer,
    CommandOperation,
    command_headers,
)
from service.http.conditional import if_match_version
from service.http.json_body import BATCH_BODY_MAX
from service.http.prefer import PREFERENCE_APPLIED_HEADER, prefers_minimal
from service.http.routes import (
    SECURED,
    AppRequest,
    BattleId,
    command_answer,
    if_match_failed,
    narrowed_answer,
    problems,
    service_of,
)
from service.schemas import CommandBatchRequest, CommandResponse

__all__ = ["BATCH_ROUTES"]


@post(
    "/battles/{battle_id:str}/commands/batch",
    operation_id="postCommandBatch",
    tags=["battles"],
    summary="Give several commands at once, all or none; answers every event appended",
    description=(
        "The commands are decided in order, each on the state the ones before it left, "
        "each authorized for the caller's key and with its own dice (`dice`: table dice "
        "for that command alone; without, the server's, counted from the version of that "
        "command's first event), then appended at once: all or none. The answer is a "
        "command's (every event, sealed where the caller may not see it; one receipt for "
        "the new head). A refusal is the refused command's own problem with `index` (its "
        "place in `commands`, from 0), and nothing is appended. `expected_version`, "
        "If-Match and Idempotency-Key work as for one command. At most BATTLE_BATCH_MAX "
        "commands (default 64; more: 422 `batch-too-long`); an Undo is sent alone."
    ),
    status_code=201,
    responses=problems(400, 401, 403, 404, 409, 412, 413, 415, 422, 503),
    response_headers=[PREFERENCE_APPLIED_HEADER],
    security=SECURED,
    request_class=BatchBodyRequest,
    operation_class=CommandOperation,
    response_class=CommandAnswer,
    request_max_body_size=BATCH_BODY_MAX,
)
async def post_command_batch(
    request: AppRequest, battle_id: BattleId, data: JSONBody[CommandBatchRequest]
) -> Response[CommandResponse]:
    service = service_of(request)
    authorization, idempotency_key = command_headers(request)
    principal = await service.keys.resolve(authorization, battle_id)
    required = if_match_version(request, data.expected_version)
    minimal = prefers_minimal(request)
    if required is not None:
        data = msgspec.structs.replace(data, expected_version=required)
    try:
        answer = await service.execute_batch(
            battle_id, principal, data, idempotency_key, with_awaiting=not minimal
        )
    except VersionConflict as e:
        if required is None:
            raise
        raise if_match_failed(battle_id, e) from e
    narrowed = await narrowed_answer(service, answer, principal)
    return command_answer(narrowed, minimal, status_code=201)


BATCH_ROUTES = [post_command_batch]
