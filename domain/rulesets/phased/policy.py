"""The forecast's policies for the combat round (seed 004), from the state.

`advance` (the default) proposes, best first, and the playout gives the first the rules
accept (`domain.forecast`): a save or check the setup has no value for is given by the
referee as a success or a failure (even odds, from the random source), a choice of effects
takes the first ones, a narrative prompt is closed; in the Starting Phase a combatant
whose weapons were all dropped picks its first up (the referee's ruling), every combatant
still up with no action declared attacks a random foe still up with its first weapon,
then each side ends its declarations (the last roll initiative); in the phases, the
action whose turn it is is resolved by the configured roll, or else given the referee's
plain outcome (a hit for its weapon's dice is not known to the policy: a miss); and the
battle ends when one side alone has combatants up.

Pure: the state and a random source are handed in. It reads the whole state (secret
declarations included): the referee's forecasts only.
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.actors import Actor
from domain.forecast import RandomSource
from domain.rulesets.phased.commands import (
    AdjustCombatant,
    ChooseEffects,
    ClosePrompt,
    Command,
    DeclareAction,
    EndBattle,
    EndDeclarations,
    RecordOutcome,
    ResolveAction,
    RollInitiative,
    RuleCheck,
)
from domain.rulesets.phased.model import State

__all__ = ["POLICIES", "POLICY_DOCS", "advance", "rounds", "winner"]

REFEREE = Actor(role="referee")


def _standing(s: State) -> list[str]:
    return sorted({c.side for c in s.combatants.values() if not c.down})


def _declarations(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    for c in s.combatants.values():
        # A combatant whose weapons were all dropped picks one up (the referee's ruling,
        # as at a table), or no run where both sides drop theirs would ever end.
        held = [i for i in c.weapons if c.items.get(i) is None or c.items[i].held]
        if not c.down and c.weapons and not held:
            yield (
                REFEREE,
                AdjustCombatant(
                    combatant=c.id, recover=(next(iter(c.weapons)),), reason="picks up its weapon"
                ),
            )
    # this round's own, and a carried one still going
    declared = {a.combatant for a in s.actions.values() if a.status == "declared"}
    for c in s.combatants.values():
        if c.down or c.id in declared or c.side in s.closed or not c.weapons:
            continue
        foes = [f.id for f in s.combatants.values() if f.side != c.side and not f.down]
        if foes:
            weapon = next(iter(c.weapons))
            target = rng.choice(sorted(foes))
            yield (
                REFEREE,
                DeclareAction(combatant=c.id, kind="attack", weapon=weapon, target=target),
            )
    for side in s.board.sides:
        if side not in s.closed:
            yield REFEREE, EndDeclarations(side=side)
    yield REFEREE, RollInitiative()


def advance(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    """The default policy (see the module docstring)."""
    standing = _standing(s)
    if len(standing) <= 1:
        yield REFEREE, EndBattle(winner=standing[0] if standing else None, reason="forecast")
    for p in s.pending.values():
        if p.kind == "test":
            won = rng.random() < 0.5
            yield REFEREE, RuleCheck(check=p.id, result="success" if won else "fail")
        else:
            yield REFEREE, ChooseEffects(choice=p.id, effects=tuple(range(p.count)))
    for prompt in s.prompts.values():
        yield REFEREE, ClosePrompt(prompt=prompt.id)
    if s.stage == "declare":
        yield from _declarations(s, rng)
        return
    current = s.current
    if current is not None:
        yield REFEREE, ResolveAction(action=current.id)
        yield REFEREE, RecordOutcome(action=current.id, outcome="a miss", hit=False)


def winner(s: State) -> str | None:
    return s.winner


def rounds(s: State) -> int:
    return s.round


POLICIES = {"advance": advance}
POLICY_DOCS = {
    "advance": (
        "every combatant attacks a random foe with its first weapon each round; actions "
        "resolve by the configured roll; the referee's calls (saves, checks) are even odds"
    )
}
