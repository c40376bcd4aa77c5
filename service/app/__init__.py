"""The one place that wires: `create_app()` (factory), the server's run under uvicorn, the
`battle-service` command line and the operator's row upgrades.

May import every other package of service/; nothing imports it.
"""

__all__: list[str] = []
