"""The image `docker compose up` builds holds every package the project installs: a
package left out of the Dockerfile's COPY lines breaks `gauntlet` in the container only
(its editable install finds nothing there), which no other test would notice."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_dockerfile_copies_every_installed_package() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {p.rstrip("*") for p in patterns}
    copied = set(re.findall(r"^COPY (\w+) \./\1$",
                            (REPO / "Dockerfile").read_text(encoding="utf-8"), re.M))
    assert packages and packages <= copied, f"not copied: {sorted(packages - copied)}"
