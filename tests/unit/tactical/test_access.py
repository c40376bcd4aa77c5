"""Who may give which tactical command, who sees which event, and what each actor's view
holds (access.py): the referee-only rulings, a side ordering only its own characters, the
referee-only record of an unseen attack, and an invisible character's square kept from
its foes."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.actors import ALL, REFEREE, Actor, side_audience
from domain.errors import NotPermitted
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.access import audience, authorize, view
from domain.rulesets.tactical.events import Moved, UnseenAttackResolved
from domain.rulesets.tactical.model import Condition, State
from tests.support.tactical_kit import ch, make, play, started

REFEREE_ACTOR = Actor(role="referee")
SIDE_A = Actor(role="side", side="a")
SIDE_B = Actor(role="side", side="b")
OBSERVER = Actor(role="observer")

# One command of each referee-only kind, as a client would send it.
REFEREE_ONLY: list[dict[str, Any]] = [
    {"type": "DeclareSurprise", "surprised": ["p"], "reason": "ambush"},
    {"type": "Join", "character": ch("n", "a", 0, 0)},
    {"type": "RollInitiative"},
    {"type": "SetDC", "dc": 12, "reason": "a slippery ledge"},
    {"type": "Restore", "character": "p", "amount": 3, "reason": "a healing draught"},
    {"type": "SetCondition", "character": "p", "condition": "prone", "reason": "tripped"},
    {"type": "RuleVisibility", "character": "p", "concealed": True, "reason": "smoke"},
    {"type": "EndCombat", "winner": "a", "reason": "the foes flee"},
]


def _cmd(body: dict[str, Any]) -> Any:
    return RULESET.command_decoder.decode(msgspec.json.encode(body))


def _state() -> State:
    return started(make([ch("p", "a", 2, 2), ch("g", "b", 8, 8)]), [12, 2])


@pytest.mark.parametrize("body", REFEREE_ONLY, ids=lambda b: b["type"])
def test_a_side_may_not_give_a_referee_ruling_even_about_its_own_character(
    body: dict[str, Any],
) -> None:
    s = _state()
    with pytest.raises(NotPermitted, match=f"{body['type']} \\(referee only\\)"):
        authorize(s, _cmd(body), SIDE_A)
    authorize(s, _cmd(body), REFEREE_ACTOR)  # the referee may


def test_a_side_orders_its_own_characters_and_not_the_other_sides() -> None:
    s = _state()
    authorize(s, _cmd({"type": "EndTurn", "character": "p"}), SIDE_A)
    with pytest.raises(NotPermitted, match="a may not order g \\(side b\\)") as refused:
        authorize(s, _cmd({"type": "EndTurn", "character": "g"}), SIDE_A)
    assert refused.value.context == {"side": "a"}
    authorize(s, _cmd({"type": "EndTurn", "character": "g"}), SIDE_B)
    authorize(s, _cmd({"type": "EndTurn", "character": "g"}), REFEREE_ACTOR)


def test_an_unknown_character_is_left_to_the_decider() -> None:
    # authorize has nothing to check: decide answers "no such character" for everyone
    authorize(_state(), _cmd({"type": "EndTurn", "character": "nobody"}), SIDE_A)


@pytest.mark.parametrize(
    "actor",
    [OBSERVER, Actor(role="side"), Actor(role="observer", side="a")],
    ids=["observer", "side-without-side", "observer-with-side"],
)
def test_only_the_referee_and_the_sides_give_commands(actor: Actor) -> None:
    with pytest.raises(NotPermitted) as refused:
        authorize(_state(), _cmd({"type": "EndTurn", "character": "p"}), actor)
    assert str(refused.value) == "only the referee and the sides give commands"


def test_who_was_in_an_unseen_square_is_for_the_referee_only() -> None:
    e = UnseenAttackResolved(attacker="p", squares=((3, 3),), present=("g",), detail="a miss")
    assert audience(e) == REFEREE


def test_an_invisible_move_is_for_its_side_and_a_seen_one_for_all() -> None:
    hidden = Moved(character="p", mode="run", path=((3, 2),), cost=1, hidden_side="a")
    seen = Moved(character="p", mode="run", path=((3, 2),), cost=1)
    assert audience(hidden) == side_audience("a")
    assert audience(seen) == ALL


def _invisible_p() -> State:
    s = _state()
    p = s.chars["p"]
    p = msgspec.structs.replace(p, conditions=(*p.conditions, Condition(name="invisible")))
    return msgspec.structs.replace(s, chars={**s.chars, "p": p})


def _chars(v: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in v["characters"]}


def test_an_invisible_characters_square_is_kept_from_its_foes_only() -> None:
    s = _invisible_p()
    for actor in (SIDE_A, REFEREE_ACTOR):  # its own side and the referee see where it is
        p = _chars(view(s, actor))["p"]
        assert (p["x"], p["y"]) == (2, 2)
    for actor in (SIDE_B, OBSERVER, Actor(role="observer", side="a")):
        chars = _chars(view(s, actor))
        assert "x" not in chars["p"] and "y" not in chars["p"]
        assert (chars["g"]["x"], chars["g"]["y"]) == (8, 8)  # a visible one stays on the map


def test_a_visible_character_is_on_everyones_map() -> None:
    s = _state()
    for actor in (SIDE_A, SIDE_B, OBSERVER, REFEREE_ACTOR):
        p = _chars(view(s, actor))["p"]
        assert (p["x"], p["y"]) == (2, 2)


def test_the_view_carries_the_battle_as_it_stands() -> None:
    s = _state()
    v = view(s, SIDE_B)
    assert v["ruleset"] == "tactical"
    assert (v["phase"], v["round"], v["order"], v["active"]) == (
        s.phase,
        s.round,
        list(s.order),
        s.active,
    )
    assert (v["width"], v["height"]) == (12, 12)
    assert [x["id"] for x in v["sides"]] == ["a", "b"]
    assert v["over"] is False and v["winner"] is None and v["end_reason"] is None
    assert v["pending"] is None and v["opportunity"] is None and v["dc"] == s.dc
    assert v["structures"] == [] and v["options"] == msgspec.to_builtins(s.options)
    assert _chars(v)["g"]["down"] is False
    assert _chars(v)["p"]["HEA"] == {"cur": 20, "max": 20}


def test_a_downed_character_shows_down_and_an_ended_battle_shows_over() -> None:
    s = _state()
    g = msgspec.structs.replace(s.chars["g"], dead=True)
    s = msgspec.structs.replace(
        s, chars={**s.chars, "g": g}, phase="over", winner="a", end_reason="all foes down"
    )
    v = view(s, OBSERVER)
    assert _chars(v)["g"]["down"] is True
    assert (v["over"], v["winner"], v["end_reason"]) == (True, "a", "all foes down")


def test_the_view_shows_an_open_reaction_window_and_a_pending_attack() -> None:
    s = started(make([ch("p", "a", 5, 5), ch("g", "b", 6, 5, DEF=30)]), [12, 2])
    _, s = play(s, {"type": "Move", "character": "p", "to": [3, 5]})  # leaves g's reach
    assert s.opportunity is not None
    v = view(s, SIDE_A)
    assert v["opportunity"] == msgspec.to_builtins(s.opportunity)
    assert list(v["opportunity"]["reactors"]) == ["g"] and v["opportunity"]["provoker"] == "p"
    _, s = play(s, {"type": "OpportunityAttack", "character": "g"}, [4])
    assert s.pending is not None
    v = view(s, SIDE_A)
    assert v["pending"] == msgspec.to_builtins(s.pending) and v["pending"] is not None
