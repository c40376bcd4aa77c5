"""The narrative's tellers of skirmish events (seed 000): each d20 check as its die and
every bonus against the DC, an action's targets, success percentage and die rolls, the
damage a phase did to an army."""

from __future__ import annotations

from typing import Any

from service.desk.narrative_generic import Teller, check
from service.desk.narrative_words import words

__all__ = ["TELLERS"]


def _action(d: dict[str, Any]) -> str:
    r = d.get("result") or {}
    targets, success = r.get("targets") or {}, r.get("success") or {}
    text = (
        f"{d['army']} ({d['side']}) used {_name(d['profile'])} against {d['target']} in the "
        f"{d['phase']} phase: {check(d['check'])}"
    )
    if targets:
        text += f"; {targets.get('targets')} targets, {targets.get('die_rolls')} die rolls"
    if success:
        text += (
            f"; success {words(success.get('success_percentage'))}%: "
            f"{success.get('successful')} successful, {success.get('critical')} critical, "
            f"{success.get('unsuccessful')} unsuccessful"
        )
    if d.get("diverted_to"):
        text += f"; part diverted to {d['diverted_to']}"
    flags = [k.replace("_", " ") for k in ("opportunity", "flanking", "friendly_fire") if d.get(k)]
    return text + (f" ({', '.join(flags)})" if flags else "")


def _damage(d: dict[str, Any]) -> str:
    r = d.get("result") or {}
    before, after = r.get("before") or {}, r.get("after") or {}
    status = d.get("status") or {}
    text = (
        f"{d['army']} in the {d['phase']} phase: {r.get('damage')} damage, "
        f"{r.get('healed')} healed; total army HP {before.get('total_army_hp')} to "
        f"{after.get('total_army_hp')}, army size {before.get('army_size')} to "
        f"{after.get('army_size')} ({r.get('removed')} removed, {r.get('dead')} dead)"
    )
    ends = [k for k in ("defeated", "destroyed") if status.get(k)]
    return text + (f"; {' and '.join(ends)}" if ends else "")


def _name(x: Any) -> str:
    """A profile or spec by its name (an object as stored in an event), else its words."""
    return str(x.get("name")) if isinstance(x, dict) and "name" in x else words(x)


def _checked(who: str, what: str, c: dict[str, Any]) -> str:
    return f"{who} {what}: {check(c)}"


TELLERS: dict[str, Teller] = {
    "ActionResolved": _action,
    "PhaseDamageApplied": _damage,
    "InitiativeRolled": lambda d: _checked(
        d["side"], "rolled initiative" + (" (surprised)" if d.get("surprised") else ""), d["check"]
    ),
    "SurpriseChecked": lambda d: _checked(
        d["side"], f"tried to surprise {d['target_side']}", d["check"]
    ),
    "MoraleChecked": lambda d: (
        _checked(d["army"], "checked morale", d["check"]) + (": routed" if d.get("routed") else "")
    ),
    "TacticIssued": lambda d: (
        _checked(d["army"], f"was ordered {d['tactic']}", d["check"])
        + f"; others notice on {d.get('notice_dc')} or more"
    ),
    "TacticNoticed": lambda d: (
        _checked(d["by_army"], f"watched {d['army']}", d["check"])
        + (f": noticed {d['tactic']}" if d.get("tactic") else "")
    ),
    "ArmyMoved": lambda d: (
        f"{d['army']} moved {d['feet']} feet {d['direction']} (of {d['allowance']}) "
        f"to ({d['x']}, {d['y']})"
        + "".join(f"; provoked {p['attacker']}" for p in d.get("provoked", []))
    ),
    "PhaseBegan": lambda d: f"round {d['round']}, {d['phase']} phase",
    "ActionDeclared": lambda d: (
        f"{d['declaration']['army']} declared {_name(d['declaration']['profile'])} against "
        f"{d['declaration']['target']}"
    ),
    "StrategyChanged": lambda d: (
        f"{d['side']} changed strategy to {d['strategy']} ({d['steps']} steps); "
        f"now on it: {words(d.get('changed'))}"
    ),
}
