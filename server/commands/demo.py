"""`gauntlet demo`: a quick look at what Gauntlet does, with nothing to set up."""

from __future__ import annotations

from server.cli import app


@app.command()
def demo() -> None:
    """Play a demo match in the terminal."""
    print("Gauntlet: the demo arrives with the Blokus engine.")
