"""`Prefer: return=minimal` (RFC 7240) on the command routes: an answer without `awaiting`.

A command's answer carries what the battle awaits then (`CommandResponse.awaiting`),
computed by probing the ruleset's decider: several times the cost of the command itself
(bench/awaiting.py measures it). A bot that does not read it asks `Prefer:
return=minimal`; the answer then omits `awaiting` and says so with `Preference-Applied:
return=minimal`. Any other preference is ignored, as RFC 7240 §2 lets a server do, and
the answer is the default one, `awaiting` included.
"""

from __future__ import annotations

from typing import Any

from litestar.datastructures import ResponseHeader
from litestar.openapi.spec import OpenAPIType, Parameter, Schema

__all__ = [
    "APPLIED",
    "PREFERENCE_APPLIED_HEADER",
    "PREFER_PARAMETER",
    "prefers_minimal",
]

APPLIED = {"Preference-Applied": "return=minimal"}

_DOC = (
    "RFC 7240 preferences: `return=minimal` answers without `awaiting` (what the battle "
    "waits for costs more to compute than the command: a client that does not read it "
    "skips it), with `Preference-Applied: return=minimal`; other preferences are ignored"
)
PREFER_PARAMETER = Parameter(
    name="Prefer",
    param_in="header",
    required=False,
    description=_DOC,
    schema=Schema(type=OpenAPIType.STRING, description=_DOC, max_length=1000),
)
PREFERENCE_APPLIED_HEADER = ResponseHeader(
    name="Preference-Applied",
    description="`return=minimal` when the request preferred it: the answer has no `awaiting`",
    required=False,
    documentation_only=True,
)


def prefers_minimal(request: Any) -> bool:
    """Whether a `Prefer` header of the request (ASGI scope) holds `return=minimal`.

    Preferences are comma-separated, each `token[=value]` with `;` parameters after it;
    the token is case-insensitive and the value may be quoted (RFC 7240 §2)."""
    for name, raw in request.scope["headers"]:  # ASGI: names in lower case
        if name != b"prefer":
            continue
        for preference in raw.decode("latin-1").split(","):
            token, _, value = preference.split(";", 1)[0].partition("=")
            if token.strip().lower() == "return" and value.strip().strip('"') == "minimal":
                return True
    return False
