"""The forecast's process pool: playouts run off the event loop, in other processes.

Created on the first forecast (most processes never forecast), shut down with the app.
Processes are spawned, not forked: the server's process has threads (the store's, the
webhook worker's), and a fork copies their locks in whatever state they are.

A forecast whose awaiting task is cancelled (its client went away: service.desk.forecast.routes)
stops its runs at once rather than at its deadline: each forecast holds a slot, a byte in
a small file every process maps (`worker.attach`); cancelling sets the byte, the slices
under way see it before their next command, those not started yet are dropped, and the
slot is given back once the last of them has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import mmap
import multiprocessing
import os
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from domain.forecast import Playout
from service.desk.forecast.worker import MAX_COMMANDS, attach, run_slice, warm_up
from service.errors import Busy

__all__ = ["SLOTS", "ForecastPool"]

_SLICES_PER_WORKER = 4  # smaller slices even out the processes' loads
SLOTS = 256  # forecasts under way at once in one pool (and their cancelled slices' ends)


class _Flags:
    """The slots' stop flags: a file of SLOTS bytes, mapped by this process to write and by
    every pool process to read (an mmap'd file needs no resource tracker, unlike
    `multiprocessing.shared_memory` before Python 3.13)."""

    def __init__(self) -> None:
        fd, self.path = tempfile.mkstemp(prefix="battle-forecast-flags-")
        try:
            os.write(fd, bytes(SLOTS))
            self.map = mmap.mmap(fd, SLOTS)
        finally:
            os.close(fd)
        self.free = list(range(SLOTS - 1, -1, -1))

    def take(self) -> int:
        if not self.free:
            raise Busy(
                f"{SLOTS} forecasts are under way in this process; retry",
                code="forecast-pool-full",
            )
        slot = self.free.pop()
        self.map[slot] = 0
        return slot

    def stop(self, slot: int) -> None:
        with contextlib.suppress(ValueError):  # closed: the pool is gone, and its processes
            self.map[slot] = 1

    def close(self) -> None:
        self.map.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)


class ForecastPool:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._flags: _Flags | None = None
        self._warm = False

    def _started(self) -> tuple[ProcessPoolExecutor, _Flags]:
        if self._executor is None or self._flags is None:
            self._flags = _Flags()
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=attach,
                initargs=(self._flags.path,),
            )
        return self._executor, self._flags

    async def start(self) -> None:
        """Start the processes now (each imports the rules once) and wait for them."""
        if self._warm:
            return
        executor, _ = self._started()
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
        """The runs finished by `deadline`, in the order of their index. Cancelled (the
        client went away), the runs stop at once; see the module."""
        executor, flags = self._started()
        size = max(1, math.ceil(runs / (self.workers * _SLICES_PER_WORKER)))
        job = (ruleset_id, policy, state, seed)
        slot = flags.take()
        with self._broken():  # submitting to a broken pool raises at once
            slices = [
                executor.submit(
                    run_slice, *job, first, min(size, runs - first), deadline, max_commands, slot
                )
                for first in range(0, runs, size)
            ]
        try:
            with self._broken():
                parts = await asyncio.gather(*(asyncio.wrap_future(f) for f in slices))
        except asyncio.CancelledError:
            flags.stop(slot)
            self._give_back_when_done(flags, slot, slices)
            raise
        except BaseException:
            self._give_back_when_done(flags, slot, slices)
            raise
        flags.free.append(slot)
        done = [item for part in parts for item in part]
        done.sort(key=lambda item: item[0])
        return [p for _, p in done]

    @staticmethod
    def _give_back_when_done(flags: _Flags, slot: int, slices: list[Future[Any]]) -> None:
        """Free `slot` once no slice of its forecast can still read the flag."""
        for f in slices:
            f.cancel()  # those not started yet never start
        left = [f for f in slices if not f.done()]
        if not left:
            flags.free.append(slot)
            return
        loop = asyncio.get_running_loop()
        count = [len(left)]

        def ended(_: Future[Any]) -> None:
            count[0] -= 1
            if count[0] == 0:
                flags.free.append(slot)

        def ended_soon(f: Future[Any]) -> None:  # called on the executor's thread
            with contextlib.suppress(RuntimeError):  # the loop closed: nothing to give back
                loop.call_soon_threadsafe(ended, f)

        for f in left:
            f.add_done_callback(ended_soon)

    def shutdown(self) -> None:
        if self._flags is not None:
            for slot in range(SLOTS):  # the slices under way stop now, not at their deadline
                self._flags.stop(slot)
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor, self._warm = None, False
        if self._flags is not None:
            self._flags.close()
            self._flags = None
