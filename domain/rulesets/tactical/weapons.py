"""Weapons and powers as the attack code sees them (seed 002): what an item in hand or a
power rolls and reaches, the pool it hits ([Standard Actions] Attack, A26), the action it
takes (the standard one, then 6 STA up to max(END, 2) a round), range and line of sight,
and [Throwing Melee Weapons].
"""

from __future__ import annotations

from typing import Literal

from domain.dice import Dice, Roll
from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.tactical.conditions import can_act
from domain.rulesets.tactical.geometry import distance
from domain.rulesets.tactical.initial import parse_dice
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.modifiers import sight_blockers
from domain.rulesets.tactical.rules import (
    R_ATTACKS,
    R_STAMINA_ACTIONS,
    R_STANDARD,
    need_sta,
    round_cap,
)
from domain.rulesets.tactical.sight import line_of_sight
from domain.rulesets.tactical.squares import SquareTest

__all__ = [
    "Weapon",
    "attack_action",
    "check_range",
    "pool_of",
    "roll_weapon",
    "weapon_of",
]

Kind = Literal["melee", "ranged", "spell"]


class Weapon:
    """An item in hand or a power, seen the same way by the attack code."""

    __slots__ = (
        "add_stats",
        "area",
        "bonus",
        "dice",
        "id",
        "kind",
        "no_roll",
        "pool",
        "range",
        "reach",
        "sta",
        "throw",
        "wil",
    )

    def __init__(self, state: State, c: Char, wid: str) -> None:
        items = state.board.items
        powers = state.board.powers
        self.id = wid
        if wid in (c.main_hand, c.off_hand) and wid in items:
            it = items[wid]
            if it.category not in ("melee", "ranged", "spell"):
                raise RuleViolation(f"{wid} is not a weapon", rule=R_STANDARD)
            self.kind: Kind = it.category
            self.dice, self.add_stats, self.bonus = it.dice, it.add_stats, it.bonus
            # None only on a melee item without 'throw' (initial_state refuses the others),
            # which never uses it: thrown, it reaches the thrower's STR (_reach)
            self.range = it.range or 1  # a 'throw' melee weapon's thrown range
            self.reach = it.reach if it.category == "melee" else self.range
            self.pool = it.pool
            self.area = it.area
            self.sta = self.wil = 0
            self.no_roll = False
            self.throw = it.throw
        elif wid in c.powers and wid in powers:
            p = powers[wid]
            self.kind = p.kind
            self.dice, self.add_stats, self.bonus = p.dice, p.add_stats, p.bonus
            self.reach = self.range = p.range
            self.pool = p.pool
            self.area = p.area
            self.sta, self.wil = p.sta, p.wil
            self.no_roll = p.no_roll
            self.throw = False
        elif wid in items or wid in powers:
            raise RuleViolation(
                f"{c.id} does not hold {wid} (draw it first) nor have it as a power",
                rule=R_STANDARD,
            )
        else:
            raise UnknownEntity(f"no item or power {wid!r}", weapon=wid)


def weapon_of(state: State, c: Char, wid: str) -> Weapon:
    return Weapon(state, c, wid)


def pool_of(w: Weapon, asked: str | None) -> Literal["HEA", "STA", "WIL"]:
    """[Standard Actions] Attack: weapons hit HEA (melee may take STA); spells STA or WIL."""
    if w.kind == "spell":
        pool = asked or w.pool or "STA"
        if asked == "HEA" and w.pool != "HEA":
            raise RuleViolation("spell attacks target STA or WIL (A26)", rule=R_STANDARD)
    elif w.kind == "melee":
        pool = asked or w.pool or "HEA"
        if pool == "WIL" and w.pool != "WIL":
            raise RuleViolation("melee attacks target HEA or STA", rule=R_STANDARD)
    else:
        pool = asked or w.pool or "HEA"
        if pool != (w.pool or "HEA"):
            raise RuleViolation("ranged weapon attacks target HEA", rule=R_STANDARD)
    return pool  # type: ignore[return-value]


def attack_action(state: State, c: Char, w: Weapon) -> tuple[str, int]:
    """The standard action, else a 6 STA stamina attack; capped at max(END, 2) a round."""
    why = can_act(c)
    if why is not None:
        raise RuleViolation(why, rule=R_STANDARD)
    if c.attacks >= round_cap(c):
        raise RuleViolation(
            f"{c.id} has made {c.attacks} attack actions this round (max(END, 2) = {round_cap(c)})",
            rule=R_STANDARD,
        )
    left = c.reload_left.get(w.id, 0)
    if left > 0:
        raise RuleViolation(f"{w.id} needs {left} more reload actions", rule=R_STANDARD)
    if not c.standard_used:
        return "standard", 0
    if c.has("dazed"):
        raise RuleViolation(f"{c.id} is dazed: no stamina actions", rule=R_STAMINA_ACTIONS)
    need_sta(state, c, 6 + w.sta, "an extra attack")
    return "stamina", 6


def roll_weapon(dice: Dice, w: Weapon, who: str, halve: bool) -> tuple[Roll | None, int]:
    count, sides, k = parse_dice(w.dice)
    roll = (
        dice.roll_many(count, sides, f"attack of {who} with {w.id}", subject=who) if count else None
    )
    total = (sum(roll.values) if roll is not None else 0) + k
    return roll, total // 2 if halve else total


def _reach(state: State, a: Char, w: Weapon, t: Char | None, throw: bool) -> int:
    if throw and w.throw:  # "Some melee weapons have the 'throw' property that allows you
        return w.range  # to throw them without this penalty or range": the data's range
    if throw:  # [Throwing Melee Weapons]: range = STR (A63: the thrower's)
        if state.options.throw_range == "target_str" and t is not None:
            return max(t.stats.STR, 1)
        return max(a.stats.STR, 1)
    return w.reach


def check_range(state: State, a: Char, w: Weapon, sq: Square, t: Char | None, throw: bool) -> None:
    d = distance(a.pos, sq, state.options.metric)
    reach = _reach(state, a, w, t, throw)
    if d > reach:
        raise RuleViolation(
            f"{list(sq)} is {d} squares away; {w.id} reaches {reach}", rule=R_ATTACKS
        )
    blockers = SquareTest(sight_blockers(state).__contains__)
    if d > 1 and not line_of_sight(
        a.pos, sq, blockers, pinch_blocks=state.options.pinch_blocks_sight
    ):  # A48, RULINGS pinch_blocks_sight
        raise RuleViolation(f"no line of sight to {list(sq)}", rule=R_ATTACKS)
