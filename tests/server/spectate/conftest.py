"""The spectators' tests use the API's running server (`tests/server/api/conftest.py`)."""

from tests.server.api.conftest import running

__all__ = ["running"]
