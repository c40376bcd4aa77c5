"""`create_app()`: all Litestar wiring in one place."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar
from litestar.datastructures import State
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from events.postgres import PostgresEventStore
from events.sqlite import SQLiteEventStore
from events.store import EventStore
from service.battles import BattleService
from service.command_body import RawJSONObjectPlugin
from service.fanout import Doorbell, Hub, LocalDoorbell
from service.integrations import INTEGRATION_ROUTES
from service.problems import exception_handlers
from service.routes import ROUTES, SERVICE_VERSION
from service.settings import Settings
from service.streams import STREAM_ROUTES

__all__ = ["create_app", "make_store"]


def make_store(settings: Settings) -> EventStore:
    """The store `BATTLE_DB` names: a PostgreSQL URL, or else a SQLite file path."""
    if settings.uses_postgres:
        return PostgresEventStore(settings.database, pool_size=settings.db_pool_size)
    return SQLiteEventStore(settings.sqlite_path)


def _doorbell(settings: Settings) -> Doorbell:
    if settings.redis_url:
        from service.redis_bell import RedisDoorbell

        return RedisDoorbell(settings.redis_url)
    return LocalDoorbell()


def create_app(settings: Settings | None = None, store: EventStore | None = None) -> Litestar:
    """The battle service. `store` overrides the one the settings name (tests, benchmarks)."""
    settings = settings or Settings.from_env()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    the_store: EventStore = store or make_store(settings)
    kind = type(the_store).__name__

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        await the_store.open()
        hub = Hub(the_store, _doorbell(settings))
        await hub.start()
        app.state.hub = hub
        app.state.service = BattleService(the_store, on_appended=hub.appended)
        app.state.store_kind = kind
        try:
            yield
        finally:
            await hub.stop()
            await the_store.close()

    return Litestar(
        route_handlers=[*ROUTES, *INTEGRATION_ROUTES, *STREAM_ROUTES],
        lifespan=[lifespan],
        state=State({"store_kind": kind}),
        exception_handlers=exception_handlers,
        plugins=[RawJSONObjectPlugin()],
        openapi_config=OpenAPIConfig(
            title="Battle service",
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
                }
            ),
        ),
        debug=False,
    )
