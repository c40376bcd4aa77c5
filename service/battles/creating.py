"""Creating a battle from a ruleset and a setup, or forking one at a version: each
request checked and turned into a `Founding` (service.battles.founding), which is then
founded once per Idempotency-Key.

A create's options and setup are decoded by its ruleset before anything is stored; ones
the ruleset refuses but another ruleset takes are a 422 (the OpenAPI document gives them
as any ruleset's), others a 400.

A fork is a new battle whose `BattleCreated` names the parent, the parent version it
branched at and the hash of the parent's event at that version; its game starts as the
parent's state right after that version. It gets its own keys, its own dice seed and its
own hash chain; the parent is not touched. Its keys may read the parent's log up to that
version (`service.http.origin`), so its players can audit how their start came about.
Only the parent's referee may fork it.

`reveal_hidden_on_end` is pinned in `BattleCreated` like `client_dice`: a fork takes the
parent's unless the fork request sets it.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from domain.battle import MAX_GENERATIONS, Ancestor
from domain.decider import Ruleset
from domain.rulesets import RULESETS, get_ruleset
from events.chain import canonical
from service.battles.founding import Founding, FoundingHost, found_once
from service.battles.keys import Principal
from service.decoding import read_json
from service.errors import BadRequest, Forbidden, NotFound, Unprocessable
from service.schemas import BattleCreatedResponse, CreateBattleRequest, ForkBattleRequest

__all__ = ["create_battle", "fork_battle"]


async def create_battle(
    service: FoundingHost,
    req: CreateBattleRequest,
    idempotency_key: str | None,
    integration_id: str | None,
) -> BattleCreatedResponse:
    """A new battle under `req.ruleset` with `req.setup`."""

    async def prepare() -> Founding:
        ruleset = get_ruleset(req.ruleset)
        if ruleset is None:
            raise NotFound(
                f"there is no ruleset {req.ruleset!r}; known: {sorted(RULESETS)}",
                code="unknown-ruleset",
            )
        try:
            options = msgspec.convert(req.options, ruleset.options_type)
        except msgspec.ValidationError as e:
            _of_another_ruleset(ruleset, "options", req.options, e)
            raise BadRequest(f"invalid options: {e}", code="invalid-options") from e
        try:
            setup = msgspec.convert(req.setup, ruleset.setup_type)
        except msgspec.ValidationError as e:
            _of_another_ruleset(ruleset, "setup", req.setup, e)
            raise BadRequest(f"invalid setup: {e}", code="invalid-setup") from e
        ruleset.initial_state(setup, options)  # raises InvalidSetup before anything is stored
        return Founding(
            ruleset=ruleset,
            title=req.title,
            options=msgspec.to_builtins(options),
            setup=msgspec.to_builtins(setup),
            sides=ruleset.side_ids(setup),
            client_dice=req.client_dice,
            reveal_hidden_on_end=req.reveal_hidden_on_end,
            pause_on_dispute=req.pause_on_dispute,
        )

    # The hash is taken before the setup is checked: a setup nested too deeply is a 400.
    request_hash = hashlib.sha256(read_json(canonical, {"create": req}, "the setup")).hexdigest()
    return await found_once(service, "", request_hash, idempotency_key, integration_id, prepare)


def _of_another_ruleset(
    ruleset: Ruleset[Any, Any, Any, Any, Any],
    what: str,
    value: Any,
    error: msgspec.ValidationError,
) -> None:
    """Refuse with 422 a setup (or options) that `ruleset` refuses but another ruleset
    takes: the OpenAPI document gives `setup` and `options` as any ruleset's, so such a
    request is schema-valid, and a schema-valid request is never a 400 (as a command of
    another ruleset: service.battles.command_decoding). Only asked of a value already refused."""
    others = []
    for other in RULESETS.values():
        if other is ruleset:
            continue
        try:
            msgspec.convert(value, other.setup_type if what == "setup" else other.options_type)
        except msgspec.ValidationError:
            continue
        others.append(other.id)
    if others:
        raise Unprocessable(
            f"these {what} are {', '.join(others)}'s, not {ruleset.id}'s ({error})",
            code=f"{what}-of-another-ruleset",
        )


async def fork_battle(
    service: FoundingHost,
    parent_id: str,
    principal: Principal,
    req: ForkBattleRequest,
    idempotency_key: str | None,
) -> BattleCreatedResponse:
    """A new battle that starts as `parent_id` right after version `req.at_version`.

    Only the parent's referee may fork: the fork's referee sees everything its state
    holds, hidden units included.
    """
    if principal.actor.role != "referee":
        raise Forbidden("only the battle's referee may fork it", code="referee-only")

    async def prepare() -> Founding:
        parent = await service.loaded(parent_id)
        current = parent.timeline.version
        if not 1 <= req.at_version <= current:
            raise Unprocessable(
                f"at_version {req.at_version} is outside 1..{current}",
                code="version-out-of-range",
                current_version=current,
            )
        state = await service.state_at(parent_id, req.at_version)
        created = state.meta.created
        at = await service.store.read(parent_id, after=req.at_version - 1, upto=req.at_version)
        reveal = req.reveal_hidden_on_end
        ancestry = (
            Ancestor(battle_id=parent_id, version=req.at_version, head_hash=at[0].hash),
            *created.lineage(),
        )
        if len(ancestry) > MAX_GENERATIONS:
            raise Unprocessable(
                f"battle {parent_id} is a fork {MAX_GENERATIONS} generations deep: fork "
                "an earlier generation",
                code="fork-too-deep",
            )
        return Founding(
            ruleset=parent.ruleset,
            title=req.title if req.title is not None else created.title,
            options=created.options,
            setup=created.setup,
            sides=list(created.sides),
            client_dice=req.client_dice if req.client_dice is not None else created.client_dice,
            reveal_hidden_on_end=reveal if reveal is not None else created.reveal_hidden_on_end,
            pause_on_dispute=created.pause_on_dispute,
            forked_from=parent_id,
            forked_at=req.at_version,
            forked_head_hash=at[0].hash,
            ancestry=ancestry,
            fork_base=state.game,
        )

    request_hash = hashlib.sha256(canonical({"fork": req, "parent": parent_id})).hexdigest()
    return await found_once(
        service, f"fork\n{parent_id}\n", request_hash, idempotency_key,
        principal.integration_id, prepare,
    )  # fmt: skip
