"""The narrative's tellers of tactical events (seed 002): an attack as its roll, each
ability and modifier with its reason, the total against the defence it had to beat, the
reactions and the damage; conditions by name; checks and saves against their DC."""

from __future__ import annotations

from typing import Any

from service.desk.narrative_battle import ended
from service.desk.narrative_generic import Teller, modifier
from service.desk.narrative_words import roll, signed, words

__all__ = ["TELLERS", "attack"]


def _who(d: dict[str, Any]) -> str:
    return str(d.get("character", "?"))


def _dice(a: dict[str, Any]) -> str:
    """The attack's dice, and why their count is not the weapon's plain one."""
    if a.get("dice") is None:
        return "no roll (the weapon's damage without a roll)"
    text = roll(a["dice"])
    for extra in a.get("extra_dice", []):
        text += f" and {roll(extra)} (the other weapon: dual wielding)"
    if a.get("halved"):
        text += f", halved to {a.get('dice_total')} (a melee weapon thrown without 'throw')"
    elif a.get("extra_dice") or len(a["dice"].get("values", [])) > 1:
        text += f" = {a.get('dice_total')}"
    return text


def attack(a: dict[str, Any]) -> str:
    """One attack record: who, whom, with what, the roll with every addend, the total
    against the defence, the damage before reactions."""
    target = a.get("target") or f"square {words(a.get('square'))}"
    parts = [_dice(a)]
    if a.get("dual"):
        parts.append("no ability scores (dual wielding)")
    parts += [f"{signed(b['value'])} {b['stat']}" for b in a.get("abilities", [])]
    if a.get("bonus"):
        parts.append(f"{signed(a['bonus'])} weapon bonus")
    parts += [modifier(m) for m in a.get("modifiers", [])]
    defence = a.get("defence_stat", "DEF")
    against = "no defence" if defence == "none" else f"{defence} {a.get('defence')}"
    spent = [f"{a[k]} {k[:3].upper()}" for k in ("sta_spent", "wil_spent") if a.get(k)]
    action = f"{words(a.get('action'))} action" + (f", {', '.join(spent)} spent" if spent else "")
    return (
        f"{a.get('attacker')} attacked {target} with {a.get('weapon')} ({action}): "
        f"{'; '.join(parts)}; total {a.get('total')} against {against}"
    )


def _reaction(r: dict[str, Any]) -> str:
    kind = r.get("kind")
    if kind == "none":
        return f"{r.get('character')} did not react"
    text = f"{r.get('character')} reacted with {kind} ({r.get('sta')} STA)"
    if r.get("die"):
        text += f", rolled {roll(r['die'])}"
    if r.get("value"):
        text += f", {r['value']} off"
    return text + (f": {r['effect']}" if r.get("effect") else "")


def _resolved(d: dict[str, Any]) -> str:
    a = d["attack"]
    text = attack(a)
    if not d.get("hit"):
        return text + ": a miss"
    text += f": a hit, {a.get('damage')} before reactions"
    for r in d.get("reactions", []):
        text += f"; {_reaction(r)}"
    if d.get("exposed_bonus"):
        text += f"; {signed(d['exposed_bonus'])} as the target is exposed"
    return text + f"; {d.get('damage')} damage to {a.get('pool', 'HEA')}"


def _declared(d: dict[str, Any]) -> str:
    return f"{attack(d['attack'])}; waiting for {d.get('reactor')}'s reaction"


def _condition(c: Any) -> str:
    if not isinstance(c, dict):
        return words(c)
    text = str(c.get("name"))
    if c.get("rating"):
        text += f" {c['rating']}"
    if c.get("source"):
        text += f" (from {c['source']})"
    if c.get("unsaveable"):
        text += ", no save"
    if c.get("from_wound"):
        text += ", from a wound"
    return text


def _check(d: dict[str, Any], what: str) -> str:
    bonus = f" {signed(d.get('bonus', 0))} {d.get('stat', '')}".rstrip()
    result = "success" if d.get("success") else "failure"
    return (
        f"{_who(d)} {what}: {roll(d.get('die'))}{bonus}, total {d.get('total')} "
        f"against DC {d.get('dc')}: {result}"
    )


def _damaged(d: dict[str, Any]) -> str:
    text = f"{_who(d)} took {d.get('amount')} {d.get('pool')} damage"
    if d.get("die"):
        text += f" (rolled {roll(d['die'])})"
    if d.get("sta_amount"):
        text += f" and {d['sta_amount']} STA damage"
    return text


def _initiative(d: dict[str, Any]) -> str:
    rolls = [
        f"{e['character']} {roll(e['die'])} {signed(e['dex'])} DEX = {e['total']}"
        + (f" (tie broken by {roll(e['tie_break'])})" if e.get("tie_break") else "")
        for e in d.get("entries", [])
    ]
    return f"initiative: {'; '.join(rolls)}; order {words(d.get('order'))}"


def _opposed(d: dict[str, Any]) -> str:
    mods = "".join(f"; {modifier(m)}" for m in d.get("modifiers", []))
    won = "succeeded" if d.get("success") else "failed"
    return (
        f"{_who(d)} tried to {words(d.get('action')).replace('_', ' ')} {d.get('target')}: "
        f"{roll(d.get('die'))} {signed(d.get('bonus'))} STR{mods}, total {d.get('total')} "
        f"against {d.get('target')}'s {roll(d.get('target_die'))} "
        f"{signed(d.get('target_bonus'))} STR = {d.get('target_total')} (must beat it): {won}"
    )


def _structure(d: dict[str, Any]) -> str:
    gone = ", destroyed" if d.get("destroyed") else ""
    return (
        f"{d.get('structure')} took {d.get('hea_damage')} HEA damage ({d.get('total_hea_damage')} "
        f"in all): STH {d.get('sth_before')} to {d.get('sth_after')}{gone}"
    )


def _death_save(d: dict[str, Any]) -> str:
    die = roll(d["die"]) if d.get("die") else "no roll"
    result = "success" if d.get("success") else "failure"
    return (
        f"{_who(d)}'s death save ({d.get('reason')}): {die} against DC {d.get('dc')}: "
        f"{result} ({d.get('successes')} successes, {d.get('failures')} failures)"
    )


def _regenerated(d: dict[str, Any]) -> str:
    parts = []
    if d.get("sta_die"):
        parts.append(f"{roll(d['sta_die'])} + END: {d.get('sta_gain')} STA")
    elif d.get("sta_gain"):
        parts.append(f"{d['sta_gain']} STA")
    if d.get("wil_gain"):
        parts.append(f"{d['wil_gain']} WIL")
    rest = [f"{roll(d[k])} for {k[5:].upper()}" for k in ("rest_sta", "rest_wil") if d.get(k)]
    if rest:  # [Rest]: a d6 more than the plain regeneration
        parts.append(f"and rested: +{', +'.join(rest)}")
    return f"{_who(d)} regenerated " + (", ".join(parts) or "nothing")


TELLERS: dict[str, Teller] = {
    "CombatEnded": ended,
    "AttackResolved": _resolved,
    "AttackDeclared": _declared,
    "ConditionGained": lambda d: f"{_who(d)} gained {_condition(d.get('condition'))}",
    "ConditionEnded": lambda d: f"{_who(d)} is no longer {d.get('condition')}",
    "CharacterDamaged": _damaged,
    "SaveRolled": lambda d: _check(d, f"saved against {d.get('condition')}"),
    "CheckCalled": lambda d: _check(d, "made a check"),
    "ConcentrationChecked": lambda d: (
        f"{_who(d)} kept concentrating on {d.get('power')}: {roll(d.get('die'))} "
        f"{signed(d.get('bonus'))} MIN - {d.get('damage')} damage sustained, total "
        f"{d.get('total')} against DC {d.get('dc')}: "
        + ("success" if d.get("success") else "failure")
    ),
    "DeathSaveRolled": _death_save,
    "InitiativeRolled": _initiative,
    "OpposedCheck": _opposed,
    "StructureDamaged": _structure,
    "Regenerated": _regenerated,
    "Perceived": lambda d: (
        f"{_who(d)} tried to perceive {d.get('target')}: {roll(d.get('die'))} against "
        f"{d.get('against')} (must beat it): " + ("perceived" if d.get("success") else "not")
    ),
    "Moved": lambda d: (
        f"{_who(d)} moved ({d.get('mode')}) through {words(d.get('path'))}, "
        f"{d.get('cost')} squares of movement"
        + (f", {d['sta_spent']} STA spent" if d.get("sta_spent") else "")
    ),
    "WoundRecorded": lambda d: f"{_who(d)} took a wound ({d.get('wounds')} in all)",
    "TurnStarted": lambda d: f"{_who(d)}'s turn (round {d.get('round')})",
    "TurnEnded": lambda d: f"{_who(d)}'s turn ended",
    "RoundStarted": lambda d: f"round {d.get('round')}",
    "CharacterDied": lambda d: f"{_who(d)} died",
    "Stabilized": lambda d: f"{_who(d)} is stable",
}
