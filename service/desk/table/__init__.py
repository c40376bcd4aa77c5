"""The reference table page (issue 35): `/table`, its scripts under `/table/assets/`, its
ready setups under `/table/assets/templates/`, and the built JavaScript library
(clients/ts/dist, made by `make install`) under `/table/lib/`.

Plain files, nothing from a CDN, served under the replay viewer's strict
Content-Security-Policy. A player's key rides in the URL fragment (`#battle=...&key=...`),
which no request carries, and goes to the API only in the Authorization header.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Response, get
from litestar.datastructures import CacheControlHeader
from litestar.static_files import create_static_files_router

from service.desk.viewer import CSP

__all__ = ["TABLE_ASSETS_DIR", "TABLE_LIB_DIR", "TABLE_PAGE_ROUTES"]

TABLE_ASSETS_DIR = Path(__file__).resolve().parent / "table_assets"
# The library as tsc builds it (ES modules); the repository's checkout, as `make install`
# leaves it (the service runs from an editable install).
TABLE_LIB_DIR = Path(__file__).resolve().parents[3] / "clients" / "ts" / "dist"
_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_PAGE = (TABLE_ASSETS_DIR / "index.html").read_text(encoding="utf-8")


@get("/table", include_in_schema=False, sync_to_thread=False)
def table_page() -> Response[str]:
    return Response(_PAGE, media_type="text/html", headers=_HEADERS)


def _static(path: str, directory: Path, name: str) -> Any:
    # no-cache: revalidated on each load (ETag), so a new release's scripts are never
    # mixed with an old page's. The directory may be missing (the library not built yet):
    # then its files answer 404 and the page says the library is missing.
    return create_static_files_router(
        path=path,
        directories=[directory],
        name=name,
        cache_control=CacheControlHeader(no_cache=True),
        include_in_schema=False,
    )


TABLE_PAGE_ROUTES: list[Any] = [
    table_page,
    _static("/table/assets", TABLE_ASSETS_DIR, "table-assets"),
    _static("/table/lib", TABLE_LIB_DIR, "table-lib"),
]
