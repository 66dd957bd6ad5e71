"""The game registry: game id -> plugin, filled from Python entry points.

A game package (ours or a third party's) declares in its packaging metadata::

    [project.entry-points."gauntlet.games"]
    tictactoe = "my_package.gauntlet:PLUGIN"

where `PLUGIN` is a `GamePlugin` (or a callable returning one). The entry point's name is
the game id. Blokus and Hearth register the same way, in our pyproject.toml.

>>> registry = GameRegistry.from_entry_points()
>>> "swc_2027_blokus" in registry and "hearth" in registry
True
>>> sorted(registry.get("hearth").protocols)
['kettle']
"""

from __future__ import annotations

import importlib.util
import logging
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from server.rooms.game import Game, UnknownGameType

if TYPE_CHECKING:
    from server.rooms.events import StateChanged
    from server.spectate.frames import Frame
    from server.spectate.render import Renderer

log = logging.getLogger(__name__)

GROUP = "gauntlet.games"


class Spectating(Protocol):
    """How spectators watch a game: the frames the web viewer draws, live and stored."""

    def renderer(self, game: Game, names: list[str]) -> Renderer:
        """A live room's renderer (`server.spectate.render.Renderer`); `names`: the seats'."""
        ...

    def meta(self, names: list[str]) -> dict[str, Any]:
        """What never changes during a match (sent once per spectator connection)."""
        ...

    def stored_frames(self, match_id: str, events: list[Any], names: list[str],
                      violation_seat: int | None) -> list[Frame]:
        """A stored match's frames, from its stored events (`server.store` rows): those
        stored with them (`server.spectate.frames.stored_with`) and any the game stored
        more compactly."""
        ...


class Recording(Protocol):
    """How a game stores its state events more compactly than as its news: a record (Blokus:
    the move that led to the state) in the stored payload's field `key`, from which its
    readers (spectating, replays) rebuild what they need."""

    key: str

    def record_text(self, event: StateChanged) -> str:
        """The record of a state event, as compact JSON text (written once per move, on
        the store's writer thread: it should be cheap)."""
        ...


class TerminalDemo(Protocol):
    """`gauntlet demo`'s live match of the game's bundled `bots` (two names of its kit),
    drawn in the terminal; `intro` is printed before it (rich markup)."""

    intro: str
    bots: tuple[str, str]

    async def play(self, port: int, password: str, seed: int, console: Any,
                   animate: bool) -> str:
        """Play and draw the match on `console` (a rich Console) against the server on
        `port` (admin `password`); the result's reason, for the last line."""
        ...


class StoredAnswers(Protocol):
    """How a stored match's answers are read back and compared (issue #29: asking a bot
    again). An answer "in log form" is the move as the event log writes it (Blokus: the
    record's move list, Hearth: the `answer` list); the room's answer is what the game's
    adapter takes (`Game.apply`)."""

    def answers(self, events: list[tuple[int, str, Any]]) -> list[tuple[int, int, Any]]:
        """Every applied answer of a stored match, in order: (seq of its state event, seat,
        move in log form), from its events as (seq, kind, payload) in seq order."""
        ...

    def first_game(self, seed: int | None, events: list[tuple[int, str, Any]],
                   origin: Callable[[], Game] | None = None) -> Game:
        """The match's game before its first answer (decks not yet given); ValueError
        saying why it cannot be rebuilt (no seed stored). `origin`: as
        `StoredPosition.origin`."""
        ...

    def decode(self, move: Any) -> Any:
        """A move in log form as the room's answer; ValueError if it is not one."""
        ...

    def encode(self, answer: Any) -> Any:
        """A room's answer in log form (plain JSON)."""
        ...


@dataclass(frozen=True)
class ReplayFormat:
    """One way to export a finished match: `GET /api/matches/{id}/replay?format=<name>`.

    `export(match_id, events)` makes the document from a stored match's events (all of
    them, `server.store.Store.events_since`; None: this match has none, e.g. no result).
    `filename` names the download, `{id}` standing for the match id.
    """

    name: str
    media_type: str
    filename: str
    export: Callable[[str, list[Any]], str | None]


@dataclass(frozen=True)
class BundledBot:
    """A bot that comes with a game: registered by name when a server starts, so that
    `POST /api/matches` seats it as `{"bot": name}` and the ladder plays it.

    Either a process, `argv` its command line (the launcher appends `--host H --port P` and
    hands it its reservation in `GAUNTLET_RESERVATION`), or, for a game no wire protocol
    speaks, a function in the server's process: `play(view, payload)` answers a decision
    from the seat's `Game.view(seat)` and the decision's payload (run in a worker thread;
    `server.rooms.inprocess`), and `argv` is empty.
    """

    name: str
    argv: tuple[str, ...] = ()
    play: Callable[[Any, Any], Any] | None = None


@dataclass(frozen=True)
class BotKit:
    """A game's Python bot kit, as `gauntlet play` and `gauntlet bot` run its bots.

    `load(spec)` resolves a bot spec (one of `names`, `package.module:Class` or
    `file.py:Class`) once to a factory `factory(seed) -> bot`; it raises ValueError or
    ImportError for a bad spec (an exception with a `user_traceback` text shows the user's
    own traceback first). A child process plays it as `python -m <module> SPEC --seed N`
    over `protocol`; `play_async(bot, host, port, reservation, idle_timeout=...)` plays it
    on an asyncio task instead (tests, benchmarks). `run(bot, host=, port=, reservation=,
    room_id=, idle_timeout=, verbose=)` plays one game in the foreground and returns the exit
    code (`gauntlet bot <prefix>SPEC`); `check_reservation` refuses a malformed code
    (ValueError) before connecting.
    """

    module: str
    protocol: str
    prefix: str
    names: tuple[str, ...]
    load: Callable[[str], Callable[[int | None], Any]]
    run: Callable[..., int]
    play_async: Callable[..., Any]
    check_reservation: Callable[[str], object] | None = None


class PositionError(ValueError):
    """A position the game cannot start a match from; the text names the problem, `field`
    the request's field it is about (`from.turn`, `from.replay`, `from.rng`)."""

    def __init__(self, message: str, field: str = "from.turn") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class StoredPosition:
    """What a game rebuilds a stored match's position from (issue #29): the match's
    `seed` and `options` (as stored: a Hearth match's decks), its stored `events` (store
    rows, in seq order) that come before the position, and how its randomness goes on:
    `rng` "same" (the original stream) or "fresh" (reseeded with `fresh_seed`); `origin`,
    for a match that started from a position, the game there."""

    seed: int | None
    options: Mapping[str, Any]
    events: Sequence[Any]
    rng: str = "same"
    fresh_seed: int | None = None
    # For a match that itself started from a stored position: the game at its own start,
    # rebuilt on call (`server.positions.origin_of`); None for any other match.
    origin: Callable[[], Game] | None = None


def module_command(package: str, *args: str) -> tuple[str, ...] | None:
    """`python -m package args...` with this interpreter, when `package` has a `__main__`
    (None: it is not installed here)."""
    try:
        found = importlib.util.find_spec(f"{package}.__main__") is not None
    except (ImportError, ValueError):
        found = False
    return (sys.executable, "-m", package, *args) if found else None


def _no_bots() -> Sequence[BundledBot]:
    return ()


@dataclass(frozen=True)
class GamePlugin:
    """One game as the server sees it.

    `new_game(seed)` builds the room's adapter (seed None = fresh randomness; the same seed
    gives the same game); `protocols` names the wire protocols whose sessions can seat it
    ("sc", "kettle"); `bots` the bundled bots that play it; `spectating` how spectators
    watch it (None: a generic frame with whether it is over); `replays` the formats a
    finished match is exported in (the first is the default); `bundled()` the bots that
    come with it, with their command lines on this machine; `recording` how its state
    events are stored (None: as their public news). `kit()` is its Python bot kit (None:
    not installed here; imported only when asked for), `explain(reason)` the rule an illegal
    move's reason text names, in English (for `gauntlet play`'s report); `demo` the live
    match `gauntlet demo` shows in the terminal.
    """

    game_id: str
    new_game: Callable[[int | None], Game]
    protocols: frozenset[str] = field(default_factory=frozenset)
    bots: tuple[str, ...] = ()
    seat_count: int = 2
    spectating: Spectating | None = None
    replays: tuple[ReplayFormat, ...] = ()
    bundled: Callable[[], Sequence[BundledBot]] = _no_bots
    recording: Recording | None = None
    default_for: frozenset[str] = field(default_factory=frozenset)
    display_name: str = ""
    aliases: frozenset[str] = field(default_factory=frozenset)
    viewer: Path | None = None
    read_events: Callable[[list[Any], Callable[[], list[Any]]], list[Any]] | None = None
    replay_files: Callable[[Any, Any, Path], Sequence[Path]] | None = None
    sessions: Mapping[str, Callable[..., Any]] = field(default_factory=dict, hash=False)
    kit: Callable[[], BotKit | None] | None = None
    explain: Callable[[str], str | None] | None = None
    demo: TerminalDemo | None = None
    # A seat's deck (issue #27; Hearth): `read_deck(spec)` reads a deck as a user gives it
    # (text: a name or a code; an object) into the game's deck value, or raises ValueError
    # naming the card and the rule; `use_deck(game, seat, deck)` gives it to a seat of a
    # room's game before the game starts. None: the game takes no decks.
    read_deck: Callable[[Any], Any] | None = None
    use_deck: Callable[[Game, int, Any], None] | None = None
    # Matches from a position (issue #29). `position(stored)` is the room's game at a
    # stored match's position (`StoredPosition`), ready to be played on, each seat's news
    # from the start still to be handed out; `from_replay(data, turn)` the same from a
    # replay file of the game's own format (Blokus: an official SC replay, the first
    # memento with turn >= `turn`). Both raise `PositionError` naming the problem. None:
    # the game cannot start from positions.
    position: Callable[[StoredPosition], Game] | None = None
    from_replay: Callable[[bytes, int], Game] | None = None
    # Its positions may go on with a fresh random stream (`from.rng` "fresh"): a game with
    # randomness after its start (Hearth's draws). The viewer offers the choice by it.
    fresh_rng: bool = False
    # How its stored answers are read back (issue #29, `server.ask`); None: it cannot be
    # asked again.
    answers: StoredAnswers | None = None

    @property
    def name(self) -> str:
        """`display_name`, else the game id."""
        return self.display_name or self.game_id

    def replay_format(self, name: str | None) -> ReplayFormat | None:
        """The export called `name` (None: the default); None when there is no such one."""
        if name is None:
            return self.replays[0] if self.replays else None
        return next((f for f in self.replays if f.name == name), None)

    def speaks(self, protocol: str) -> bool:
        """Whether a session of `protocol` can seat this game."""
        return protocol in self.protocols


class GameRegistry:
    """Game id -> `GamePlugin`. `from_entry_points()` loads every installed game."""

    def __init__(self, plugins: Iterable[GamePlugin] = ()) -> None:
        self._plugins: dict[str, GamePlugin] = {}
        for plugin in plugins:
            self.register(plugin)

    def register(self, plugin: GamePlugin) -> None:
        if plugin.game_id in self._plugins:
            raise ValueError(f"game {plugin.game_id!r} is registered twice")
        self._plugins[plugin.game_id] = plugin

    @classmethod
    def from_entry_points(cls, group: str = GROUP) -> GameRegistry:
        """Every game installed under `group`. A plugin that fails to load is logged and
        left out: one broken game package must not keep the server from serving others."""
        registry = cls()
        for point in sorted(entry_points(group=group), key=lambda p: p.name):
            try:
                loaded = point.load()
                plugin = loaded if isinstance(loaded, GamePlugin) else loaded()
                if not isinstance(plugin, GamePlugin):
                    raise TypeError(f"{point.value} is not a GamePlugin")
                if plugin.game_id != point.name:
                    raise ValueError(f"entry point {point.name!r} names game {plugin.game_id!r}")
                registry.register(plugin)
            except Exception:
                log.exception("game plugin %s (%s) not loaded", point.name, point.value)
        return registry

    def get(self, game_id: str | None) -> GamePlugin:
        plugin = self._plugins.get(game_id) if game_id is not None else None
        if plugin is None:
            raise UnknownGameType(game_id)
        return plugin

    def new_game(self, game_id: str | None, seed: int | None = None) -> Game:
        return self.get(game_id).new_game(seed)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._plugins

    def __iter__(self) -> Iterator[GamePlugin]:
        return iter(self._plugins.values())

    def __len__(self) -> int:
        return len(self._plugins)

    def ids(self) -> list[str]:
        return sorted(self._plugins)

    def resolve(self, name: str) -> str:
        """The game id `name` stands for: an id, or a plugin's alias; else `name` itself.

        >>> GameRegistry.from_entry_points().resolve("blokus")
        'swc_2027_blokus'
        """
        if name in self._plugins:
            return name
        return next((p.game_id for p in self if name in p.aliases), name)

    def short_name(self, game_id: str) -> str:
        """The shortest name of a game (an alias, else its id)."""
        plugin = self._plugins.get(game_id)
        return min(plugin.aliases, key=len, default=game_id) if plugin else game_id

    def listing(self) -> str:
        """Every game's id with its aliases, for an error that names the accepted values.

        >>> "swc_2027_blokus (blokus)" in GameRegistry.from_entry_points().listing()
        True
        """
        return ", ".join(
            f"{p.game_id} ({', '.join(sorted(p.aliases))})" if p.aliases else p.game_id
            for p in sorted(self, key=lambda p: p.game_id))

    def default_for(self, protocol: str) -> str | None:
        """The game a client of `protocol` gets when it names none (an SC `<join/>`
        without gameType): the one whose plugin claims it (`default_for`), else the only
        game `protocol` seats; None when that is not one game.

        >>> registry = GameRegistry.from_entry_points()
        >>> registry.default_for("sc"), registry.default_for("kettle"), registry.default_for("x")
        ('swc_2027_blokus', 'hearth', None)
        """
        claims = [p.game_id for p in self if protocol in p.default_for]
        speakers = [p.game_id for p in self if p.speaks(protocol)]
        found = claims or speakers
        return min(found) if len(found) == 1 or claims else None
