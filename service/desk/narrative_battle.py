"""The narrative's tellers of the battle's own events, the same in every ruleset: its
creation, rulings, undos, dice seeds (`domain.battle`).

Disputes (issue 36: `DisputeRaised`, `DisputeResolved`) are told in place, where they were
raised and where they were ruled on, with the versions they name, so that a reader of the
narrative finds the claim, the ruling, the rule it rests on and what it corrected.
"""

from __future__ import annotations

from typing import Any

from service.desk.narrative_generic import Teller, Told, tell_nested
from service.desk.narrative_words import words

__all__ = ["TELLERS", "ended"]


def _created(d: dict[str, Any]) -> Told:
    """The setup is the battle's input, told by its export; the summary names what it is."""
    title = f"{d['title']}: " if d.get("title") else ""
    text = (
        f"{title}a {d.get('ruleset')} battle (rules version {d.get('ruleset_version')}) "
        f"between {words(d.get('sides', []))}; table dice {words(d.get('client_dice'))}"
    )
    if d.get("forked_from"):
        text += f"; forked from {d['forked_from']} at version {d.get('forked_at')}"
    return Told(summary=text, details=tell_nested("options", d.get("options") or {}).details)


def ended(d: dict[str, Any]) -> str:
    """The end of a battle or combat in any ruleset: who won, and why."""
    who = f"{d['winner']} won" if d.get("winner") else "no winner"
    return f"the end: {who}" + (f" ({d['reason']})" if d.get("reason") else "")


def _revealed(d: dict[str, Any]) -> str:
    why = "the battle is over" if d.get("reason") == "battle-over" else "asked for"
    text = f"the dice seed of epoch {d['epoch']} revealed ({why})"
    if d.get("next_epoch") is not None:
        text += f"; epoch {d['next_epoch']} committed"
    return text


def _versions(vs: list[int]) -> str:
    return ("version " if len(vs) == 1 else "versions ") + words([str(v) for v in vs])


def _raiser(raised_by: str) -> str:
    return "the referee" if raised_by == "referee" else raised_by.removeprefix("side:")


def _dispute_raised(d: dict[str, Any]) -> str:
    text = (
        f"dispute {d['dispute_id']} raised by {_raiser(d['raised_by'])} against "
        f"{_versions(d['versions'])}: {d['claim']}"
    )
    return text + (f" (invoking {d['rule']})" if d.get("rule") else "")


def _dispute_resolved(d: dict[str, Any]) -> str:
    text = f"dispute {d['dispute_id']} {d['outcome']}: {d['ruling']} (ruled under {d['rule']})"
    if d.get("outcome") == "upheld" and d.get("undo_to") is not None:
        text += f"; set back to version {d['undo_to']}"
        if d.get("correcting_versions"):
            text += f" and corrected by {_versions(d['correcting_versions'])}"
    return text


TELLERS: dict[str, Teller] = {
    "DisputeRaised": _dispute_raised,
    "DisputeResolved": _dispute_resolved,
    "BattleCreated": _created,
    "RulingRecorded": lambda d: (
        f"ruling: {d['ruling']}"
        + ("" if d.get("audience", "all") == "all" else f" (for {d['audience']} only)")
    ),
    "BattleUndone": lambda d: f"the battle set back to its state as of version {d['to_version']}",
    "DiceSeedRevealed": _revealed,
    "DiceSubSeedRevealed": lambda d: (
        f"the dice sub-seed of epoch {d['epoch']} for {d['audience']} revealed"
    ),
    "DiceEpochStarted": lambda d: f"dice epoch {d['epoch']} committed ({d.get('reason')})",
    "ClientSeedSet": lambda d: f"{d['side']} set its client seed",
}
