"""The narrative's tellers of phased events (seed 004): an attack as its d20 and bonuses
against the armour class, initiative with its ties and re-rolls, a combat event drawn
with every d20 (those that could not occur too) and each save against its target."""

from __future__ import annotations

from typing import Any

from service.desk.narrative_battle import ended
from service.desk.narrative_generic import Teller
from service.desk.narrative_words import roll, signed, words

__all__ = ["TELLERS"]


def _attack(a: dict[str, Any]) -> str:
    bonus = f" {signed(a['bonus'])} Lucky Opening" if a.get("bonus") else ""
    ac_bonus = f" {signed(a['ac_bonus'])} Lucky Break" if a.get("ac_bonus") else ""
    text = (
        f"{roll(a['die'])} {signed(a['to_hit'])} to hit{bonus}, total {a['total']} "
        f"against AC {a['ac']}{ac_bonus}: " + ("a hit" if a.get("hit") else "a miss")
    )
    if a.get("damage_roll"):
        text += f", damage {roll(a['damage_roll'])} = {a.get('damage')}"
    return text


def _resolved(d: dict[str, Any]) -> str:
    how = {"roll": "rolled", "completed": "completed", "referee": "ruled by the referee"}
    text = (
        f"{d['combatant']} ({d['side']}) {d['kind']} in round {d['round']}, "
        f"phase {d['phase']}, {how.get(d['by'], d['by'])}"
    )
    if d.get("attack"):
        text += f": with {d['attack']['weapon']} at {d['attack']['target']}: {_attack(d['attack'])}"
    if d.get("outcome"):
        text += f": {d['outcome']}"
    if d.get("target_hp") is not None:
        text += f"; {d.get('target')} at {d['target_hp']} HP"
    return text


def _declared(a: dict[str, Any]) -> str:
    what = a.get("weapon") or a.get("spell")
    text = f"{a['combatant']} ({a['side']}) declared {a['kind']}" + (
        f" with {what}" if what else ""
    )
    text += f" at {a['target']}" if a.get("target") else ""
    return text


def _initiative(d: dict[str, Any]) -> str:
    rolls = ", ".join(f"{r['side']} {roll(r['die'])}" for r in d.get("rolls", []))
    text = f"initiative, round {d['round']}: {rolls}"
    for r in d.get("rerolls", []):
        again = ", ".join(f"{x['side']} {roll(x['die'])}" for x in r.get("dice", []))
        text += f"; {words(r['group'])} tied, rolled again: {again}"
    shifts = {s: n for s, n in (d.get("shifts") or {}).items() if n}
    if shifts:
        text += "; " + ", ".join(
            f"{s} one phase {'earlier (a 10)' if n < 0 else 'later (a 1)'}"
            for s, n in shifts.items()
        )
    return text + f"; order {words(d.get('order'))}"


def _test(t: dict[str, Any]) -> str:
    if t.get("result") == "pending":
        return f"{t['combatant']}'s {t['test']} waits for the referee"
    mod = f" {signed(t.get('modifier', 0))}" if t.get("die") else ""
    die = roll(t["die"]) if t.get("die") else "no roll"
    return (
        f"{t['combatant']}'s {t['test']}: {die}{mod}, total {words(t.get('total'))} "
        f"against {words(t.get('target'))}: {t['result']}"
    )


def _drawn(d: dict[str, Any]) -> str:
    draws = ", ".join(
        roll(x["die"]) + ("" if x.get("possible", True) else f" ({x['row']} could not occur)")
        for x in d.get("draws", [])
    )
    text = f"combat event ({d.get('cause')}): {draws}: {d['row']}"
    for s in d.get("selections", []):
        by = f" by {roll(s['die'])}" if s.get("die") else " (the only one)"
        text += f"; {s['what']}: {s['chosen']} of {words(s['candidates'])}{by}"
    text += "".join(f"; {_test(t)}" for t in d.get("tests", []))
    return text


TELLERS: dict[str, Teller] = {
    "BattleEnded": ended,
    "ActionResolved": _resolved,
    "InitiativeRolled": _initiative,
    "CombatEventDrawn": _drawn,
    "RoundStarted": lambda d: f"round {d['round']}",
    "PhaseStarted": lambda d: f"round {d['round']}, phase {d['phase']}: {words(d.get('order'))}",
    "ActionDeclared": lambda d: _declared(d["action"]),
    "ActionCancelled": lambda d: f"{d['action']} ({d['side']}) cancelled",
    "DeclarationsClosed": lambda d: f"{d['side']} has declared",
}
