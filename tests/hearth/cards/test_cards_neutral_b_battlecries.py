"""Classic neutral battlecry minions, second half (games/hearth/cards/neutral_classic_b.py)."""

from __future__ import annotations

from hearth_cardtest import card_ids, dead, play_targets, stats

from games import hearth
from games.hearth import scenario as S
from games.hearth.carddb import load_cards
from games.hearth.enums import (
    ARMOR,
    CARDRACE,
    DIVINE_SHIELD,
    FROZEN,
    R_BEAST,
    R_LEGENDARY,
    R_PIRATE,
    RARITY,
    SPELLPOWER,
    T_MINION,
    Z_GRAVEYARD,
    ZONE,
)


def test_ex1_103_coldlight_seer_ex1_103e_gives_other_friendly_murlocs_two_health() -> None:
    g = S.prepared()
    murloc = S.summon(g, 1, "CS2_168")  # Murloc Raider 2/1
    other = S.summon(g, 1, "CS2_182")
    enemy = S.summon(g, 2, "CS2_168")
    seer = S.give(g, 1, "EX1_103")
    S.play(g, seer)
    assert stats(g, murloc) == (2, 3)
    assert stats(g, seer) == (2, 3)  # not itself
    assert stats(g, other) == (4, 5) and stats(g, enemy) == (2, 1)


def test_ex1_283_frost_elemental_freezes_a_character() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    elemental = S.give(g, 1, "EX1_283")
    assert play_targets(g, elemental) == {g.hero[1], g.hero[2], yeti}
    S.play(g, elemental, g.hero[2])
    assert g.ents[g.hero[2]][FROZEN] == 1 and not g.ents[yeti][FROZEN]


def test_ex1_284_azure_drake_draws_and_adds_spell_damage() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_284"))
    assert len(g.hand[1]) == 1
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])  # Fireball 6 + 1
    assert g.health(g.hero[2]) == 23


def test_ex1_583_priestess_of_elune_restores_four_to_own_hero() -> None:
    g = S.prepared()
    S.hit(g, g.hero[1], 10)
    S.hit(g, g.hero[2], 10)
    S.play(g, S.give(g, 1, "EX1_583"))
    assert g.health(g.hero[1]) == 24 and g.health(g.hero[2]) == 20


def test_ex1_584_ancient_mage_ex1_584e_gives_adjacent_minions_spell_damage() -> None:
    g = S.prepared()
    left = S.summon(g, 1, "CS2_231")
    right = S.summon(g, 1, "CS2_120")
    far = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_584"), position=1)  # between the Wisp and the Crocolisk
    assert g.spell_damage(1) == 2
    assert g.ents[left].tags.get(SPELLPOWER) == 1 and g.ents[right].tags.get(SPELLPOWER) == 1
    assert not g.ents[far].tags.get(SPELLPOWER)
    S.play(g, S.give(g, 1, "CS2_024"), g.hero[2])  # Frostbolt 3 + 2
    assert g.health(g.hero[2]) == 25


def test_ex1_561_alexstrasza_sets_remaining_health_to_15() -> None:
    g = S.prepared()
    g.gain_armor(2, 2)
    alex = S.give(g, 1, "EX1_561")
    assert play_targets(g, alex) == {g.hero[1], g.hero[2]}  # heroes only
    S.play(g, alex, g.hero[2])
    assert g.health(g.hero[2]) == 15 and g.ents[g.hero[2]][ARMOR] == 2
    # on a hero below 15 it raises the Health; the maximum stays 30
    S.hit(g, g.hero[1], 20)
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_561"), g.hero[1])
    assert g.health(g.hero[1]) == 15
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_583"))  # Priestess heals 4 of the 15 missing
    assert g.health(g.hero[1]) == 19


def test_new1_017_hungry_crab_new1_017e_eats_a_murloc() -> None:
    g = S.prepared()
    murloc = S.summon(g, 2, "CS2_168")
    S.summon(g, 2, "CS2_182")
    crab = S.give(g, 1, "NEW1_017")
    assert play_targets(g, crab) == {murloc}
    S.play(g, crab, murloc)
    assert dead(g, murloc) and stats(g, crab) == (3, 4)
    crab2 = S.give(g, 1, "NEW1_017")  # no Murloc left: played without a target, no buff
    assert play_targets(g, crab2) == {0}
    S.play(g, crab2)
    assert stats(g, crab2) == (1, 2)


def test_ex1_590_blood_knight_ex1_590e_takes_every_divine_shield() -> None:
    g = S.prepared()
    mine = S.summon(g, 1, "EX1_008")
    theirs = S.summon(g, 2, "EX1_008")
    knight = S.give(g, 1, "EX1_590")
    S.play(g, knight)
    assert stats(g, knight) == (9, 9)
    assert not g.ents[mine][DIVINE_SHIELD] and not g.ents[theirs][DIVINE_SHIELD]
    knight2 = S.give(g, 1, "EX1_590")
    S.play(g, knight2)  # no shield left
    assert stats(g, knight2) == (3, 3)


def test_new1_041_stampeding_kodo_destroys_an_enemy_with_two_attack_or_less() -> None:
    g = S.prepared()
    wisp = S.summon(g, 2, "CS2_231")
    yeti = S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "NEW1_041"))
    assert dead(g, wisp) and not dead(g, yeti) and not dead(g, mine)
    S.play(g, S.give(g, 1, "NEW1_041"))  # nothing left to destroy
    assert not dead(g, yeti)


def test_new1_030_deathwing_destroys_all_other_minions_and_discards_the_hand() -> None:
    g = S.prepared()
    ours = S.summon(g, 1, "CS2_182")
    theirs = S.summon(g, 2, "CS2_182")
    kept = [S.give(g, 1, "CS2_029"), S.give(g, 1, "CS2_231")]
    wing = S.give(g, 1, "NEW1_030")
    S.play(g, wing)
    assert dead(g, ours) and dead(g, theirs) and card_ids(g, g.board[1]) == ["NEW1_030"]
    assert g.hand[1] == [] and all(g.ents[c][ZONE] == Z_GRAVEYARD for c in kept)


def test_ex1_190_high_inquisitor_whitemane_summons_the_friendly_dead_of_this_turn() -> None:
    g = S.prepared()
    old = S.summon(g, 1, "CS2_120")
    S.hit(g, old, 5)  # died, but on the turn before
    S.end_turn(g)
    S.end_turn(g)
    wisp = S.summon(g, 1, "CS2_231")
    yeti = S.summon(g, 1, "CS2_182")
    croc = S.summon(g, 1, "CS2_120")
    enemy = S.summon(g, 2, "CS2_200")
    S.hit(g, croc, 1)
    S.hit(g, yeti, 5)  # dies first
    S.hit(g, wisp, 1)
    S.hit(g, enemy, 9)  # not friendly
    S.hit(g, croc, 5)
    whitemane = S.give(g, 1, "EX1_190")
    S.play(g, whitemane)
    assert card_ids(g, g.board[1]) == ["EX1_190", "CS2_182", "CS2_231", "CS2_120"]
    assert stats(g, g.board[1][3]) == (2, 3)  # a fresh copy: the damage is gone
    assert g.board[1][1] != yeti  # new entities


def test_ex1_190_whitemane_stops_when_the_board_is_full() -> None:
    g = S.prepared()
    dying = ["CS2_231", "CS2_120", "CS2_182", "CS2_200", "CS2_231", "CS2_120", "CS2_182"]
    for cid in dying:
        S.summon(g, 1, cid)
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind kills the two Wisps
    for i in list(g.board[1]):
        S.hit(g, i, 20)
    S.play(g, S.give(g, 1, "EX1_190"))
    assert len(g.board[1]) == 7
    assert card_ids(g, g.board[1][1:3]) == ["CS2_231", "CS2_231"]  # Whirlwind's dead first


def test_ex1_188_barrens_stablehand_summons_a_random_beast() -> None:
    beasts = set()
    for seed in range(12):
        g = S.prepared(seed=seed)
        hand = S.give(g, 1, "EX1_188")
        S.play(g, hand)
        assert len(g.board[1]) == 2 and g.board[1][0] == hand
        beast = g.ents[g.board[1][1]].card
        assert beast.type == T_MINION and beast.race == R_BEAST and beast.collectible
        assert beast.id in hearth.collectible_cards()
        beasts.add(beast.id)
    assert len(beasts) > 3  # random, from the whole pool


def test_ex1_189_brightwing_adds_a_random_legendary_minion() -> None:
    seen = set()
    for seed in range(8):
        g = S.prepared(seed=seed)
        S.play(g, S.give(g, 1, "EX1_189"))
        (new,) = g.hand[1]
        card = g.ents[new].card
        assert card.type == T_MINION and card.tags.get(RARITY) == R_LEGENDARY
        assert card.id in hearth.collectible_cards()
        seen.add(card.id)
    assert len(seen) > 2


def test_new1_016_captains_parrot_draws_a_pirate() -> None:
    deck = ["CS2_231"] * 28 + ["NEW1_025", "NEW1_018"]  # the Pirates at the bottom
    g = S.prepared(deck1=deck)
    S.play(g, S.give(g, 1, "NEW1_016"))
    S.play(g, S.give(g, 1, "NEW1_016"))
    drawn = {g.ents[i].card.id for i in g.hand[1]}
    assert drawn == {"NEW1_025", "NEW1_018"}
    assert all(g.ents[i].card.race == R_PIRATE for i in g.hand[1])
    left = len(g.deck[1])
    S.play(g, S.give(g, 1, "NEW1_016"))  # no Pirate left: nothing
    assert len(g.deck[1]) == left and len(g.hand[1]) == 2
    assert load_cards()["NEW1_016"].race == R_BEAST  # the Parrot itself is a Beast
    assert all(g.ents[i].card.tags.get(CARDRACE) != R_PIRATE for i in g.deck[1])
