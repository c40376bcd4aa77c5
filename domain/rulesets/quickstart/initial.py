"""initial_state and is_over for seed 001: validate a setup and build the first state."""

from __future__ import annotations

from domain.errors import InvalidSetup
from domain.rulesets.quickstart.model import (
    Barrier,
    Board,
    Circle,
    Engine,
    Hero,
    Setup,
    Squad,
    State,
)
from domain.rulesets.quickstart.options import Options

__all__ = ["initial_state", "is_over"]

_RULE = "001 Quickstart Rules for Mass Combat (setup)"


def _fail(reason: str, **context: object) -> InvalidSetup:
    return InvalidSetup(reason, rule=_RULE, **context)


def initial_state(setup: Setup, options: Options) -> State:
    """Round 1, priority phase; raises InvalidSetup for an inconsistent setup."""
    sides = setup.sides
    if len(sides) < 2 or len(set(sides)) != len(sides):
        raise _fail("a battle needs at least two distinct sides", sides=list(sides))
    if setup.width < 1 or setup.height < 1:
        raise _fail("the grid needs a positive width and height")
    for kind, speed in options.speeds.items():
        if speed < 0:
            raise _fail(f"negative speed for {kind}")
    ids: set[str] = set()
    solid: dict[tuple[int, int], str] = {}
    circles_at: set[tuple[int, int]] = set()

    def place(uid: str, side: str, x: int, y: int, level: int | None, occupies: bool) -> None:
        if uid in ids:
            raise _fail(f"duplicate id {uid!r}", id=uid)
        ids.add(uid)
        if side not in sides:
            raise _fail(f"{uid!r} belongs to unknown side {side!r}", id=uid, side=side)
        if not (0 <= x < setup.width and 0 <= y < setup.height):
            raise _fail(f"{uid!r} is off the grid", id=uid, x=x, y=y)
        if level is not None and level < 1:
            raise _fail(f"{uid!r} has level {level} (at least 1)", id=uid)
        if occupies:
            if (x, y) in solid:
                raise _fail(f"{uid!r} and {solid[(x, y)]!r} share a square", x=x, y=y)
            solid[(x, y)] = uid

    for q in setup.squads:
        place(q.id, q.side, q.x, q.y, q.level, True)
        if q.kind not in options.speeds:
            raise _fail(f"no speed for squad type {q.kind!r}", id=q.id)
    for g in setup.engines:
        place(g.id, g.side, g.x, g.y, g.level, True)
    for b in setup.barriers:
        place(b.id, b.side, b.x, b.y, None, True)
        if b.level < 0:
            raise _fail(f"barrier {b.id!r} has a negative level", id=b.id)
    for c in setup.circles:
        place(c.id, c.side, c.x, c.y, None, False)
        if (c.x, c.y) in circles_at:
            raise _fail(f"two circles on one square ({c.x}, {c.y})")
        circles_at.add((c.x, c.y))
    wt = setup.watchtower
    if wt is not None and not (0 <= wt.x < setup.width and 0 <= wt.y < setup.height):
        raise _fail("the watchtower is off the grid")
    squads = {q.id: q for q in setup.squads}
    for side in sides:
        if not any(q.side == side for q in setup.squads):
            raise _fail(f"side {side!r} has no squad", side=side)
    per_squad: dict[str, int] = {}
    in_tower = 0
    for h in setup.heroes:
        place(h.id, h.side, 0, 0, None, False)
        if h.surges < 0:
            raise _fail(f"hero {h.id!r} has negative healing surges", id=h.id)
        if h.watchtower:
            if wt is None:
                raise _fail(f"hero {h.id!r} is in a watchtower the battlefield lacks", id=h.id)
            if h.squad is not None:
                raise _fail(f"hero {h.id!r} is both in the watchtower and with a squad")
            in_tower += 1
        elif h.squad is None or h.squad not in squads:
            raise _fail(f"hero {h.id!r} is attached to no known squad", id=h.id, squad=h.squad)
        elif squads[h.squad].side != h.side:
            raise _fail(f"hero {h.id!r} is attached to a squad of another side", id=h.id)
        else:
            per_squad[h.squad] = per_squad.get(h.squad, 0) + 1
            if per_squad[h.squad] > options.max_heroes_per_squad:
                raise _fail(f"too many heroes with squad {h.squad!r}", squad=h.squad)
    if in_tower > options.watchtower_capacity:
        raise _fail("too many heroes in the watchtower")
    board = Board(
        options=options,
        width=setup.width,
        height=setup.height,
        sides=tuple(sides),
        circles={c.id: Circle(id=c.id, side=c.side, x=c.x, y=c.y) for c in setup.circles},
        watchtower=wt,
    )
    return State(
        board=board,
        squads={
            q.id: Squad(
                id=q.id,
                side=q.side,
                kind=q.kind,
                level=q.level,
                x=q.x,
                y=q.y,
                large=q.large,
                undead=q.undead,
            )
            for q in setup.squads
        },
        heroes={
            h.id: Hero(
                id=h.id,
                side=h.side,
                squad=h.squad,
                watchtower=h.watchtower,
                skills=dict(h.skills),
                surges=h.surges,
            )
            for h in setup.heroes
        },
        engines={
            g.id: Engine(id=g.id, side=g.side, level=g.level, x=g.x, y=g.y) for g in setup.engines
        },
        barriers={
            b.id: Barrier(id=b.id, side=b.side, level=b.level, x=b.x, y=b.y) for b in setup.barriers
        },
    )


def is_over(state: State) -> bool:
    """Over when one side (or none) has squads left, or the referee ended the battle."""
    return state.phase == "over"
