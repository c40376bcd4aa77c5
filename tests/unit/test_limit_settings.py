"""The limits' settings: read from the environment, 0 turns a limit off, nonsense refused."""

from __future__ import annotations

import pytest

from service.http.limits import limit_middleware
from service.settings import Settings


def test_defaults_and_overrides() -> None:
    default = Settings.from_env({})
    assert default.limit_auth_failures == 60
    assert default.limit_streams_per_key == 16
    s = Settings.from_env({"BATTLE_LIMIT_AUTH_FAILURES": "5", "BATTLE_VERIFY_CACHE_SECONDS": "0"})
    assert s.limit_auth_failures == 5
    assert s.verify_cache_seconds == 0


@pytest.mark.parametrize("value", ["-1", "ten", "1.5"])
def test_a_limit_that_is_not_a_whole_number_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="BATTLE_LIMIT_PER_KEY"):
        Settings.from_env({"BATTLE_LIMIT_PER_KEY": value})


def test_a_limit_of_zero_is_no_policy() -> None:
    def names(settings: Settings) -> list[str]:
        return [p.name for m in limit_middleware(settings) for p in m.policies]

    assert len(names(Settings())) == 6
    assert "key" not in names(Settings(limit_per_key=0, limit_per_address=0))
    assert len(names(Settings(limit_per_key=0, limit_per_address=0))) == 4
    assert "forecasts" not in names(Settings(limit_forecasts_per_key=0))
