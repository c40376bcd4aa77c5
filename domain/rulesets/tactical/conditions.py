"""[Conditions] of seed 002 as data: which stat saves against each, which cannot be saved,
and what a character's conditions allow (act, react, move, its speed).
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.rulesets.tactical.model import Char, Condition, State

__all__ = [
    "SAVE_STAT",
    "UNSAVEABLE",
    "as_foes_judge",
    "can_act",
    "can_react",
    "merge",
    "speed",
]

# [Conditions]: "Make a <STAT> save to remove the condition".
SAVE_STAT: dict[str, str] = {
    "bleeding": "VIT",
    "burning": "DEX",
    "dazed": "MIN",
    "exposed": "SPI",
    "frightened": "SPI",
    "grappled": "STR",
    "immobilized": "VIT",
    "slowed": "VIT",
    "stunned": "MIN",
}
# A67: no save is given for these; the referee (or healing, or standing up) ends them.
UNSAVEABLE = frozenset({"broken", "dying", "exhausted", "prone", "unconscious", "invisible"})


# stands for an invisible character's STA where a foe may not know it: more than any cost
_UNKNOWN_STA = 1 << 20


def as_foes_judge(c: Char) -> Char:
    """`c` as a window that names it before its foes may judge it: an invisible character's
    STA and drained Exposed are its side's (RULINGS "Invisible stamina"), so a reaction or
    opportunity window is offered to it as if it had the stamina and no drain, and it may
    then only decline what it cannot pay or take; anyone else as it is."""
    if not c.has("invisible"):
        return c
    kept = tuple(k for k in c.conditions if not k.hidden)
    return replace(c, STA=replace(c.STA, cur=max(c.STA.cur, _UNKNOWN_STA)), conditions=kept)


def can_act(c: Char) -> str | None:
    """Why `c` cannot take standard, move or stamina actions now (None: it can)."""
    if c.dead:
        return f"{c.id} is dead"
    if c.has("unconscious"):
        return f"{c.id} is unconscious ([Unconscious]: unable to perform actions)"
    if c.has("exposed"):
        return f"{c.id} is exposed ([Exposed]: free actions only)"
    return None


def can_react(state: State, c: Char) -> str | None:
    """Why `c` cannot take a reaction now ([Types] Reaction, [Dazed], [Exposed], §4)."""
    why = can_act(c)
    if why is not None:
        return why
    if c.reaction_used:
        return f"{c.id} has already reacted this round (one reaction a round)"
    if c.has("dazed"):
        return f"{c.id} is dazed ([Dazed]: no stamina actions or reactions)"
    if c.surprised and state.round <= 1:
        return f"{c.id} is surprised ([Sequence §4]: no reactions in the surprise round)"
    return None


def speed(c: Char) -> int:
    """SPE, halved (rounded down, [Rounding]) when slowed or dragging a grappled foe (A33)."""
    spe = c.stats.SPE
    if c.has("slowed"):
        spe //= 2
    return spe


def merge(old: Condition | None, new: Condition, stack: str) -> Condition:
    """A42: a rated condition gained again keeps the highest rating (or the sum)."""
    if old is None or not (old.rating or new.rating):
        return new
    rating = old.rating + new.rating if stack == "sum" else max(old.rating, new.rating)
    return Condition(
        name=new.name,
        rating=rating,
        source=new.source,
        from_wound=old.from_wound or new.from_wound,
        unsaveable=old.unsaveable or new.unsaveable,
        no_save_before=max(old.no_save_before, new.no_save_before),
    )
