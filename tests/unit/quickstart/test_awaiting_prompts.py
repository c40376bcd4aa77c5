"""The quickstart's prompts whole (id, who answers, commands, the reason read out, choices,
dice, the section cited) in the windows the recorded play-throughs
(tests/unit/test_awaiting_golden.py) never reach: a casualty to choose, press or retreat,
the roll-off and the choice of priority, the combats step (attacks alone and together,
siege engines, a skill), the skirmishers' step, the reposition phase and a hero to revive;
to the side that answers, and to the other side as one coarse prompt.

"1. Priority Phase", "2. Action Phase", "3. Reposition Phase", "Resolving Combat",
"The troops", "Hero Units", "Defenses and siege weapons"; (referee)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.prompts import DiceNeed, Prompt
from domain.rulesets.quickstart.awaiting import awaiting
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.rules import (
    R_ACTION,
    R_COMBAT,
    R_HEROES,
    R_PRIORITY,
    R_REFEREE,
    R_REPOSITION,
    R_SIEGE,
    R_TROOPS,
)
from tests.support.quickstart_testkit import REF, make, run, side, sq, to_action

NORTH, SOUTH = side("north"), side("south")


def combat_dice(squad: str, count: int, when: str | None = None) -> DiceNeed:
    return DiceNeed(sides=6, count=count, purpose=f"combat dice of {squad}", subject=squad,
                    when=when)  # fmt: skip


def referee_prompts(squads: list[str], last_x: int = 11, last_y: int = 11) -> list[Prompt]:
    return [
        Prompt(
            id="adjust-squad",
            role="referee",
            commands=("AdjustSquad",),
            reason="the referee may correct a squad: `level` (an integer, at least 1), `x` and "
            f"`y` (integers, 0 to {last_x} and 0 to {last_y}, a free square); each left out "
            "stays as it is",
            choices={"squad": squads},
            optional=True,
            rule=R_REFEREE,
        ),
        Prompt(
            id="end-battle",
            role="referee",
            commands=("EndBattle",),
            reason="the referee may end the battle (a winner or none)",
            choices={"winner": ["north", "south"]},
            optional=True,
            rule=R_REFEREE,
        ),
    ]


def test_a_battle_without_heroes_rolls_off_and_the_referee_may_correct_or_end_it() -> None:
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 5, 5)],
             height=8)  # fmt: skip
    roll_off = Prompt(
        id="roll-for-priority",
        role="side",
        commands=("RollForPriority",),
        reason="no hero left to check: the sides roll off for priority",
        dice=(
            DiceNeed(sides=6, purpose="priority roll-off of north", subject="north"),
            DiceNeed(sides=6, purpose="priority roll-off of south", subject="south"),
        ),
        rule=R_PRIORITY,
    )
    assert awaiting(s, NORTH) == awaiting(s, SOUTH) == [roll_off]
    assert awaiting(s, REF) == [roll_off, *referee_prompts(["n", "s"], last_y=7)]


def test_the_side_whose_heroes_won_chooses_who_acts_first() -> None:
    hero = {"id": "h", "side": "north", "squad": "n"}
    s = make([sq("n", "north", "soldier", 2, 0, 0), sq("s", "south", "soldier", 2, 5, 5)],
             heroes=[hero])  # fmt: skip
    s, _ = run(s, "PriorityCheck", [20], hero="h", skill="history")
    coarse = Prompt(
        id="choose-priority:north",
        role="side",
        side="north",
        commands=("ChoosePriority",),
        reason="north's heroes won priority: north names the side that acts first",
        rule=R_PRIORITY,
    )
    whole = msgspec.structs.replace(coarse, choices={"first": ["north", "south"]})
    assert awaiting(s, NORTH) == [whole]
    assert awaiting(s, SOUTH) == [coarse]
    assert awaiting(s, REF) == [whole, *referee_prompts(["n", "s"])]


def _contact() -> State:
    squads = [
        sq("n", "north", "soldier", 2, 0, 0),
        sq("s", "south", "soldier", 2, 1, 0),
        sq("s2", "south", "soldier", 2, 1, 1),
        sq("m", "south", "medic", 1, 2, 1),
    ]
    return to_action(make(squads), "north", "combat")


def test_the_side_hit_chooses_its_casualty_with_its_medics_saving_throw() -> None:
    s, _ = run(_contact(), "Attack", [6, 1, 1, 1, 1, 1], squads=["n"], targets=["s", "s2"])
    coarse = Prompt(
        id="casualty:south",
        role="side",
        side="south",
        commands=("ChooseCasualty",),
        reason="choose which of south's squads takes the hit from n (1 waiting)",
        rule=R_COMBAT,
    )
    save = DiceNeed(sides=20, purpose="saving throw of m for s", subject="m")
    whole = msgspec.structs.replace(coarse, choices={"squad": ["s", "s2"]}, dice=(save,))
    assert awaiting(s, SOUTH) == [whole]
    assert awaiting(s, NORTH) == [coarse]


def test_the_attacker_presses_or_retreats_with_the_dice_a_press_would_roll() -> None:
    s, _ = run(_contact(), "Attack", [1, 1, 1, 1, 1, 1], squads=["n"], targets=["s", "s2"])
    coarse = Prompt(
        id="press-or-retreat:north",
        role="side",
        side="north",
        commands=("PressAttack", "Retreat"),
        reason="north presses the attack (another exchange) or retreats",
        rule=R_COMBAT,
    )
    pressed = "if the attack is pressed"
    dice = (combat_dice("n", 2, pressed), combat_dice("s", 2, pressed),
            combat_dice("s2", 2, pressed))  # fmt: skip
    assert awaiting(s, NORTH) == [msgspec.structs.replace(coarse, dice=dice)]
    assert awaiting(s, SOUTH) == [coarse]


def _armed() -> State:
    squads = [
        sq("n", "north", "soldier", 2, 5, 5),
        sq("n2", "north", "soldier", 1, 6, 5),
        sq("k", "north", "skirmisher", 1, 0, 0),
        sq("s", "south", "soldier", 1, 5, 6),
        sq("big", "south", "soldier", 1, 11, 11, large=True),
    ]
    s = make(
        squads,
        heroes=[{"id": "h", "side": "north", "squad": "n", "skills": {"intimidate": 1}}],
        engines=[{"id": "en", "side": "north", "level": 1, "x": 4, "y": 4}],
        barriers=[{"id": "bs", "side": "south", "level": 1, "x": 11, "y": 5}],
        watchtower={"x": 0, "y": 11},
    )
    s, _ = run(s, "SkipPriorityChecks", [6, 1])
    return s


def _step_prompt(step: str, commands: tuple[str, ...], reason: str, rule: str) -> Prompt:
    return Prompt(id=f"end-step:north:1:{step}", role="side", side="north", commands=commands,
                  reason=f"north's turn, {reason}; EndStep ends the step", rule=rule)  # fmt: skip


def test_the_combats_step_attacks_alone_and_together_engines_and_a_skill() -> None:
    s, _ = run(_armed(), "EndStep")
    offered: dict[str, Any] = {"optional": True, "pass_with": "EndStep"}
    reason = "combats: squads in base contact (casters in range) attack, engines fire"
    coarse = _step_prompt("combat", ("Attack", "FireEngine", "UseSkill", "EndStep"), reason,
                          R_ACTION)  # fmt: skip
    together = "if every squad listed joins"
    assert awaiting(s, NORTH) == [
        Prompt(id="skill:h", role="side", side="north", subject="h", commands=("UseSkill",),
               reason="h may take a minor action: a skill check",
               choices={"hero": ["h"], "skill": ["heal", "intimidate", "stealth"]},
               dice=(DiceNeed(sides=20, purpose="heal check of h", subject="h"),),
               rule=R_HEROES, **offered),
        Prompt(id="attack:n", role="side", side="north", subject="n", commands=("Attack",),
               reason="n may attack a foe in base contact (a caster: in range)",
               choices={"squads": ["n"], "targets": ["s"]},
               dice=(combat_dice("n", 2), combat_dice("s", 1)), rule=R_COMBAT, **offered),
        Prompt(id="attack:n2", role="side", side="north", subject="n2", commands=("Attack",),
               reason="n2 may attack a foe in base contact (a caster: in range)",
               choices={"squads": ["n2"], "targets": ["s"]},
               dice=(combat_dice("n2", 1), combat_dice("s", 1)), rule=R_COMBAT, **offered),
        Prompt(id="attack-together:s", role="side", side="north", commands=("Attack",),
               reason="squads may attack s together: `squads` lists those that may join (send "
               "any of them as a list)",
               choices={"squads": ["n", "n2"], "targets": ["s"]},
               dice=(combat_dice("n", 2, together), combat_dice("n2", 1, together),
                     combat_dice("s", 1, together)),
               rule=R_COMBAT, **offered),
        Prompt(id="fire:en:n", role="side", side="north", subject="n",
               commands=("FireEngine",), reason="n may fire the siege engine en",
               choices={"engine": ["en"], "squad": ["n"], "target": ["big", "bs"]},
               dice=(DiceNeed(sides=6, purpose="siege engine en", subject="en"),),
               rule=R_SIEGE, **offered),
        msgspec.structs.replace(coarse, commands=("EndStep",)),
    ]  # fmt: skip
    assert awaiting(s, SOUTH) == [coarse]


def test_the_skirmishers_step() -> None:
    s, _ = run(_armed(), "EndStep")
    s, _ = run(s, "EndStep")
    coarse = _step_prompt("skirmish", ("MoveSquad", "EndStep"),
                          "skirmishers may move again after combats", R_TROOPS)  # fmt: skip
    assert awaiting(s, NORTH) == [
        Prompt(id="move:k", role="side", side="north", subject="k", commands=("MoveSquad",),
               reason="k may move (the squares: its reach)", choices={"squad": ["k"]},
               optional=True, pass_with="EndStep", rule=R_TROOPS),
        msgspec.structs.replace(coarse, commands=("EndStep",)),
    ]  # fmt: skip
    assert awaiting(s, SOUTH) == [coarse]


def _reposition() -> State:
    s = _armed()
    for _ in range(5):  # north: moves, combats, skirmish; south: moves, combats
        s, _ = run(s, "EndStep")
    assert (s.phase, s.active_side) == ("reposition", "north")
    return s


def test_the_reposition_phase_to_a_squad_or_the_watchtower() -> None:
    s = _reposition()
    offered: dict[str, Any] = {"optional": True, "pass_with": "EndStep"}
    coarse = _step_prompt("reposition", ("RepositionHero", "EndStep"),
                          "heroes may move to another squad of their side or the watchtower",
                          R_REPOSITION)  # fmt: skip
    assert awaiting(s, NORTH) == [
        Prompt(id="reposition:h", role="side", side="north", subject="h",
               commands=("RepositionHero",), reason="h may move to another squad of north",
               choices={"hero": ["h"], "squad": ["k", "n2"]}, rule=R_REPOSITION, **offered),
        Prompt(id="reposition:h:watchtower", role="side", side="north", subject="h",
               commands=("RepositionHero",), reason="h may move to the watchtower",
               choices={"hero": ["h"], "watchtower": ["true"]}, rule=R_REPOSITION, **offered),
        msgspec.structs.replace(coarse, commands=("EndStep",)),
    ]  # fmt: skip
    assert awaiting(s, SOUTH) == [coarse]
    # once moved, h repositions no more this round
    s, _ = run(s, "RepositionHero", hero="h", watchtower=True)
    assert [p.id for p in awaiting(s, NORTH)] == ["end-step:north:1:reposition"]


def test_the_referee_may_revive_a_removed_hero_onto_a_squad_of_its_side() -> None:
    s = _reposition()
    heroes = dict(s.heroes)
    heroes["h"] = msgspec.structs.replace(heroes["h"], status="removed", squad=None)
    s = msgspec.structs.replace(s, heroes=heroes)
    assert awaiting(s, REF) == [
        _step_prompt("reposition", ("EndStep",),
                     "heroes may move to another squad of their side or the watchtower",
                     R_REPOSITION),
        Prompt(id="revive:h", role="referee", subject="h", commands=("ReviveHero",),
               reason="h is removed: the referee may bring it back onto a squad",
               choices={"hero": ["h"], "squad": ["k", "n", "n2"]}, optional=True,
               rule=R_HEROES),
        *referee_prompts(["big", "k", "n", "n2", "s"]),
    ]  # fmt: skip


def test_an_active_hero_listed_first_does_not_hide_a_removed_ones_revival() -> None:
    s = _reposition()
    heroes = dict(s.heroes)
    # a, active with n2, comes before h (by id), removed
    heroes["a"] = msgspec.structs.replace(heroes["h"], id="a", squad="n2")
    heroes["h"] = msgspec.structs.replace(heroes["h"], status="removed", squad=None)
    s = msgspec.structs.replace(s, heroes=heroes)
    revivals = [p for p in awaiting(s, REF) if p.commands == ("ReviveHero",)]
    assert [(p.id, p.choices) for p in revivals] == [
        ("revive:h", {"hero": ["h"], "squad": ["k", "n"]})
    ]


def test_each_engine_and_each_squad_beside_it_is_asked_in_turn() -> None:
    # e0, south's, comes before en, north's; a, beside en, has rolled its combat dice
    squads = [
        sq("a", "north", "soldier", 2, 3, 3),
        sq("n", "north", "soldier", 2, 5, 5),
        sq("big", "south", "soldier", 1, 11, 11, large=True),
    ]
    engines = [
        {"id": "e0", "side": "south", "level": 1, "x": 0, "y": 11},
        {"id": "en", "side": "north", "level": 1, "x": 4, "y": 4},
    ]
    s = to_action(make(squads, engines=engines), step="combat")
    s = msgspec.structs.replace(
        s, squads={**s.squads, "a": msgspec.structs.replace(s.squads["a"], attacked=True)}
    )
    fires = [p for p in awaiting(s, NORTH) if p.commands == ("FireEngine",)]
    assert [(p.id, p.choices) for p in fires] == [
        ("fire:en:n", {"engine": ["en"], "squad": ["n"], "target": ["big", "e0"]})
    ]


def test_a_foe_that_cannot_be_attacked_together_does_not_end_the_scan() -> None:
    # s1 (first by id) is in contact with a and b, but a has used its standard action;
    # s2 is in contact with c and d
    squads = [
        sq("a", "north", "soldier", 1, 1, 0),
        sq("b", "north", "soldier", 1, 3, 0),
        sq("c", "north", "soldier", 1, 7, 8),
        sq("d", "north", "soldier", 1, 9, 8),
        sq("s1", "south", "soldier", 1, 2, 0),
        sq("s2", "south", "soldier", 1, 8, 8),
    ]
    s = to_action(make(squads), step="combat")
    s = msgspec.structs.replace(
        s, squads={**s.squads, "a": msgspec.structs.replace(s.squads["a"], standard_used=True)}
    )
    together = [p for p in awaiting(s, NORTH) if p.id.startswith("attack-together:")]
    assert [(p.id, p.choices) for p in together] == [
        ("attack-together:s2", {"squads": ["c", "d"], "targets": ["s2"]})
    ]
