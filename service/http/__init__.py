"""The HTTP edge: routes and their bodies, problem+json, conditional requests, CORS, rate
limits. Nothing about rules.

Imports service.battles, service.openapi and the shared leaves (settings, errors, schemas);
never service.live, desk or app.
"""

__all__: list[str] = []
