"""The texts seed 001's events carry, exactly: each die's purpose and the subject it is
asked of (a table rolling its own dice is asked for "combat dice of n", subject n), why a
squad is revealed and why the battle ended, as the log and the viewers show them.

"1. Priority Phase" (checks, roll-off), "Hero Units" (skill checks, stealth), "Resolving
Combat" (combat dice, medics' saving throws, the end), "Defenses and siege weapons"."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.dice import Roll
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State
from tests.support.quickstart_testkit import ScriptedDice, cmd, make, sq, to_action


class Asked(ScriptedDice):
    """Scripted dice that note what each draw was asked for: (sides, count, purpose,
    subject)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(values)
        self.asked: list[tuple[int, int, str, str | None]] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose, subject)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        self.asked.append((sides, count, purpose, subject))
        return super().roll_many(count, sides, purpose, subject)


def play(
    state: State, type_: str, dice: list[int], **fields: Any
) -> tuple[State, list[Any], Asked]:
    d = Asked(dice)
    events = RULESET.decide(state, cmd(type_, **fields), d)
    assert not d.values, f"dice left over: {d.values}"
    for e in events:
        state = RULESET.evolve(state, e)
    return state, events, d


def named(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if type(e).__name__ == kind]


def hide(state: State, sid: str) -> State:
    squads = dict(state.squads)
    squads[sid] = msgspec.structs.replace(squads[sid], hidden=True)
    return msgspec.structs.replace(state, squads=squads)


HEROES = [
    {"id": "hn", "side": "north", "squad": "n", "skills": {"history": 2, "stealth": 3}},
    {"id": "ht", "side": "north", "watchtower": True, "skills": {"perception": 2}},
]


def _heroes() -> State:
    squads = [
        sq("n", "north", "soldier", 2, 2, 2),
        sq("s", "south", "soldier", 1, 9, 9),
        sq("s2", "south", "soldier", 1, 9, 7),
    ]
    return make(squads, heroes=HEROES, watchtower={"x": 0, "y": 11})


def test_the_priority_dice_name_the_hero_and_skill_then_each_side() -> None:
    s, _, d = play(_heroes(), "PriorityCheck", [3], hero="hn", skill="history")
    assert d.asked == [(20, 1, "priority check of hn (history)", "hn")]
    s, ev, d = play(s, "PriorityCheck", [2, 4, 4], hero="ht", skill="history")
    assert d.asked == [
        (20, 1, "priority check of ht (history)", "ht"),
        (6, 1, "priority roll-off of north", "north"),
        (6, 1, "priority roll-off of south", "south"),
    ]
    # a tie keeps the sides' setup order
    assert named(ev, "PriorityDecided")[0].order == ("north", "south")


def test_a_skill_check_names_its_skill_and_hero_and_scouting_reveals() -> None:
    s, _, _ = play(_heroes(), "SkipPriorityChecks", [6, 1])
    s, ev, d = play(s, "UseSkill", [15], hero="hn", skill="stealth")
    assert d.asked == [(20, 1, "stealth check of hn", "hn")]
    assert s.squads["n"].hidden
    hidden = hide(s, "s")
    _, ev, d = play(hidden, "UseSkill", [12], hero="ht", skill="perception")
    assert d.asked == [(20, 1, "perception check of ht", "ht")]
    assert [(e.squad, e.reason) for e in named(ev, "SquadRevealed")] == [("s", "scouted")]


def test_combat_dice_and_a_medics_saving_throw_name_their_squads() -> None:
    squads = [
        sq("n", "north", "soldier", 2, 5, 5),
        sq("s", "south", "soldier", 1, 5, 6),
        sq("m", "south", "medic", 1, 6, 7),
    ]
    s = to_action(make(squads), step="combat")
    _, ev, d = play(s, "Attack", [6, 1, 1, 20], squads=["n"], targets=["s"])
    assert d.asked == [
        (6, 2, "combat dice of n", "n"),
        (6, 1, "combat dice of s", "s"),
        (20, 1, "saving throw of m for s", "m"),
    ]
    assert [(e.squad, e.outcome, e.medic) for e in named(ev, "HitApplied")] == [("s", "saved", "m")]


def test_siege_dice_name_the_engine_and_the_barrier() -> None:
    squads = [sq("n", "north", "soldier", 2, 5, 5), sq("s", "south", "soldier", 1, 9, 9)]
    s = make(
        squads,
        engines=[{"id": "en", "side": "north", "level": 2, "x": 4, "y": 4}],
        barriers=[{"id": "bs", "side": "south", "level": 2, "x": 11, "y": 0}],
    )
    s = to_action(s, step="combat")
    _, ev, d = play(s, "FireEngine", [6, 1, 5, 1], engine="en", squad="n", target="bs")
    assert d.asked == [(6, 2, "siege engine en", "en"), (6, 2, "barrier bs holds", "bs")]
    hit = named(ev, "BarrierHit")[0]
    assert (hit.level, hit.destroyed) == (1, False)  # a 5 holds: one level lost


def test_the_reasons_a_squad_is_revealed_and_a_battle_ends() -> None:
    # paladins: a soldier that scores ignores a hit on its side (The troops)
    squads = [sq("n", "north", "paladin", 1, 5, 5), sq("s", "south", "paladin", 1, 5, 6)]
    s = to_action(make(squads), step="combat")
    _, ev, _ = play(s, "Attack", [6, 6], squads=["n"], targets=["s"])
    assert [e.reason for e in named(ev, "BattleEnded")] == ["no squads left on any side"]
    _, ev, _ = play(s, "Attack", [6, 1], squads=["n"], targets=["s"])
    assert [(e.winner, e.reason) for e in named(ev, "BattleEnded")] == [
        ("north", "only north has squads left")
    ]
    # hidden squads are revealed when the round ends
    s = hide(to_action(make(squads), step="move"), "n")
    for _ in range(4):  # north: moves, combats; south: moves, combats
        s, ev, _ = play(s, "EndStep", [])
    s, ev, _ = play(s, "EndStep", [])  # north repositions
    s, ev, _ = play(s, "EndStep", [3, 4])  # south repositions: the round ends
    assert [(e.squad, e.reason) for e in named(ev, "SquadRevealed")] == [("n", "round ended")]
