"""What the rate limits count a request by, read from its ASGI scope (service.http.limits):
the key it sends (the first Authorization header, else its `access_key` query parameter),
its client address, and which policies apply to it (anonymous creations, forecasts)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar

from service.app.factory import create_app
from service.http.limits import LimitConfig, bearer_key, key_identity, limit_middleware
from service.settings import Settings


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Litestar:
    db = Path(tmp_path_factory.mktemp("limits")) / "battles.db"
    return create_app(Settings.from_env({"BATTLE_DB": str(db)}))


@pytest.fixture  # made for each test, so that mutmut's trace ties every test to it
def policies() -> dict[str, LimitConfig]:
    return {p.name: p for m in limit_middleware(Settings()) for p in m.policies}


def _handler(app: Litestar, operation_id: str) -> Any:
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            if getattr(handler, "operation_id", None) == operation_id:
                return handler
    raise LookupError(operation_id)


def _scope(
    app: Litestar,
    operation_id: str = "postCommand",
    *,
    method: str = "POST",
    headers: list[tuple[bytes, bytes]] | None = None,
    query: bytes = b"",
    client: tuple[str, int] | None = ("10.1.2.3", 4321),
) -> Any:
    return {
        "type": "http", "method": method, "path": "/battles", "raw_path": b"/battles",
        "query_string": query, "headers": headers or [], "client": client,
        "litestar_app": app, "app": app, "route_handler": _handler(app, operation_id),
        "state": {}, "path_params": {}, "root_path": "", "scheme": "http",
    }  # fmt: skip


def test_a_key_is_the_first_authorization_header(app: Litestar, policies: Any) -> None:
    key = policies["key"]
    headers = [(b"authorization", b"Bearer bk_first"), (b"authorization", b"Bearer bk_second")]
    scope = _scope(app, headers=headers)
    assert key.applies(scope)
    assert key.identify(scope) == key_identity("bk_first")


def test_without_an_authorization_header_the_query_key_counts(app: Litestar, policies: Any) -> None:
    key = policies["key"]
    for headers in ([], [(b"authorization", b"")]):  # none, or an empty one
        scope = _scope(app, headers=headers, query=b"after=3&access_key=bk_query")
        assert key.applies(scope)
        assert key.identify(scope) == key_identity("bk_query")
    bare = _scope(app, query=b"after=3")
    assert not key.applies(bare)
    assert key.identify(bare) == ""
    assert not key.applies(_scope(app))


def test_an_address_is_the_clients_or_unknown(app: Litestar, policies: Any) -> None:
    address = policies["address"]
    assert address.identify(_scope(app)) == "10.1.2.3"
    assert address.identify(_scope(app, client=None)) == "unknown"
    # and so are the failed authentications' and the anonymous creations'
    for name in ("auth-failures", "battles", "integrations"):
        assert policies[name].identify(_scope(app, "createBattle")) == "10.1.2.3"


def test_only_an_anonymous_creation_counts_as_one(app: Litestar, policies: Any) -> None:
    battles = policies["battles"]
    assert battles.applies is not None
    assert battles.applies(_scope(app, "createBattle"))
    # a query key does not make a creation keyed: it stays counted
    assert battles.applies(_scope(app, "createBattle", query=b"access_key=bk_x"))
    keyed = [(b"authorization", b"Bearer ik_integration")]
    assert not battles.applies(_scope(app, "createBattle", headers=keyed))
    assert not battles.applies(_scope(app, "createBattle", method="GET"))
    assert not battles.applies(_scope(app, "postCommand"))
    # an import founds a battle too: the same counter
    assert battles.applies(_scope(app, "importBattle"))
    assert not battles.applies(_scope(app, "importBattle", headers=keyed))
    assert not battles.applies(_scope(app, "createIntegration"))


def test_only_an_anonymous_integration_creation_counts_as_one(app: Litestar, policies: Any) -> None:
    integrations = policies["integrations"]
    assert integrations.applies is not None
    assert integrations.applies(_scope(app, "createIntegration"))
    keyed = [(b"authorization", b"Bearer ik_integration")]
    assert not integrations.applies(_scope(app, "createIntegration", headers=keyed))
    assert not integrations.applies(_scope(app, "createIntegration", method="GET"))
    assert not integrations.applies(_scope(app, "createBattle"))
    assert not integrations.applies(_scope(app, "importBattle"))


def test_forecasts_are_counted_per_key_apart(app: Litestar, policies: Any) -> None:
    forecasts = policies["forecasts"]
    assert forecasts.applies is not None
    keyed = [(b"authorization", b"Bearer bk_ref")]
    assert forecasts.applies(_scope(app, "forecastBattle", headers=keyed))
    assert forecasts.identify(_scope(app, "forecastBattle", headers=keyed)) == key_identity(
        "bk_ref"
    )
    assert not forecasts.applies(_scope(app, "forecastBattle"))  # no key: not this policy
    assert not forecasts.applies(_scope(app, "postCommand", headers=keyed))


@pytest.mark.parametrize(
    "header",
    [b"Bearer bk_one", b"bearer bk_one", b"BEARER bk_one", b"bEarer  bk_one ", b"  Bearer bk_one"],
)
def test_a_key_is_one_counter_however_its_scheme_is_spelt(
    app: Litestar, policies: Any, header: bytes
) -> None:
    """The service reads the scheme in any letter case (`KeyRing.principal`): so must the
    counters, or each spelling would get the key's whole allowance again."""
    scope = _scope(app, headers=[(b"authorization", header)])
    assert policies["key"].identify(scope) == key_identity("bk_one")


def test_a_query_key_is_counted_as_the_same_key_in_a_header(app: Litestar, policies: Any) -> None:
    scope = _scope(app, "streamEvents", method="GET", query=b"access_key=bk_one")
    assert policies["key"].identify(scope) == key_identity("bk_one")


def test_a_sent_value_that_is_no_bearer_key_is_counted_whole() -> None:
    # another scheme, or the scheme alone: the value as sent (trimmed), which opens nothing
    # (`KeyRing.principal` reads only "Bearer <key>"), not its second word or an empty key
    assert bearer_key(" Basic bk_one ") == "Basic bk_one"
    assert bearer_key("Bearer ") == "Bearer"
    assert bearer_key("bk_one") == "bk_one"


def test_a_key_is_counted_under_128_bits_of_its_sha256() -> None:
    # what Redis and the logs hold of a key: never the key itself
    assert key_identity("bk_one") == hashlib.sha256(b"bk_one").hexdigest()[:32]
    assert len(key_identity("")) == 32
