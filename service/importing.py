"""Importing an exported battle: `battle-service import FILE` and `POST /battles/import`.

The file is verified first, exactly as `battle-service verify` does with the file's own
keys (events.export_format: the chain, every revealed die, the trailer's receipt), and
nothing is stored unless it holds. Only a complete export can be imported: the
referee's (or a finished battle's), with nothing sealed, of a battle that is not a fork
(a fork's game starts from its parent's state, which the file does not hold), whose log
this build can fold.

The battle is stored under a new id, with new keys (service.founding, as a creation: an
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
from typing import Annotated, Any

import anyio
import msgspec
from litestar import Response, post
from litestar.params import Body

from domain.battle import BattleCreated, DiceIdSpan, ImportedFrom, Timeline
from domain.rulesets import get_ruleset
from events.envelope import StoredEvent
from events.export_format import InvalidExport, read_export, verify_export
from service.errors import Unprocessable
from service.founding import Founding, FoundingHost, found_once
from service.json_body import IMPORT_BODY_MAX, JSONBodyRequest
from service.openapi_links import CreatesBattle
from service.routes import (
    SECURED,
    AppRequest,
    Authorization,
    IdempotencyKey,
    created,
    location_header,
    problems,
    service_of,
)
from service.schemas import BattleCreatedResponse

__all__ = ["IMPORT_ROUTES", "import_battle", "importable"]

MEDIA_TYPE = "application/jsonl"


class _RawBodyRequest(JSONBodyRequest):
    """The import route's request: its body (JSON Lines, not one JSON value) handed to the
    handler as the bytes sent, documented as the export it is."""

    async def json(self) -> Any:
        return await self.body()


def importable(lines: Sequence[bytes]) -> Founding:
    """The founding of an import of these lines, once they verify; `Unprocessable` (422)
    naming why not. Pure but for the CPU it takes: run it off the event loop."""
    try:
        report = verify_export(lines)
    except InvalidExport as e:
        raise Unprocessable(f"not a readable export: {e}", code="export-unreadable") from e
    if not report.ok:
        raise Unprocessable(
            f"the export does not verify: {report.first_failure}", code="export-invalid"
        )
    header, read, receipt = read_export(lines)
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
    return Founding(
        ruleset=ruleset,
        title=first.title,
        options=first.options,
        setup=first.setup,
        sides=list(first.sides),
        client_dice=first.client_dice,
        reveal_hidden_on_end=first.reveal_hidden_on_end,
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
        ),
        imported=events[1:],
        next_epoch=max(timeline.current.meta.commitments) + 1,
    )


async def import_battle(
    service: FoundingHost,
    body: bytes,
    idempotency_key: str | None,
    integration_id: str | None,
) -> BattleCreatedResponse:
    """Verify the export `body` and store it as a new battle (see the module docstring)."""
    lines = body.split(b"\n")

    async def prepare() -> Founding:
        return await anyio.to_thread.run_sync(importable, lines)

    request_hash = hashlib.sha256(b"import\n" + body).hexdigest()
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
        "verify` does with the file's keys); only a complete export (nothing sealed: the "
        "referee's, or a finished battle's) of a battle that is not a fork is taken. The "
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
) -> Response[BattleCreatedResponse]:
    service = service_of(request)
    integration = await service.keys.integration(authorization)
    integration_id = None if integration is None else integration.integration_id
    answer = await import_battle(service, data, idempotency_key, integration_id)
    return created(answer, f"/battles/{answer.battle_id}")


IMPORT_ROUTES: list[Any] = [import_route]
