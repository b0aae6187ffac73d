"""Security headers on every HTTP response: what the browser client needs, nothing more.

The client (web/static) is same-origin ES modules and a stylesheet, talking to this host
over fetch and a WebSocket; so the Content-Security-Policy allows only 'self' (and the
empty ``data:`` favicon), no inline script, no framing by anyone (clickjacking), no
MIME sniffing, and no Referer leaving the site (room codes are in its paths).
"""

from __future__ import annotations

from collections.abc import Awaitable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["CSP", "SECURITY_HEADERS", "SecurityHeaders"]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}
_RAW = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
# FastAPI's API explorer pages run an inline script from a CDN: no CSP there (they show
# no one's data); the other headers still apply.
_NO_CSP = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
_RAW_NO_CSP = [kv for kv in _RAW if kv[0] != b"content-security-policy"]


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to each HTTP response (a plain
    wrapper of ``send``: no per-request task, unlike BaseHTTPMiddleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # A socket is handed straight on: no coroutine frame for its every message to pass.
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self._http(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        extra = _RAW_NO_CSP if scope.get("path") in _NO_CSP else _RAW

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
