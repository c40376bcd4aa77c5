"""The API documentation pages, served with no request to a public CDN.

Litestar's OpenAPI UIs (Redoc at `/schema` and `/schema/redoc`, Swagger UI, Stoplight
Elements, RapiDoc) load their scripts from CDNs by default, so they render blank
without internet and cannot be put under a strict CSP. Here each is pointed at the
copies committed in `service/openapi/vendored` (taken from the npm packages named in its
SOURCES.txt by its fetch.sh) and served under `/schema/assets/`. The favicon is left
out rather than fetched; Redoc's Google fonts are not loaded (it falls back to the
page's own).

Every page under `/schema` is served with a Content-Security-Policy (`DOCS_CSP`) that
allows scripts from this origin only. Litestar's Redoc and Swagger pages start their UI
with an inline script holding the whole document; here they are rendered instead with
the start-up code in a served file (`docs_assets/init/`) that has the UI fetch
`/schema/openapi.json`. Styles need 'unsafe-inline': the UIs inject styles at run time
(Redoc, through styled-components, renders nothing without it: tried). Redoc's search
runs in a worker it builds from a blob: URL (`worker-src blob:`). Redoc's bundle is
patched (fetch.sh) not to load Redocly's logo from its CDN. RapiDoc is told not to load
its Google fonts (it uses the page's own).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from litestar import Request, Router
from litestar.datastructures import CacheControlHeader, ResponseHeader
from litestar.openapi.plugins import (
    JsonRenderPlugin,
    OpenAPIRenderPlugin,
    RapidocRenderPlugin,
    RedocRenderPlugin,
    StoplightRenderPlugin,
    SwaggerRenderPlugin,
    YamlRenderPlugin,
)
from litestar.static_files import create_static_files_router

__all__ = [
    "ASSETS_DIR",
    "ASSETS_PATH",
    "DOCS_CSP",
    "docs_assets_router",
    "docs_router",
    "render_plugins",
]

ASSETS_DIR = Path(__file__).resolve().parent / "vendored"
ASSETS_PATH = "/schema/assets"
_NO_FAVICON = "<link rel='icon' href='data:,'>"  # else the browser asks for /favicon.ico


DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; worker-src 'self' blob:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def _url(name: str) -> str:
    return f"{ASSETS_PATH}/{name}"


_STYLE = f"<link rel='stylesheet' href='{_url('init/docs.css')}'>"


def _page(title: str, head: str, body: str) -> bytes:
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(title)}</title>{_NO_FAVICON}{_STYLE}{head}</head>"
        f"<body>{body}</body></html>"
    ).encode()


class _Redoc(RedocRenderPlugin):
    """Redoc without an inline script: redoc-init.js starts it on the document's URL."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        spec = escape(self.get_openapi_json_route(request))
        return _page(
            openapi_schema["info"]["title"],
            f"<script src='{self.js_url}'></script>"
            f"<script src='{_url('init/redoc-init.js')}' defer></script>",
            f"<div id='redoc-container' data-spec-url='{spec}'></div>",
        )


class _Swagger(SwaggerRenderPlugin):
    """Swagger UI without an inline script: swagger-init.js starts it on the document's URL
    (no OAuth2 and no CSRF cookie to forward: the API takes a Bearer key)."""

    def receive_router(self, router: Router) -> None:
        # Litestar adds Swagger's oauth2-redirect.html here: an inline script (refused by
        # the CSP) for an OAuth2 flow this API does not have. Not served.
        return None

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        spec = escape(self.get_openapi_json_route(request))
        return _page(
            openapi_schema["info"]["title"],
            f"<link rel='stylesheet' href='{self.css_url}'>"
            f"<script src='{self.js_url}'></script>"
            f"<script src='{self.standalone_preset_js_url}'></script>"
            f"<script src='{_url('init/swagger-init.js')}' defer></script>",
            f"<div id='swagger-container' data-spec-url='{spec}'></div>",
        )


class _Rapidoc(RapidocRenderPlugin):
    """RapiDoc on the document's URL, without its Google fonts (`load-fonts="false"`: it
    would fetch them from fonts.gstatic.com, a request the CSP refuses and reports)."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        spec = escape(self.get_openapi_json_route(request))
        return _page(
            openapi_schema["info"]["title"],
            f"<script src='{self.js_url}'></script>",
            f"<rapi-doc spec-url='{spec}' load-fonts='false'></rapi-doc>",
        )


def render_plugins() -> list[OpenAPIRenderPlugin]:
    """Litestar's default set of pages, every asset local."""
    return [
        _Redoc(
            js_url=_url("redoc/redoc.standalone.js"),
            google_fonts=False,
            path=["/", "/redoc"],
            favicon=_NO_FAVICON,
        ),
        _Swagger(
            js_url=_url("swagger/swagger-ui-bundle.js"),
            css_url=_url("swagger/swagger-ui.css"),
            standalone_preset_js_url=_url("swagger/swagger-ui-standalone-preset.js"),
            favicon=_NO_FAVICON,
        ),
        StoplightRenderPlugin(
            js_url=_url("elements/web-components.min.js"),
            css_url=_url("elements/styles.min.css"),
            favicon=_NO_FAVICON,
            style=_STYLE,
        ),
        _Rapidoc(js_url=_url("rapidoc/rapidoc-min.js"), favicon=_NO_FAVICON),
        JsonRenderPlugin(),
        YamlRenderPlugin(),
    ]


def docs_assets_router() -> Any:
    # The files change only with a release: a day's caching spares the reloads.
    return create_static_files_router(
        path=ASSETS_PATH,
        directories=[ASSETS_DIR],
        name="docs-assets",
        cache_control=CacheControlHeader(public=True, max_age=86400),
        include_in_schema=False,
    )


def docs_router() -> Router:
    """The router Litestar serves the docs pages (and the document) on: every answer
    carries the docs' CSP."""
    return Router(
        "/schema",
        route_handlers=[],
        include_in_schema=False,
        response_headers=[
            ResponseHeader(name="Content-Security-Policy", value=DOCS_CSP),
            ResponseHeader(name="X-Content-Type-Options", value="nosniff"),
        ],
    )
