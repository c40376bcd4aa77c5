"""The `battle-service` command: serve the API, or print its OpenAPI document."""

from __future__ import annotations

import argparse
import sys

import msgspec

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="battle-service")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the HTTP API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    sub.add_parser("openapi", help="print the OpenAPI document (JSON)")
    args = parser.parse_args(argv)
    if args.command == "openapi":
        sys.stdout.write(openapi_json())
        return 0
    import logging

    import uvicorn

    from service.settings import Settings

    logging.basicConfig(
        level=Settings.from_env().log_level,
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )

    uvicorn.run(
        "service.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        loop="uvloop",
        http="httptools",
        access_log=False,
    )
    return 0


def openapi_json() -> str:
    """The OpenAPI document as the app serves it, in a stable, diff-friendly form."""
    from service.app import create_app

    app = create_app()
    schema = app.openapi_schema.to_schema()
    return (
        msgspec.json.format(msgspec.json.encode(schema, order="sorted").decode(), indent=2) + "\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
