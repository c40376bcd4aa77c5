"""A quickstart battle through battle_service_client, as a table would play it.

    pip install ./clients/python
    python clients/python/examples/play.py http://127.0.0.1:8000

The referee creates a battle with table dice, rolls priority by asking for each die the
service names (`next_die`), mints a player key for the side that won it, and that player
reads what the battle awaits, where its squad can go (reach), and moves, ends the step
and attacks in one batch. The state, the commands and the events are the classes
generated from the service's OpenAPI document (`battle_service_client.schema`), so a
misspelt field or a command of another ruleset is a type error. Prints one JSON line of
what happened. Checked with `mypy --strict` and run by tests/e2e/test_python_library.py.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from battle_service_client import BattleClient, Event, NextDie, Prompt
from battle_service_client.schema import (
    QuickstartAttack,
    QuickstartEndStep,
    QuickstartEventOut,
    QuickstartMoveSquad,
    QuickstartRollForPriority,
    QuickstartSquadMoved,
    QuickstartState,
)

SETUP: dict[str, Any] = {
    "sides": ["north", "south"],
    "width": 8,
    "height": 8,
    "squads": [
        {"id": "n1", "side": "north", "kind": "soldier", "level": 1, "x": 1, "y": 1},
        {"id": "s1", "side": "south", "kind": "soldier", "level": 1, "x": 6, "y": 6},
    ],
}


def roll(die: NextDie) -> list[int]:
    """The table's dice: here a random roll; a VTT would ask the player."""
    return [random.randint(1, die.sides) for _ in range(die.count)]


def main(base_url: str) -> dict[str, Any]:
    asked: list[str] = []

    def table_roll(die: NextDie) -> list[int]:
        asked.append(f"d{die.sides} {die.purpose}")
        return roll(die)

    with BattleClient(base_url) as client:
        created = client.create_battle("quickstart", SETUP, client_dice="any")
        referee = client.battle(created.battle_id, created.keys.referee, track_version=True)
        referee.with_table_dice(table_roll).command(QuickstartRollForPriority())
        state = referee.view().state
        assert isinstance(state, QuickstartState)  # a quickstart battle's: typed from here
        side = state.active_side
        assert side is not None  # priority was rolled: a side acts
        mine, theirs = ("n1", "s1") if side == "north" else ("s1", "n1")
        player_key = referee.keys.mint("side", "Alice", side=side)
        player = client.battle(created.battle_id, player_key.key)
        prompts: list[Prompt] = player.view().awaiting
        reach = player.reach(mine)
        foe = next(s for s in state.squads if s.id == theirs)
        # the reachable square nearest the foe, not on it
        square = min(
            (q for q in reach.squares if (q.x, q.y) != (foe.x, foe.y)),
            key=lambda q: max(abs(q.x - foe.x), abs(q.y - foe.y)),
        )
        turn = player.with_table_dice(table_roll).batch(
            [
                QuickstartMoveSquad(squad=mine, x=square.x, y=square.y),
                QuickstartEndStep(),
                QuickstartAttack(squads=[mine], targets=[theirs]),
            ]
        )
        log = referee.events()
        return {
            "battle_id": created.battle_id,
            "side": side,
            "awaited": sorted({c for p in prompts for c in p.commands}),
            "asked": asked,
            "version": turn.version,
            "appended": [e.type for e in turn.events if isinstance(e, Event)],
            "moved": [  # an event's data in its own class: SquadMoved's fields
                [e.data.squad, e.data.x, e.data.y]
                for e in turn.events
                if isinstance(e, QuickstartEventOut) and isinstance(e.data, QuickstartSquadMoved)
            ],
            "labels": sorted(
                {e.actor.label for e in log if isinstance(e, Event) and e.actor if e.actor.label}
            ),
        }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")))
