"""The forecast's process pool: playouts run off the event loop, in other processes.

Created on the first forecast (most processes never forecast), shut down with the app.
Processes are spawned, not forked: the server's process has threads (the store's, the
webhook worker's), and a fork copies their locks in whatever state they are.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from domain.forecast import Playout
from service.errors import Busy
from service.forecast.worker import MAX_COMMANDS, run_slice, warm_up

__all__ = ["ForecastPool"]

_SLICES_PER_WORKER = 4  # smaller slices even out the processes' loads


class ForecastPool:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._warm = False

    def _started(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    async def start(self) -> None:
        """Start the processes now (each imports the rules once) and wait for them."""
        if self._warm:
            return
        executor = self._started()
        loop = asyncio.get_running_loop()
        with self._broken():
            await asyncio.gather(
                *(loop.run_in_executor(executor, warm_up) for _ in range(self.workers))
            )
        self._warm = True

    @contextlib.contextmanager
    def _broken(self) -> Iterator[None]:
        # A process that died (killed, out of memory) breaks the whole pool: drop it, so
        # that the next forecast starts a new one, and answer this one 503 (retry).
        try:
            yield
        except BrokenProcessPool:
            self.shutdown()
            raise Busy(
                "the forecast processes stopped; retry", code="forecast-pool-restarted"
            ) from None

    async def run(
        self,
        ruleset_id: str,
        policy: str,
        state: Any,
        seed: int,
        runs: int,
        deadline: float,
        max_commands: int = MAX_COMMANDS,
    ) -> list[Playout]:
        """The runs finished by `deadline`, in the order of their index."""
        executor = self._started()
        loop = asyncio.get_running_loop()
        size = max(1, math.ceil(runs / (self.workers * _SLICES_PER_WORKER)))
        job = (ruleset_id, policy, state, seed)
        with self._broken():  # submitting to a broken pool raises at once
            slices = [
                loop.run_in_executor(
                    executor,
                    run_slice,
                    *job,
                    first,
                    min(size, runs - first),
                    deadline,
                    max_commands,
                )
                for first in range(0, runs, size)
            ]
            parts = await asyncio.gather(*slices)
        done = [item for part in parts for item in part]
        done.sort(key=lambda item: item[0])
        return [p for _, p in done]

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor, self._warm = None, False
