"""The HTTP API: FastAPI routers per resource under `/api`, served by uvicorn in the server's
own event loop (`HttpServer`), next to the TCP listener.

Reading is open; every mutating endpoint wants `Authorization: Bearer <admin token>`.
"""

from server.api.app import ApiContext, create_app
from server.api.auth import TOKEN_FILE, resolve_admin_token
from server.api.http import HttpServer

__all__ = ["TOKEN_FILE", "ApiContext", "HttpServer", "create_app", "resolve_admin_token"]
