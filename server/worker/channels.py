"""The Redis pub/sub channels of matches played on workers, and their messages (JSON).

`gauntlet:match:<id>` carries one match: `start` (attempt, the match's info, the game's
meta and its empty state), then a `frame` per spectator frame (`seq`, `neutral`, `full`),
then `end` (its status). `gauntlet:lobby` carries `created`, `started` and `finished`
(the match's info). Every message names its match and attempt: a restarted match starts
again from `start` with the next attempt, and an API node drops what an older attempt
still says.
"""

from __future__ import annotations

MATCH_PREFIX = "gauntlet:match:"
LOBBY = "gauntlet:lobby"
QUEUE = "gauntlet"
"""The Celery queue of `play_match` jobs (a Redis list of that name)."""
TASK = "gauntlet.play_match"


def match_channel(match_id: str) -> str:
    return MATCH_PREFIX + match_id
