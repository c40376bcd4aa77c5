"""The forecast's process pool with real processes: the runs come back in order whatever
the split, a deadline passed plays nothing, a cancelled forecast stops its runs and gives
its slot back, and a process that dies costs one forecast (503, retry), not every later
one."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from multiprocessing.connection import wait
from multiprocessing.process import BaseProcess
from pathlib import Path

import pytest
from litestar.testing import TestClient

from bench.forecast import mid_battle
from service.app.factory import create_app
from service.desk.forecast.pool import SLOTS, ForecastPool
from service.desk.forecast.worker import run_slice
from service.errors import Busy
from service.settings import Settings
from tests.support.quickstart_play import SETUP


def _ended(process: BaseProcess, timeout: float) -> bool:
    """Whether `process` exits within `timeout`. Its sentinel, not `join`/`is_alive`: the
    executor's manager thread joins the same processes, and of two threads reaping one
    pid the loser sees ECHILD, which `is_alive` reads as alive."""
    return bool(wait([process.sentinel], timeout))


def test_the_pool_answers_what_one_process_would_and_recovers_from_a_death() -> None:
    state = mid_battle(commands=20)
    far = time.monotonic() + 600
    alone = [p for _, p in run_slice("quickstart", "advance", state, 11, 0, 30, far)]

    async def scenario() -> None:
        pool = ForecastPool(2)
        try:
            await pool.start()
            runs = await pool.run("quickstart", "advance", state, 11, 30, far)
            assert runs == alone  # split over two processes, in the order of their index
            assert await pool.run("quickstart", "advance", state, 11, 30, 0.0) == []
            executor = pool._executor
            assert executor is not None
            victim = next(iter(executor._processes))  # type: ignore[attr-defined]
            os.kill(victim, signal.SIGKILL)
            await asyncio.sleep(0.5)
            with pytest.raises(Busy):
                await pool.run("quickstart", "advance", state, 11, 30, far)
            await pool.start()  # a new pool
            assert await pool.run("quickstart", "advance", state, 11, 30, far) == alone
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_cancelled_forecast_stops_its_runs_and_gives_its_slot_back() -> None:
    state = mid_battle(commands=20)

    async def scenario() -> None:
        pool = ForecastPool(1)
        try:
            await pool.start()
            far = time.monotonic() + 600
            task = asyncio.ensure_future(pool.run("quickstart", "advance", state, 1, 10_000, far))
            await asyncio.sleep(0.5)  # its first slice is running on the one process
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            # The running slice sees its flag: the next forecast's runs start at once.
            soon = time.monotonic() + 3
            assert len(await pool.run("quickstart", "advance", state, 2, 20, soon)) == 20
            flags = pool._flags
            assert flags is not None
            for _ in range(100):  # the slot comes back once the stopped slice has ended
                if len(flags.free) == SLOTS:
                    break
                await asyncio.sleep(0.05)
            assert sorted(flags.free) == list(range(SLOTS))
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_shutting_the_pool_down_stops_the_runs_under_way() -> None:
    state = mid_battle(commands=20)

    async def scenario() -> None:
        pool = ForecastPool(1)
        await pool.start()
        executor = pool._executor
        assert executor is not None
        # a quarter of a million runs per slice: minutes, were they not stopped
        far = time.monotonic() + 600
        task = asyncio.ensure_future(pool.run("quickstart", "advance", state, 1, 10**6, far))
        await asyncio.sleep(0.5)
        processes = list(executor._processes.values())  # type: ignore[attr-defined]
        pool.shutdown()
        try:
            for p in processes:
                assert await asyncio.to_thread(_ended, p, 20)
        finally:
            for p in processes:  # failed: do not leave it playing for minutes
                p.kill()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    asyncio.run(scenario())


def test_the_app_starts_its_pool_on_the_first_forecast_and_stops_it_with_itself(
    tmp_path: Path,
) -> None:
    app = create_app(Settings(database=str(tmp_path / "b.db"), forecast_workers=1))
    with TestClient(app) as client:
        pool: ForecastPool = app.state.forecast_pool
        assert pool._executor is None  # no forecast yet: no process
        created = client.post("/battles", json={"ruleset": "quickstart", "setup": SETUP})
        assert created.status_code == 201, created.text
        body = created.json()
        r = client.post(
            f"/battles/{body['battle_id']}/forecast",
            json={"runs": 3, "seed": 1},
            headers={"Authorization": f"Bearer {body['keys']['referee']}"},
        )
        assert r.status_code == 200, r.text
        assert pool._executor is not None
        processes = list(pool._executor._processes.values())  # type: ignore[attr-defined]
        assert processes and all(p.is_alive() for p in processes)
    assert pool._executor is None  # shut down with the app
    assert all(_ended(p, 10) for p in processes)
