"""The client address behind a proxy: `X-Forwarded-For` believed only from proxies the
operator names (`BATTLE_TRUSTED_PROXIES`, addresses or CIDR networks; default none;
parsed by service.settings.parse_proxies).

Every per-address limit (service.http.limits) counts by the client address, so whoever may
choose it walks around them all. A proxy such as nginx *appends* the address it saw to
the header a client sent, so only the right end of the list is the proxies' word: the
client address is the rightmost entry that is not a trusted proxy, read only when the
connection itself comes from a trusted proxy. With no proxy named the header is ignored
and the connection's address is the client's.

uvicorn has a proxy-headers middleware of its own, on by default and trusting 127.0.0.1
(`FORWARDED_ALLOW_IPS`): it would rewrite the address before this one sees the peer, so
`battle-service serve` turns it off (service.app.server.run); run uvicorn by hand with
`--no-proxy-headers`.
"""

from __future__ import annotations

import ipaddress
from typing import TYPE_CHECKING

from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware

if TYPE_CHECKING:
    from litestar.types import ASGIApp, Receive, Scope, Send

__all__ = ["ForwardedFor", "TrustedProxies"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    host = text.strip()
    if host.startswith("["):  # [v6]:port
        host = host[1 : host.find("]")] if "]" in host else host[1:]
    elif host.count(":") == 1:  # v4:port
        host = host.partition(":")[0]
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return None
    # An IPv4 peer on a dual-stack socket reads ::ffff:a.b.c.d: the same address.
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped if mapped is not None else address


class TrustedProxies:
    """The proxies whose `X-Forwarded-For` is believed."""

    def __init__(self, networks: tuple[str, ...]) -> None:
        self.networks: tuple[Network, ...] = tuple(ipaddress.ip_network(n) for n in networks)

    def __bool__(self) -> bool:
        return bool(self.networks)

    def trusts(self, host: str) -> bool:
        address = _address(host)
        return address is not None and any(address in n for n in self.networks)

    def client(self, peer: str, forwarded: list[str]) -> str:
        """The client address of a request from `peer` carrying these `X-Forwarded-For`
        values (in the order received)."""
        if not self.trusts(peer):
            return peer
        hops = [h.strip() for value in forwarded for h in value.split(",")]
        for hop in reversed(hops):
            if not hop:
                continue
            if not self.trusts(hop):
                address = _address(hop)
                # What a trusted proxy reports as its peer; not an address (`unknown`):
                # the proxy's own address is all there is to count by.
                return str(address) if address is not None else peer
        # Every hop a trusted proxy: the leftmost is where the request came from.
        first = next((h for h in hops if h), None)
        address = _address(first) if first else None
        return str(address) if address is not None else peer


class ForwardedFor(ASGIMiddleware):
    """Sets the scope's client to the address `TrustedProxies.client` finds (before the
    limits count it); nothing to do when no proxy is named."""

    scopes = (ScopeType.HTTP, ScopeType.WEBSOCKET)

    def __init__(self, proxies: TrustedProxies) -> None:
        self.proxies = proxies

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        client = scope.get("client")
        if client is not None:
            forwarded = [
                v.decode("latin-1") for k, v in scope["headers"] if k == b"x-forwarded-for"
            ]
            if forwarded:
                host = self.proxies.client(client[0], forwarded)
                if host != client[0]:
                    scope["client"] = (host, 0)
        await next_app(scope, receive, send)
