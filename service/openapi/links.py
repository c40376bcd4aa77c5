"""OpenAPI links from the answers that create a battle to what the battle can be asked.

A created battle's answer (createBattle, forkBattle: 201) holds its id and its keys: the
links say how to call getBattle, postCommand, listEvents, verifyBattle and forkBattle on
it, with its referee key. Clients and schemathesis' stateful tests follow them
(tests/e2e/test_schemathesis.py). Litestar has no parameter for a response's links, so a
route takes `operation_class=CreatesBattle`, which adds them once the Operation is built.
"""

from __future__ import annotations

from dataclasses import dataclass

from litestar.openapi.spec import Link, OpenAPIResponse, Operation

__all__ = ["CreatesBattle", "battle_links"]

_REFEREE = "Bearer {$response.body#/keys/referee}"
_BATTLE_ID = "$response.body#/battle_id"


def battle_links() -> dict[str, Link]:
    """The links of a 201 that answers a new battle."""
    on_battle = {"path.battle_id": _BATTLE_ID, "header.Authorization": _REFEREE}
    return {
        operation_id: Link(
            operation_id=operation_id,
            parameters=dict(on_battle),
            description=f"{what} of the new battle, with its referee key",
        )
        for operation_id, what in (
            ("getBattle", "The view"),
            ("postCommand", "A command"),
            ("listEvents", "The log"),
            ("getStateAtVersion", "The state at a version"),
            ("verifyBattle", "The audit"),
            ("forkBattle", "A fork"),
        )
    }


@dataclass
class CreatesBattle(Operation):
    """An Operation whose 201 answer is a new battle, with the links that follow from it."""

    def __post_init__(self) -> None:
        created = (self.responses or {}).get("201")
        if isinstance(created, OpenAPIResponse):
            created.links = {**(created.links or {}), **battle_links()}
