"""Revealing a battle's dice seed: the events that reveal the epoch's seeds and commit
the next epoch's (on request, or when the battle is over), and the answer of
`POST /battles/{id}/dice/reveal` taken from the command's."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import ALL, Actor
from domain.battle import Battle, DiceSeedRevealed, DiceSubSeedRevealed
from domain.dice import commitment
from service.battles.dice_secrets import DiceSecrets
from service.battles.repository import Loaded
from service.errors import Forbidden
from service.schemas import CommandResponse, DiceReveal, EventOut

__all__ = ["REVEAL_DICE", "reveal_answer", "reveal_events"]

# The command a reveal runs, as a client would send it.
REVEAL_DICE = msgspec.Raw(b'{"type":"RevealDice"}')


async def reveal_events(
    dice: DiceSecrets, battle_id: str, loaded: Loaded, battle: Battle, actor: Actor, reason: str
) -> list[tuple[Any, str]]:
    """The epoch's seed revealed (for all) and the next one committed; before it, each
    audience's sub-seed revealed in an event for that audience only (domain.dice,
    "Hidden dice"), so that a battle's end, which unseals its events up to the
    seed's reveal, unseals them too."""
    if reason == "requested" and actor.role not in ("referee", "side"):
        raise Forbidden("only the referee or a side may reveal the dice seed")
    meta = battle.meta
    epoch = meta.dice_epoch
    out: list[tuple[Any, str]] = []
    for audience, sub_seed in sorted((await dice.sub_seeds(battle_id, loaded, meta)).items()):
        revealed = DiceSubSeedRevealed(epoch=epoch, audience=audience, seed=sub_seed.hex())
        out.append((revealed, audience))
    seed = await dice.seed(battle_id, loaded, meta.commitments[epoch])
    _, next_commit = await dice.new_seed(battle_id, loaded)
    _, next_subs = await dice.new_sub_seeds(battle_id, loaded, next_commit, meta.created.sides)
    out.append(
        (
            DiceSeedRevealed(
                epoch=epoch,
                seed=seed.hex(),
                reason=reason,  # type: ignore[arg-type]
                next_epoch=epoch + 1,
                next_commitment=next_commit,
                next_sub_commitments=next_subs,
            ),
            ALL,
        )
    )
    return out


def reveal_answer(battle_id: str, response: CommandResponse) -> DiceReveal:
    """The reveal's answer, from the answer of the `RevealDice` command that made it."""
    reveal = next(
        e for e in response.events if isinstance(e, EventOut) and e.type == "DiceSeedRevealed"
    )
    data = msgspec.json.decode(reveal.data, type=DiceSeedRevealed)
    return DiceReveal(
        battle_id=battle_id,
        version=reveal.version,
        epoch=data.epoch,
        seed=data.seed,
        commitment=commitment(bytes.fromhex(data.seed)),
        next_epoch=data.next_epoch,
        next_commitment=data.next_commitment,
        receipt=response.receipt,
    )
