"""initial_state and is_over for seed 004: validate a setup and build round 1's Starting
Phase."""

from __future__ import annotations

from domain.errors import InvalidSetup
from domain.rulesets.phased.model import Board, Combatant, ItemState, State
from domain.rulesets.phased.options import Options
from domain.rulesets.phased.rules import base_rank, speed_modifier
from domain.rulesets.phased.setup import CombatantSetup, Setup

__all__ = ["initial_state", "is_over"]

_RULE = "004 Combat Round (setup)"


def _fail(reason: str, **context: object) -> InvalidSetup:
    return InvalidSetup(reason, rule=_RULE, **context)


def _combatant(c: CombatantSetup, options: Options) -> Combatant:
    items: dict[str, ItemState] = {}
    saves: dict[str, dict[str, int]] = {}
    for piece in c.armour:
        if piece in items:
            raise _fail(f"{c.id!r} lists its {piece} twice", combatant=c.id)
        items[piece] = ItemState(id=piece, kind="armour", held=False)
    for w in c.weapons:
        if w.id in items:
            raise _fail(f"{c.id!r} has two things called {w.id!r}", combatant=c.id)
        items[w.id] = ItemState(id=w.id, kind="weapon", held=True)
        saves[w.id] = dict(w.saves)
    for i in c.items:
        if i.id in items:
            raise _fail(f"{c.id!r} has two things called {i.id!r}", combatant=c.id)
        items[i.id] = ItemState(id=i.id, kind="item", held=i.held)
        saves[i.id] = dict(i.saves)
    spells = {s.id: s for s in c.spells}
    if len(spells) != len(c.spells):
        raise _fail(f"{c.id!r} lists a spell twice", combatant=c.id)
    if (c.x is None) != (c.y is None):
        raise _fail(f"{c.id!r} needs both x and y, or neither", combatant=c.id)
    mod = speed_modifier(options, c.dex, c.speed_modifier)
    return Combatant(
        id=c.id,
        name=c.name or c.id,
        side=c.side,
        base_speed=c.base_speed,
        modifier=mod,
        base_rank=base_rank(c.base_speed, mod),
        ac=c.ac,
        to_hit=c.to_hit,
        hp=c.hp,
        saves=dict(c.saves),
        checks=dict(c.checks),
        weapons={w.id: w for w in c.weapons},
        spells=spells,
        items=items,
        item_saves=saves,
        mount=c.mount,
        x=c.x,
        y=c.y,
    )


def _check_dex_bands(options: Options) -> None:
    """Speed Rank and Actions: the lost Dexterity table gives one modifier per Dexterity, so
    the option's bands may not overlap (the first would win silently)."""
    bands = options.dex_speed
    for i, band in enumerate(bands):
        if band.low > band.high:
            raise _fail("a dex_speed band's low is above its high", band=i)
        for j in range(i):
            other = bands[j]
            if band.low <= other.high and other.low <= band.high:
                raise _fail(
                    f"dex_speed bands {j} (Dex {other.low}-{other.high}) and {i} "
                    f"(Dex {band.low}-{band.high}) overlap: each Dexterity has one modifier",
                    bands=[j, i],
                )


def initial_state(setup: Setup, options: Options) -> State:
    """Round 1, Starting Phase; raises InvalidSetup for an inconsistent setup."""
    sides = tuple(s.id for s in setup.sides)
    if len(set(sides)) != len(sides):
        raise _fail("side ids must be distinct", sides=list(sides))
    combatants: dict[str, Combatant] = {}
    for c in setup.combatants:
        if c.id in combatants:
            raise _fail(f"duplicate combatant {c.id!r}", combatant=c.id)
        if c.side not in sides:
            raise _fail(f"{c.id!r} belongs to unknown side {c.side!r}", combatant=c.id)
        if c.x is not None and setup.width is not None and c.x >= setup.width:
            raise _fail(f"{c.id!r} is off the grid", combatant=c.id)
        if c.y is not None and setup.height is not None and c.y >= setup.height:
            raise _fail(f"{c.id!r} is off the grid", combatant=c.id)
        combatants[c.id] = _combatant(c, options)
    for s in sides:
        if not any(c.side == s for c in combatants.values()):
            raise _fail(f"side {s!r} has no combatant", side=s)
    features = tuple(f.id for f in setup.features)
    if len(set(features)) != len(features):
        raise _fail("feature ids must be distinct")
    engaged: set[tuple[str, str]] = set()
    for a, b in setup.engaged:
        if a not in combatants or b not in combatants or a == b:
            raise _fail(f"engaged pair ({a!r}, {b!r}) names no two combatants")
        engaged.add((min(a, b), max(a, b)))
    _check_dex_bands(options)
    board = Board(
        options=options,
        sides=sides,
        features=features,
        width=setup.width,
        height=setup.height,
    )
    return State(board=board, combatants=combatants, engaged=frozenset(engaged))


def is_over(state: State) -> bool:
    return state.stage == "over"
