"""What the forecast knows of each ruleset (`domain.forecast`), by ruleset id: its
policies (the default first), how a run is won, and what a side's losses count."""

from __future__ import annotations

from domain.forecast import ForecastRules
from domain.rulesets.quickstart import policy as quickstart
from domain.rulesets.skirmish import policy as skirmish
from domain.rulesets.tactical import policy as tactical

__all__ = ["FORECASTS"]

FORECASTS: dict[str, ForecastRules] = {
    "quickstart": ForecastRules(
        policies=quickstart.POLICIES,
        default_policy="advance",
        policy_docs=quickstart.POLICY_DOCS,
        winner=quickstart.winner,
        strength=quickstart.strength,
        strength_unit="squads",
        rounds=quickstart.rounds,
    ),
    "skirmish": ForecastRules(
        policies=skirmish.POLICIES,
        default_policy="advance",
        policy_docs=skirmish.POLICY_DOCS,
        winner=skirmish.winner,
        strength=skirmish.strength,
        strength_unit="soldiers",
        rounds=skirmish.rounds,
    ),
    "tactical": ForecastRules(
        policies=tactical.POLICIES,
        default_policy="advance",
        policy_docs=tactical.POLICY_DOCS,
        winner=tactical.winner,
        strength=tactical.strength,
        strength_unit="health",
        rounds=tactical.rounds,
    ),
}
