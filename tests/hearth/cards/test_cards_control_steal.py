"""Take-control and copy cards of helper "control", one scenario per card id (their rules:
tests/hearth/test_rules_take_control.py and test_rules_copies.py)."""

from __future__ import annotations

from hearth_cardtest import can_attack, card_ids, dead, play_targets

from games.hearth import scenario as S


def test_cs1_113_mind_control_takes_an_enemy_minion() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_231")
    mc = S.give(g, 1, "CS1_113")
    assert play_targets(g, mc) == {yeti}  # enemy minions only
    S.play(g, mc, yeti)
    assert g.board[1] == [mine, yeti] and g.board[2] == []
    assert not can_attack(g, yeti)  # summoning sickness


def test_cs1_113_mind_control_needs_a_free_slot() -> None:
    g = S.prepared(hero1="HERO_09")
    S.summon(g, 2, "CS2_182")
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    assert play_targets(g, S.give(g, 1, "CS1_113")) == set()


def test_ex1_334_shadow_madness_and_ex1_334e_borrow_until_end_of_turn() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 2, "CS2_182")  # 4 Attack: too strong
    raptor = S.summon(g, 2, "CS2_172")  # 3 Attack
    madness = S.give(g, 1, "EX1_334")
    assert play_targets(g, madness) == {raptor}
    S.play(g, madness, raptor)
    assert can_attack(g, raptor)
    S.attack(g, raptor, g.hero[2])  # against its owner
    assert g.health(g.hero[2]) == 27 and g.board[2] == [yeti]
    S.end_turn(g)
    assert g.board[2] == [yeti, raptor] and g.board[1] == []


def test_ex1_091_cabal_shadow_priest_takes_two_attack_or_less() -> None:
    g = S.prepared(hero1="HERO_09")
    raptor = S.summon(g, 2, "CS2_172")  # 3 Attack
    wolf = S.summon(g, 2, "CS2_120")  # River Crocolisk 2/3
    cabal = S.give(g, 1, "EX1_091")
    assert play_targets(g, cabal) == {wolf}
    S.play(g, cabal, wolf)
    assert g.board[1] == [cabal, wolf] and g.board[2] == [raptor]
    g2 = S.prepared(hero1="HERO_09")
    S.summon(g2, 2, "CS2_172")
    cabal2 = S.give(g2, 1, "EX1_091")
    assert play_targets(g2, cabal2) == {0}  # no target: played without one
    S.play(g2, cabal2)
    assert g2.board[1] == [cabal2]


def test_ex1_016_sylvanas_windrunner_steals_on_death() -> None:
    g = S.prepared(seed=4)
    sylv = S.summon(g, 1, "EX1_016")
    a, b = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_172")
    g.destroy(sylv)
    S.resolve(g)
    assert dead(g, sylv) and len(g.board[1]) == 1 and len(g.board[2]) == 1
    assert set(g.board[1] + g.board[2]) == {a, b}
    S.end_turn(g)
    empty = S.summon(g, 2, "EX1_016")
    g.destroy(empty)
    S.resolve(g)
    assert g.board[1] == [] and len(g.board[2]) == 2  # player 1's only minion went


def test_ex1_085_mind_control_tech_needs_four_enemy_minions() -> None:
    g = S.prepared()
    theirs = [S.summon(g, 2, "CS2_231") for _ in range(3)]
    tech = S.give(g, 1, "EX1_085")
    S.play(g, tech)
    assert g.board[1] == [tech] and g.board[2] == theirs  # three: nothing
    S.summon(g, 2, "CS2_231")
    tech2 = S.give(g, 1, "EX1_085")
    S.play(g, tech2)
    assert len(g.board[1]) == 3 and len(g.board[2]) == 3


def test_cs2_003_mind_vision_copies_a_card_of_the_enemy_hand() -> None:
    g = S.prepared(hero1="HERO_09")
    S.give(g, 2, "CS2_029")
    S.play(g, S.give(g, 1, "CS2_003"))
    assert card_ids(g, g.hand[1]) == ["CS2_029"] and card_ids(g, g.hand[2]) == ["CS2_029"]
    g2 = S.prepared(hero1="HERO_09")
    S.play(g2, S.give(g2, 1, "CS2_003"))  # an empty hand: nothing
    assert g2.hand[1] == []


def test_ex1_339_thoughtsteal_copies_two_cards_of_the_enemy_deck() -> None:
    deck = ("CS2_029", "CS2_182") * 15
    g = S.prepared(hero1="HERO_09", deck2=deck)
    before = list(g.deck[2])
    S.play(g, S.give(g, 1, "EX1_339"))
    assert len(g.hand[1]) == 2 and set(card_ids(g, g.hand[1])) <= {"CS2_029", "CS2_182"}
    assert g.deck[2] == before  # copies: the deck is unchanged


def test_ex1_193_psychic_conjurer_copies_one_card_of_the_enemy_deck() -> None:
    g = S.prepared(hero1="HERO_09", deck2=("CS2_200",) * 30)
    S.play(g, S.give(g, 1, "EX1_193"))
    assert card_ids(g, g.hand[1]) == ["CS2_200"] and len(g.deck[2]) == 26


def test_ex1_345_mindgames_summons_a_minion_of_the_enemy_deck() -> None:
    g = S.prepared(hero1="HERO_09", deck2=("CS2_029",) * 29 + ("CS2_200",))
    S.play(g, S.give(g, 1, "EX1_345"))
    assert card_ids(g, g.board[1]) == ["CS2_200"]
    S.empty_deck(g, 2)
    S.play(g, S.give(g, 1, "EX1_345"))
    assert card_ids(g, g.board[1]) == ["CS2_200", "EX1_345t"]


def test_ex1_345t_shadow_of_nothing_is_a_0_1() -> None:
    g = S.prepared(hero1="HERO_09", deck2=("CS2_029",) * 30)  # spells only
    S.play(g, S.give(g, 1, "EX1_345"))
    (shadow,) = g.board[1]
    assert card_ids(g, [shadow]) == ["EX1_345t"] and g.health(shadow) == 1


def test_ex1_100_lorewalker_cho_copies_spells_to_the_other_player() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_100")
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])  # player 1's Fireball: a copy for 2
    assert card_ids(g, g.hand[2]) == ["CS2_029"] and g.hand[1] == []
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_024"), g.hero[1])  # player 2's Frostbolt: a copy for 1
    assert card_ids(g, g.hand[1]) == ["CS2_024"]
