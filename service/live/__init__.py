"""Live events: SSE and WebSocket streams, the in-process fan-out, the Redis doorbell across
workers, and webhooks (routes, outbox, worker, retry).

Imports service.http, service.battles and below; never service.desk or app.
"""

__all__: list[str] = []
