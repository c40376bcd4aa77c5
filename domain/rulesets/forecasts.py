"""What the forecast knows of each ruleset (`domain.forecast`), by ruleset id: its
policies (the default first) and how a run is won. A side's losses are the drop of the
ruleset's own strength (`Ruleset.strength`, the viewer's chart)."""

from __future__ import annotations

from types import ModuleType

from domain.forecast import ForecastRules
from domain.rulesets.phased import policy as phased
from domain.rulesets.quickstart import policy as quickstart
from domain.rulesets.skirmish import policy as skirmish
from domain.rulesets.tactical import policy as tactical
from domain.rulesets.warfare import policy as warfare

__all__ = ["FORECASTS"]


def _rules(policy: ModuleType, *, hidden_information: bool = True) -> ForecastRules:
    """A ruleset's policy module (POLICIES, POLICY_DOCS, winner, rounds) as ForecastRules,
    its policy "advance" the default."""
    return ForecastRules(
        policies=policy.POLICIES,
        default_policy="advance",
        policy_docs=policy.POLICY_DOCS,
        winner=policy.winner,
        rounds=policy.rounds,
        hidden_information=hidden_information,
    )


FORECASTS: dict[str, ForecastRules] = {
    "quickstart": _rules(quickstart),
    "skirmish": _rules(skirmish),
    "tactical": _rules(tactical),
    # the quick reference hides nothing (warfare.access): any key may ask
    "warfare": _rules(warfare, hidden_information=False),
    "phased": _rules(phased),
}
