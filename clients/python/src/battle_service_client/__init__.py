"""A typed Python client of the battle service (issue 35): create and open battles,
command and batch them with idempotency keys and expected versions, follow them live over
SSE (resumed after a drop, each event once and in order, `awaiting` changes told), play
table dice from `next_die`, read reach, manage player keys, verify webhook signatures.
A view's `state`, an event (and its `data`) and a command are the per-ruleset classes of
`battle_service_client.schema`, generated from the service's OpenAPI document.

    from battle_service_client import BattleClient

    with BattleClient("http://127.0.0.1:8000") as client:
        created = client.create_battle("quickstart", setup)
        battle = client.battle(created.battle_id, created.keys.referee)
        print(battle.view().awaiting)
"""

from battle_service_client import schema
from battle_service_client.async_client import (
    AsyncBattle,
    AsyncBattleClient,
    AsyncDicePrompt,
    AsyncKeys,
    AsyncTableDice,
)
from battle_service_client.errors import ProblemError
from battle_service_client.models import (
    AwaitingChange,
    BattleView,
    CommandResult,
    Created,
    CreationKeys,
    DiceNeed,
    Event,
    EventActor,
    Excluded,
    KeyInfo,
    MintedKey,
    NextDie,
    Prompt,
    Reach,
    ReachSquare,
    SealedEvent,
    UnknownEvent,
)
from battle_service_client.protocol import CommandBody
from battle_service_client.schema import Command, State
from battle_service_client.sse import StreamItem
from battle_service_client.sync_client import Battle, BattleClient, DicePrompt, Keys, TableDice
from battle_service_client.webhooks import WebhookError, verify_webhook

__all__ = [
    "AsyncBattle",
    "AsyncBattleClient",
    "AsyncDicePrompt",
    "AsyncKeys",
    "AsyncTableDice",
    "AwaitingChange",
    "Battle",
    "BattleClient",
    "BattleView",
    "Command",
    "CommandBody",
    "CommandResult",
    "Created",
    "CreationKeys",
    "DiceNeed",
    "DicePrompt",
    "Event",
    "EventActor",
    "Excluded",
    "KeyInfo",
    "Keys",
    "MintedKey",
    "NextDie",
    "ProblemError",
    "Prompt",
    "Reach",
    "ReachSquare",
    "SealedEvent",
    "State",
    "StreamItem",
    "TableDice",
    "UnknownEvent",
    "WebhookError",
    "schema",
    "verify_webhook",
]
__version__ = "0.1.0"
