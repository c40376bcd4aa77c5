"""Hidden squads (seed 001, Hero Units: stealth): no answer to a side depends on what it
cannot see, a move that meets a hidden squad stops before it and reveals it, and no view
or public event names a hidden squad.

Given south's squad hidden by its hero's stealth during north's turn, when north probes or
moves, then north is told only what it could know.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import DomainError, NotPermitted, RuleViolation, UnknownEntity
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State
from domain.rulesets.quickstart.reach import known_to
from tests.support.quickstart_testkit import REF, ScriptedDice, cmd, make, run, side, sq, types

NORTH = side("north")
OBSERVER = Actor(role="observer")
SPEED = 6  # a paladin's


def south_hides(
    squads: list[dict[str, Any]],
    at: tuple[int, int] | None = None,
    hidden: str = "s_hid",
    heroes: tuple[dict[str, Any], ...] = (),
    **kw: Any,
) -> Any:
    """South acts first: its hero h hides `hidden` (and moves it to `at`, hidden); then it
    is north's moves step."""
    hero = {"id": "h", "side": "south", "squad": hidden, "skills": {"stealth": 5}}
    s = make(squads, heroes=[hero, *heroes], **kw)
    for x in heroes:
        s, _ = run(s, "PriorityCheck", [1], hero=x["id"], skill="history")
    s, _ = run(s, "PriorityCheck", [1, 1, 6], hero="h", skill="history")  # fails; south first
    assert s.order[0] == "south"
    s, _ = run(s, "UseSkill", [12], hero="h", skill="stealth")
    if at is not None:
        s, _ = run(s, "MoveSquad", squad=hidden, x=at[0], y=at[1])
    while s.active_side == "south":
        s, _ = run(s, "EndStep")
    assert s.active_side == "north" and s.step == "move" and s.squads[hidden].hidden
    return s


def answer(state: Any, type_: str, actor: Actor = NORTH, **fields: Any) -> Any:
    """What the service would answer: refused (error type, reason, rule) or accepted."""
    try:
        c = cmd(type_, **fields)
    except msgspec.ValidationError as e:
        return "invalid", str(e)  # refused by the schema (400), before any state is read
    try:
        RULESET.authorize(state, c, actor)
        RULESET.decide(state, c, ScriptedDice([3] * 40))
    except DomainError as e:
        return type(e).__name__, e.reason, e.rule
    return "accepted"


def squads_with_hidden_at(x: int, y: int) -> list[dict[str, Any]]:
    return [
        sq("n", "north", "paladin", 2, 0, 0),
        sq("s_hid", "south", "soldier", 1, x, y),
        sq("s_far", "south", "soldier", 1, 11, 11),
    ]


def test_move_into_the_hidden_squads_square_stops_before_it_and_reveals_it() -> None:
    s = south_hides(squads_with_hidden_at(4, 0))
    # When north moves onto the square it cannot see is taken
    s2, ev = run(s, "MoveSquad", squad="n", x=4, y=0)
    # Then it stops on the last free square of its path, its move spent, and the squad shows
    assert types(ev) == ["SquadMoved", "SquadRevealed"]
    assert (ev[0].x, ev[0].y, ev[0].cost, ev[0].met) == (3, 0, 3, "s_hid")
    assert ev[1].squad == "s_hid" and ev[1].reason == "met by n"
    assert RULESET.audience(ev[0]) == "all" and RULESET.audience(ev[1]) == "all"
    assert (s2.squads["n"].x, s2.squads["n"].y, s2.squads["n"].moves_used) == (3, 0, 1)
    assert not s2.squads["s_hid"].hidden


def test_move_through_the_hidden_squad_stops_before_it() -> None:
    s = south_hides(squads_with_hidden_at(2, 0))
    s2, ev = run(s, "MoveSquad", squad="n", x=5, y=0)  # the path runs along y = 0
    assert types(ev) == ["SquadMoved", "SquadRevealed"]
    assert (ev[0].x, ev[0].y, ev[0].cost) == (1, 0, 1)
    # a hidden squad right next to the mover on its path: it does not move at all
    s = south_hides(squads_with_hidden_at(1, 0))
    s2, ev = run(s, "MoveSquad", squad="n", x=5, y=0)
    assert (ev[0].x, ev[0].y, ev[0].cost, ev[0].met) == (0, 0, 0, "s_hid")
    assert s2.squads["n"].moves_used == 1 and not s2.squads["s_hid"].hidden


def test_passing_beside_a_hidden_squad_does_not_reveal_it() -> None:
    s = south_hides(squads_with_hidden_at(2, 1))
    s2, ev = run(s, "MoveSquad", squad="n", x=5, y=0)
    assert types(ev) == ["SquadMoved"] and ev[0].met is None and s2.squads["s_hid"].hidden


def _both_hidden() -> State:
    """North's paladin n, hidden at (0, 0) with hero k; south's s_hid hidden at (4, 0),
    on n's way along y = 0."""
    squads = [
        sq("n", "north", "paladin", 2, 0, 0),
        sq("s_hid", "south", "soldier", 1, 9, 0),
        sq("s_far", "south", "soldier", 1, 11, 11),
    ]
    s = south_hides(squads, at=(4, 0), heroes=({"id": "k", "side": "north", "squad": "n"},))
    return msgspec.structs.replace(
        s, squads={**s.squads, "n": msgspec.structs.replace(s.squads["n"], hidden=True)}
    )


def test_a_hidden_mover_meeting_a_hidden_squad_shows_itself_too() -> None:
    s = _both_hidden()
    s2, ev = run(s, "MoveSquad", squad="n", x=5, y=0)
    assert types(ev) == ["SquadMoved", "SquadRevealed", "SquadRevealed"]
    assert RULESET.audience(ev[0]) == "side:north"  # the hidden mover's move
    assert [e.squad for e in ev[1:]] == ["n", "s_hid"]
    assert not s2.squads["n"].hidden and not s2.squads["s_hid"].hidden


def test_every_square_answers_as_if_the_hidden_squad_were_elsewhere() -> None:
    # Given two battles that differ only in where south's hidden squad stands
    a = south_hides(squads_with_hidden_at(5, 5), at=(3, 2))
    b = south_hides(squads_with_hidden_at(5, 5), at=(5, 6))
    assert RULESET.view(a, NORTH) == RULESET.view(b, NORTH)
    # When north probes every square, then both answer alike, square by square
    for x in range(-1, 13):
        for y in range(-1, 13):
            assert answer(a, "MoveSquad", squad="n", x=x, y=y) == answer(
                b, "MoveSquad", squad="n", x=x, y=y
            ), (x, y)
    # and the squares the hidden squad holds are accepted like the free ones within reach
    assert answer(a, "MoveSquad", squad="n", x=3, y=2) == "accepted"
    assert answer(b, "MoveSquad", squad="n", x=3, y=2) == "accepted"


def test_a_hidden_squads_id_is_as_unknown_as_any_id() -> None:
    s = south_hides(squads_with_hidden_at(1, 1))
    s = msgspec.structs.replace(s, step="move")
    combat_step = msgspec.structs.replace(s, step="combat")
    for state, type_, fields in [
        (s, "MoveSquad", {"x": 5, "y": 5}),
        (combat_step, "Attack", {}),
        (combat_step, "FireEngine", {}),
        (s, "RepositionHero", {}),
        (s, "ChooseCasualty", {}),
    ]:
        got = {}
        for sid in ("s_hid", "nobody"):
            f = dict(fields)
            if type_ == "MoveSquad" or type_ == "ChooseCasualty":
                f["squad"] = sid
            elif type_ == "Attack":
                f.update(squads=["n"], targets=[sid])
            elif type_ == "FireEngine":
                f.update(engine="n_eng", squad="n", target=sid)
            else:
                f.update(hero="h", squad=sid)
            out = answer(state, type_, **f)
            got[sid] = out if isinstance(out, str) else (out[0], out[1].replace(sid, "ID"), out[2])
        assert got["s_hid"] == got["nobody"], type_
    out = answer(s, "MoveSquad", squad="s_hid", x=5, y=5)
    assert out[0] == UnknownEntity.__name__  # not "may not order another side's squad"
    with pytest.raises(NotPermitted):  # a squad it sees: the usual answer
        RULESET.authorize(s, cmd("MoveSquad", squad="s_far", x=5, y=5), NORTH)


def test_the_referee_and_the_owner_still_see_the_hidden_squad() -> None:
    s = south_hides(squads_with_hidden_at(1, 1))
    combat_step = msgspec.structs.replace(s, step="combat")
    assert answer(combat_step, "Attack", REF, squads=["n"], targets=["s_hid"])[1] == (
        "s_hid cannot be seen"
    )
    assert answer(s, "MoveSquad", REF, squad="n", x=1, y=1) == "accepted"  # meets it


def test_views_of_the_other_side_and_observers_never_name_the_hidden_squad() -> None:
    s = south_hides(squads_with_hidden_at(5, 5), at=(3, 3))
    for actor in (NORTH, OBSERVER):
        text = msgspec.json.encode(RULESET.view(s, actor)).decode()
        assert "s_hid" not in text, actor
        hero = next(h for h in RULESET.view(s, actor)["heroes"] if h["id"] == "h")
        assert hero["squad"] is None
    for actor in (side("south"), REF):
        assert "s_hid" in msgspec.json.encode(RULESET.view(s, actor)).decode()
        hero = next(h for h in RULESET.view(s, actor)["heroes"] if h["id"] == "h")
        assert hero["squad"] == "s_hid"


def test_a_hidden_squad_does_not_block_a_heros_reposition() -> None:
    # Given north's hero whose only way out passes the hidden squad's square
    squads = [
        sq("n", "north", "paladin", 2, 0, 0),
        sq("n2", "north", "paladin", 2, 5, 5),
        sq("wall1", "south", "soldier", 1, 0, 1),
        sq("s_hid", "south", "soldier", 1, 1, 0),
        sq("s_far", "south", "soldier", 1, 11, 11),
    ]
    heroes = ({"id": "k", "side": "north", "squad": "n"},)
    s = south_hides(
        squads, heroes=heroes, barriers=[{"id": "b", "side": "south", "level": 1, "x": 1, "y": 1}]
    )
    while s.phase != "reposition" or s.active_side != "north":
        s, _ = run(s, "EndStep")
    assert s.squads["s_hid"].hidden
    # When it repositions, then the hidden squad does not wall it in
    s2, ev = run(s, "RepositionHero", hero="k", squad="n2")
    assert types(ev) == ["HeroRepositioned"] and s2.heroes["k"].squad == "n2"


def test_a_hero_joining_a_hidden_squad_is_seen_by_its_side_only() -> None:
    squads = [*squads_with_hidden_at(5, 5), sq("s2", "south", "soldier", 1, 9, 9)]
    heroes = ({"id": "g", "side": "south", "squad": "s2"},)
    s = make(
        squads,
        heroes=[{"id": "h", "side": "south", "squad": "s_hid", "skills": {"stealth": 5}}, *heroes],
    )
    s, _ = run(s, "PriorityCheck", [1], hero="g", skill="history")
    s, _ = run(s, "PriorityCheck", [1, 1, 6], hero="h", skill="history")
    s, _ = run(s, "UseSkill", [12], hero="h", skill="stealth")
    # the hero leaves s_hid so that another may join it
    s = msgspec.structs.replace(
        s,
        heroes={
            **s.heroes,
            "h": msgspec.structs.replace(s.heroes["h"], squad=None, watchtower=True),
        },
    )
    while s.phase != "reposition" or s.active_side != "south":
        s, _ = run(s, "EndStep")
    s, ev = run(s, "RepositionHero", hero="g", squad="s_hid")
    assert ev[0].hidden and RULESET.audience(ev[0]) == "side:south"
    assert next(h for h in RULESET.view(s, NORTH)["heroes"] if h["id"] == "g")["squad"] is None


def test_a_hidden_medic_does_not_save() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("s", "south", "paladin", 1, 5, 6),
        sq("s_hid", "south", "medic", 1, 6, 7),
    ]
    s = south_hides(squads)
    s, _ = run(s, "EndStep")
    # no d20 for the medic: the hit destroys s with the dice north could count on
    s, ev = run(s, "Attack", [6, 1, 1], squads=["n"], targets=["s"])
    hit = next(e for e in ev if type(e).__name__ == "HitApplied")
    assert (hit.squad, hit.outcome, hit.medic) == ("s", "destroyed", None)


def test_a_hidden_squad_firing_an_engine_shows_itself() -> None:
    squads = [
        sq("s_hid", "south", "soldier", 2, 1, 0),
        sq("n", "north", "paladin", 2, 9, 9, large=True),
        sq("s_far", "south", "soldier", 1, 11, 11),
    ]
    engines = [{"id": "e", "side": "south", "level": 1, "x": 0, "y": 0}]
    hero = {"id": "h", "side": "south", "squad": "s_hid", "skills": {"stealth": 5}}
    s = make(squads, heroes=[hero], engines=engines)
    s, _ = run(s, "PriorityCheck", [1, 1, 6], hero="h", skill="history")
    s, _ = run(s, "UseSkill", [12], hero="h", skill="stealth")
    s, _ = run(s, "EndStep")
    s, ev = run(s, "FireEngine", [1], engine="e", squad="s_hid", target="n")
    assert types(ev) == ["SquadRevealed", "EngineFired"] and not s.squads["s_hid"].hidden


def test_retreat_onto_a_hidden_squad_stays_and_reveals_it() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("s", "south", "paladin", 2, 5, 6),
        sq("s_hid", "south", "soldier", 1, 4, 4),  # the square n would retreat to
    ]
    s = south_hides(squads)
    s, _ = run(s, "EndStep")
    s, ev = run(s, "Attack", [1, 1, 1, 1], squads=["n"], targets=["s"])
    assert types(ev)[-1] == "PressOrRetreatOffered"
    s, ev = run(s, "Retreat")
    assert types(ev) == ["SquadsRetreated", "SquadRevealed", "CombatEnded"]
    assert ev[0].moves == () and ev[1].squad == "s_hid"
    assert (s.squads["n"].x, s.squads["n"].y) == (5, 5)


def test_refused_is_refused_on_the_view() -> None:
    """A refusal that the view explains stays a refusal with the same reason."""
    s = south_hides(squads_with_hidden_at(1, 1))
    with pytest.raises(RuleViolation, match="beyond"):
        RULESET.authorize(s, cmd("MoveSquad", squad="n", x=9, y=9), NORTH)


def test_a_hidden_squad_does_not_trap_a_retreating_hero() -> None:
    # Given north's k on n1, walled in by a barrier, south's attacker and south's hidden squad
    squads = [
        sq("n1", "north", "soldier", 1, 0, 0),
        sq("n2", "north", "soldier", 1, 5, 5),
        sq("s_att", "south", "soldier", 2, 0, 1),
        sq("s_hid", "south", "soldier", 1, 1, 0),
    ]
    heroes = [
        {"id": "h", "side": "south", "squad": "s_hid", "skills": {"stealth": 5}},
        {"id": "k", "side": "north", "squad": "n1"},
    ]
    barrier = [{"id": "b", "side": "south", "level": 1, "x": 1, "y": 1}]
    s = make(squads, heroes=heroes, barriers=barrier)
    s, _ = run(s, "PriorityCheck", [1], hero="k", skill="history")
    s, _ = run(s, "PriorityCheck", [1, 1, 6], hero="h", skill="history")  # south first
    s, _ = run(s, "UseSkill", [12], hero="h", skill="stealth")
    s, _ = run(s, "EndStep")
    # When n1 is destroyed, then k finds its way past the squad its side cannot see
    s, ev = run(s, "Attack", [6, 1, 1], squads=["s_att"], targets=["n1"])
    retreat = next(e for e in ev if type(e).__name__ == "HeroRetreated")
    assert (retreat.squad, retreat.hidden) == ("n2", False) and s.heroes["k"].status == "active"
    assert s.squads["s_hid"].hidden


def test_a_hero_retreating_to_a_hidden_squad_is_seen_by_its_side_only() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("s_vis", "south", "soldier", 1, 5, 6),
        sq("s_hid", "south", "soldier", 1, 9, 9),
    ]
    g = {"id": "g", "side": "south", "squad": "s_vis"}
    s = south_hides(squads, heroes=(g,), options={"max_heroes_per_squad": 2})
    s, _ = run(s, "EndStep")
    s, ev = run(s, "Attack", [6, 1, 1], squads=["n"], targets=["s_vis"])
    retreat = next(e for e in ev if type(e).__name__ == "HeroRetreated")
    assert (retreat.squad, retreat.hidden) == ("s_hid", True)
    assert RULESET.audience(retreat) == "side:south"
    public = [e for e in ev if RULESET.audience(e) == "all"]
    assert "s_hid" not in msgspec.json.encode(public).decode()


def test_the_state_a_side_is_judged_and_prompted_on_never_names_the_hidden_squad() -> None:
    """`known_to` (authorize's `seen_by`, the prompts' and reach's view): the squad hidden
    from north is not there, nor is it any hero's squad; south and the referee keep it."""
    s = south_hides(squads_with_hidden_at(5, 5), at=(3, 3))
    for actor in (NORTH, OBSERVER):
        known = known_to(s, actor)
        assert "s_hid" not in msgspec.json.encode(known).decode(), actor
        assert known.heroes["h"].squad is None
    for actor in (side("south"), REF):
        assert known_to(s, actor) is s


def test_a_hidden_mover_is_revealed_on_the_square_where_it_stopped() -> None:
    # Given north's squad n hidden, and south's s_hid hidden at (4, 0) on n's path
    s = _both_hidden()
    # When n moves along y = 0 into s_hid
    s2, ev = run(s, "MoveSquad", squad="n", x=5, y=0)
    # Then (Hero Units, stealth) n stops at (3, 0), and shows itself there, not elsewhere
    assert (ev[0].x, ev[0].y) == (3, 0)
    assert (ev[1].squad, ev[1].x, ev[1].y, ev[1].reason) == ("n", 3, 0, "met s_hid")
    assert (ev[2].squad, ev[2].x, ev[2].y, ev[2].reason) == ("s_hid", 4, 0, "met by n")
    assert (s2.squads["n"].x, s2.squads["n"].y) == (3, 0)


def test_the_referee_placing_a_hidden_squad_tells_only_its_side() -> None:
    # Given south's s_hid hidden at (4, 0)
    s = south_hides(squads_with_hidden_at(4, 0))
    # When the referee sets its square and level (001 (referee))
    s2, ev = run(s, "AdjustSquad", squad="s_hid", level=3, x=7, y=2)
    # Then the event is south's alone, and the squad stands there, still hidden
    assert types(ev) == ["SquadAdjusted"]
    assert (ev[0].x, ev[0].y, ev[0].level, ev[0].hidden) == (7, 2, 3, True)
    assert RULESET.audience(ev[0]) == "side:south"
    q = s2.squads["s_hid"]
    assert (q.x, q.y, q.level, q.hidden) == (7, 2, 3, True)
    assert "s_hid" not in {v["id"] for v in RULESET.view(s2, NORTH)["squads"]}


def test_the_referee_reviving_a_hero_onto_a_hidden_squad_tells_only_its_side() -> None:
    # Given south's s_hid hidden, and south's hero h2 removed
    h2 = {"id": "h2", "side": "south", "squad": "s_far"}
    s = south_hides(squads_with_hidden_at(4, 0), heroes=(h2,), options={"max_heroes_per_squad": 2})
    heroes = {
        **s.heroes,
        "h2": msgspec.structs.replace(s.heroes["h2"], status="removed", squad=None),
    }
    s = msgspec.structs.replace(s, heroes=heroes)
    # When the referee revives h2 onto s_hid (Hero Units; the referee's call)
    s2, ev = run(s, "ReviveHero", hero="h2", squad="s_hid")
    # Then the event is south's alone: north must not learn where a hero went
    assert types(ev) == ["HeroRevived"] and ev[0].hidden is True
    assert RULESET.audience(ev[0]) == "side:south"
    assert (s2.heroes["h2"].status, s2.heroes["h2"].squad) == ("active", "s_hid")


def test_the_referee_is_told_a_squad_may_move_onto_a_square_only_a_hidden_squad_holds() -> None:
    # Given north's n in the corner, its own squads on two of its three neighbours, and
    # south's s_hid hidden on the third
    squads = [
        sq("n", "north", "paladin", 2, 0, 0),
        sq("w1", "north", "soldier", 1, 1, 0),
        sq("w2", "north", "soldier", 1, 0, 1),
        sq("s_hid", "south", "soldier", 1, 1, 1),
        sq("s_far", "south", "soldier", 1, 11, 11),
    ]
    s = south_hides(squads)
    # When the referee asks what the battle awaits, then n's move is offered, as north
    # knows the field (the move would meet s_hid)
    for actor in (REF, NORTH):
        ids = [p.id for p in RULESET.awaiting(s, actor)]
        assert "move:n" in ids, actor
