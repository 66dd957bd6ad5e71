"""The match list's filter: a game, a player and a status, each optional.

The same filter picks the matches the hub holds in memory (`fits`, on their `info()`) and
the stored ones (`Store.list_matches`, in the database: a page of thousands of stored
matches is filtered there, not in the browser). A player is a name as the list shows it: a
seat's display name, which is a registered bot's name when the server launched it.

>>> from server.games.registry import GameRegistry
>>> games = GameRegistry.from_entry_points()
>>> chosen = MatchFilter.parse({"game": "blokus", "bot": "greedy"}, games)
>>> chosen.game, chosen.bot, chosen.status
('swc_2027_blokus', 'greedy', None)
>>> chosen.fits({"game": "swc_2027_blokus", "status": "finished", "players": ["greedy", "x"]})
True
>>> MatchFilter.parse({"status": "asleep"}, games)
Traceback (most recent call last):
...
server.spectate.filters.FilterError: status: one of waiting, running, paused, finished, \
aborted, cancelled
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.games.registry import GameRegistry
from server.store.models import MatchStatus

MAX_NAME = 100
"""The longest player name a filter takes (a bot's name is shorter)."""
FIELDS = ("game", "bot", "status")


class FilterError(ValueError):
    """A filter field out of range; `str()` names the field and what it takes."""


def _text(request: Mapping[str, object], name: str, longest: int) -> str | None:
    value = request.get(name)
    if value is None or value == "":
        return None  # absent, null or empty: any
    if not isinstance(value, str) or len(value) > longest:
        raise FilterError(f"{name}: a string of at most {longest} characters")
    return value


@dataclass(frozen=True)
class MatchFilter:
    """Which matches a list shows; None in a field: any."""

    game: str | None = None
    bot: str | None = None
    status: str | None = None

    @classmethod
    def parse(cls, request: Mapping[str, object], games: GameRegistry | None) -> MatchFilter:
        """The filter fields of a request (`game`: an id or an alias); `FilterError` for
        an unknown game or status, so that a typo is an error, never an empty list."""
        game = _text(request, "game", 32)
        if game is not None and games is not None:
            game = games.resolve(game)
            if game not in games:
                raise FilterError(f"game: unknown game {game!r}; known: {games.listing()}")
        status = _text(request, "status", 16)
        if status is not None and status not in {s.value for s in MatchStatus}:
            raise FilterError("status: one of " + ", ".join(s.value for s in MatchStatus))
        return cls(game, _text(request, "bot", MAX_NAME), status)

    @property
    def any(self) -> bool:
        return self.game is None and self.bot is None and self.status is None

    def fits(self, info: Mapping[str, Any]) -> bool:
        """Whether a match the hub holds (its `info()`) passes."""
        return ((self.game is None or info.get("game") == self.game)
                and (self.status is None or str(info.get("status")) == self.status)
                and (self.bot is None or self.bot in info.get("players", ())))

    def as_dict(self) -> dict[str, str | None]:
        return {"game": self.game, "bot": self.bot, "status": self.status}
