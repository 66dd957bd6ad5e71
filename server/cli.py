"""The `gauntlet` command line.

Each sub-command lives in its own module under `server/commands/` and registers itself
on `app` here, so adding one never means editing another.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="gauntlet",
    help="A local match server for game-AI development.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def main() -> None:
    """Gauntlet: bots connect over the protocols they already speak; matches run here."""


def _register() -> None:
    # Imported for their side effect of adding commands to `app`.
    from server.commands import bot, db, demo, play, serve  # noqa: F401


_register()
