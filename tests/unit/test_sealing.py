"""service.battles.sealing: which events a reader is handed whole and which sealed, what a
sealed event keeps (its links, nothing of what it says), and the salts that make a hidden
event's hash unguessable (issue 38: the service's trust code under mutation testing)."""

from __future__ import annotations

import msgspec
import pytest

from domain.actors import Actor
from domain.battle import BattleCreated, BattleMeta
from events.chain import event_hash, seal, stub_body
from events.envelope import GENESIS_HASH, EventActor, SealedEvent, StoredEvent
from events.verify import audit_log
from service.battles.sealing import (
    SALT_BYTES,
    Sealer,
    draw_salts,
    event_out,
    reader_log,
    sealed_out,
    unsealed_upto,
)
from service.schemas import EventOut, SealedEventOut

B = "battle-sealing"
AUDIENCES = ["all", "side:red", "referee", "side:blue", "all"]


def _log(command_version: int | None = 1, dispute: str | None = None) -> list[StoredEvent]:
    """Five chained events, the hidden ones salted; positions differ from versions."""
    pending = seal(
        battle_id=B,
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[(f"T{v}", b'{"v":%d}' % v, a) for v, a in enumerate(AUDIENCES, start=1)],
        recorded_at="2026-11-29T04:00:00Z",
        actor=EventActor(role="side", side="red", key_id="k1", label="Ann"),
        command_id="cmd-1",
        salts=draw_salts(AUDIENCES),
        command_version=command_version,
        dispute=dispute,
    )
    return [StoredEvent(position=100 + p.version, **msgspec.structs.asdict(p)) for p in pending]


def _meta(*, reveal: bool, ended_at: int | None) -> BattleMeta:
    created = BattleCreated(
        battle_id=B, title="t", ruleset="quickstart", ruleset_version="1", options={},
        setup={}, sides=["red", "blue"], client_dice="none", dice_epoch=1,
        dice_commitment="c", reveal_hidden_on_end=reveal,
    )  # fmt: skip
    return BattleMeta(created=created, dice_epoch=1, commitments={}, revealed={}, ended_at=ended_at)


def test_salts_only_for_the_events_some_reader_may_not_see() -> None:
    assert draw_salts(["all", "all"]) is None
    assert draw_salts([]) is None
    salts = draw_salts(["all", "side:red", "referee", "all"])
    assert salts is not None
    assert salts[0] is None and salts[3] is None
    for salt in (salts[1], salts[2]):
        assert salt is not None and len(salt) == 2 * SALT_BYTES == 32
        int(salt, 16)  # hex
    assert salts[1] != salts[2]  # drawn afresh for each event
    again = draw_salts(["side:red"])
    assert again is not None and again[0] != salts[1]


@pytest.mark.parametrize(
    ("reveal", "ended_at", "upto"),
    [(True, 7, 7), (True, None, 0), (False, 7, 0), (False, None, 0)],
)
def test_a_battle_is_unsealed_up_to_its_end_only_if_it_reveals_on_end(
    reveal: bool, ended_at: int | None, upto: int
) -> None:
    assert unsealed_upto(_meta(reveal=reveal, ended_at=ended_at)) == upto


@pytest.mark.parametrize("command_version", [1, None])
def test_a_whole_event_carries_every_field_its_hash_commits_to(
    command_version: int | None,
) -> None:
    for ev in _log(command_version, "d-1"):
        out = event_out(ev, "quickstart")
        assert isinstance(out, EventOut)
        assert out.battle_id == B and out.ruleset == "quickstart"
        assert (out.version, out.position, out.type) == (ev.version, ev.position, ev.type)
        assert bytes(out.data) == ev.data
        assert (out.audience, out.recorded_at) == (ev.audience, ev.recorded_at)
        assert (out.actor.role, out.actor.side) == ("side", "red")
        assert (out.actor.label, out.actor.key_id) == ("Ann", "k1")
        assert (out.command_id, out.prev_hash, out.hash) == ("cmd-1", ev.prev_hash, ev.hash)
        assert out.salt == ev.salt
        assert out.command_version == command_version
        assert out.dispute == (ev.dispute if ev.dispute is not None else msgspec.UNSET)
        assert out.undone is False
        assert event_out(ev, "quickstart", undone=True).undone is True
        # what a reader is handed is enough to recompute the hash
        actor = EventActor(
            role=out.actor.role, side=out.actor.side, label=out.actor.label,
            key_id=out.actor.key_id,
        )  # fmt: skip
        assert ev.hash == event_hash(
            battle_id=out.battle_id, version=out.version, type=out.type,
            audience=out.audience, recorded_at=out.recorded_at, actor=actor,
            command_id=out.command_id, prev_hash=out.prev_hash, data=bytes(out.data),
            salt=out.salt, command_version=out.command_version,
            dispute=None if isinstance(out.dispute, msgspec.UnsetType) else out.dispute,
        )  # fmt: skip


def test_a_sealed_event_keeps_its_links_and_nothing_it_says() -> None:
    for ev in _log():
        out = sealed_out(ev)
        assert out == SealedEventOut(
            version=ev.version, audience=ev.audience, prev_hash=ev.prev_hash, hash=ev.hash,
            sealed=True, body=stub_body(ev),
        )  # fmt: skip
        assert out.body is not None
        assert set(msgspec.json.decode(msgspec.json.encode(out))) == {
            "version", "audience", "prev_hash", "hash", "sealed", "body",
        }  # fmt: skip


READERS = {
    "referee": Actor(role="referee"),
    "red": Actor(role="side", side="red"),
    "blue": Actor(role="side", side="blue"),
    "observer": Actor(role="observer"),
}
# versions each reader sees whole (AUDIENCES: all, side:red, referee, side:blue, all)
SEEN = {"referee": {1, 2, 3, 4, 5}, "red": {1, 2, 5}, "blue": {1, 4, 5}, "observer": {1, 5}}


@pytest.mark.parametrize("reader", sorted(READERS))
def test_each_reader_is_handed_whole_only_what_it_may_see(reader: str) -> None:
    log = _log()
    sealer = Sealer(READERS[reader], 0, "quickstart")
    assert {ev.version for ev in log if sealer.sees(ev)} == SEEN[reader]
    for ev in log:
        out = sealer.out(ev)
        assert isinstance(out, EventOut) == (ev.version in SEEN[reader])
        if isinstance(out, EventOut):
            assert out == event_out(ev, "quickstart")
            assert sealer.out(ev, undone=True).undone is True  # type: ignore[union-attr]
        else:
            assert out == sealed_out(ev)
    given = reader_log(log, sealer)
    for ev, item in zip(log, given, strict=True):
        if ev.version in SEEN[reader]:
            assert item is ev
        else:
            assert item == SealedEvent(
                version=ev.version, audience=ev.audience, prev_hash=ev.prev_hash,
                hash=ev.hash, body=stub_body(ev),
            )  # fmt: skip
    audit = audit_log(given)  # the reader can check every link it was given
    assert audit.ok and audit.events_sealed == 5 - len(SEEN[reader])


@pytest.mark.parametrize("upto", [2, 3, 5])
def test_an_ended_battle_hands_everything_up_to_its_end_whole(upto: int) -> None:
    log = _log()
    sealer = Sealer(READERS["observer"], upto, "skirmish")
    whole = {ev.version for ev in log if sealer.sees(ev)}
    assert whole == set(range(1, upto + 1)) | SEEN["observer"]
    for ev in log:
        out = sealer.out(ev)
        assert isinstance(out, EventOut) == (ev.version in whole)
        if isinstance(out, EventOut):
            assert out.ruleset == "skirmish"
    assert [isinstance(item, StoredEvent) for item in reader_log(log, sealer)] == [
        ev.version in whole for ev in log
    ]
