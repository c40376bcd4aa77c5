"""The registry of rulesets, by id. Each ruleset is one module or small package here."""

from __future__ import annotations

from typing import Any

from domain.decider import Ruleset
from domain.rulesets.phased import RULESET as PHASED
from domain.rulesets.quickstart import RULESET as QUICKSTART
from domain.rulesets.skirmish import RULESET as SKIRMISH
from domain.rulesets.tactical import RULESET as TACTICAL
from domain.rulesets.warfare import RULESET as WARFARE

__all__ = ["RULESETS", "get_ruleset"]

RULESETS: dict[str, Ruleset[Any, Any, Any, Any, Any]] = {
    r.id: r for r in (QUICKSTART, SKIRMISH, TACTICAL, WARFARE, PHASED)
}


def get_ruleset(ruleset_id: str) -> Ruleset[Any, Any, Any, Any, Any] | None:
    return RULESETS.get(ruleset_id)
