"""The command route's lean path (service.http.command_route) answers every request as
Litestar's own route does: the same request sequences, sent to an app with the lean path
and to the same app without it, get the same statuses, headers and problem bodies (the
battle ids and keys, which differ, put aside; answers that append compared by shape: their
times and signatures differ). A request the lean path does not recognise goes to Litestar."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar import Litestar, post
from litestar.exceptions import LitestarException

from bench.scripts import command_bodies, play_script
from service.app.factory import create_app
from service.http.command_route import CommandPath, command_path, lean_commands
from service.settings import Settings
from tests.support.quickstart_play import SETUP

Message = dict[str, Any]
Answer = tuple[int, dict[str, str], Any]
App = Any  # an ASGI app: Litestar, or a wrapper


# 13 legal quickstart commands in a row from SETUP (dice included), then an Undo to 1.
_BODIES = command_bodies(play_script(seed=7, max_commands=13)[0])


async def _call(
    app: App, path: str, body: bytes, headers: list[tuple[bytes, bytes]], **scope: Any
) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    full = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "client": ("10.9.8.7", 1), "server": ("127.0.0.1", 80), "state": {},
        "headers": [
            *([] if any(n == b"host" for n, _ in headers) else [(b"host", b"battles.test")]),
            *headers,
        ],
        **scope,
    }  # fmt: skip
    chunks = [body[i : i + 7000] for i in range(0, len(body), 7000)] or [b""]
    sent: list[Message] = []

    async def receive() -> Message:
        if chunks:
            chunk = chunks.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(full, receive, send)
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    return sent[0]["status"], sent[0]["headers"], sent[1]["body"]


async def _lifespan(app: Litestar, event: str) -> None:
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    outbox: asyncio.Queue[Message] = asyncio.Queue()
    await inbox.put({"type": f"lifespan.{event}"})
    if event == "startup":
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
        asyncio.get_running_loop().create_task(app(scope, inbox.get, outbox.put))  # type: ignore[arg-type]
        _LIFESPANS[id(app)] = inbox
    else:
        await _LIFESPANS.pop(id(app)).put({"type": "lifespan.shutdown"})
        return
    assert (await outbox.get())["type"] == "lifespan.startup.complete"


_LIFESPANS: dict[int, asyncio.Queue[Message]] = {}


class Side:
    """One app (with the lean path or without it) and a battle in it."""

    def __init__(self, app: Litestar) -> None:
        self.app = app
        self.battle = self.key = self.observer = ""

    async def create(self) -> None:
        body = msgspec.json.encode({"ruleset": "quickstart", "setup": SETUP})
        status, _, answer = await _call(self.app, "/battles", body, [])
        assert status == 201
        created = json.loads(answer)
        self.battle = created["battle_id"]
        self.key = created["keys"]["referee"]
        self.observer = created["keys"]["observer"]

    async def command(
        self,
        body: bytes,
        headers: list[tuple[bytes, bytes]] | None = None,
        *,
        key: str | None = "referee",
        battle: str | None = None,
        path: str | None = None,
        **scope: Any,
    ) -> Answer:
        sent = list(headers or [])
        if key is not None:
            secret = {"referee": self.key, "observer": self.observer}.get(key, key)
            sent.insert(0, (b"authorization", f"Bearer {secret}".encode()))
        if not any(name == b"content-type" for name, _ in sent):
            sent.append((b"content-type", b"application/json"))
        path = path or f"/battles/{battle or self.battle}/commands"
        status, raw_headers, raw = await _call(self.app, path, body, sent, **scope)
        names = {n.decode().lower(): v.decode() for n, v in raw_headers}
        for name in _TICKING:  # seconds left in a window: may tick between two apps
            if name in names:
                assert names[name].isdigit(), names[name]
                names[name] = "<seconds>"
        text = raw.decode()
        for secret in (self.battle, self.key, self.observer):
            text = text.replace(secret, "<id>")
        return status, names, json.loads(text) if text else None


_TICKING = ("ratelimit-reset", "retry-after")


def _settings(tmp: Path, name: str, **env: str) -> Settings:
    return Settings.from_env({"BATTLE_DB": str(tmp / f"{name}.db"), **env})


def _without_lean_path(app: Litestar) -> Litestar:
    handler = app.asgi_handler
    assert isinstance(handler, CommandPath)
    app.asgi_handler = handler.inner
    return app


async def _both(
    tmp: Path, play: Callable[[Side], Awaitable[list[Answer]]], **env: str
) -> tuple[list[Answer], list[Answer]]:
    """`play` run on a fresh app with the lean path and on one without it."""
    results = []
    for app in (
        create_app(_settings(tmp, "lean", **env)),
        _without_lean_path(create_app(_settings(tmp, "litestar", **env))),
    ):
        await _lifespan(app, "startup")
        try:
            side = Side(app)
            await side.create()
            results.append(await play(side))
        finally:
            await _lifespan(app, "shutdown")
    return results[0], results[1]


def _shape(answer: Answer) -> Any:
    """An answer that appended, less what differs between two apps (times, hashes,
    signatures, positions)."""
    status, headers, body = answer
    headers = {k: v for k, v in headers.items() if k != "content-length"}
    if status != 200:
        return status, headers, body
    events = [(e["version"], e["type"], e["audience"]) for e in body["events"]]
    return status, headers, sorted(body), body["version"], events, sorted(body["receipt"])


def test_refused_requests_get_the_same_problems(tmp_path: Path) -> None:
    undo = _BODIES[-1]  # Undo to version 1, at version 1: the rules refuse it

    async def play(side: Side) -> list[Answer]:
        good = _BODIES[0]
        return [
            await side.command(undo),  # the rules refuse it (422)
            await side.command(undo, [(b"prefer", b"return=minimal")]),
            await side.command(b"{"),  # not JSON
            await side.command(b""),  # no body: the signature's missing data
            await side.command(b"null"),
            await side.command(b'{"command": {"type": "EndStep"}, "extra": 1}'),
            await side.command(b'{"command": {"type": "Nope"}}'),
            await side.command(b'{"command": {"type": "x\xff"}}'),  # not UTF-8
            await side.command(b"[" * 60_000 + b"]" * 60_000),  # nested too deep
            await side.command(b'{"command": ' + b" " * 300_000 + b"{}}"),  # too large
            await side.command(good, [(b"content-type", b"text/plain")]),
            await side.command(good, [(b"content-length", b"999999999")]),
            await side.command(good, [(b"content-length", b"many")]),
            await side.command(good, key=None),
            await side.command(good, key="bk_not_a_key"),
            await side.command(good, [(b"authorization", b"Basic x")], key=None),
            await side.command(good, key="observer"),
            await side.command(good, battle="no-such-battle"),
            await side.command(good, battle="b" * 129),  # longer than a battle id may be
            await side.command(good, [(b"idempotency-key", b"k" * 201)]),
            await side.command(good, [(b"if-match", b"twelve")]),
            await side.command(good, [(b"if-match", b'"7"')]),  # the battle is at 1
            await side.command(good, [(b"if-match", b'"5", W/"1"')]),  # weak: never matches
            await side.command(b'{"command": {"type": "EndStep"}, "expected_version": 9}'),
            await side.command(good, [(b"host", b"bad host")]),
        ]

    lean, litestar = asyncio.run(_both(tmp_path, play))
    assert [a[0] for a in lean] == [a[0] for a in litestar]
    assert {a[0] for a in lean} == {400, 401, 403, 409, 412, 413, 415, 422}
    for mine, theirs in zip(lean, litestar, strict=True):
        assert mine == theirs


def test_commands_are_answered_the_same(tmp_path: Path) -> None:
    async def play(side: Side) -> list[Answer]:
        answers = []
        for i, body in enumerate(_BODIES[:12]):
            headers: list[tuple[bytes, bytes]] = []
            if i % 3 == 1:
                headers.append((b"prefer", b"return=minimal"))
            if i % 4 == 2:
                headers.append((b"idempotency-key", f"k-{i}".encode()))
            answers.append(await side.command(body, headers))
            if i % 4 == 2:  # the same again: the first answer, replayed
                answers.append(await side.command(body, headers))
        tag = f'"{answers[-1][2]["version"]}"'.encode()  # the version it is at
        answers.append(await side.command(_BODIES[12], [(b"if-match", tag)]))
        return answers

    lean, litestar = asyncio.run(_both(tmp_path, play))
    assert all(a[0] == 200 for a in lean)
    assert any(a[2].get("replayed") for a in lean)
    assert any("preference-applied" in a[1] for a in lean)
    assert [_shape(a) for a in lean] == [_shape(a) for a in litestar]


def test_rate_limits_count_and_refuse_the_same(tmp_path: Path) -> None:
    async def play(side: Side) -> list[Answer]:
        answers = [await side.command(body) for body in _BODIES[:3]]  # the third: 429
        answers += [await side.command(_BODIES[0], key="bk_guess") for _ in range(3)]
        return answers

    env = {"BATTLE_LIMIT_PER_KEY": "2", "BATTLE_LIMIT_AUTH_FAILURES": "2"}
    lean, litestar = asyncio.run(_both(tmp_path, play, **env))
    assert [a[0] for a in lean] == [200, 200, 429, 401, 401, 429]
    assert "ratelimit-remaining" in lean[0][1]
    assert lean[2][1]["retry-after"] == "<seconds>"
    assert [_shape(a) for a in lean] == [_shape(a) for a in litestar]


def test_only_a_plain_command_request_takes_the_lean_path(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, "spy", BATTLE_CORS_ORIGINS="http://vtt.test"))
    handler = app.asgi_handler
    assert isinstance(handler, CommandPath)
    passed: list[str] = []
    litestar = handler.inner

    async def spied(scope: Any, receive: Any, send: Any) -> None:
        passed.append(scope["path"])
        await litestar(scope, receive, send)

    handler.inner = spied

    async def play() -> list[Answer]:
        await _lifespan(app, "startup")
        try:
            side = Side(app)
            await side.create()
            passed.clear()
            path = f"/battles/{side.battle}/commands"
            answers = [await side.command(_BODIES[0])]
            # Only the first Host header counts, as Litestar's router reads it.
            hosts = [(b"host", b"battles.test"), (b"host", b"bad host")]
            answers.append(await side.command(_BODIES[1], hosts))
            assert passed == []  # the lean path's
            # A root path Litestar takes off the path: "/b" leaves "attles/...", no route.
            answers.append(await side.command(_BODIES[2], root_path="/b"))
            assert answers.pop()[0] == 404
            assert passed == [path]
            passed.clear()
            answers += [
                await side.command(_BODIES[2], [(b"origin", b"http://vtt.test")]),
                await side.command(_BODIES[3], root_path="/api", path=f"/api{path}"),
                await side.command(_BODIES[4], path=f"{path}/"),
                await side.command(_BODIES[5], path=f"{path}/batch"),
                await side.command(_BODIES[5], method="PUT"),
            ]
            return answers
        finally:
            await _lifespan(app, "shutdown")

    answers = asyncio.run(play())
    assert len(passed) == 5  # all Litestar's
    assert answers[2][1]["access-control-allow-origin"] == "http://vtt.test"
    assert [a[0] for a in answers] == [200, 200, 200, 200, 200, 400, 405]


@pytest.mark.parametrize(
    ("path", "battle_id"),
    [
        ("/battles/b-1/commands", "b-1"),
        ("/battles/b/commands", "b"),
        ("/battles/" + "x" * 128 + "/commands", "x" * 128),
        ("/battles/" + "x" * 129 + "/commands", None),
        ("/battles//commands", None),
        ("/battles/a/b/commands", None),
        ("/battles/b-1/commands/", None),
        ("/battles/b-1/commands/batch", None),
        ("/battles/b-1", None),
        ("/battles/commands", None),
        ("battles/b-1/commands", None),
    ],
)
def test_command_path_reads_the_battle_id_of_the_route_only(
    path: str, battle_id: str | None
) -> None:
    assert command_path(path) == battle_id


def test_an_app_the_lean_path_cannot_stand_for_is_refused(tmp_path: Path) -> None:
    app = create_app(_settings(tmp_path, "hooks"))
    app.before_send.append(lambda message, scope: None)  # type: ignore[arg-type, return-value]
    with pytest.raises(ValueError, match="before_send"):
        lean_commands(app)

    @post("/battles/special/commands")
    async def special() -> None:
        return None

    shadowed = create_app(_settings(tmp_path, "shadowed"))
    shadowed.register(special)
    with pytest.raises(ValueError, match="special"):
        lean_commands(shadowed)


def test_an_error_after_the_answer_started_is_not_answered_again(tmp_path: Path) -> None:
    """As Litestar's exception layer: an error once the answer has started (here a
    middleware's, after the handler answered or refused) is raised, not answered twice."""
    app = create_app(_settings(tmp_path, "late"))

    def late_failure(app: Any) -> Any:
        async def middleware(scope: Any, receive: Any, send: Any) -> None:
            routed.append({k: scope[k] for k in ("path_params", "path_template", "route_handler")})
            await app(scope, receive, send)
            raise RuntimeError("after the answer")

        return middleware

    routed: list[dict[str, Any]] = []
    hooked: list[tuple[Exception, Any]] = []

    async def after_exception(exc: Exception, scope: Any) -> None:
        hooked.append((exc, scope))

    app.middleware.insert(0, late_failure)  # the lean path's stack is made from it below
    app.after_exception.append(after_exception)
    lean = CommandPath(app, app.asgi_handler)

    async def play() -> list[list[Message]]:
        await _lifespan(app, "startup")
        try:
            side = Side(app)
            await side.create()
            runs = []
            for body in (_BODIES[0], b"{"):  # answered, then refused
                sent: list[Message] = []

                async def send(message: Message, sent: list[Message] = sent) -> None:
                    sent.append(message)

                async def receive(body: bytes = body) -> Message:
                    return {"type": "http.request", "body": body, "more_body": False}

                path = f"/battles/{side.battle}/commands"
                scope = {
                    "type": "http", "method": "POST", "path": path, "raw_path": path.encode(),
                    "root_path": "", "query_string": b"", "client": ("10.0.0.1", 1),
                    "app": app, "litestar_app": app, "state": {},
                    "headers": [(b"authorization", f"Bearer {side.key}".encode())],
                }  # fmt: skip
                with pytest.raises(
                    LitestarException, match=r"^Exception caught after response started$"
                ):
                    await lean(scope, receive, send)
                runs.append(sent)
            return runs
        finally:
            await _lifespan(app, "shutdown")

    runs = asyncio.run(play())
    assert [[m["type"] for m in sent] for sent in runs] == [
        ["http.response.start", "http.response.body"]
    ] * 2
    assert [sent[0]["status"] for sent in runs] == [200, 400]
    # The scope as Litestar's router leaves it for the route's middleware.
    handler = lean.handler
    assert handler.operation_id == "postCommand"
    assert routed[0]["path_template"] == "/battles/{battle_id}/commands"
    assert all(r["route_handler"] is handler for r in routed)
    battle = routed[0]["path_params"]["battle_id"]
    assert all(r["path_params"] == {"battle_id": battle} for r in routed)
    # The app's after-exception hooks hear of the refusal (the late error is raised: the
    # answer had started).
    assert [type(exc).__name__ for exc, _ in hooked] == ["ClientException"]
    assert hooked[0][1]["path"] == f"/battles/{battle}/commands"


def test_an_app_without_the_command_route_is_refused() -> None:
    @post("/other")
    async def other() -> None:
        return None

    with pytest.raises(LookupError, match=r"^no route /battles/\{battle_id:str\}/commands$"):
        lean_commands(Litestar([other]))
