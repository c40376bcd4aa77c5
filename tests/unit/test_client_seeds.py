"""Client seeds per side: SetClientSeed decided, folded into the battle, mixed into every
later server die, and checked by the log audit."""

from __future__ import annotations

import msgspec
import pytest

from domain.actors import Actor
from domain.battle import BattleCreated, ClientSeedSet, Timeline
from domain.battle_commands import SetClientSeed, decide_battle_command
from domain.dice import ServerDice, client_seed_for, commitment, derive_value
from domain.errors import NotPermitted
from domain.rulesets import get_ruleset
from events.chain import encode_event, seal
from events.envelope import EventActor, StoredEvent
from events.verify import audit_log
from tests.support.quickstart_play import SETUP

SEED = bytes(range(32))
BATTLE = "b-seeds"


def _timeline() -> Timeline:
    ruleset = get_ruleset("quickstart")
    assert ruleset is not None
    setup = msgspec.convert(SETUP, ruleset.setup_type)
    timeline = Timeline(ruleset)
    timeline.extend_decoded(
        [
            BattleCreated(
                battle_id=BATTLE,
                title="",
                ruleset=ruleset.id,
                ruleset_version=ruleset.version,
                options=msgspec.to_builtins(ruleset.options_type()),
                setup=msgspec.to_builtins(setup),
                sides=ruleset.side_ids(setup),
                client_dice="referee",
                dice_epoch=1,
                dice_commitment=commitment(SEED),
            )
        ]
    )
    return timeline


def test_a_side_sets_its_own_seed_and_no_one_else_may() -> None:
    timeline = _timeline()
    battle = timeline.current
    assert battle is not None
    side = battle.meta.created.sides[0]
    events = decide_battle_command(
        battle, SetClientSeed(seed="lucky"), Actor(role="side", side=side)
    )
    assert events == [ClientSeedSet(side=side, seed="lucky")]
    for actor in (Actor(role="referee"), Actor(role="observer")):
        with pytest.raises(NotPermitted, match="only a side"):
            decide_battle_command(battle, SetClientSeed(seed="x"), actor)


def test_the_latest_seed_of_each_side_is_kept_and_never_undone() -> None:
    timeline = _timeline()
    timeline.extend_decoded(
        [
            ClientSeedSet(side="north", seed="a"),
            ClientSeedSet(side="south", seed="b"),
            ClientSeedSet(side="north", seed="c"),
        ]
    )
    assert timeline.current is not None
    assert timeline.current.meta.client_seeds == {"north": "c", "south": "b"}
    assert timeline.state_at(2).meta.client_seeds == {"north": "a"}
    assert timeline.state_at(1).meta.client_seeds == {}


def test_the_combined_client_seed_is_the_documented_canonical_json() -> None:
    assert client_seed_for("mine", {}) == "mine"  # no side seed: the derivation as before
    combined = client_seed_for("mine", {"south": "b", "north": "a"})
    assert combined == '{"command":"mine","sides":{"north":"a","south":"b"}}'
    dice = [derive_value(SEED, BATTLE, 5, i, combined, 6) for i in range(40)]
    assert dice != [derive_value(SEED, BATTLE, 5, i, "mine", 6) for i in range(40)]


def _log(roll_client_seed: str, set_seed: bool = True) -> list[StoredEvent]:
    """BattleCreated, (ClientSeedSet north), a server roll, the seed revealed."""
    created = {"dice_epoch": 1, "dice_commitment": commitment(SEED)}
    items: list[tuple[str, bytes]] = [("BattleCreated", msgspec.json.encode(created))]
    if set_seed:
        items.append(("ClientSeedSet", encode_event(ClientSeedSet(side="north", seed="n1"))))
    version = len(items) + 1
    dice = ServerDice(
        seed=SEED, epoch=1, battle_id=BATTLE, version=version, client_seed=roll_client_seed
    )
    roll = dice.roll_many(8, 6, "attack")
    items.append(("Attacked", msgspec.json.encode({"type": "Attacked", "roll": roll})))
    items.append(("DiceSeedRevealed", msgspec.json.encode({"epoch": 1, "seed": SEED.hex()})))
    events = []
    prev = "0" * 64
    for v, (type_, data) in enumerate(items, start=1):
        [pending] = seal(
            battle_id=BATTLE,
            prev_version=v - 1,
            prev_hash=prev,
            items=[(type_, data, "all")],
            recorded_at="2026-01-01T00:00:00.000Z",
            actor=EventActor(role="referee"),
            command_id=None,
        )
        prev = pending.hash
        events.append(StoredEvent(position=v, **msgspec.structs.asdict(pending)))
    return events


def test_the_audit_checks_each_die_used_the_sides_seeds() -> None:
    ok = audit_log(_log(client_seed_for("cmd", {"north": "n1"})))
    assert ok.ok and ok.dice_checked == 8
    assert audit_log(_log("cmd", set_seed=False)).ok  # before any side seed: the command's
    # A server that ignored north's seed, its dice otherwise honest: caught.
    ignored = audit_log(_log("cmd"))
    assert not ignored.dice_ok
    assert ignored.failed_version == 3
    assert "client seeds" in (ignored.reason or "")
    stale = audit_log(_log(client_seed_for("cmd", {"north": "old"})))
    assert not stale.dice_ok
