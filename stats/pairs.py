"""Counting paired games: the pentanomial and the W/D/L totals.

A pair is two games with the same seed and the seats swapped, so that the luck of the seed
cancels inside the pair. From the candidate's side each game is a win (W, 1), a draw (D, ½)
or a loss (L, 0); the pair scores 0, ¼, ½, ¾ or 1 per game, and the pentanomial counts the
pairs by that score: ``[LL, LD+DL, LW+DD+WL, DW+WD, WW]``.

>>> counts = pentanomial([("W", "L"), ("D", "D"), ("W", "W"), ("D", "L")])
>>> counts
[0, 1, 2, 0, 1]
>>> wdl_of_pairs([("W", "L"), ("D", "D"), ("W", "W"), ("D", "L")])
(3, 3, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

__all__ = ["Result", "pair_index", "pair_score", "pentanomial", "wdl", "wdl_of_pairs",
           "wdl_to_trinomial"]

Result = Literal["W", "D", "L"]
"""One game's result from the candidate's side."""

_POINTS = {"L": 0, "D": 1, "W": 2}  # half points, so that the index is their sum


def _half_points(result: str) -> int:
    try:
        return _POINTS[result]
    except KeyError:
        raise ValueError(f"a game result is W, D or L, not {result!r}") from None


def pair_index(first: str, second: str) -> int:
    """The pentanomial bucket (0 to 4) of a pair: the candidate's half points in it.

    >>> pair_index("L", "L"), pair_index("D", "L"), pair_index("W", "L"), pair_index("W", "W")
    (0, 1, 2, 4)
    >>> pair_index("W", "X")
    Traceback (most recent call last):
    ...
    ValueError: a game result is W, D or L, not 'X'
    """
    return _half_points(first) + _half_points(second)


def pair_score(first: str, second: str) -> float:
    """The pair's score per game for the candidate: 0, 0.25, 0.5, 0.75 or 1.

    >>> pair_score("D", "W")
    0.75
    """
    return pair_index(first, second) / 4


def pentanomial(pairs: Iterable[tuple[str, str]]) -> list[int]:
    """The counts ``[LL, LD+DL, LW+DD+WL, DW+WD, WW]`` of complete pairs.

    A pair whose second game was not played is not a pair: callers report it instead of
    passing it here (half a pair has no place in the pentanomial).

    >>> pentanomial([("L", "L"), ("L", "W"), ("D", "D")])
    [1, 0, 2, 0, 0]
    """
    counts = [0, 0, 0, 0, 0]
    for first, second in pairs:
        counts[pair_index(first, second)] += 1
    return counts


def wdl(games: Iterable[str]) -> tuple[int, int, int]:
    """Wins, draws and losses of the candidate in these games.

    >>> wdl("WWDLW")
    (3, 1, 1)
    """
    wins = draws = losses = 0
    for result in games:
        points = _half_points(result)
        if points == 2:
            wins += 1
        elif points == 1:
            draws += 1
        else:
            losses += 1
    return wins, draws, losses


def wdl_of_pairs(pairs: Iterable[tuple[str, str]]) -> tuple[int, int, int]:
    """Wins, draws and losses over both games of every pair.

    >>> wdl_of_pairs([("W", "D"), ("L", "L")])
    (1, 1, 2)
    """
    return wdl(result for pair in pairs for result in pair)


def wdl_to_trinomial(wins: int, draws: int, losses: int) -> list[int]:
    """W/D/L as the trinomial counts low to high, ``[L, D, W]``, the order the tests use.

    >>> wdl_to_trinomial(5, 3, 2)
    [2, 3, 5]
    """
    return [losses, draws, wins]


def check_counts(counts: Sequence[float]) -> None:
    """Reject counts that are not a trinomial or a pentanomial of games played.

    >>> check_counts([1, 2, 3])
    >>> check_counts([1, 2])
    Traceback (most recent call last):
    ...
    ValueError: counts are 3 numbers (L, D, W) or 5 (a pentanomial), not 2
    """
    if len(counts) not in (3, 5):
        raise ValueError("counts are 3 numbers (L, D, W) or 5 (a pentanomial), "
                         f"not {len(counts)}")
    if any(c < 0 for c in counts):
        raise ValueError(f"counts cannot be negative: {list(counts)}")
    if sum(counts) <= 0:
        raise ValueError("no games: every count is zero")
