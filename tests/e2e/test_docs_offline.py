"""The documentation pages load every script and stylesheet from the service itself."""

from __future__ import annotations

import re

import httpx
import pytest

PAGES = ["/schema", "/schema/redoc", "/schema/swagger", "/schema/elements", "/schema/rapidoc"]
_ASSET = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.I)


@pytest.mark.parametrize("page", PAGES)
def test_a_docs_page_needs_nothing_from_another_host(http: httpx.Client, page: str) -> None:
    r = http.get(page)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assets = _ASSET.findall(r.text)
    scripts = [a for a in assets if a.endswith(".js")]
    assert scripts, "the page loads no script: the UI would not render"
    for url in assets:
        if url.startswith("data:"):
            continue
        assert url.startswith("/schema/assets/"), f"{page} loads {url} from elsewhere"
        got = http.get(url)
        assert got.status_code == 200, url
        # a UI's bundle is large; the start-up files of service/openapi/vendored/init are ours
        assert len(got.content) > (100 if url.startswith("/schema/assets/init/") else 10_000), url
        kind = "css" if url.endswith(".css") else "javascript"
        assert kind in got.headers["content-type"], (url, got.headers["content-type"])
    # Nor anything else spelled out in the page (fonts, a favicon).
    assert not re.search(r"""(?:src|href)=["']https?://""", r.text), page


def test_the_assets_come_with_their_licences(http: httpx.Client) -> None:
    for name in ("swagger/LICENSE", "redoc/LICENSE", "elements/LICENSE", "rapidoc/LICENSE.txt"):
        assert http.get(f"/schema/assets/{name}").status_code == 200, name
    assert http.get("/schema/assets/nothing.js").status_code == 404


def test_no_oauth2_redirect_page(http: httpx.Client) -> None:
    # Swagger's page for an OAuth2 flow the API does not have: an inline script.
    assert http.get("/schema/oauth2-redirect.html").status_code == 404
    assert http.get("/schema/swagger").status_code == 200


def _directives(csp: str) -> dict[str, list[str]]:
    out = {}
    for part in csp.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.mark.parametrize("page", PAGES)
def test_a_docs_page_runs_no_inline_script_under_its_csp(http: httpx.Client, page: str) -> None:
    r = http.get(page)
    csp = _directives(r.headers["content-security-policy"])
    assert csp["default-src"] == ["'none'"] and csp["frame-ancestors"] == ["'none'"]
    assert csp["script-src"] == ["'self'"]  # no 'unsafe-inline', no other host
    assert csp["connect-src"] == ["'self'"] and csp["img-src"] == ["'self'", "data:"]
    assert r.headers["x-content-type-options"] == "nosniff"
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", r.text, re.I | re.S)
    assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
    assert not re.search(r"<style\b", r.text, re.I), page  # the page's own style is a file
    # the document the UI fetches is on this origin, under the same CSP
    spec = http.get("/schema/openapi.json")
    assert spec.status_code == 200 and "content-security-policy" in spec.headers
