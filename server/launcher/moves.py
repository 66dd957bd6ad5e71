"""A launched bot's stderr cut into moves: each line stamped with the decision it came in.

The room's log tells the bot's process when one of its seat's decisions is requested
(`opened`) and when its answer was applied (`answered`); the launcher's pipe callback
feeds stderr here as it arrives (`feed`). A line belongs to the move during which its first
byte arrived: turn N is the seat's N-th decision request (counted from 1, in the order of
the match's event log, where each is an event of kind `decision` with that `seat`); turn 0
holds what the bot printed before its first decision (start-up, the join). Lines printed
after an answer and before the next request stay with the answered move.

Bounds, so that a bot printing megabytes costs neither memory nor database: per move at
most `line_limit` lines and `move_bytes` bytes, per seat of a match `total_bytes`, per line
`line_bytes` (the rest of a longer line is cut, and the line says so). Beyond them lines are
only counted (`dropped_lines`, `dropped_bytes`) and the move is `truncated`. Counting never
copies what it drops, so the pipe is always read at once.

>>> log = MoveLog(line_limit=2)
>>> log.feed(b"hello\\n")
>>> log.opened(seq=4)
>>> log.feed(b"move 1\\nthinking")
>>> log.feed(b"...\\nthree\\nfour\\n")
>>> log.answered(0.25)
>>> [(m.turn, m.seq, m.lines, m.dropped_lines, m.think_ms) for m in log.moves()]
[(0, None, ['hello'], 0, None), (1, 4, ['move 1', 'thinking...'], 2, 250)]
>>> move_text(log.moves()[1])
'move 1\\nthinking...\\n[... 2 lines (11 bytes) dropped ...]\\n'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from server.launcher.usage import Usage

LINE_LIMIT: Final = 64
"""Lines kept per move."""
MOVE_BYTES: Final = 8 * 1024
"""Bytes kept per move."""
TOTAL_BYTES: Final = 256 * 1024
"""Bytes kept per seat of a match, all moves together."""
LINE_BYTES: Final = 2048
"""Bytes kept of one line; the rest is cut (and counted as dropped)."""


@dataclass(slots=True)
class Move:
    """One decision of a seat (turn 0: before the first) and what its bot printed meanwhile.

    `think_ms` is the room's think time (request written to answer read, as in the event
    log's `think`), `cpu_ms` the CPU time the bot's processes used from the request to the
    answer, `peak_rss_kb` their peak resident memory during it (`server.launcher.usage`;
    None where /proc is missing, or the decision was never answered and the bot is gone).
    """

    turn: int
    seq: int | None = None  # the decision's seq in the match's event log
    think_ms: int | None = None
    cpu_ms: int | None = None
    peak_rss_kb: int | None = None
    lines: list[str] = field(default_factory=list)
    kept_bytes: int = 0
    dropped_lines: int = 0
    dropped_bytes: int = 0
    start: Usage | None = field(default=None, repr=False)
    closed: bool = False

    @property
    def truncated(self) -> bool:
        """True when lines (or the end of a line) were dropped from this move."""
        return self.dropped_bytes > 0 or self.dropped_lines > 0

    def as_json(self) -> dict[str, Any]:
        """The shape `GET /api/matches/{id}/seats/{n}/moves` answers with, per move."""
        return {"turn": self.turn, "seq": self.seq, "think_ms": self.think_ms,
                "cpu_ms": self.cpu_ms, "peak_rss_kb": self.peak_rss_kb,
                "lines": list(self.lines), "truncated": self.truncated,
                "dropped_lines": self.dropped_lines, "dropped_bytes": self.dropped_bytes}


def move_text(move: Move) -> str:
    """A move's lines as text, with the mark where lines were dropped.

    >>> move_text(Move(0, lines=["a"], dropped_lines=3, dropped_bytes=30))
    'a\\n[... 3 lines (30 bytes) dropped ...]\\n'
    >>> move_text(Move(2))
    ''
    """
    return lines_text(move.lines, move.dropped_lines, move.dropped_bytes)


def lines_text(lines: list[str], dropped_lines: int, dropped_bytes: int) -> str:
    """Lines as text, then the mark of the `dropped_lines` lines not kept (a line cut at
    `LINE_BYTES` says so itself)."""
    text = "".join(line + "\n" for line in lines)
    if dropped_lines:
        text += f"[... {dropped_lines} lines ({dropped_bytes} bytes) dropped ...]\n"
    return text


class MoveLog:
    """One launched seat's stderr by move, bounded (see the module's docstring).

    `redact` is applied to every line as it is completed (the launcher cuts the reservation
    code out), so nothing kept here ever holds a secret.
    """

    def __init__(self, *, line_limit: int = LINE_LIMIT, move_bytes: int = MOVE_BYTES,
                 total_bytes: int = TOTAL_BYTES, line_bytes: int = LINE_BYTES,
                 redact: Callable[[str], str] | None = None) -> None:
        self.line_limit = line_limit
        self.move_bytes = move_bytes
        self.total_bytes = total_bytes
        self.line_bytes = line_bytes
        self._redact = redact
        self._moves: list[Move] = [Move(0, closed=True)]
        self._total = 0
        self._partial = bytearray()
        self._partial_turn: int | None = None  # the move the unfinished line belongs to
        self._partial_cut = 0  # bytes of the unfinished line beyond `line_bytes`

    @property
    def turn(self) -> int:
        """The current turn: the number of decisions requested so far."""
        return len(self._moves) - 1

    def moves(self) -> list[Move]:
        """Every move so far, turn 0 first (the line still being written is not in them)."""
        return list(self._moves)

    def move(self, turn: int) -> Move | None:
        return self._moves[turn] if 0 <= turn < len(self._moves) else None

    # -- the room's side ---------------------------------------------------------------

    def opened(self, seq: int | None = None, usage: Usage | None = None) -> None:
        """The seat's next decision was requested (entry `seq` of the match log)."""
        self._close(None, usage)  # an unanswered decision the game moved past
        self._moves.append(Move(len(self._moves), seq, start=usage))

    def answered(self, think: float | None, usage: Usage | None = None) -> None:
        """The current decision's answer was applied after `think` seconds."""
        self._close(think, usage)

    def finish(self, usage: Usage | None = None) -> None:
        """The match ended: the open decision (never answered) is closed with what was used
        until now. Lines may still come: they belong to the last move."""
        self._close(None, usage)

    def flush(self) -> None:
        """The pipe closed: the unfinished last line (no newline) becomes a line."""
        if self._partial_turn is not None:
            self._end_line()

    def _close(self, think: float | None, usage: Usage | None) -> None:
        move = self._moves[-1]
        if move.closed:
            return
        move.closed = True
        if think is not None:
            move.think_ms = round(think * 1000)
        if usage is not None and move.start is not None:
            move.cpu_ms = max(0, round(usage.cpu_ms - move.start.cpu_ms))
            move.peak_rss_kb = usage.peak_rss_kb

    # -- the pipe's side ---------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from stderr, as they arrived."""
        start, end = 0, len(data)
        while start < end:
            newline = data.find(b"\n", start)
            stop = end if newline < 0 else newline
            self._extend(data, start, stop)
            if newline < 0:
                return
            self._end_line()
            start = newline + 1
            if start < end and self._full(self._moves[-1]):
                # A flood: count the whole lines at once, without copying them.
                last = data.rfind(b"\n", start)
                if last >= 0:
                    move = self._moves[-1]
                    move.dropped_lines += data.count(b"\n", start, last + 1)
                    move.dropped_bytes += last + 1 - start
                    start = last + 1

    def _full(self, move: Move) -> bool:
        return (len(move.lines) >= self.line_limit or move.kept_bytes >= self.move_bytes
                or self._total >= self.total_bytes)

    def _extend(self, data: bytes, start: int, stop: int) -> None:
        if self._partial_turn is None:
            self._partial_turn = self.turn
        room = self.line_bytes - len(self._partial)
        take = max(0, min(room, stop - start))
        if take:
            self._partial += data[start:start + take]
        self._partial_cut += stop - start - take

    def _end_line(self) -> None:
        assert self._partial_turn is not None
        move = self._moves[self._partial_turn]
        raw = bytes(self._partial)
        cut = self._partial_cut
        self._partial.clear()
        self._partial_turn = None
        self._partial_cut = 0
        size = len(raw) + cut + 1  # as printed, with its newline
        cost = len(raw) + 1
        if (len(move.lines) >= self.line_limit or move.kept_bytes + cost > self.move_bytes
                or self._total + cost > self.total_bytes):
            move.dropped_lines += 1
            move.dropped_bytes += size
            return
        line = raw.removesuffix(b"\r").decode("utf-8", "replace")
        if cut:
            line += f" [... {cut} bytes cut ...]"
            move.dropped_bytes += cut
        if self._redact is not None:
            line = self._redact(line)
        move.lines.append(line)
        move.kept_bytes += cost
        self._total += cost
