"""The dice half of the audit (events.dice_audit) where `audit_log`'s tests do not reach:
an imported battle's dice derive from the ids of the battles that rolled them, the sides'
seeds in force for a command are those set strictly before it, a dice fact that cannot be
read is named, and a text that is not JSON is refused before its rolls are read."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.dice import Roll, client_seed_for, commitment, derive_value
from events.dice_audit import DiceAudit, DiceFailure, may_hold_rolls, rolls_in_data
from events.envelope import StoredEvent
from events.verify import LogAudit, audit_log
from tests.support.sealed_logs import sealed_log

S1, S2 = bytes(range(32)), bytes(range(1, 33))
SIDES = 10**9  # two ids giving the same die by chance: one in a billion
B, ORIGIN, OLDER = "battle-d", "battle-origin", "battle-older"


def server(version: int, battle_id: str = B, *, epoch: int = 1, **over: Any) -> dict[str, Any]:
    """One server die of the command at `version`, derived with `battle_id`'s id."""
    client = over.get("client_seed", "")
    roll = {
        "kind": "roll",
        "sides": SIDES,
        "values": [derive_value(S1, battle_id, version, 0, client, SIDES)],
        "purpose": "attack",
        "source": "server",
        "epoch": epoch,
        "version": version,
        "index": 0,
        "client_seed": client,
    }
    return roll | over


def log(*items: tuple[str, dict[str, Any]]) -> list[StoredEvent]:
    return sealed_log(B, items)


def created(**extra: Any) -> tuple[str, dict[str, Any]]:
    return "BattleCreated", {"dice_epoch": 1, "dice_commitment": commitment(S1), **extra}


REVEALED = ("DiceSeedRevealed", {"epoch": 1, "seed": S1.hex(), "reason": "battle-over"})

# As an import records them (service.desk.importing), oldest first; here out of order, and with
# spans that are not spans, which name no battle.
IMPORTED = {
    "battle_id": ORIGIN,
    "dice_ids": [
        {"upto": 4, "battle_id": ORIGIN},
        "not a span",
        {"upto": "9", "battle_id": "battle-bad"},
        {"upto": 9, "battle_id": 5},
        {"upto": 2, "battle_id": OLDER},
    ],
}


def imported(*dice: tuple[int, str]) -> list[StoredEvent]:
    """An imported battle whose events 2.. each roll one die, derived with the given id."""
    return log(
        created(imported_from=IMPORTED),
        *[("Attacked", {"roll": server(v, battle_id)}) for v, battle_id in dice],
        REVEALED,
    )


def test_an_imported_battles_dice_derive_from_the_battle_that_rolled_each() -> None:
    """Up to and including a span's `upto`, its battle's id; after the last span, the
    battle's own."""
    events = imported((2, OLDER), (3, ORIGIN), (4, ORIGIN), (5, B))
    assert audit_log(events) == LogAudit(
        events_checked=6, chain_ok=True, dice_ok=True, dice_checked=4, dice_pending=0, client_dice=0
    )


@pytest.mark.parametrize(
    ("dice", "bad"),
    [
        ([(2, ORIGIN)], 2),  # the older battle rolled it
        ([(2, OLDER), (3, OLDER)], 3),
        ([(2, OLDER), (3, ORIGIN), (4, B)], 4),  # a span's last version is still its own
        ([(2, OLDER), (3, ORIGIN), (4, ORIGIN), (5, ORIGIN)], 5),  # rolled here, after import
    ],
)
def test_a_die_derived_with_another_battles_id_is_named(
    dice: list[tuple[int, str]], bad: int
) -> None:
    audit = audit_log(imported(*dice))
    assert (audit.chain_ok, audit.dice_ok, audit.failed_version) == (True, False, bad)
    assert (audit.reason or "").startswith(f"die 0 of roll {bad} (attack) shows ")


def test_a_battle_not_imported_derives_every_die_from_its_own_id() -> None:
    events = log(created(imported_from=None), ("Attacked", {"roll": server(2)}), REVEALED)
    assert audit_log(events).ok
    odd = {"dice_ids": {"upto": 9, "battle_id": ORIGIN}}  # not a list: no span
    events = log(created(imported_from=odd), ("Attacked", {"roll": server(2)}), REVEALED)
    assert audit_log(events).ok


def test_the_sides_seeds_in_force_are_those_set_strictly_before_the_command() -> None:
    audit = DiceAudit()
    assert audit.expected_sides(1) == {}
    audit.fact(3, "ClientSeedSet", {"side": "north", "seed": "n1"})
    audit.fact(5, "ClientSeedSet", {"side": "south", "seed": "s1"})
    audit.fact(6, "ClientSeedSet", {"side": "north", "seed": "n2"})
    assert audit.expected_sides(3) == {}
    assert audit.expected_sides(4) == {"north": "n1"}
    assert audit.expected_sides(6) == {"north": "n1", "south": "s1"}
    assert audit.expected_sides(7) == {"north": "n2", "south": "s1"}


def _refused(audit: DiceAudit, version: int, roll: dict[str, Any]) -> DiceFailure:
    with pytest.raises(DiceFailure) as caught:
        audit.rolls(version, [roll])
    return caught.value


def test_a_die_must_name_the_sides_seeds_in_its_client_seed() -> None:
    audit = DiceAudit()
    audit.battle_id(B)
    audit.fact(1, "BattleCreated", created()[1])
    audit.fact(2, "ClientSeedSet", {"side": "north", "seed": "n1"})
    combined = client_seed_for("cmd", {"north": "n1"})
    audit.rolls(3, [server(3, client_seed=combined)])
    why = "roll 4/0 (attack) did not use the client seeds the sides had set: {'north': 'n1'}"
    for seed in [
        5,  # not a text
        "cmd",  # the command's own seed alone
        "{not json",
        '"cmd"',  # JSON, not an object
        '{"command": 5, "sides": {"north": "n1"}}',  # no command seed
        client_seed_for("cmd", {"north": "n0"}),  # a seed north had replaced
    ]:
        failure = _refused(audit, 4, server(4, client_seed=seed))
        assert (failure.version, failure.reason) == (4, why)
        assert str(failure) == f"version 4: {why}"
    audit.rolls(4, [server(4, client_seed=client_seed_for("other", {"north": "n1"}))])
    assert (audit.checked, audit.pending) == (0, 2)  # epoch 1 is not revealed


def test_before_any_side_seed_a_die_may_use_any_client_seed_but_must_name_one() -> None:
    audit = DiceAudit()
    audit.fact(1, "BattleCreated", created()[1])
    audit.rolls(2, [server(2, client_seed="anything")])
    assert audit.pending == 1
    failure = _refused(audit, 3, server(3, client_seed=None))
    assert failure.reason.startswith("roll 3/0 (attack) did not use the client seeds")


@pytest.mark.parametrize(
    ("type_", "data"),
    [
        ("BattleCreated", {"dice_commitment": "c"}),
        ("BattleCreated", None),
        ("DiceSeedRevealed", {"seed": S1.hex()}),
        ("DiceSeedRevealed", [1]),
        ("DiceEpochStarted", {"epoch": 2}),
        ("DiceEpochStarted", "x"),
        ("ClientSeedSet", "x"),
    ],
)
def test_a_dice_fact_that_cannot_be_read_is_named(type_: str, data: Any) -> None:
    audit = DiceAudit()
    with pytest.raises(DiceFailure) as caught:
        audit.fact(7, type_, data)
    assert (caught.value.version, caught.value.reason) == (7, f"the {type_} event is malformed")
    assert str(caught.value) == f"version 7: the {type_} event is malformed"


def test_an_epoch_started_mid_battle_is_checked_once_revealed() -> None:
    events = log(
        created(),
        ("DiceEpochStarted", {"epoch": 2, "commitment": commitment(S2)}),
        ("Attacked", {"roll": server(3, epoch=2, values=[derive_value(S2, B, 3, 0, "", SIDES)])}),
        ("DiceSeedRevealed", {"epoch": 2, "seed": S2.hex(), "reason": "battle-over"}),
    )
    audit = audit_log(events)
    assert (audit.ok, audit.dice_checked, audit.dice_pending) == (True, 1, 0)
    wrong = log(
        created(),
        ("DiceEpochStarted", {"epoch": 2, "commitment": commitment(S1)}),
        ("DiceSeedRevealed", {"epoch": 2, "seed": S2.hex(), "reason": "battle-over"}),
    )
    assert audit_log(wrong).failed_version == 3


def test_text_that_is_not_json_is_refused_before_its_rolls_are_read() -> None:
    roll = msgspec.json.encode(Roll(sides=6, values=(1,), purpose="p", source="client"))
    assert rolls_in_data(b'{"r":' + roll + b"}") == [msgspec.json.decode(roll)]
    with pytest.raises(msgspec.DecodeError):
        rolls_in_data(b'{"r":' + roll)


def test_a_text_may_hold_a_die_only_if_it_spells_roll() -> None:
    assert may_hold_rolls(b'{"kind":"roll"}')
    assert may_hold_rolls(b'{"kind":"\\u0072oll"}')
    assert not may_hold_rolls(b'{"kind":"dice","values":[1]}')


def test_a_roll_that_quotes_a_die_still_has_its_other_dice_checked() -> None:
    """The quoted die counts once; the roll's next die is new, and checked."""
    quoting = server(2, values=[*server(2)["values"], 7])  # die (2, 1): not what S1 gives
    first, then = ("Declared", {"roll": server(2)}), ("Resolved", {"roll": quoting})
    audit = audit_log(log(created(), first, then))  # epoch 1 not revealed yet
    assert (audit.ok, audit.dice_pending) == (True, 2)
    audit = audit_log(log(created(), first, then, REVEALED))
    right = derive_value(S1, B, 2, 1, "", SIDES)
    assert (audit.dice_ok, audit.failed_version) == (False, 3)
    assert audit.reason == f"die 1 of roll 2 (attack) shows 7, but the revealed seed gives {right}"
