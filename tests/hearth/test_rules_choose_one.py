"""Choose One (games/hearth/play.py, protocols/kettle/hearth.py): one PLAY per playable
option with the option's own requirements and targets, the option's text is what happens,
and the Kettle options carry the options as sub_options that both sides read back."""

from __future__ import annotations

import random

from bots.hearth.bundled import GreedyBot, RandomBot
from bots.hearth.options import actions_from_tree
from bots.hearth.tree import EntityTree
from games import hearth
from games.hearth import scenario as S
from games.hearth.actions import Action, Kind
from protocols.kettle.hearth import action_for, choice_for, options_for, sub_option_for
from tests.hearth.cards.test_cards_random_invariants import problems

CHOOSE_ONE = ["EX1_154", "EX1_155", "EX1_160", "EX1_164", "EX1_165", "EX1_166", "EX1_178",
              "EX1_573", "NEW1_007", "NEW1_008"]


def test_each_option_brings_its_own_targets() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    starfall = S.give(g, 1, "NEW1_007")
    acts = [a for a in g.legal_actions() if a.entity == starfall]
    # Stellar Drift takes no target, Starlord a minion (either side's)
    assert {a.target for a in acts if a.cards == (0,)} == {0}
    assert {a.target for a in acts if a.cards == (1,)} == {yeti}
    assert all(a.cards in ((0,), (1,)) for a in acts)


def test_an_option_whose_requirement_fails_is_not_offered() -> None:
    g = S.prepared()
    starfall = S.give(g, 1, "NEW1_007")
    assert {a.cards for a in g.legal_actions() if a.entity == starfall} == {(0,)}  # no minion
    wrath = S.give(g, 1, "EX1_154")
    assert not [a for a in g.legal_actions() if a.entity == wrath]  # both need a minion


def test_a_minion_option_is_its_battlecry_for_every_position() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_231")
    keeper = S.give(g, 1, "EX1_166")
    acts = [a for a in g.legal_actions() if a.entity == keeper]
    assert {a.position for a in acts} == {0, 1}
    assert {a.cards for a in acts} == {(0,), (1,)}


def test_kettle_sub_options_round_trip_through_both_sides() -> None:
    g = S.prepared(history=True)
    S.summon(g, 2, "CS2_182")
    for card in ("NEW1_007", "EX1_160", "EX1_165"):
        S.give(g, 1, card)
    legal = g.legal_actions()
    options = options_for(legal)
    starfall = next(o for o in options if o.main_option
                    and g.ents[o.main_option.entity_id].card.id == "NEW1_007")
    assert starfall.main_option is not None
    assert [s.entity_id for s in starfall.sub_options] == [starfall.main_option.entity_id] * 2
    for action in legal:
        index, target, position = choice_for(options, action)
        assert action_for(legal, options, index, target, position, sub_option_for(action)) == action
        if action.cards:  # the option must be named
            assert action_for(legal, options, index, target, position, None) is None
    tree = EntityTree()
    tree.apply(g.history(1))
    assert set(actions_from_tree(options, tree, 1)) == set(legal)


def test_an_unplayable_option_is_a_zero_sub_option() -> None:
    g = S.prepared()
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    wild = S.give(g, 1, "EX1_160")  # Power of the Wild: the Panther has no room
    (option,) = [o for o in options_for(g.legal_actions()) if o.main_option
                 and o.main_option.entity_id == wild]
    assert [s.entity_id for s in option.sub_options] == [0, wild]


def test_random_games_with_every_choose_one_card_stay_consistent() -> None:
    fill = ["CS2_182", "CS2_179", "CS2_120", "CS2_172", "EX1_570"]
    for seed in range(60):
        rng = random.Random(seed)
        deck = [c for c in CHOOSE_ONE for _ in range(2)] + [rng.choice(fill) for _ in range(10)]
        g = hearth.new_game(seed=seed, decks=[("HERO_06", deck), ("HERO_06", deck[::-1])])
        bots = (GreedyBot(seed) if seed % 3 == 0 else RandomBot(seed), RandomBot(seed + 1))
        chosen = 0
        for n in range(5000):
            if g.is_over:
                break
            player = g.pending()[0]
            acts = g.legal_actions(player)
            if acts[0].kind == Kind.MULLIGAN:
                g.apply(Action(Kind.MULLIGAN, player), player)
                continue
            action = bots[player - 1].act(g.clone(), acts)
            assert action in acts
            chosen += bool(action.cards)
            if n % 7 == 0:
                twin = g.clone()
                d = g.determinized(player, seed + n)
                assert d.observation(player) == g.observation(player) and problems(d) == []
                twin.apply(action, player)
                g.apply(action, player)
                assert twin.hash() == g.hash()
            else:
                g.apply(action, player)
        assert g.is_over, f"game {seed} is stuck"
        assert chosen, f"game {seed}: no Choose One card played"
