"""A table that plays a battle over HTTP from data alone, as a VTT would.

The referee creates the battle and mints one player key per side; from then on every
command is chosen from what the battle says it waits for (`awaiting` in each player's own
view, the referee's for the referee's calls), moves from `GET /battles/{id}/reach/{unit}`,
and table dice from the `next_die` of a 422 `dice-error`: nothing is parsed from text and
nothing about the ruleset is hard-coded here. The choice of a command from one prompt is
the ruleset's policy (tests/support/table_policies/<ruleset>.py), which sees only the
prompt, the reach answer and a random source.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
import msgspec

from domain.prompts import Prompt, Reach

__all__ = ["Policy", "Send", "TablePlay", "play_over_http"]

_prompts = msgspec.json.Decoder(list[Prompt])
_reach = msgspec.json.Decoder(Reach)


class Send(Protocol):
    """A prelude's way to send a command: as `who` ("referee" or a side), with `dice`
    (table dice) when given."""

    def __call__(
        self, who: str, command: dict[str, Any], dice: list[int] | None = None
    ) -> dict[str, Any]: ...


class Policy(Protocol):
    """A ruleset's table policy (tests/support/table_policies/<ruleset>.py)."""

    def pick(self, prompts: list[Prompt], rng: random.Random) -> Prompt | None: ...

    def choose(
        self, prompt: Prompt, reach: Callable[[str], Reach] | None, rng: random.Random
    ) -> dict[str, Any]: ...


@dataclass
class TablePlay:
    """What happened: the commands each key sent, and what the log says about who sent them."""

    battle_id: str
    referee_key: str
    commands: int = 0
    dice_asked: int = 0  # 422 dice-error answers with `next_die` the table answered
    revoked_side: str | None = None
    revoked_at_version: int | None = None  # the battle's version when the key was revoked
    refused_after_revoke: int = 0  # requests with the revoked key that got 401
    labels: dict[str, str] = field(default_factory=dict)  # side -> label of its live key
    answers: list[dict[str, Any]] = field(default_factory=list)


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _mint(http: httpx.Client, battle_id: str, referee: str, side: str, label: str) -> str:
    r = http.post(
        f"/battles/{battle_id}/keys",
        json={"role": "side", "side": side, "label": label},
        headers=_bearer(referee),
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["label"] == label and body["side"] == side, body
    return str(body["key"])


def _awaiting(http: httpx.Client, battle_id: str, key: str) -> tuple[bool, list[Prompt]]:
    r = http.get(f"/battles/{battle_id}", headers=_bearer(key))
    assert r.status_code == 200, r.text
    body = r.json()
    return bool(body["over"]), _prompts.decode(msgspec.json.encode(body["awaiting"]))


def play_over_http(
    http: httpx.Client,
    *,
    ruleset: str,
    setup: dict[str, Any],
    policy: Policy,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    table_dice: bool = False,
    revoke_at: int | None = 10,
    referee_last: bool = False,
    prelude: Callable[[Send, dict[str, Any]], None] | None = None,
    max_commands: int = 3000,
) -> TablePlay:
    """Create a battle, mint a key per side, play it to its end from `awaiting` alone.

    With `revoke_at`, the first side to act after that many commands has its key revoked:
    the old key must get 401 from then on, and the referee mints that player a new one."""
    rng = random.Random(seed)
    created = http.post(
        "/battles",
        json={
            "ruleset": ruleset,
            "setup": setup,
            "options": options or {},
            "client_dice": "any" if table_dice else "none",
        },
    )
    assert created.status_code == 201, created.text
    body = created.json()
    bid, referee = body["battle_id"], body["keys"]["referee"]
    result = TablePlay(battle_id=bid, referee_key=referee)
    keys: dict[str, str] = {}
    for side in body["keys"]["sides"]:
        result.labels[side] = f"player of {side}"
        keys[side] = _mint(http, bid, referee, side, result.labels[side])
    revoked_key: str | None = None

    def key_for(prompt: Prompt) -> str:
        if prompt.role == "referee":
            return referee
        return keys[prompt.side or next(iter(keys))]  # a window open to every side: the first

    # Steps a prompt cannot list (a skirmish's free setup values: leaders, placement...),
    # scripted as a table would give them, each with the key of whoever gives it (and the
    # table's dice where it rolls: without them the server rolls, and the run is not seeded).
    def send(who: str, command: dict[str, Any], dice: list[int] | None = None) -> dict[str, Any]:
        payload: dict[str, Any] = {"command": command}
        if dice is not None and table_dice:  # a battle on server dice rolls them itself
            payload["dice"] = dice
        r = http.post(
            f"/battles/{bid}/commands",
            json=payload,
            headers=_bearer(referee if who == "referee" else keys[who]),
        )
        assert r.status_code == 200, f"prelude {command}: {r.text}"
        return dict(r.json())

    if prelude is not None:
        prelude(send, http.get(f"/battles/{bid}", headers=_bearer(referee)).json())
    while result.commands < max_commands:
        over, ref_prompts = _awaiting(http, bid, referee)
        if over:
            assert ref_prompts == [], "a battle that is over waits for nothing"
            break
        # Each player reads its own prompts: the referee's list is only used for the
        # referee's own calls, so a side never acts on a prompt it was not shown.
        shown: list[Prompt] = []
        for side, key in keys.items():
            _, mine = _awaiting(http, bid, key)
            shown += [p for p in mine if p.role == "side" and p.side in (side, None)]
        if not (referee_last and shown):
            shown += [p for p in ref_prompts if p.role == "referee"]
        prompt = policy.pick(shown, rng)
        assert prompt is not None, f"not over but nothing to answer: {shown}"
        if (
            revoke_at is not None
            and revoked_key is None
            and result.commands >= revoke_at
            and prompt.role == "side"
        ):
            side = prompt.side or next(iter(keys))
            revoked_key = keys[side]
            listed = http.get(f"/battles/{bid}/keys", headers=_bearer(referee)).json()
            key_id = next(k["key_id"] for k in listed["keys"] if k["label"] == result.labels[side])
            r = http.delete(f"/battles/{bid}/keys/{key_id}", headers=_bearer(referee))
            assert r.status_code == 204, r.text
            result.revoked_side = side
            result.revoked_at_version = int(
                http.get(f"/battles/{bid}", headers=_bearer(referee)).json()["version"]
            )
            result.labels[side] = f"new player of {side}"
            keys[side] = _mint(http, bid, referee, side, result.labels[side])
        key = key_for(prompt)

        def reach(unit: str, key: str = key) -> Reach:
            r = http.get(f"/battles/{bid}/reach/{unit}", headers=_bearer(key))
            assert r.status_code == 200, r.text
            return _reach.decode(r.content)

        command = policy.choose(prompt, reach, rng)
        assert command["type"] in prompt.commands, (command, prompt)
        dice: list[int] = []
        while True:
            payload: dict[str, Any] = {"command": command}
            if table_dice:
                payload["dice"] = dice
            r = http.post(f"/battles/{bid}/commands", json=payload, headers=_bearer(key))
            if r.status_code == 422 and r.json().get("next_die"):
                need = r.json()["next_die"]
                result.dice_asked += 1
                dice += [rng.randint(1, need["sides"]) for _ in range(need["count"])]
                continue
            break
        assert r.status_code == 200, f"{prompt} -> {command}: {r.status_code} {r.text}"
        answer = r.json()
        # the answer says what the battle awaits now, in the sender's view: no second read
        _, now = _awaiting(http, bid, key)
        assert _prompts.decode(msgspec.json.encode(answer["awaiting"])) == now
        result.answers.append(answer)
        result.commands += 1
        # A few probes only: auth failures are rate limited per address (a lockout).
        if revoked_key is not None and result.refused_after_revoke < 3:
            gone = http.get(f"/battles/{bid}", headers=_bearer(revoked_key))
            assert gone.status_code == 401, gone.text
            result.refused_after_revoke += 1
    else:
        raise AssertionError(f"not over after {max_commands} commands")
    return result
