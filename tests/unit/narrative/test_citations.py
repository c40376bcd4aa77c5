"""Every event type of every ruleset that applies a rule cites its seed section: in a
`rule` field (its own, or of a check it holds) or in its class's docstring (`[Section]:
...`, read by `service.desk.narrative.citations`). Only the few bookkeeping events below,
each with why, cite none."""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

import msgspec
import pytest

from domain.rulesets import RULESETS
from service.desk.narrative import citations

# Events that apply no rule of the text: a referee's call recorded with its reason, or a
# side's choice. Each names why.
BOOKKEEPING: dict[str, dict[str, str]] = {
    "tactical": {
        "CharacterJoined": "a late joiner the referee adds (A44: the text has none)",
        "Restored": "the referee's ruling on healing (A66), with its reason",
        "DCSet": "the referee sets the DC (A01), with its reason",
        "VisibilityRuled": "the referee's ruling on cover or concealment, with its reason",
    },
    "warfare": {"SideConceded": "a side's choice to concede, with its reason"},
    "phased": {
        "CombatantAdjusted": "the referee's adjustment, with its reason",
        "EngagementSet": "the referee's ruling on who is engaged",
        "BattleEnded": "the end the text leaves open (RULINGS, phased `auto_end`), with its reason",
    },
    "quickstart": {},
    "skirmish": {},
}


def _holds_a_rule(cls: Any) -> bool:
    """A required `rule` field, its own or of a Struct field it holds (skirmish's Check)."""
    if _requires_rule(cls):
        return True
    for hint in get_type_hints(cls).values():
        for t in (hint, *get_args(hint)):
            if isinstance(t, type) and issubclass(t, msgspec.Struct) and _requires_rule(t):
                return True
    return False


def _requires_rule(cls: Any) -> bool:
    return any(f.name == "rule" and f.required for f in msgspec.structs.fields(cls))


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_event_that_applies_a_rule_cites_one(ruleset: str) -> None:
    rs = RULESETS[ruleset]
    cited = citations(rs)
    tags = {cls.__struct_config__.tag: cls for cls in get_args(rs.event_type)}
    allowed = BOOKKEEPING[ruleset]
    assert set(allowed) <= set(tags), "the allow-list names no event the ruleset lacks"
    uncited = sorted(t for t, cls in tags.items() if t not in cited and not _holds_a_rule(cls))
    assert uncited == sorted(allowed), f"{ruleset}: events without a citation: {uncited}"
