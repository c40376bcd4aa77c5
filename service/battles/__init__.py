"""The application core: load a battle, fold, decide, append with the expected version, answer;
founding, forks, sealing, signing, keys, snapshots, the cache.

Imports domain/, events/ and the shared leaves only.
"""

__all__: list[str] = []
