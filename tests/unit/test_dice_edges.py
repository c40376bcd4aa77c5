"""Edges of the dice that mutation testing found unguarded: the messages of refused dice,
the default client seed, and supplied dice of different sizes in one command."""

from __future__ import annotations

import pytest

from domain.dice import ServerDice, SuppliedDice, derive_value
from domain.errors import DiceError

SEED = bytes(range(32))


@pytest.mark.parametrize(
    ("sides", "message"),
    [(0, "a die needs at least one side"), (2**64 + 1, r"a die has at most 2\*\*64 sides")],
)
def test_an_impossible_die_says_why(sides: int, message: str) -> None:
    dice = ServerDice(seed=SEED, epoch=1, battle_id="b", version=2)
    with pytest.raises(ValueError, match=rf"^{message}"):
        dice.roll(sides, "x")
    with pytest.raises(ValueError, match=rf"^{message}"):
        derive_value(SEED, "b", 2, 0, "", sides)


def test_a_negative_count_says_why() -> None:
    with pytest.raises(ValueError, match=r"^a roll has at least zero dice$"):
        ServerDice(seed=SEED, epoch=1, battle_id="b", version=2).roll_many(-1, 6, "x")
    with pytest.raises(ValueError, match=r"^a roll has at least zero dice$"):
        SuppliedDice([]).roll_many(-1, 6, "x")


def test_server_dice_without_a_client_seed_use_the_empty_one() -> None:
    roll = ServerDice(seed=SEED, epoch=1, battle_id="b", version=7).roll_many(3, 20, "x")
    assert roll.client_seed == ""
    assert roll.values == tuple(derive_value(SEED, "b", 7, i, "", 20) for i in range(3))


def test_supplied_dice_check_only_their_own_values() -> None:
    """A d6 showing 6, then a d4: the 6 is not the d4's value and must not be checked."""
    dice = SuppliedDice([6, 2])
    assert dice.roll(6, "first").values == (6,)
    assert dice.roll(4, "second").values == (2,)
    dice.finish()


def test_surplus_dice_say_how_many_were_supplied_and_used() -> None:
    dice = SuppliedDice([1, 2, 3])
    dice.roll(6, "x")
    with pytest.raises(DiceError, match=r"^3 dice supplied but the command used 1$"):
        dice.finish()


def test_a_short_supply_names_the_dice_still_missing() -> None:
    # One die missing is "a d6"; more are counted ("2d6"): a table reads what to throw.
    with pytest.raises(DiceError, match=r"\(next: a d6 for stealth\)$"):
        SuppliedDice([]).roll(6, "stealth")
    with pytest.raises(DiceError, match=r"\(next: 2d8 for damage\)$"):
        SuppliedDice([3]).roll_many(3, 8, "damage")


def test_a_hidden_die_records_its_purpose() -> None:
    # A die of an audience's stream says what it was for, as a public one does.
    dice = ServerDice(
        seed=SEED, epoch=1, battle_id="b", version=2, sub_seeds={"referee": b"r" * 32}
    )
    roll = dice.for_audience("referee").roll(20, "secret check")
    assert roll.purpose == "secret check"
    assert roll.values == (derive_value(b"r" * 32, "b", 2, 0, "", 20),)
