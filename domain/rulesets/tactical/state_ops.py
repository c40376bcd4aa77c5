"""Small pure operations on the tactical state that evolve's handlers share: replace one
character, raise or lower a pool within its (effective) maximum, spend, pay an attack.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.rulesets.tactical.model import Char, Pool, State
from domain.rulesets.tactical.records import AttackRecord

__all__ = [
    "attack_costs",
    "costs",
    "effective_max",
    "gain",
    "glimpse",
    "glimpse_over",
    "lose",
    "put",
    "spend",
]


def effective_max(c: Char, pool: str) -> int:
    """[Exhausted]: the maximum of STA and WIL less the rating, to a minimum of 1."""
    p: Pool = getattr(c, pool)
    if pool == "HEA":
        return p.max
    ex = c.condition("exhausted")
    return p.max if ex is None else max(1, p.max - ex.rating)


def put(s: State, c: Char) -> State:
    chars = s.chars.copy()
    chars[c.id] = c
    return replace(s, chars=chars)


def gain(c: Char, pool: str, amount: int) -> Char:
    """Raise a pool by `amount`, never above its (effective) maximum, never lowering it."""
    p: Pool = getattr(c, pool)
    cur = max(p.cur, min(p.cur + amount, effective_max(c, pool)))
    return replace(c, **{pool: replace(p, cur=cur)})


def glimpse(t: Char, ends_with_turn: bool) -> Char:
    """[Targeting What You Can't See §4]: `t` only has concealment "until the end of their
    next turn" (its turns_taken moves at each turn's start, so that turn is number
    turns_taken + 1, whether or not one is under way). `ends_with_turn` False: an event
    stored before 0.3.0, whose glimpse lasted until the turn after that one began."""
    return replace(t, glimpsed_until=t.turns_taken + 1, glimpse_ends_with_turn=ends_with_turn)


def glimpse_over(c: Char) -> Char:
    """The end of `c`'s turn: a glimpse that lasts until the end of this turn ends (§4)."""
    if c.glimpse_ends_with_turn and 0 < c.glimpsed_until <= c.turns_taken:
        return replace(c, glimpsed_until=-1, glimpse_ends_with_turn=False)
    return c


def lose(c: Char, pool: str, amount: int) -> Char:
    p: Pool = getattr(c, pool)
    return replace(c, **{pool: replace(p, cur=p.cur - amount)})


def spend(c: Char, sta: int, wil: int) -> Char:
    if sta:
        c = replace(c, STA=replace(c.STA, cur=c.STA.cur - sta), sta_spent=True)
    if wil:
        c = replace(c, WIL=replace(c.WIL, cur=c.WIL.cur - wil), wil_spent=True)
    return c


def costs(
    s: State, attacker: str, action: str, sta: int, wil: int, weapon: str | None = None
) -> State:
    c = spend(s.chars[attacker], sta, wil)
    if weapon is not None:
        it = s.board.items.get(weapon)
        if it is not None and it.reload:  # [Reload]: "reload N" actions before the next use
            left = c.reload_left.copy()
            left[weapon] = it.reload
            c = replace(c, reload_left=left)
        pw = s.board.powers.get(weapon)
        if pw is not None and pw.concentration and weapon in c.powers:
            c = replace(c, concentration=weapon, concentration_rating=pw.concentration)
    w = s.opportunity
    if action == "opportunity" and w is not None and attacker in w.reactors:
        s = replace(
            s, opportunity=replace(w, reactors=tuple(r for r in w.reactors if r != attacker))
        )
    if action != "opportunity" or s.options.oa_counts_to_cap:
        c = replace(c, attacks=c.attacks + 1)
    if action in ("standard", "finisher", "charge"):
        c = replace(c, standard_used=True)
    if action == "opportunity":
        c = replace(c, reaction_used=True)
    return put(s, c)


def attack_costs(s: State, a: AttackRecord) -> State:
    return costs(s, a.attacker, a.action, a.sta_spent, a.wil_spent, a.weapon)
