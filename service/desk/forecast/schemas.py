"""The forecast's request and answer bodies (apart from every event Struct)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

__all__ = [
    "MAX_RUNS",
    "MAX_SEED",
    "ForecastAnswer",
    "ForecastRequest",
    "OutcomeOdds",
    "SideForecast",
]

MAX_RUNS = 10_000
MAX_SEED = 2**53 - 1  # JSON-safe: a client in any language sends it back unchanged
MAX_BUDGET = 60.0  # seconds; the server caps it lower (BATTLE_FORECAST_MAX_SECONDS)
MIN_BUDGET = 0.01  # seconds: less plays nothing


class ForecastRequest(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """How many runs, from which version, with which policy and randomness."""

    runs: Annotated[int, msgspec.Meta(ge=1, le=MAX_RUNS)]
    # The runs' randomness: the same seed (and everything else the same) gives the same
    # answer. Left out: a fresh one, drawn by the server and given in the answer.
    seed: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEED)] | None = None
    # One of the ruleset's policies (GET /rulesets/{id}: forecast_policies); default: its first
    policy: Annotated[str, msgspec.Meta(min_length=1, max_length=64)] | None = None
    # The state right after this version (default: the current one).
    version: Annotated[int, msgspec.Meta(ge=1, le=2**53)] | None = None
    # Seconds the runs may take; runs not finished by then are left out of the answer
    # (cut_by_budget). Capped by the server (BATTLE_FORECAST_MAX_SECONDS).
    budget_seconds: Annotated[float, msgspec.Meta(ge=MIN_BUDGET, le=MAX_BUDGET)] | None = None


class OutcomeOdds(msgspec.Struct, kw_only=True):
    """How many of the finished runs ended so, that share, and its 95% Wilson interval."""

    runs: int
    odds: float
    interval: tuple[float, float]


class SideForecast(msgspec.Struct, kw_only=True):
    side: str
    win: OutcomeOdds
    strength: float  # at the version forecast from, in `strength_unit`
    expected_losses: float  # mean over the finished runs of the drop in strength


class ForecastAnswer(msgspec.Struct, kw_only=True):
    battle_id: str
    version: int  # the version forecast from
    ruleset: str
    policy: str
    seed: int  # the runs' seed (given, or drawn): send it again for the same answer
    runs_requested: int
    runs_finished: int
    cut_by_budget: bool  # the time budget ended before every run had finished
    budget_seconds: float  # the budget applied (asked for, or the default, then capped)
    max_commands: int  # commands per run at most: a run longer than that is undecided
    sides: list[SideForecast]
    draw: OutcomeOdds  # the battle ended with no winner
    undecided: OutcomeOdds  # no legal command left to the policy, or max_commands reached
    # what a side's strength counts: the ruleset's measure, as the viewer's chart shows it
    strength_unit: str
    expected_commands: float  # mean commands per finished run
    expected_rounds: float  # mean rounds played per finished run
    interval_method: Literal["wilson-95"] = "wilson-95"
