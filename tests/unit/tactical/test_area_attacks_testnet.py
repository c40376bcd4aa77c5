"""Area attacks through the decider, the cases mutation testing found untested (issue 38;
seed 002 [Ranges] Blast, Burst, Close Burst, Line, Wall; [Sequence §5])."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.errors import RuleViolation
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started


def _power(shape: str, rating: int, **kw: Any) -> dict[str, Any]:
    return {"id": "area", "kind": "spell", "dice": "d6", "pool": "STA", "range": 6,
            "area": {"shape": shape, "rating": rating, **kw}}  # fmt: skip


def _st(power: dict[str, Any], *others: dict[str, Any], **opts: Any) -> State:
    p = ch("p", "a", 5, 5, powers=["area"], main_hand=None)
    s = make([p, *others], powers=[power], options={"reaction_window": "never", **opts})
    return started(s, [12, *range(1, 1 + len(others))])


def test_an_area_attack_is_made_on_the_attackers_turn_only() -> None:
    """[Sequence §5]: a character acts on its turn; q's area attack in p's turn is refused."""
    q = ch("q", "b", 1, 1, powers=["area"], main_hand=None)
    s = _st(_power("close_burst", 1), q)
    assert s.active == "p"
    with pytest.raises(RuleViolation, match="it is not q's turn"):
        play(s, {"type": "Attack", "character": "q", "weapon": "area"}, [4])


def test_an_area_power_that_costs_more_sta_than_the_attacker_has_is_refused() -> None:
    """A20: a power's fixed STA cost needs that much current STA, even as the turn's
    standard action; with exactly enough it is cast and spent."""
    s = _st({**_power("close_burst", 1), "sta": 5}, ch("g", "b", 6, 6))
    p = s.chars["p"]
    short = replace(s, chars={**s.chars, "p": replace(p, STA=replace(p.STA, cur=4))})
    with pytest.raises(RuleViolation, match="this attack costs 5 STA; p has 4"):
        play(short, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    enough = replace(s, chars={**s.chars, "p": replace(p, STA=replace(p.STA, cur=5))})
    _, after = play(enough, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert after.chars["p"].STA.cur == 0


def test_an_area_power_that_costs_more_wil_than_the_attacker_has_is_refused() -> None:
    """A power's WIL cost (its setup's `wil`; refused under [Attacks]) needs that much WIL; with
    exactly enough it is cast and the WIL spent."""
    s = _st({**_power("close_burst", 1), "wil": 3}, ch("g", "b", 6, 6))
    p = s.chars["p"]
    short = replace(s, chars={**s.chars, "p": replace(p, WIL=replace(p.WIL, cur=2))})
    with pytest.raises(RuleViolation, match=r"^area costs 3 WIL$") as refused:
        play(short, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert refused.value.rule == "002 Attacks"
    enough = replace(s, chars={**s.chars, "p": replace(p, WIL=replace(p.WIL, cur=3))})
    _, after = play(enough, {"type": "Attack", "character": "p", "weapon": "area"}, [4])
    assert after.chars["p"].WIL.cur == 0
