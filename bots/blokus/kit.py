"""The Blokus bot kit: everything between a TCP socket and your bot's ``move(state)``.

A bot is a subclass of ``Bot`` with one method::

    from bots.blokus import Bot, run

    class MyBot(Bot):
        def move(self, state):
            return max(state.legal_moves(), key=lambda m: len(m.cells))

    if __name__ == "__main__":
        run(MyBot())

``run`` reads the official client flags (``-h/--host``, ``-p/--port``,
``-r/--reservation``), connects, joins (``<join/>``, or ``<joinPrepared>`` with a
reservation), turns every memento into an engine ``games.blokus.State``, calls
``move(state)`` on every moveRequest, sends the move, and leaves cleanly after the result
(``<close/></protocol>``).

The kit is built like the protocol codec under it: ``BotSession`` is sans-I/O (bytes in,
bytes out, the bot called in between) and two thin I/O layers drive it: ``play`` here, a
plain blocking socket loop, and ``bots.blokus.aio.play_async`` for asyncio programs.
The blocking loop is the one students get because a bot is CPU-bound: while ``move()``
searches, nothing else needs to happen in its process, so an event loop would only add
ways to get it wrong (a long search starving the loop). Both layers share every protocol
decision, so ``gauntlet play`` exercises exactly the code a student's bot runs. Both loops,
the errors (``KitError`` and its subclasses) and the flags are ``bots.driver``'s, shared
with the Hearth kit: the two kits raise the very same exception classes.

>>> from games import blokus
>>> class First(Bot):
...     def move(self, state):
...         return next(iter(state.legal_moves()))
>>> session = BotSession(First())
>>> session.start()
b'<protocol>\\n  <join/>'
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from bots import driver
from bots.driver import CONNECT_TIMEOUT as CONNECT_TIMEOUT
from bots.driver import DEFAULT_HOST as DEFAULT_HOST
from bots.driver import DEFAULT_PORT as DEFAULT_PORT
from bots.driver import HELLO_TIMEOUT as HELLO_TIMEOUT
from bots.driver import READ_SIZE as READ_SIZE
from bots.driver import WAIT_NOTICE as WAIT_NOTICE
from bots.driver import WAITING as WAITING
from bots.driver import BotFailed as BotFailed
from bots.driver import ConnectFailed as ConnectFailed
from bots.driver import KitError as KitError
from bots.driver import ServerClosed as ServerClosed
from bots.driver import ServerProtocolError as ServerProtocolError
from bots.driver import ServerRefused as ServerRefused
from bots.driver import ServerSilent as ServerSilent
from bots.sc_result import Outcome, violation_cause
from games.blokus import SetMove, SkipMove, State
from protocols.base import NEED_DATA, ConnectionClosed, ProtocolError, StreamEnd
from protocols.sc import ClientConnection
from protocols.sc import messages as m

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "Bot",
    "BotFailed",
    "BotSession",
    "ConnectFailed",
    "KitError",
    "Outcome",
    "ServerClosed",
    "ServerProtocolError",
    "ServerRefused",
    "ServerSilent",
    "add_connection_arguments",
    "play",
    "run",
    "violation_cause",
]

log = logging.getLogger("bots.blokus")

Move = SetMove | SkipMove

# The constants and the KitError family come from bots.driver, shared with the Hearth kit
# (one class per error for both games); they stay importable from here.
_os_reason = driver.os_reason


# --- the bot interface --------------------------------------------------------------


class Bot:
    """Base class of a Blokus bot: implement ``move``; the other hooks are optional.

    ``move(state)`` gets a private copy of the position (search it, push and pop on it,
    the kit does not look at it again) and returns a ``SetMove`` or ``SkipMove`` for
    ``state.current_color``. ``state.legal_moves()`` lists every legal move.

    >>> from games import blokus
    >>> class Skipper(Bot):
    ...     def move(self, state):
    ...         return blokus.SkipMove(state.current_color)
    >>> Skipper().name
    'Skipper'
    """

    @property
    def name(self) -> str:
        return type(self).__name__

    def on_start(self, team: str) -> None:
        """The game starts; we play ``team`` (``ONE`` = BLUE+RED, ``TWO`` = YELLOW+GREEN)."""

    def on_update(self, state: State) -> None:
        """A new position arrived (after every move, ours and the opponent's)."""

    def move(self, state: State) -> Move:
        """The move for ``state.current_color``; called on every moveRequest."""
        raise NotImplementedError(f"{type(self).__name__} must implement move(state)")

    def on_result(self, outcome: Outcome) -> None:
        """The game is over."""


# --- results ------------------------------------------------------------------------

# --- the sans-I/O session -----------------------------------------------------------


class BotSession:
    """One bot's game, without I/O: ``start()`` and ``receive_data()`` return bytes to send.

    Give it every byte read from the socket (``b""`` at end of file). It keeps the latest
    state, calls the bot's hooks, answers moveRequests with ``bot.move()``, and after the
    ``left`` that follows the result returns the closing bytes and sets ``finished``.
    Failures raise a ``KitError`` subclass; ``abort()`` then gives polite closing bytes.

    ``check_moves`` logs a warning (the server still decides) when the bot returns a move
    our engine calls illegal: usually a student's bug, easier to spot here than in the
    server's German reason text.
    """

    def __init__(
        self,
        bot: Bot,
        *,
        reservation: str | None = None,
        room_id: str | None = None,
        check_moves: bool = True,
    ) -> None:
        self.bot = bot
        self.reservation = reservation
        self.join_room = room_id
        self.check_moves = check_moves
        self.conn = ClientConnection()
        self.room_id: str | None = None
        self.team: str | None = None
        self.state: State | None = None
        self.outcome: Outcome | None = None
        self.rejected: list[m.RoomError] = []
        self.moves_sent = 0
        self.finished = False

    @property
    def joined(self) -> bool:
        """The server has answered our join: we are in a room."""
        return self.room_id is not None

    @property
    def started(self) -> bool:
        """The game has begun for us (the ``welcome`` told our team)."""
        return self.team is not None

    def start(self) -> bytes:
        """The opening bytes: ``<protocol>`` and the join request."""
        request: m.ClientMessage
        if self.reservation is not None:
            request = m.JoinPrepared(self.reservation)
        elif self.join_room is not None:
            request = m.JoinRoom(self.join_room)
        else:
            request = m.Join()
        return self.conn.send(request)

    def abort(self) -> bytes:
        """Closing bytes after a failure (``<close/></protocol>``), empty if already sent."""
        if self.conn.send_closed:
            return b""
        try:
            return self.conn.send(m.Close()) + self.conn.close()
        except Exception:  # the codec may be in its error state; end the document anyway
            return self.conn.close()

    def receive_data(self, data: bytes) -> bytes:
        """Feed bytes from the server; returns what to send back (possibly ``b""``)."""
        if self.finished:
            return b""
        out = bytearray()
        try:
            self.conn.receive_data(data)
            while not self.finished:
                event = self.conn.next_event()
                if event is NEED_DATA:
                    break
                out += self._handle(event)
        except ProtocolError as error:
            if self.room_id is None:
                raise ServerProtocolError(f"the server does not speak the Software-Challenge "
                                          f"protocol: {error.reason}") from None
            raise ServerProtocolError(f"the server broke the protocol: {error.reason}") from None
        return bytes(out)

    def _handle(self, event: object) -> bytes:
        match event:
            case m.Memento(state=state):
                self.state = state
                # A copy, so that a bot scribbling on it cannot change what we check against.
                self._call(self.bot.on_update, state.clone())
            case m.MoveRequest(room_id=room_id):
                return self._answer(room_id)
            case m.Joined(room_id=room_id):
                self.room_id = room_id
                log.debug("joined room %s", room_id)
            case m.Welcome(team=team):
                self.team = team
                log.debug("playing team %s", team)
                self._call(self.bot.on_start, team)
            case m.RoomError():
                self.rejected.append(event)
                log.warning("the server rejected our move: %s", event.message)
            case m.Result():
                self.outcome = Outcome.from_result(event, self.team)
                self._call(self.bot.on_result, self.outcome)
            case m.Left():
                self.finished = True
                return self.conn.send(m.Close()) + self.conn.close()
            case m.ErrorPacket(message=message):
                raise ServerRefused(f"the server refused a request: {message}")
            case StreamEnd() | ConnectionClosed() if self.outcome is not None:
                # The result came but no <left>: the game is over all the same.
                self.finished = True
                return self.abort()
            case StreamEnd() | ConnectionClosed():
                raise ServerClosed(
                    "the server closed the connection before the game was over"
                    if self.room_id is not None
                    else "the server closed the connection before we could join"
                )
            case _:
                pass  # Paused, Observed... are for administrators
        return b""

    def _answer(self, room_id: str) -> bytes:
        if self.state is None:
            raise ServerProtocolError("the server asked for a move before sending a state")
        state = self.state
        move = self._call(self.bot.move, state.clone())
        if not isinstance(move, SetMove | SkipMove):
            raise BotFailed(
                f"{self.bot.name}.move() returned {move!r}, expected a SetMove or SkipMove"
            )
        if self.check_moves and not state.is_legal(move):
            log.warning("%s.move() returned %r, which is not legal here; sending it anyway",
                        self.bot.name, move)
        self.moves_sent += 1
        return self.conn.send(m.RoomPacket(room_id, move))

    def _call(self, hook, *args):  # type: ignore[no-untyped-def]
        try:
            return hook(*args)
        except KitError:
            raise
        except Exception as error:
            raise BotFailed(
                f"{self.bot.name}.{hook.__name__}() raised {type(error).__name__}: {error}"
            ) from error


# --- the blocking I/O layer ---------------------------------------------------------


def play(
    bot: Bot,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    reservation: str | None = None,
    *,
    room_id: str | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float | None = None,
    on_waiting: Callable[[], object] | None = None,
) -> Outcome:
    """Play one game on a server and return how it ended; raises ``KitError`` subclasses.

    ``idle_timeout`` (seconds) gives up when the server says nothing for that long; the
    default waits forever, like the official clients (an opponent may think for long
    when the server runs without timeouts, or an admin may pause the game). Until the
    server has answered the join, silence of ``HELLO_TIMEOUT`` seconds is an error (no
    Software-Challenge server listens there). ``on_waiting`` is called once when we have
    joined a room whose game has not started within ``WAIT_NOTICE`` seconds (``run``
    prints "waiting for an opponent...").
    """
    session = BotSession(bot, reservation=reservation, room_id=room_id)
    return driver.drive(session, host, port,
                        listener="a Software-Challenge server (gauntlet serve)",
                        connect_timeout=connect_timeout, idle_timeout=idle_timeout,
                        on_waiting=on_waiting)


# --- command line -------------------------------------------------------------------


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    """The official clients' flags: ``-h/--host``, ``-p/--port``, ``-r/--reservation``.

    ``-h`` is the host, as in the official clients; help is ``--help`` only. Without
    ``-r`` the reservation comes from ``$GAUNTLET_RESERVATION``: that is how the server
    hands it to a bot it launches.
    """
    driver.add_server_arguments(
        parser, reservation_help="reservation code of a prepared game (joinPrepared)",
        reservation_metavar=None)
    parser.add_argument("--room", default=None, help="join this room id (joinRoom)")
    driver.add_session_arguments(parser)


def _parser(prog: str | None) -> argparse.ArgumentParser:
    return driver.make_parser(prog, "A Software-Challenge Blokus bot.", add_connection_arguments)


def run(bot: Bot, argv: Sequence[str] | None = None) -> NoReturn:
    """Parse the official flags, play one game, exit (0 after a result, 1 on failure).

    Failures print one line starting with ``error:`` on stderr, never a traceback, except
    for the bot's own exceptions (``BotFailed``), whose traceback is what you need.
    """
    args = _parser(None).parse_args(argv)
    sys.exit(run_with(bot, host=args.host, port=args.port, reservation=args.reservation,
                      room_id=args.room, idle_timeout=args.idle_timeout, verbose=args.verbose))


def run_with(
    bot: Bot,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    reservation: str | None = None,
    room_id: str | None = None,
    idle_timeout: float | None = None,
    verbose: bool = False,
) -> int:
    """``run`` without the argument parsing: returns the exit code instead of exiting."""
    return driver.run_game(
        bot,
        lambda on_waiting: play(bot, host, port, reservation, room_id=room_id,
                                idle_timeout=idle_timeout, on_waiting=on_waiting),
        verbose=verbose,
    )
