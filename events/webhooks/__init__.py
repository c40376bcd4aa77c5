"""The webhooks' durable outbox beside the log: its records, the WebhookStore protocol, and its
tables in each store (written in the store's transaction).
"""

__all__: list[str] = []
