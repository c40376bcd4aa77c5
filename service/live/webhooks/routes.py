"""The webhook routes: an integration registers, lists, rotates and deletes its endpoints,
and reads every delivery attempt. Each is authorised by the integration's key only.

Operation ids are a contract: createWebhook, listWebhooks, getWebhook, deleteWebhook,
rotateWebhookSecret, enableWebhook, listWebhookDeliveries.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Annotated, Any

from litestar import Controller, Response, delete, get, post, route
from litestar.enums import HttpMethod, MediaType
from litestar.params import JSONBody, PathParameter, QueryParameter
from litestar.status_codes import HTTP_204_NO_CONTENT

from events.webhooks.records import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from service.errors import Forbidden
from service.http.routes import (
    SECURED,
    AppRequest,
    Authorization,
    created,
    location_header,
    problems,
    service_of,
)
from service.live.webhooks.endpoints import WebhookEndpoints
from service.live.webhooks.schemas import (
    CreateWebhookRequest,
    WebhookAttemptOut,
    WebhookCreatedResponse,
    WebhookDeliveryOut,
    WebhookDeliveryPage,
    WebhookEndpointList,
    WebhookEndpointOut,
    WebhookSecretResponse,
)

__all__ = ["WEBHOOK_ROUTES"]

EndpointId = Annotated[str, PathParameter(min_length=1, max_length=128)]
_POSITION_MAX = 2**53


def _endpoints(request: AppRequest) -> WebhookEndpoints:
    endpoints: WebhookEndpoints = request.app.state["webhook_endpoints"]
    return endpoints


async def _integration_id(request: AppRequest, authorization: str | None) -> str:
    principal = await service_of(request).keys.principal(authorization)
    if principal.integration_id is None:
        raise Forbidden(
            "webhooks belong to integrations: send an integration's key (POST /integrations)",
            code="not-an-integration-key",
        )
    return principal.integration_id


def _time(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat(timespec="milliseconds")


def _out(e: WebhookEndpoint) -> WebhookEndpointOut:
    return WebhookEndpointOut(
        endpoint_id=e.endpoint_id,
        url=e.url,
        event_types=list(e.event_types),
        battle_id=e.battle_id,
        created_at=_time(e.created_at) or "",
        enabled=e.disabled_at is None,
        disabled_at=_time(e.disabled_at),
        failing_since=_time(e.failing_since),
    )


def _allow(methods: str) -> Response[None]:
    """An OPTIONS answer naming every method of a path with two handlers (the one Litestar
    2.25 adds names only one of them; service.desk.receipt_routes does the same). The handler
    is named `allow`: a controller registers its handlers sorted by name, and only one
    registered before the others replaces the OPTIONS handler Litestar makes for the first."""
    return Response(
        content=None,
        status_code=HTTP_204_NO_CONTENT,
        headers={"Allow": methods},
        media_type=MediaType.TEXT,
    )


class WebhooksController(Controller):
    path = "/webhooks"

    @route(http_method=[HttpMethod.OPTIONS], include_in_schema=False, sync_to_thread=False)
    def allow(self) -> Response[None]:
        return _allow("GET, OPTIONS, POST")

    @post(
        operation_id="createWebhook",
        tags=["webhooks"],
        summary="Register a webhook endpoint for the integration's battles (its secret is "
        "shown once)",
        status_code=201,
        responses=problems(400, 401, 403, 415, 422),
        response_headers=location_header("The endpoint: /webhooks/{endpoint_id}"),
        security=SECURED,
    )
    async def create_webhook(
        self,
        request: AppRequest,
        authorization: Authorization,
        data: JSONBody[CreateWebhookRequest],
    ) -> Response[WebhookCreatedResponse]:
        integration_id = await _integration_id(request, authorization)
        endpoint, secret = await _endpoints(request).create(
            integration_id, data.url, data.event_types, data.battle_id, time.time()
        )
        out = _out(endpoint)
        fields = {f: getattr(out, f) for f in out.__struct_fields__}
        answer = WebhookCreatedResponse(**fields, secret=secret)
        return created(answer, f"/webhooks/{answer.endpoint_id}")

    @get(
        operation_id="listWebhooks",
        tags=["webhooks"],
        summary="The integration's webhook endpoints",
        responses=problems(400, 401, 403),
        security=SECURED,
    )
    async def list_webhooks(
        self, request: AppRequest, authorization: Authorization
    ) -> WebhookEndpointList:
        integration_id = await _integration_id(request, authorization)
        found = await service_of(request).store.list_webhook_endpoints(integration_id)
        return WebhookEndpointList(endpoints=[_out(e) for e in found])


class WebhookController(Controller):
    path = "/webhooks/{endpoint_id:str}"

    @route(http_method=[HttpMethod.OPTIONS], include_in_schema=False, sync_to_thread=False)
    def allow(self) -> Response[None]:
        return _allow("DELETE, GET, OPTIONS")

    @get(
        operation_id="getWebhook",
        tags=["webhooks"],
        summary="One webhook endpoint: enabled or not, failing since when",
        responses=problems(400, 401, 403, 404),
        security=SECURED,
    )
    async def get_webhook(
        self, request: AppRequest, endpoint_id: EndpointId, authorization: Authorization
    ) -> WebhookEndpointOut:
        integration_id = await _integration_id(request, authorization)
        return _out(await _endpoints(request).owned(integration_id, endpoint_id))

    @delete(
        operation_id="deleteWebhook",
        tags=["webhooks"],
        summary="Delete a webhook endpoint with its pending deliveries and their attempts",
        status_code=204,
        responses=problems(400, 401, 403, 404),
        security=SECURED,
    )
    async def delete_webhook(
        self, request: AppRequest, endpoint_id: EndpointId, authorization: Authorization
    ) -> None:
        integration_id = await _integration_id(request, authorization)
        endpoint = await _endpoints(request).owned(integration_id, endpoint_id)
        await service_of(request).store.delete_webhook_endpoint(endpoint.endpoint_id)


@post(
    "/webhooks/{endpoint_id:str}/secret",
    operation_id="rotateWebhookSecret",
    tags=["webhooks"],
    summary="A new signing secret (shown once); the old one also signs for 24 hours more",
    status_code=200,
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def rotate_webhook_secret(
    request: AppRequest, endpoint_id: EndpointId, authorization: Authorization
) -> WebhookSecretResponse:
    integration_id = await _integration_id(request, authorization)
    endpoints = _endpoints(request)
    secret = await endpoints.rotate(await endpoints.owned(integration_id, endpoint_id), time.time())
    return WebhookSecretResponse(endpoint_id=endpoint_id, secret=secret)


@post(
    "/webhooks/{endpoint_id:str}/enable",
    operation_id="enableWebhook",
    tags=["webhooks"],
    summary="Enable a disabled endpoint again: its pending deliveries are retried at once",
    status_code=200,
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def enable_webhook(
    request: AppRequest, endpoint_id: EndpointId, authorization: Authorization
) -> WebhookEndpointOut:
    integration_id = await _integration_id(request, authorization)
    endpoints = _endpoints(request)
    endpoint = await endpoints.owned(integration_id, endpoint_id)
    await service_of(request).store.enable_webhook_endpoint(endpoint.endpoint_id)
    return _out(await endpoints.owned(integration_id, endpoint_id))


@get(
    "/webhooks/{endpoint_id:str}/deliveries",
    operation_id="listWebhookDeliveries",
    tags=["webhooks"],
    summary="The endpoint's deliveries by log position, each with every attempt made",
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def list_webhook_deliveries(
    request: AppRequest,
    endpoint_id: EndpointId,
    authorization: Authorization,
    after: Annotated[
        int,
        QueryParameter(
            ge=0, le=_POSITION_MAX, description="Deliveries of events after this log position"
        ),
    ] = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=100, description="At most this many")] = 50,
) -> WebhookDeliveryPage:
    integration_id = await _integration_id(request, authorization)
    endpoint = await _endpoints(request).owned(integration_id, endpoint_id)
    store = service_of(request).store
    found = await store.list_webhook_deliveries(endpoint.endpoint_id, after, limit)
    attempts: dict[str, list[WebhookAttempt]] = {}
    for a in await store.list_webhook_attempts([d.delivery_id for d in found]):
        attempts.setdefault(a.delivery_id, []).append(a)
    return WebhookDeliveryPage(
        deliveries=[_delivery_out(d, attempts.get(d.delivery_id, [])) for d in found],
        # `limit` counts positions: an event's delivery and its battle.awaiting one share one
        next_after=found[-1].position if len({d.position for d in found}) == limit else None,
    )


def _delivery_out(d: WebhookDelivery, attempts: list[WebhookAttempt]) -> WebhookDeliveryOut:
    return WebhookDeliveryOut(
        delivery_id=d.delivery_id,
        battle_id=d.battle_id,
        version=d.version,
        position=d.position,
        event_type=d.event_type,
        status=d.status,
        created_at=_time(d.created_at) or "",
        next_attempt_at=_time(d.next_attempt_at) if d.status == "pending" else None,
        delivered_at=_time(d.delivered_at),
        attempts=[
            WebhookAttemptOut(
                attempt=a.attempt,
                at=_time(a.at) or "",
                ok=a.ok,
                status_code=a.status_code,
                error=a.error,
                duration_ms=a.duration_ms,
            )
            for a in attempts
        ],
    )


WEBHOOK_ROUTES: list[Any] = [
    WebhooksController,
    WebhookController,
    rotate_webhook_secret,
    enable_webhook,
    list_webhook_deliveries,
]
