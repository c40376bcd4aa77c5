"""[Battlefield Champions] "Characters can join units ... as part of certain character
actions": only joining or leaving changes the unit a champion is with; its other actions
(a pass, an action the referee resolves) leave it with that unit."""

from __future__ import annotations

from domain.actors import Actor
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.model import State
from tests.support.warfare_kit import make, play, started, unit

REFEREE = Actor(role="referee")


def _next_round(s: State) -> State:
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    return s


def test_a_joined_champion_that_passes_or_acts_otherwise_stays_with_its_unit() -> None:
    s = make(
        [unit("a1", "a", 2, 9), unit("b1", "b", 2, 2)],
        champions=[{"id": "hero", "side": "a", "joined": "a1"}],
    )
    s = started(s)
    _, s = play(s, {"type": "PassChampion", "champion": "hero"})
    assert (s.champions["hero"].joined, s.units["a1"].joined_by) == ("a1", "hero")
    s = _next_round(s)
    action = {
        "type": "ResolveChampionAction",
        "champion": "hero",
        "action": "a war cry",
        "effect": "none",
    }
    _, s = play(s, action)
    assert (s.champions["hero"].joined, s.units["a1"].joined_by) == ("a1", "hero")
    s = _next_round(s)
    events, s = play(s, {"type": "JoinUnit", "champion": "hero"})  # still there to leave
    assert events[0].unit == "a1" and s.units["a1"].joined_by is None  # type: ignore[union-attr]


def test_a_new_round_shows_every_champion_free_to_act_again() -> None:
    # [Battlefield Champions] a champion acts once a round: the round after, the view
    # shows it has not acted (false, as at the start, not merely falsy)
    s = make(
        [unit("a1", "a", 2, 9), unit("b1", "b", 2, 2)],
        champions=[{"id": "hero", "side": "a", "joined": "a1"}],
    )
    s = started(s)
    assert RULESET.view(s, REFEREE)["champions"][0]["acted"] is False
    _, s = play(s, {"type": "PassChampion", "champion": "hero"})
    assert RULESET.view(s, REFEREE)["champions"][0]["acted"] is True
    s = _next_round(s)
    assert RULESET.view(s, REFEREE)["champions"][0]["acted"] is False
