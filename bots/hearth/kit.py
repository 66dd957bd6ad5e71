"""The Hearth bot kit: everything between a Kettle TCP connection and your bot's ``act``.

A bot is a subclass of ``Bot`` (``bots.hearth.bot``)::

    from bots.hearth import Bot, run

    class MyBot(Bot):
        def act(self, state, options):
            return options[-1]          # options[0] is always END_TURN

    if __name__ == "__main__":
        run(MyBot())

``run`` reads the flags of the Blokus kit (``-h/--host``, ``-p/--port``,
``-r/--reservation GAME_ID:PASSWORD``), connects, joins (``queue_player``, or
``join_game`` with a reservation), asks for the game so far (``get_game_state``), keeps
the entity tree up to date from every ``history_block``, answers ``entity_choices``
(the mulligan: ``bot.mulligan``) and ``options`` (``bot.act``), and returns when
``game_finished`` says how the game ended.

As in the Blokus kit, ``BotSession`` is sans-I/O (bytes in, bytes out, the bot called in
between) on the Kettle codec's ``ClientConnection``, and two thin I/O layers drive it:
``play`` here (a blocking socket loop) and ``bots.hearth.aio.play_async``. The loops, the
errors and the flags are ``bots.driver``'s, shared with the Blokus kit (a Hearth
``ServerClosed`` is a Blokus ``ServerClosed``).

What the bot is shown: the engine's own ``State`` rebuilt from what this player has seen
(``games.hearth.tree.ViewTree.state``, i.e. ``State.from_view``) when the engine offers
it; otherwise the read-only ``EntityTree`` itself (``tree[id].card_id``, ``tree[id][tag]``,
``tree.hand(p)``, ``tree.board(p)``...). ``options`` is always a list of engine
``Action``s (``bots.hearth.options`` says how the Kettle options map onto them).

>>> from games.hearth import END_TURN
>>> class Lazy(Bot):
...     def act(self, state, options):
...         return END_TURN
>>> session = BotSession(Lazy())
>>> session.start()[4:]
b'{"type":"kettle:types/queue_player","queue_player":{"account_name":"Lazy"}}'
>>> BotSession(Lazy(), reservation="g1:secret").start()[4:]
b'{"type":"kettle:types/join_game","join_game":{"gameID":"g1","password":"secret"}}'
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

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
from bots.driver import os_reason as os_reason
from bots.hearth.bot import Bot, Outcome
from bots.hearth.options import actions_from_tree, choice_for, sub_option_for
from bots.hearth.tree import EntityTree, TreeError
from games.hearth import Action, State
from protocols.kettle import (
    CHOICE_MULLIGAN,
    NEED_DATA,
    ChooseEntities,
    ChooseOption,
    ClientConnection,
    ConnectionClosed,
    EntityChoices,
    GameFinished,
    GameJoined,
    GetGameState,
    HistoryBlock,
    JoinGame,
    Nack,
    Options,
    ProtocolError,
    QueuePlayer,
    Refused,
)
from protocols.kettle import Concede as ConcedeMessage

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "BotFailed",
    "BotSession",
    "ConnectFailed",
    "KitError",
    "ServerClosed",
    "ServerProtocolError",
    "ServerRefused",
    "ServerSilent",
    "add_connection_arguments",
    "parse_reservation",
    "play",
    "run",
    "run_with",
]

log = logging.getLogger("bots.hearth")

Deck = tuple[str, Sequence[str]]
"""``(hero card id, [30 card ids])`` for ``queue_player``."""

# The constants and the KitError family come from bots.driver, shared with the Blokus kit
# (one class per error for both games); they stay importable from here.


def parse_reservation(text: str) -> tuple[str, str]:
    """``GAME_ID:PASSWORD`` (split at the first colon) -> ``(game_id, password)``.

    >>> parse_reservation("g7:pa:ss")
    ('g7', 'pa:ss')
    >>> parse_reservation("g7")
    Traceback (most recent call last):
    ...
    ValueError: a reservation is GAME_ID:PASSWORD, got 'g7'
    """
    game_id, sep, password = text.partition(":")
    if not sep or not game_id:
        raise ValueError(f"a reservation is GAME_ID:PASSWORD, got {text!r}")
    return game_id, password


def _engine_tree() -> Any:
    """The engine's own history fold (``games.hearth.tree.ViewTree``) when it can rebuild
    a ``State`` (``State.from_view``), else None."""
    if not hasattr(State, "from_view"):
        return None
    try:
        from games.hearth.tree import ViewTree
    except ImportError:
        return None
    return ViewTree()


# --- the sans-I/O session -----------------------------------------------------------


class BotSession:
    """One bot's game, without I/O: ``start()`` and ``receive_data()`` return bytes to send.

    Give it every byte read from the socket (``b""`` at end of file). After
    ``game_finished`` it sets ``finished`` and ``outcome``. Failures raise a ``KitError``
    subclass; ``abort()`` then gives the bytes of a ``concede`` (once a game was joined).

    ``reservation``: ``"GAME_ID:PASSWORD"`` or ``(game_id, password)`` -> ``join_game``;
    else ``queue_player`` with ``deck`` (``(hero id, [30 card ids])``, optional).
    ``view``: how the bot's ``state`` is made from ``(tree, player)`` (default: an engine
    ``State`` when the engine can rebuild one, else the tree).
    """

    def __init__(
        self,
        bot: Bot,
        *,
        reservation: str | tuple[str, str] | None = None,
        deck: Deck | None = None,
        account_name: str | None = None,
        view: Callable[[EntityTree, int], Any] | None = None,
    ) -> None:
        self.bot = bot
        self.reservation = (parse_reservation(reservation) if isinstance(reservation, str)
                            else reservation)
        self.deck = deck
        self.account_name = account_name if account_name is not None else bot.name
        self.view = view
        self.conn = ClientConnection()
        self.tree = EntityTree()
        self.engine_tree = _engine_tree() if view is None else None
        self._views = 0
        self.game_id: str | None = None
        self.player: int | None = None
        self.outcome: Outcome | None = None
        self.nacks: list[Nack] = []
        self.options_answered = 0
        self.finished = False
        self._conceded = False

    @property
    def joined(self) -> bool:
        """The server has answered our join: we have a seat in a game."""
        return self.game_id is not None

    @property
    def started(self) -> bool:
        """The game has begun for us (we were shown a state or answered options)."""
        return self._views > 0 or self.options_answered > 0

    def start(self) -> bytes:
        """The opening bytes: ``join_game`` with a reservation, else ``queue_player``."""
        if self.reservation is not None:
            return self.conn.send(JoinGame(*self.reservation))
        hero, cards = self.deck if self.deck is not None else (None, None)
        return self.conn.send(QueuePlayer(self.account_name, hero,
                                          None if cards is None else tuple(cards)))

    def abort(self) -> bytes:
        """Bytes to leave a game after a failure (a ``concede``); empty when not in a game."""
        if self.game_id is None or self.finished or self._conceded or self.conn.send_closed:
            return b""
        self._conceded = True
        return self.conn.send(ConcedeMessage())

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
            if self.game_id is None:
                raise ServerProtocolError(f"the server does not speak Kettle: {error.reason}"
                                          ) from None
            raise ServerProtocolError(f"the server broke the protocol: {error.reason}") from None
        return bytes(out)

    def _handle(self, event: object) -> bytes:
        match event:
            case HistoryBlock(entries=entries):
                if entries and str(entries[0].get("type", "")).endswith("/create_game"):
                    # a whole history (get_game_state): start over
                    self.tree = EntityTree()
                    self.engine_tree = _engine_tree() if self.view is None else None
                try:
                    self.tree.apply(entries)
                except TreeError as error:
                    raise ServerProtocolError(f"history does not fit our tree: {error}") from None
                if self.engine_tree is not None:
                    self.engine_tree.feed(entries)
            case Options():
                return self._answer_options(event)
            case EntityChoices():
                return self._answer_choices(event)
            case GameJoined(game_id=game_id, player_id=player_id):
                self.game_id, self.player = game_id, player_id
                log.debug("joined game %s as player %d", game_id, player_id)
                self._call(self.bot.on_start, player_id)
                return self.conn.send(GetGameState())
            case GameFinished(winners=winners, losers=losers, result=result):
                winner = winners[0] if len(winners) == 1 else 0
                self.outcome = Outcome(self.player, winner, result)
                self.finished = True
                log.debug("game over: %s (losers %s)", self.outcome.describe(), losers)
                self._call(self.bot.on_result, self.outcome)
            case Nack():
                self.nacks.append(event)
                if self.game_id is None:
                    raise ServerRefused(f"the server refused to seat us: {event.reason}: "
                                        f"{event.message}")
                log.warning("the server refused %s: %s: %s", event.not_acknowledged_object,
                            event.reason, event.message)
            case Refused(close=True) if self.game_id is None:
                raise ServerProtocolError(f"the server does not speak Kettle: "
                                          f"{event.nack.message}")
            case Refused(close=True):
                raise ServerProtocolError(f"the server broke the protocol: {event.nack.message}")
            case Refused():
                log.warning("ignored a message we cannot read: %s", event.nack.message)
            case ConnectionClosed():
                raise ServerClosed(
                    "the server closed the connection before the game was over"
                    if self.game_id is not None
                    else "the server closed the connection before we could join"
                )
            case _:
                pass  # ack
        return b""

    def _player(self) -> int:
        if self.player is None:
            raise ServerProtocolError("the server asked for a decision before game_joined")
        return self.player

    def _view(self, player: int, choice: tuple[int, Sequence[int], int] | None = None) -> Any:
        """The ``state`` the bot is shown (a fresh one per decision: the bot may keep it);
        ``choice``: the mid-turn choice open now (player, offered ids, source entity)."""
        if self.view is not None:
            return self.view(self.tree, player)
        if self.engine_tree is None:
            return self.tree
        self._views += 1
        try:
            return self.engine_tree.state(player, seed=self._views, choice=choice)
        except Exception as error:  # the engine's rebuild failed: say so, show the tree
            log.warning("State.from_view failed (%s: %s); showing the bot the entity tree",
                        type(error).__name__, error)
            return self.tree

    def _answer_choices(self, choices: EntityChoices) -> bytes:
        player = self._player()
        offered = list(choices.entities)
        general = choices.choice_type != CHOICE_MULLIGAN
        # A mid-turn choice is not in the history: the rebuilt state reopens it.
        state = self._view(player, (player, offered, choices.source) if general else None)
        if choices.choice_type == CHOICE_MULLIGAN:
            picked = self._call(self.bot.mulligan, state, offered)
        else:
            picked = self._call(self.bot.choose, state, offered, choices.count_min,
                                choices.count_max)
        if not isinstance(picked, list | tuple) or not set(picked) <= set(offered):
            raise BotFailed(f"{self.bot.name} chose {picked!r}, not a subset of {offered}")
        chosen = tuple(dict.fromkeys(picked))
        if not choices.count_min <= len(chosen) <= choices.count_max:
            raise BotFailed(f"{self.bot.name} chose {len(chosen)} entities, the server asks "
                            f"for {choices.count_min}..{choices.count_max}")
        return self.conn.send(ChooseEntities(choices.choice_id, chosen))

    def _answer_options(self, options: Options) -> bytes:
        player = self._player()
        actions = actions_from_tree(options.options, self.tree, player)
        if not actions:
            raise ServerProtocolError("the server sent options none of which we can read")
        state = self._view(player)
        action = self._call(self.bot.act, state, actions)
        if not isinstance(action, Action) or action not in actions:
            raise BotFailed(f"{self.bot.name}.act() returned {action!r}, "
                            "which is not one of its options")
        index, target, position = choice_for(options.options, action)
        self.options_answered += 1
        return self.conn.send(ChooseOption(options.options_id, index, target,
                                           sub_option_for(action), position))

    def _call(self, hook: Callable[..., Any], *args: Any) -> Any:
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
    reservation: str | tuple[str, str] | None = None,
    *,
    deck: Deck | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    idle_timeout: float | None = None,
    on_waiting: Callable[[], object] | None = None,
) -> Outcome:
    """Play one game on a Kettle server and return how it ended; raises ``KitError``s.

    ``idle_timeout`` (seconds): give up when the server says nothing for that long
    (default: wait forever; the opponent may think for long). ``on_waiting`` is called
    once when we have joined a game and nothing asked us to decide for ``WAIT_NOTICE``
    seconds (``run`` prints "waiting for an opponent...").
    """
    session = BotSession(bot, reservation=reservation, deck=deck)
    return driver.drive(session, host, port, listener="a Gauntlet server (Kettle)",
                        connect_timeout=connect_timeout, idle_timeout=idle_timeout,
                        on_waiting=on_waiting)


# --- command line -------------------------------------------------------------------


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    """``-h/--host``, ``-p/--port``, ``-r/--reservation`` (help is ``--help`` only); without
    ``-r``, ``$GAUNTLET_RESERVATION`` (how the server hands it to a bot it launches)."""
    driver.add_server_arguments(
        parser, reservation_help="a reserved seat (join_game) instead of queue_player",
        reservation_metavar="GAME_ID:PASSWORD")
    driver.add_session_arguments(parser)


def _parser(prog: str | None) -> argparse.ArgumentParser:
    return driver.make_parser(prog, "A Kettle (Hearth) bot.", add_connection_arguments)


def run(bot: Bot, argv: Sequence[str] | None = None) -> NoReturn:
    """Parse the flags, play one game, exit (0 after ``game_finished``, 1 on failure).

    Failures print one ``error:`` line on stderr; the bot's own exceptions add their
    traceback.
    """
    args = _parser(None).parse_args(argv)
    sys.exit(run_with(bot, host=args.host, port=args.port, reservation=args.reservation,
                      idle_timeout=args.idle_timeout, verbose=args.verbose))


def run_with(
    bot: Bot,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    reservation: str | None = None,
    deck: Deck | None = None,
    idle_timeout: float | None = None,
    verbose: bool = False,
) -> int:
    """``run`` without the argument parsing: returns the exit code."""
    return driver.run_game(
        bot,
        lambda on_waiting: play(bot, host, port, reservation, deck=deck,
                                idle_timeout=idle_timeout, on_waiting=on_waiting),
        verbose=verbose,
        failures=(KitError, ValueError),  # ValueError: a malformed -r GAME_ID:PASSWORD
    )
