"""What the forecast knows of each ruleset (domain.rulesets.forecasts): its policy
module's policies, docs, winner and rounds, "advance" the default policy, and whether it
can hide anything. `_rules` runs at import to build FORECASTS: called here inside the
tests, so that a mutation run reaches it."""

from __future__ import annotations

from domain.forecast import ForecastRules
from domain.rulesets import forecasts
from domain.rulesets.phased import policy as phased
from domain.rulesets.quickstart import policy as quickstart
from domain.rulesets.skirmish import policy as skirmish
from domain.rulesets.tactical import policy as tactical
from domain.rulesets.warfare import policy as warfare


def test_a_rulesets_forecast_rules_are_its_policy_module_with_advance_the_default() -> None:
    rules = forecasts._rules(quickstart)
    assert rules == ForecastRules(
        policies=quickstart.POLICIES,
        default_policy="advance",
        policy_docs=quickstart.POLICY_DOCS,
        winner=quickstart.winner,
        rounds=quickstart.rounds,
        hidden_information=True,
    )
    assert rules.default_policy in rules.policies


def test_a_ruleset_that_hides_nothing_says_so() -> None:
    rules = forecasts._rules(warfare, hidden_information=False)
    assert rules == ForecastRules(
        policies=warfare.POLICIES,
        default_policy="advance",
        policy_docs=warfare.POLICY_DOCS,
        winner=warfare.winner,
        rounds=warfare.rounds,
        hidden_information=False,
    )


def test_every_ruleset_has_its_forecast_and_only_warfare_hides_nothing() -> None:
    modules = {
        "quickstart": quickstart,
        "skirmish": skirmish,
        "tactical": tactical,
        "warfare": warfare,
        "phased": phased,
    }
    assert {
        name: forecasts._rules(module, hidden_information=name != "warfare")
        for name, module in modules.items()
    } == forecasts.FORECASTS
