"""The referee's desk: export and import, the narrative, the timeline, the replay viewer, the
forecast and the receipts' routes.

Imports service.http, service.battles and below; never service.live or app.
"""

__all__: list[str] = []
