"""Which squads may take a hit, after the rule that scored it (seed 001).

Resolving Combat: a die at `hit_on` scores a hit any opposing squad may take. Defenses
and siege weapons (magic circles): "while standing on a magic circle, a squad is hit on a
5 or 6": a hit only a 5 scored may go only to a squad on a circle of the scoring side.
The troops (Paladins): "when fighting undead, all combat dice that show 6 score a hit": the
further 6s score hits only an undead squad may take.
"""

from __future__ import annotations

from typing import Literal

from domain.errors import RuleViolation
from domain.rulesets.quickstart.model import Combat, Hit, Squad, State
from domain.rulesets.quickstart.rules import R_COMBAT, R_SIEGE, R_TROOPS

__all__ = ["R_CIRCLES", "HitOnly", "any_last", "cannot_take", "may_take", "score"]

HitOnly = Literal["any", "circle", "undead"]  # `Hit.only`: which squads may take it

# The magic circles paragraph of "Defenses and siege weapons".
R_CIRCLES = f"{R_SIEGE} (magic circles)"


def score(s: Squad, sixes: int, fives: int, undead: bool, arcana_extra: int) -> list[HitOnly]:
    """The hits one squad's dice score (`sixes` at `hit_on`, `fives` in the magic-circle
    band only), each marked with the squads that may take it.

    Resolving Combat: a squad scores a single hit, which any squad may take when a die
    reached `hit_on`; when only dice in the magic-circle band did, only a squad standing on
    the circle may take it. The troops (Paladins): each further 6 against undead scores a
    hit only an undead squad may take (a 5 on a circle never counts for it). Hero Units
    (arcana): the extra hits extend the magical attack that hit, so they go where its hit
    may go."""
    if sixes:
        first: HitOnly = "any"
    elif fives:
        first = "circle"
    else:
        return []
    out: list[HitOnly] = [first]
    if "arcana" in s.boosts:
        out += [first] * arcana_extra
    if s.kind == "paladin" and undead and sixes > 1:
        out += ["undead"] * (sixes - 1)
    return out


def any_last(h: Hit) -> bool:
    """Sort key: the hits only some squads may take first, so that a casualty chosen for
    an ordinary hit never uses up the squad a restricted hit was scored against."""
    return h.only == "any"


def may_take(state: State, c: Combat, hit: Hit, ids: list[str]) -> list[str]:
    """Of the victim side's squads `ids` in combat, those that may take a restricted hit:
    on a circle of the scoring side, or undead."""
    squads = state.squads
    if hit.only == "undead":
        return [i for i in ids if squads[i].undead]
    if hit.only == "circle":
        scorer = c.defender_side if hit.victim_side == c.attacker_side else c.attacker_side
        spots = {(k.x, k.y) for k in state.board.circles.values() if k.side == scorer}
        return [i for i in ids if (squads[i].x, squads[i].y) in spots]
    return ids


def cannot_take(squad: str, hit: Hit) -> RuleViolation:
    """The refusal of a casualty that may not take `hit`, citing the rule that scored it."""
    side = hit.victim_side
    if hit.only == "circle":
        return RuleViolation(
            f"{squad} cannot take this hit: only a 5 scored it, and only a squad of {side} "
            "in this combat standing on a magic circle may take it",
            rule=R_CIRCLES,
        )
    if hit.only == "undead":
        return RuleViolation(
            f"{squad} cannot take this hit: the paladins' rule scored it, and only an "
            f"undead squad of {side} in this combat may take it",
            rule=R_TROOPS,
        )
    return RuleViolation(
        f"{squad} cannot take this hit: choose a squad of {side} in this combat", rule=R_COMBAT
    )
