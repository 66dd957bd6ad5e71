"""Two thousand games of random class decks (issue #27): the bundled bots play every card
of every class, no game raises or sticks, and ``clone()`` and ``determinized()`` stay
consistent with the real game along the way.

A deck is drawn per seat: a random class (Demon Hunter included), then 30 cards of that
class and neutral ones, as a deck builder allows them (two copies, one of a legendary).
Every eleventh decision the game is checked three ways: a clone has the same digest and
stays equal after the same action; a determinized copy for the player to act shows that
player exactly the same observation and keeps the engine's incremental bookkeeping exact
(the checker of ``test_cards_random_invariants``).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bots.hearth.bot import Bot
from bots.hearth.bundled import GreedyBot, RandomBot
from games import hearth
from games.hearth import Action, Kind, State
from games.hearth.carddb import load_cards
from games.hearth.decks import deck_problem
from tests.hearth.cards.test_cards_random_invariants import problems

GAMES = 2000
CHUNKS = 8
HEROES = tuple(f"HERO_{n:02d}" for n in range(1, 11))
_LEGENDARY = 5


def random_deck(rng: random.Random) -> tuple[str, list[str]]:
    db = load_cards()
    hero = rng.choice(HEROES)
    own = db[hero].card_class
    pool = sorted(i for i in hearth.collectible_cards() if db[i].card_class in (own, 12))
    cards: list[str] = []
    copies: Counter[str] = Counter()
    while len(cards) < 30:
        card = rng.choice(pool)
        if copies[card] < (1 if db[card].rarity == _LEGENDARY else 2):
            copies[card] += 1
            cards.append(card)
    assert deck_problem(hero, cards) is None
    return hero, cards


def _decide(bot: Bot, g: State, player: int, options: list[Action]) -> Action:
    if options[0].kind == Kind.MULLIGAN:
        choices = sorted({c for a in options for c in a.cards})
        return Action(Kind.MULLIGAN, player, cards=tuple(sorted(set(bot.mulligan(g, choices)))))
    return bot.act(g, options)


def _check(g: State, player: int, action: Action, seed: int) -> None:
    twin = g.clone()
    assert twin.hash() == g.hash()
    d = g.determinized(player, seed)
    assert d.observation(player) == g.observation(player)
    assert problems(d) == []
    twin.apply(action, player)
    g.apply(action, player)
    assert twin.hash() == g.hash()


def play(seed: int) -> State:
    rng = random.Random(seed)
    g = hearth.new_game(seed=seed, decks=[random_deck(rng), random_deck(rng)])
    # One game in four is the greedy bot's (it searches clones, so it costs more).
    first: Bot = GreedyBot(seed) if seed % 4 == 0 else RandomBot(seed)
    bots = (first, RandomBot(seed + 1))
    decisions = 0
    while not g.is_over:
        assert decisions < 5000, f"game {seed} is stuck"
        player = g.pending()[0]
        options = g.legal_actions(player)
        action = _decide(bots[player - 1], g.clone(), player, options)
        assert action in options, (seed, action)
        decisions += 1
        if decisions % 11 == 0:
            _check(g, player, action, seed * 7 + decisions)
        else:
            g.apply(action, player)
    return g


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_class_deck_games_end_and_stay_consistent(chunk: int) -> None:
    per = GAMES // CHUNKS
    winners: Counter[int] = Counter()
    for seed in range(chunk * per, (chunk + 1) * per):
        g = play(seed)
        result = g.result()
        assert result is not None
        winners[result.winner] += 1
    assert sum(winners.values()) == per
    assert winners[1] and winners[2]  # both seats win some: the games are real games


def test_random_decks_cover_every_class() -> None:
    rng = random.Random(1)
    assert {random_deck(rng)[0] for _ in range(200)} == set(HEROES)
