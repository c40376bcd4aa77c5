"""The command route's lean path: `POST /battles/{id}/commands` without Litestar's router,
signature model and per-request lookups, every check kept (issue 37).

A Litestar request goes through the app's CORS layer, an exception layer, the router
(path normalising, the Host check, the route lookup, the route's exception handlers
merged anew), the route's middleware (the client address, the rate limits) and its
exception layer, then the route: a `Request`, the kwargs model extracting the body, the
signature model validating every argument, the handler, `to_response`. A bare Litestar
POST costs some 250k instructions more than a plain ASGI app under the same uvicorn
(`bench.http_instructions`), a command most of that too.

`CommandPath` sits in front of the app's own ASGI handler. A request it recognises
exactly (`POST`, a path `/battles/<1 to 128 characters, no slash>/commands`, no root
path, no `Origin` header, a Host header Litestar accepts) goes through the same route
middleware (the same `ForwardedFor` and `RateLimits` instances, between the same two
exception layers, so a refusal and every handler's error are the same problem+json with
the same headers) to the route's own handler function, with the body read and decoded
by the route's request class (`CommandBodyRequest`) and the answer made by the route's
`to_response`. Anything else, a browser's request with an `Origin` among them, goes to
Litestar unchanged; so does every other route. The route stays registered with Litestar,
which documents it (OpenAPI) and answers it whenever the lean path does not.

What the lean path leaves out is what this route does not use: guards, dependencies,
before-request and after-response hooks, DTOs, caching, CSRF, compression, allowed hosts
(`CommandPath` refuses to stand in front of an app that configures any of them for the
route), and the
signature model's checks of arguments the lean path has already checked (the battle id's
length, the body's type: `CommandBodyRequest` decodes it into a `CommandRequest`).
"""

from __future__ import annotations

import re
from typing import Any

from litestar import Litestar
from litestar._asgi.utils import is_valid_host
from litestar.exceptions import ClientException, LitestarException, SerializationException
from litestar.middleware._internal.exceptions import ExceptionHandlerMiddleware
from litestar.utils.scope.state import ScopeState

__all__ = ["COMMAND_PATH", "CommandPath", "command_path", "lean_commands"]

COMMAND_PATH = "/battles/{battle_id:str}/commands"
_PREFIX, _SUFFIX = "/battles/", "/commands"
_ID_MAX = 128  # routes.BattleId's max_length
_TEMPLATE = "/battles/{battle_id}/commands"


def command_path(path: str) -> str | None:
    """The battle id of a command route's path, exactly as Litestar's router reads it, or
    None for any other path (or one Litestar would refuse: an empty or too long id)."""
    if not (path.startswith(_PREFIX) and path.endswith(_SUFFIX)):
        return None
    battle_id = path[len(_PREFIX) : -len(_SUFFIX)]
    if not 1 <= len(battle_id) <= _ID_MAX or "/" in battle_id:
        return None
    return battle_id


def _handler_of(app: Litestar) -> Any:
    """The command route's registered handler (its POST)."""
    for route in app.routes:
        if route.path_format == _TEMPLATE:
            return route.route_handler_map["POST"][0]  # type: ignore[union-attr]
    raise LookupError(f"no route {COMMAND_PATH}")


def _unsupported(app: Litestar, handler: Any) -> list[str]:
    """What the app or the route configures that the lean path would not do."""
    found = []
    checks = {
        "guards": handler.resolve_guards(),
        "dependencies": handler.resolve_dependencies(),
        "before_request": handler.resolve_before_request(),
        "data_dto": handler.resolve_data_dto(),
        "return_dto": handler.resolve_return_dto(),
        "after_response": handler.resolve_after_response(),
        "cache": handler.cache,
        "csrf": app.csrf_config,
        "compression": app.compression_config,
        "allowed_hosts": app.allowed_hosts,
        "before_send": app.before_send,
        "mounted_apps": app.asgi_router._mount_routes,
    }
    found += [name for name, value in checks.items() if value]
    # A static route the command path's pattern would also match is routed before it.
    shape = re.compile(r"^/battles/[^/{}]+/commands$")
    found += [r.path for r in app.routes if shape.match(r.path)]
    return found


class CommandPath:
    """The app's ASGI handler with the command route's lean path in front (see module)."""

    __slots__ = (
        "app", "exception_handlers", "exceptions", "fn", "handler", "inner", "request_class",
        "respond", "run",
    )  # fmt: skip

    def __init__(self, app: Litestar, inner: Any) -> None:
        self.app = app
        self.inner = inner
        handler = self.handler = _handler_of(app)
        unsupported = _unsupported(app, handler)
        if unsupported:
            raise ValueError(f"the command route's lean path cannot do: {unsupported}")
        # Resolved for every request by Litestar; the same every time.
        self.exception_handlers = handler.resolve_exception_handlers()
        self.request_class = handler.resolve_request_class()
        self.fn = handler.fn
        self.respond = handler.get_response_handler(is_response_type_data=True)
        # Litestar's exception layer, whose way of answering an error `_failed` takes.
        self.exceptions = ExceptionHandlerMiddleware(app=self._handle, debug=None)
        # As Litestar stacks a route with middleware (routing_trie.mapping): an exception
        # layer under the middleware, so that their send wrappers see an error's answer,
        # then the middleware; the app's own exception layer over it all is `__call__`'s.
        run: Any = self._guarded
        for middleware in handler.resolve_middleware():
            run = middleware(app=run)
        self.run = run

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or scope.get("root_path")
            or (battle_id := command_path(scope["path"])) is None
        ):
            await self.inner(scope, receive, send)
            return
        host_seen = False
        for name, value in scope["headers"]:  # ASGI: names in lower case
            if name == b"origin" or (
                name == b"host" and not host_seen and not is_valid_host(value)
            ):  # CORS, or Litestar's 400 for the Host: all Litestar's
                await self.inner(scope, receive, send)
                return
            if name == b"host":
                host_seen = True
        # What Litestar's router leaves in the scope for the route and its middleware.
        scope["path_params"] = {"battle_id": battle_id}
        scope["route_handler"] = self.handler
        scope["path_template"] = _TEMPLATE
        ScopeState.from_scope(scope).exception_handlers = self.exception_handlers
        try:
            await self.run(scope, receive, send)
        except Exception as e:  # the middleware's own (a 429): the app's exception layer
            await self._failed(scope, receive, send, e)

    async def _guarded(self, scope: Any, receive: Any, send: Any) -> None:
        """The route's exception layer, under the middleware."""
        try:
            await self._handle(scope, receive, send)
        except Exception as e:
            await self._failed(scope, receive, send, e)

    async def _failed(self, scope: Any, receive: Any, send: Any, e: Exception) -> None:
        """An error answered as `ExceptionHandlerMiddleware.__call__` answers it; the
        answer's start is marked as its send wrapper marks it."""
        state = ScopeState.from_scope(scope)
        if state.response_started:
            raise LitestarException("Exception caught after response started") from e
        app = self.app
        if app.logging_config and (logger := app.logger):
            self.exceptions.handle_exception_logging(
                logger=logger, logging_config=app.logging_config, scope=scope
            )
        for hook in app.after_exception:
            await hook(e, scope)
        if app.pdb_on_exception:
            app.debugger_module.post_mortem()
        await self.exceptions.handle_request_exception(
            litestar_app=app, scope=scope, receive=receive, send=send, exc=e
        )
        state.response_started = True

    async def _handle(self, scope: Any, receive: Any, send: Any) -> None:
        """The route as Litestar's `HTTPRoute.handle` runs it, less what it does not use."""
        request = self.request_class(scope=scope, receive=receive, send=send)
        battle_id = scope["path_params"]["battle_id"]
        try:
            if not await request.body():  # Litestar: no `data`, which its signature refuses
                self.handler.signature_model.parse_values_from_connection_kwargs(
                    connection=request, kwargs={"request": request, "battle_id": battle_id}
                )
            data = await request.json()
        except SerializationException as e:  # as HTTPRoute._call_handler_function
            raise ClientException(str(e)) from e
        answer = await self.fn(request=request, battle_id=battle_id, data=data)
        response = await self.respond(app=self.app, data=answer, request=request)
        ScopeState.from_scope(scope).response_started = True
        await response(scope, receive, send)


def lean_commands(app: Litestar) -> Litestar:
    """`app` with the command route's lean path in front of its ASGI handler."""
    app.asgi_handler = CommandPath(app, app.asgi_handler)
    return app
