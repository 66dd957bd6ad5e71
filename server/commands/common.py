"""What several commands share: settings from options and environment, running a server.

Option defaults are the settings' defaults (`server.settings.DEFAULTS`), so `--help`
shows them; whether the user actually typed an option is asked of click, and only typed
options override the `GAUNTLET_*` variables.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import re
import signal
from collections.abc import Coroutine
from typing import Any

import typer

from server.settings import Settings, SettingsError, env_name, load_settings

# Why a listen fails at start-up: the port is taken (another `make run`?), the address is
# not this machine's, or a privileged port. Said in one line, not a traceback.
LISTEN_ERRORS = (errno.EADDRINUSE, errno.EADDRNOTAVAIL, errno.EACCES)


def env_help(field: str, text: str) -> str:
    """Option help that names the environment variable setting the same thing."""
    return f"{text} Env: {env_name(field)}."


def command_settings(ctx: typer.Context, **renames: str) -> Settings:
    """The settings, with the options typed on this command line on top.

    Every parameter of the command named like a settings field counts (`renames` maps
    other parameter names to fields, e.g. `port="tcp_port"`); options left at their
    default do not, so they never hide a `GAUNTLET_*` variable. Invalid values end the
    command with one `error:` line and exit code 2, as click's own usage errors do.
    """
    typed: dict[str, Any] = {}
    for name, value in ctx.params.items():
        field = renames.get(name, name)
        # By name: typer 0.29 ships its own copy of click, whose enum is not click's.
        source = ctx.get_parameter_source(name)
        typed_here = source is not None and source.name == "COMMANDLINE"
        if typed_here and field in Settings.model_fields:
            typed[field] = value
    try:
        settings = load_settings(**typed)
    except SettingsError as error:
        message = str(error)
        # The settings name an option after its field (`--tcp-port`); say it as typed here.
        for param in ctx.command.params:
            field = renames.get(param.name or "", param.name or "")
            if field in typed and param.opts:
                message = message.replace(f"--{field.replace('_', '-')} ",
                                          f"{param.opts[0]} ")
        typer.echo(f"error: invalid settings: {message}", err=True)
        raise typer.Exit(2) from None
    if {"soft_timeout", "hard_timeout"} & set(ctx.params):
        check_clocks(settings, typed)
    return settings


def check_clocks(settings: Settings, typed: dict[str, Any] | None = None) -> None:
    """A soft clock above the hard one can never fire: one `error:` line, exit code 2."""
    if settings.soft_timeout <= settings.hard_timeout:
        return
    typed = typed or {}

    def source(field: str) -> str:
        if field in typed:
            return f"--{field.replace('_', '-')}"
        return env_name(field) if os.environ.get(env_name(field)) else "default"

    typer.echo(f"error: invalid settings: the soft timeout ({source('soft_timeout')} "
               f"{settings.soft_timeout:g} s) is above the hard timeout "
               f"({source('hard_timeout')} {settings.hard_timeout:g} s)", err=True)
    raise typer.Exit(2)


def stop_event() -> asyncio.Event:
    """An event that Ctrl-C (SIGINT) and SIGTERM set, so the server shuts down in order.

    Call it inside the running loop. Where signal handlers cannot be installed (not the
    main thread, Windows), Ctrl-C stays Python's KeyboardInterrupt.
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    return stop


MAKE_ENV = "GAUNTLET_VIA_MAKE"
"""Set by `make run`: the advice names make's variables (`PORT=`, `HTTP_PORT=`)."""
MAKE_VARIABLES = {"--port": "PORT", "--http-port": "HTTP_PORT"}


def _advice(option: str, port: int) -> str:
    """How to pick another port, as the user started the command.

    >>> _advice("--http-port", 8000)
    'pick another with --http-port 8001 (0 = any free port)'
    """
    if os.environ.get(MAKE_ENV) and option in MAKE_VARIABLES:
        return f"pick another with make run {MAKE_VARIABLES[option]}={port + 1}"
    return f"pick another with {option} {port + 1} (0 = any free port)"


def run_server(main: Coroutine[Any, Any, None], host: str,
               ports: dict[int, str] | None = None) -> None:
    """`asyncio.run(main)`; a failed listen is one `error:` line and exit code 1.

    The line names the address that failed (the HTTP port as well as the bots' port), as
    the error reports it, the reason without the resolver's wording around it, and for a
    port in use the option that moves that port (`ports`: port -> its option).
    """
    ports = ports or {}
    try:
        asyncio.run(main)
    except OSError as error:
        if error.errno not in LISTEN_ERRORS:
            raise
        text = error.strerror or str(error)
        failed = next(iter(ports), 0)
        found = re.search(r"\('([^']*)', (\d+)\)", text)
        if found:
            failed = int(found.group(2))
            host = found.group(1)
            text = text.rsplit(": ", 1)[-1] if "):" in text else os.strerror(error.errno)
        hint = ""
        if error.errno == errno.EADDRINUSE and failed in ports:
            hint = f"; another gauntlet running? {_advice(ports[failed], failed)}"
        typer.echo(f"error: cannot listen on {host}:{failed}: {text}{hint}", err=True)
        raise typer.Exit(1) from None
