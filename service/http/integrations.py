"""Integrations: a VTT or a bot registers once and gets one key for every battle it creates.

`POST /integrations` mints the key (only its SHA-256 is stored). Battles created with
it (`POST /battles` with `Authorization: Bearer <integration key>`) are linked to the
integration: its key opens them as the referee's key does, and `GET /events/stream`
with it carries the events of all of them, including battles created after the stream
started.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

import msgspec
from litestar import Response, get, post
from litestar.params import JSONBody, PathParameter

from events.envelope import Integration
from service.battles.keys import hash_key, mint_key
from service.errors import Forbidden, NotFound
from service.http.routes import (
    SECURED,
    AppRequest,
    Authorization,
    created,
    location_header,
    problems,
    service_of,
)
from service.schemas import CreateIntegrationRequest, IntegrationCreatedResponse, IntegrationView

__all__ = ["INTEGRATION_ROUTES"]


@post(
    "/integrations",
    operation_id="createIntegration",
    tags=["integrations"],
    summary="Register an integration; answers its key (shown once)",
    status_code=201,
    responses=problems(400, 415),
    response_headers=location_header("The integration: /integrations/{integration_id}"),
)
async def create_integration(
    request: AppRequest, data: JSONBody[CreateIntegrationRequest]
) -> Response[IntegrationCreatedResponse]:
    service = service_of(request)
    key = mint_key()
    integration = Integration(
        integration_id=str(uuid.uuid4()), key_hash=hash_key(key), name=data.name
    )
    integration = msgspec.structs.replace(
        integration, mac=service.keys.macs.integration(integration)
    )
    await service.store.save_integration(integration)
    answer = IntegrationCreatedResponse(
        integration_id=integration.integration_id, name=integration.name, key=key
    )
    return created(answer, f"/integrations/{integration.integration_id}")


@get(
    "/integrations/{integration_id:str}",
    operation_id="getIntegration",
    tags=["integrations"],
    summary="An integration, read with its own key",
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def get_integration(
    request: AppRequest,
    integration_id: Annotated[str, PathParameter(min_length=1, max_length=128)],
    authorization: Authorization,
) -> IntegrationView:
    service = service_of(request)
    principal = await service.keys.principal(authorization)  # a refusal for a bad key
    if principal.integration_id != integration_id:
        raise Forbidden(
            "only the integration's own key reads it", code="key-for-another-integration"
        )
    assert authorization is not None  # principal() refused a missing one
    found = await service.store.find_integration(
        hash_key(authorization.strip().partition(" ")[2].strip())
    )
    if found is None:  # its key was known a moment ago: the row is gone
        raise NotFound(f"there is no integration {integration_id}", code="integration-not-found")
    return IntegrationView(integration_id=found.integration_id, name=found.name)


INTEGRATION_ROUTES: list[Any] = [create_integration, get_integration]
