"""The round of seed 003: the sides' order by a d20 roll-off each round with ties re-rolled
(W01 and its options), champions acting before their units ([Battlefield Champions]),
side turns ending into the next side's and the round's end."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare.events import ChampionActed, RoundStarted
from domain.rulesets.warfare.model import State
from tests.support.warfare_kit import SIDES, make, play, started, types, unit

THREE = [*SIDES, {"id": "c", "zones": [{"id": "zc", "tiles": [[0, 5]]}]}]


def _armies(options: dict | None = None, **extra: object):
    units = [unit("a1", "a", 2, 9), unit("b1", "b", 2, 2), unit("c1", "c", 9, 5, facing="W")]
    return make(units, options=options, sides=THREE, **extra)


def test_given_a_roll_off_when_a_round_starts_then_the_highest_d20_acts_first() -> None:
    events, s = play(_armies(), {"type": "StartRound"}, [7, 15, 3])
    e = events[0]
    assert isinstance(e, RoundStarted) and e.order == ("b", "a", "c") and e.round == 1
    assert [r.dice[0].value for r in e.rolls] == [7, 15, 3] and s.active == "b"


def test_ties_are_rolled_again_among_the_tied_sides() -> None:
    events, _ = play(_armies(), {"type": "StartRound"}, [12, 12, 3, 4, 9])
    e = events[0]
    assert isinstance(e, RoundStarted) and e.order == ("b", "a", "c")
    assert {r.side: [d.value for d in r.dice] for r in e.rolls} == {
        "a": [12, 4], "b": [12, 9], "c": [3]
    }  # fmt: skip


def test_the_order_options() -> None:
    events, _ = play(_armies({"side_order": "setup"}), {"type": "StartRound"})
    assert events[0].order == ("a", "b", "c")  # type: ignore[union-attr]
    _, s = play(_armies({"side_order": "roll_off_once"}), {"type": "StartRound"}, [1, 2, 3])
    for side in s.order:
        _, s = play(s, {"type": "EndTurn", "side": side})
    events, s = play(s, {"type": "StartRound"})  # no dice: the first order is kept
    assert s.order == ("c", "b", "a") and s.round == 2


def test_sides_take_turns_in_order_and_the_round_ends() -> None:
    _, s = play(_armies(), {"type": "StartRound"}, [7, 15, 3])
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Move", "unit": "a1", "to": [2, 8]})
    assert refused.value.rule == "003 Unit Actions / Actions"
    events, s = play(s, {"type": "EndTurn", "side": "b"})
    assert s.active == "a"
    _, s = play(s, {"type": "Move", "unit": "a1", "to": [2, 8]})
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    events, s = play(s, {"type": "EndTurn", "side": "c"})
    assert types(events) == ["TurnEnded", "RoundEnded"] and s.active is None
    with pytest.raises(RuleViolation):
        play(s, {"type": "Move", "unit": "a1", "to": [2, 7]})
    _, s = play(s, {"type": "StartRound"}, [20, 1, 2])
    assert s.round == 2 and not s.units["a1"].moved  # a new round, a new move


def test_a_round_does_not_start_twice() -> None:
    s = started(make([unit("a1", "a", 2, 9), unit("b1", "b", 2, 2)]))
    with pytest.raises(RuleViolation):
        play(s, {"type": "StartRound"}, [1, 2])


def _led(options: dict | None = None):
    s = make(
        [unit("a1", "a", 2, 9), unit("a2", "a", 4, 9), unit("b1", "b", 2, 2)],
        champions=[{"id": "hero", "side": "a", "leads": ["a1"]}],
        options=options,
    )
    return started(s)


def test_a_champion_acts_before_its_units() -> None:
    s = _led()
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Move", "unit": "a1", "to": [2, 8]})
    assert refused.value.rule == "003 Battlefield Champions"
    _, s = play(s, {"type": "Move", "unit": "a2", "to": [4, 8]})  # not hero's unit
    events, s = play(s, {"type": "PassChampion", "champion": "hero"})
    assert isinstance(events[0], ChampionActed) and events[0].action == "pass"
    _, s = play(s, {"type": "Move", "unit": "a1", "to": [2, 8]})
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "PassChampion", "champion": "hero"})  # one action a round
    assert refused.value.rule == "003 Battlefield Champions"
    _, s = play(_led({"champions_first": False}), {"type": "Move", "unit": "a1", "to": [2, 8]})


def test_joining_a_unit_is_the_champions_action_and_the_referee_resolves_others() -> None:
    s = _led()
    events, s = play(s, {"type": "JoinUnit", "champion": "hero", "unit": "a2"})
    assert s.units["a2"].joined_by == "hero" and s.champions["hero"].joined == "a2"
    s = _led()
    events, s = play(
        s,
        {"type": "ResolveChampionAction", "champion": "hero", "action": "rallies the line",
         "effect": "a1 and a2 remove Unsettled"},
    )  # fmt: skip
    e = events[0]
    assert isinstance(e, ChampionActed) and e.action == "referee"
    assert (e.description, e.effect, e.rule) == (
        "rallies the line", "a1 and a2 remove Unsettled", "003 (referee ruling)"
    )  # fmt: skip
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    _, s = play(s, {"type": "JoinUnit", "champion": "hero", "unit": "a1"})
    assert s.units["a1"].joined_by == "hero"


def test_a_champion_that_joins_another_unit_or_leaves_no_longer_stands_with_the_first() -> None:
    """[Battlefield Champions] "Characters can join units": a champion is with one unit at a
    time (the project's ruling), so joining another, or leaving, frees the one it was with
    (its bonus and exposure go with the champion; another champion may join it)."""

    def next_round(s: State) -> State:
        _, s = play(s, {"type": "EndTurn", "side": "a"})
        _, s = play(s, {"type": "EndTurn", "side": "b"})
        _, s = play(s, {"type": "StartRound"}, [20, 1])
        return s

    s = make(
        [unit("a1", "a", 2, 9), unit("a2", "a", 4, 9), unit("b1", "b", 2, 2)],
        champions=[{"id": "hero", "side": "a", "joined": "a1"}, {"id": "aide", "side": "a"}],
    )
    s = started(s)
    _, s = play(s, {"type": "JoinUnit", "champion": "hero", "unit": "a2"})
    assert (s.units["a1"].joined_by, s.units["a2"].joined_by) == (None, "hero")
    _, s = play(s, {"type": "JoinUnit", "champion": "aide", "unit": "a1"})
    assert s.units["a1"].joined_by == "aide"
    s = next_round(s)
    _, s = play(s, {"type": "JoinUnit", "champion": "hero"})  # leaves a2
    assert s.units["a2"].joined_by is None and s.champions["hero"].joined is None
