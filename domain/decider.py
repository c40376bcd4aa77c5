"""The contract every ruleset fulfils: a decider plus the metadata the service needs.

A ruleset is a decider (thinkbeforecoding's deciders):

- `initial_state(setup, options) -> State`      (raises InvalidSetup)
- `decide(state, command, dice) -> list[Event]`  (raises RuleViolation / UnknownEntity)
- `evolve(state, event) -> State`                (pure, total, never rolls, never fails)
- `is_over(state) -> bool`

and, because battles have several parties:

- `authorize(state, command, actor)`   raises NotPermitted when the actor may not give it;
  no answer may depend on what the actor cannot see, so a ruleset with hidden information
  judges the command here on the actor's view (any refusal decide would give there), and
  its decide, which does not know the actor, never refuses what that view accepted
- `audience(event) -> str`             who may see the event: "all", "referee", "side:<id>"
- `view(state, actor) -> object`       the state as that actor may see it (JSON-encodable);
  `view_type` describes it (a msgspec Struct every actor's view decodes to, strictly)
- `side_ids(setup) -> list[str]`       the sides of a setup (each gets an access key)

and, for the replay viewer's chart:

- `strength(view) -> {side: number}`  each side's strength in a view (what `view` gave one
  reader: so it tells nothing that reader may not see): squads, army size, hit points

and, for a table that plays from data (domain.prompts):

- `awaiting(state, actor) -> list[Prompt]`  what the battle waits for now, in the actor's
  view (no prompt the actor may not know about), empty when the battle is over
- `reach(state, actor, unit) -> Reach`       grid rulesets: the squares a unit can reach
  with its next move, by the code that decides moves (raises UnknownEntity for a unit the
  actor cannot see); None for a ruleset without a grid

and, optionally, `decide_folded(state, command, dice) -> (events, state after them)`:
the same events as `decide`, with the fold of `evolve` over them that a decider which
folds as it emits has already made (the service needs that state to ask `is_over`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from domain.actors import Actor
from domain.dice import Dice
from domain.prompts import Prompt, Reach

__all__ = ["Ruleset"]

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
O = TypeVar("O", bound=msgspec.Struct)  # noqa: E741
U = TypeVar("U", bound=msgspec.Struct)


def _setup_sides(setup: Any) -> list[str]:
    """Default `side_ids`: a setup's `sides`, given as ids or as Structs with an `id`."""
    return [s if isinstance(s, str) else str(s.id) for s in getattr(setup, "sides", ())]


@dataclass(frozen=True, eq=False)
class Ruleset(Generic[S, C, E, O, U]):
    """One rule system. Options and version are pinned in a battle's first event."""

    id: str
    version: str
    title: str
    seed: str  # the seed text's file name under shared/seeds
    options_type: type[O]
    setup_type: type[U]
    command_type: Any  # the tagged Union of command Structs
    event_type: Any  # the tagged Union of event Structs
    initial_state: Callable[[U, O], S]
    decide: Callable[[S, C, Dice], list[E]]
    evolve: Callable[[S, E], S]
    is_over: Callable[[S], bool]
    authorize: Callable[[S, C, Actor], None]
    audience: Callable[[E], str]
    view: Callable[[S, Actor], Any]
    # The type of what `view` returns (a msgspec Struct with a `ruleset` field): the
    # OpenAPI document's state schema of this ruleset; None: undescribed (`{}`).
    view_type: Any = None
    # command tag -> one line saying what it does and who may give it
    command_docs: Mapping[str, str] = field(default_factory=dict)
    # The side ids a setup declares (each side gets its own access key).
    side_ids: Callable[[U], list[str]] = field(default=lambda setup: _setup_sides(setup))
    # Each side's strength in a reader's view (the viewer's chart): a pure function of it.
    strength: Callable[[Any], dict[str, float]] = field(default=lambda view: {})
    strength_measure: str = "strength"  # what it counts, for the chart's axis
    # What the battle waits for now, in an actor's view (domain.prompts).
    awaiting: Callable[[S, Actor], list[Prompt]] = field(default=lambda state, actor: [])
    # Grid rulesets: the squares a unit can reach with its next move; None without a grid.
    reach: Callable[[S, Actor, str], Reach] | None = None
    # The units or characters a command orders (empty: it orders none, e.g. an end of
    # phase): what a player key limited to some units may give (domain.ordering). None:
    # the ruleset cannot tell, and such a key may give none of its commands.
    ordered_units: Callable[[S, C], tuple[str, ...]] | None = None
    # `decide` and the state after its events, for deciders that fold as they emit.
    decide_folded: Callable[[S, C, Dice], tuple[list[E], S]] | None = None
    # Decoders built once per ruleset, not per call.
    command_decoder: msgspec.json.Decoder[Any] = field(init=False)
    event_decoder: msgspec.json.Decoder[Any] = field(init=False)
    event_convert: Callable[[Any], Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "command_decoder", msgspec.json.Decoder(self.command_type))
        object.__setattr__(self, "event_decoder", msgspec.json.Decoder(self.event_type))
        event_type = self.event_type

        def convert(obj: Any) -> Any:
            return msgspec.convert(obj, event_type)

        object.__setattr__(self, "event_convert", convert)
