"""Importing an exported battle: `battle-service import FILE` and `POST /battles/import`.

The file is verified first, as `battle-service verify` does (events.exports.format: the
chain, every revealed die, the trailer's receipt), and nothing is stored unless it
holds. Where the history comes from (service.battles.provenance): a receipt signed by one of
this service's keys is checked against that key; one signed by any other key (a forger
re-signs a rewritten chain with a key placed in the file's header) is refused (422
`export-foreign-key`, naming it), unless the caller asks for it (`allow_foreign`): then
the battle reads "origin not verified by this service" wherever it is vouched for. An
export naming a battle this service holds must match that battle's log.

Only a complete export can be imported: the referee's (or a finished battle's), with
nothing sealed, of a battle that is not a fork (a fork's game starts from its parent's
state, which the file does not hold), whose log this build can fold.

The battle is stored under a new id, with new keys (service.battles.founding, as a creation: an
Idempotency-Key and an integration key work the same). Its `BattleCreated` is the
original's under the new id, with `imported_from`: the original id, its head version
and hash at export, the export's time and receipt, and the ids its server dice were
derived with (domain.battle.ImportedFrom). Every later event of the original follows as
it was (type, data, audience, time, actor, command), chained anew; so the imported
battle's state at every version is the original's. Then a `DiceEpochStarted` commits
the new battle's own seed: the original's unrevealed seed stayed with the service that
exported it. The audit (events.dice_audit) and the narrative recompute the original's
dice with the original's id.

Who may import: whoever may create a battle (POST /battles): anyone, rate limited per
address, or an integration, whose battle it then is; not a battle's key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import partial
from typing import Annotated, Any

import anyio
import msgspec
from litestar import Response, post
from litestar.params import Body, QueryParameter

from domain.battle import BattleCreated, DiceIdSpan, ImportedFrom, Timeline
from domain.rulesets import get_ruleset
from events.envelope import StoredEvent
from events.exports.format import InvalidExport, read_export, verify_export
from service.battles.founding import Founding, FoundingHost, found_once
from service.battles.provenance import NOT_VERIFIED, history_signers, unvouched
from service.battles.signing import ServiceKeys
from service.errors import Unprocessable
from service.http.json_body import IMPORT_BODY_MAX, JSONBodyRequest
from service.http.routes import (
    SECURED,
    AppRequest,
    Authorization,
    IdempotencyKey,
    created,
    location_header,
    problems,
    service_of,
)
from service.openapi.links import CreatesBattle
from service.schemas import BattleCreatedResponse

__all__ = ["IMPORT_ROUTES", "import_battle", "importable"]

MEDIA_TYPE = "application/jsonl"


class _RawBodyRequest(JSONBodyRequest):
    """The import route's request: its body (JSON Lines, not one JSON value) handed to the
    handler as the bytes sent, documented as the export it is."""

    async def json(self) -> Any:
        return await self.body()


def _foreign(keys: list[str]) -> Unprocessable:
    return Unprocessable(
        f"the export's history is signed by key {', '.join(keys)}, which this service does "
        "not hold: its origin cannot be verified (import it with allow_foreign=true to take "
        f"it anyway, marked '{NOT_VERIFIED}')",
        code="export-foreign-key",
    )


def importable(
    lines: Sequence[bytes], signing: ServiceKeys, *, allow_foreign: bool = False
) -> Founding:
    """The founding of an import of these lines, once they verify; `Unprocessable` (422)
    naming why not. Pure but for the CPU it takes: run it off the event loop.

    Where the history comes from (issue 31, item 7): a receipt signed by one of this
    service's keys (current or retired) is checked against that key, not the file's;
    one signed by any other key is refused, naming it, unless `allow_foreign`: then the
    file is checked against its own keys and the battle reads as not verified by this
    service (service.battles.provenance)."""
    held = signing.key_ids
    try:
        header, read, receipt = read_export(lines)
    except InvalidExport as e:
        raise Unprocessable(f"not a readable export: {e}", code="export-unreadable") from e
    signer = None if receipt is None else receipt.key_id  # None: no trailer, which fails below
    ours = signer is not None and signer in held
    if not ours and not allow_foreign:
        raise _foreign([signer or "(none: the file has no receipt)"])
    keys = [key for _, key in signing.public_keys()] if ours else []
    # The lines read above: verify_export reads them as read_export does (the same
    # decoders, the same blank lines skipped), so it finds none unreadable.
    report = verify_export(lines, keys=keys)
    if not report.ok:
        raise Unprocessable(
            f"the export does not verify: {report.first_failure}", code="export-invalid"
        )
    events = [e for e in read if type(e) is StoredEvent]
    if len(events) != len(read) or not events:
        raise Unprocessable(
            f"{len(read) - len(events)} events of this export are sealed: only a complete "
            "export (the referee's, or a finished battle's) can be imported",
            code="export-sealed",
        )
    assert receipt is not None  # the report is ok: the trailer's receipt verified
    try:
        first = msgspec.json.decode(events[0].data, type=BattleCreated)
    except msgspec.MsgspecError as e:
        raise Unprocessable(
            f"the first event is not a BattleCreated: {e}", code="export-unfoldable"
        ) from e
    if first.battle_id != header.battle_id:
        raise Unprocessable(
            f"the header names battle {header.battle_id}, its first event creates "
            f"{first.battle_id}",
            code="export-invalid",
        )
    if first.forked_from is not None:
        raise Unprocessable(
            f"battle {first.battle_id} is a fork of {first.forked_from}: its game starts "
            "from its parent's state, which the export does not hold",
            code="export-fork",
        )
    ruleset = get_ruleset(first.ruleset)
    if ruleset is None:
        raise Unprocessable(f"ruleset {first.ruleset} is not in this build", code="unknown-ruleset")
    timeline = Timeline(ruleset)
    try:
        timeline.extend(e.data for e in events)
    except Exception as e:  # a log this build cannot fold: say so, store nothing
        raise Unprocessable(
            f"this build cannot replay the export: {e}", code="export-unfoldable"
        ) from e
    assert timeline.current is not None
    earlier = first.imported_from.dice_ids if first.imported_from is not None else ()
    # An import of an import: the keys its history came through before, so that an
    # export of a foreign import signed here is not taken for a verified history.
    signers = history_signers(first.imported_from) if first.imported_from is not None else ()
    if not allow_foreign and (foreign := unvouched(signers, held)):
        raise _foreign(foreign)
    return Founding(
        ruleset=ruleset,
        title=first.title,
        options=first.options,
        setup=first.setup,
        sides=list(first.sides),
        client_dice=first.client_dice,
        reveal_hidden_on_end=first.reveal_hidden_on_end,
        pause_on_dispute=first.pause_on_dispute,
        dice_epoch=first.dice_epoch,
        dice_commitment=first.dice_commitment,
        dice_sub_commitments=first.dice_sub_commitments,
        imported_from=ImportedFrom(
            battle_id=first.battle_id,
            version=header.version,
            head_hash=header.head_hash,
            exported_at=header.exported_at,
            receipt_key_id=receipt.key_id,
            receipt_signature=receipt.signature,
            dice_ids=(*earlier, DiceIdSpan(upto=header.version, battle_id=first.battle_id)),
            signers=signers,
        ),
        imported=events[1:],
        next_epoch=max(timeline.current.meta.commitments) + 1,
    )


async def _check_against_log(service: FoundingHost, f: Founding) -> None:
    """An export that claims to come from a battle this service holds must be that
    battle's log: the event at the export's head version must be the stored one (the
    chain binds every event before it). 422 `export-contradicts-log` otherwise."""
    origin = f.imported_from
    assert origin is not None
    stored = await service.store.read(
        origin.battle_id, after=origin.version - 1, limit=1, upto=origin.version
    )
    if not stored:
        head = await service.store.head(origin.battle_id)
        if head is None:
            return  # not a battle of this service: nothing here to check it against
        raise Unprocessable(
            f"the export claims version {origin.version} of battle {origin.battle_id}, "
            f"which this service holds only up to version {head.version}",
            code="export-contradicts-log",
        )
    if stored[0].hash != origin.head_hash:
        raise Unprocessable(
            f"the export's event {origin.version} of battle {origin.battle_id} has hash "
            f"{origin.head_hash[:16]}…, this service's log has {stored[0].hash[:16]}…: "
            "it is not this service's history",
            code="export-contradicts-log",
        )


async def import_battle(
    service: FoundingHost,
    body: bytes,
    idempotency_key: str | None,
    integration_id: str | None,
    allow_foreign: bool = False,
) -> BattleCreatedResponse:
    """Verify the export `body` and store it as a new battle (see the module docstring)."""
    lines = body.split(b"\n")

    async def prepare() -> Founding:
        f = await anyio.to_thread.run_sync(
            partial(importable, lines, service.signing, allow_foreign=allow_foreign)
        )
        await _check_against_log(service, f)
        return f

    # A foreign import asked for is another request than the same file without it.
    request_hash = hashlib.sha256(
        b"import\n" + (b"allow-foreign\n" if allow_foreign else b"") + body
    ).hexdigest()
    return await found_once(
        service, "import\n", request_hash, idempotency_key, integration_id, prepare
    )


@post(
    "/battles/import",
    operation_id="importBattle",
    operation_class=CreatesBattle,
    tags=["battles"],
    summary="Import an exported battle as a new battle; answers its id and access keys",
    description=(
        "The body is an export (`GET /battles/{id}/export`, `battle-service export`) as "
        "JSON Lines. It is verified first (chain, dice, receipt: as `battle-service "
        "verify` does). Its receipt must be signed by one of this service's keys (current "
        "or retired): any other is refused (422 export-foreign-key, naming it) unless "
        "`allow_foreign=true`, and the battle then reads 'origin not verified by this "
        "service' (`origin`) wherever it is vouched for. An export that names a battle of "
        "this service must be its log (422 export-contradicts-log). Only a complete export "
        "(nothing sealed: the referee's, or a finished battle's) of a battle that is not "
        "a fork is taken. The "
        "battle is stored under a new id with new keys; its first event records where it "
        "came from (`imported_from`: the original id, head and receipt), every later "
        "event follows as it was, so its state at every version is the original's, then "
        "a `DiceEpochStarted` commits its own dice seed. Open to whoever may create a "
        "battle: anyone, or an integration (which then follows it); not a battle's key."
    ),
    status_code=201,
    responses=problems(400, 401, 403, 413, 422),
    response_headers=location_header("The new battle: /battles/{battle_id}"),
    security=[{}, *SECURED],
    request_max_body_size=IMPORT_BODY_MAX,
    request_class=_RawBodyRequest,
)
async def import_route(
    request: AppRequest,
    data: Annotated[
        bytes, Body(media_type=MEDIA_TYPE, description="The export, JSON Lines", min_length=1)
    ],
    idempotency_key: IdempotencyKey,
    authorization: Authorization,
    allow_foreign: Annotated[
        bool,
        QueryParameter(
            description="Take an export signed by a key this service does not hold; the "
            "battle then reads 'origin not verified by this service' everywhere it is "
            "vouched for"
        ),
    ] = False,
) -> Response[BattleCreatedResponse]:
    service = service_of(request)
    integration = await service.keys.integration(authorization)
    integration_id = None if integration is None else integration.integration_id
    answer = await import_battle(service, data, idempotency_key, integration_id, allow_foreign)
    return created(answer, f"/battles/{answer.battle_id}")


IMPORT_ROUTES: list[Any] = [import_route]
