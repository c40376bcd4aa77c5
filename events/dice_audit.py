"""The dice half of a log's audit: every server die recomputed from its revealed seed.

Dice are found by shape: any JSON object with `"kind": "roll"` in any event's data
(see `domain.dice.Roll`). Each value of a server roll is one die, recomputed at the roll
counter (version, index + i) from the seed of its epoch once that seed is revealed
(`DiceSeedRevealed`), after checking the seed against the commitment published for that
epoch (`BattleCreated`, then each reveal's `next_commitment`, or a `DiceEpochStarted`).
Dice of an epoch not yet revealed are counted as pending. A die in an event for one
audience only ("referee", "side:<id>") derives from that audience's sub-seed of its epoch
when the epoch committed sub-seeds (domain.dice, "Hidden dice"): it is checked once the
sub-seed is revealed (`DiceSubSeedRevealed`, an event of that audience) against its
commitment, and counted as pending until then; each audience's dice have counters of
their own. Every server die must also
have used the client seeds the sides set before it (`ClientSeedSet`). A die derives from
the id of the battle that rolled it (`DiceIds`: an imported battle's first event says
which).

`DiceAudit` takes the log in two passes' worth of facts, so that it never needs the
events themselves: first every battle-level event that carries dice facts
(`DICE_FACT_TYPES`, in version order), then the rolls of every event (`rolls_in_data`,
in version order). An export is scanned in parallel chunks (events.exports.scan), which
hand over exactly these.

`rolls_in_data` finds the rolls of one event's data. Most rolls are written as
msgspec writes a `Roll` (tag first, fields as declared); they are read with a pattern,
which is complete only when it accounts for every `"roll"` in the text (see there);
anything else is decoded and walked whole.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from domain.dice import client_seed_for, commitment, derive_value

__all__ = [
    "DICE_FACT_TYPES",
    "DiceAudit",
    "DiceFailure",
    "DiceIds",
    "may_hold_rolls",
    "rolls_in_data",
    "server_rolls_in_data",
]

DICE_FACT_TYPES = frozenset(
    {
        "BattleCreated",
        "DiceSeedRevealed",
        "DiceSubSeedRevealed",
        "DiceEpochStarted",
        "ClientSeedSet",
    }
)
_ALL = "all"  # the audience of an event every reader may see (domain.actors.ALL)

_decode = msgspec.json.Decoder()

# One `Roll` exactly as msgspec encodes it (domain.dice.Roll: tag first, fields in
# declaration order, none omitted). A JSON string: runs of plain characters and escapes.
# Possessive (`*+`): nothing here ever needs to give back what it matched, and the
# engine then keeps no state to backtrack to (a third faster over a long export).
_STR = rb'"[^"\\]*+(?:\\.[^"\\]*+)*+"'
_INT_OR_NULL = rb"(?:-?\d++|null)"
_ROLL = re.compile(
    rb'\{"kind":"roll","sides":-?\d++,"values":\[((?:-?\d++(?:,-?\d++)*+)?)\],"purpose":'
    + _STR + rb',"source":(' + _STR + rb'),"epoch":' + _INT_OR_NULL + rb',"version":'
    + _INT_OR_NULL + rb',"index":' + _INT_OR_NULL + rb',"client_seed":' + _STR + rb"\}"
)  # fmt: skip


def may_hold_rolls(data: bytes) -> bool:
    """Whether the text can hold a die: a roll's tag is spelled `roll`, or with a `\\u`
    escape (the only other way JSON can spell it)."""
    return b"roll" in data or b"\\u" in data


def rolls_in_data(data: bytes, *, valid_json: bool = False) -> list[dict[str, Any]]:
    """Every roll in one event's data, in document order (`valid_json`: the caller has
    already checked that the data is JSON, as decoding a line with `msgspec.Raw` does).

    The pattern's matches are whole rolls: a match starts with `{"`, which in valid JSON
    can only open an object (inside a string the `"` would close it, and a bare `kind`
    cannot follow a string), and goes on token by token to its `}`. Every roll object
    holds the text `"roll"` (its tag's value: no `\\u` escape in the text, and no other
    escape spells a letter), at a place no other object holds it. So when the text holds
    `"roll"` exactly as often as there are matches, the matches are all its rolls;
    otherwise (another spelling, a key order of its own, "roll" in a string) the data is
    decoded and walked whole."""
    if b"\\u" not in data:
        found = data.count(b'"roll"')
        if found == 0:
            return []
        if not valid_json:
            _check_json(data)  # a DecodeError, as decoding it whole would raise
        matches = _roll_objects(data)
        if len(matches) == found:
            return matches
    return list(_walk(_decode.decode(data)))


_check_json = msgspec.json.Decoder(msgspec.Raw).decode


def server_rolls_in_data(data: bytes) -> tuple[int, list[dict[str, Any]]]:
    """How many table (client) dice one event's data holds, and its server rolls, as
    `rolls_in_data` finds them; the data is valid JSON (an export's line was decoded).
    A roll whose source is not "server" is a table roll (`DiceAudit.rolls`)."""
    if b"\\u" not in data:
        found = data.count(b'"roll"')
        if found == 0:
            return 0, []
        matches = _ROLL.findall(data)
        if len(matches) == found:
            client, server = 0, []
            for values, source in matches:
                if source == b'"server"':  # no escape spells a letter of it but `\u`
                    server.append(values)
                elif values:
                    client += values.count(b",") + 1
            if not server:
                return client, []
            return client, [r for r in _roll_objects(data) if r.get("source") == "server"]
    client, rolls = 0, []
    for roll in _walk(_decode.decode(data)):
        if roll.get("source") == "server":
            rolls.append(roll)
        elif isinstance(values := roll.get("values"), list):
            client += len(values)
    return client, rolls


def _roll_objects(data: bytes) -> list[dict[str, Any]]:
    return [_decode.decode(m.group(0)) for m in _ROLL.finditer(data)]


def _walk(obj: Any) -> Iterator[dict[str, Any]]:
    """Every roll in `obj`, depth first in document order (a roll before what it holds).
    A loop over a stack: recursive generators cost most of a long audit's time."""
    stack = [obj]
    pop, push = stack.pop, stack.extend
    while stack:
        x = pop()
        t = type(x)
        if t is dict:
            if x.get("kind") == "roll":
                yield x
            children = [v for v in x.values() if type(v) is dict or type(v) is list]
        elif t is list:
            children = [v for v in x if type(v) is dict or type(v) is list]
        else:
            continue
        children.reverse()
        push(children)


class DiceFailure(Exception):
    """The first die (or seed) at fault: the version of its event, and why."""

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(f"version {version}: {reason}")
        self.version = version
        self.reason = reason


class DiceIds:
    """The battle id each server die was derived with, by its roll counter's version.

    A battle's own dice derive from its own id. An imported battle (`BattleCreated`'s
    `imported_from`) holds the dice of the battles it came from: those derive from the
    id of the battle that rolled them, recorded with the version up to which it did."""

    def __init__(self, own: str, spans: Sequence[tuple[int, str]] = ()) -> None:
        self.own = own
        self._upto = [upto for upto, _ in spans]  # ascending
        self._ids = [battle_id for _, battle_id in spans]

    def at(self, version: int) -> str:
        i = bisect_left(self._upto, version)
        return self._ids[i] if i < len(self._ids) else self.own


def _import_spans(data: dict[str, Any]) -> list[tuple[int, str]]:
    origin = data.get("imported_from")
    if not isinstance(origin, dict):
        return []
    spans = origin.get("dice_ids")
    out = []
    if isinstance(spans, list):
        for span in spans:
            if isinstance(span, dict):
                upto, battle_id = span.get("upto"), span.get("battle_id")
                if isinstance(upto, int) and isinstance(battle_id, str):
                    out.append((upto, battle_id))
    out.sort()
    return out


class DiceAudit:
    """Checks a log's dice: `fact` every dice-fact event, then `rolls` of every event."""

    def __init__(self) -> None:
        self.commitments: dict[int, str] = {}
        self.seeds: dict[int, bytes] = {}
        # epoch -> audience -> the commitment of its sub-seed; (epoch, audience) -> sub-seed
        self.sub_commitments: dict[int, dict[str, str]] = {}
        self.sub_seeds: dict[tuple[int, str], bytes] = {}
        self._seed_versions: list[int] = []  # versions of the ClientSeedSet events
        self._side_seeds: list[dict[str, str]] = []  # the seeds in force right after each
        self.ids = DiceIds("")
        self.checked = self.pending = self.client = 0
        self._seen: dict[tuple[str, int, int], tuple[Any, ...]] = {}

    def battle_id(self, battle_id: str) -> None:
        """The id of the battle whose log this is (its first whole event's)."""
        self.ids.own = battle_id

    def fact(self, version: int, type_: str, data: Any) -> None:
        """One event of a `DICE_FACT_TYPES` type, decoded, in version order."""
        try:
            self._fact(version, type_, data)
        except (KeyError, TypeError, AttributeError):
            raise DiceFailure(version, f"the {type_} event is malformed") from None

    def _fact(self, version: int, type_: str, data: Any) -> None:
        if type_ == "BattleCreated":
            self.commitments[data["dice_epoch"]] = data["dice_commitment"]
            self._subs(data["dice_epoch"], data.get("dice_sub_commitments"))
            self.ids = DiceIds(self.ids.own, _import_spans(data))
        elif type_ == "DiceSeedRevealed":
            epoch, seed_hex = data["epoch"], data["seed"]
            try:
                seed = bytes.fromhex(seed_hex)
            except (TypeError, ValueError):
                raise DiceFailure(version, f"revealed seed of epoch {epoch} is not hex") from None
            if self.commitments.get(epoch) != commitment(seed):
                raise DiceFailure(
                    version,
                    f"the seed revealed for epoch {epoch} does not match its commitment "
                    f"{self.commitments.get(epoch)}",
                )
            self.seeds[epoch] = seed
            if data.get("next_epoch") is not None:
                self.commitments[data["next_epoch"]] = data["next_commitment"]
                self._subs(data["next_epoch"], data.get("next_sub_commitments"))
        elif type_ == "DiceSubSeedRevealed":
            epoch, audience, seed_hex = data["epoch"], data["audience"], data["seed"]
            try:
                seed = bytes.fromhex(seed_hex)
            except (TypeError, ValueError):
                raise DiceFailure(version, f"revealed sub-seed of {audience} is not hex") from None
            committed = self.sub_commitments.get(epoch, {}).get(audience)
            if committed != commitment(seed):
                raise DiceFailure(
                    version,
                    f"the sub-seed revealed for {audience} in epoch {epoch} does not match "
                    f"its commitment {committed}",
                )
            self.sub_seeds[(epoch, audience)] = seed
        elif type_ == "DiceEpochStarted":
            self.commitments[data["epoch"]] = data["commitment"]
            self._subs(data["epoch"], data.get("sub_commitments"))
        elif type_ == "ClientSeedSet":
            current = self._side_seeds[-1] if self._side_seeds else {}
            self._seed_versions.append(version)
            self._side_seeds.append({**current, str(data.get("side")): str(data.get("seed"))})

    def _subs(self, epoch: int, subs: object) -> None:
        if subs:
            if not isinstance(subs, dict):
                raise TypeError  # named by `fact`: the event is malformed
            self.sub_commitments[epoch] = subs

    def expected_sides(self, version: int) -> dict[str, str]:
        """The sides' seeds in force for a command whose first event is `version`."""
        at = bisect_left(self._seed_versions, version)  # the seeds set strictly before it
        return self._side_seeds[at - 1] if at else {}

    def _used_by(self, version: int, client_seed: object) -> bool:
        """Whether `client_seed`, as a roll recorded it, combines the sides' seeds then."""
        if not isinstance(client_seed, str):
            return False
        sides = self.expected_sides(version)
        if not sides:
            return True  # the command's own seed, whatever it was
        try:
            combined = _decode.decode(client_seed)
        except msgspec.DecodeError:
            return False
        command = combined.get("command") if isinstance(combined, dict) else None
        return isinstance(command, str) and client_seed_for(command, sides) == client_seed

    def rolls(self, ev_version: int, rolls: Sequence[dict[str, Any]], audience: str = _ALL) -> None:
        """The rolls of the event at `ev_version`, whose audience is `audience`, in
        document order (events in order)."""
        for roll in rolls:
            values = roll.get("values")
            if not isinstance(values, list):
                if roll.get("source") != "server":
                    continue
                raise DiceFailure(ev_version, "a server die is malformed")
            if roll.get("source") != "server":
                self.client += len(values)
                continue
            self._server(ev_version, roll, values, audience)

    def _server(
        self, ev_version: int, roll: dict[str, Any], values: list[Any], audience: str
    ) -> None:
        epoch, version, index = roll.get("epoch"), roll.get("version"), roll.get("index")
        if epoch not in self.commitments or version is None or index is None:
            raise DiceFailure(ev_version, "a server die names no committed epoch")
        if not isinstance(version, int) or not isinstance(index, int):
            raise DiceFailure(ev_version, "a server die is malformed")
        # The stream: a hidden event's dice derive from its audience's sub-seed, when the
        # epoch committed any (an older epoch's hidden dice derive from the battle's seed).
        subs = self.sub_commitments.get(epoch) or {}
        stream = audience if subs and audience != _ALL else _ALL
        if stream == _ALL:
            revealed = self.seeds.get(epoch)
        elif stream in subs:
            revealed = self.sub_seeds.get((epoch, stream))
        else:
            raise DiceFailure(
                ev_version, f"a server die for {audience} names no committed sub-seed"
            )
        used = roll.get("client_seed", "")
        if not self._used_by(version, used):
            raise DiceFailure(
                ev_version,
                f"roll {version}/{index} ({roll.get('purpose')}) did not use the client "
                f"seeds the sides had set: {self.expected_sides(version)}",
            )
        source = "seed" if stream == _ALL else f"sub-seed of {stream}"
        seen = self._seen
        for i, value in enumerate(values):
            counter = (stream, version, index + i)
            die = (epoch, roll.get("sides"), value, used, roll.get("purpose"), ev_version)
            earlier = seen.get(counter)
            # A later event may quote a die whole (a tactical attack resolved after the
            # target's reaction repeats the attack roll): the same die, counted once.
            # Anything else on a used counter, or within one event, is a reuse.
            if earlier is not None and earlier[:5] == die[:5] and earlier[5] < ev_version:
                continue
            if earlier is not None or version > ev_version:
                raise DiceFailure(
                    ev_version, f"server die ({version}, {index + i}) reuses a roll counter"
                )
            seen[counter] = die
            if revealed is None:
                self.pending += 1
                continue
            try:
                expected = derive_value(
                    revealed,
                    self.ids.at(version),
                    version,
                    index + i,
                    roll.get("client_seed", ""),
                    roll["sides"],
                )
            except (KeyError, TypeError, ValueError):
                raise DiceFailure(ev_version, "a server die is malformed") from None
            if expected != value:
                raise DiceFailure(
                    ev_version,
                    f"die {index + i} of roll {version} ({roll.get('purpose')}) shows "
                    f"{value}, but the revealed {source} gives {expected}",
                )
            self.checked += 1
