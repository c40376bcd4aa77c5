"""[Dual Wielding] of seed 002, the cases mutation testing found untested (issue 38): what
a dual wield needs (two weapons of one type, one in each hand, A64), a target, two
different targets, each of them seen; and the two rolls are one action, paid once."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from domain.dice import ServerDice
from domain.errors import RuleViolation
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import AttackResolved, ConcentrationChecked
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.rules import R_DUAL, R_UNSEEN
from tests.support.tactical_kit import ch, make, play, started

SHORT = {"id": "short", "category": "melee", "dice": "d6", "add_stats": ["STR"],
         "weapon_type": "shortsword"}  # fmt: skip
SHORT2 = {**SHORT, "id": "short2"}
PLAIN = {"id": "plain", "category": "melee", "dice": "d6"}  # no weapon type
PLAIN2 = {**PLAIN, "id": "plain2"}
INVISIBLE = {"conditions": [{"name": "invisible"}]}
NEEDS = "dual wielding needs two weapons of the same type, one in each hand"


def _dual(*foes: dict[str, Any], **p: Any) -> State:
    me = ch("p", "a", 5, 5, **{"main_hand": "short", "off_hand": "short2", **p})
    s = make([me, *foes], items=[SHORT, SHORT2, PLAIN, PLAIN2],
             options={"reaction_window": "never"})  # fmt: skip
    return started(s, [12, *range(1, 1 + len(foes))])


@pytest.mark.parametrize(
    "hands",
    [
        {"off_hand": None},  # one weapon only
        {"main_hand": None},
        {"main_hand": "plain", "off_hand": "plain2"},  # two weapons of no named type
    ],
)
def test_dual_wielding_needs_two_weapons_of_one_named_type(hands: dict[str, Any]) -> None:
    """[Dual Wielding]: "two of the same weapon type, one in each hand" (A64)."""
    s = _dual(ch("g", "b", 6, 5), **hands)
    weapon = hands.get("main_hand", "short") or "short2"
    cmd = {"type": "Attack", "character": "p", "weapon": weapon, "target": "g", "dual": True}
    with pytest.raises(RuleViolation) as refused:
        play(s, cmd, [3, 5])
    assert (refused.value.reason, refused.value.rule) == (NEEDS, R_DUAL)


def test_a_dual_wield_names_its_target() -> None:
    s = _dual(ch("g", "b", 6, 5))
    with pytest.raises(RuleViolation) as refused:
        play(s, {"type": "Attack", "character": "p", "weapon": "short", "dual": True}, [3, 5])
    assert (refused.value.reason, refused.value.rule) == ("name the target", R_DUAL)


def test_two_rolls_go_against_two_different_targets() -> None:
    """[Dual Wielding]: "two attack rolls against different targets"."""
    s = _dual(ch("g", "b", 6, 5))
    cmd = {"type": "Attack", "character": "p", "weapon": "short", "target": "g",
           "second_target": "g"}  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        play(s, cmd, [3, 5])
    assert refused.value.reason == "two rolls go against two different targets"
    assert refused.value.rule == R_DUAL


@pytest.mark.parametrize("unseen", ["g", "h"])
def test_neither_target_of_two_may_be_totally_concealed(unseen: str) -> None:
    """[Total Concealment]: "you cannot attack them as normal", either roll of the two."""
    g = ch("g", "b", 6, 5, **(INVISIBLE if unseen == "g" else {}))
    h = ch("h", "b", 4, 5, **(INVISIBLE if unseen == "h" else {}))
    s = _dual(g, h)
    cmd = {"type": "Attack", "character": "p", "weapon": "short", "target": "g",
           "second_target": "h"}  # fmt: skip
    with pytest.raises(RuleViolation) as refused:
        play(s, cmd, [3, 5])
    assert refused.value.reason == f"{unseen} has total concealment"
    assert refused.value.rule == R_UNSEEN


def test_a_stamina_dual_wield_pays_its_six_sta_once() -> None:
    """[Stamina Actions] Attack (6 STA): the two rolls are one attack action, one cost."""
    s = _dual(ch("g", "b", 6, 5), ch("h", "b", 4, 5), stats={"END": 3})
    one = {"type": "Attack", "character": "p", "weapon": "short", "target": "g"}
    _, s = play(s, one, [1])  # the standard action
    cmd = {**one, "second_target": "h"}
    events, s = play(s, cmd, [3, 5])
    rolls = [e for e in events if isinstance(e, AttackResolved)]
    assert [(r.attack.action, r.attack.sta_spent) for r in rolls] == [
        ("stamina", 6),
        ("stamina", 0),
    ]
    assert s.chars["p"].STA.cur == 14 and s.chars["p"].attacks == 2


def test_a_target_of_two_that_concentrates_checks_its_concentration() -> None:
    """[Concentration]: a damaged concentrator makes a MIN check less the damage, whichever
    of the two rolls hit it (the dice go on to each record resolved in turn)."""
    s = _dual(ch("g", "b", 6, 5), ch("h", "b", 4, 5))
    s = replace(s, chars={**s.chars, "h": replace(s.chars["h"], concentration="hold")})
    cmd = {"type": "Attack", "character": "p", "weapon": "short", "target": "g",
           "second_target": "h"}  # fmt: skip
    events, s = play(s, cmd, [3, 2, 12])
    checks = [e for e in events if isinstance(e, ConcentrationChecked)]
    assert [(c.character, c.damage, c.die.value, c.success) for c in checks] == [("h", 2, 12, True)]


def test_both_rolls_at_a_perceived_foe_and_a_seen_one_come_from_the_sides_stream() -> None:
    """RULINGS "Invisible stamina": a dual wield naming an invisible foe its side perceived
    is that side's whole action, both of its rolls drawn from that side's dice, the seen
    foe's roll too ([Targeting What You Can't See §1])."""
    a1 = ch("a1", "a", 2, 2, main_hand="short", off_hand="short2")
    chars = [a1, ch("b1", "b", 3, 2, **INVISIBLE), ch("b2", "b", 1, 2)]
    state = started(make(chars, items=[SHORT, SHORT2]), [12, 1, 2])
    _, state = play(state, {"type": "Perceive", "character": "a1", "target": "b1"}, [6])
    two = {"type": "Attack", "character": "a1", "weapon": "short", "target": "b2",
           "second_target": "b1"}  # fmt: skip
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(two))
    server = ServerDice(seed=b"s", epoch=0, battle_id="t", version=9, sub_seeds={"side:a": b"a"})
    RULESET.decide(state, cmd, server)
    assert server.streams["all"].drawn == []
    assert len(server.streams["side:a"].drawn) == 2
