"""The table page marks its own log's undone events between reads
(service/desk/table/table_assets/undone.js, a module without imports, run in Node): as
the service's log does (domain.battle.Timeline.undone), an undo marks the events after
its target but never those it does not take back (`NEVER_UNDONE`: seeds, dice epochs,
client seeds, disputes), nor those sealed for the reader."""

from __future__ import annotations

import json
from typing import Any

from domain.battle import BATTLE_EVENT_TYPES, NEVER_UNDONE
from tests.support.node_tools import ROOT, in_module

UNDONE = ROOT / "service" / "desk" / "table" / "table_assets" / "undone.js"


def _node(body: str) -> Any:
    return in_module(UNDONE, body)


def test_the_page_keeps_what_the_service_keeps_through_an_undo() -> None:
    assert set(_node("console.log(JSON.stringify([...m.NEVER_UNDONE]));")) == NEVER_UNDONE


def test_an_undo_marks_every_event_after_it_but_the_kept_and_the_sealed() -> None:
    types = [*sorted(BATTLE_EVENT_TYPES - {"BattleCreated"}), "SquadMoved"]
    events = [{"version": 1, "type": "BattleCreated"}]
    events += [{"version": v, "type": t} for v, t in enumerate(types, 2)]
    events.append({"version": len(events) + 1, "sealed": True})
    marked = _node(
        f"const events = {json.dumps(events)}; m.markUndone(events, 1);"
        "console.log(JSON.stringify(events.filter((e) => e.undone).map((e) => e.type)));"
    )
    assert set(marked) == {"BattleUndone", "RulingRecorded", "SquadMoved"}
