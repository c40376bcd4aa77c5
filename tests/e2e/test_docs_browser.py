"""The API documentation pages in a real browser (Debian's chromium, the `browser` fixture)
under their Content-Security-Policy (service/openapi/docs.py): each renders the API's operations,
not a blank page, with the CSP header present, no CSP violation reported (listened to on
`securitypolicyviolation` and the console), no script error, no request to another host."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest

from tests.e2e.conftest import LiveServer

_METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}
# Every violation the page reports, kept where the test reads it (set before any script).
_LISTEN = """window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));"""


@pytest.fixture
def open_docs(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    pages: list[tuple[Any, list[str], list[str]]] = []

    def open_(path: str) -> tuple[Any, dict[str, str]]:
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        elsewhere: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

        def only_the_service(route: Any) -> None:
            if urlparse(route.request.url).hostname == "127.0.0.1":
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort()

        page.route("**/*", only_the_service)
        page.add_init_script(_LISTEN)
        response = page.goto(f"{live_server.base_url}{path}")
        pages.append((page, errors, elsewhere))
        return page, dict(response.headers)

    yield open_
    for page, errors, elsewhere in pages:
        violations = page.evaluate("window.__violations")
        page.close()
        assert violations == [], violations
        assert errors == [], errors  # a CSP violation is also logged as a console error
        assert elsewhere == []


def _operations(http: httpx.Client) -> list[str]:
    doc = http.get("/schema/openapi.json").json()
    # the document's webhooks (deliveries the service sends) render as operations too
    paths = [*doc["paths"].values(), *doc.get("webhooks", {}).values()]
    return [op["operationId"] for p in paths for m, op in p.items() if m in _METHODS]


# The page, and what marks one rendered operation in it.
UIS = {
    "/schema": "[data-section-id^='operation/']",  # Redoc
    "/schema/redoc": "[data-section-id^='operation/']",
    "/schema/swagger": ".opblock",
}


@pytest.mark.parametrize("path", list(UIS))
def test_the_docs_render_every_operation_under_the_csp(
    open_docs: Any, http: httpx.Client, path: str
) -> None:
    operations = _operations(http)
    page, headers = open_docs(path)
    assert "script-src 'self';" in headers["content-security-policy"]
    # (playwright's selectors, not wait_for_function: that one evals, which the CSP refuses)
    page.wait_for_selector(f"{UIS[path]} >> nth={len(operations) - 1}", timeout=30_000)
    assert page.locator(UIS[path]).count() == len(operations)
    if path != "/schema/swagger":
        ids = page.eval_on_selector_all(UIS[path], "els => els.map((e) => e.dataset.sectionId)")
        assert sorted(i.removeprefix("operation/") for i in ids) == sorted(operations)
    page.wait_for_timeout(500)  # late violations (a lazy image, a worker) are counted too


def test_elements_renders_under_the_csp(open_docs: Any, http: httpx.Client) -> None:
    doc = http.get("/schema/openapi.json").json()
    page, headers = open_docs("/schema/elements")
    assert "content-security-policy" in headers
    page.wait_for_selector("text=ENDPOINTS", timeout=30_000)
    text = page.evaluate("document.body.innerText")
    assert doc["info"]["title"] in text
    assert all(t["name"] in text for t in doc.get("tags", [])), text[:500]
    page.wait_for_timeout(500)


def test_rapidoc_renders_every_operation_under_the_csp(open_docs: Any, http: httpx.Client) -> None:
    doc = http.get("/schema/openapi.json").json()
    # RapiDoc's navigation names each operation "link-{method}-{path}", braces as dashes.
    expected = sorted(
        f"link-{m}-{path.replace('{', '-').replace('}', '-')}"
        for path, ops in doc["paths"].items()
        for m in ops
        if m in _METHODS
    )
    page, headers = open_docs("/schema/rapidoc")
    assert "script-src 'self';" in headers["content-security-policy"]
    links = "rapi-doc [id^='link-'][id*='-/']"  # inside its shadow DOM (playwright pierces it)
    # attached, not visible: a long navigation scrolls, and a tag's list may start folded
    page.wait_for_selector(f"{links} >> nth={len(expected) - 1}", timeout=60_000, state="attached")
    ids = page.eval_on_selector_all(links, "els => els.map((e) => e.id)")
    assert sorted(ids) == expected
    page.wait_for_timeout(500)  # late violations are counted too
