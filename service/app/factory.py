"""`create_app()`: all Litestar wiring in one place."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Union, get_args

from litestar import Litestar
from litestar.datastructures import State
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from domain.battle_commands import BattleCommand
from domain.rulesets import RULESETS
from events.errors import StoreError
from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.app.server import ShutdownWatch
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.desk.export import EXPORT_ROUTES
from service.desk.forecast.pool import ForecastPool
from service.desk.forecast.routes import FORECAST_ROUTES
from service.desk.importing import IMPORT_ROUTES
from service.desk.narrative_routes import NARRATIVE_ROUTES
from service.desk.receipt_routes import RECEIPT_ROUTES
from service.desk.table import TABLE_PAGE_ROUTES
from service.desk.timeline_routes import TIMELINE_ROUTES
from service.desk.viewer import VIEWER_ROUTES
from service.http.batches import BATCH_ROUTES
from service.http.battle_list import BATTLE_LIST_ROUTES
from service.http.command_body import RawJSONObjectPlugin
from service.http.command_route import lean_commands
from service.http.cors import cors_config, skip_without_origin
from service.http.dispute_routes import DISPUTE_ROUTES
from service.http.integrations import INTEGRATION_ROUTES
from service.http.json_body import SMALL_BODY_MAX, JSONBodyRequest, StrictStructSchemaPlugin
from service.http.limits import (
    STORE_NAME,
    AuthFailures,
    StreamSlots,
    counters_of,
    limit_middleware,
    limit_store,
    stream_room,
)
from service.http.origin import ORIGIN_ROUTES
from service.http.player_key_routes import PLAYER_KEY_ROUTES
from service.http.problems import exception_handlers
from service.http.proxies import ForwardedFor, TrustedProxies
from service.http.routes import ROUTES, SERVICE_VERSION
from service.http.table_routes import TABLE_ROUTES
from service.live.fanout import Doorbell, Hub, LocalDoorbell
from service.live.streams import STREAM_ROUTES
from service.live.webhooks.endpoints import WebhookEndpoints
from service.live.webhooks.retry import RetrySchedule
from service.live.webhooks.routes import WEBHOOK_ROUTES
from service.live.webhooks.worker import WebhookWorker
from service.openapi.contract import install_contract
from service.openapi.docs import docs_assets_router, docs_router, render_plugins
from service.openapi.sealed_reads import ReadsSchemaPlugin
from service.schemas import CommandRequest, CreateBattleRequest
from service.settings import Settings

__all__ = ["create_app", "make_store", "service_keys", "tune_gc"]


def make_store(settings: Settings) -> EventStore:
    """The store `BATTLE_DB` names: a PostgreSQL URL, or else a SQLite file path."""
    if settings.uses_postgres:
        return PostgresEventStore(
            settings.database,
            pool_size=settings.db_pool_size,
            role=settings.db_role,
            positions=settings.pg_positions,
        )
    return SQLiteEventStore(settings.sqlite_path, sync=settings.sqlite_sync)


def service_keys(settings: Settings, store: EventStore) -> ServiceKeys:
    """The signing keys the settings name; with the embedded store and none configured,
    the key file beside its database (made on first start)."""
    data_dir = Path(store.path).parent if isinstance(store, SQLiteEventStore) else None
    keys = ServiceKeys.from_settings(
        settings.signing_key,
        settings.signing_key_file,
        settings.retired_signing_keys,
        data_dir,
        signer=settings.signer,
    )
    logging.getLogger("service").info("receipts signed by %s", keys.signer)
    return keys


def _doorbell(settings: Settings) -> Doorbell:
    if settings.redis_url:
        from service.live.redis_bell import RedisDoorbell  # deferred: only with Redis

        return RedisDoorbell(settings.redis_url)
    return LocalDoorbell()


def _webhook_worker(
    settings: Settings, service: BattleService, endpoints: WebhookEndpoints
) -> WebhookWorker | None:
    """The process's webhook deliverer (None with BATTLE_WEBHOOKS=off)."""
    if not settings.webhooks:
        return None
    schedule = RetrySchedule(
        base=settings.webhook_retry_base,
        cap=settings.webhook_retry_max,
        disable_after=settings.webhook_disable_after,
    )
    return WebhookWorker(
        service,
        endpoints,
        schedule,
        timeout=settings.webhook_timeout,
        poll_seconds=settings.webhook_poll_seconds,
        retention_days=settings.webhook_retention_days,
    )


# The bodies' fields checked against a ruleset's own types, documented as those types.
_DOCUMENTED_FIELDS: dict[type, dict[str, Any]] = {
    CreateBattleRequest: {
        "setup": Union[tuple(r.setup_type for r in RULESETS.values())],  # noqa: UP007
        "options": Union[tuple(r.options_type for r in RULESETS.values())],  # noqa: UP007
    },
    CommandRequest: {
        "command": Union[  # noqa: UP007
            tuple(
                c
                for r in RULESETS.values()
                for c in (get_args(r.command_type) or (r.command_type,))
            )
            + get_args(BattleCommand)
        ],
    },
}

_gc_tuned = False


def _forwarded_for(settings: Settings) -> list[ForwardedFor]:
    proxies = TrustedProxies(settings.trusted_proxies)
    return [ForwardedFor(proxies)] if proxies else []


def tune_gc() -> None:
    """Once per process, when the first app has started: the objects alive then (modules,
    the app, its routes: some 60,000) move to the collector's permanent generation, and a
    young collection waits for 10,000 new objects instead of 700.

    Older-generation collections would otherwise walk those start-up objects again and
    again, although they live as long as the process. Measured with callgrind on
    `bench.inprocess` (instructions per command, of about 600k): freezing saves 13k, the
    larger first threshold 5k more. Cyclic garbage is still collected, a little later.
    (A `gc.collect()` before freezing cost 5k per command afterwards, so there is none.)
    """
    global _gc_tuned
    if _gc_tuned:
        return
    _gc_tuned = True
    gc.freeze()
    gc.set_threshold(10_000, *gc.get_threshold()[1:])


def create_app(
    settings: Settings | None = None,
    store: EventStore | None = None,
    keys: ServiceKeys | None = None,
) -> Litestar:
    """The battle service. `store` and `keys` override those the settings name (tests,
    benchmarks)."""
    settings = settings or Settings.from_env()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    the_store: EventStore = store or make_store(settings)
    kind = type(the_store).__name__

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        signing = keys or service_keys(settings, the_store)  # SigningKeyError: no start
        try:
            await the_store.open()
        except StoreError as e:  # a missing guard, an unreachable database: say it plainly
            logging.getLogger("service").critical("the battle service cannot start: %s", e)
            raise
        hub = Hub(the_store, _doorbell(settings), poll_interval=settings.fanout_poll_seconds)
        await hub.start()
        # SIGTERM ends the live streams at once: uvicorn would wait for their clients.
        watch = ShutdownWatch(asyncio.get_running_loop(), hub.close)
        watch.install()
        app.state.hub = hub
        app.state.service = BattleService(
            the_store,
            signing=signing,
            cache_mb=settings.cache_mb,
            snapshot_every=settings.snapshot_every,
            on_appended=hub.appended,
            verify_cache_seconds=settings.verify_cache_seconds,
            command_attempts=settings.command_attempts,
            hold_battles=settings.hold_battles,
            batch_max=settings.batch_max,
            round_commands=settings.round_commands,
        )
        app.state.store_kind = kind
        app.state.stream_slots = StreamSlots(
            counters_of(app),
            settings.limit_streams_per_key,
            per_address=settings.limit_streams_per_address,
            per_worker=stream_room(settings.max_connections),
        )
        app.state.auth_failures = AuthFailures(counters_of(app), settings.limit_auth_failures)
        # Its processes start with the first forecast (service.desk.forecast.pool).
        forecast_pool = app.state.forecast_pool = ForecastPool(settings.forecast_workers)
        app.state.forecast_max_seconds = settings.forecast_max_seconds
        service: BattleService = app.state.service
        endpoints = WebhookEndpoints(
            the_store, service.keys, service.keys.macs, service.secrets,
            settings.webhook_allowed_hosts,
        )  # fmt: skip
        app.state.webhook_endpoints = endpoints
        worker = _webhook_worker(settings, service, endpoints)
        if worker is not None:
            await worker.start()
        tune_gc()
        try:
            yield
        finally:
            forecast_pool.shutdown()
            if worker is not None:
                await worker.stop()
            watch.uninstall()
            hub.close()
            await hub.stop()
            await app.state.service.snapshots.flush()
            await the_store.close()

    cors = cors_config(settings.cors_origins)
    app = Litestar(
        route_handlers=[
            *BATTLE_LIST_ROUTES,  # before ROUTES: it holds the OPTIONS of /battles
            *ROUTES,
            *BATCH_ROUTES,
            *RECEIPT_ROUTES,
            *INTEGRATION_ROUTES,
            *PLAYER_KEY_ROUTES,
            *ORIGIN_ROUTES,
            *EXPORT_ROUTES,
            *IMPORT_ROUTES,
            *NARRATIVE_ROUTES,
            *FORECAST_ROUTES,
            *TIMELINE_ROUTES,
            *TABLE_ROUTES,
            *DISPUTE_ROUTES,
            *STREAM_ROUTES,
            docs_assets_router(),
            *VIEWER_ROUTES,
            *TABLE_PAGE_ROUTES,
            *WEBHOOK_ROUTES,
        ],
        lifespan=[lifespan],
        state=State({"store_kind": kind, "cors": cors}),
        cors_config=cors,
        exception_handlers=exception_handlers,
        # The client address first (service.http.proxies): the limits count by it.
        middleware=[*_forwarded_for(settings), *limit_middleware(settings)],
        stores={STORE_NAME: limit_store(settings)},
        request_class=JSONBodyRequest,  # unreadable JSON bodies: 400, not 500
        request_max_body_size=SMALL_BODY_MAX,  # larger per route: service.http.json_body
        plugins=[
            RawJSONObjectPlugin(),
            ReadsSchemaPlugin(),
            StrictStructSchemaPlugin(_DOCUMENTED_FIELDS),
        ],
        openapi_config=OpenAPIConfig(
            title="Battle service",
            render_plugins=render_plugins(),
            openapi_router=docs_router(),
            version=SERVICE_VERSION,
            description=(
                "Event-sourced battle resolution for tabletop RPGs: rules as deciders, "
                "verifiable dice, an auditable hash-chained log."
            ),
            components=Components(
                security_schemes={
                    "BearerKey": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="An access key returned by createBattle or createIntegration",
                    )
                },
            ),
        ),
        debug=False,
    )
    # The commands and events typed (service.openapi.contract); the command route's lean
    # path in front of Litestar's (service.http.command_route).
    return install_contract(lean_commands(skip_without_origin(app)))
