"""The rules of the battle service: pure deciders, the dice port, the actor model.

Nothing in this package performs I/O, reads a clock or draws randomness of its own.
"""

__all__: list[str] = []
