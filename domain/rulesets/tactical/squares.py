"""A test on squares usable both as a predicate and as a collection (`in`), so that the
geometry helpers (areas, movement, sight) may take either form."""

from __future__ import annotations

from collections.abc import Callable

from domain.rulesets.tactical.model import Square

__all__ = ["SquareTest"]


class SquareTest:
    """`test(sq)` and `sq in test` give the same answer."""

    __slots__ = ("_test",)

    def __init__(self, test: Callable[[Square], bool]) -> None:
        self._test = test

    def __call__(self, sq: Square) -> bool:
        return self._test(sq)

    def __contains__(self, sq: object) -> bool:
        return isinstance(sq, tuple) and self._test(sq)
