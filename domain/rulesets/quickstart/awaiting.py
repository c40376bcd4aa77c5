"""What a seed 001 battle waits for now, as prompts in an actor's view (domain.prompts).

The windows follow the battle's flow: a combat being resolved (casualties to choose, then
press or retreat: "001 Resolving Combat"), the priority phase (each hero's check, then
the choice of who acts first: "1. Priority Phase"), the active side's action steps (its
squads' moves, its heroes' minor actions, its attacks and siege engines, its skirmishers'
moves after combats: "2. Action Phase", "The troops", "Hero Units", "Defenses and siege
weapons") and the reposition phase ("3. Reposition Phase"); the referee's calls besides.

Every choice listed is one the ruleset's own `authorize` and `decide` accept for the
asking actor (domain.probing), worked out on the state as that actor knows it
(`reach.known_to`): a squad hidden from a side is named nowhere in its prompts. A window
another side answers is listed to a side as one coarse prompt (who, which commands),
without that side's choices: its heroes' minor actions and its squads' moves are its own.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.actors import Actor
from domain.probing import Asker
from domain.prompts import Prompt
from domain.rulesets.quickstart.access import authorize
from domain.rulesets.quickstart.combat import candidates, reaches
from domain.rulesets.quickstart.commands import (
    Attack,
    ChooseCasualty,
    ChoosePriority,
    Command,
    EndStep,
    FireEngine,
    PressAttack,
    PriorityCheck,
    RepositionHero,
    ReviveHero,
    RollForPriority,
    SkipPriorityChecks,
    UseSkill,
)
from domain.rulesets.quickstart.decide import adjustable, decide, usable_skills
from domain.rulesets.quickstart.grid import adjacent
from domain.rulesets.quickstart.model import Squad, State
from domain.rulesets.quickstart.reach import can_move, known_to
from domain.rulesets.quickstart.rules import (
    R_ACTION,
    R_COMBAT,
    R_HEROES,
    R_PRIORITY,
    R_REFEREE,
    R_REPOSITION,
    R_SIEGE,
    R_TROOPS,
    blocked,
)

__all__ = ["awaiting"]

# The commands of a step, for the coarse prompt another side reads.
_STEP_COMMANDS: dict[str, tuple[str, ...]] = {
    "move": ("MoveSquad", "UseSkill", "EndStep"),
    "combat": ("Attack", "FireEngine", "UseSkill", "EndStep"),
    "skirmish": ("MoveSquad", "EndStep"),
    "reposition": ("RepositionHero", "EndStep"),
}
_STEP_REASONS = {
    "move": "moves: each squad may move (and convert its standard action into a second move)",
    "combat": "combats: squads in base contact (casters in range) attack, engines fire",
    "skirmish": "skirmishers may move again after combats",
    "reposition": "heroes may move to another squad of their side or the watchtower",
}
_STEP_RULES = {"skirmish": R_TROOPS, "reposition": R_REPOSITION}


def _asking(state: State, actor: Actor) -> Asker:
    return Asker(state, actor, authorize, decide, known_to(state, actor))


def _combat(a: Asker) -> list[Prompt]:
    k = a.known
    c = k.combat
    assert c is not None
    if c.queue:
        hit = c.queue[0]
        side = hit.victim_side
        reason = f"choose which of {side}'s squads takes the hit from {hit.source}"
        reason += f" ({len(c.queue)} waiting)"
        p = Prompt(
            id=f"casualty:{side}",
            role="side",
            side=side,
            commands=("ChooseCasualty",),
            reason=reason,
            rule=R_COMBAT,
        )
        if not a.answers(side):
            return [p]
        cmds = a.accepted([ChooseCasualty(squad=s) for s in candidates(k)])
        if not cmds:
            return []
        choices = {"squad": [x.squad for x in cmds]}
        return [replace(p, choices=choices, dice=a.dice(cmds))]
    if not c.awaiting:
        return []
    side = c.attacker_side
    p = Prompt(
        id=f"press-or-retreat:{side}",
        role="side",
        side=side,
        commands=("PressAttack", "Retreat"),
        reason=f"{side} presses the attack (another exchange) or retreats",
        rule=R_COMBAT,
    )
    if not a.answers(side) or not a.ok(PressAttack(), whole=True):
        return [p] if not a.answers(side) else []
    dice = a.dice([PressAttack()], when="if the attack is pressed")
    return [replace(p, dice=dice)]


def _priority(a: Asker) -> list[Prompt]:
    k = a.known
    out: list[Prompt] = []
    if k.step == "choose":
        side = k.chooser
        p = Prompt(
            id=f"choose-priority:{side}",
            role="side",
            side=side,
            commands=("ChoosePriority",),
            reason=f"{side}'s heroes won priority: {side} names the side that acts first",
            rule=R_PRIORITY,
        )
        if not a.answers(side):
            return [p]
        cmds: list[Command] = [ChoosePriority(first=s) for s in k.sides]
        firsts = [x.first for x in cmds if isinstance(x, ChoosePriority) and a.ok(x)]
        return [replace(p, choices={"first": firsts})] if firsts else []
    waiting = sorted(h for h, x in k.heroes.items() if x.status != "removed" and h not in k.checks)
    for hid in waiting:
        h = k.heroes[hid]
        p = Prompt(
            id=f"priority-check:{hid}",
            role="side",
            side=h.side,
            subject=hid,
            commands=("PriorityCheck",),
            reason=f"{hid} makes its priority check (d20 + skill against the DC)",
            rule=R_PRIORITY,
        )
        if not a.answers(h.side):
            out.append(p)
            continue
        checks = a.accepted([PriorityCheck(hero=hid, skill=s) for s in k.options.priority_skills])
        if checks:
            skills = [x.skill for x in checks]
            out.append(replace(p, choices={"hero": [hid], "skill": skills}, dice=a.dice(checks)))
    if waiting and a.actor.is_referee and a.ok(SkipPriorityChecks(), whole=True):
        out.append(
            Prompt(
                id="skip-priority-checks",
                role="referee",
                commands=("SkipPriorityChecks",),
                reason="end the checks now: the heroes not checked yet fail",
                dice=a.dice([SkipPriorityChecks()]),
                optional=True,
                rule=R_PRIORITY,
            )
        )
    if not waiting and a.answers(None) and a.ok(RollForPriority(), whole=True):
        out.append(
            Prompt(
                id="roll-for-priority",
                role="side",
                commands=("RollForPriority",),
                reason="no hero left to check: the sides roll off for priority",
                dice=a.dice([RollForPriority()]),
                rule=R_PRIORITY,
            )
        )
    return out


def _moves(a: Asker, side: str, step: str) -> list[Prompt]:
    out = []
    occupied = blocked(a.known, side)  # as can_move sees it for each squad of the side
    for q in sorted(a.known.squads.values(), key=lambda q: q.id):
        if q.side != side or not can_move(a.known, q, occupied):
            continue
        out.append(
            Prompt(
                id=f"move:{q.id}",
                role="side",
                side=side,
                subject=q.id,
                commands=("MoveSquad",),
                reason=f"{q.id} may move (the squares: its reach)",
                choices={"squad": [q.id]},
                optional=True,
                pass_with="EndStep",
                rule=R_TROOPS if step == "skirmish" else R_ACTION,
            )
        )
    return out


def _skills(a: Asker, side: str) -> list[Prompt]:
    k = a.known
    out = []
    names = sorted({*k.options.skill_effects, *k.options.watchtower_effects})
    for h in sorted(k.heroes.values(), key=lambda h: h.id):
        if h.side != side:
            continue
        # decide's checks before the die first (usable_skills), then each left is probed
        cmds = a.accepted([UseSkill(hero=h.id, skill=s) for s in usable_skills(k, h, names)])
        if not cmds:
            continue
        skills = [x.skill for x in cmds]
        out.append(
            Prompt(
                id=f"skill:{h.id}",
                role="side",
                side=side,
                subject=h.id,
                commands=("UseSkill",),
                reason=f"{h.id} may take a minor action: a skill check",
                choices={"hero": [h.id], "skill": skills},
                dice=a.dice(cmds),
                optional=True,
                pass_with="EndStep",
                rule=R_HEROES,
            )
        )
    return out


def _attacks(a: Asker, side: str) -> list[Prompt]:
    k = a.known
    out = []
    mine = sorted((q for q in k.squads.values() if q.side == side), key=lambda q: q.id)
    foes = sorted((q for q in k.squads.values() if q.side != side), key=lambda q: q.id)
    for q in mine:
        cmds = a.accepted(
            [Attack(squads=(q.id,), targets=(t.id,)) for t in foes if reaches(k, q, t)]
        )
        if not cmds:
            continue
        targets = [x.targets[0] for x in cmds]
        out.append(
            Prompt(
                id=f"attack:{q.id}",
                role="side",
                side=side,
                subject=q.id,
                commands=("Attack",),
                reason=f"{q.id} may attack a foe in base contact (a caster: in range)",
                choices={"squads": [q.id], "targets": targets},
                dice=a.dice(cmds),
                optional=True,
                pass_with="EndStep",
                rule=R_COMBAT,
            )
        )
    out += _joint_attacks(a, side, mine, foes)
    eight = k.options.adjacency == "eight"
    marks = sorted([*k.engines, *k.barriers, *(t.id for t in foes)])
    for g in sorted(k.engines.values(), key=lambda g: g.id):
        if g.side != side or g.fired:
            continue
        for q in mine:
            if not adjacent((q.x, q.y), (g.x, g.y), eight):
                continue
            fires = a.accepted([FireEngine(engine=g.id, squad=q.id, target=t) for t in marks])
            if not fires:
                continue
            out.append(
                Prompt(
                    id=f"fire:{g.id}:{q.id}",
                    role="side",
                    side=side,
                    subject=q.id,
                    commands=("FireEngine",),
                    reason=f"{q.id} may fire the siege engine {g.id}",
                    choices={
                        "engine": [g.id],
                        "squad": [q.id],
                        "target": [x.target for x in fires],
                    },
                    dice=a.dice(fires),
                    optional=True,
                    pass_with="EndStep",
                    rule=R_SIEGE,
                )
            )
    return out


def _joint_attacks(a: Asker, side: str, mine: list[Squad], foes: list[Squad]) -> list[Prompt]:
    """Several squads attacking one foe together ("001 Resolving Combat": the attacking
    squads in contact fight as one combat): one prompt per foe that two or more squads
    may attack, `squads` listing those that may join (any of them, two or more, as a
    list). Judged with all of them joining and each alone, so every subset is accepted:
    decide asks each attacker to reach a target and each target to be reached. The dice
    listed are those of all of them joining (a subset rolls fewer)."""
    k = a.known
    out = []
    for t in foes:
        joiners = tuple(q.id for q in mine if reaches(k, q, t))
        if len(joiners) < 2:
            continue
        whole = Attack(squads=joiners, targets=(t.id,))
        singles = [Attack(squads=(q,), targets=(t.id,)) for q in joiners]
        if not a.ok(whole, whole=True) or not all(a.ok(x) for x in singles):
            continue
        out.append(
            Prompt(
                id=f"attack-together:{t.id}",
                role="side",
                side=side,
                commands=("Attack",),
                reason=f"squads may attack {t.id} together: `squads` lists those that may"
                " join (send any of them as a list)",
                choices={"squads": list(joiners), "targets": [t.id]},
                dice=a.dice([whole], when="if every squad listed joins"),
                optional=True,
                pass_with="EndStep",
                rule=R_COMBAT,
            )
        )
    return out


def _repositions(a: Asker, side: str) -> list[Prompt]:
    k = a.known
    out = []
    mine = sorted(q for q, x in k.squads.items() if x.side == side)
    for h in sorted(k.heroes.values(), key=lambda h: h.id):
        if h.side != side:
            continue
        squads = [q for q in mine if a.ok(RepositionHero(hero=h.id, squad=q))]
        tower = a.ok(RepositionHero(hero=h.id, watchtower=True))
        for pid, where, choices in (
            (f"reposition:{h.id}", f"another squad of {side}", {"hero": [h.id], "squad": squads}),
            (
                f"reposition:{h.id}:watchtower",
                "the watchtower",
                {"hero": [h.id], "watchtower": ["true"]},
            ),
        ):
            if not (squads if where != "the watchtower" else tower):
                continue
            out.append(
                Prompt(
                    id=pid,
                    role="side",
                    side=side,
                    subject=h.id,
                    commands=("RepositionHero",),
                    reason=f"{h.id} may move to {where}",
                    choices=choices,
                    optional=True,
                    pass_with="EndStep",
                    rule=R_REPOSITION,
                )
            )
    return out


def _turn(a: Asker) -> list[Prompt]:
    k = a.known
    side = k.active_side
    if side is None:
        return []
    step = "reposition" if k.phase == "reposition" else k.step
    rule = _STEP_RULES.get(step, R_ACTION)
    end = Prompt(
        id=f"end-step:{side}:{k.round}:{step}",
        role="side",
        side=side,
        commands=_STEP_COMMANDS.get(step, ("EndStep",)),
        reason=f"{side}'s turn, {_STEP_REASONS.get(step, step)}; EndStep ends the step",
        rule=rule,
    )
    if not a.answers(side):
        return [end]
    out: list[Prompt] = []
    if step == "reposition":
        out += _repositions(a, side)
    else:
        if step in ("move", "skirmish"):
            out += _moves(a, side, step)
        if step in ("move", "combat"):
            out += _skills(a, side)
        if step == "combat":
            out += _attacks(a, side)
    if a.ok(EndStep(), whole=True):
        ends = replace(end, commands=("EndStep",), dice=a.dice([EndStep()]))
        out.append(ends)
    return out


def _referee(a: Asker) -> list[Prompt]:
    k = a.known
    out = []
    for h in sorted(k.heroes.values(), key=lambda h: h.id):
        if h.status == "active":
            continue
        squads = sorted(q for q in k.squads if a.ok(ReviveHero(hero=h.id, squad=q)))
        if squads:
            out.append(
                Prompt(
                    id=f"revive:{h.id}",
                    role="referee",
                    subject=h.id,
                    commands=("ReviveHero",),
                    reason=f"{h.id} is {h.status}: the referee may bring it back onto a squad",
                    choices={"hero": [h.id], "squad": squads},
                    optional=True,
                    rule=R_HEROES,
                )
            )
    # An adjustment that changes nothing is accepted for every squad alike, whenever no
    # combat is being resolved (decide.adjustable, held to decide by a test): no probe.
    squads = sorted(k.squads)
    if squads and adjustable(k):
        out.append(
            Prompt(
                id="adjust-squad",
                role="referee",
                commands=("AdjustSquad",),
                reason="the referee may correct a squad: `level` (an integer, at least 1),"
                f" `x` and `y` (integers, 0 to {k.width - 1} and 0 to {k.height - 1}, a free"
                " square); each left out stays as it is",
                choices={"squad": squads},
                optional=True,
                rule=R_REFEREE,
            )
        )
    # decide accepts EndBattle from the referee in every state but the end (held to it
    # by tests/unit/quickstart/test_referee_prechecks.py), and awaiting answers nothing
    # once the battle is over: no probe.
    out.append(
        Prompt(
            id="end-battle",
            role="referee",
            commands=("EndBattle",),
            reason="the referee may end the battle (a winner or none)",
            choices={"winner": list(k.sides)},
            optional=True,
            rule=R_REFEREE,
        )
    )
    return out


def awaiting(state: State, actor: Actor) -> list[Prompt]:
    """What the battle waits for now, in `actor`'s view; [] once it is over."""
    if state.phase == "over":
        return []
    a = _asking(state, actor)
    if a.known.combat is not None:
        out = _combat(a)
    elif a.known.phase == "priority":
        out = _priority(a)
    else:
        out = _turn(a)
    if actor.is_referee:
        out += _referee(a)
    return out
