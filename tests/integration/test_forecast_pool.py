"""The forecast's process pool with real processes: the runs come back in order whatever
the split, a deadline passed plays nothing, and a process that dies costs one forecast
(503, retry), not every later one."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from bench.forecast import mid_battle
from service.errors import Busy
from service.forecast.pool import ForecastPool
from service.forecast.worker import run_slice


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
