"""The audit narrative: a battle's log told command by command, for the reader asking.

Each entry is one command (the events it appended, one `command_id`): who ordered it,
when, every event told in words by its ruleset's teller with every nested figure on a line
of its own (service.desk.narrative_registry), every die with its source and
whether it verifies (a server die recomputed from its epoch's seed once revealed), every
rule the events cite (their `rule` fields: the seed section), every reason and modifier
they record, then what changed in the reader's own view of the state between the version
before the command and its last. Events the reader may not see are told as hidden, and
the changes are those of what the reader sees, so the narrative tells nothing a read of
the log and the state would not. A referee ruling or an undo is an entry of its own,
with its reason. Rendered as JSON or Markdown (`service.narrative_markdown`).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, get_args

import msgspec

from domain.actors import ALL, Actor
from domain.dice import derive_value
from events.exports.format import Provenance
from service.battles.provenance import battle_provenance
from service.desk.narrative_registry import tell_event
from service.schemas import EventOut, SealedEventOut

if TYPE_CHECKING:
    from service.battles.service import BattleService

__all__ = [
    "Narrative",
    "NarrativeChange",
    "NarrativeDie",
    "NarrativeEntry",
    "NarrativeEvent",
    "citations",
    "narrate",
    "tell",
]

# The sub-seeds of hidden dice: epoch -> audience -> commitment, and -> revealed seed (hex)
SubSeeds = tuple[dict[int, dict[str, str]], dict[int, dict[str, str]]]
HiddenSeeds = tuple[str, dict[int, dict[str, str]], dict[int, dict[str, str]]]  # + audience

_MAX_CHANGES = 40  # per entry: past this, the entry says how many more there were
_SECTION = re.compile(r"\s*\[([^\]]+)\]")
_CITED: dict[str, dict[str, str]] = {}


class NarrativeDie(msgspec.Struct, kw_only=True):
    sides: int
    values: list[int]
    purpose: str
    source: str  # "server", or where the table's dice came from
    # verified: recomputed from the revealed seed; mismatch: it does not; pending: its
    # seed is not revealed yet; table: not the server's die, nothing to recompute
    status: str


class NarrativeEvent(msgspec.Struct, kw_only=True):
    version: int
    type: str  # empty for a hidden event
    summary: str  # what happened, in words (the ruleset's teller, service.desk.narrative_registry)
    hidden: bool = False
    undone: bool = False
    rules: list[str] = []
    reasons: list[str] = []
    modifiers: list[str] = []
    dice: list[NarrativeDie] = []
    # every nested figure of the event, one line each (`attack › abilities: stat STR, value 3`)
    details: list[str] = []
    # the dispute whose upheld ruling appended it as its correction (its `dispute`, in
    # its hash: issue 36); its summary ends "(correction of dispute d1)". Absent from
    # every other event (not null), so their entries read as before.
    dispute: str | msgspec.UnsetType = msgspec.UNSET


class NarrativeChange(msgspec.Struct, kw_only=True):
    path: str  # where in the reader's view of the state, e.g. `squads.n1.x`
    before: Any = None
    after: Any = None


class NarrativeEntry(msgspec.Struct, kw_only=True):
    first_version: int
    last_version: int
    recorded_at: str
    role: str  # who ordered it ("" for events hidden from the reader)
    side: str | None
    command_id: str | None
    events: list[NarrativeEvent]
    changes: list[NarrativeChange]
    changes_left_out: int = 0


class Narrative(msgspec.Struct, kw_only=True):
    battle_id: str
    ruleset: str
    version: int  # the battle's current version
    from_version: int
    to_version: int
    entries: list[NarrativeEntry]
    next_from: int | None  # pass as ?from= for the next page; null at the end
    # Where the history it tells comes from (service.battles.provenance): an import this service
    # did not sign says "origin not verified by this service", with the key.
    origin: Provenance | None = None


def _walk(obj: Any) -> Iterator[tuple[str, Any]]:
    """(key, value) of every dict item, level by level and in order within a level (so
    the dice are listed in the order the event holds them: the first roll-off die first)."""
    queue = deque([obj])
    while queue:
        x = queue.popleft()
        if isinstance(x, dict):
            for k, v in x.items():
                yield k, v
                if isinstance(v, dict | list):
                    queue.append(v)
        elif isinstance(x, list):
            queue.extend(v for v in x if isinstance(v, dict | list))


def _rolls(obj: Any) -> Iterator[dict[str, Any]]:
    if isinstance(obj, dict) and obj.get("kind") == "roll":
        yield obj
    for _, v in _walk(obj):
        if isinstance(v, dict) and v.get("kind") == "roll":
            yield v
        elif isinstance(v, list):
            yield from (r for r in v if isinstance(r, dict) and r.get("kind") == "roll")


def _die(
    roll: dict[str, Any],
    dice_id: Callable[[int], str],
    revealed: dict[int, str],
    hidden: HiddenSeeds | None,
) -> NarrativeDie:
    values = [v for v in roll.get("values", []) if isinstance(v, int)]
    source = str(roll.get("source", ""))
    status = "table"
    if source == "server":
        epoch = roll.get("epoch", -1)
        # A hidden event's die: its audience's sub-seed, when the epoch committed them
        # (domain.dice, "Hidden dice"); whoever reads the event may read that sub-seed.
        if hidden is not None and hidden[0] != ALL and hidden[1].get(epoch):
            seed = hidden[2].get(epoch, {}).get(hidden[0])
        else:
            seed = revealed.get(epoch)
        if seed is None:
            status = "pending"
        else:
            try:
                expected = [
                    derive_value(
                        bytes.fromhex(seed),
                        dice_id(roll["version"]),
                        roll["version"],
                        roll["index"] + i,
                        roll.get("client_seed", ""),
                        roll["sides"],
                    )
                    for i in range(len(values))
                ]
                status = "verified" if expected == values else "mismatch"
            except (KeyError, TypeError, ValueError):
                status = "mismatch"
    return NarrativeDie(
        sides=int(roll.get("sides", 0)),
        values=values,
        purpose=str(roll.get("purpose", "")),
        source=source,
        status=status,
    )


def citations(ruleset: Any) -> dict[str, str]:
    """Event type -> the seed section its class's docstring opens with (`[Attacks]: ...`),
    for events that cite their rule there rather than in a `rule` field."""
    found = _CITED.get(ruleset.id)
    if found is None:
        found = {}
        for cls in get_args(ruleset.event_type):
            match = _SECTION.match(cls.__doc__ or "")
            if match:
                found[cls.__struct_config__.tag] = match.group(1)
        _CITED[ruleset.id] = found
    return found


def _event(
    out: EventOut,
    dice_id: Callable[[int], str],
    revealed: dict[int, str],
    cited: dict[str, str],
    subs: SubSeeds | None = None,
    ruleset: str = "",
) -> NarrativeEvent:
    data = msgspec.json.decode(out.data)
    rules, reasons = [cited[out.type]] if out.type in cited else [], []
    for k, v in _walk(data):
        if k == "rule" and isinstance(v, str):
            rules.append(v)
        elif k == "reason" and isinstance(v, str):
            reasons.append(v)
    told = tell_event(ruleset, out.type, data)
    dispute = out.dispute
    return NarrativeEvent(
        version=out.version,
        type=out.type,
        summary=told.summary
        if dispute is msgspec.UNSET
        else f"{told.summary} (correction of dispute {dispute})",
        dispute=dispute,
        undone=out.undone,
        rules=list(dict.fromkeys(rules)),
        reasons=list(dict.fromkeys(reasons)),
        modifiers=told.modifiers,
        details=told.details,
        dice=[
            _die(r, dice_id, revealed, None if subs is None else (out.audience, *subs))
            for r in _rolls(data)
        ],
    )


def _diff(before: Any, after: Any, path: str, out: list[NarrativeChange]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        for k in sorted(set(before) | set(after), key=str):
            _diff(before.get(k), after.get(k), f"{path}.{k}" if path else str(k), out)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after, strict=True)):
            _diff(b, a, f"{path}[{i}]", out)
    elif before != after:
        out.append(NarrativeChange(path=path, before=before, after=after))


def _command_of(ev: EventOut) -> tuple[Any, ...]:
    """What tells one command's events from the next: the command it records (chain
    format 2: the version of its first event, in its hash; issue 31, item 13). In a battle
    chained before that: its id when the client gave one (Idempotency-Key), else who
    appended them and when (a command's events share one recording time, to the
    millisecond: two commands in one millisecond by one actor read as one)."""
    if ev.command_version is not None:
        return ("command", ev.command_version)
    if ev.command_id is not None:
        return (ev.command_id,)
    return (ev.recorded_at, ev.actor.role, ev.actor.side)


def _same(a: EventOut | SealedEventOut, b: EventOut | SealedEventOut) -> bool:
    """Whether two neighbouring events belong to one entry: one command's, or both hidden."""
    if isinstance(a, SealedEventOut) or isinstance(b, SealedEventOut):
        return isinstance(a, SealedEventOut) and isinstance(b, SealedEventOut)
    return _command_of(a) == _command_of(b)


_BACK = 64  # events read per step when looking for where a command begins
_PAGE = 1000  # events read per step going forward


async def _command_start(service: BattleService, battle_id: str, actor: Actor, version: int) -> int:
    """The first version of the entry (command, or run of hidden events) that holds
    `version`, as `actor` reads the log."""
    page = await service.events(battle_id, actor, version - 1, 1)
    if not page.events:
        return version
    start, first = version, page.events[0]
    while start > 1:
        lo = max(0, start - 1 - _BACK)
        before = (await service.events(battle_id, actor, lo, start - 1 - lo)).events
        for ev in reversed(before):
            if not _same(ev, first):
                return start
            start, first = ev.version, ev
        if not before:
            break
    return start


async def _groups(
    service: BattleService, battle_id: str, actor: Actor, start: int, end: int
) -> AsyncIterator[list[EventOut | SealedEventOut]]:
    """The entries' runs of events from version `start` (the first of its command) on,
    up to and including the whole command that holds version `end`. A command's events
    are never split, not by the pages of the log nor by `end`."""
    run: list[EventOut | SealedEventOut] = []
    after = start - 1
    while True:
        page = await service.events(battle_id, actor, after, _PAGE)
        if not page.events:
            break
        for ev in page.events:
            if run and not _same(run[-1], ev):
                yield run
                run = []
                if ev.version > end:
                    return
            run.append(ev)
        after = page.events[-1].version
    if run:
        yield run


def tell(
    group: Sequence[EventOut | SealedEventOut],
    before: Any,
    after: Any,
    dice_id: Callable[[int], str],
    revealed: dict[int, str],
    cited: dict[str, str],
    subs: SubSeeds | None = None,
    ruleset: str = "",
) -> NarrativeEntry:
    """One entry: a command's events (or a run of hidden ones), told with the reader's
    view of the state `before` its first and `after` its last; `dice_id` gives the battle
    id a server die of a version derived from, `revealed` the seeds by epoch, `cited` the
    sections the ruleset's event types cite (`citations`); `subs` the sub-seeds of hidden
    dice, committed and revealed, by epoch and audience (`BattleMeta`); `ruleset` the id
    whose tellers tell the events (empty: the fallback's words only)."""
    first, last = group[0], group[-1]
    changes: list[NarrativeChange] = []
    _diff(before, after, "", changes)
    if isinstance(first, EventOut):
        events = [
            _event(e, dice_id, revealed, cited, subs, ruleset)
            for e in group
            if isinstance(e, EventOut)
        ]
        who = (first.actor.role, first.actor.side, first.command_id, first.recorded_at)
    else:
        events = [
            NarrativeEvent(version=e.version, type="", summary="hidden from you", hidden=True)
            for e in group
        ]
        who = ("", None, None, "")
    return NarrativeEntry(
        first_version=first.version,
        last_version=last.version,
        role=who[0],
        side=who[1],
        command_id=who[2],
        recorded_at=who[3],
        events=events,
        changes=changes[:_MAX_CHANGES],
        changes_left_out=max(0, len(changes) - _MAX_CHANGES),
    )


async def narrate(
    service: BattleService, battle_id: str, actor: Actor, start: int, end: int | None, limit: int
) -> Narrative:
    """The narrative of versions `start..end` (end: the current one) as `actor` reads it,
    at most `limit` entries. Whole commands only: `start` moves back to the first event
    of its command and `end` on to the last of its own; the answer's `from_version` and
    `to_version` say what it covers."""
    loaded = await service.loaded(battle_id)
    head = loaded.battle.version
    end = head if end is None else min(end, head)
    if 1 < start <= end:
        start = await _command_start(service, battle_id, actor, start)
    revealed = loaded.battle.meta.revealed
    subs = (loaded.battle.meta.sub_commitments, loaded.battle.meta.sub_revealed)
    dice_id = loaded.battle.meta.created.dice_battle_id  # an import's dice: the original id
    cited = citations(loaded.ruleset)
    entries: list[NarrativeEntry] = []
    next_from: int | None = None
    views: dict[int, Any] = {}

    async def view_at(version: int) -> Any:
        if version not in views:
            views[version] = (
                msgspec.to_builtins((await service.view(battle_id, actor, version)).state)
                if version >= 1
                else {}
            )
        return views[version]

    if start <= end:
        async for group in _groups(service, battle_id, actor, start, end):
            if len(entries) == limit:
                next_from = group[0].version
                break
            first, last = group[0], group[-1]
            before, after = await view_at(first.version - 1), await view_at(last.version)
            ruleset = loaded.ruleset.id
            entries.append(tell(group, before, after, dice_id, revealed, cited, subs, ruleset))
    return Narrative(
        battle_id=battle_id,
        ruleset=loaded.battle.meta.created.ruleset,
        version=head,
        from_version=start,
        to_version=max(end, entries[-1].last_version) if next_from is None and entries else end,
        entries=entries,
        next_from=next_from,
        origin=await battle_provenance(service, battle_id),
    )
