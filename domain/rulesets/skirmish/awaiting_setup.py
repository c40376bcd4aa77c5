"""The prompts of the skirmish's setup steps (seed 000 "Starting Skirmish Combat").

One step at a time, as `state.step` says: leaders, armies, boons, surprise, initiative,
zones, placement, strategies, tactics (secret), adjust; the referee ends each step with
AdvanceSetup. Zones, placement and strategies go lowest initiative first, so only the
force whose turn it is is prompted. A field whose value is free (a leader's or an army's
statistics, zones, where to place an army) is left to the table: such a prompt names the
side or army but lists no choice for it. Every choice listed is one authorize and decide
accept (domain.probing). Another side's window is one coarse prompt without choices: its
tactics and adjustments are its own.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.probing import Asker
from domain.prompts import Prompt
from domain.rulesets.skirmish.commands import (
    AdjustTactic,
    AdvanceSetup,
    ChooseTactic,
    Command,
    DeclareStrategy,
    GrantBoon,
    RollInitiative,
)
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.options import STRATEGIES
from domain.rulesets.skirmish.rules import (
    R_ADJUST,
    R_BOONS,
    R_INITIATIVE,
    R_LEADER,
    R_PLACEMENT,
    R_SETUP,
    R_STRATEGY,
    R_SURPRISE,
    R_TACTICS,
    R_ZONES,
)

__all__ = ["setup_prompts"]

# step -> (the command that answers it, the rule, what the side does)
_STEPS: dict[str, tuple[str, str, str]] = {
    "leaders": ("AppointLeader", R_LEADER, "names its acting leader"),
    "armies": ("RaiseArmy", R_SETUP, "raises its armies"),
    "boons": ("GrantBoon", R_BOONS, "may apply its leader's and commanders' boons"),
    "surprise": ("CheckSurprise", R_SURPRISE, "may hide armies to surprise a force"),
    "initiative": ("RollInitiative", R_INITIATIVE, "rolls tactical initiative"),
    "zones": ("SetZones", R_ZONES, "chooses its zones"),
    "placement": ("PlaceArmy", R_PLACEMENT, "places its armies"),
    "strategies": ("DeclareStrategy", R_STRATEGY, "declares its strategy"),
    "tactics": ("ChooseTactic", R_TACTICS, "may choose its armies' secret starting tactics"),
    "adjust": ("AdjustTactic", R_ADJUST, "may learn or change tactics (initiative)"),
}


def _ok(a: Asker, cmds: list[Command]) -> list[Command]:
    return [c for c in cmds if a.ok(c)]


def _in_turn(s: State, done: set[str]) -> list[str]:
    """The forces whose turn it is in a lowest-initiative-first step: the first not done,
    and every force before it (done: it may still change its answer)."""
    out: list[str] = []
    for f in s.initiative_order or tuple(s.forces):
        out.append(f)
        if f not in done:
            break
    return out


def _waiting(s: State, step: str) -> list[str]:
    """The forces a step waits on (or may hear from), from what every reader sees."""
    forces = s.forces.values()
    if step == "leaders":
        return [f.id for f in forces if f.leader is None]
    if step == "initiative":
        return [f.id for f in forces if f.initiative is None]
    if step == "zones":
        return [f for f in _in_turn(s, {f.id for f in forces if f.zones}) if not s.forces[f].zones]
    if step == "placement":
        done = {f.id for f in forces if all(x.placed for x in s.armies.values() if x.side == f.id)}
        return [f for f in _in_turn(s, done) if f not in done]
    if step == "strategies":
        return _in_turn(s, {f.id for f in forces if f.strategy is not None})
    return [f.id for f in forces]


def _own(a: Asker, s: State, step: str, side: str) -> list[Prompt]:
    """The prompts of `side`'s own window in `step`, with their choices."""
    command, rule, what = _STEPS[step]
    base = Prompt(
        id=f"{step}:{side}",
        role="side",
        side=side,
        commands=(command,),
        reason=f"{side} {what}",
        choices={"side": [side]},
        rule=rule,
    )
    armies = sorted(x.id for x in s.armies.values() if x.side == side)
    if step in ("leaders", "zones"):
        return [base]
    if step == "armies":
        return [replace(base, optional=bool(armies), pass_with="AdvanceSetup")]
    if step == "surprise":
        others = [f for f in s.forces if f != side]
        return [replace(base, choices={"side": [side], "target_side": others}, optional=True)]
    if step == "initiative":
        cmds = _ok(a, [RollInitiative(side=side)])
        return [replace(base, dice=a.dice(cmds))] if cmds else []
    if step == "placement":
        return [
            replace(base, id=f"placement:{x}", subject=x, choices={"army": [x]})
            for x in armies
            if not s.armies[x].placed
        ]
    if step == "strategies":
        cmds = _ok(a, [DeclareStrategy(side=side, strategy=x) for x in STRATEGIES])
        chosen = [c.strategy for c in cmds if isinstance(c, DeclareStrategy)]
        optional = s.forces[side].strategy is not None
        return [replace(base, choices={"side": [side], "strategy": chosen}, optional=optional)]
    if step == "boons":
        return _boons(a, s, base, side, armies)
    if step == "tactics":
        return _tactics(a, s, base, armies)
    return _adjust(a, s, base, side, armies)


def _boons(a: Asker, s: State, base: Prompt, side: str, armies: list[str]) -> list[Prompt]:
    out = []
    names = sorted(s.options.boons)
    for army in (None, *armies):
        cmds = _ok(a, [GrantBoon(side=side, boon=b, army=army) for b in names])
        if not cmds:
            continue
        boons = [c.boon for c in cmds if isinstance(c, GrantBoon)]
        choices = {"side": [side], "boon": boons, **({"army": [army]} if army else {})}
        pid = f"boons:{army or side}"
        out.append(replace(base, id=pid, subject=army, choices=choices, optional=True))
    return out


def _tactics(a: Asker, s: State, base: Prompt, armies: list[str]) -> list[Prompt]:
    out = []
    names = sorted(s.options.tactics)
    for army in armies:
        cmds = _ok(a, [ChooseTactic(army=army, tactic=t) for t in names])
        tactics = [c.tactic for c in cmds if isinstance(c, ChooseTactic)]
        if tactics:
            choices = {"army": [army], "tactic": tactics}
            pid = f"tactics:{army}"
            out.append(replace(base, id=pid, subject=army, choices=choices, optional=True, dice=()))
    return out


def _adjust(a: Asker, s: State, base: Prompt, side: str, armies: list[str]) -> list[Prompt]:
    out = []
    theirs = sorted(x.id for x in s.armies.values() if x.side != side)
    learn = _ok(a, [AdjustTactic(side=side, army=x) for x in theirs])
    if learn:
        choices = {"side": [side], "army": [c.army for c in learn if isinstance(c, AdjustTactic)]}
        reason = f"{side} may learn an opposing army's tactic"
        out.append(replace(base, id=f"adjust:{side}", reason=reason, choices=choices))
    names = sorted(s.options.tactics)
    for army in armies:
        cmds = _ok(a, [AdjustTactic(side=side, army=army, tactic=t) for t in names])
        tactics = [c.tactic or "" for c in cmds if isinstance(c, AdjustTactic)]
        if tactics:
            choices = {"side": [side], "army": [army], "tactic": tactics}
            reason = f"{side} may change {army}'s tactic"
            out.append(
                replace(base, id=f"adjust:{army}", subject=army, reason=reason, choices=choices)
            )
    return [replace(p, optional=True) for p in out]


def setup_prompts(a: Asker, s: State) -> list[Prompt]:
    """The setup step's prompts in the asking actor's view."""
    step = s.step
    command, rule, what = _STEPS[step]
    out: list[Prompt] = []
    for side in _waiting(s, step):
        if a.answers(side):
            out += _own(a, s, step, side)
        else:
            out.append(
                Prompt(
                    id=f"{step}:{side}",
                    role="side",
                    side=side,
                    commands=(command,),
                    reason=f"{side} {what}",
                    rule=rule,
                )
            )
    end = Prompt(
        id=f"advance-setup:{step}",
        role="referee",
        commands=("AdvanceSetup",),
        reason=f"the referee ends the setup step {step!r}",
        rule=R_SETUP,
    )
    if not a.actor.is_referee:
        out.append(end)
    elif a.ok(AdvanceSetup()):
        out.append(replace(end, dice=a.dice([AdvanceSetup()])))
    return out
