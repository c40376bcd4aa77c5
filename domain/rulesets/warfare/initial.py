"""initial_state and is_over for seed 003: validate a setup and build the first state.

The battle starts between rounds: the referee's StartRound begins round 1.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.errors import InvalidSetup
from domain.rulesets.warfare.model import Board, Champion, State, Tile, Unit
from domain.rulesets.warfare.options import Options
from domain.rulesets.warfare.setup import Setup, UnitSetup

__all__ = ["initial_state", "is_over"]

_RULE = "003 Battlefield Features / Reinforcement Zones (setup)"
_UNITS = "003 Unit Actions (setup)"


def _fail(reason: str, rule: str = _UNITS, **context: object) -> InvalidSetup:
    return InvalidSetup(reason, rule=rule, **context)


def _unit(u: UnitSetup, setup: Setup, options: Options) -> Unit:
    if u.kind != "melee" and u.range_increment is None:
        raise _fail(f"{u.kind} unit {u.id!r} needs a range increment", id=u.id)
    if u.kind == "melee" and u.range_increment is not None:
        raise _fail(f"melee unit {u.id!r} has no range increment", id=u.id)
    if u.health_now is not None and u.health_now > u.health:
        raise _fail(f"{u.id!r} starts above its maximum health", id=u.id)
    if options.facing_directions == 4 and len(u.facing) != 1:
        raise _fail(f"{u.id!r} faces {u.facing}: this battle has four facings", id=u.id)
    placed = u.x is not None and u.y is not None
    if u.reserve == placed or (u.x is None) != (u.y is None):
        raise _fail(f"{u.id!r}: a unit on the field has x and y, a reserve has neither", id=u.id)
    if u.x is not None and u.y is not None and not (u.x < setup.width and u.y < setup.height):
        raise _fail(f"{u.id!r} is off the map", id=u.id)
    return Unit(
        id=u.id,
        name=u.name,
        side=u.side,
        kind=u.kind,
        attack=u.attack,
        defense=u.defense,
        damage=u.damage,
        health=u.health if u.health_now is None else u.health_now,
        max_health=u.health,
        speed=u.speed,
        range_increment=u.range_increment,
        morale=u.morale,
        abilities=u.abilities,
        champion_bonus=u.champion_bonus,
        x=u.x if u.x is not None else -1,
        y=u.y if u.y is not None else -1,
        facing=u.facing,
        status="reserve" if u.reserve else "field",
        conditions=tuple(dict.fromkeys(u.conditions)),
    )


def initial_state(setup: Setup, options: Options) -> State:
    """Before round 1; raises InvalidSetup for an inconsistent setup."""
    sides = tuple(s.id for s in setup.sides)
    if len(set(sides)) != len(sides):
        raise _fail("side ids must be distinct", sides=list(sides))
    zones: dict[str, tuple[tuple[str, frozenset[Tile]], ...]] = {}
    for side in setup.sides:
        seen: list[tuple[str, frozenset[Tile]]] = []
        for z in side.zones:
            if any(z.id == zid for zid, _ in seen):
                raise _fail(f"zone {z.id!r} twice in {side.id!r}", _RULE, zone=z.id)
            for x, y in z.tiles:
                if not (x < setup.width and y < setup.height):
                    raise _fail(f"zone {z.id!r} has a tile off the map", _RULE, zone=z.id)
            seen.append((z.id, frozenset((x, y) for x, y in z.tiles)))
        zones[side.id] = tuple(seen)
    ids: set[str] = set()

    def claim(kind: str, oid: str, side: str) -> None:
        if oid in ids:
            raise _fail(f"duplicate id {oid!r}", id=oid)
        ids.add(oid)
        if side not in zones:
            raise _fail(f"{kind} {oid!r} belongs to unknown side {side!r}", id=oid, side=side)

    units: dict[str, Unit] = {}
    occupied: dict[Tile, str] = {}
    for us in setup.units:
        claim("unit", us.id, us.side)
        u = _unit(us, setup, options)
        if u.on_field:
            if u.tile in occupied:
                raise _fail(f"{u.id!r} and {occupied[u.tile]!r} share a tile", id=u.id)
            occupied[u.tile] = u.id
        units[u.id] = u
    for sid in sides:
        if not any(u.side == sid and u.on_field for u in units.values()):
            raise _fail(f"side {sid!r} has no unit on the battlefield", side=sid)
    champions: dict[str, Champion] = {}
    for c in setup.champions:
        claim("champion", c.id, c.side)
        for uid in (*c.leads, *((c.joined,) if c.joined else ())):
            if uid not in units or units[uid].side != c.side:
                raise _fail(
                    f"champion {c.id!r} names {uid!r}, not a unit of {c.side!r}",
                    "003 Battlefield Champions",
                    id=c.id,
                )
        if c.joined is not None:
            joined = units[c.joined]
            if joined.joined_by is not None or not joined.on_field:
                raise _fail(f"{c.id!r} cannot join {c.joined!r}", "003 Battlefield Champions")
            units[c.joined] = replace(joined, joined_by=c.id)
        champions[c.id] = Champion(
            id=c.id,
            name=c.name,
            side=c.side,
            leads=tuple(dict.fromkeys(c.leads)),
            joined=c.joined,
        )
    for e in setup.equipment:
        claim("equipment", e.id, e.side)
        if not (e.x < setup.width and e.y < setup.height):
            raise _fail(f"equipment {e.id!r} is off the map", _RULE, id=e.id)
        if e.in_zone and not any((e.x, e.y) in tiles for _, tiles in zones[e.side]):
            raise _fail(
                f"equipment {e.id!r} must stand in a reinforcement zone of {e.side!r}",
                _RULE,
                id=e.id,
            )
    board = Board(
        options=options,
        width=setup.width,
        height=setup.height,
        sides=sides,
        zones=zones,
        equipment=setup.equipment,
    )
    return State(board=board, units=units, champions=champions, occupied=occupied)


def is_over(state: State) -> bool:
    return state.over
