"""Settings from the environment: the fan-out poll interval (BATTLE_FANOUT_POLL_SECONDS)."""

from __future__ import annotations

import pytest

from service.settings import Settings


def test_the_fanout_polls_every_second_unless_told_otherwise() -> None:
    assert Settings.from_env({}).fanout_poll_seconds == 1.0
    assert Settings.from_env({"BATTLE_FANOUT_POLL_SECONDS": "600"}).fanout_poll_seconds == 600
    assert Settings.from_env({"BATTLE_FANOUT_POLL_SECONDS": "0.25"}).fanout_poll_seconds == 0.25


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf", ""])
def test_a_poll_interval_that_is_not_a_positive_number_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="BATTLE_FANOUT_POLL_SECONDS"):
        Settings.from_env({"BATTLE_FANOUT_POLL_SECONDS": value})


def test_cors_origins_default_to_any_and_are_listed_by_comma() -> None:
    assert Settings.from_env({}).cors_origins == ("*",)
    origins = Settings.from_env({"BATTLE_CORS_ORIGINS": " https://a.example, http://b:8080/ "})
    assert origins.cors_origins == ("https://a.example", "http://b:8080")


@pytest.mark.parametrize("value", ["a.example", "https://a.example/path", "://x"])
def test_a_cors_origin_that_is_not_an_origin_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="BATTLE_CORS_ORIGINS"):
        Settings.from_env({"BATTLE_CORS_ORIGINS": value})
