"""Who gives a command or reads a battle, and which events each of them may see."""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = ["ALL", "REFEREE", "Actor", "Role", "can_see", "side_audience"]

Role = Literal["referee", "side", "observer"]

# Audiences of an event, as stored in its envelope: everyone, the referee only,
# or one side (and the referee), written "side:<side id>".
ALL = "all"
REFEREE = "referee"


def side_audience(side: str) -> str:
    return f"side:{side}"


class Actor(msgspec.Struct, frozen=True, kw_only=True):
    """The caller as the domain knows it: a role and, for a side, which side."""

    role: Role
    side: str | None = None
    name: str | None = None

    @property
    def is_referee(self) -> bool:
        return self.role == "referee"


def can_see(actor: Actor, audience: str) -> bool:
    """Whether `actor` may see an event addressed to `audience`."""
    if audience == ALL or actor.role == "referee":
        return True
    return actor.role == "side" and actor.side is not None and audience == side_audience(actor.side)
