"""What every reader of a battle is given, checked against the referee's whole log: each
event it may not see is handed sealed (its links and audience, nothing else) in the log, in
the command answers it received and in its view, and the chain of what it was given verifies
(by the service and by the client's own audit); the battle's SSE stream and the global
stream hand the same as the log. Shared by the hidden-information properties
of every ruleset (issue 16).

Not only the whole of a sealed event is looked for in what the reader was given: each of
its string leaves (an id, a reason, a tactic...) that the reader reads nowhere else (in no
event it may see, no word of the ruleset's schemas, not in its views right before the
sealed events) must be nowhere in its texts either (its log, its answers, its view now
and right after the sealed events, awaiting prompts included): one leaked field passes a
whole-JSON check. The field-level property over every state, with
the worlds a reader cannot tell apart, is tests/unit/<ruleset>/test_view_hidden.py."""

from __future__ import annotations

import json
from typing import Any

from events.verify import audit_log, decode_read
from tests.e2e.battle_client import Battle
from tests.e2e.sealed_kit import raw_events
from tests.support.forge import stub_body_of
from tests.support.sse import take

__all__ = ["SEALED_KEYS", "check_reads", "sealed_of"]

SEALED_KEYS = {"version", "audience", "prev_hash", "hash", "body", "sealed"}


def sealed_of(e: dict[str, Any]) -> dict[str, Any]:
    """The stub of the whole event `e` (its body recomputed: chain format 2)."""
    return {**{k: e[k] for k in SEALED_KEYS - {"sealed", "body"}}, "body": stub_body_of(e),
            "sealed": True}  # fmt: skip


def _may_see(who: str, audience: str) -> bool:
    return audience == "all" or audience == f"side:{who}"


def check_reads(
    b: Battle,
    readers: list[str],
    answers: dict[str, list[dict[str, Any]]],
    *,
    unsealed: bool = False,
) -> int:
    """Check every reader (a side's name or "observer"); `answers[who]` holds the events of
    the command answers `who` was given. Answers how many events were hidden from someone."""
    full = b.events("referee")
    ruleset = b.view("referee")["ruleset"]
    vocabulary = _strings(b.http.get(f"/rulesets/{ruleset}").json())
    by_version = {e["version"]: e for e in full}
    hidden = [e for e in full if e["audience"] != "all"]
    assert all(len(e["salt"]) == 32 for e in hidden), "a hidden event without its salt"
    for who in readers:
        secret = [e for e in hidden if not unsealed and not _may_see(who, e["audience"])]
        rest = b.events(who)
        assert [e["version"] for e in rest] == [e["version"] for e in full]
        assert _streamed(b, who, len(full)) == rest  # the live stream hands the same
        first = full[0]["position"]
        assert _streamed(b, who, len(full), f"/events/stream?after={first - 1}") == rest
        for e, whole in zip(rest, full, strict=True):
            assert e == (sealed_of(whole) if whole in secret else whole), ("read", who, e)
        given = answers.get(who, [])
        for e in given:  # a command answer seals what its caller may not see (then)
            whole = by_version[e["version"]]
            hide = not _may_see(who, whole["audience"])
            assert e == (sealed_of(whole) if hide else whole), ("answer", who, e)
        view = b.http.get(f"/battles/{b.id}", headers=b.auth(who)).text
        text = json.dumps([rest, [e for e in given if e.get("sealed")]]) + view
        for e in secret:  # nothing of it anywhere: not its salt, its data or its time
            assert e["salt"] not in text, (who, e)
            assert json.dumps(e["data"]) not in text, (who, e)
        # ... nor any field of it the reader reads nowhere else, now or when it was new
        around = _views_around(b, who, sorted({e["version"] for e in secret}))
        for at, t in [*((v, after) for v, _, after in around), (full[-1]["version"], text)]:
            # what it may read anyway by then: the events it may see and the stubs
            # (checked above), the ruleset's words (its schemas' enums), and its views
            # right before sealed events
            seen = vocabulary | _strings([e for e in rest if e["version"] <= at])
            seen |= _strings([json.loads(before) for v, before, _ in around if v <= at])
            for e in secret:
                if e["version"] > at:
                    continue
                for s in _strings(e["data"], keys=False) - seen:  # as a whole JSON string
                    assert json.dumps(s) not in t, ("a sealed field leaked", who, at, e, s)
        report = b.http.get(f"/battles/{b.id}/verify", headers=b.auth(who))
        assert report.status_code == 200, report.text
        got = report.json()
        assert got["ok"] and got["chain_ok"] and got["events_sealed"] == len(secret), got
        own = audit_log(decode_read(raw_events(b, who)))
        assert own.ok and own.events_sealed == len(secret), own
    return len(hidden)


_VIEWS_AFTER = 6  # sealed events whose versions' views are read, at most (spread)


def _strings(obj: Any, keys: bool = True) -> set[str]:
    """Every string of `obj` (JSON: dicts' keys, unless not `keys`, and values, lists'
    items): what a reader reads, a skill's name as a key included; of a sealed event's
    data, its values only (a field's name tells nothing)."""
    out: set[str] = set()
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, str):
            out.add(o)
        elif isinstance(o, dict):
            if keys:
                out.update(k for k in o if isinstance(k, str))
            stack.extend(o.values())
        elif isinstance(o, list | tuple):
            stack.extend(o)
    return out


def _views_around(b: Battle, who: str, versions: list[int]) -> list[tuple[int, str, str]]:
    """`who`'s views (GET /state?version=) right before and right after some of
    `versions` (spread over them, `_VIEWS_AFTER` at most): after a sealed event is where a
    field of it would be freshest. (version, view before, view after) each."""
    step = max(1, -(-len(versions) // _VIEWS_AFTER))
    out = []
    for v in versions[::step]:
        texts = []
        for at in (v - 1, v):
            r = b.http.get(f"/battles/{b.id}/state", params={"version": at},
                           headers=b.auth(who))  # fmt: skip
            assert r.status_code == 200, r.text
            texts.append(r.text)
        out.append((v, texts[0], texts[1]))
    return out


def _streamed(b: Battle, who: str, count: int, path: str = "") -> list[Any]:
    """The first `count` events of the battle's SSE stream (or of `path`) as `who`."""
    url = path or f"/battles/{b.id}/events/stream?after=0"
    with b.http.stream("GET", url, headers=b.auth(who)) as r:
        return [e.data for e in take(r, count)]
