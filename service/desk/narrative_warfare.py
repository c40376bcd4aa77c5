"""The narrative's tellers of warfare events (seed 003): an attack as its natural die and
each modifier with its reason, the total against the defence and its modifiers, the band
and the damage with its multiplier; morale against its DC."""

from __future__ import annotations

from typing import Any

from service.desk.narrative_battle import ended
from service.desk.narrative_generic import Teller
from service.desk.narrative_words import roll, signed, words

__all__ = ["TELLERS"]


def _mods(mods: list[dict[str, Any]]) -> str:
    return "".join(f" {signed(m['value'])} {m['reason']}" for m in mods)


def _attack(d: dict[str, Any]) -> str:
    kind = {
        "free": "free attack",
        "retaliation": "retaliation",
        "shatter": "attack on a shattering unit",
    }.get(str(d.get("kind")), "attack")
    reach = "melee" if d.get("melee") else f"ranged, {d.get('distance')} tiles"
    if d.get("increments"):
        reach += f", {d['increments']} range increments"
    if d.get("die") is None:
        roll_text = "no roll (an automatic hit)"
    else:
        roll_text = (
            f"{roll(d['die'])}{_mods(d.get('modifiers', []))}, total {d.get('total')} "
            f"against defense {d.get('defense')}{_mods(d.get('defense_modifiers', []))}"
            f" (margin {d.get('margin')})"
        )
    band = d.get("damage_band") or d.get("band")
    return (
        f"{d['attacker']} {kind} on {d['target']} ({reach}): {roll_text}: {band}; damage "
        f"{d.get('damage_before')}{_mods(d.get('damage_modifiers', []))} times "
        f"{d.get('multiplier')} = {d.get('damage')}; health {d.get('health_before')} to "
        f"{d.get('health_after')}"
        + (f"; champion {d['champion_exposed']} exposed" if d.get("champion_exposed") else "")
    )


def _morale(d: dict[str, Any]) -> str:
    result = "passed" if d.get("passed") else "failed: it shatters"
    return (
        f"{d['unit']} checked morale ({d.get('reason')}): {roll(d['die'])}"
        f"{_mods(d.get('modifiers', []))}, total {d['total']} against DC {d['dc']}: {result}"
    )


def _round(d: dict[str, Any]) -> str:
    rolls = "; ".join(
        f"{r['side']} {', '.join(roll(x) for x in r['dice'])}"
        + (" (one more die for each tie it was in)" if len(r["dice"]) > 1 else "")
        for r in d.get("rolls", [])
    )
    return f"round {d['round']}: order {words(d.get('order'))}" + (
        f" (roll-off: {rolls})" if rolls else ""
    )


TELLERS: dict[str, Teller] = {
    "BattleEnded": ended,
    "AttackResolved": _attack,
    "MoraleChecked": _morale,
    "RoundStarted": _round,
    "UnitMoved": lambda d: f"{d['unit']} moved through {words(d['path'])}, facing {d['facing']}",
    "UnitFaced": lambda d: f"{d['unit']} turned from {d['before']} to {d['facing']}",
    "Engaged": lambda d: f"{d['unit']} engaged {d['target']}",
    "TurnEnded": lambda d: f"{d['side']}'s turn ended; next: {words(d.get('next'))}",
    "ConditionApplied": lambda d: f"{d.get('unit')} is now {d.get('condition')}",
    "ConditionRemoved": lambda d: f"{d.get('unit')} is no longer {d.get('condition')}",
}
