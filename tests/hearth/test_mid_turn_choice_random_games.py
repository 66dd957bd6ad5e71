"""Two hundred seeded games of Hunter decks holding Tracking against Demon Hunter decks
holding Sightless Watcher, played by the bundled bots with history on.

At every mid-turn choice: a clone has the same digest and stays equal after the same pick;
a determinized copy for either player shows that player exactly the same observation,
keeps the pending choice and the engine's incremental bookkeeping exact; the opponent's
observation and history stream never name the offered cards (nor, ever, the cards
Tracking discarded), while the chooser's observation names them.
"""

from __future__ import annotations

from typing import Any

import pytest

from bots.hearth.bot import Bot
from bots.hearth.bundled import GreedyBot, RandomBot
from games import hearth
from games.hearth import Action, Kind, State
from games.hearth.decks import deck_problem
from tests.hearth.cards.test_cards_random_invariants import problems

GAMES = 200
CHUNKS = 4
HUNTER = ("HERO_05", [
    "DS1_184", "DS1_184", "DS1_188", "DS1_188", "EX1_534", "EX1_534", "EX1_536", "EX1_536",
    "EX1_537", "EX1_537", "EX1_538", "EX1_538", "EX1_543", "EX1_544", "EX1_544", "EX1_549",
    "EX1_549", "EX1_617", "EX1_617", "EX1_186", "EX1_186", "DS1_185", "DS1_185", "CS2_084",
    "CS2_084", "DS1_175", "DS1_175", "CS2_237", "CS2_237", "EX1_610",
])
DEMON_HUNTER = ("HERO_10", [
    "BT_323", "BT_323", "BT_035", "BT_035", "BT_036", "BT_036", "BT_142", "BT_142", "BT_235",
    "BT_235", "BT_352", "BT_352", "BT_495", "BT_495", "BT_512", "BT_512", "BT_740", "BT_740",
    "BT_921", "BT_921", "CS2_182", "CS2_182", "CS2_200", "CS2_200", "CS2_171", "CS2_171",
    "CS2_172", "CS2_172", "CS2_120", "CS2_120",
])


def test_the_decks_are_legal() -> None:
    for hero, cards in (HUNTER, DEMON_HUNTER):
        assert deck_problem(hero, cards) is None


def named_ids(entries: Any, out: set[int]) -> None:
    """Add every entity id an entry shows with a card id."""
    if isinstance(entries, dict):
        if entries.get("name") and "entityID" in entries:
            out.add(int(entries["entityID"]))
        for v in entries.values():
            named_ids(v, out)
    elif isinstance(entries, list):
        for v in entries:
            named_ids(v, out)


def decide(bot: Bot, g: State, player: int, options: list[Action]) -> Action:
    if options[0].kind == Kind.MULLIGAN:
        choices = sorted({c for a in options for c in a.cards})
        return Action(Kind.MULLIGAN, player, cards=tuple(sorted(set(bot.mulligan(g, choices)))))
    if options[0].kind == Kind.CHOOSE:
        picked = bot.choose(g, [a.cards[0] for a in options], 1, 1)
        return Action(Kind.CHOOSE, player, cards=tuple(picked))
    return bot.act(g, options)


def check_choice(g: State, seed: int) -> None:
    assert g.pending_choice is not None
    chooser, offered = g.pending_choice
    opp = 3 - chooser
    assert g.current == chooser and g.pending() == [chooser]  # the chooser is to move
    assert g.legal_actions() == [Action(Kind.CHOOSE, chooser, cards=(i,)) for i in offered]
    mine = g.observation(chooser)["choice"]
    assert [c["card"] for c in mine["entities"]] == [g.card_id(i) for i in offered]
    assert g.observation(opp)["choice"]["entities"] == [{"entity": i} for i in offered]
    for player in (chooser, opp):
        d = g.determinized(player, seed)
        assert d.pending_choice == g.pending_choice
        assert d.observation(player) == g.observation(player)
        assert problems(d) == []
    # The chooser's determinized copy keeps the offered identities (it looked at them).
    assert [g.determinized(chooser, seed).card_id(i) for i in offered] == [
        g.card_id(i) for i in offered]
    twin = g.clone()
    assert twin.hash() == g.hash()
    pick = Action(Kind.CHOOSE, chooser, cards=(offered[seed % len(offered)],))
    twin.apply(pick, chooser)
    probe = g.clone()
    probe.apply(pick, chooser)
    assert twin.hash() == probe.hash()


def play(seed: int) -> tuple[int, int]:
    decks = [HUNTER, DEMON_HUNTER] if seed % 2 else [DEMON_HUNTER, HUNTER]
    g = hearth.new_game(seed=seed, decks=decks, history=True)
    first: Bot = GreedyBot(seed) if seed % 5 == 0 else RandomBot(seed)
    bots = (first, RandomBot(seed + 1))
    named: dict[int, set[int]] = {1: set(), 2: set()}
    fed = {1: 0, 2: 0}
    never_shown: dict[int, set[int]] = {1: set(), 2: set()}  # Tracking's discards, by owner
    choices = decisions = 0
    while not g.is_over:
        assert decisions < 5000, f"game {seed} is stuck"
        for viewer in (1, 2):
            fresh = g.history(viewer, fed[viewer])
            fed[viewer] += len(fresh)
            named_ids(fresh, named[viewer])
        for owner in (1, 2):
            assert not never_shown[owner] & named[3 - owner], f"game {seed}: a discard shown"
        player = g.pending()[0]
        options = g.legal_actions(player)
        if g.pending_choice is not None:
            choices += 1
            check_choice(g, seed * 31 + decisions)
            chooser, offered = g.pending_choice
            assert not set(offered) & named[3 - chooser], f"game {seed}: an offered card shown"
            assert set(offered) <= named[chooser]  # the check would see a name
        action = decide(bots[player - 1], g.clone(), player, options)
        assert action in options, (seed, action)
        tracking = (g.pending_choice is not None
                    and g.card_id(g.choices[0].source) == "DS1_184")
        g.apply(action, player)
        if tracking:
            never_shown[player] |= {i for i in options_cards(options) if i != action.cards[0]}
        decisions += 1
    return choices, sum(len(s) for s in never_shown.values())


def options_cards(options: list[Action]) -> set[int]:
    return {a.cards[0] for a in options}


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_with_mid_turn_choices(chunk: int) -> None:
    per = GAMES // CHUNKS
    choices = discarded = 0
    for seed in range(chunk * per, (chunk + 1) * per):
        c, d = play(seed)
        choices += c
        discarded += d
    assert choices > per and discarded > per // 2  # the games do make choices
