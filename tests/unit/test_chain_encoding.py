"""`encode_event`: the stored form of an event is msgspec's compact JSON, tag first."""

from __future__ import annotations

import msgspec

from events.chain import encode_event


class Moved(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="Moved"):
    squad: str
    to: tuple[int, int]


def test_an_event_is_stored_as_compact_json_with_its_type_first() -> None:
    assert encode_event(Moved(squad="n1", to=(3, 4))) == b'{"type":"Moved","squad":"n1","to":[3,4]}'
