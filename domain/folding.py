"""The events of one command, folded as a decider emits them: the `Run` every ruleset's
decide builds, so that later steps of a command see the state its earlier events made."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

__all__ = ["FoldingRun"]

S = TypeVar("S")
E = TypeVar("E")


class FoldingRun(Generic[S, E]):
    """`emit` records an event and folds it at once with its ruleset's handler (the
    handler by event type: `evolve` without its dispatch, one call fewer per event)."""

    __slots__ = ("_handlers", "events", "state")

    def __init__(self, state: S, handlers: Mapping[type[Any], Callable[[S, Any], S]]) -> None:
        self.state = state
        self.events: list[E] = []
        self._handlers = handlers

    def emit(self, event: E) -> None:
        self.events.append(event)
        self.state = self._handlers[type(event)](self.state, event)
