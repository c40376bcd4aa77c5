"""[Sequence] of seed 002: surprise, initiative (d12 + DEX, ties to players), the surprise
round, turns in order, regeneration at the end of a turn, the end of combat."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import (
    InitiativeRolled,
    Regenerated,
    RoundStarted,
    TurnStarted,
)
from domain.rulesets.tactical.setup import Setup
from tests.support.tactical_kit import ch, make, play, started, types


def _duo(**kw: object) -> object:
    return make(
        [
            ch("p", "a", 1, 1, stats={"DEX": 2, "END": 1, "MIN": 2}),
            ch("g", "b", 5, 5, stats={"DEX": 3}),
        ],
        **kw,  # type: ignore[arg-type]
    )


def test_initiative_is_d12_plus_dex_highest_first() -> None:
    # given p (DEX 2) and g (DEX 3); when p rolls 9 (11) and g rolls 4 (7)
    events, s = play(_duo(), {"type": "RollInitiative"}, [9, 4])
    ini = events[0]
    assert isinstance(ini, InitiativeRolled)
    assert [(e.character, e.total) for e in ini.entries] == [("p", 11), ("g", 7)]
    # then p acts first, and its turn has started
    assert ini.order == ("p", "g")
    assert s.active == "p" and s.round == 1


def test_initiative_tie_goes_to_the_player() -> None:
    # p (player) 9 + 2 = 11; g (gm) 8 + 3 = 11: a tie, the player first
    events, _ = play(_duo(), {"type": "RollInitiative"}, [9, 8])
    assert events[0].order == ("p", "g")


def test_tie_between_players_then_dex_then_roll_off() -> None:
    s = make(
        [
            ch("p", "a", 1, 1, stats={"DEX": 2}),
            ch("q", "a", 2, 1, stats={"DEX": 2}),
            ch("g", "b", 9, 9),
        ]
    )
    # both players 11 with the same DEX: a d12 roll-off (p 3, q 10) puts q first
    events, _ = play(s, {"type": "RollInitiative"}, [9, 9, 1, 3, 10])
    ini = events[0]
    assert ini.order == ("q", "p", "g")
    assert ini.entries[1].tie_break is not None and ini.entries[1].tie_break.value == 10


def test_surprised_take_no_turn_in_round_one() -> None:
    s = _duo()
    s = play(s, {"type": "DeclareSurprise", "surprised": ["p"], "reason": "ambush"})[1]
    events, s = play(s, {"type": "RollInitiative"}, [12, 1])
    # p rolled higher but is surprised: g takes the first turn of round 1
    assert s.active == "g"
    # g ends its turn (d4 regeneration): round 2 starts with p
    events, s = play(s, {"type": "EndTurn", "character": "g"}, [2])
    starts = [e for e in events if isinstance(e, TurnStarted)]
    assert [(e.character, e.round) for e in starts] == [("p", 2)]


def test_surprise_only_before_initiative() -> None:
    s = started(_duo(), [9, 4])
    with pytest.raises(RuleViolation):
        play(s, {"type": "DeclareSurprise", "surprised": ["p"], "reason": "late"})


def test_regeneration_d4_plus_end_and_min() -> None:
    s = _duo()
    s = msgspec.structs.replace(s, chars={**s.chars})
    s = started(s, [9, 4])
    p = s.chars["p"]
    # p at 20/20 STA: make it 10 by a referee ruling on the pool through play instead:
    s = msgspec.structs.replace(
        s,
        chars={
            **s.chars,
            "p": msgspec.structs.replace(
                p,
                STA=msgspec.structs.replace(p.STA, cur=10),
                WIL=msgspec.structs.replace(p.WIL, cur=5),
            ),
        },
    )
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [3])
    regen = next(e for e in events if isinstance(e, Regenerated))
    assert regen.sta_gain == 3 + 1 and regen.wil_gain == 2
    assert s.chars["p"].STA.cur == 14 and s.chars["p"].WIL.cur == 7


def test_regeneration_never_above_max() -> None:
    s = started(_duo(), [9, 4])
    _, s = play(s, {"type": "EndTurn", "character": "p"}, [4])
    assert s.chars["p"].STA.cur == 20 and s.chars["p"].WIL.cur == 10


def test_not_your_turn() -> None:
    s = started(_duo(), [9, 4])
    with pytest.raises(RuleViolation) as err:
        play(s, {"type": "EndTurn", "character": "g"})
    assert err.value.rule == "002 Sequence"


def test_unknown_setup_field_refused() -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(
            {"sides": [{"id": "a"}, {"id": "b"}], "characters": [], "colour": "red"}, Setup
        )


def test_out_of_bounds_stat_refused() -> None:
    c = ch("p", "a", 1, 1, stats={"DEX": 99})
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"sides": [{"id": "a"}, {"id": "b"}], "characters": [c]}, Setup)


def test_referee_ends_combat() -> None:
    s = started(_duo(), [9, 4])
    events, s = play(s, {"type": "EndCombat", "winner": "a", "reason": "b fled"})
    assert types(events) == ["CombatEnded"] and s.phase == "over" and s.winner == "a"


def test_no_stamina_regeneration_after_spending_stamina() -> None:
    s = started(_duo(), [9, 4])
    s = play(s, {"type": "Move", "character": "p", "to": [2, 2]})[1]
    s = play(s, {"type": "Move", "character": "p", "to": [3, 3]})[1]  # 6 STA
    events, s = play(s, {"type": "EndTurn", "character": "p"})  # no d4 rolled
    regen = [e for e in events if isinstance(e, Regenerated)]
    assert regen and regen[0].sta_die is None and regen[0].wil_gain == 2
    assert s.chars["p"].STA.cur == 14


def test_starting_positions_before_initiative() -> None:
    s = _duo()
    _, s2 = play(s, {"type": "Place", "character": "p", "to": [3, 3]})
    assert s2.chars["p"].pos == (3, 3) and s2.occupied[(3, 3)] == "p"
    with pytest.raises(RuleViolation):  # g's square
        play(s, {"type": "Place", "character": "p", "to": [5, 5]})
    s3 = started(s2, [9, 4])
    with pytest.raises(RuleViolation):
        play(s3, {"type": "Place", "character": "p", "to": [4, 4]})


def test_a_late_joiner_takes_the_slot_the_referee_gives() -> None:
    s = started(_duo(), [9, 4])  # p, g
    late = ch("late", "a", 9, 9)
    _, s = play(s, {"type": "Join", "character": late, "after": "p"})
    assert s.order == ("p", "late", "g") and s.active == "p"
    _, s = play(s, {"type": "EndTurn", "character": "p"}, [1])
    assert s.active == "late"


def test_every_character_takes_exactly_one_turn_a_round() -> None:
    # [Sequence]: "each character taking one turn per round", in initiative order
    s = make([ch("p", "a", 1, 1), ch("q", "a", 3, 1), ch("g", "b", 9, 9)])
    events, s = play(s, {"type": "RollInitiative"}, [12, 8, 4])
    log = list(events)
    for _ in range(6):  # two whole rounds, each turn ended by its character
        events, s = play(s, {"type": "EndTurn", "character": s.active}, [1])
        log.extend(events)
    turns = [(e.round, e.character) for e in log if isinstance(e, TurnStarted)]
    assert turns == [(1, "p"), (1, "q"), (1, "g"), (2, "p"), (2, "q"), (2, "g"), (3, "p")]
    assert [e.round for e in log if isinstance(e, RoundStarted)][-2:] == [2, 3]
    assert s.round == 3 and s.active == "p"


def test_one_standard_action_a_turn() -> None:
    # [Sequence]/[Types]: "1 standard action" a turn; only those the text lists as stamina
    # actions (an extra attack, move...) may be added. p rests (standard): no other one.
    s = make([ch("p", "a", 1, 1, conditions=[{"name": "slowed"}]), ch("q", "a", 2, 2),
              ch("g", "b", 9, 9)])  # fmt: skip
    s = started(s, [12, 5, 1])
    events, s = play(s, {"type": "Rest", "character": "p"})
    assert types(events) == ["Rested"] and s.chars["p"].standard_used
    for cmd in (
        {"type": "Rest", "character": "p"},
        {"type": "Help", "character": "p", "ally": "q"},
        {"type": "Save", "character": "p", "condition": "slowed"},
    ):
        with pytest.raises(RuleViolation) as err:
            play(s, cmd, [12])
        assert err.value.rule == "002 Actions / Standard Actions"
    # the next turn brings a new one
    s = play(s, {"type": "EndTurn", "character": "p"}, [1, 1, 1])[1]  # d4, then Rest's d6s
    s = play(s, {"type": "EndTurn", "character": "q"}, [1])[1]
    s = play(s, {"type": "EndTurn", "character": "g"}, [1])[1]
    assert types(play(s, {"type": "Help", "character": "p", "ally": "q"})[0]) == ["HelpGiven"]


def test_rest_adds_a_d6_to_each_pool_that_regenerates() -> None:
    # [Rest]: "when you regenerate stamina or willpower, you add +d6 to the rolls" (A38)
    s = started(_duo(), [9, 4])
    p = s.chars["p"]
    s = msgspec.structs.replace(
        s,
        chars={
            **s.chars,
            "p": msgspec.structs.replace(
                p,
                STA=msgspec.structs.replace(p.STA, cur=5),
                WIL=msgspec.structs.replace(p.WIL, cur=1),
            ),
        },
    )
    s = play(s, {"type": "Rest", "character": "p"})[1]
    # d4 2 + END 1 + d6 4 = 7 STA; MIN 2 + d6 5 = 7 WIL
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [2, 4, 5])
    regen = next(e for e in events if isinstance(e, Regenerated))
    assert regen.rest_sta is not None and regen.rest_sta.value == 4
    assert regen.rest_wil is not None and regen.rest_wil.value == 5
    assert (regen.sta_gain, regen.wil_gain) == (7, 7)
    assert (s.chars["p"].STA.cur, s.chars["p"].WIL.cur) == (12, 8)
