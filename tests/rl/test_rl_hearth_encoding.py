"""Hearth's action indices, masks and observations (`games.hearth.rl_encoding`): every legal
action both ways in whole random games of all class decks, the slot layout, Choose One and
Kind.CHOOSE, illegal indices, and that an observation shows only what its player may see
(the same array from the real game, from the player's observation dict and from the state
a bot rebuilds from its history stream)."""

from __future__ import annotations

import doctest
import importlib
import random
from typing import Any

import numpy as np
import pytest

from games import hearth
from games.hearth import Action, Kind
from games.hearth import rl_encoding as R
from games.hearth import scenario as S
from games.hearth.rl_env import class_decks
from games.hearth.tree import ViewTree

DECKS = class_decks()


def random_game(seed: int, history: bool = False) -> hearth.State:
    rng = random.Random(seed)
    decks = [DECKS[rng.randrange(len(DECKS))] for _ in range(2)]
    return hearth.new_game(seed=seed, decks=decks, history=history, turn_cap=40)


@pytest.mark.parametrize("name", ["games.hearth.rl_encoding", "games.hearth.rl_env",
                                  "games.hearth.rl_openspiel"])
def test_doctests(name: str) -> None:
    if name.endswith("openspiel"):
        pytest.importorskip("pyspiel")
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_the_layout_adds_up() -> None:
    assert R.PER_HAND_SLOT == 3 * 17 * 8
    assert R.POWER_FIRST == 1 + 10 * R.PER_HAND_SLOT
    assert R.ACTION_COUNT == R.CHOOSE_FIRST + 3 == 4181
    fields = [R.action_fields(a) for a in range(R.ACTION_COUNT)]
    assert [f.kind for f in fields].count("PLAY") == 4080
    assert [f.kind for f in fields].count("ATTACK") == 64
    assert [f.kind for f in fields].count("MULLIGAN") == 16
    assert fields[R.ATTACK_FIRST] == R.ActionFields("ATTACK", attacker_slot=0, defender_slot=1)
    assert fields[R.ATTACK_FIRST + 8 + 7] == R.ActionFields("ATTACK", attacker_slot=2,
                                                              defender_slot=15)
    assert fields[R.CHOOSE_FIRST + 2] == R.ActionFields("CHOOSE", offered_slot=2)
    low, high = R.observation_bounds()
    assert low.shape == high.shape == (R.OBSERVATION_SIZE,) and (low < high).all()


@pytest.mark.parametrize("seed", range(12))
def test_every_legal_action_both_ways_in_random_games(seed: int) -> None:
    """In every position of a whole game, for both players: the mask is exactly the legal
    actions, and move_of(action_of(a)) == a; the observation is in bounds."""
    g = random_game(seed)
    rng = random.Random(seed)
    low, high = R.observation_bounds()
    kinds: set[int] = set()
    while not g.is_over:
        for p in (1, 2):
            legal = g.legal_actions(p) if p in g.pending() else []
            mask = R.action_mask(g, p)
            assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
            indices = [R.action_of(a, g, p) for a in legal]
            assert len(set(indices)) == len(legal)
            assert all(mask[i] for i in indices)
            assert [R.move_of(i, g, p) for i in indices] == legal
            assert list(R.legal_actions(g, p)) == sorted(indices)
            obs = R.observe(g, p)
            assert obs.dtype == np.int32 and ((obs >= low) & (obs <= high)).all()
            kinds |= {int(a.kind) for a in legal}
        g.apply(rng.choice(g.legal_actions()))
    assert {int(Kind.END_TURN), int(Kind.MULLIGAN), int(Kind.PLAY)} <= kinds
    assert not R.action_mask(g, 1).any() and not R.action_mask(g, 2).any()


def test_slots_are_the_observers() -> None:
    """Targets and attackers are counted from the player's side: slot 0 its own hero."""
    g = S.prepared()
    mine = S.summon(g, 1, "CS2_182")  # Chillwind Yeti, ready
    theirs = S.summon(g, 2, "CS2_231")
    g._legal = None
    a = Action(Kind.ATTACK, mine, theirs)
    i = R.action_of(a, g, 1)
    assert R.action_fields(i) == R.ActionFields("ATTACK", attacker_slot=2, defender_slot=9)
    assert R.move_of(i, g, 1) == a
    power = [x for x in g.legal_actions(1) if x.kind == Kind.POWER]  # Fireblast
    enemy_hero = g.hero[2]
    (at_hero,) = [x for x in power if x.target == enemy_hero]
    assert R.action_of(at_hero, g, 1) == R.POWER_FIRST + 1 + 1


def test_an_illegal_index_says_what_it_is() -> None:
    g = hearth.new_game(seed=4)
    with pytest.raises(R.IllegalActionIndex, match=r"action 0 .*END_TURN.*not legal for player 1"):
        R.move_of(0, g, 1)
    for bad in (-1, R.ACTION_COUNT, 1.0, True, "3", None):
        with pytest.raises(R.IllegalActionIndex):
            R.move_of(bad, g, 1)  # type: ignore[arg-type]
    assert R.move_of(np.int64(R.MULLIGAN_FIRST), g, 1).kind == Kind.MULLIGAN


def test_mulligan_subsets_in_hand_order() -> None:
    g = hearth.new_game(seed=1, first_player=1)
    offered = g.mulligan_cards(1)
    assert len(offered) == 3
    for bits in range(8):
        cards = tuple(sorted(c for k, c in enumerate(offered) if bits >> k & 1))
        a = Action(Kind.MULLIGAN, 1, cards=cards)
        assert R.action_of(a, g, 1) == R.MULLIGAN_FIRST + bits
    mask = R.action_mask(g, 1)
    assert mask[R.MULLIGAN_FIRST:R.MULLIGAN_FIRST + 8].all()
    assert not mask[R.MULLIGAN_FIRST + 8:R.CHOOSE_FIRST].any()
    obs = R.observe(g, 1)
    assert obs[R.MULLIGAN].tolist() == [1, 2, 3, 0]  # hand slots of the offered cards
    assert obs[R.GLOBAL][R.GLOBAL_FIELDS.index("mulligan")] == 1


def test_choose_one_options_have_their_own_indices() -> None:
    """PLAY with cards=(k,) (the shared interface's Choose One) encodes option k + 1; these
    actions are handed in as a bot's options, so this runs whether or not the engine has
    Choose One cards yet."""
    g = S.prepared()
    spell = S.give(g, 1, "CS2_029")  # Fireball, hand slot 0
    minion = S.give(g, 1, "CS2_182")  # hand slot 1
    g._legal = None
    enemy = g.hero[2]
    options = [
        hearth.END_TURN,
        Action(Kind.PLAY, spell, enemy, -1, (0,)),
        Action(Kind.PLAY, spell, enemy, -1, (1,)),
        Action(Kind.PLAY, spell, enemy),
        Action(Kind.PLAY, minion, 0, 0, (1,)),
        Action(Kind.PLAY, minion, g.hero[1], 0, (0,)),
    ]
    indices = [R.action_of(a, g, 1) for a in options]
    assert len(set(indices)) == len(options)
    fields = [R.action_fields(i) for i in indices]
    assert [f.option for f in fields[1:]] == [0, 1, -1, 1, 0]
    assert fields[4] == R.ActionFields("PLAY", hand_slot=1, option=1, target_slot=-1, position=0)
    assert fields[5].target_slot == 0
    mask = R.action_mask(g, 1, options)
    assert int(mask.sum()) == len(options)
    assert [R.move_of(i, g, 1, options) for i in indices] == options


def choose_one_cards() -> list[str]:
    """The collectible Choose One cards the engine plays (from the card data's scripts)."""
    from games.hearth.carddb import load_cards

    return [c.id for c in load_cards().values()
            if c.playable and c.collectible and getattr(c.script, "choose", None)]


def test_engine_choose_one_cards_each_option_its_index() -> None:
    """Every Choose One card the engine plays offers one PLAY per playable option
    (Action.cards=(k,)), each its own index, and back."""
    cards = choose_one_cards()
    assert len(cards) >= 10  # the Druid Classic set
    options_seen: set[int] = set()
    for start in range(0, len(cards), 9):
        g = S.prepared(hero1="HERO_06")
        S.summon(g, 2, "CS2_182")
        S.summon(g, 1, "CS2_231")
        for cid in cards[start:start + 9]:
            S.give(g, 1, cid)
        g._legal = None
        legal = g.legal_actions(1)
        indices = [R.action_of(a, g, 1) for a in legal]
        assert len(set(indices)) == len(legal)
        assert int(R.action_mask(g, 1).sum()) == len(legal)
        for a, i in zip(legal, indices, strict=True):
            assert R.move_of(i, g, 1) == a
            if a.kind == Kind.PLAY and a.cards:
                assert R.action_fields(i).option == a.cards[0]
                options_seen.add(a.cards[0])
    assert options_seen == {0, 1}


@pytest.mark.parametrize("seed", range(4))
def test_choose_one_decks_in_random_games(seed: int) -> None:
    """Random games of decks of Choose One cards: the mask is the legal actions and every
    action goes both ways, the options included."""
    cards = choose_one_cards()
    deck = (cards * 3)[:30]
    g = hearth.new_game(seed=seed, decks=[("HERO_06", deck), ("HERO_06", deck)], turn_cap=30)
    rng = random.Random(seed)
    played_options = 0
    while not g.is_over:
        p = g.pending()[0]
        legal = g.legal_actions(p)
        assert int(R.action_mask(g, p).sum()) == len(legal)
        for a in legal:
            assert R.move_of(R.action_of(a, g, p), g, p) == a
        choice = rng.choice(legal)
        played_options += int(choice.kind == Kind.PLAY and bool(choice.cards))
        g.apply(choice, p)
    assert played_options > 0


def test_kind_choose_tracking() -> None:
    """Tracking (Kind.CHOOSE): three offered cards, indices CHOOSE_FIRST + slot, the cards
    visible to the chooser only."""
    g = S.prepared(hero1="HERO_05", deck1=["CS2_231"] * 4 + ["CS2_182", "CS2_200", "CS2_231"])
    top = g.deck[1][::-1][:3]
    S.play(g, S.give(g, 1, "DS1_184"))
    assert g.pending_choice == (1, tuple(top))
    mask = R.action_mask(g, 1)
    assert np.flatnonzero(mask).tolist() == [R.CHOOSE_FIRST, R.CHOOSE_FIRST + 1,
                                             R.CHOOSE_FIRST + 2]
    assert not R.action_mask(g, 2).any()
    a = R.move_of(R.CHOOSE_FIRST + 1, g, 1)
    assert int(a.kind) == R.CHOOSE_KIND and a.cards == (top[1],)
    mine, theirs = R.observe(g, 1), R.observe(g, 2)
    dbf = [_dbf(g.card_id(e)) for e in top]
    assert mine[R.CHOICE][0::2].tolist() == dbf
    assert not theirs[R.CHOICE].any()
    assert mine[R.GLOBAL][R.GLOBAL_FIELDS.index("choosing")] == 1
    g.apply(a)
    assert g.hand[1][-1] == top[1]


def _dbf(card_id: str) -> int:
    from games.hearth.carddb import load_cards

    return load_cards()[card_id].dbf_id


@pytest.mark.parametrize("seed", range(6))
def test_the_opponents_hidden_cards_do_not_show(seed: int) -> None:
    """Two states that differ only in the opponent's hidden cards (its hand and deck
    redrawn by determinized()) give the same observation and mask."""
    g = random_game(seed)
    rng = random.Random(seed)
    checked = 0
    while not g.is_over:
        for p in (1, 2):
            other = g.determinized(p, seed=rng.randrange(1 << 30))
            q = 3 - p
            hidden_before = [g.card_id(e) for e in g.hand[q] + g.deck[q]]
            hidden_after = [other.card_id(e) for e in other.hand[q] + other.deck[q]]
            if hidden_before != hidden_after:
                checked += 1
            assert np.array_equal(R.observe(g, p), R.observe(other, p))
            assert np.array_equal(R.action_mask(g, p), R.action_mask(other, p))
        g.apply(rng.choice(g.legal_actions()))
    assert checked > 0


def test_opponent_hand_entries_are_counts_only() -> None:
    g = hearth.new_game(seed=2)
    obs = R.observe(g, 1)
    enemy = dict(zip(R.HERO_FIELDS, obs[R.ENEMY_HERO].tolist(), strict=True))
    assert enemy["hand_count"] == len(g.hand[2]) and enemy["deck_count"] == len(g.deck[2])
    own_hand = obs[R.HAND].reshape(10, 3)
    assert own_hand[:len(g.hand[1]), 1].tolist() == [_dbf(g.card_id(e)) for e in g.hand[1]]


@pytest.mark.parametrize("seed", range(4))
def test_the_bot_side_gives_the_same_numbers(seed: int) -> None:
    """The state a bot is shown over Kettle (State.from_view on its history stream, as the
    kit's ViewTree builds it) and the observation dict give the arrays the real game gives."""
    g = random_game(seed, history=True)
    rng = random.Random(seed)
    trees = {1: ViewTree(), 2: ViewTree()}
    fed = {1: 0, 2: 0}
    steps = 0
    while not g.is_over and steps < 120:
        for p in g.pending():
            entries = g.history(p, since=fed[p])
            trees[p].feed(entries)
            fed[p] += len(entries)
            choice: Any = None
            if g.pending_choice is not None:
                player, offered = g.pending_choice
                choice = (player, list(offered), g.choices[0].source)
            rebuilt = trees[p].state(p, seed=steps, choice=choice)
            assert np.array_equal(R.observe(rebuilt, p), R.observe(g, p)), steps
            assert np.array_equal(R.action_mask(rebuilt, p), R.action_mask(g, p)), steps
            view = g.observation(p)
            assert np.array_equal(R.observe(view, p), R.observe(g, p))
            assert np.array_equal(R.action_mask(view, p), R.action_mask(g, p))
            # the kit's options (the legal actions) give the same mask
            options = g.legal_actions(p)
            assert np.array_equal(R.action_mask(rebuilt, p, options), R.action_mask(g, p))
            index = R.action_of(options[0], g, p)
            assert R.move_of(index, rebuilt, p) == options[0]
        g.apply(rng.choice(g.legal_actions()))
        steps += 1


def test_wrong_inputs() -> None:
    g = hearth.new_game(seed=1)
    with pytest.raises(ValueError, match="player must be 1 or 2"):
        R.observe(g, 3)
    with pytest.raises(ValueError, match="player 1's, not 2's"):
        R.observe(g.observation(1), 2)
    with pytest.raises(TypeError, match="engine State or its observation dict"):
        R.action_mask(object(), 1)
