"""The HTTP and WebSocket endpoints, one router per part of the API (``create_app``
includes them)."""
