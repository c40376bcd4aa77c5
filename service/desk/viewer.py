"""The replay viewer: a page at `/viewer` and its scripts under `/viewer/assets/`.

Plain HTML, CSS and JavaScript modules committed in `service/desk/viewer_assets` (no build
step, nothing from a CDN). The page reads the API with the key the reader enters (or puts
in the URL fragment, which no request carries) in the Authorization header; it renders
only what the API gives that key. Served under a strict Content-Security-Policy: scripts,
styles and requests to this origin only, no inline script or style, no framing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Response, get
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

__all__ = ["CSP", "VIEWER_ASSETS_DIR", "VIEWER_ROUTES"]

VIEWER_ASSETS_DIR = Path(__file__).resolve().parent / "viewer_assets"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_PAGE = (VIEWER_ASSETS_DIR / "index.html").read_text(encoding="utf-8")


@get("/viewer", include_in_schema=False, sync_to_thread=False)
def viewer_page() -> Response[str]:
    return Response(_PAGE, media_type="text/html", headers=_HEADERS)


def _assets_router() -> Any:
    # no-cache: revalidated on each load (ETag), so a new release's scripts are never
    # mixed with an old page's.
    return create_static_files_router(
        path="/viewer/assets",
        directories=[VIEWER_ASSETS_DIR],
        name="viewer-assets",
        cache_control=CacheControlHeader(no_cache=True),
        include_in_schema=False,
    )


VIEWER_ROUTES: list[Any] = [viewer_page, _assets_router()]
