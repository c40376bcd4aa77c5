"""A check the referee calls at a table with physical dice asks for its die by the
character it is for ([Sequence §1] "may call for any check"; domain.dice `subject`)."""

from __future__ import annotations

import msgspec
import pytest

from domain.dice import SuppliedDice
from domain.errors import DiceError
from domain.rulesets import RULESETS
from tests.support.tactical_kit import ch
from tests.support.tactical_kit import make as tactical_make


@pytest.mark.parametrize("secret", [False, True])
def test_a_called_check_asks_the_table_for_the_characters_die(secret: bool) -> None:
    ruleset = RULESETS["tactical"]
    state = tactical_make([ch("a1", "a", 1, 1), ch("b1", "b", 5, 5)])
    call = {"type": "CallCheck", "character": "a1", "stat": "DEX", "reason": "ambush",
            "secret": secret}  # fmt: skip
    cmd = ruleset.command_decoder.decode(msgspec.json.encode(call))
    with pytest.raises(DiceError) as raised:
        ruleset.decide(state, cmd, SuppliedDice([]))
    need = raised.value.context["next_die"]
    assert (need.subject, need.purpose, need.count) == ("a1", "a1's DEX check", 1)
