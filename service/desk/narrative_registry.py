"""Which teller tells an event: one registry keyed by ruleset and event type.

Each ruleset's module (`service.desk.narrative_<ruleset>`) maps its event types to
tellers; the battle's own events (`service.desk.narrative_battle`) are told alike in every
ruleset; an event without a teller of its own is told by the fallback
(`service.desk.narrative_generic`), which still tells every nested field. A teller gives
the sentence; the details and modifiers are always the fallback's, so a teller cannot
drop a figure. `register` adds a teller from elsewhere (disputes, issue 36).
"""

from __future__ import annotations

from typing import Any

from service.desk import (
    narrative_battle,
    narrative_phased,
    narrative_quickstart,
    narrative_skirmish,
    narrative_tactical,
    narrative_warfare,
)
from service.desk.narrative_generic import SUMMARY_CHARS, Teller, Told, tell_generic
from service.desk.narrative_words import cut

__all__ = ["ANY_RULESET", "register", "tell_event", "teller"]

ANY_RULESET = ""  # the key of tellers of events every ruleset has (the battle's own)

_TELLERS: dict[str, dict[str, Teller]] = {
    ANY_RULESET: dict(narrative_battle.TELLERS),
    "phased": dict(narrative_phased.TELLERS),
    "quickstart": dict(narrative_quickstart.TELLERS),
    "skirmish": dict(narrative_skirmish.TELLERS),
    "tactical": dict(narrative_tactical.TELLERS),
    "warfare": dict(narrative_warfare.TELLERS),
}


def register(event_type: str, told_by: Teller, ruleset: str = ANY_RULESET) -> None:
    """Tell `event_type` (of `ruleset`, or of every ruleset) with `told_by`."""
    _TELLERS.setdefault(ruleset, {})[event_type] = told_by


def teller(ruleset: str, event_type: str) -> Teller | None:
    """The teller of `event_type` in `ruleset`: the ruleset's own, else the battle's."""
    return _TELLERS.get(ruleset, {}).get(event_type) or _TELLERS[ANY_RULESET].get(event_type)


def tell_event(ruleset: str, event_type: str, data: Any) -> Told:
    """`data` (an event's decoded JSON) told: its teller's sentence, the fallback's
    details and modifiers. A teller that fails on an event shaped otherwise than it
    expects (an older version's) leaves the fallback's summary."""
    if not isinstance(data, dict):
        return Told(summary="")
    told = tell_generic(data)
    told_by = teller(ruleset, event_type)
    if told_by is None:
        return told
    try:
        said = told_by(data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return told  # why: a stored event of an older shape still reads, as the fallback
    if isinstance(said, Told):
        return said
    return Told(
        summary=cut(said, SUMMARY_CHARS * 3), details=told.details, modifiers=told.modifiers
    )
