"""`CommandAnswer` sends what Litestar's own `Response` sends for the same content, and
hands anything more (headers, cookies, background tasks, another media type) to it."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import msgspec
import pytest
from litestar import Request, Response
from litestar.background_tasks import BackgroundTask
from litestar.datastructures import Cookie
from litestar.exceptions import ImproperlyConfiguredException, LitestarDeprecationWarning

from service.battles.signing import ServiceKeys
from service.http.command_body import CommandAnswer
from service.schemas import CommandResponse, EventActorOut, EventOut

Message = dict[str, Any]
_KEYS = ServiceKeys.generate()


def _sent(app: Any) -> list[Message]:
    messages: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        messages.append(message)

    asyncio.run(app({"type": "http", "method": "POST"}, receive, send))
    return messages


def _answer(events: int) -> CommandResponse:
    return CommandResponse(
        battle_id="b-1",
        version=3 + events,
        events=[
            EventOut(
                battle_id="b-1",
                ruleset="warfare",
                version=4 + i,
                position=10 + i,
                type="UnitMoved",
                data=msgspec.Raw(b'{"type":"UnitMoved","unit":"a\\u00e9","to":[1,2]}'),
                audience="side:red" if i % 2 else "all",
                recorded_at="2026-11-22T10:00:00.123Z",
                actor=EventActorOut(role="side", side="red" if i % 2 else None),
                command_id=None if i % 2 else "k-é",
                prev_hash="0" * 64,
                hash=f"{i:064x}",
            )
            for i in range(events)
        ],
        replayed=bool(events % 2),
        receipt=_KEYS.receipt("b-1", 3 + events, f"{events:064x}"),
    )


def test_it_sends_the_same_messages_as_litestars_response() -> None:
    for events in (0, 1, 4):
        for status in (200, 201):
            content = _answer(events)
            fast = CommandAnswer(content, status_code=status).to_asgi_response(None, None)  # type: ignore[arg-type]
            general = Response(content, status_code=status).to_asgi_response(None, None)  # type: ignore[arg-type]
            assert _sent(fast) == _sent(general)


def test_headers_cookies_and_background_tasks_go_through_litestars_response() -> None:
    ran: list[str] = []

    async def task() -> None:
        ran.append("done")

    answer = CommandAnswer(_answer(1), background=BackgroundTask(task))
    sent = _sent(
        answer.to_asgi_response(
            None,
            None,  # type: ignore[arg-type]
            headers={"x-trace": "t-1"},
            cookies=[Cookie(key="c", value="v")],
        )
    )
    headers = dict(sent[0]["headers"])
    assert headers[b"x-trace"] == b"t-1"
    assert headers[b"set-cookie"].startswith(b"c=v")
    assert ran == ["done"]
    assert sent[1]["body"] == msgspec.json.encode(_answer(1))


def test_another_media_type_goes_through_litestars_response() -> None:
    answer = CommandAnswer("ready", media_type="text/plain")
    sent = _sent(answer.to_asgi_response(None, None))  # type: ignore[arg-type]
    assert dict(sent[0]["headers"])[b"content-type"] == b"text/plain; charset=utf-8"
    assert sent[1]["body"] == b"ready"


def test_a_preference_applied_header_is_sent_as_litestars_response_sends_it() -> None:
    content = _answer(1)
    applied = {"Preference-Applied": "return=minimal"}
    fast = CommandAnswer(content, headers=applied).to_asgi_response(None, None)  # type: ignore[arg-type]
    general = Response(content, headers=applied).to_asgi_response(None, None)  # type: ignore[arg-type]
    assert _sent(fast) == _sent(general)
    assert dict(_sent(fast)[0]["headers"])[b"preference-applied"] == b"return=minimal"


def test_a_route_answering_it_skips_litestars_response(monkeypatch: Any) -> None:
    """Litestar's handler hands `to_asgi_response` the route's media type, status code and
    type encoders: the answer still takes the fast path (once it silently did not)."""
    from litestar import Litestar, post
    from litestar.datastructures import ResponseHeader
    from litestar.testing import TestClient

    from service.http.prefer import APPLIED

    @post(
        "/c",
        response_class=CommandAnswer,
        response_headers=[
            ResponseHeader(name="Preference-Applied", required=False, documentation_only=True)
        ],
        status_code=200,
    )
    async def command(request: Request[Any, Any, Any]) -> Response[CommandResponse]:
        minimal = request.query_params.get("minimal") == "1"
        return CommandAnswer(_answer(2), headers=APPLIED if minimal else None)

    def general(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the answer went through Litestar's Response")

    with TestClient(Litestar([command])) as client:
        monkeypatch.setattr(Response, "to_asgi_response", general)
        for minimal in (False, True):
            answer = client.post("/c", params={"minimal": "1" if minimal else "0"})
            assert answer.status_code == 200
            assert answer.content == msgspec.json.encode(_answer(2))
            assert answer.headers["content-type"] == "application/json"
            assert ("preference-applied" in answer.headers) is minimal


def test_what_litestar_hands_it_to_send_takes_litestars_response() -> None:
    """Headers, cookies, a background task or a HEAD handed to `to_asgi_response` (by a
    route or a layer, not given to the answer itself) are sent, through Litestar's path."""
    ran: list[str] = []

    async def task() -> None:
        ran.append("done")

    content = _answer(1)
    body = msgspec.json.encode(content)
    cases: list[tuple[dict[str, Any], Any]] = [
        ({"headers": {"x-given": "1"}}, lambda s: dict(s[0]["headers"])[b"x-given"] == b"1"),
        (
            {"cookies": [Cookie(key="g", value="1")]},
            lambda s: dict(s[0]["headers"])[b"set-cookie"].startswith(b"g=1"),
        ),
        ({"encoded_headers": [(b"x-enc", b"1")]}, lambda s: (b"x-enc", b"1") in s[0]["headers"]),
        ({"background": BackgroundTask(task)}, lambda s: ran == ["done"]),
    ]
    for given, check in cases:
        with warnings.catch_warnings():  # encoded_headers: deprecated, still handed on
            warnings.simplefilter("ignore", LitestarDeprecationWarning)
            sent = _sent(CommandAnswer(content).to_asgi_response(None, None, **given))
        assert check(sent), given
        assert sent[1]["body"] == body
    # A HEAD: Litestar refuses to send content in answer to it, where the fast path would.
    with pytest.raises(ImproperlyConfiguredException, match="HEAD"):
        CommandAnswer(content).to_asgi_response(None, None, is_head_response=True)
