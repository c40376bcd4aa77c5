"""The OpenAPI document's polish: unions of every ruleset, examples, links, the docs pages; the
vendored UI scripts under `vendored/` (versions and licences in vendored/SOURCES.txt).

Imports the shared leaves only.
"""

__all__: list[str] = []
