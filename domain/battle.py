"""Battle-level events (any ruleset) and the pure fold that turns a log into state.

A battle's log holds two kinds of events: the battle's own (`BattleCreated`,
`DiceSeedRevealed`, `BattleUndone`) and its ruleset's. `Timeline` folds both: it keeps
the (type, data) of every event and a snapshot of the state every `snapshot_every`
versions, so the state right after any version is one snapshot plus a short fold.

Undo never deletes: `BattleUndone(to_version=t)` at version u sets the game back to
its state as of version t; events t+1..u-1 stay in the log, marked undone. Battle
metadata (dice epochs and commitments) is never undone.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from domain.decider import Ruleset

__all__ = [
    "BATTLE_EVENT_TYPES",
    "Battle",
    "BattleCreated",
    "BattleEvent",
    "BattleMeta",
    "BattleUndone",
    "ClientDicePolicy",
    "DiceSeedRevealed",
    "RulingRecorded",
    "Timeline",
    "undone_versions",
]

ClientDicePolicy = Literal["none", "referee", "any"]


class BattleEventBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the battle-level events."""


class BattleCreated(BattleEventBase, frozen=True, tag="BattleCreated"):
    """The first event of every battle: the rules it is played under, pinned."""

    battle_id: str
    title: str
    ruleset: str
    ruleset_version: str
    options: dict[str, Any]
    setup: dict[str, Any]
    sides: list[str]
    client_dice: ClientDicePolicy
    dice_epoch: int
    dice_commitment: str  # sha256(seed) of the seed every server die of this epoch derives from


class DiceSeedRevealed(BattleEventBase, frozen=True, tag="DiceSeedRevealed"):
    """The seed of an epoch revealed, and (unless the battle is over) the next one committed."""

    epoch: int
    seed: str  # hex
    reason: Literal["requested", "battle-over"]
    next_epoch: int | None = None
    next_commitment: str | None = None


class BattleUndone(BattleEventBase, frozen=True, tag="BattleUndone"):
    """The referee set the battle back to its state as of `to_version`."""

    to_version: int
    reason: str


class RulingRecorded(BattleEventBase, frozen=True, tag="RulingRecorded"):
    """A referee's ruling: a call the rules leave to the GM, with its reason.

    `audience` is who may read it: "all", "referee" or "side:<id>".
    """

    ruling: str
    reason: str
    audience: str = "all"


BattleEvent = BattleCreated | DiceSeedRevealed | BattleUndone | RulingRecorded
BATTLE_EVENT_TYPES = frozenset(
    {"BattleCreated", "DiceSeedRevealed", "BattleUndone", "RulingRecorded"}
)
_battle_event_decoder = msgspec.json.Decoder(BattleEvent)


class BattleMeta(msgspec.Struct, frozen=True, kw_only=True):
    """What the service knows of a battle beyond its game state."""

    created: BattleCreated
    dice_epoch: int  # the epoch whose seed derives the next server die
    commitments: dict[int, str]
    revealed: dict[int, str]


class Battle(msgspec.Struct, frozen=True, kw_only=True):
    """The state right after `version`: metadata and the ruleset's game state."""

    version: int
    meta: BattleMeta
    game: Any


def undone_versions(items: list[tuple[int, str, bytes]]) -> set[int]:
    """The versions that are undone as of the last event (for the audit view of a log)."""
    undone: set[int] = set()
    cut: int | None = None
    for version, type_, data in reversed(items):
        if cut is not None and version > cut:
            undone.add(version)
            continue
        if type_ == "BattleUndone":
            ev = _battle_event_decoder.decode(data)
            assert isinstance(ev, BattleUndone)
            cut = ev.to_version if cut is None else min(cut, ev.to_version)
    return undone


class Timeline:
    """Folds one battle's events in order, keeping enough to give the state at any version."""

    def __init__(self, ruleset: Ruleset[Any, Any, Any, Any, Any], snapshot_every: int = 256):
        self.ruleset = ruleset
        self.snapshot_every = snapshot_every
        self._types: list[str] = []
        self._data: list[bytes] = []
        self._snapshots: list[Battle] = []  # state after versions k * snapshot_every, k >= 1
        self._undos: list[tuple[int, int]] = []  # (version of the BattleUndone, its to_version)
        self.current: Battle | None = None

    @property
    def version(self) -> int:
        return len(self._types)

    def extend(self, items: list[tuple[int, str, bytes]]) -> Battle | None:
        """Fold (version, type, data) items that follow the current version."""
        types, data, every = self._types, self._data, self.snapshot_every
        state = self.current
        step = self._step
        for version, type_, payload in items:
            if version != len(types) + 1:
                raise ValueError(f"event {version} does not follow version {len(types)}")
            state = step(state, version, type_, payload)
            if type_ == "BattleUndone":
                undo = msgspec.json.decode(payload, type=BattleUndone)
                self._undos.append((version, undo.to_version))
            types.append(type_)
            data.append(payload)
            if version % every == 0:
                self._snapshots.append(state)
        self.current = state
        return state

    @property
    def has_undo(self) -> bool:
        return bool(self._undos)

    def undone(self) -> set[int]:
        """The versions that are undone as of the last event (same rule as `undone_versions`)."""
        undone: set[int] = set()
        cut: int | None = None
        for at, to in reversed(self._undos):
            if cut is not None and at > cut:
                continue  # this undo was itself undone by a later one
            undone.update(range(to + 1, at))
            cut = to
        return undone

    def state_at(self, version: int) -> Battle:
        """The state right after `version` (1 <= version <= current version)."""
        if not 1 <= version <= len(self._types):
            raise ValueError(f"version {version} is outside 1..{len(self._types)}")
        k = version // self.snapshot_every
        if k > 0:
            state: Battle | None = self._snapshots[k - 1]
            start = k * self.snapshot_every
        else:
            state, start = None, 0
        types, data, step = self._types, self._data, self._step
        for v in range(start + 1, version + 1):
            state = step(state, v, types[v - 1], data[v - 1])
        assert state is not None
        return state

    def _step(self, state: Battle | None, version: int, type_: str, payload: bytes) -> Battle:
        ruleset = self.ruleset
        if type_ not in BATTLE_EVENT_TYPES:
            assert state is not None
            game = ruleset.evolve(state.game, ruleset.event_decoder.decode(payload))
            return Battle(version=version, meta=state.meta, game=game)
        ev = _battle_event_decoder.decode(payload)
        if isinstance(ev, BattleCreated):
            options = msgspec.convert(ev.options, ruleset.options_type)
            setup = msgspec.convert(ev.setup, ruleset.setup_type)
            meta = BattleMeta(
                created=ev,
                dice_epoch=ev.dice_epoch,
                commitments={ev.dice_epoch: ev.dice_commitment},
                revealed={},
            )
            return Battle(version=version, meta=meta, game=ruleset.initial_state(setup, options))
        assert state is not None
        if isinstance(ev, DiceSeedRevealed):
            m = state.meta
            commitments = dict(m.commitments)
            epoch = m.dice_epoch
            if ev.next_epoch is not None and ev.next_commitment is not None:
                commitments[ev.next_epoch] = ev.next_commitment
                epoch = ev.next_epoch
            meta = msgspec.structs.replace(
                m,
                dice_epoch=epoch,
                commitments=commitments,
                revealed={**m.revealed, ev.epoch: ev.seed},
            )
            return Battle(version=version, meta=meta, game=state.game)
        if isinstance(ev, RulingRecorded):
            return Battle(version=version, meta=state.meta, game=state.game)
        assert isinstance(ev, BattleUndone)
        back = self.state_at(ev.to_version) if ev.to_version >= 1 else state
        return Battle(version=version, meta=state.meta, game=back.game)
