"""The training ladder: a scheduler that keeps matches of registered bots running, openskill
ratings updated once per stored result, standings and crosstables per game."""

from server.ladder.ratings import rate
from server.ladder.scheduler import Ladder, LadderOptions, default_concurrency

__all__ = ["Ladder", "LadderOptions", "default_concurrency", "rate"]
