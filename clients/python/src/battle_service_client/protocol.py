"""The client's protocol without I/O: each operation is a generator ("flow") that yields
the HTTP `Call`s to make (and, in the table-dice loop, the `NextDie` to ask the player
for) and is sent back the `Answer`s (and the dice). The sync and async clients only
drive these flows, so both behave the same by construction.

`BattleCore` holds what a battle handle knows between calls: its id, key and the last
version an answer showed (sent as `expected_version` when tracking is on).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from battle_service_client.errors import ProblemError, problem_from
from battle_service_client.models import (
    BattleView,
    CommandResult,
    Created,
    KeyInfo,
    MintedKey,
    NextDie,
    Reach,
    decode_result,
    decode_view,
)
from battle_service_client.schema import Command

__all__ = [
    "Answer",
    "BattleCore",
    "Call",
    "CommandBody",
    "Flow",
    "create_flow",
    "new_idempotency_key",
]

# A command: a generated command class (`QuickstartMoveSquad(squad="n1", x=3, y=3)`), or
# its JSON as a mapping (`{"type": "MoveSquad", ...}`).
CommandBody = Command | Mapping[str, Any]

T = TypeVar("T")


@dataclass(frozen=True)
class Call:
    """One request. `retry_safe`: it may be sent again after a dropped connection (a read,
    or a command with its Idempotency-Key, which the retry reuses)."""

    method: str
    path: str
    json: Any = None
    params: Mapping[str, Any] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    retry_safe: bool = True


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes


# A flow yields calls (or a die to ask for), is sent answers (or the dice), returns T.
Flow = Generator[Call | NextDie, Any, T]


def new_idempotency_key() -> str:
    return uuid.uuid4().hex


def _ok(answer: Answer) -> Any:
    """The decoded JSON of a success, or the problem raised."""
    if answer.status >= 400:
        raise problem_from(answer.status, answer.body)
    return msgspec.json.decode(answer.body) if answer.body else None


def create_flow(
    ruleset: str, setup: Any, key: str | None, extra: Mapping[str, Any]
) -> Flow[Created]:
    # A setup (or options) may be a generated class (`QuickstartSetup`) or plain JSON.
    body = msgspec.to_builtins({"ruleset": ruleset, "setup": setup, **extra})
    answer = yield Call("POST", "/battles", json=body, headers=_bearer(key), retry_safe=False)
    return msgspec.convert(_ok(answer), Created)


def _bearer(key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


class BattleCore:
    """What a battle handle knows; builds the flows of its operations."""

    def __init__(self, battle_id: str, key: str, *, track_version: bool = False) -> None:
        self.id = battle_id
        self.key = key
        self.track_version = track_version
        self.version: int | None = None  # the last version an answer showed

    def auth(self) -> dict[str, str]:
        return _bearer(self.key)

    def seen(self, version: int) -> None:
        if self.version is None or version > self.version:
            self.version = version

    def _expected(self, given: int | None) -> int | None:
        if given is not None:
            return given
        return self.version if self.track_version else None

    def view_flow(self) -> Flow[BattleView]:
        answer = yield Call("GET", f"/battles/{self.id}", headers=self.auth())
        view = decode_view(_ok(answer), answer.headers.get("etag"))
        self.seen(view.version)
        return view

    def reach_flow(self, unit: str) -> Flow[Reach]:
        answer = yield Call("GET", f"/battles/{self.id}/reach/{unit}", headers=self.auth())
        return msgspec.convert(_ok(answer), Reach)

    def events_flow(self, after: int, limit: int) -> Flow[tuple[list[Any], int | None]]:
        params = {"after": after, "limit": limit}
        answer = yield Call("GET", f"/battles/{self.id}/events", params=params, headers=self.auth())
        page = _ok(answer)
        return list(page["events"]), page.get("next_after")

    def _post(self, path: str, body: dict[str, Any], key: str | None) -> Flow[CommandResult]:
        headers = {**self.auth(), "Idempotency-Key": key or new_idempotency_key()}
        answer = yield Call("POST", path, json=body, headers=headers)
        result = decode_result(_ok(answer))
        self.seen(result.version)
        return result

    def command_flow(
        self,
        command: CommandBody,
        dice: Sequence[int] | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        client_seed: str | None = None,
    ) -> Flow[CommandResult]:
        body: dict[str, Any] = {"command": _json(command)}
        if dice is not None:
            body["dice"] = list(dice)
        if client_seed:
            body["client_seed"] = client_seed
        expected = self._expected(expected_version)
        if expected is not None:
            body["expected_version"] = expected
        return (yield from self._post(f"/battles/{self.id}/commands", body, idempotency_key))

    def batch_flow(
        self,
        commands: Sequence[CommandBody],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> Flow[CommandResult]:
        """`commands`: each a command, or {"command": ..., "dice"?: [...]} with its dice."""
        body: dict[str, Any] = {"commands": [_batch_item(c) for c in commands]}
        expected = self._expected(expected_version)
        if expected is not None:
            body["expected_version"] = expected
        return (yield from self._post(f"/battles/{self.id}/commands/batch", body, idempotency_key))

    def table_dice_flow(
        self,
        command: CommandBody,
        dice: Sequence[int] = (),
        expected_version: int | None = None,
    ) -> Flow[CommandResult]:
        """Send the command with table dice; on each `next_die`, ask for it (yield the
        NextDie, be sent the dice) and send again with them added. Each send is a new
        request body, so each has its own idempotency key.

        An upheld dispute's correction (a `ResolveDispute` with `corrections`) is asked
        for as a batch is: each correcting command's own dice, the refusal naming its
        `index`. The resolution itself rolls none: it is sent without a dice list, and
        dice given for it are a ValueError (the service refuses them, 422 `dice-error`),
        never dropped unseen."""
        body = _json(command)
        if body.get("type") == "ResolveDispute":
            if dice:
                raise ValueError("a resolution rolls no dice: give each correction its own")
            if not body.get("corrections"):  # a dismissal: nothing to roll, no dice list
                return (yield from self.command_flow(command, None, expected_version))
            return (yield from self._resolution_flow(body, expected_version))
        have: list[int] | None = list(dice)
        while True:
            try:
                return (yield from self.command_flow(command, have, expected_version))
            except ProblemError as e:
                if _rolls_none(e, have):
                    have = None  # a command that rolls nothing takes no dice list at all
                elif e.next_die is None or have is None:
                    raise
                else:
                    have += _rolled((yield e.next_die), e.next_die)

    def table_dice_batch_flow(
        self, commands: Sequence[CommandBody], expected_version: int | None = None
    ) -> Flow[CommandResult]:
        """As table_dice_flow for a batch: a refusal's `index` says whose dice run short."""
        items = [_batch_item(c) for c in commands]
        for item in items:
            item.setdefault("dice", [])
        return (yield from _items_dice(items, lambda: self.batch_flow(items, expected_version)))

    def _resolution_flow(
        self, resolution: dict[str, Any], expected_version: int | None
    ) -> Flow[CommandResult]:
        """A dispute's correction with table dice: each correction sent with a dice list
        (an empty one asks for table dice; without one the server would roll)."""
        items = [dict(msgspec.to_builtins(c)) for c in resolution["corrections"]]
        for item in items:
            if item.get("dice") is None:  # a generated Correction encodes its None
                item["dice"] = []
        body = {**resolution, "corrections": items}
        return (
            yield from _items_dice(items, lambda: self.command_flow(body, None, expected_version))
        )

    def mint_flow(
        self,
        role: str,
        label: str,
        side: str | None,
        units: Sequence[str] | None,
        expires_at: str | None,
    ) -> Flow[MintedKey]:
        body: dict[str, Any] = {"role": role, "label": label}
        if side is not None:
            body["side"] = side
        if units is not None:
            body["units"] = list(units)
        if expires_at is not None:
            body["expires_at"] = expires_at
        path = f"/battles/{self.id}/keys"
        answer = yield Call("POST", path, json=body, headers=self.auth(), retry_safe=False)
        return msgspec.convert(_ok(answer), MintedKey)

    def list_keys_flow(self) -> Flow[list[KeyInfo]]:
        answer = yield Call("GET", f"/battles/{self.id}/keys", headers=self.auth())
        return msgspec.convert(_ok(answer)["keys"], list[KeyInfo])

    def revoke_flow(self, key_id: str) -> Flow[None]:
        answer = yield Call("DELETE", f"/battles/{self.id}/keys/{key_id}", headers=self.auth())
        _ok(answer)


def _json(command: Any) -> dict[str, Any]:
    """A command's JSON: a generated class encoded (its tag, `type`, included)."""
    if isinstance(command, msgspec.Struct):
        encoded: dict[str, Any] = msgspec.to_builtins(command)
        return encoded
    return dict(command)


def _batch_item(command: CommandBody) -> dict[str, Any]:
    """A batch's item: a command, or {"command": ..., "dice"?: [...]} with its dice."""
    if isinstance(command, msgspec.Struct) or "command" not in command or "type" in command:
        return {"command": _json(command)}
    return {k: (list(v) if k == "dice" else _json(v) if k == "command" else v)
            for k, v in command.items()}  # fmt: skip


def _items_dice(
    items: list[dict[str, Any]], send: Callable[[], Flow[CommandResult]]
) -> Flow[CommandResult]:
    """Send (a batch, or a resolution's corrections) until taken: a refusal's `index` says
    whose dice run short; that item's next die is asked for and added to its list."""
    while True:
        try:
            return (yield from send())
        except ProblemError as e:
            if e.index is None or not 0 <= e.index < len(items):
                raise
            item = items[e.index]
            if _rolls_none(e, item.get("dice")):
                del item["dice"]  # a command that rolls nothing takes no dice list at all
            elif e.next_die is None or "dice" not in item:
                raise
            else:
                item["dice"] += _rolled((yield e.next_die), e.next_die)


def _rolls_none(problem: ProblemError, dice: list[int] | None) -> bool:
    """A dice-error without a next die for an empty dice list: the command rolls none."""
    return problem.code == "dice-error" and problem.next_die is None and dice == []


def _rolled(given: Any, die: NextDie) -> list[int]:
    """What a prompt answered for a die: one int, or a list of `count` ints."""
    rolled = [given] if isinstance(given, int) else list(given)
    if len(rolled) != die.count or not all(1 <= r <= die.sides for r in rolled):
        raise ValueError(f"the prompt must give {die.count} d{die.sides}, not {given!r}")
    return rolled
