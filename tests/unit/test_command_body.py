"""The command route reads the announced body length from the scope as Litestar would."""

from __future__ import annotations

import pytest
from litestar.exceptions import ClientException

from service.http.command_body import _content_length


def test_the_first_content_length_is_read_as_an_int() -> None:
    assert _content_length([(b"host", b"x"), (b"content-length", b"12")]) == 12
    assert _content_length([(b"content-length", b" 7 "), (b"content-length", b"9")]) == 7
    assert _content_length([(b"host", b"x")]) is None


def test_a_content_length_that_is_not_a_number_is_a_client_error() -> None:
    with pytest.raises(ClientException, match="Invalid content-length: 'abc'"):
        _content_length([(b"content-length", b"abc")])
