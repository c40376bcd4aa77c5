"""Derived army figures (seed 000): army type, representation, formation footprint, starting
morale, command range, commander defenses, and the modifiers an army's state adds to its
rolls. Pure functions of specs, options and state; every addend is a `Term` with its rule.
"""

from __future__ import annotations

import math

from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.options import ARMY_TYPES, Options, StrategyModifiers
from domain.rulesets.skirmish.rules import (
    R_BOONS,
    R_CHARGE,
    R_COMMANDER,
    R_FORMATION,
    R_MORALE,
    R_STRATEGY,
    R_TACTICS,
    R_TERMS,
)
from domain.rulesets.skirmish.specs import ArmySpec, Term

__all__ = [
    "SPACE_FEET",
    "army_type",
    "attack_terms",
    "closed_formation",
    "command_range",
    "commander_defenses",
    "defense_terms",
    "formation_dims",
    "reflex_terms",
    "representation",
    "save_dc_terms",
    "starting_morale",
    "total",
]


def total(terms: list[Term] | tuple[Term, ...]) -> int:
    return sum(t.value for t in terms)


def army_type(army_size: int) -> str:
    """ "Army Type": the largest mass combat army type whose minimum size the army reaches."""
    found = ARMY_TYPES[0][0]
    for name, minimum in ARMY_TYPES:
        if army_size >= minimum:
            found = name
    return found


def representation(spec: ArmySpec, options: Options) -> int:
    """Squares covered by the army (Tables 1-2, lost: `options.representation`)."""
    if spec.squares is not None:
        return max(1, spec.squares)
    table = options.representation
    base = table.squares_by_type.get(army_type(spec.army_size), 1)
    space = table.space_percent_by_size.get(spec.size, 100)
    return max(1, math.ceil(base * space / 100))


def closed_formation(squares: int) -> tuple[int, int]:
    """ "Formation": as close to a perfect square as possible: (front width, depth)."""
    width = max(1, math.isqrt(squares - 1) + 1) if squares > 1 else 1
    depth = max(1, math.ceil(squares / width))
    return width, depth


# Standard combat space of one soldier, in feet, by size category.
SPACE_FEET: dict[str, int] = {"large": 10, "huge": 15, "gargantuan": 20, "colossal": 30}


def formation_dims(
    squares: int, formation: str, options: Options, size: str = "medium"
) -> tuple[int, int]:
    """Front width and depth of an army of `squares` in `formation` (closed: a square); never
    thinner than one soldier of its size ("The minimum dimension of a formation")."""
    spec = options.formations.get(formation)
    percent = spec.squares_percent if spec is not None else 100
    width, depth = closed_formation(max(1, math.ceil(squares * percent / 100)))
    least = max(1, math.ceil(SPACE_FEET.get(size, 5) / options.square_feet))
    return max(width, least), max(depth, least)


def starting_morale(spec: ArmySpec, options: Options) -> tuple[Term, ...]:
    """ "Morale Modifier": +0, then alignment, class, race; plus the army's own adjustments and
    (option) its commander's leadership bonus."""
    terms = [Term(label="base", value=0, rule=R_MORALE)]
    alignment = spec.alignment.upper()
    if alignment.startswith("L"):
        terms.append(Term(label="lawful", value=options.morale_lawful, rule=R_MORALE))
    elif alignment.startswith("C"):
        terms.append(Term(label="chaotic", value=options.morale_chaotic, rule=R_MORALE))
    cls = spec.soldier_class.lower()
    if cls in options.morale_classes_plus:
        terms.append(Term(label=f"class {cls}", value=1, rule=R_MORALE))
    elif cls in options.morale_classes_minus:
        terms.append(Term(label=f"class {cls}", value=-1, rule=R_MORALE))
    if spec.race_kind == "militaristic":
        terms.append(
            Term(label="militaristic race", value=options.morale_race_militaristic, rule=R_MORALE)
        )
    elif spec.race_kind == "tribal":
        terms.append(Term(label="tribal race", value=options.morale_race_tribal, rule=R_MORALE))
    if spec.morale_adjustment:
        terms.append(Term(label="adjustments", value=spec.morale_adjustment, rule=R_TERMS))
    if options.commander_leadership_to_morale and spec.commander.leadership:
        terms.append(
            Term(label="commander leadership", value=spec.commander.leadership, rule=R_COMMANDER)
        )
    return tuple(terms)


def command_range(spec: ArmySpec, options: Options) -> int:
    """ "Command Range": 100' plus 25' times the commander's Charisma modifier (min 0)."""
    return max(
        0, options.command_range_base + options.command_range_per_cha * spec.commander.cha_mod
    )


def commander_defenses(spec: ArmySpec, options: Options) -> dict[str, int]:
    """ "Defensive Statistics": improved cover, +8 AC and +4 Reflex."""
    c = spec.commander
    return {
        "hp": c.hp,
        "ac": c.ac + options.commander_cover_ac,
        "reflex": c.reflex + options.commander_cover_reflex,
        "fortitude": c.fortitude,
        "will": c.will,
    }


def _boon_mods(state: State, army: Army) -> list[tuple[str, StrategyModifiers]]:
    boons = state.options.boons
    return [(b, boons[b]) for b in army.boons if b in boons]


def _terms(
    state: State, army: Army, field: str, *, tactic: bool = True, formation: bool = False
) -> list[Term]:
    """What the army's strategy (unless routed), tactic, formation and boons add to `field`,
    in that order; each source that adds nothing is left out."""
    o = state.options
    terms: list[Term] = []
    strat = o.strategies.get(army.strategy)
    if strat is not None and getattr(strat, field) and not army.routed:
        terms.append(
            Term(label=f"strategy {army.strategy}", value=getattr(strat, field), rule=R_STRATEGY)
        )
    spec = o.tactics.get(army.tactic) if tactic else None
    if spec is not None and getattr(spec, field):
        terms.append(
            Term(label=f"tactic {army.tactic}", value=getattr(spec, field), rule=R_TACTICS)
        )
    shape = o.formations.get(army.formation) if formation else None
    if shape is not None and getattr(shape, field):
        terms.append(
            Term(label=f"formation {army.formation}", value=getattr(shape, field), rule=R_FORMATION)
        )
    for name, mods in _boon_mods(state, army):
        if getattr(mods, field):
            terms.append(Term(label=f"boon {name}", value=getattr(mods, field), rule=R_BOONS))
    return terms


def attack_terms(state: State, army: Army) -> list[Term]:
    """What the army's strategy, tactic and boons add to its attack rolls (and a charge, +2,
    to its charge attack in the melee phase)."""
    terms = _terms(state, army, "attack")
    bonus = state.options.charge_attack
    if army.charging is not None and state.phase == "melee" and bonus:
        terms.append(Term(label="charge", value=bonus, rule=R_CHARGE))
    return terms


def defense_terms(state: State, army: Army) -> list[Term]:
    """What strategy, tactic, formation and boons add to the army's AC (and CMD), and a
    charge (-2) until the next round."""
    terms = _terms(state, army, "ac", formation=True)
    penalty = state.options.charge_ac
    if army.charging is not None and penalty:
        terms.append(Term(label="charging", value=penalty, rule=R_CHARGE))
    return terms


def reflex_terms(state: State, army: Army) -> list[Term]:
    """What strategy, tactic and boons add to the army's Reflex saves."""
    return _terms(state, army, "reflex")


def save_dc_terms(state: State, army: Army) -> list[Term]:
    """What the acting army's strategy and boons add to its saving throw DCs."""
    return _terms(state, army, "save_dc", tactic=False)
