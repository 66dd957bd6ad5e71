"""Software-Challenge 2027 Blokus as a room game (registered as `swc_2027_blokus`).

Two seats: seat 0 = team ONE (BLUE, RED), seat 1 = team TWO. One decision at a time, to the
team of the current colour, on the Software-Challenge move clock; an illegal move ends the
match (RULE_VIOLATION), as on the official server. No hidden information: every recipient
gets the same state, so the SC session encodes each memento once for all of them.

>>> game = BlokusGame(seed=1)
>>> dict(game.pending()), game.is_over, game.scores()
({0: Decision(payload=None, clock=<Clock.MOVE: 'move'>, turn=None)}, False, (0, 0))
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any

from games import blokus
from server.games.registry import GamePlugin
from server.rooms.game import Decision, OnRefusal, RuleViolation, Views
from server.rooms.result import Outcome

GAME_TYPE = blokus.GAME_TYPE
_MOVE = Decision()
# What `pending()` returns, one read-only mapping per seat: nothing is built per move.
_ASK: tuple[Mapping[int, Decision], ...] = tuple(
    MappingProxyType({seat: _MOVE}) for seat in range(len(blokus.TEAMS)))
_NOBODY: Mapping[int, Decision] = MappingProxyType({})


class BlokusGame:
    """The `server.rooms.game.Game` adapter of `games.blokus`."""

    game_type = GAME_TYPE
    seat_count = 2
    on_refusal = OnRefusal.END_MATCH

    def __init__(self, start_piece: str | None = None, seed: int | None = None) -> None:
        self.state = blokus.new_game(start_piece=start_piece, seed=seed)

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_over)

    def pending(self) -> Mapping[int, Decision]:
        if self.state.is_over:
            return _NOBODY
        return _ASK[blokus.TEAMS.index(self.state.current_team)]

    def accepts(self, data: object) -> bool:
        return isinstance(data, blokus.SetMove | blokus.SkipMove)

    def apply(self, seat: int, answer: Any) -> None:
        # The seat was checked by the room: only the team of the current colour is asked.
        try:
            self.state.apply(answer)
        except blokus.IllegalMove as exc:
            raise RuleViolation(exc.mistake.name, exc.mistake.text, answer) from exc

    def news(self, seats: Collection[int], observers: bool) -> Views:
        # The whole state each time (the SC memento); a clone, since the log keeps it.
        return Views(self.state.clone())

    def view(self, seat: int | None) -> Any:
        return self.state.clone()

    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.team_points(team) for team in blokus.TEAMS)

    def outcome(self) -> Outcome | None:
        if not self.state.is_over:
            return None
        return self._by_points("regular")

    def stopped(self) -> Outcome:
        """An admin's cancel ends the game as if it were over: the leader by points wins."""
        return self._by_points("stopped")

    def _by_points(self, reason: str) -> Outcome:
        scores = self.scores()
        wins = blokus.win_points(scores)
        winner = wins.index(2) if 2 in wins else None
        return Outcome(winner, reason, scores)

    def concede(self, seat: int) -> bool:
        return False  # Blokus has no concession; the room's result says who lost


# --- the stored log: moves, not states ------------------------------------------------
#
# A stored Blokus state event holds its move, not the state: a state is a pure function of
# the start piece and the moves, and writing a whole state (an 8 KB memento, a 1.5 KB
# spectator frame) per move was most of what recording a match cost. The replay's mementos
# and the spectators' frames are rebuilt from the moves when somebody reads them.


def record(state: blokus.State, think: float | None) -> dict[str, Any]:
    """What a stored state event holds: the start piece, the turn, the move that led here
    (None: the first state) in the engine's spelling, and the mover's think time
    (`record_text`, read back).

    >>> s = blokus.new_game("PENTO_L"); s.apply(blokus.SetMove("BLUE", "PENTO_L", x=0, y=0))
    >>> record(s, 0.25)
    {'start': 'PENTO_L', 'turn': 1, 'move': ['BLUE', 'PENTO_L', 'NONE', False, 0, 0], 'think': 0.25}
    """
    found: dict[str, Any] = json.loads(record_text(state, think))
    return found


def record_text(state: blokus.State, think: float | None) -> str:
    """A stored state event's record (`record`) as compact JSON text, written directly: the
    store's writer thread writes one per move, and building a dict to encode cost about
    four times as much. Every name in it is an engine identifier, which JSON never escapes.

    >>> s = blokus.new_game("PENTO_L"); s.apply(blokus.SetMove("BLUE", "PENTO_L", x=0, y=0))
    >>> record_text(s, 0.25)
    '{"start":"PENTO_L","turn":1,"move":["BLUE","PENTO_L","NONE",false,0,0],"think":0.25}'
    """
    last = state.last_move
    if isinstance(last, blokus.SetMove):
        flipped = "true" if last.flipped else "false"
        move = (f'["{last.color}","{last.kind}","{last.rotation}",{flipped},'
                f'{int(last.x)},{int(last.y)}]')
    elif last is not None:
        move = f'["{last.color}"]'  # a skip
    else:
        move = "null"
    seconds = "null" if think is None else float.__repr__(float(think))
    return (f'{{"start":"{state.start_piece}","turn":{int(state.turn)},"move":{move},'
            f'"think":{seconds}}}')


class BadRecord(ValueError):
    """A stored record that does not continue the game rebuilt so far."""


def rebuild(state: blokus.State | None, found: Any) -> blokus.State:
    """The state a record describes, from the state of the record before it (None: none).

    Raises `BadRecord` when the record does not follow (a gap in the log, another game).

    >>> s = rebuild(None, {"start": "PENTO_L", "turn": 0, "move": None})
    >>> s = rebuild(s, {"start": "PENTO_L", "turn": 1,
    ...                 "move": ["BLUE", "PENTO_L", "NONE", False, 0, 0]})
    >>> s.turn, s.last_move
    (1, SetMove('BLUE', 'PENTO_L', rotation='NONE', flipped=False, x=0, y=0))
    """
    if not isinstance(found, dict):
        raise BadRecord(f"not a record: {found!r}")
    move = found.get("move")
    if state is not None and found.get("turn") == state.turn \
            and record(state, None)["move"] == move:
        return state  # the same state told again (after a pause, to a late observer)
    if move is None:
        state = blokus.new_game(str(found.get("start")))
    else:
        if state is None:
            raise BadRecord("a move without the states before it")
        state = state.clone()
        try:
            state.apply(blokus.SetMove(move[0], move[1], rotation=move[2], flipped=move[3],
                                       x=move[4], y=move[5]) if len(move) == 6
                        else blokus.SkipMove(move[0]))
        except (blokus.IllegalMove, TypeError, ValueError, IndexError) as exc:
            raise BadRecord(f"move {move!r} does not apply: {exc}") from exc
    if state.turn != found.get("turn"):
        raise BadRecord(f"turn {state.turn} rebuilt, {found.get('turn')!r} stored")
    return state


def new_game(seed: int | None = None) -> BlokusGame:
    return BlokusGame(seed=seed)


PLUGIN = GamePlugin(
    game_id=GAME_TYPE,
    new_game=new_game,
    protocols=frozenset({"sc"}),
    bots=("blokus-random", "blokus-greedy"),
)
