"""The event log: envelopes, the SHA-256 hash chain, the EventStore protocol and its stores."""

__all__: list[str] = []
