"""The narrative never splits a command: not where the log's pages end (read here one
event at a time), not at a `from` or a `to` that falls inside a command. Every entry is a
whole command, on every store."""

from __future__ import annotations

import msgspec
import pytest

from domain.actors import Actor
from events.store import EventStore
from service.battles.keys import Principal
from service.battles.service import BattleService
from service.battles.signing import ServiceKeys
from service.desk import narrative
from service.schemas import CommandRequest, CreateBattleRequest
from tests.support.quickstart_play import SETUP, next_command

REFEREE = Actor(role="referee")


async def _played(store: EventStore) -> tuple[BattleService, str]:
    service = BattleService(store, signing=ServiceKeys.generate())
    battle_id = (
        await service.create(CreateBattleRequest(ruleset="quickstart", setup=SETUP))
    ).battle_id
    principal = Principal(battle_id, REFEREE)
    for _ in range(12):
        view = await service.view(battle_id, REFEREE)
        _, command = next_command(msgspec.to_builtins(view.state))
        await service.execute(
            battle_id,
            principal,
            CommandRequest(command=msgspec.Raw(msgspec.json.encode(command))),
            None,
        )
    return service, battle_id


def _commands(service: BattleService, events: list[object]) -> list[tuple[int, int]]:
    """(first, last) version of each command in the log, by the command each event records
    (chain format 2: the heuristic of time and actor merged two commands of one
    millisecond, which 12 commands in a row here can be)."""
    spans: dict[int, list[int]] = {}
    for e in events:
        spans.setdefault(e.command_version, []).append(e.version)  # type: ignore[attr-defined]
    return sorted((min(v), max(v)) for v in spans.values())


async def test_a_command_across_the_logs_pages_is_one_entry(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    service, battle_id = await _played(store)
    whole = await narrative.narrate(service, battle_id, REFEREE, 1, None, 200)
    monkeypatch.setattr(narrative, "_PAGE", 1)  # every command's events on pages of their own
    paged = await narrative.narrate(service, battle_id, REFEREE, 1, None, 200)
    assert msgspec.json.encode(paged) == msgspec.json.encode(whole)
    log = (await service.events(battle_id, REFEREE, 0, 1000)).events
    spans = _commands(service, log)
    assert [(e.first_version, e.last_version) for e in whole.entries] == spans
    assert any(last > first for first, last in spans)  # some command appended several


async def test_from_and_to_inside_a_command_widen_to_the_whole_command(store: EventStore) -> None:
    service, battle_id = await _played(store)
    log = (await service.events(battle_id, REFEREE, 0, 1000)).events
    first, last = next((a, b) for a, b in _commands(service, log) if b > a > 1)
    for start, end in ((first + 1, None), (first, first), (last, last), (last, None)):
        told = await narrative.narrate(service, battle_id, REFEREE, start, end, 200)
        spans = [(e.first_version, e.last_version) for e in told.entries]
        assert (first, last) in spans, (start, end, spans)
        assert told.from_version <= first and told.to_version >= last
        if end is not None:
            assert spans[-1] == (first, last)
    # a page cut by `limit` goes on where the next command begins
    one = await narrative.narrate(service, battle_id, REFEREE, first + 1, None, 1)
    assert [(e.first_version, e.last_version) for e in one.entries] == [(first, last)]
    assert one.next_from == last + 1
