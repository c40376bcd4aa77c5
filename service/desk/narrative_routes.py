"""`GET /battles/{id}/narrative`: the audit narrative (service.desk.narrative) as JSON, or as
Markdown for a person when the request's `Accept` asks for `text/markdown`."""

from __future__ import annotations

import json
from typing import Annotated, Any

from litestar import Response, get
from litestar.params import QueryParameter

from service.desk.narrative import Narrative, NarrativeEntry, narrate
from service.desk.narrative_words import cut
from service.http.routes import (
    MAX_VERSION,
    SECURED,
    AppRequest,
    Authorization,
    BattleId,
    problems,
    service_of,
)

__all__ = ["NARRATIVE_ROUTES", "to_markdown"]

MARKDOWN = "text/markdown"


def _value(v: Any) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return cut(text, 80)


def _entry(e: NarrativeEntry) -> list[str]:
    versions = (
        f"v{e.first_version}"
        if e.first_version == e.last_version
        else f"v{e.first_version}–{e.last_version}"
    )
    who = "hidden from you" if not e.role else e.role + (f" ({e.side})" if e.side else "")
    lines = [f"## {versions} · {who}" + (f" · {e.recorded_at}" if e.recorded_at else ""), ""]
    for ev in e.events:
        if ev.hidden:
            lines.append(f"- v{ev.version}: a hidden event")
            continue
        undone = " *(undone)*" if ev.undone else ""
        lines.append(f"- **{ev.type}** (v{ev.version}){undone}: {ev.summary}".rstrip(": "))
        lines += [f"  - {d}" for d in ev.details]
        for d in ev.dice:
            values = ", ".join(map(str, d.values)) or "none"  # a count of none: its reason is above
            lines.append(
                f"  - dice: d{d.sides} {values} for {d.purpose or '—'} ({d.source}, {d.status})"
            )
        lines += [f"  - modifier: {m}" for m in ev.modifiers]
        lines += [f"  - rule: {r}" for r in ev.rules]
        lines += [f"  - reason: {r}" for r in ev.reasons]
    if e.changes:
        lines.append("- changed:")
        lines += [f"  - `{c.path}`: {_value(c.before)} → {_value(c.after)}" for c in e.changes]
        if e.changes_left_out:
            lines.append(f"  - … and {e.changes_left_out} more")
    lines.append("")
    return lines


def to_markdown(n: Narrative) -> str:
    lines = [
        f"# Battle {n.battle_id} ({n.ruleset}): versions {n.from_version}–{n.to_version} "
        f"of {n.version}",
        "",
    ]
    if n.origin is not None and n.origin.note is not None:  # a foreign import: say so first
        lines += [f"> **{n.origin.note}**", ""]
    for e in n.entries:
        lines += _entry(e)
    if n.next_from is not None:
        lines.append(f"*More from version {n.next_from} (`?from={n.next_from}`).*")
    return "\n".join(lines).rstrip() + "\n"


@get(
    "/battles/{battle_id:str}/narrative",
    operation_id="getNarrative",
    tags=["battles"],
    summary="The log told command by command: who, dice and whether they verify, rules, changes",
    description=(
        "One entry per command, in order, as the caller may see the battle: who ordered "
        "it and when, each event with its fields, every die with its source and whether "
        "it verifies (`verified`, `mismatch`, `pending` while its seed is unrevealed, "
        "`table`), the rules, reasons and modifiers the events record, and what changed "
        "in the caller's view of the state. Events hidden from the caller are told as "
        "hidden. `Accept: text/markdown` answers the same as Markdown."
    ),
    responses=problems(400, 401, 403, 404),
    security=SECURED,
)
async def get_narrative(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    start: Annotated[
        int, QueryParameter(name="from", ge=1, le=MAX_VERSION, description="First version")
    ] = 1,
    end: Annotated[
        int | None,
        QueryParameter(name="to", ge=1, le=MAX_VERSION, required=False, description="Last"),
    ] = None,
    limit: Annotated[
        int, QueryParameter(ge=1, le=200, description="At most this many entries")
    ] = 50,
) -> Response[Narrative]:
    service = service_of(request)
    principal = await service.keys.resolve(authorization, battle_id)
    narrative = await narrate(service, battle_id, principal.actor, start, end, limit)
    # Read from the headers, not declared as a parameter: the document describes the
    # JSON answer, and Markdown is the same narrative told for a person (see description).
    if MARKDOWN in request.headers.get("accept", ""):
        return Response(to_markdown(narrative), media_type=f"{MARKDOWN}; charset=utf-8")  # type: ignore[arg-type]
    return Response(narrative)


NARRATIVE_ROUTES: list[Any] = [get_narrative]
