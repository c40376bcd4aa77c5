"""What a tactical battle waits for now, as prompts in an actor's view (issue 34; seed 002).

The windows, in the order decide takes commands (decide.py):
- before combat: the referee rolls initiative ([Sequence §3]); optional, the referee's
  surprise ruling ("surprise", [Sequence §1]) and each side placing its characters
  ("place:<c>", [Sequence §2]);
- an attack waits for its target's reaction ([Stamina Actions] Dodge, Parry, Shield):
  "react:<target>";
- an opportunity window is open ([Stamina Actions] Opportunity Attack): one prompt per
  reactor still to answer, "opportunity:<reactor>", which may be let pass (React none);
  the attack it makes may open a reaction window in turn (the next awaiting says so);
- otherwise the active character's turn ([Sequence §5], [Actions]): "turn:<c>" (move,
  rest, help, stunned, end turn), "attack:<c>:<weapon>" per weapon with the targets it
  reaches, "save:<c>", "grapple:<c>", "bull_rush:<c>", "perceive:<c>", and
  turn_prompts.py's charges, area attacks, walls, reloads and free actions. A death save
  is no command: it is rolled at the start of the dying character's turn, by the EndTurn
  before it, whose prompt lists it among its dice;
- in combat, when none of these has an answer decide takes (a fault): "way-out", the
  referee's EndCombat, so the battle never waits on nothing.

Every command a prompt lists, with every value of its choices, is one `probe.accepts`
found authorize and decide take from the prompt's side: the checks are decide's own.

Hidden information: the prompts of the actor's own side (all of them for the referee)
come whole. Another side's window is shown as its kind, subject and the command types
that answer such a window, without choices or dice (which could depend on what the
actor cannot see), and not at all when its subject is a character hidden from the actor.
"""

from __future__ import annotations

from typing import Any

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.tactical.access import sees_pending
from domain.rulesets.tactical.commands import (
    Attack,
    BullRush,
    Command,
    EndCombat,
    EndTurn,
    Grapple,
    Help,
    OpportunityAttack,
    Perceive,
    React,
    Rest,
    RollInitiative,
    Save,
    Stunned,
)
from domain.rulesets.tactical.model import Char, State
from domain.rulesets.tactical.probe import Probe
from domain.rulesets.tactical.reach import can_move, hidden_from, run_for
from domain.rulesets.tactical.rules import (
    R_CONDITIONS,
    R_REFEREE,
    R_SEQUENCE,
    R_STAMINA_ACTIONS,
    R_STANDARD,
)
from domain.rulesets.tactical.setup_prompts import placing, surprise
from domain.rulesets.tactical.turn_prompts import build as _build
from domain.rulesets.tactical.turn_prompts import choose as _choose
from domain.rulesets.tactical.turn_prompts import extra_turn, split_area
from domain.rulesets.tactical.turn_prompts import when as _when

__all__ = ["awaiting"]

_REFEREE = Actor(role="referee")
# What answers a window of each kind, as another side may be told of it.
_KINDS: dict[str, tuple[str, ...]] = {
    "initiative": ("RollInitiative",),
    "react": ("React",),
    "opportunity": ("OpportunityAttack", "React"),
    "turn": ("Move", "Attack", "EndTurn"),
}


def _side(c: Char) -> Actor:
    return Actor(role="side", side=c.side)


def _initiative(pr: Probe) -> list[Prompt]:
    cmd = RollInitiative()
    if not pr.accepts(cmd, _REFEREE):
        return []
    return [
        Prompt(
            id="initiative",
            role="referee",
            commands=("RollInitiative",),
            reason="the combat begins when the referee rolls initiative (d12 + DEX each)",
            dice=pr.needs(cmd, _REFEREE),
            rule=R_SEQUENCE,
        )
    ]


def _react(pr: Probe) -> list[Prompt]:
    state = pr.state
    p = state.pending
    assert p is not None
    t = state.chars.get(p.target or "")
    if t is None:
        return []
    me = _side(t)
    kinds = _choose(pr, me, React, "reaction", ("dodge", "parry", "shield", "none"), sta=1,
                    character=t.id)  # fmt: skip
    if not kinds:
        return []
    choices = {"reaction": kinds}
    if "parry" in kinds:  # A20: any STA from 1 to what it has
        choices["sta"] = [str(n) for n in range(1, max(t.STA.cur, 1) + 1)]
    first = _build(React, character=t.id, reaction=kinds[0], sta=1)
    return [
        Prompt(
            id=f"react:{t.id}",
            role="side",
            side=t.side,
            subject=t.id,
            commands=("React",),
            reason=f"{p.attacker} attacks {t.id} with {p.weapon}: dodge, parry, shield or none",
            choices=choices,
            dice=_when(pr.needs(first, me), f"reaction is {kinds[0]}"),
            rule=R_STAMINA_ACTIONS,
        )
    ]


def _opportunity(pr: Probe) -> list[Prompt]:
    state = pr.state
    w = state.opportunity
    assert w is not None
    out: list[Prompt] = []
    for rid in w.reactors:
        r = state.chars.get(rid)
        if r is None:
            continue
        me = _side(r)
        oa = OpportunityAttack(character=r.id)
        answers: tuple[tuple[str, Command], ...] = (
            ("OpportunityAttack", oa),
            ("React", React(character=r.id, reaction="none")),
        )
        commands = [name for name, cmd in answers if pr.accepts(cmd, me)]
        if not commands:
            continue
        out.append(
            Prompt(
                id=f"opportunity:{r.id}",
                role="side",
                side=r.side,
                subject=r.id,
                commands=tuple(commands),
                reason=f"{w.provoker} provokes an opportunity attack ({w.trigger}) from {r.id}",
                choices={"reaction": ["none"]} if "React" in commands else {},
                dice=pr.needs(oa, me) if "OpportunityAttack" in commands else (),
                optional="React" in commands,
                pass_with="React" if "React" in commands else None,
                rule=R_STAMINA_ACTIONS,
            )
        )
    return out


def _turn(pr: Probe, c: Char, actor: Actor) -> list[Prompt]:
    """The active character's own prompts (the commands of its turn decide takes)."""
    state = pr.state
    me = _side(c)
    cid = c.id
    out: list[Prompt] = []
    commands: list[str] = []
    choices: dict[str, list[str]] = {}
    if can_move(state, me, cid):
        commands.append("Move")
        choices["mode"] = ["run"]
        if run_for(c).stand_up:
            choices["stand_up"] = ["true"]
    lose = _choose(pr, me, Stunned, "lose", ("standard", "move"), character=cid)
    if lose:
        commands.append("Stunned")
        choices["lose"] = lose
    if pr.accepts(Rest(character=cid), me):
        commands.append("Rest")
    allies = [a.id for a in state.chars.values() if a.side == c.side and a.id != cid]
    helped = _choose(pr, me, Help, "ally", allies, character=cid)
    if helped:
        commands.append("Help")
        choices["ally"] = helped
    end = EndTurn(character=cid)
    ending = pr.accepts(end, me)
    if ending:
        commands.append("EndTurn")
    if commands:
        out.append(
            Prompt(
                id=f"turn:{cid}",
                role="side",
                side=c.side,
                subject=cid,
                commands=tuple(commands),
                reason=f"{cid}'s turn: {_left(c)}",
                choices=choices,
                dice=_when(pr.needs(end, me), "turn ends (EndTurn)") if ending else (),
                rule=R_SEQUENCE,
            )
        )
    out.extend(_targeted(pr, c, actor))
    return out


def _left(c: Char) -> str:
    parts = []
    if not c.standard_used:
        parts.append("standard action")
    if c.moves < 2:
        parts.append("move action" if c.moves == 0 else "second move action (6 STA)")
    parts.append(f"{c.STA.cur} STA")
    return ", ".join(parts) + " left"


def _targets(state: State, c: Char, actor: Actor) -> list[str]:
    """The characters and structures a command of `c` may name: what the actor can see."""
    hidden = hidden_from(state, actor)
    out = [t.id for t in state.chars.values() if t.id != c.id and t.id not in hidden]
    return out + [s.id for s in state.structures.values() if not s.destroyed]


def _targeted(pr: Probe, c: Char, actor: Actor) -> list[Prompt]:
    """Attacks (one prompt per weapon), saves, grapples, bull rushes, perception."""
    state = pr.state
    me = _side(c)
    cid = c.id
    names = _targets(state, c, actor)
    weapons, area = split_area(
        state, c, [w for w in (c.main_hand, c.off_hand, *c.powers) if w is not None]
    )
    groups: list[tuple[str, type[Any], str, list[Any], dict[str, Any], str, str]] = [
        (f"attack:{cid}:{w}", Attack, "target", names, {"weapon": w}, f"{cid} attacks with {w}",
         R_STANDARD)
        for w in weapons
    ]  # fmt: skip
    conditions = [k.name for k in c.conditions]
    groups += [
        (f"save:{cid}", Save, "condition", conditions, {}, f"{cid} may save", R_CONDITIONS),
        (f"grapple:{cid}", Grapple, "target", names, {}, f"{cid} may grapple", R_STANDARD),
        (f"bull_rush:{cid}", BullRush, "target", names, {}, f"{cid} may bull rush", R_STANDARD),
        (f"perceive:{cid}", Perceive, "target", names, {}, f"{cid} may perceive", R_STANDARD),
    ]
    out: list[Prompt] = []
    for pid, kind, field, values, base, reason, rule in groups:
        ok = _choose(pr, me, kind, field, values, character=cid, **base)
        if not ok:
            continue
        first = _build(kind, character=cid, **base, **{field: ok[0]})
        choices = {field: [str(v) for v in ok], **{k: [str(v)] for k, v in base.items()}}
        out.append(
            Prompt(
                id=pid,
                role="side",
                side=c.side,
                subject=cid,
                commands=(kind.__struct_config__.tag,),
                reason=reason,
                choices=choices,
                dice=_when(pr.needs(first, me), f"{field} is {ok[0]}"),
                rule=rule,
            )
        )
    return out + extra_turn(pr, c, me, names, area)


def _windows(state: State, actor: Actor) -> list[Prompt]:
    pr = Probe(state)
    if state.phase == "setup":
        return _initiative(pr) + surprise(pr) + placing(pr)
    if state.pending is not None:
        out = _react(pr)
    elif state.opportunity is not None:
        out = _opportunity(pr)
    else:
        c = state.chars.get(state.active or "")
        out = [] if c is None else _turn(pr, c, actor)
    return out or _way_out(pr)


def _way_out(pr: Probe) -> list[Prompt]:
    """A combat waiting on something nobody may answer (every answer refused: a bug, as
    a pending attack after a refused resume was, issue 34): the referee may end it
    ([Sequence]: the GM runs the combat), so the battle never waits on nothing."""
    cmd = EndCombat(reason="nothing the battle waits for can be answered")
    if pr.state.phase != "combat" or not pr.accepts(cmd, _REFEREE):
        return []
    return [
        Prompt(
            id="way-out",
            role="referee",
            commands=("EndCombat",),
            reason="nothing the battle waits for can be answered (a fault to report): "
            "the referee may end the combat",
            rule=R_REFEREE,
        )
    ]


def _told(state: State, actor: Actor) -> list[Prompt]:
    """The windows of other sides as `actor` may know of them: built from what its view
    shows (the phase, the pending attack's target, the reactors, the active character),
    their kind and subject only, and none whose subject is hidden from it."""
    hidden = hidden_from(state, actor)
    if state.phase == "setup":
        subjects: list[tuple[str, str | None]] = [("initiative", None)]
    elif state.pending is not None and sees_pending(state, actor):
        # one it may not see (told to a side, access._pending_seen): as before the attack
        subjects = [("react", state.pending.target)]
    elif state.opportunity is not None:
        subjects = [("opportunity", r) for r in state.opportunity.reactors]
    else:
        subjects = [("turn", state.active)]
    own = actor.side if actor.role == "side" else None
    out: list[Prompt] = []
    for kind, cid in subjects:
        c = state.chars.get(cid) if cid is not None else None
        if c is None and kind != "initiative":
            continue
        if c is not None and (c.id in hidden or c.side == own):
            continue
        out.append(
            Prompt(
                id=kind if c is None else f"{kind}:{c.id}",
                role="referee" if c is None else "side",
                side=None if c is None else c.side,
                subject=None if c is None else c.id,
                commands=_KINDS[kind],
                reason=f"waiting for {'the referee' if c is None else c.id} ({kind})",
                optional=kind == "opportunity",
                pass_with="React" if kind == "opportunity" else None,
                rule=R_STAMINA_ACTIONS if kind in ("react", "opportunity") else R_SEQUENCE,
            )
        )
    return out


def awaiting(state: State, actor: Actor) -> list[Prompt]:
    """What the battle waits for now, in `actor`'s view (module docstring)."""
    if state.phase == "over":
        return []
    if actor.is_referee:
        return _windows(state, actor)
    own = actor.side if actor.role == "side" else None
    mine = [p for p in _windows(state, actor) if own is not None and p.side == own]
    return mine + _told(state, actor)
