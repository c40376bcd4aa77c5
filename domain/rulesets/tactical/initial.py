"""initial_state and is_over for seed 002: validate a setup and build the first state."""

from __future__ import annotations

import re

from domain.errors import InvalidSetup
from domain.rulesets.tactical.model import Board, Char, Condition, Pool, Square, State, Structure
from domain.rulesets.tactical.options import Options
from domain.rulesets.tactical.setup import CharacterSetup, CoverKind, PoolSetup, Setup

__all__ = ["character", "initial_state", "is_over", "parse_dice"]

_RULE = "002 Sequence §2 (Determine positions)"
_DICE = re.compile(r"^(?:([0-9]{0,2})d([0-9]{1,3}))?([+-][0-9]{1,3})?$")


def _fail(reason: str, **context: object) -> InvalidSetup:
    return InvalidSetup(reason, rule=_RULE, **context)


def parse_dice(text: str) -> tuple[int, int, int]:
    """ "2d6+1" -> (2, 6, 1); "d8" -> (1, 8, 0); "+3" -> (0, 0, 3)."""
    m = _DICE.match(text)
    if m is None or text == "":
        raise ValueError(f"not a dice expression: {text!r}")
    count_s, sides_s, k = m.groups()
    if sides_s is None:
        return 0, 0, int(k or 0)
    count = int(count_s) if count_s else 1
    sides = int(sides_s)
    if sides < 1:
        raise ValueError(f"a die needs at least one side: {text!r}")
    return count, sides, int(k or 0)


def _pool(p: PoolSetup, who: str, name: str) -> Pool:
    if p.cur > p.max:
        raise _fail(f"{who}: {name} {p.cur} is above its maximum {p.max}", character=who)
    return Pool(cur=p.cur, max=p.max)


def character(cs: CharacterSetup, controller: str) -> Char:
    """The state of a character from its setup (and its side's controller by default)."""
    return _char(cs, controller)


def _char(cs: CharacterSetup, controller: str) -> Char:
    ctl = cs.controller or controller
    return Char(
        id=cs.id,
        name=cs.name or cs.id,
        side=cs.side,
        controller=ctl,  # type: ignore[arg-type]
        x=cs.x,
        y=cs.y,
        stats=cs.stats,
        HEA=_pool(cs.HEA, cs.id, "HEA"),
        STA=_pool(cs.STA, cs.id, "STA"),
        WIL=_pool(cs.WIL, cs.id, "WIL"),
        DEF=cs.DEF,
        FOC=cs.FOC,
        main_hand=cs.main_hand,
        off_hand=cs.off_hand,
        stowed=cs.stowed,
        powers=cs.powers,
        conditions=tuple(
            Condition(name=c.name, rating=c.rating, source=c.source, from_wound=c.from_wound)
            for c in cs.conditions
        ),
        helpless=cs.helpless,
    )


def initial_state(setup: Setup, options: Options) -> State:
    """Before initiative; raises InvalidSetup for an inconsistent setup."""
    w, h = setup.width, setup.height
    if options.invisible_at_setup == "refuse":
        for cs in setup.characters:
            if any(cond.name == "invisible" for cond in cs.conditions):
                raise _fail(
                    f"{cs.id} starts invisible, but the setup is read by every side, so its "
                    "square would be known to all: place it visible and make it invisible "
                    "with SetCondition (option invisible_at_setup: allow lifts this)",
                    character=cs.id,
                )

    def on_map(sq: Square, what: str) -> None:
        if not (0 <= sq[0] < w and 0 <= sq[1] < h):
            raise _fail(f"{what} at {list(sq)} is off the {w}x{h} map")

    sides = {s.id: s for s in setup.sides}
    if len(sides) != len(setup.sides):
        raise _fail("two sides share an id")
    hostile: dict[str, frozenset[str]] = {}
    for s in setup.sides:
        for other in s.hostile_to:
            if other not in sides or other == s.id:
                raise _fail(f"side {s.id!r} is hostile to unknown side {other!r}")
        hostile[s.id] = frozenset(s.hostile_to or (k for k in sides if k != s.id))
    items = {i.id: i for i in setup.items}
    powers = {p.id: p for p in setup.powers}
    if len(items) != len(setup.items) or len(powers) != len(setup.powers):
        raise _fail("two items (or two powers) share an id")
    for d in [*(i.dice for i in setup.items), *(p.dice for p in setup.powers)]:
        try:
            parse_dice(d)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    for item in setup.items:
        thrown = item.category == "melee" and item.throw
        if item.range is None and (item.category in ("ranged", "spell") or thrown):
            raise _fail(
                f"item {item.id!r} is {'thrown' if thrown else item.category}: give its "
                "range in squares (A65: ranges come from the weapon data)",
                item=item.id,
            )
    blocks_move: set[Square] = set()
    blocks_sight: set[Square] = set()
    cover: dict[Square, CoverKind] = {}
    concealment: dict[Square, str] = {}
    for sq in setup.squares:
        p = (sq.x, sq.y)
        on_map(p, "a map square")
        if sq.blocks_move:
            blocks_move.add(p)
        if sq.blocks_sight:
            blocks_sight.add(p)
        if sq.cover != "none":
            cover[p] = sq.cover
        if sq.concealment != "none":
            concealment[p] = sq.concealment
    ids: set[str] = set()
    structures: dict[str, Structure] = {}
    built: dict[Square, str] = {}
    for st in setup.structures:
        if st.id in ids:
            raise _fail(f"duplicate id {st.id!r}")
        ids.add(st.id)
        for p in st.squares:
            on_map(p, f"structure {st.id!r}")
            if p in built:
                raise _fail(f"structures {built[p]!r} and {st.id!r} share a square")
            built[p] = st.id
        structures[st.id] = Structure(
            id=st.id,
            name=st.name or st.id,
            squares=tuple(st.squares),
            sth=st.sth,
            sth_max=st.sth,
            DEF=st.DEF,
            FOC=st.FOC,
            blocks_move=st.blocks_move,
            blocks_sight=st.blocks_sight,
            cover=st.cover,
        )
    chars: dict[str, Char] = {}
    occupied: dict[Square, str] = {}
    for cs in setup.characters:
        if cs.id in ids:
            raise _fail(f"duplicate id {cs.id!r}", id=cs.id)
        ids.add(cs.id)
        side = sides.get(cs.side)
        if side is None:
            raise _fail(f"{cs.id!r} is on unknown side {cs.side!r}", character=cs.id)
        p = (cs.x, cs.y)
        on_map(p, f"character {cs.id!r}")
        if p in occupied:
            raise _fail(f"{occupied[p]!r} and {cs.id!r} share a square", x=cs.x, y=cs.y)
        if p in blocks_move or p in built:
            raise _fail(f"{cs.id!r} stands on a blocking square", x=cs.x, y=cs.y)
        for it in (cs.main_hand, cs.off_hand, *cs.stowed):
            if it is not None and it not in items:
                raise _fail(f"{cs.id!r} carries unknown item {it!r}", character=cs.id)
        for pw in cs.powers:
            if pw not in powers:
                raise _fail(f"{cs.id!r} has unknown power {pw!r}", character=cs.id)
        occupied[p] = cs.id
        chars[cs.id] = _char(cs, side.controller)
    for s in setup.sides:
        if not any(c.side == s.id for c in chars.values()):
            raise _fail(f"side {s.id!r} has no character", side=s.id)
    board = Board(
        options=options,
        width=w,
        height=h,
        blocks_move=frozenset(blocks_move),
        blocks_sight=frozenset(blocks_sight),
        cover=cover,
        concealment=concealment,
        sides=sides,
        hostile=hostile,
        items=items,
        powers=powers,
    )
    return State(
        board=board,
        chars=chars,
        structures=structures,
        occupied=occupied,
        built=built,
        dc=options.dc,
    )


def is_over(state: State) -> bool:
    """Over when a side is out ([Sequence §5], A45) or the referee ended the combat."""
    return state.phase == "over"
