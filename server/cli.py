"""The `gauntlet` command line.

Each sub-command lives in its own module under `server/commands/` and registers itself on
the app of `server.commands.root`; this module imports them all, so adding one never means
editing another.
"""

from __future__ import annotations

from typer.models import DefaultPlaceholder

from server.commands.root import FullListing, app, version

__all__ = ["app", "version"]


def _register() -> None:
    # Imported for their side effect of adding commands to `app`.
    from server.commands import ask, bot, db, demo, ladder, match, play, serve, sprt, worker  # noqa: F401

    # Sub-groups (`gauntlet db`, `gauntlet match`, ...) list their commands in full too.
    for group in app.registered_groups:
        instance = group.typer_instance
        if isinstance(group.cls, DefaultPlaceholder) and (
                instance is None or isinstance(instance.info.cls, DefaultPlaceholder)):
            group.cls = FullListing


_register()
