"""Litestar's CORS middleware runs only for requests with an `Origin` header
(service.http.cors.skip_without_origin): the others are answered as it would answer them,
without it building a `Headers` of theirs."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar, get
from litestar.middleware._internal.cors import CORSMiddleware
from litestar.testing import TestClient

from service.http.cors import cors_config, skip_without_origin


@get("/ping")
async def ping() -> dict[str, str]:
    return {"pong": "yes"}


def test_only_a_request_with_an_origin_goes_through_the_cors_middleware(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[str] = []
    through = CORSMiddleware.__call__

    async def counted(self: CORSMiddleware, scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope["path"])
        await through(self, scope, receive, send)

    monkeypatch.setattr(CORSMiddleware, "__call__", counted)
    app = skip_without_origin(Litestar([ping], cors_config=cors_config(("http://vtt.test",))))
    with TestClient(app) as client:
        plain = client.get("/ping")
        assert plain.status_code == 200
        assert plain.json() == {"pong": "yes"}
        assert "access-control-allow-origin" not in plain.headers
        assert seen == []
        allowed = client.get("/ping", headers={"Origin": "http://vtt.test"})
        assert allowed.headers["access-control-allow-origin"] == "http://vtt.test"
        refused = client.get("/ping", headers={"Origin": "http://evil.test"})
        assert "access-control-allow-origin" not in refused.headers
        preflight = client.options(
            "/ping",
            headers={"Origin": "http://vtt.test", "Access-Control-Request-Method": "GET"},
        )
        assert preflight.status_code == 204
        assert seen == ["/ping"] * 3


def test_an_app_without_cors_is_left_as_it_is() -> None:
    app = Litestar([ping])
    handler = app.asgi_handler
    assert skip_without_origin(app).asgi_handler is handler
