"""Which webhook URLs are taken: http(s) with a host, and only allowed hosts when listed."""

from __future__ import annotations

import pytest

from service.errors import Unprocessable
from service.live.webhooks.endpoints import check_url


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/hook",
        "https://hooks.example.org/battles?x=1",
        "HTTPS://Hooks.Example.org",
        "http://[::1]:9000/",
    ],
)
def test_http_and_https_urls_with_a_host_are_taken(url: str) -> None:
    check_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://hooks.example.org/x",
        "file:///etc/passwd",
        "gopher://127.0.0.1:70/",
        "http:///no-host",
        "https://:443/",
        "http://example.org:99999/",
        "http://[::1/",
        "javascript:alert(1)",
    ],
)
def test_other_urls_are_refused(url: str) -> None:
    with pytest.raises(Unprocessable) as refused:
        check_url(url)
    assert refused.value.code == "webhook-url-refused"


def test_with_an_allow_list_only_its_hosts_are_taken() -> None:
    allowed = frozenset({"hooks.example.org", "::1"})
    check_url("https://HOOKS.example.org/x", allowed)
    check_url("http://[::1]:9000/", allowed)
    for url in (
        "https://evil.example.org/",
        "http://127.0.0.1/",
        "https://hooks.example.org.evil/",
    ):
        with pytest.raises(Unprocessable, match="BATTLE_WEBHOOK_ALLOWED_HOSTS"):
            check_url(url, allowed)
