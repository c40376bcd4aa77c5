"""The API documentation pages, served with no request to a public CDN.

Litestar's OpenAPI UIs (Redoc at `/schema` and `/schema/redoc`, Swagger UI, Stoplight
Elements, RapiDoc) load their scripts from CDNs by default, so they render blank
without internet and cannot be put under a strict CSP. Here each is pointed at the
copies committed in `service/docs_assets` (taken from the npm packages named in its
SOURCES.txt by its fetch.sh) and served under `/schema/assets/`. The favicon is left
out rather than fetched; Redoc's Google fonts are not loaded (it falls back to the
page's own).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar.datastructures import CacheControlHeader
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

__all__ = ["ASSETS_DIR", "ASSETS_PATH", "docs_assets_router", "render_plugins"]

ASSETS_DIR = Path(__file__).resolve().parent / "docs_assets"
ASSETS_PATH = "/schema/assets"
_NO_FAVICON = "<link rel='icon' href='data:,'>"  # else the browser asks for /favicon.ico


def _url(name: str) -> str:
    return f"{ASSETS_PATH}/{name}"


def render_plugins() -> list[OpenAPIRenderPlugin]:
    """Litestar's default set of pages, every asset local."""
    return [
        RedocRenderPlugin(
            js_url=_url("redoc/redoc.standalone.js"),
            google_fonts=False,
            path=["/", "/redoc"],
            favicon=_NO_FAVICON,
        ),
        SwaggerRenderPlugin(
            js_url=_url("swagger/swagger-ui-bundle.js"),
            css_url=_url("swagger/swagger-ui.css"),
            standalone_preset_js_url=_url("swagger/swagger-ui-standalone-preset.js"),
            favicon=_NO_FAVICON,
        ),
        StoplightRenderPlugin(
            js_url=_url("elements/web-components.min.js"),
            css_url=_url("elements/styles.min.css"),
            favicon=_NO_FAVICON,
        ),
        RapidocRenderPlugin(js_url=_url("rapidoc/rapidoc-min.js"), favicon=_NO_FAVICON),
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
