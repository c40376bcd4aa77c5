"""Reading JSON the way every layer of the service must: text that is not UTF-8 and
nesting too deep for the interpreter are a 400 `invalid-body`, never a 500.

msgspec turns two kinds of hostile JSON into exceptions that are not
`msgspec.DecodeError` (service.http.json_body explains where each is met). The core
(service.battles.creating, service.battles.command_decoding) decodes a battle's setup,
options and commands with the ruleset's own types, and the edge (service.http) reads
request bodies: both use these, so they live below both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from service.errors import BadRequest

__all__ = ["UNREADABLE", "InvalidBody", "field_of", "invalid_body", "read_json"]

T = TypeVar("T")

# What msgspec raises for JSON that parses as syntax but cannot become Python objects.
UNREADABLE = (UnicodeDecodeError, RecursionError)


class InvalidBody(BadRequest):
    code = "invalid-body"
    title = "The request body cannot be read"


def invalid_body(error: BaseException, what: str = "the JSON body") -> InvalidBody:
    """The 400 for a body msgspec could not turn into text or objects."""
    if isinstance(error, RecursionError):
        return InvalidBody(f"{what} is nested too deeply")
    if isinstance(error, UnicodeDecodeError):
        return InvalidBody(f"{what} holds a string that is not valid UTF-8 ({error.reason})")
    return InvalidBody(f"{what} cannot be read: {error}")


def read_json(decode: Callable[[Any], T], data: Any, what: str = "the JSON body") -> T:
    """`decode(data)`, with unreadable text or nesting as `InvalidBody`."""
    try:
        return decode(data)
    except UNREADABLE as e:
        raise invalid_body(e, what) from None


def field_of(error: msgspec.ValidationError) -> tuple[str, str]:
    """msgspec's "Expected `int`, got `str` - at `$.dice[0]`" as ("Expected ...", "dice[0]")."""
    message, _, where = str(error).partition(" - at `$")
    return message, where.rstrip("`").removeprefix(".") or "data"
