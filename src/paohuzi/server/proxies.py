"""Which reverse proxies' ``X-Forwarded-For`` the server believes: only those configured.

uvicorn believes the header from 127.0.0.1 unless told otherwise, so anything on the
machine could claim any address (and dodge the per-address login limit). ``paohuzi serve
--trusted-proxy ADDR`` (or ``$PAOHUZI_TRUSTED_PROXIES``) names them; without, the
connecting address is the client's.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

__all__ = ["trusted_proxies"]


def trusted_proxies(values: Iterable[str]) -> list[str]:
    """The addresses and networks in ``values`` (each may hold several, comma- or
    space-separated), checked; ValueError quoting the first that is neither."""
    out: list[str] = []
    for value in values:
        for item in value.replace(",", " ").split():
            try:
                if item != "*":  # (every peer: only where no client reaches the port)
                    ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item[:60]!r} is not an IP address or network") from None
            out.append(item)
    return out
