"""The PostgreSQL and Redis the tests run against, and what happens when one is missing.

With CI=true a missing server fails the test (CI must exercise them); elsewhere the
test is skipped with one line saying how to enable it. The URLs can be overridden with
BATTLE_TEST_POSTGRES_URL and BATTLE_TEST_REDIS_URL.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import psycopg
import pytest
import redis

__all__ = ["need_postgres", "need_redis", "postgres_schema"]

POSTGRES_URL = os.environ.get(
    "BATTLE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("BATTLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _missing(what: str, url: str, why: str, variable: str) -> None:
    message = f"{what} is not reachable at {url} ({why})"
    if _CI:
        pytest.fail(f"{message}: CI=true requires it", pytrace=False)
    pytest.skip(f"{what} tests skipped: start {what} at {url} or set {variable} to enable them")


@functools.cache
def _postgres_error() -> str | None:
    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as e:
        return str(e).strip().splitlines()[0]
    return None


@functools.cache
def _redis_error() -> str | None:
    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        client.ping()
        client.close()
    except redis.RedisError as e:
        return str(e)
    return None


def need_postgres() -> str:
    """The test PostgreSQL URL; skips or fails (CI) the test when it is not reachable."""
    error = _postgres_error()
    if error is not None:
        _missing("PostgreSQL", POSTGRES_URL, error, "BATTLE_TEST_POSTGRES_URL")
    return POSTGRES_URL


def need_redis() -> str:
    """The test Redis URL; skips or fails (CI) the test when it is not reachable."""
    error = _redis_error()
    if error is not None:
        _missing("Redis", REDIS_URL, error, "BATTLE_TEST_REDIS_URL")
    return REDIS_URL


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh, empty schema, dropped afterwards."""
    url = need_postgres()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        separator = "&" if "?" in url else "?"
        yield f"{url}{separator}options={quote(f'-c search_path={schema}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
