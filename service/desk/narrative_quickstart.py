"""The narrative's tellers of quickstart events (seed 001): each squad's combat dice with
why their count is not its level, the face each needed and the hits it scored; checks
against their DC; engines, barriers and heroes by name."""

from __future__ import annotations

from typing import Any

from service.desk.narrative_battle import ended
from service.desk.narrative_generic import Teller
from service.desk.narrative_words import roll, signed, words

__all__ = ["TELLERS"]


def _count(r: dict[str, Any]) -> str:
    """Why a squad rolled the dice it did: its level (Xd6), then each modifier."""
    n = len(r.get("dice", {}).get("values", []))
    if r.get("level") is None:
        return f"{n}d6"
    why = [f"level {r['level']}"] + [
        f"{signed(m['value'])} {m['reason']} [{m['rule']}]" for m in r.get("modifiers", [])
    ]
    return f"{n}d6 ({', '.join(why)})"


def _squad_roll(r: dict[str, Any]) -> str:
    text = f"{r['squad']} ({r['side']}) rolled {_count(r)}: {roll(r['dice'])}, "
    text += f"a hit on {r['hit_on']} or more"
    if r.get("circle_hit_on") is not None:
        text += f" ({r['circle_hit_on']} or more against a squad on its side's magic circle)"
    text += f"; {r['hits']} hit{'' if r['hits'] == 1 else 's'}"
    notes = []
    if r.get("circle_only"):
        notes.append(f"{r['circle_only']} only against a squad on a magic circle")
    if r.get("undead_only"):
        notes.append(f"{r['undead_only']} only against undead (paladins)")
    return text + (f" ({'; '.join(notes)})" if notes else "")


def _combat(d: dict[str, Any]) -> str:
    stage = "first strike" if d.get("stage") == "first_strike" else "combat dice"
    parts = [_squad_roll(r) for r in d.get("rolls", [])]
    hits = [
        f"{h['source']} on {h['victim_side']}"
        + ("" if h.get("only", "any") == "any" else f" (only a squad {h['only']})")
        for h in d.get("hits", [])
    ]
    text = f"{stage}: {'; '.join(parts) or 'no squad rolled'}. Hits: {', '.join(hits) or 'none'}"
    ignored = {s: n for s, n in (d.get("ignored") or {}).items() if n}
    if ignored:
        text += "; ignored: " + ", ".join(f"{n} against {s} (soldiers)" for s, n in ignored.items())
    if d.get("healed"):
        text += f"; healed: {words(d['healed'])}"
    return text


def _squares(n: int) -> str:
    return f"{n} square" if n == 1 else f"{n} squares"


def _retreated(d: dict[str, Any]) -> str:
    why = "its squad destroyed" if d.get("cause") == "squad_destroyed" else "it escaped"
    where = f"to {d['squad']}" if d.get("squad") else f"nowhere: trapped at ({d['x']}, {d['y']})"
    return f"{d['hero']} ({d['side']}) retreated {where} ({why})"


def _repositioned(d: dict[str, Any]) -> str:
    where = "the watchtower" if d.get("watchtower") else d.get("squad") or "no squad"
    return f"{d['hero']} ({d['side']}) repositioned to {where}"


def _check(d: dict[str, Any], what: str) -> str:
    result = "success" if d.get("success") else "failure"
    return (
        f"{d['hero']} ({d['side']}) {what}: {roll(d['die'])} {signed(d['modifier'])}, "
        f"total {d['total']} against DC {d['dc']}: {result}"
    )


def _hit(d: dict[str, Any]) -> str:
    outcome = d.get("outcome")
    who = d.get("squad") or "no squad"
    text = {
        "destroyed": f"{who} ({d['side']}) destroyed by {d['source']}'s hit",
        "wounded": f"{who} ({d['side']}) took {d['source']}'s hit (it needs two)",
        "saved": f"{who} ({d['side']}) saved from {d['source']}'s hit",
        "no_target": f"{d['source']}'s hit found no squad of {d['side']} to take it",
    }.get(str(outcome), f"{who}: {outcome}")
    if d.get("medic"):
        text += f" by the medic {d['medic']}"
    if d.get("save"):
        text += f" (save {roll(d['save'])})"
    return text


def _engine(d: dict[str, Any]) -> str:
    hit = "a hit" if d.get("hit") else "no hit"
    return (
        f"{d['engine']} ({d['side']}, worked by {d['squad']}) fired at {d['target_kind']} "
        f"{d['target']}: {roll(d['dice'])} (a d6 per level of the engine), a hit on a 6: {hit}"
    )


def _barrier(d: dict[str, Any]) -> str:
    after = "destroyed" if d.get("destroyed") else f"holds at level {d.get('level')}"
    dice = f"{roll(d['dice'])} (a d6 per level)"
    return f"{d['barrier']} ({d['side']}) was hit: {dice}, holds on a 5 or 6: {after}"


def _priority(d: dict[str, Any]) -> str:
    rolls = "".join(f"; {r['side']} {roll(r['die'])}" for r in d.get("rolls", []))
    how = "chosen" if d.get("method") == "chosen" else "a roll-off"
    return f"priority: {words(d.get('order'))} ({how}{rolls})"


TELLERS: dict[str, Teller] = {
    "CombatRolled": _combat,
    "PriorityChecked": lambda d: _check(d, f"checked {d['skill']} for priority"),
    "SkillChecked": lambda d: _check(
        d,
        f"checked {d['skill']} ({d['effect']}"
        + (f", for {d['squad']})" if d.get("squad") else ")"),
    ),
    "HitApplied": _hit,
    "EngineFired": _engine,
    "BarrierHit": _barrier,
    "PriorityDecided": _priority,
    "CombatStarted": lambda d: (
        f"combat: {words(d['attackers'])} ({d['attacker_side']}) against "
        f"{words(d['defenders'])} ({d['defender_side']})"
        + (f"; ambush by {words(d['ambush'])}" if d.get("ambush") else "")
    ),
    "SquadMoved": lambda d: (
        f"{d['squad']} ({d['side']}) moved to ({d['x']}, {d['y']}), {_squares(d['cost'])} "
        f"({d['action']} action)" + (f"; stopped by {d['met']}" if d.get("met") else "")
    ),
    "StepAdvanced": lambda d: (
        f"{d['side']}'s {d['step']} step ({d['phase']} phase, turn {d['turn']})"
    ),
    "RoundEnded": lambda d: f"round {d['round']} ended",
    "PressOrRetreatOffered": lambda d: f"{d['side']} may press the attack or retreat",
    "PriorityChoiceOffered": lambda d: f"{d['side']} may choose who has priority",
    "AttackPressed": lambda d: f"{d['side']} pressed the attack",
    "SquadsRetreated": lambda d: (
        f"{d['side']} retreated: "
        + ", ".join(f"{m['squad']} to ({m['x']}, {m['y']})" for m in d.get("moves", []))
    ),
    "HeroRetreated": _retreated,
    "HeroRepositioned": _repositioned,
    "HeroSurgeLost": lambda d: f"{d['hero']} lost a healing surge ({d['surges']} left)",
    "HeroRemoved": lambda d: f"{d['hero']} was removed from the fight",
    "HeroRevived": lambda d: f"{d['hero']} revived onto {d['squad']} with {d['surges']} surges",
    "SquadRevealed": lambda d: f"{d['squad']} ({d['side']}) revealed at ({d['x']}, {d['y']})",
    "EngineDestroyed": lambda d: f"{d['engine']} ({d['side']}) destroyed",
    "SquadAdjusted": lambda d: (
        f"{d['squad']} ({d['side']}) set to level {d['level']} at ({d['x']}, {d['y']})"
    ),
    "CombatEnded": lambda d: f"the combat ended: {d['reason']}",
    "BattleEnded": ended,
}
