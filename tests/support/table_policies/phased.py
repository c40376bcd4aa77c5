"""A table's choices in a phased battle (seed 004), from a prompt alone (phased has no grid:
`reach` is None). Random among what the prompt lists, attacks preferred, so that battles
end; the referee rules the calls of combat events at random."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from domain.prompts import Prompt, Reach

__all__ = ["choose", "pick"]

_PREFERRED = (
    "DeclareAction", "ResolveAction", "RecordOutcome", "RuleCheck", "ChooseEffects",
    "SustainAction", "EndDeclarations", "RollInitiative", "ClosePrompt", "WithdrawAction",
    "CancelAction", "AdjustCombatant", "SetEngagement", "EndBattle",
)  # fmt: skip


def choose(
    prompt: Prompt, reach: Callable[[str], Reach] | None, rng: random.Random
) -> dict[str, Any]:
    """One command answering `prompt`, with its fields from the prompt's choices."""
    listed = sorted(prompt.commands, key=_PREFERRED.index)
    kind = listed[0] if rng.random() < 0.9 else rng.choice(listed)
    c = prompt.choices
    out: dict[str, Any] = {"type": kind}
    if kind == "DeclareAction":
        kinds = c["kind"]
        chosen = "attack" if "attack" in kinds and rng.random() < 0.8 else rng.choice(kinds)
        out |= {"combatant": prompt.subject, "kind": chosen}
        if chosen == "attack":
            out["weapon"] = rng.choice(c["weapon"])
        if chosen == "spell":
            out["spell"] = rng.choice(c["spell"])
        if "target" in c:
            out["target"] = rng.choice(c["target"])
    elif kind == "EndDeclarations":
        out["side"] = prompt.side
    elif kind in ("ResolveAction", "CancelAction", "SustainAction", "WithdrawAction"):
        out["action"] = rng.choice(c["action"])
    elif kind == "RecordOutcome":
        hit = rng.random() < 0.5
        out |= {"action": c["action"][0], "outcome": "hit" if hit else "miss", "hit": hit}
        if hit:
            out["damage"] = rng.randint(1, 8)
    elif kind == "RuleCheck":
        out |= {"check": c["check"][0], "result": rng.choice(c["result"])}
    elif kind == "ChooseEffects":
        picked = rng.choice(c["effects"])
        out |= {"choice": c["choice"][0], "effects": [int(i) for i in picked.split(",") if i]}
    elif kind == "ClosePrompt":
        out["prompt"] = c["prompt"][0]
    elif kind == "EndBattle":
        out |= {"winner": rng.choice(c["winner"]), "reason": "the referee calls it"}
    return out


def pick(prompts: list[Prompt], rng: random.Random) -> Prompt:
    """Which prompt a table answers next: a combatant's declaration often, a narrative
    prompt sometimes, else what the round cannot go on without; never the referee's
    optional calls (adjusting, engaging) nor a by-hand initiative roll the last side's
    declarations make; once in a long while the referee calls a battle that stalled (the
    combat events may leave nobody a weapon in hand)."""
    stalled = [p for p in prompts if "EndBattle" in p.commands]
    if stalled and rng.random() < 0.0005:
        return Prompt(**{**msgspec.structs.asdict(stalled[0]), "commands": ("EndBattle",)})
    declare = [p for p in prompts if "DeclareAction" in p.commands]
    if declare and rng.random() < 0.85:
        return rng.choice(declare)
    narrative = [p for p in prompts if "ClosePrompt" in p.commands]
    if narrative and rng.random() < 0.5:
        return rng.choice(narrative)
    return rng.choice([p for p in prompts if not p.optional])
