"""The admin token: `GAUNTLET_ADMIN_TOKEN`, else a secret generated once into the data folder."""

from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger(__name__)

TOKEN_FILE = "admin-token"


def resolve_admin_token(preset: str | None, data_dir: Path) -> tuple[str, bool]:
    """(token, generated now): `preset`, else `<data_dir>/admin-token`, else a new one there.

    A new token is written with mode 0600; the caller prints it once (generated = True).
    """
    if preset:
        return preset, False
    path = Path(data_dir) / TOKEN_FILE
    try:
        stored = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        stored = ""
    if stored:
        return stored, False
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(token + "\n")
    os.chmod(path, 0o600)
    log.warning("admin token generated and stored in %s", path.resolve())
    return token, True
