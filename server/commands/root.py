"""The root of the `gauntlet` command line: the typer app every command registers on.

Apart from `server.cli` (which imports every command module so that they register) so that
a command module imports the app without importing all the others: no import circle.

Every usage error (a bad option value, a missing argument, an unknown command) is one
`error:` line on stderr and exit code 2, never a boxed panel or a traceback; help is plain
text wrapped to the terminal (nothing cut off at 80 columns, flags shown as flags).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Annotated, Any

import typer

# typer 0.29 ships its own copy of click: its exceptions are not click's.
from typer._click import exceptions as click_errors
from typer.core import TyperGroup


class FullListing(TyperGroup):
    """A group whose command list shows each command's first sentence in full, wrapped
    (click cuts it to one line with `...`)."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


class OneLineErrors(FullListing):
    """The root group: usage errors become `error: <message> (see 'gauntlet X --help')`."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        except click_errors.NoArgsIsHelpError as error:
            error.show()
            sys.exit(0)
        except click_errors.UsageError as error:
            where = error.ctx.command_path if error.ctx is not None else "gauntlet"
            message = " ".join(error.format_message().split())
            typer.echo(f"error: {message} (see '{where} --help')", err=True)
            sys.exit(error.exit_code)
        except click_errors.ClickException as error:
            typer.echo(f"error: {' '.join(error.format_message().split())}", err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("error: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name="gauntlet",
    cls=OneLineErrors,
    help="A local match server for game-AI development.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def version() -> str:
    try:
        return metadata.version("gauntlet")
    except metadata.PackageNotFoundError:  # a checkout that was never installed
        return "unknown"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"gauntlet {version()}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print Gauntlet's version and exit.")] = False,
) -> None:
    """Gauntlet: bots connect over the protocols they already speak; matches run here."""
