"""Disputes: a ruling contested by a side or the referee, and settled by the referee.

Pure decisions on a `Battle` (the service reads the log for what they need of it):
`RaiseDispute` answers a `DisputeRaised` with the next id ("d1", "d2"... counted in the
log, never from a clock or random); `ResolveDispute` is checked here and answered with a
`DisputeResolved` whose correcting versions the service fills in once the correction
(an undo, then the commands replacing what it undid) is decided (RULINGS.md, "Disputes").
"""

from __future__ import annotations

from domain.actors import ALL, REFEREE, Actor, side_audience
from domain.battle import Battle, DisputeRaised, DisputeResolved
from domain.battle_commands import RaiseDispute, ResolveDispute
from domain.errors import NotPermitted, RuleViolation

__all__ = ["BattlePaused", "check_not_paused", "decide_raise", "decide_resolution", "raiser_of"]


class BattlePaused(RuleViolation):
    """A command refused while a dispute is open (`pause_on_dispute`): 422."""

    code = "battle-paused"


def raiser_of(actor: Actor) -> str:
    """The audience of whoever raises a dispute: "referee" or "side:<id>"."""
    if actor.is_referee:
        return REFEREE
    if actor.role == "side" and actor.side is not None:
        return side_audience(actor.side)
    raise NotPermitted("only a side or the referee may raise a dispute")


def decide_raise(
    battle: Battle, command: RaiseDispute, actor: Actor, hidden: bool
) -> DisputeRaised:
    """The dispute raised. `hidden`: some disputed event is sealed from some reader, so
    the dispute is the raiser's and the referee's to read until those events are unsealed
    (it would otherwise tell every side that something hidden happened there)."""
    raiser = raiser_of(actor)
    for version in command.versions:
        if version > battle.version:
            raise RuleViolation(
                f"version {version} does not exist: the battle is at version {battle.version}",
                version=version,
                current_version=battle.version,
            )
    return DisputeRaised(
        dispute_id=f"d{len(battle.meta.disputes) + 1}",
        versions=sorted(set(command.versions)),
        claim=command.claim,
        raised_by=raiser,
        rule=command.rule,
        audience=raiser if hidden else ALL,
    )


def decide_resolution(battle: Battle, command: ResolveDispute, actor: Actor) -> DisputeResolved:
    """The ruling, checked (referee only; an open dispute; a correction only when upheld,
    its undo to before the first disputed version); its correcting versions are left
    for the service to fill in."""
    if not actor.is_referee:
        raise NotPermitted("only the referee may resolve a dispute")
    dispute = battle.meta.disputes.get(command.dispute)
    if dispute is None:
        raise RuleViolation(
            f"there is no dispute {command.dispute!r}; known: {sorted(battle.meta.disputes)}",
            dispute=command.dispute,
        )
    if dispute.status != "open":
        raise RuleViolation(
            f"dispute {command.dispute} was already resolved ({dispute.status})",
            dispute=command.dispute,
        )
    correcting = command.undo_to is not None or bool(command.corrections)
    if command.outcome == "dismissed" and correcting:
        raise RuleViolation(
            "a dismissed dispute corrects nothing: leave out undo_to and corrections"
        )
    if command.outcome == "upheld" and not correcting:
        raise RuleViolation("an upheld dispute needs its correction: undo_to and/or corrections")
    if command.undo_to is not None and command.undo_to >= dispute.versions[0]:
        raise RuleViolation(
            f"undo_to must be before the first disputed version ({dispute.versions[0]}), "
            f"not {command.undo_to}",
            undo_to=command.undo_to,
        )
    return DisputeResolved(
        dispute_id=command.dispute,
        outcome=command.outcome,
        ruling=command.ruling,
        rule=command.rule,
        undo_to=command.undo_to,
        audience=dispute.audience,
    )


def check_not_paused(battle: Battle, actor: Actor) -> None:
    """Refuse a command of anyone but the referee while a dispute is open, in a battle
    created with `pause_on_dispute` (off by default)."""
    if not battle.meta.created.pause_on_dispute or actor.is_referee:
        return
    open_ = battle.meta.open_disputes()
    if open_:
        raise BattlePaused(
            f"the battle is paused while dispute {open_[0]} is open: only the referee's "
            "commands are accepted",
            dispute=open_[0],
        )
