"""`POST /battles/{id}/forecast`: the odds if the battle goes on from here (or from a
given version), played out `runs` times in the forecast pool (service.desk.forecast.pool).

Who may ask (RULINGS.md, "Forecasts"): a forecast plays on from the whole state, hidden
squads, secret tactics and declarations and hidden characters included; so in a ruleset
that can hide anything the referee's key (and an integration's, which acts as the referee)
may ask from any version, and any other key only from a version up to the battle's end
when the battle has ended and handed every reader its hidden events (then nothing in that
state is hidden from anyone). In a ruleset that hides nothing (warfare) any key of the
battle may ask. The refusal depends on the ruleset, the key, the version asked and the
public end of the battle only, never on whether anything is hidden right now. Nothing is appended:
a forecast reads the state and plays on copies of it, with dice of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from typing import Any

from litestar import post
from litestar.params import JSONBody
from litestar.types import Receive

from domain.actors import Actor
from domain.forecast import strength as forecast_strength
from domain.rulesets.forecasts import FORECASTS
from service.battles.sealing import unsealed_upto
from service.battles.service import BattleService
from service.desk.forecast.odds import outcome, sides
from service.desk.forecast.pool import ForecastPool
from service.desk.forecast.schemas import MAX_SEED, ForecastAnswer, ForecastRequest
from service.desk.forecast.worker import MAX_COMMANDS
from service.errors import Busy, ClientGone, Forbidden, Unprocessable
from service.http.routes import SECURED, AppRequest, Authorization, BattleId, problems, service_of

__all__ = ["DEFAULT_BUDGET", "FORECAST_ROUTES", "forecast"]

DEFAULT_BUDGET = 5.0  # seconds, when the request names none (then capped by the server)


async def forecast(
    service: BattleService,
    pool: ForecastPool,
    max_seconds: float,
    battle_id: str,
    actor: Actor,
    req: ForecastRequest,
) -> ForecastAnswer:
    loaded = await service.loaded(battle_id)
    ruleset = loaded.ruleset
    rules = FORECASTS.get(ruleset.id)
    if rules is None:
        raise Unprocessable(f"ruleset {ruleset.id} has no forecast", code="no-forecast")
    current = loaded.battle
    version = current.version if req.version is None else req.version
    if not 1 <= version <= current.version:
        raise Unprocessable(
            f"version {version} is outside 1..{current.version}",
            code="version-out-of-range",
            current_version=current.version,
        )
    if rules.hidden_information and not actor.is_referee and version > unsealed_upto(current.meta):
        raise Forbidden(
            "a forecast plays on from the whole state, hidden information included: only "
            "the referee's key may ask for one, or any key once the battle has ended and "
            "opened its hidden events to every reader (then from a version up to its end)",
            code="forecast-referee-only",
        )
    policy = req.policy or rules.default_policy
    if policy not in rules.policies:
        raise Unprocessable(
            f"{ruleset.id} has no forecast policy {policy!r}; known: {sorted(rules.policies)}",
            code="unknown-policy",
        )
    battle = (
        current
        if version == current.version
        else await service.state_at(battle_id, version, loaded)
    )
    seed = req.seed if req.seed is not None else secrets.randbelow(MAX_SEED + 1)
    budget = min(req.budget_seconds or DEFAULT_BUDGET, max_seconds)
    await pool.start()  # the first forecast of a process starts the pool: not in its budget
    runs = await pool.run(
        ruleset.id, policy, battle.game, seed, req.runs, time.monotonic() + budget
    )
    n = len(runs)
    strength = forecast_strength(ruleset, battle.game)
    draws = sum(1 for r in runs if r.result == "decided" and r.winner is None)
    return ForecastAnswer(
        battle_id=battle_id,
        version=version,
        ruleset=ruleset.id,
        policy=policy,
        seed=seed,
        runs_requested=req.runs,
        runs_finished=n,
        cut_by_budget=n < req.runs,
        budget_seconds=budget,
        max_commands=MAX_COMMANDS,
        sides=sides(current.meta.created.sides, strength, runs),
        draw=outcome(draws, n),
        undecided=outcome(sum(1 for r in runs if r.result == "undecided"), n),
        strength_unit=ruleset.strength_measure,
        expected_commands=sum(r.commands for r in runs) / n if n else 0.0,
        expected_rounds=sum(r.rounds for r in runs) / n if n else 0.0,
    )


@post(
    "/battles/{battle_id:str}/forecast",
    operation_id="forecastBattle",
    tags=["battles"],
    summary="Win odds, expected losses and length if the battle goes on from a version",
    description=(
        "Plays the battle on from the state right after `version` (default: the current "
        "one) to its end, `runs` times, with dice of its own (never the battle's) and a "
        "policy choosing every side's commands (GET /rulesets/{ruleset}: "
        "forecast_policies), and sums the runs up: each side's win odds with a 95% Wilson "
        "interval, its expected losses, and the expected number of commands and rounds. "
        "Runs stop at the time budget (`budget_seconds`, capped by the server): the answer "
        "says how many finished. Nothing is appended to the battle. The same `seed` gives "
        "the same answer when every run finishes. In a ruleset that can hide anything, the "
        "referee's key may ask from any version, another key only once the battle has "
        "ended and opened its hidden events to every reader, from a version up to its end "
        "(403 otherwise); in one that hides nothing (warfare), any key of the battle."
    ),
    status_code=200,
    responses=problems(400, 401, 403, 404, 413, 415, 422, 503),
    security=SECURED,
)
async def forecast_battle(
    request: AppRequest,
    battle_id: BattleId,
    data: JSONBody[ForecastRequest],
    authorization: Authorization,
) -> ForecastAnswer:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    state: Any = request.app.state
    work = asyncio.ensure_future(
        forecast(
            service,
            state["forecast_pool"],
            state["forecast_max_seconds"],
            battle_id,
            principal.actor,
            data,
        )
    )
    # A client that goes away stops its runs at once: otherwise they would keep the pool's
    # processes busy to the end of their budget for an answer no one reads.
    gone = asyncio.ensure_future(_client_gone(request.receive))
    stopping = False
    try:
        await asyncio.wait((work, gone), return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        # The server cancels what still runs at its shutdown deadline (uvicorn's
        # `timeout_graceful_shutdown`), which would answer a plain-text 500: stop the runs
        # (below) and answer a 503 to retry elsewhere. The cancel is taken, not passed on.
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        stopping = True
    finally:
        gone.cancel()
        if not work.done():
            work.cancel()  # the pool raises the forecast's stop flag (service.desk.forecast.pool)
            with contextlib.suppress(asyncio.CancelledError):
                await work
    client_gone = gone.done() and not gone.cancelled()
    if work.cancelled() and client_gone and not stopping:
        raise ClientGone(f"the client closed the connection: forecast of {battle_id} stopped")
    if stopping or work.cancelled():  # or the pool was shut down under it (the app stopping)
        raise Busy(
            f"the server is stopping: the forecast of {battle_id} was stopped before its "
            "runs finished; retry (another worker, or this one once restarted)",
            code="shutting-down",
        )
    return work.result()


async def _client_gone(receive: Receive) -> None:
    """Returns when the client has closed the connection (the body is read already)."""
    while (await receive())["type"] != "http.disconnect":
        pass


FORECAST_ROUTES: list[Any] = [forecast_battle]
