"""A battle's secret dice seeds: drawn, stored encrypted at rest beside the battle, and
read back checked against the commitments its chain holds (domain.dice).

Each epoch has a seed for the dice every reader sees and, since hidden dice, one secret
from which each audience's sub-seed derives. Read seeds are kept on the loaded battle
(`Loaded.seeds`, by commitment), so a battle's seed is read from the store once.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from domain.battle import BattleMeta
from domain.dice import commitment
from events.dice_streams import hidden_audiences, sub_seeds
from events.store import EventStore
from service.battles.repository import Loaded
from service.battles.secrets_at_rest import SecretBox, SecretDamaged

__all__ = ["DiceSecrets"]


def _sub_name(commit: str) -> str:
    # The secret of an epoch's sub-seeds, named by the commitment of the epoch's seed.
    return f"sub-seeds:{commit}"


def _seed_name(commit: str) -> str:
    # Named by commitment, not epoch: two workers racing to commit a new seed never
    # overwrite each other's secret, whichever of their events wins the append.
    return f"seed:{commit}"


class DiceSecrets:
    """The dice seeds of the battles of one event store, sealed with `secrets`."""

    def __init__(self, store: EventStore, secrets: SecretBox) -> None:
        self.store = store
        self.secrets = secrets

    async def seed(self, battle_id: str, loaded: Loaded, commit: str) -> bytes:
        """The seed committed as `commit`, checked against it."""
        seed = loaded.seeds.get(commit)
        if seed is None:
            name = _seed_name(commit)
            stored = await self.store.load_secret(battle_id, name)
            if stored is None:
                raise RuntimeError(f"the dice seed of battle {battle_id} is missing")
            # Sealed since secrets are encrypted at rest; a seed stored before is in clear.
            seed = (
                self.secrets.open_secret(battle_id, name, stored)
                if self.secrets.is_sealed(stored)
                else stored
            )
            if commitment(seed) != commit:  # bound to the commitment in the chain
                raise SecretDamaged(
                    f"the stored dice seed of battle {battle_id} does not match its "
                    f"commitment {commit}: refused"
                )
            loaded.seeds[commit] = seed
        return seed

    async def sub_seeds(self, battle_id: str, loaded: Loaded, meta: BattleMeta) -> dict[str, bytes]:
        """The sub-seeds of the current epoch's hidden dice (none for an epoch committed
        before they existed), each checked against its commitment in the chain."""
        epoch = meta.dice_epoch
        subs = meta.sub_commitments.get(epoch, {})
        out: dict[str, bytes] = {}
        for audience, commit in subs.items():
            seed = loaded.seeds.get(commit)
            if seed is None:
                name = _sub_name(meta.commitments[epoch])
                stored = await self.store.load_secret(battle_id, name)
                if stored is None:
                    raise RuntimeError(f"the hidden dice secret of battle {battle_id} is missing")
                derived = sub_seeds(self.secrets.open_secret(battle_id, name, stored), subs)
                for a, c in subs.items():
                    if commitment(derived[a]) != c:  # bound to the commitments in the chain
                        raise SecretDamaged(
                            f"the stored hidden dice secret of battle {battle_id} does not "
                            f"match the commitment of {a}'s sub-seed {c}: refused"
                        )
                    loaded.seeds[c] = derived[a]
                seed = derived[audience]
            out[audience] = seed
        return out

    async def new_sub_seeds(
        self, battle_id: str, loaded: Loaded | None, commit: str, sides: Sequence[str]
    ) -> tuple[dict[str, bytes], dict[str, str]]:
        """A new secret for the hidden dice of the epoch whose seed is committed as
        `commit`, stored beside it; each audience's sub-seed and its commitment."""
        secret = os.urandom(32)
        name = _sub_name(commit)
        await self.store.save_secret(
            battle_id, name, self.secrets.seal_secret(battle_id, name, secret)
        )
        seeds = sub_seeds(secret, hidden_audiences(sides))
        commits = {a: commitment(s) for a, s in seeds.items()}
        if loaded is not None:
            loaded.seeds.update({commits[a]: s for a, s in seeds.items()})
        return seeds, commits

    async def new_seed(self, battle_id: str, loaded: Loaded | None) -> tuple[bytes, str]:
        """A new secret dice seed for the battle, stored, and its commitment."""
        seed = os.urandom(32)
        commit = commitment(seed)
        name = _seed_name(commit)
        await self.store.save_secret(
            battle_id, name, self.secrets.seal_secret(battle_id, name, seed)
        )
        if loaded is not None:
            loaded.seeds[commit] = seed
        return seed, commit
