"""The Connect Four example package is not installed into the server's environment (that
would register a game in every other test run): its tests import it from its folder."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PACKAGE_ROOT = REPO / "examples" / "connect4"

if str(PACKAGE_ROOT) not in sys.path:
    sys.path.insert(0, str(PACKAGE_ROOT))
