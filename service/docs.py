"""The API's docs page, Swagger UI, served from assets shipped inside the package.

Litestar's docs UIs load their scripts from public CDNs and render blank without internet
or under a strict Content-Security-Policy. Only Swagger UI is offered (at `/schema` and
`/schema/swagger`), with the files of the npm package `swagger-ui-dist` kept under
service/static/swagger-ui/ (version and licence there) and served by `STATIC_ROUTER`;
Redoc, Elements and RapiDoc are not offered, so no docs page loads anything from outside.
"""

from __future__ import annotations

from pathlib import Path

from litestar.datastructures import CacheControlHeader
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router

__all__ = ["DOCS_PLUGINS", "STATIC_PATH", "STATIC_ROUTER"]

STATIC_PATH = "/static"
_ASSETS = Path(__file__).parent / "static"
_SWAGGER = f"{STATIC_PATH}/swagger-ui"

STATIC_ROUTER: Router = create_static_files_router(
    path=STATIC_PATH,
    directories=[_ASSETS],
    cache_control=CacheControlHeader(max_age=3600, public=True),
)

DOCS_PLUGINS = [
    SwaggerRenderPlugin(
        js_url=f"{_SWAGGER}/swagger-ui-bundle.js",
        css_url=f"{_SWAGGER}/swagger-ui.css",
        standalone_preset_js_url=f"{_SWAGGER}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/png' href='{_SWAGGER}/favicon-32x32.png'>",
        path=["/", "/swagger"],
    )
]
