"""The referee revives a removed or trapped hero onto a squad of its side ("Hero Units";
the referee's call, RULINGS.md): it is active again, with that squad, out of the
watchtower, with `revive_surges` healing surges."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State
from tests.support.quickstart_testkit import REF, make, run, sq


def _fallen(status: str, **options: Any) -> State:
    squads = [sq("n", "north", "soldier", 2, 0, 0), sq("n2", "north", "soldier", 1, 3, 3),
              sq("s", "south", "soldier", 2, 9, 9)]  # fmt: skip
    hero = {"id": "h", "side": "north", "squad": "n", "surges": 2}
    s, _ = run(make(squads, heroes=[hero], options=options), "SkipPriorityChecks", [6, 1])
    heroes = dict(s.heroes)
    heroes["h"] = msgspec.structs.replace(heroes["h"], status=status, squad=None, surges=0)
    return msgspec.structs.replace(s, heroes=heroes)


@pytest.mark.parametrize("status", ["removed", "trapped"])
@pytest.mark.parametrize("surges", [1, 3])
def test_a_revived_hero_is_active_with_its_squad_and_the_surges_the_options_give(
    status: str, surges: int
) -> None:
    s, ev = run(_fallen(status, revive_surges=surges), "ReviveHero", hero="h", squad="n2")
    assert [type(e).__name__ for e in ev] == ["HeroRevived"]
    h = s.heroes["h"]
    assert (h.status, h.squad, h.watchtower, h.surges) == ("active", "n2", False, surges)
    seen = next(x for x in RULESET.view(s, REF)["heroes"] if x["id"] == "h")
    assert seen["watchtower"] is False and seen["surges"] == surges
