"""Webhooks: endpoints, the outbox filled in the store's transaction, the worker that delivers,
when to retry, and their routes.
"""

__all__: list[str] = []
