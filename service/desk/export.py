"""A battle exported as JSON Lines (`GET /battles/{id}/export`, `battle-service export`).

The format is `events.exports.format`'s: a header, every event as the reader is given it
(sealed where it may not see it), then the service's signed receipt of the head. The
head is fixed when the export starts: events appended meanwhile are not in it, so the
file always ends at the version its header and receipt name. Events are read a page at
a time, so a long battle streams without being held whole.
"""

from __future__ import annotations

import datetime
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from litestar import get
from litestar.response import Stream

from domain.actors import Actor
from events.exports.format import (
    EXPORT_FORMAT,
    ExportHeader,
    ExportKey,
    ExportReader,
    encode_line,
)
from events.receipts import b64url
from service.battles.provenance import battle_provenance
from service.battles.signing import public_key_raw
from service.http.routes import SECURED, AppRequest, Authorization, BattleId, problems, service_of

if TYPE_CHECKING:
    from service.battles.service import BattleService

__all__ = ["EXPORT_ROUTES", "export_lines"]

_PAGE = 1000
MEDIA_TYPE = "application/jsonl"


async def export_lines(
    service: BattleService, battle_id: str, actor: Actor | None
) -> AsyncIterator[bytes]:
    """The export's lines for `actor` (None: the whole log, as the operator's CLI reads it).
    Raises the service's errors (NotFound, ...) before the first line."""
    reader = actor or Actor(role="referee")
    loaded = await service.loaded(battle_id)
    head, head_hash = loaded.battle.version, loaded.head_hash
    header = ExportHeader(
        format=EXPORT_FORMAT,
        battle_id=battle_id,
        ruleset=loaded.battle.meta.created.ruleset,
        version=head,
        head_hash=head_hash,
        reader=ExportReader(role=reader.role, side=reader.side),
        exported_at=datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"),
        public_keys=[
            ExportKey(key_id=key_id, public_key=b64url(public_key_raw(key)))
            for key_id, key in service.signing.public_keys()
        ],
        origin=await battle_provenance(service, battle_id),
    )
    receipt = service.signing.receipt(battle_id, head, head_hash)
    return _lines(service, battle_id, reader, header, receipt)


async def _lines(
    service: BattleService, battle_id: str, reader: Actor, header: ExportHeader, receipt: Any
) -> AsyncIterator[bytes]:
    yield encode_line(header)
    after = 0
    while after < header.version:
        page = await service.events(battle_id, reader, after, min(_PAGE, header.version - after))
        if not page.events:
            break
        chunk = []
        for ev in page.events:
            if ev.version > header.version:
                break
            chunk.append(encode_line(ev))
        yield b"".join(chunk)
        after = page.events[-1].version
    yield encode_line({"receipt": receipt})


@get(
    "/battles/{battle_id:str}/export",
    operation_id="exportBattle",
    tags=["battles"],
    summary="The battle as JSON Lines: a header, every event as the caller may see it, a receipt",
    description=(
        "One JSON object per line: the header (format `battle-service/export/v1`, battle, "
        "ruleset, head version and hash, the reader's role and side, the service's public "
        "keys), then every event up to that head exactly as `GET /battles/{id}/events` "
        'gives it to the caller (sealed where it may not see it), then `{"receipt": …}`, '
        "the service's signed receipt of the head. `battle-service verify FILE` checks it "
        "with no server and no database."
    ),
    responses=problems(400, 401, 403, 404),
    security=SECURED,
    media_type=MEDIA_TYPE,
)
async def export_battle(
    request: AppRequest, battle_id: BattleId, authorization: Authorization
) -> Stream:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    lines = await export_lines(service, battle_id, principal.actor)
    return Stream(
        lines,
        media_type=MEDIA_TYPE,
        headers={"Content-Disposition": f'attachment; filename="battle-{battle_id}.jsonl"'},
    )


EXPORT_ROUTES: list[Any] = [export_battle]
