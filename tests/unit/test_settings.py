"""Settings from the environment: the fan-out poll interval (BATTLE_FANOUT_POLL_SECONDS)."""

from __future__ import annotations

import pytest

from service.schemas import BATCH_MAX_COMMANDS
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


def test_webhooks_are_on_with_a_day_of_retries_unless_told_otherwise() -> None:
    s = Settings.from_env({})
    assert s.webhooks and s.webhook_timeout == 10 and s.webhook_disable_after == 86_400
    assert (s.webhook_retry_base, s.webhook_retry_max, s.webhook_allowed_hosts) == (5, 3600, ())
    assert s.webhook_retention_days == 7
    fast = Settings.from_env(
        {
            "BATTLE_WEBHOOKS": "off",
            "BATTLE_WEBHOOK_RETRY_BASE": "0.2",
            "BATTLE_WEBHOOK_DISABLE_AFTER": "3",
            "BATTLE_WEBHOOK_ALLOWED_HOSTS": "Hooks.example.org, [::1]",
        }
    )
    assert not fast.webhooks and fast.webhook_retry_base == 0.2
    assert fast.webhook_disable_after == 3
    assert fast.webhook_allowed_hosts == ("hooks.example.org", "::1")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BATTLE_WEBHOOKS", "maybe"),
        ("BATTLE_WEBHOOK_TIMEOUT", "0"),
        ("BATTLE_WEBHOOK_RETRY_BASE", "x"),
    ],
)
def test_webhook_settings_that_make_no_sense_are_refused(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


def test_a_batch_holds_64_commands_unless_told_otherwise() -> None:
    assert Settings.from_env({}).batch_max == 64
    # up to the bound of the request's schema, never beyond (the schema would refuse first)
    top = str(BATCH_MAX_COMMANDS)
    assert Settings.from_env({"BATTLE_BATCH_MAX": top}).batch_max == BATCH_MAX_COMMANDS
    with pytest.raises(ValueError, match="BATTLE_BATCH_MAX"):
        Settings.from_env({"BATTLE_BATCH_MAX": str(BATCH_MAX_COMMANDS + 1)})


@pytest.mark.parametrize("value", ["0", "-1", "1001", "many"])
def test_a_batch_limit_outside_1_to_1000_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="BATTLE_BATCH_MAX"):
        Settings.from_env({"BATTLE_BATCH_MAX": value})


def test_a_group_commit_round_takes_64_commands_unless_told_otherwise() -> None:
    assert Settings.from_env({}).round_commands == 64
    assert Settings.from_env({"BATTLE_ROUND_COMMANDS": "8"}).round_commands == 8
    assert Settings.from_env({"BATTLE_ROUND_COMMANDS": "1000"}).round_commands == 1000


@pytest.mark.parametrize("value", ["0", "-3", "1001", "2.5", "lots"])
def test_a_round_size_outside_1_to_1000_is_refused_at_start(value: str) -> None:
    with pytest.raises(ValueError, match=f"BATTLE_ROUND_COMMANDS must be .*{value}"):
        Settings.from_env({"BATTLE_ROUND_COMMANDS": value})
