"""The narrative's tellers of the battle's own events, the same in every ruleset: its
creation, rulings, undos, dice seeds (`domain.battle`).

Disputes (issue 36: `DisputeRaised`, `DisputeResolved`) are told in place by adding their
tellers to `TELLERS` here (or by `service.desk.narrative_registry.register`): each is a
function of the event's data to its sentence, as below.
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


TELLERS: dict[str, Teller] = {
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
