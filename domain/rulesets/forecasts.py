"""What the forecast knows of each ruleset (`domain.forecast`), by ruleset id: its
policies (the default first) and how a run is won. A side's losses are the drop of the
ruleset's own strength (`Ruleset.strength`, the viewer's chart)."""

from __future__ import annotations

from domain.forecast import ForecastRules
from domain.rulesets.phased import policy as phased
from domain.rulesets.quickstart import policy as quickstart
from domain.rulesets.skirmish import policy as skirmish
from domain.rulesets.tactical import policy as tactical
from domain.rulesets.warfare import policy as warfare

__all__ = ["FORECASTS"]

FORECASTS: dict[str, ForecastRules] = {
    "quickstart": ForecastRules(
        policies=quickstart.POLICIES,
        default_policy="advance",
        policy_docs=quickstart.POLICY_DOCS,
        winner=quickstart.winner,
        rounds=quickstart.rounds,
    ),
    "skirmish": ForecastRules(
        policies=skirmish.POLICIES,
        default_policy="advance",
        policy_docs=skirmish.POLICY_DOCS,
        winner=skirmish.winner,
        rounds=skirmish.rounds,
    ),
    "tactical": ForecastRules(
        policies=tactical.POLICIES,
        default_policy="advance",
        policy_docs=tactical.POLICY_DOCS,
        winner=tactical.winner,
        rounds=tactical.rounds,
    ),
    "warfare": ForecastRules(
        policies=warfare.POLICIES,
        default_policy="advance",
        policy_docs=warfare.POLICY_DOCS,
        winner=warfare.winner,
        rounds=warfare.rounds,
        hidden_information=False,  # the quick reference hides nothing (warfare.access)
    ),
    "phased": ForecastRules(
        policies=phased.POLICIES,
        default_policy="advance",
        policy_docs=phased.POLICY_DOCS,
        winner=phased.winner,
        rounds=phased.rounds,
    ),
}
