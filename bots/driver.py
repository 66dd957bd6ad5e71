"""What the two bot kits share: their errors, the socket loops, the command line.

Each kit (``bots.blokus.kit``, ``bots.hearth.kit``) has a sans-I/O ``BotSession`` for its
protocol (Software-Challenge XML, Kettle JSON) and its ``Bot`` class; everything between
such a session and a socket lives here, once:

- the ``KitError`` family: both kits raise these very classes (``bots.blokus.ServerClosed
  is bots.hearth.ServerClosed``), so a program running bots of both games needs one
  ``except``;
- ``drive``: the blocking socket loop of ``play``, with the join/wait/idle timeouts;
- ``drive_async``: its asyncio twin, behind ``play_async``;
- the flags every kit bot takes (``add_server_arguments``, ``add_session_arguments``,
  ``make_parser``) and ``run_game``, the exit-code logic of ``run``.

Any object with the ``SansIOSession`` interface can be driven:

>>> class Silent:
...     finished = joined = started = False
...     outcome = None
...     def start(self): return b"hello"
...     def receive_data(self, data): return b""
...     def abort(self): return b""
>>> try:
...     drive(Silent(), "127.0.0.1", 1, listener="anything")
... except ConnectFailed as error:
...     print(error)
cannot connect to 127.0.0.1:1: Connection refused
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import socket
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TypeVar

from bots import RESERVATION_ENV, reservation_from_env

__all__ = [
    "CONNECT_TIMEOUT",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "HELLO_TIMEOUT",
    "READ_SIZE",
    "WAITING",
    "WAIT_NOTICE",
    "BotFailed",
    "ConnectFailed",
    "KitError",
    "SansIOSession",
    "ServerClosed",
    "ServerProtocolError",
    "ServerRefused",
    "ServerSilent",
    "add_server_arguments",
    "add_session_arguments",
    "drive",
    "drive_async",
    "make_parser",
    "os_reason",
    "run_game",
]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 13050
READ_SIZE = 65536
CONNECT_TIMEOUT = 10.0
# A server answers a join at once (Software-Challenge: `joined` or an errorpacket; Kettle:
# game_joined or a nack); silence this long means something else listens on that port.
HELLO_TIMEOUT = 15.0
# Joined, and the game has not started for this long: it waits for its second player.
WAIT_NOTICE = 1.0
WAITING = "waiting for an opponent..."


# --- errors -------------------------------------------------------------------------


class KitError(Exception):
    """Why a bot could not play its game to the end; ``str()`` is meant for humans."""


class ConnectFailed(KitError):
    """No server answered at host:port."""


class ServerClosed(KitError):
    """The connection ended before the game was over (no ``result``, no ``game_finished``)."""


class ServerSilent(KitError):
    """Nothing arrived from the server for longer than the idle timeout."""


class ServerRefused(KitError):
    """The server refused a request: an ``errorpacket`` (Blokus) or a ``nack`` of our
    ``queue_player`` / ``join_game`` (Hearth): bad reservation, full room, bad deck..."""


class ServerProtocolError(KitError):
    """The server sent something that is not its protocol, or history that does not fit."""


class BotFailed(KitError):
    """The bot's own code raised, or it answered with something that is not a move among
    its options."""


# --- the session interface ----------------------------------------------------------

OutcomeT = TypeVar("OutcomeT")
OutcomeT_co = TypeVar("OutcomeT_co", covariant=True)


class SansIOSession(Protocol[OutcomeT_co]):
    """A bot's game without I/O, as each kit's ``BotSession`` implements it.

    ``start()`` gives the opening bytes, ``receive_data(data)`` takes every byte read
    (``b""`` at end of file) and returns what to send back, ``abort()`` gives polite
    closing bytes after a failure (possibly ``b""``). Failures raise ``KitError``s.
    ``finished`` ends the loop and ``outcome`` says how the game ended (None: no result).
    ``joined``: the server has answered our join; ``started``: the game has begun for us
    (the loops' timeouts depend on both).
    """

    @property
    def finished(self) -> bool: ...

    @property
    def outcome(self) -> OutcomeT_co | None: ...

    @property
    def joined(self) -> bool: ...

    @property
    def started(self) -> bool: ...

    def start(self) -> bytes: ...

    def receive_data(self, data: bytes) -> bytes: ...

    def abort(self) -> bytes: ...


def _result(session: SansIOSession[OutcomeT]) -> OutcomeT:
    outcome = session.outcome
    if outcome is None:
        raise ServerClosed("the server ended the game without a result")
    return outcome


# --- the blocking I/O layer ---------------------------------------------------------


def drive(
    session: SansIOSession[OutcomeT],
    host: str,
    port: int,
    *,
    listener: str,
    connect_timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float | None = None,
    on_waiting: Callable[[], object] | None = None,
) -> OutcomeT:
    """Play ``session`` over a blocking TCP socket; returns its outcome or raises ``KitError``s.

    ``idle_timeout`` (seconds) gives up when the server says nothing for that long (None:
    wait forever). Until the server has answered the join, silence of ``HELLO_TIMEOUT``
    seconds (or ``idle_timeout`` if shorter) is an error whose message asks whether
    ``listener`` (e.g. ``"a Gauntlet server (Kettle)"``) listens there. ``on_waiting`` is
    called once when we have joined and the game has not started within ``WAIT_NOTICE``
    seconds. On a failure after connecting, ``session.abort()``'s bytes are sent (with a
    1 s timeout, errors ignored) before the error is raised.
    """
    try:
        sock = socket.create_connection((host, port), timeout=connect_timeout)
    except OSError as error:
        raise ConnectFailed(f"cannot connect to {host}:{port}: {os_reason(error)}") from None
    with sock:
        # Moves are small and latency matters: do not let Nagle hold them back.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        hello = HELLO_TIMEOUT if idle_timeout is None else min(idle_timeout, HELLO_TIMEOUT)
        sock.settimeout(hello)
        # None: not joined yet; False: joined, not started yet; True: settled.
        waiting: bool | None = None
        try:
            sock.sendall(session.start())
            while not session.finished:
                try:
                    data = sock.recv(READ_SIZE)
                except TimeoutError:
                    if waiting is not False:
                        raise
                    # Joined, and nothing started for WAIT_NOTICE seconds: the game waits.
                    waiting = True
                    if on_waiting is not None:
                        on_waiting()
                    sock.settimeout(idle_timeout)
                    continue
                reply = session.receive_data(data)
                if reply:
                    sock.sendall(reply)
                if waiting is None and session.joined:
                    waiting = session.started
                    sock.settimeout(idle_timeout if waiting else _shorter(WAIT_NOTICE,
                                                                          idle_timeout))
                elif waiting is False and session.started:
                    waiting = True
                    sock.settimeout(idle_timeout)
        except TimeoutError:
            _send_quietly(sock, session.abort())
            if not session.joined:
                raise ServerSilent(
                    f"no answer to our join from {host}:{port} within {hello:g} s: is "
                    f"{listener} listening there?") from None
            raise ServerSilent(
                f"no message from {host}:{port} for {idle_timeout} s; giving up"
            ) from None
        except KitError:
            _send_quietly(sock, session.abort())
            raise
        except OSError as error:
            raise ServerClosed(f"connection to {host}:{port} lost: {os_reason(error)}") from None
    return _result(session)


def _shorter(a: float, b: float | None) -> float:
    return a if b is None else min(a, b)


def _send_quietly(sock: socket.socket, data: bytes) -> None:
    if not data:
        return
    try:
        sock.settimeout(1.0)
        sock.sendall(data)
    except OSError:
        pass


def os_reason(error: OSError) -> str:
    """An ``OSError`` in a few words: its ``strerror``, else its text, else its class name.

    >>> os_reason(ConnectionRefusedError(111, "Connection refused"))
    'Connection refused'
    >>> os_reason(TimeoutError())
    'TimeoutError'
    """
    return error.strerror or str(error) or type(error).__name__


# --- the asyncio I/O layer ----------------------------------------------------------


async def drive_async(
    session: SansIOSession[OutcomeT],
    host: str,
    port: int,
    *,
    name: str,
    connect_timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float | None = None,
) -> OutcomeT:
    """``drive`` on asyncio streams; each protocol step runs in a thread ``bot-{name}``.

    The bot's code (``receive_data`` calls it) thus never holds up the event loop. There is
    no join or waiting timeout here, only ``idle_timeout``; on a ``KitError`` the
    ``abort()`` bytes are written without waiting for them to drain.
    """
    try:
        async with asyncio.timeout(connect_timeout):
            reader, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError) as error:
        reason = "timed out" if isinstance(error, TimeoutError) else os_reason(error)
        raise ConnectFailed(f"cannot connect to {host}:{port}: {reason}") from None
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    loop = asyncio.get_running_loop()
    thinker = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"bot-{name}")
    try:
        writer.write(session.start())
        await writer.drain()
        while not session.finished:
            try:
                async with asyncio.timeout(idle_timeout):
                    data = await reader.read(READ_SIZE)
            except TimeoutError:
                raise ServerSilent(
                    f"no message from {host}:{port} for {idle_timeout} s; giving up"
                ) from None
            reply = await loop.run_in_executor(thinker, session.receive_data, data)
            if reply:
                writer.write(reply)
                await writer.drain()
    except KitError:
        with contextlib.suppress(OSError, RuntimeError):
            writer.write(session.abort())
        raise
    except OSError as error:
        raise ServerClosed(f"connection to {host}:{port} lost: {os_reason(error)}") from None
    finally:
        thinker.shutdown(wait=False, cancel_futures=True)
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            async with asyncio.timeout(2.0):
                await writer.wait_closed()
    return _result(session)


# --- command line -------------------------------------------------------------------


def add_server_arguments(
    parser: argparse.ArgumentParser, *, reservation_help: str, reservation_metavar: str | None
) -> None:
    """``-h/--host``, ``-p/--port`` and ``-r/--reservation`` (default
    ``$GAUNTLET_RESERVATION``); ``reservation_help`` says what a reservation joins."""
    parser.add_argument("-h", "--host", default=DEFAULT_HOST,
                        help=f"server address (default {DEFAULT_HOST})")
    parser.add_argument("-p", "--port", type=int, default=DEFAULT_PORT,
                        help=f"server port (default {DEFAULT_PORT})")
    parser.add_argument("-r", "--reservation", default=reservation_from_env(),
                        metavar=reservation_metavar,
                        help=f"{reservation_help}; "
                        f"default: ${RESERVATION_ENV}, set by the server that launched the bot")


def add_session_arguments(parser: argparse.ArgumentParser) -> None:
    """``--idle-timeout`` and ``-v/--verbose``."""
    parser.add_argument("--idle-timeout", type=float, default=None,
                        help="give up when the server is silent this many seconds")
    parser.add_argument("-v", "--verbose", action="store_true", help="log every message")


def make_parser(
    prog: str | None, description: str, add_arguments: Callable[[argparse.ArgumentParser], None]
) -> argparse.ArgumentParser:
    """A parser with ``--help`` only (``-h`` is the host) and a kit's connection flags."""
    parser = argparse.ArgumentParser(prog=prog, add_help=False, description=description)
    parser.add_argument("--help", action="help", help="show this help and exit")
    add_arguments(parser)
    return parser


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class _Describable(Protocol):
    def describe(self) -> str: ...


def _print_waiting() -> None:
    print(WAITING, file=sys.stderr, flush=True)


def run_game(
    bot: _Named,
    play: Callable[[Callable[[], object]], _Describable],
    *,
    verbose: bool = False,
    failures: tuple[type[Exception], ...] = (KitError,),
) -> int:
    """A kit's ``run_with``: ``play(on_waiting)`` one game, report it, return the exit code.

    Sets up logging on stderr (debug with ``verbose``) unless the program already did.
    0 after a result (one line ``{bot.name}: {outcome.describe()}`` on stderr), 1 when
    ``play`` raised one of ``failures`` (one ``error:`` line; a ``BotFailed`` adds the bot's
    own traceback), 130 on Ctrl-C. ``on_waiting`` prints ``WAITING`` on stderr.
    """
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING,
                            format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        outcome = play(_print_waiting)
    except BotFailed as error:
        print(f"error: {error}", file=sys.stderr)
        if error.__cause__ is not None:
            import traceback

            traceback.print_exception(error.__cause__, file=sys.stderr)
        return 1
    except failures as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    print(f"{bot.name}: {outcome.describe()}", file=sys.stderr)
    return 0
