"""Battle-level events (any ruleset) and the pure fold that turns a log into state.

A battle's log holds two kinds of events: the battle's own (`BattleCreated`,
`DiceSeedRevealed`, `DiceSubSeedRevealed`, `DiceEpochStarted`, `BattleUndone`, `RulingRecorded`,
`ClientSeedSet`, `DisputeRaised`, `DisputeResolved`) and its ruleset's. `Timeline` folds
both: it keeps the decoded events after its start (version 0 or a stored snapshot's)
and a mark of the state every `snapshot_every` versions, so the state right after any
version it holds is one mark plus a short fold.

Undo never deletes: `BattleUndone(to_version=t)` at version u sets the game back to
its state as of version t; events t+1..u-1 stay in the log, marked undone. Battle
metadata (dice epochs and commitments, the sides' client seeds) is never undone.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Literal, Union, get_args

import msgspec

from domain.decider import Ruleset

__all__ = [
    "BATTLE_EVENT_TYPES",
    "MAX_GENERATIONS",
    "NEVER_UNDONE",
    "Ancestor",
    "Battle",
    "BattleCreated",
    "BattleEvent",
    "BattleMeta",
    "BattleUndone",
    "ClientDicePolicy",
    "ClientSeedSet",
    "DiceEpochStarted",
    "DiceIdSpan",
    "DiceSeedRevealed",
    "DiceSubSeedRevealed",
    "Dispute",
    "DisputeRaised",
    "DisputeResolved",
    "HistoryNeeded",
    "ImportedFrom",
    "RulingRecorded",
    "Timeline",
]

ClientDicePolicy = Literal["none", "referee", "any"]


class BattleEventBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the battle-level events."""


MAX_GENERATIONS = 100  # a fork of a fork ... at most this deep: its ancestry is recorded whole


class Ancestor(msgspec.Struct, frozen=True, kw_only=True):
    """One generation of a fork's ancestry: a battle, the version of it the next generation
    was forked at, and the hash of its event at that version."""

    battle_id: str
    version: int
    head_hash: str


class DiceIdSpan(msgspec.Struct, frozen=True, kw_only=True):
    """The battle id the server dice of the versions up to `upto` were derived with."""

    upto: int
    battle_id: str


class ImportedFrom(msgspec.Struct, frozen=True, kw_only=True):
    """Where an imported battle came from: the exported battle, its head at export and
    the receipt the export carried (the exporting service's signature of that head,
    `events.receipts`: checkable against that service's key), and the ids its dice were
    derived with. The imported log holds the original's events 2..`version` as they were
    (data, actor, time, command), chained anew under the new id."""

    battle_id: str
    version: int
    head_hash: str
    exported_at: str
    receipt_key_id: str
    receipt_signature: str
    # Server dice derive from the id of the battle that rolled them (domain.dice): those
    # of versions up to each span's `upto`, from its `battle_id` (a battle imported from
    # an import holds both). Later dice derive from this battle's own id.
    dice_ids: tuple[DiceIdSpan, ...] = ()
    # The key ids that signed the histories this one came through before the export it
    # was imported from (an import of an import: the earlier receipts' keys, the oldest
    # first); empty for an import of a battle that was not itself imported, and for an
    # import made before they were recorded. A battle's origin is verified by a service
    # only if it holds every one of them and `receipt_key_id` (service.battles.provenance).
    signers: tuple[str, ...] = ()

    def dice_battle_id(self, version: int, own: str) -> str:
        for span in self.dice_ids:
            if version <= span.upto:
                return span.battle_id
        return own


class BattleCreated(BattleEventBase, frozen=True, omit_defaults=True, tag="BattleCreated"):
    """The first event of every battle: the rules it is played under, pinned.

    A fork names its parent battle and the parent's version it branched at: its game
    starts as the parent's state right after that version, not from the setup. It also
    records the hash of the parent's event at that version (`forked_head_hash`), so the
    fork's start is bound to the parent's log as it stood.

    `reveal_hidden_on_end`: when the battle ends (the `DiceSeedRevealed` of reason
    "battle-over"), the events some reader could not see are handed to every reader
    whole. Its default here is False, so a battle created before the option existed
    keeps its hidden events hidden; the service writes True for a new battle unless it
    is asked not to.
    """

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
    # audience -> sha256(its sub-seed): the dice of events only that audience may read
    # (domain.dice, "Hidden dice"). Empty for a battle created before sub-seeds existed.
    dice_sub_commitments: dict[str, str] = {}
    forked_from: str | None = None
    forked_at: int | None = None
    forked_head_hash: str | None = None
    reveal_hidden_on_end: bool = False
    # A fork: every generation, its parent first, then the parent's parent... (a fork made
    # before ancestry was recorded has none: `lineage` falls back to its direct parent).
    ancestry: tuple[Ancestor, ...] = ()
    # An imported battle (`battle-service import`, POST /battles/import): where from.
    imported_from: ImportedFrom | None = None
    # The hash chain's format its events are written in (events.chain): 1 for a battle
    # created before format 2 (the default, so a stored battle reads as it was written),
    # 2 since. Nothing in the game depends on it.
    chain_format: int = 1
    # While a dispute is open only the referee's commands are accepted (domain.disputes).
    # Omitted when False, so the first event of a battle created before it hashes as it did.
    pause_on_dispute: bool = False

    def dice_battle_id(self, version: int) -> str:
        """The battle id the server dice of roll counter `version` were derived with."""
        if self.imported_from is None:
            return self.battle_id
        return self.imported_from.dice_battle_id(version, self.battle_id)

    def lineage(self) -> tuple[Ancestor, ...]:
        """The ancestry as recorded, or the direct parent of an older fork."""
        if self.ancestry:
            return self.ancestry
        if self.forked_from and self.forked_at and self.forked_head_hash:
            return (Ancestor(battle_id=self.forked_from, version=self.forked_at,
                             head_hash=self.forked_head_hash),)  # fmt: skip
        return ()


class DiceSeedRevealed(BattleEventBase, frozen=True, tag="DiceSeedRevealed"):
    """The seed of an epoch revealed, and (unless the battle is over) the next one committed."""

    epoch: int
    seed: str  # hex
    reason: Literal["requested", "battle-over"]
    next_epoch: int | None = None
    next_commitment: str | None = None
    next_sub_commitments: dict[str, str] = {}  # audience -> sha256(its next sub-seed)


class DiceSubSeedRevealed(BattleEventBase, frozen=True, tag="DiceSubSeedRevealed"):
    """The sub-seed of one audience for an epoch, revealed with the epoch's seed, in an
    event only that audience may read (and everyone once its events are unsealed): the
    dice of that audience's events can then be checked by whoever may read them, and by
    nobody else (domain.dice, "Hidden dice")."""

    epoch: int
    audience: str  # "referee" or "side:<id>"
    seed: str  # hex


class DiceEpochStarted(BattleEventBase, frozen=True, tag="DiceEpochStarted"):
    """A new seed committed without revealing the current one. An imported battle's last
    seed stayed with the service that exported it: the import commits its own, and every
    server die from here on derives from it. The dice of the epochs never revealed stay
    pending."""

    epoch: int
    commitment: str  # sha256(seed)
    reason: Literal["imported"] = "imported"
    sub_commitments: dict[str, str] = {}  # audience -> sha256(its sub-seed)


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


class ClientSeedSet(BattleEventBase, frozen=True, tag="ClientSeedSet"):
    """A side set its client seed: it enters every server die rolled after this event
    (`domain.dice.client_seed_for`), so the server, which committed to its own seed
    before, could not have chosen that seed knowing this one."""

    side: str
    seed: str


class DisputeRaised(BattleEventBase, frozen=True, omit_defaults=True, tag="DisputeRaised"):
    """A side or the referee contests a ruling: the versions it disputes, its claim in
    words and the rule it invokes. `dispute_id` is "d<n>", n counted in the log.

    `audience` is who may read it: "all", or the raiser's own audience ("side:<id>" or
    "referee") while some disputed event is hidden from a reader (domain.disputes)."""

    dispute_id: str
    versions: list[int]
    claim: str
    raised_by: str  # "referee" or "side:<id>"
    rule: str | None = None
    audience: str = "all"


class DisputeResolved(BattleEventBase, frozen=True, omit_defaults=True, tag="DisputeResolved"):
    """The referee's ruling on a dispute, appended after its correction in the same
    append: `correcting_versions` are the versions of the correction's events (an undo
    to `undo_to`, then the events of the commands that replace what it undid).
    `linked`: those events name the dispute (chain format 2, since issue 36's follow-up;
    absent on older rulings and in a battle of format 1, whose hash cannot cover a name),
    so a verifier may require it of each of them (docs/VERIFYING.md)."""

    dispute_id: str
    outcome: Literal["upheld", "dismissed"]
    ruling: str
    rule: str
    undo_to: int | None = None
    correcting_versions: list[int] = []
    linked: bool = False
    audience: str = "all"


class Dispute(msgspec.Struct, frozen=True, kw_only=True):
    """A dispute as the fold knows it (`BattleMeta.disputes`)."""

    versions: tuple[int, ...]
    raised_by: str
    audience: str
    raised_at: int  # the version of its DisputeRaised
    status: Literal["open", "upheld", "dismissed"] = "open"
    resolved_at: int | None = None  # the version of its DisputeResolved


BattleEvent = (
    BattleCreated
    | DiceSeedRevealed
    | DiceSubSeedRevealed
    | DiceEpochStarted
    | BattleUndone
    | RulingRecorded
    | ClientSeedSet
    | DisputeRaised
    | DisputeResolved
)
BATTLE_EVENT_TYPES = frozenset(
    {
        "BattleCreated",
        "DiceSeedRevealed",
        "DiceSubSeedRevealed",
        "DiceEpochStarted",
        "BattleUndone",
        "RulingRecorded",
        "ClientSeedSet",
        "DisputeRaised",
        "DisputeResolved",
    }
)
# The classes, for the fold: `type(ev) in` a set is a few times cheaper than `isinstance`
# against a Struct base (StructMeta's instance check is not the C fast path).
_BATTLE_TYPES: frozenset[type] = frozenset(get_args(BattleEvent))
# The battle-level events an undo never takes back: the fold keeps the metadata they set
# (`BattleMeta`: dice epochs, seeds revealed, client seeds, disputes) through an undo, so
# the log never marks them undone (DESIGN.md "Events and the log": undone events are those
# the state no longer folds). A RulingRecorded changes no state; it is a call about the
# play around it and goes with it (RULINGS.md). BattleCreated is never in an undo's reach.
_KEPT_TYPES: frozenset[type] = frozenset(
    {
        DiceSeedRevealed,
        DiceSubSeedRevealed,
        DiceEpochStarted,
        ClientSeedSet,
        DisputeRaised,
        DisputeResolved,
    }
)
NEVER_UNDONE = frozenset(t.__name__ for t in _KEPT_TYPES)


class BattleMeta(msgspec.Struct, frozen=True, kw_only=True):
    """What the service knows of a battle beyond its game state."""

    created: BattleCreated
    dice_epoch: int  # the epoch whose seed derives the next server die
    commitments: dict[int, str]
    revealed: dict[int, str]
    # The version of the latest "battle-over" seed reveal: the battle had ended there
    # (events up to it are unsealed for every reader if `created.reveal_hidden_on_end`).
    ended_at: int | None = None
    client_seeds: dict[str, str] = {}  # side -> the client seed it set last
    # epoch -> audience -> sha256(its sub-seed) (domain.dice, "Hidden dice")
    sub_commitments: dict[int, dict[str, str]] = {}
    # epoch -> audience -> its sub-seed (hex), once revealed (DiceSubSeedRevealed)
    sub_revealed: dict[int, dict[str, str]] = {}
    # dispute id -> the dispute (never undone: a dispute is about the log, not the game)
    disputes: dict[str, Dispute] = {}

    def open_disputes(self) -> list[str]:
        return [d for d, dispute in self.disputes.items() if dispute.status == "open"]


class Battle(msgspec.Struct, frozen=True, kw_only=True):
    """The state right after `version`: metadata and the ruleset's game state."""

    version: int
    meta: BattleMeta
    game: Any


def _log_decoders(
    ruleset: Ruleset[Any, Any, Any, Any, Any],
) -> tuple[msgspec.json.Decoder[Any], msgspec.json.Decoder[list[Any]]]:
    """Decoders for one event of a battle under `ruleset` (its own or the battle's), and
    for a JSON array of them."""
    decoders = _LOG_DECODERS.get(ruleset.id)
    if decoders is None:
        own = get_args(ruleset.event_type) or (ruleset.event_type,)
        event: Any = Union[(*own, *get_args(BattleEvent))]
        decoders = (msgspec.json.Decoder(event), msgspec.json.Decoder(list[event]))
        _LOG_DECODERS[ruleset.id] = decoders
    return decoders


_HISTORY_KEPT = 8  # states before its base a timeline keeps (the targets of recent undos)

_LOG_DECODERS: dict[str, tuple[msgspec.json.Decoder[Any], msgspec.json.Decoder[list[Any]]]] = {}


@contextmanager
def _no_gc() -> Iterator[None]:
    # A bulk decode and fold allocates many small containers and frees none: the cyclic
    # GC would only walk them again and again (the Structs are gc=False).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class HistoryNeeded(Exception):
    """A fold needs the state at a version this timeline no longer holds (it starts from a
    snapshot after it): the caller rebuilds from an earlier snapshot or the whole log."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the state at version {version} is before this timeline's start")
        self.version = version


class Timeline:
    """Folds one battle's events in order, keeping enough to give the state at any version.

    It keeps the decoded events after its base (version 0, or a snapshot's version) and a
    mark of (meta, game) every `snapshot_every` versions (and one right after version 1,
    the `BattleCreated`), so the state right after any version from the base on is one
    mark plus a short fold. Before the base it raises `HistoryNeeded`; `trim` moves the
    base forward to hold less.
    """

    def __init__(
        self,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
        snapshot_every: int = 256,
        fork_base: Any = None,
    ):
        self.ruleset = ruleset
        # A fork's game right after its first event: its parent's at the version forked.
        self.fork_base = fork_base
        self.snapshot_every = snapshot_every
        self.decoder, self._array_decoder = _log_decoders(ruleset)
        self._base = 0  # the version the held events follow
        self._events: list[Any] = []  # decoded, index = version - base - 1
        self._marks: dict[int, tuple[BattleMeta, Any]] = {}  # version -> state right after it
        self._undos: list[tuple[int, int]] = []  # (version of the BattleUndone, its to_version)
        self._kept: list[int] = []  # the versions of the events no undo takes back
        self._history: dict[int, Battle] = {}  # states before the base, given (`provide`)
        self._meta: BattleMeta | None = None
        self._game: Any = None
        self._current: Battle | None = None  # made on demand; None when folding changed it

    @classmethod
    def starting_at(
        cls,
        ruleset: Ruleset[Any, Any, Any, Any, Any],
        battle: Battle,
        undos: Iterable[tuple[int, int]],
        snapshot_every: int = 256,
        kept: Iterable[int] = (),
    ) -> Timeline:
        """A timeline whose first held state is `battle` (from a snapshot): `undos` are the
        (version, to_version) of every `BattleUndone` up to its version, `kept` the
        versions of the events no undo takes back (`kept`) up to it."""
        timeline = cls(ruleset, snapshot_every)
        timeline._base = battle.version
        timeline._marks[battle.version] = (battle.meta, battle.game)
        timeline._undos = [(at, to) for at, to in undos]
        timeline._kept = list(kept)
        timeline._meta, timeline._game = battle.meta, battle.game
        return timeline

    @property
    def version(self) -> int:
        return self._base + len(self._events)

    @property
    def base(self) -> int:
        """The first version whose state this timeline holds (0: from the start)."""
        return self._base

    @property
    def held(self) -> tuple[int, int]:
        """How much it holds: (decoded events, marks), for an estimate of its size."""
        return len(self._events), len(self._marks)

    def marked(self) -> list[Battle]:
        """The states it holds marks of (every `snapshot_every` versions), oldest first."""
        return [
            Battle(version=v, meta=meta, game=game)
            for v, (meta, game) in sorted(self._marks.items())
        ]

    @property
    def undos(self) -> list[tuple[int, int]]:
        """(version, to_version) of every `BattleUndone` folded, in order."""
        return list(self._undos)

    @property
    def kept(self) -> list[int]:
        """The versions of the battle-level events folded that no undo takes back (a seed
        revealed, a dice epoch, a client seed, a dispute's events: `NEVER_UNDONE`), in
        order: they are never marked undone."""
        return list(self._kept)

    @property
    def current(self) -> Battle | None:
        # Made once per version: every command reads it at least once.
        if self._current is None and self._meta is not None:
            self._current = Battle(version=self.version, meta=self._meta, game=self._game)
        return self._current

    def extend(self, payloads: Iterable[bytes]) -> None:
        """Fold the stored data of the events that follow the current version, in order."""
        decode = self.decoder.decode
        with _no_gc():
            self.extend_decoded([decode(p) for p in payloads])

    def extend_log(self, array: bytes) -> None:
        """Fold a JSON array of the stored data of the events that follow, in order (what
        `EventStore.read_log` returns): one decoder call for the whole log."""
        with _no_gc():
            self.extend_decoded(self._array_decoder.decode(array))

    def extend_decoded(self, events: Iterable[Any]) -> None:
        """Fold events (ruleset or battle-level Structs) that follow the current version.

        A log starts with its battle's creation, and holds one: a first event that is not a
        BattleCreated, or a BattleCreated after version 1, raises ValueError (a hand-made
        export can hold anything). On an error (`HistoryNeeded` among them) only what was
        folded before it is kept."""
        events = events if isinstance(events, list) else list(events)
        log, every, marks, base = self._events, self.snapshot_every, self._marks, self._base
        if not base and not log and events and type(events[0]) is not BattleCreated:
            raise ValueError(
                f"version 1 is a {type(events[0]).__name__}, not a BattleCreated: "
                "a battle's log starts with its creation"
            )
        evolve, battle_step, battle_types = self.ruleset.evolve, self._battle_step, _BATTLE_TYPES
        meta, game = self._meta, self._game
        done, n, version = 0, len(events), base + len(log) + 1
        try:
            while done < n:
                # Up to the next mark boundary: one slice, no per-event bookkeeping.
                start = base + len(log)
                stop = min(n, done + every - start % every)
                chunk = events[done:stop]
                log.extend(chunk)  # an undo below reads the versions before it from the log
                version = start + 1  # the version being folded
                for version, ev in enumerate(chunk, start + 1):
                    if type(ev) in battle_types:
                        meta, game = battle_step(meta, game, ev, version, True)
                    else:
                        game = evolve(game, ev)
                done, version = stop, base + len(log) + 1
                if (base + len(log)) % every == 0:
                    assert meta is not None
                    marks[base + len(log)] = (meta, game)
        except BaseException:
            del log[version - 1 - base :]  # only what was folded stays in the log
            last = base + len(log)
            for v in [v for v in marks if v > last]:
                del marks[v]
            self._undos = [u for u in self._undos if u[0] <= last]
            self._kept = [v for v in self._kept if v <= last]
            raise
        finally:
            self._meta, self._game, self._current = meta, game, None

    def extend_folded(self, events: list[Any], game: Any) -> None:
        """Like `extend_decoded`, for events the caller has already folded: `game` is the
        ruleset state after them, from the current one. A command's events are folded
        once to decide whether the battle is over; this spares folding them again.

        Battle-level events, a run that reaches a mark version, and the first events of
        an empty timeline (checked to begin with a BattleCreated) take the full path.
        """
        log, every = self._events, self.snapshot_every
        start = self.version
        battle_types = _BATTLE_TYPES
        if (
            not start
            or (start + len(events)) // every != start // every
            or any(type(ev) in battle_types for ev in events)
        ):
            self.extend_decoded(events)
            return
        log.extend(events)
        self._game, self._current = game, None

    def provide(self, battle: Battle) -> None:
        """Give it the state at a version before its base (that an undo goes back to),
        folded elsewhere. It keeps the last few given."""
        self._history[battle.version] = battle
        if len(self._history) > _HISTORY_KEPT:
            del self._history[next(iter(self._history))]

    def trim(self, keep: int) -> None:
        """Hold only the states from the latest mark at least `keep` versions back: the
        base moves there; older states are read again (`HistoryNeeded`)."""
        target = self.version - keep
        new_base = max((v for v in self._marks if v <= target), default=self._base)
        if new_base <= self._base:
            return
        del self._events[: new_base - self._base]
        for v in [v for v in self._marks if v < new_base]:
            del self._marks[v]
        self._base = new_base

    @property
    def has_undo(self) -> bool:
        return bool(self._undos)

    def undone(self, upto: int | None = None) -> set[int]:
        """The versions that are undone as of the last event (as of `upto`, if given).

        `BattleUndone(to_version=t)` at version u undoes t+1..u-1, unless a later undo
        went back before u, which undoes that undo too. The events whose metadata the
        fold keeps through an undo are never undone (`kept`, `NEVER_UNDONE`): a seed
        revealed stays revealed, a client seed set stays set, and a dispute (an upheld
        one caused its correction's undo) stays raised and settled.
        """
        undone: set[int] = set()
        cut: int | None = None
        for at, to in reversed(self._undos):
            if upto is not None and at > upto:
                continue
            if cut is not None and at > cut:
                continue  # this undo was itself undone by a later one
            undone.update(range(to + 1, at))
            cut = to
        if undone:
            undone.difference_update(self._kept)
        return undone

    def state_at(self, version: int) -> Battle:
        """The state right after `version` (base <= version <= current version, 1 <= version).
        Raises `HistoryNeeded` for a version before the base."""
        if not 1 <= version <= self.version:
            raise ValueError(f"version {version} is outside 1..{self.version}")
        return self._state_at(version)

    def states(self, start: int, stop: int) -> Iterator[Battle]:
        """The states right after `start`, `start + 1`, ... `stop`, folded once from the
        state at `start` (one `state_at` each would fold from a mark every time).
        Raises `HistoryNeeded` where `state_at` would."""
        if not 1 <= start <= stop <= self.version:
            raise ValueError(f"versions {start}..{stop} are outside 1..{self.version}")
        battle = self._state_at(start)
        yield battle
        meta, game, base, marks = battle.meta, battle.game, self._base, self._marks
        evolve, battle_step, battle_types = self.ruleset.evolve, self._battle_step, _BATTLE_TYPES
        for v in range(start + 1, stop + 1):
            if v <= base:  # held only as given history, if at all
                battle = self._state_at(v)
                meta, game = battle.meta, battle.game
                yield battle
                continue
            mark = marks.get(v)
            if mark is not None and mark[0] is not None:
                # Taken from the mark, as `state_at` does: folding on through the event
                # would fail where it is an undo to before a trimmed timeline's base.
                meta, game = mark
                yield Battle(version=v, meta=mark[0], game=game)
                continue
            ev = self._events[v - base - 1]
            if type(ev) in battle_types:
                meta, game = battle_step(meta, game, ev, v, False)
            else:
                game = evolve(game, ev)
            yield Battle(version=v, meta=meta, game=game)

    def _state_at(self, version: int) -> Battle:
        base, marks = self._base, self._marks
        if version < base:
            known = self._history.get(version)
            if known is None:
                raise HistoryNeeded(version)
            return known
        start = version - version % self.snapshot_every
        if start <= base or start not in marks:
            # From the start: the mark at version 1, the BattleCreated's (`extend_decoded`)
            start = base or 1
        meta: BattleMeta | None
        meta, game = marks.get(start, (None, None))
        evolve, battle_step, battle_types = self.ruleset.evolve, self._battle_step, _BATTLE_TYPES
        for v, ev in enumerate(self._events[start - base : version - base], start + 1):
            if type(ev) in battle_types:
                meta, game = battle_step(meta, game, ev, v, False)
            else:
                game = evolve(game, ev)
        assert meta is not None
        return Battle(version=version, meta=meta, game=game)

    def _battle_step(
        self, meta: BattleMeta | None, game: Any, ev: Any, version: int, new: bool
    ) -> tuple[BattleMeta, Any]:
        """One battle-level event; `new`: folding it for the first time (not replaying)."""
        ruleset = self.ruleset
        if new and type(ev) in _KEPT_TYPES:
            self._kept.append(version)
        if isinstance(ev, BattleCreated):
            if version != 1:
                raise ValueError(
                    f"a BattleCreated at version {version}: a battle is created once, at version 1"
                )
            options = msgspec.convert(ev.options, ruleset.options_type)
            setup = msgspec.convert(ev.setup, ruleset.setup_type)
            first = BattleMeta(
                created=ev,
                dice_epoch=ev.dice_epoch,
                commitments={ev.dice_epoch: ev.dice_commitment},
                revealed={},
                sub_commitments=(
                    {ev.dice_epoch: ev.dice_sub_commitments} if ev.dice_sub_commitments else {}
                ),
            )
            if ev.forked_from is None:
                game = ruleset.initial_state(setup, options)
            elif self.fork_base is None:
                raise ValueError(
                    f"battle {ev.battle_id} is a fork of {ev.forked_from}: fold it with "
                    "its parent's state at the version forked (fork_base)"
                )
            else:
                game = self.fork_base
            if new:
                self._marks[1] = (first, game)
            return first, game
        assert meta is not None
        if isinstance(ev, DiceSeedRevealed):
            commitments = dict(meta.commitments)
            subs = meta.sub_commitments
            epoch = meta.dice_epoch
            if ev.next_epoch is not None and ev.next_commitment is not None:
                commitments[ev.next_epoch] = ev.next_commitment
                epoch = ev.next_epoch
                if ev.next_sub_commitments:
                    subs = {**subs, ev.next_epoch: ev.next_sub_commitments}
            return (
                msgspec.structs.replace(
                    meta,
                    dice_epoch=epoch,
                    commitments=commitments,
                    sub_commitments=subs,
                    revealed={**meta.revealed, ev.epoch: ev.seed},
                    ended_at=version if ev.reason == "battle-over" else meta.ended_at,
                ),
                game,
            )
        if isinstance(ev, DiceEpochStarted):
            commitments = {**meta.commitments, ev.epoch: ev.commitment}
            subs = meta.sub_commitments
            if ev.sub_commitments:
                subs = {**subs, ev.epoch: ev.sub_commitments}
            return (
                msgspec.structs.replace(
                    meta, dice_epoch=ev.epoch, commitments=commitments, sub_commitments=subs
                ),
                game,
            )
        if isinstance(ev, BattleUndone):
            to = ev.to_version
            if to >= version:
                raise ValueError(f"undo at version {version} to version {to}: not in the past")
            if new:
                self._undos.append((version, to))
            return meta, self._state_at(to).game if to >= 1 else game
        if isinstance(ev, ClientSeedSet):
            seeds = {**meta.client_seeds, ev.side: ev.seed}
            return msgspec.structs.replace(meta, client_seeds=seeds), game
        if isinstance(ev, DiceSubSeedRevealed):
            epoch_subs = {**meta.sub_revealed.get(ev.epoch, {}), ev.audience: ev.seed}
            subs = {**meta.sub_revealed, ev.epoch: epoch_subs}
            return msgspec.structs.replace(meta, sub_revealed=subs), game
        if isinstance(ev, DisputeRaised):
            dispute = Dispute(
                versions=tuple(ev.versions),
                raised_by=ev.raised_by,
                audience=ev.audience,
                raised_at=version,
            )
            disputes = {**meta.disputes, ev.dispute_id: dispute}
            return msgspec.structs.replace(meta, disputes=disputes), game
        if isinstance(ev, DisputeResolved) and ev.dispute_id in meta.disputes:
            settled = msgspec.structs.replace(
                meta.disputes[ev.dispute_id], status=ev.outcome, resolved_at=version
            )
            disputes = {**meta.disputes, ev.dispute_id: settled}
            return msgspec.structs.replace(meta, disputes=disputes), game
        return meta, game  # RulingRecorded: a record, no change of state
