"""The forecast (`POST /battles/{id}/forecast`): a battle played on to its end many times
from one of its states, with fresh dice and a policy for every side, summed up as win odds
with 95% intervals, expected losses and expected length.

Modules: schemas (the request and the answer), worker (what a pool process runs: the
pure playouts of `domain.forecast`), pool (the process pool, created on the first
forecast, shut down with the app), odds (Wilson intervals and the summary), routes (the
route: who may ask, from which state).
"""

from __future__ import annotations

__all__: list[str] = []
