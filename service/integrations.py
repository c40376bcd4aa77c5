"""Integrations: a VTT or a bot registers once and gets one key for every battle it creates.

`POST /integrations` mints the key (only its SHA-256 is stored). Battles created with
it (`POST /battles` with `Authorization: Bearer <integration key>`) are linked to the
integration: its key opens them as the referee's key does, and `GET /events/stream`
with it carries the events of all of them, including battles created after the stream
started.
"""

from __future__ import annotations

import uuid
from typing import Any

import msgspec
from litestar import post
from litestar.params import JSONBody

from events.envelope import Integration
from service.auth import hash_key, mint_key
from service.routes import AppRequest, problems, service_of
from service.schemas import CreateIntegrationRequest, IntegrationCreatedResponse

__all__ = ["INTEGRATION_ROUTES"]


@post(
    "/integrations",
    operation_id="createIntegration",
    tags=["integrations"],
    summary="Register an integration; answers its key (shown once)",
    status_code=201,
    responses=problems(400),
)
async def create_integration(
    request: AppRequest, data: JSONBody[CreateIntegrationRequest]
) -> IntegrationCreatedResponse:
    service = service_of(request)
    key = mint_key()
    integration = Integration(
        integration_id=str(uuid.uuid4()), key_hash=hash_key(key), name=data.name
    )
    integration = msgspec.structs.replace(
        integration, mac=service.keys.macs.integration(integration)
    )
    await service.store.save_integration(integration)
    return IntegrationCreatedResponse(
        integration_id=integration.integration_id, name=integration.name, key=key
    )


INTEGRATION_ROUTES: list[Any] = [create_integration]
