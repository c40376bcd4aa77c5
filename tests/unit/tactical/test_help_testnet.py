"""[Help] of seed 002, the cases mutation testing found untested (issue 38): "Once on their
next turn, when they roll any die, they may reroll it" (A37: the command's first roll,
thrown again when it totals below `reroll_below`). Who may reroll, which roll, and the die
a table is asked for (its purpose and whose it is) on either throw."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.dice import DiceError, SuppliedDice
from domain.errors import RuleViolation
from domain.rulesets.tactical.help import RerollDice
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.rules import R_STANDARD
from tests.support.tactical_kit import ch, make, play, started, types
from tests.unit.tactical.test_hidden_stamina import SAVE_REROLLED, _helped_shielder

SAVE = {"type": "Save", "character": "q", "condition": "slowed", "reroll_below": 7}
SHORT = {"id": "short", "category": "melee", "dice": "d6", "weapon_type": "shortsword"}
SHORT2 = {**SHORT, "id": "short2"}


def _slowed(helped: bool = True) -> State:
    """q's turn (VIT 0, slowed), with p's Help reroll when `helped`."""
    s = make([ch("p", "a", 5, 5), ch("q", "a", 6, 6, stats={"VIT": 0}), ch("g", "b", 10, 10)])
    s = started(s, [12, 5, 1])
    if helped:
        s = play(s, {"type": "Help", "character": "p", "ally": "q"})[1]
    s = play(s, {"type": "SetCondition", "character": "q", "condition": "slowed",
                 "reason": "mud"})[1]  # fmt: skip
    return play(s, {"type": "EndTurn", "character": "p"}, [1])[1]


def _refused(s: State, cmd: dict[str, Any], dice: list[int]) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        play(s, cmd, dice)
    return refused.value


def test_no_reroll_without_a_help_token() -> None:
    """[Help]: the reroll is the helped one's; with none, the command is refused."""
    why = _refused(_slowed(helped=False), SAVE, [3, 9])
    assert (why.reason, why.rule) == ("q has no Help reroll", R_STANDARD)


def test_no_reroll_for_a_character_unknown() -> None:
    why = _refused(_slowed(), {**SAVE, "character": "nobody"}, [3])
    assert (why.reason, why.rule) == ("nobody has no Help reroll", R_STANDARD)


def test_the_reroll_is_for_the_helped_ones_own_turn() -> None:
    """[Help]: "Once on their next turn": not on another's turn."""
    s = make([ch("p", "a", 5, 5), ch("q", "a", 6, 6), ch("g", "b", 10, 10)])
    s = started(s, [12, 5, 1])
    s = play(s, {"type": "Help", "character": "p", "ally": "q"})[1]
    assert s.active == "p" and s.chars["q"].rerolls == 1
    why = _refused(s, SAVE, [3, 9])
    assert why.reason == "a Help reroll is for the helped one's own turn"
    assert why.rule == R_STANDARD


@pytest.mark.parametrize("first", [7, 12])
def test_a_first_roll_not_below_the_threshold_is_kept_and_the_token_too(first: int) -> None:
    """A37: thrown again only when it totals below `reroll_below` (7: a 7 is kept)."""
    events, s = play(_slowed(), SAVE, [first])
    assert "DieRerolled" not in types(events)
    assert events[0].die.values == (first,)
    assert s.chars["q"].rerolls == 1


def test_only_the_commands_first_roll_is_thrown_again() -> None:
    """A37: "when they roll any die, they may reroll it", once: a dual wield's second roll
    below the threshold stands when the first was kept."""
    p = ch("p", "a", 5, 5, main_hand="short", off_hand="short2")
    s = make([p, ch("g", "b", 6, 5), ch("h", "b", 4, 5)], items=[SHORT, SHORT2],
             options={"reaction_window": "never"})  # fmt: skip
    s = started(s, [12, 2, 1])
    s = replace(s, chars={**s.chars, "p": replace(s.chars["p"], rerolls=1)})
    cmd = {"type": "Attack", "character": "p", "weapon": "short", "target": "g",
           "second_target": "h", "reroll_below": 4}  # fmt: skip
    events, s = play(s, cmd, [5, 2])
    assert "DieRerolled" not in types(events)
    assert [e.damage for e in events if type(e).__name__ == "AttackResolved"] == [5, 2]


def _next_die(s: State, cmd: dict[str, Any], dice: list[int]) -> tuple[str, str | None]:
    with pytest.raises(DiceError) as missing:
        play(s, cmd, dice)
    nd = missing.value.context["next_die"]
    return nd.purpose, nd.subject


def test_the_table_is_asked_for_the_helped_ones_die_and_its_reroll() -> None:
    """The die a table is asked for names whose it is (the helped one's), on the first
    throw and on the reroll (its purpose saying so)."""
    s = _slowed()
    assert _next_die(s, SAVE, []) == ("VIT save of q (slowed)", "q")
    assert _next_die(s, SAVE, [3]) == ("VIT save of q (slowed) (Help reroll)", "q")


def test_a_side_only_saves_dice_name_the_helped_one_too() -> None:
    s = _helped_shielder()
    assert _next_die(s, SAVE_REROLLED, []) == ("SPI save of g (exposed)", "g")
    assert _next_die(s, SAVE_REROLLED, [1]) == ("SPI save of g (exposed) (Help reroll)", "g")


def test_an_audiences_dice_asked_for_another_audience_give_that_ones() -> None:
    """`for_audience` of an audience's dice (through the reroll): the dice of the one asked."""
    rerolling = RerollDice(SuppliedDice([2, 5]), 3)
    other = rerolling.for_audience("side:a").for_audience("side:b")
    assert other.roll(6, "x").values == (5,)  # the 2 is thrown again
    assert rerolling.audience == "side:b"
