"""The Combat Events table (seed 004, Combat Events): a d20 drawn for each initiative
re-roll forced by a tie, every row with its selections and sub-rolls.

"Select Random Combatant / Side" is a die over the eligible ones (in setup order); "If
something cannot occur, re-roll": a row with nobody eligible is re-rolled (the d20), a
sub-roll naming what the combatant lacks is re-rolled (the sub-die). Every die is recorded
in the `CombatEventDrawn` event, with what was applied and what waits for the referee.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.phased.events import CombatEventDrawn, Draw
from domain.rulesets.phased.model import Applied, Combatant
from domain.rulesets.phased.outcomes import Outcome
from domain.rulesets.phased.rules import R_EVENTS, Run, chebyshev, engaged_ids, foes_of

__all__ = ["ROWS", "draw_combat_event", "row_of"]

ROWS: tuple[tuple[int, int, str], ...] = (
    (1, 2, "Armour Trouble"),
    (3, 4, "Battlefield Damaged"),
    (5, 5, "Battlefield Shifts"),
    (6, 6, "Close Quarters"),
    (7, 7, "Item Damaged"),
    (8, 8, "Item Dropped"),
    (9, 11, "Knock Down"),
    (12, 12, "Lucky Break"),
    (13, 13, "Lucky Opening"),
    (14, 15, "Mount or Vehicle Trouble"),
    (16, 16, "Reinforcements"),
    (17, 17, "Retreat"),
    (18, 18, "Slip"),
    (19, 20, "Weapon Trouble"),
)
_MAX_DRAWS = 200  # every row but a few can always occur: this is never reached in play


def row_of(value: int) -> str:
    for low, high, name in ROWS:
        if low <= value <= high:
            return name
    raise ValueError(value)


def _up(o: Outcome) -> list[Combatant]:
    return [c for c in o.state.combatants.values() if not c.down]


def _item_note(o: Outcome, c: str, item: str) -> None:
    o.prompt(
        f"{c}'s {item} is damaged: roll an appropriate Saving Throw for it, by what "
        "happens to it in the narrative"
    )


def _armour(o: Outcome) -> str | None:
    eligible = [c.id for c in _up(o) if any(i.kind == "armour" for i in c.items.values())]
    if not eligible:
        return "no combatant wears a helmet, shield or armour"
    who = o.select("combatant", eligible)
    has = {i for i, s in o.state.combatants[who].items.items() if s.kind == "armour"}
    names = {1: "helmet", 2: "helmet", 3: "shield", 4: "shield", 5: "shield", 6: "armour"}
    piece = o.sub_roll("armour trouble", 6, names, has)
    o.apply(Applied(combatant=who, effect="damaged", item=piece))
    _item_note(o, who, piece)
    return None


_OBJECT_SAVE = "; roll an appropriate Saving Throw for it, by what happens to it in the narrative"


def _battlefield_damaged(o: Outcome) -> str | None:
    features = list(o.state.board.features)
    if features:
        f = o.select("battlefield feature", features)
        o.prompt(
            f"Battlefield Damaged: {f} is damaged (scaffolding breaks, tree uprooted...)"
            + _OBJECT_SAVE
        )
    else:
        o.prompt(
            "Battlefield Damaged: select a battlefield or terrain feature; it is damaged"
            + _OBJECT_SAVE
        )
    return None


def _shifts(o: Outcome) -> str | None:
    placed = [c.id for c in o.state.combatants.values() if c.x is not None]
    each = o.state.options.shift_each == "each"
    if not placed or not each:
        steps = o.number("battlefield shift squares", 6)
        name, dx, dy = o.direction("battlefield shift")
        if not placed:
            o.prompt(
                f"Battlefield Shifts: every combatant moves {steps} squares {name} "
                "(no attacks of opportunity)"
            )
        for cid in placed:
            moved = o.moved_to(cid, dx, dy, steps)
            if moved is not None:
                o.apply(moved)
        return None
    for cid in placed:
        steps = o.number(f"battlefield shift squares of {cid}", 6)
        _, dx, dy = o.direction(f"battlefield shift of {cid}")
        moved = o.moved_to(cid, dx, dy, steps)
        if moved is not None:
            o.apply(moved)
    return None


def _close_quarters(o: Outcome) -> str | None:
    """Two combatants in threat range of each other: a random engaged combatant (one with
    a foe it is not grappling yet), then a random one of those foes."""
    st = o.state
    free: dict[str, list[str]] = {}
    eligible: list[str] = []
    for cid in engaged_ids(st):
        held = {e.source for e in st.combatants[cid].effects if e.name == "grappled"}
        if held:  # only a grappler's foes need listing: it may hold every one of them
            free[cid] = [f for f in foes_of(st, cid) if f not in held]
            if not free[cid]:
                continue
        eligible.append(cid)
    if not eligible:
        return "no two enemies in threat range of each other"
    a = o.select("combatant in threat range of a foe", eligible)
    b = o.select("foe in threat range", free.get(a) or foes_of(st, a))
    o.apply(Applied(combatant=a, effect="grappled", source=b))
    o.apply(Applied(combatant=b, effect="grappled", source=a))
    return None


def _items(c: Combatant, held_only: bool) -> list[str]:
    return [
        i.id
        for i in c.items.values()
        if i.kind != "armour" and not i.dropped and (i.held or not held_only)
    ]


def _item_damaged(o: Outcome) -> str | None:
    eligible = [c.id for c in _up(o) if _items(c, False)]
    if not eligible:
        return "no combatant carries an item"
    who = o.select("combatant", eligible)
    item = o.select("item", _items(o.state.combatants[who], False))
    o.apply(Applied(combatant=who, effect="damaged", item=item))
    _item_note(o, who, item)
    return None


def _item_dropped(o: Outcome) -> str | None:
    eligible = [c.id for c in _up(o) if _items(c, True)]
    if not eligible:
        return "no combatant holds an item"
    who = o.select("combatant", eligible)
    item = o.select("item held", _items(o.state.combatants[who], True))
    o.apply(Applied(combatant=who, effect="dropped", item=item))
    return None


def _in_melee(o: Outcome) -> list[str]:
    return engaged_ids(o.state)


def _knock_down(o: Outcome) -> str | None:
    eligible = [i for i in _in_melee(o) if not o.state.combatants[i].has("prone")]
    if not eligible:
        return "no combatant engaged in melee is standing"
    who = o.select("combatant engaged in melee", eligible)
    o.effect(who, "prone")
    me = o.state.combatants[who]
    # "or fall down next to them": the save is against the fallen combatant (option), so
    # its Lucky Opening makes it harder (the -2 of seed 004 Combat Events, Lucky Opening)
    source = who if o.state.options.knock_down_source == "fallen" else None
    if me.x is None:
        penalty = ""
        if source is not None and me.has("lucky_opening"):
            penalty = f", at -2 (Lucky Opening of {who})"
        o.prompt(
            f"Knock Down: the nearest figure to {who} within touch range, friend or foe, "
            f"makes a Reflex Save vs. Paralyzation{penalty} or falls down next to them"
        )
        return None
    near: dict[int, list[str]] = {}
    for c in _up(o):
        d = chebyshev(me, c)
        if c.id != who and d is not None and d <= o.state.options.touch_range:
            near.setdefault(d, []).append(c.id)
    if near:
        nearest = o.select("nearest figure in touch range", near[min(near)])
        o.test(nearest, "save:paralyzation", "prone", source=source)
    return None


def _lucky(name: str, o: Outcome) -> str | None:
    """Lucky Break and Lucky Opening: a random combatant in the fight gets the effect."""
    eligible = [c.id for c in _up(o)]
    if not eligible:
        return "no combatant is in the fight"
    who = o.select("combatant", eligible)
    rounds = 1 if o.state.options.one_round_effects == "end_this_round" else 2
    o.effect(who, name, rounds=rounds)
    return None


def _mount(o: Outcome) -> str | None:
    eligible = [c.id for c in _up(o) if c.mount is not None]
    if not eligible:
        return "no combatant has a mount or vehicle"
    who = o.select("combatant with mount or vehicle", eligible)
    m = o.state.combatants[who].mount
    assert m is not None
    ride = "riding" if m.kind == "mount" else "driving"
    names = {
        1: "off course",
        2: "off course",
        3: "bucks wildly",
        4: "bucks wildly",
        5: "bucks wildly",
        6: "stumbles and falls",
    }
    what = o.sub_roll("mount or vehicle trouble", 6, names, set(names.values()))
    if what == "off course":
        rounds = o.number("rounds off course", 10)
        direction, _, _ = o.direction("off course")
        o.effect(who, "off_course", rounds=rounds, direction=direction)
        o.prompt(
            f"{who}'s {m.kind} runs at its highest speed {direction} for {rounds} rounds, "
            f"or until {who} makes an Advanced {ride.title()} check"
        )
    elif what == "bucks wildly":
        o.test(who, f"check:advanced_{ride}", "bucks_check")
    else:
        o.test(who, f"check:{ride}", "stumble_check")
    return None


def _reinforcements(o: Outcome) -> str | None:
    side = o.select("side", list(o.state.board.sides))
    o.prompt(
        f"Reinforcements: allies show up to support {side}, if they are available (or "
        "characters whose Reaction was modified may switch sides)"
    )
    return None


def _retreat(o: Outcome) -> str | None:
    side = o.select("side", list(o.state.board.sides))
    mine = [i for i in _in_melee(o) if o.state.combatants[i].side == side]
    o.prompt(
        f"Retreat: every threatened combatant of {side} ({', '.join(mine) or 'none'}) "
        "moves as though its foe had Pressed The Advantage"
    )
    return None


def _slip(o: Outcome) -> str | None:
    eligible = [c.id for c in _up(o)]
    if not eligible:
        return "no combatant is in the fight"
    who = o.select("combatant", eligible)
    name, dx, dy = o.direction("slip")
    options: list[Applied] = []
    moved = o.moved_to(who, dx, dy, 1)  # 5 feet: one square
    options.append(moved or Applied(combatant=who, effect="moved", direction=name))
    held = _items(o.state.combatants[who], True)
    if held:
        item = o.select("item held", held)
        options.append(Applied(combatant=who, effect="dropped", item=item))
    options.append(Applied(combatant=who, effect="prone"))
    o.test(who, "save:paralyzation", "slip", effects=tuple(options))
    return None


def _weapon_trouble(o: Outcome) -> str | None:
    last = o.round - 1
    eligible = [
        c.id
        for c in _up(o)
        if c.last_attack_round == last and last >= 1 and c.last_attack_weapon in c.items
    ]
    if not eligible:
        return "no combatant attacked last round"
    who = o.select("combatant who attacked last round", eligible)
    c = o.state.combatants[who]
    weapon = c.last_attack_weapon
    assert weapon is not None
    state = c.items[weapon]
    w = c.weapons.get(weapon)
    possible = {"break"}
    if state.held and not state.dropped:
        possible.add("disarm")
    if w is not None and w.melee and w.damage_type in ("slashing", "piercing") and not state.stuck:
        possible.add("stuck")
    names = {1: "disarm", 2: "disarm", 3: "break", 4: "break", 5: "break", 6: "stuck"}
    what = o.sub_roll("weapon trouble", 6, names, possible)
    if what == "disarm":
        o.test(who, "save:paralyzation", "disarm", item=weapon)
    elif what == "break":
        o.test(who, "item:crushing_blow", "item_damaged", item=weapon)
    else:
        o.apply(Applied(combatant=who, effect="stuck", item=weapon))
        o.prompt(
            f"{who}'s {weapon} is stuck in the wound: a Move Action and an Advanced "
            "Strength Feat remove it"
        )
    return None


_HANDLERS: dict[str, Callable[[Outcome], str | None]] = {
    "Armour Trouble": _armour,
    "Battlefield Damaged": _battlefield_damaged,
    "Battlefield Shifts": _shifts,
    "Close Quarters": _close_quarters,
    "Item Damaged": _item_damaged,
    "Item Dropped": _item_dropped,
    "Knock Down": _knock_down,
    # partial, not a closure built at import: the row's code runs (and is mutated) per draw
    "Lucky Break": partial(_lucky, "lucky_break"),
    "Lucky Opening": partial(_lucky, "lucky_opening"),
    "Mount or Vehicle Trouble": _mount,
    "Reinforcements": _reinforcements,
    "Retreat": _retreat,
    "Slip": _slip,
    "Weapon Trouble": _weapon_trouble,
}


def draw_combat_event(run: Run, dice: Dice, cause: str, subject: str | None = None) -> None:
    """Draw one combat event: d20s until a row can occur, then that row. `subject`: the
    side whose tie drew it, where one side did (table dice name it)."""
    draws: list[Draw] = []
    while len(draws) < _MAX_DRAWS:
        o = Outcome(run.state, dice, subject)
        die = dice.roll(20, f"combat event ({cause})", subject=subject)
        row = row_of(die.value)
        reason = _HANDLERS[row](o)
        draws.append(Draw(die=die, row=row, possible=reason is None, reason=reason or ""))
        if reason is None:
            run.emit(
                CombatEventDrawn(
                    round=run.state.round,
                    cause=cause,
                    draws=tuple(draws),
                    row=row,
                    selections=tuple(o.selections),
                    sub_rolls=tuple(o.sub_rolls),
                    tests=tuple(o.tests),
                    applied=tuple(o.applied),
                    prompts=tuple(o.prompts),
                    pending=tuple(o.pending),
                )
            )
            return
    raise RuleViolation("no combat event could occur", rule=R_EVENTS)
