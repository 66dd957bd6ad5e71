"""Which matches' secrets may be shown to everyone: their seed, hidden cards and replays.

A seed rebuilds a Hearth game's shuffles (`games.hearth.new_game(seed)` deals both opening
hands), and a finished match's full history shows every hand it dealt. So both stay the
admin's while anything still to be played uses the same seed: the match itself (not
finished yet; an aborted match is played again by the ladder), another open match given
the same seed, or a ladder leg still queued or playing (a
ladder round plays two legs with the same seed and the seats swapped; the first leg's
history is the second leg's deal).
"""

from __future__ import annotations

from collections.abc import Collection

from sqlmodel import col, select

from server.store.models import (
    OPEN_STATUSES,
    LadderPairing,
    Match,
    MatchStatus,
    PairingStatus,
)
from server.store.store import Store

PENDING_LEGS = (PairingStatus.QUEUED.value, PairingStatus.PLAYING.value)


def seeds_in_play(store: Store, seeds: Collection[int]) -> set[int]:
    """Of `seeds`, those an open match or a pending ladder leg uses."""
    wanted = sorted(set(seeds))
    if not wanted:
        return set()
    matches = (select(Match.seed)
               .where(col(Match.status).in_([s.value for s in OPEN_STATUSES]),
                      col(Match.seed).in_(wanted)))
    legs = (select(LadderPairing.seed)
            .where(col(LadderPairing.status).in_(PENDING_LEGS),
                   col(LadderPairing.seed).in_(wanted)))
    with store._read() as session:
        found = [*session.exec(matches).all(), *session.exec(legs).all()]
    return {seed for seed in found if seed is not None}


def finished(match: Match) -> bool:
    """Played to its result. An aborted match is not: the ladder plays it again with the
    same seed, so its deal is still to come."""
    return match.status == MatchStatus.FINISHED.value


def revealed(match: Match, in_play: Collection[int]) -> bool:
    """Whether everyone may see `match`'s secrets, given the seeds still in play."""
    return finished(match) and (match.seed is None or match.seed not in in_play)


def is_revealed(store: Store, match: Match) -> bool:
    """`revealed`, with its one query."""
    if not finished(match):
        return False
    return match.seed is None or not seeds_in_play(store, [match.seed])
