"""Classic neutral minions that summon, for either side, or have auras and keywords only
(neutral_classic_b.py)."""

from __future__ import annotations

from hearth_cardtest import attack_targets, can_attack, card_ids, dead, play_targets, stats

from games.hearth import scenario as S


def test_ex1_116_leeroy_jenkins_charges_and_gives_the_opponent_two_whelps() -> None:
    g = S.prepared()
    leeroy = S.give(g, 1, "EX1_116")
    S.play(g, leeroy)
    assert can_attack(g, leeroy)
    assert card_ids(g, g.board[2]) == ["EX1_116t", "EX1_116t"]
    assert all(stats(g, w) == (1, 1) for w in g.board[2]) and g.board[1] == [leeroy]


def test_ex1_116_leeroy_with_a_full_enemy_board_summons_nothing() -> None:
    g = S.prepared()
    for _ in range(6):
        S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_116"))
    assert len(g.board[2]) == 7 and card_ids(g, g.board[2]).count("EX1_116t") == 1


def test_ex1_562_onyxia_fills_the_board_with_whelps_on_both_sides() -> None:
    g = S.prepared()
    onyxia = S.give(g, 1, "EX1_562")
    S.play(g, onyxia)
    assert card_ids(g, g.board[1]) == ["EX1_116t"] * 3 + ["EX1_562"] + ["EX1_116t"] * 3
    g2 = S.prepared()
    wisp = S.summon(g2, 1, "CS2_231")
    S.play(g2, S.give(g2, 1, "EX1_562"))  # right, left, right, ... of Onyxia
    ids = card_ids(g2, g2.board[1])
    assert g2.board[1][0] == wisp and ids[3] == "EX1_562" and ids.count("EX1_116t") == 5


def test_ex1_110_cairne_bloodhoof_leaves_baine_in_his_place() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_231")
    cairne = S.summon(g, 1, "EX1_110")
    S.summon(g, 1, "CS2_182")
    S.hit(g, cairne, 5)
    assert dead(g, cairne)
    assert card_ids(g, g.board[1]) == ["CS2_231", "EX1_110t", "CS2_182"]
    assert stats(g, g.board[1][1]) == (4, 5)


def test_ex1_577_the_beast_gives_the_opponent_finkle_einhorn() -> None:
    g = S.prepared()
    beast = S.summon(g, 1, "EX1_577")
    S.hit(g, beast, 7)
    assert dead(g, beast) and g.board[1] == []
    assert card_ids(g, g.board[2]) == ["EX1_finkle"] and stats(g, g.board[2][0]) == (3, 3)


def test_ex1_614_xavius_summons_a_satyr_after_you_play_a_card() -> None:
    g = S.prepared()
    xavius = S.give(g, 1, "EX1_614")
    S.play(g, xavius)
    assert g.board[1] == [xavius]  # not for itself
    S.play(g, S.give(g, 1, "CS2_231"))  # a minion
    assert card_ids(g, g.board[1]) == ["EX1_614", "EX1_614t", "CS2_231"]
    assert stats(g, g.board[1][1]) == (2, 1)
    S.play(g, S.give(g, 1, "GAME_005"))  # a spell
    S.play(g, S.give(g, 1, "CS2_106"))  # a weapon
    assert card_ids(g, g.board[1]).count("EX1_614t") == 3
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_231"))  # the opponent's card: nothing
    assert card_ids(g, g.board[1]).count("EX1_614t") == 3


def test_ex1_614_xavius_satyr_comes_after_the_played_minion_is_in_play() -> None:
    # fireplace's Illidan + Knife Juggler: the Juggler, already in play, throws for the Satyr.
    g = S.prepared()
    S.summon(g, 1, "EX1_614")
    S.play(g, S.give(g, 1, "NEW1_019"))
    assert card_ids(g, g.board[1]) == ["EX1_614", "EX1_614t", "NEW1_019"]
    assert g.health(g.hero[2]) == 29


def test_ex1_614_xavius_with_a_full_board_summons_nothing() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_614")
    for _ in range(5):
        S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "NEW1_019"))  # the 7th minion: no room for a Satyr
    assert len(g.board[1]) == 7 and "EX1_614t" not in card_ids(g, g.board[1])
    assert g.health(g.hero[2]) == 30


def test_ex1_614_xavius_killed_by_the_card_summons_nothing() -> None:
    # "After you play a card": a Xavius the spell killed is gone before its trigger.
    g = S.prepared()
    xavius = S.summon(g, 1, "EX1_614")
    S.hit(g, xavius, 4)
    S.play(g, S.give(g, 1, "CS2_008"), xavius)  # Moonfire
    assert dead(g, xavius) and g.board[1] == []


def test_ex1_507_murloc_warleader_ex1_507e_gives_other_friendly_murlocs_two_attack() -> None:
    g = S.prepared()
    murloc = S.summon(g, 1, "CS2_168")
    wisp = S.summon(g, 1, "CS2_231")
    enemy = S.summon(g, 2, "CS2_168")
    leader = S.summon(g, 1, "EX1_507")
    assert stats(g, murloc) == (4, 1) and stats(g, leader) == (3, 3)
    assert stats(g, wisp) == (1, 1) and stats(g, enemy) == (2, 1)
    S.hit(g, leader, 3)
    assert stats(g, murloc) == (2, 1)


def test_new1_027_southsea_captain_new1_027e_gives_other_pirates_plus_one_plus_one() -> None:
    g = S.prepared()
    raider = S.summon(g, 1, "NEW1_018")
    wisp = S.summon(g, 1, "CS2_231")
    captain = S.summon(g, 1, "NEW1_027")
    assert stats(g, raider) == (3, 4) and stats(g, captain) == (3, 3)
    assert stats(g, wisp) == (1, 1)
    captain2 = S.summon(g, 1, "NEW1_027")  # each Captain buffs the other
    assert stats(g, raider) == (4, 5)
    assert stats(g, captain) == (4, 4) and stats(g, captain2) == (4, 4)


def test_ex1_170_emperor_cobra_is_poisonous() -> None:
    g = S.prepared()
    cobra = S.summon(g, 1, "EX1_170")
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, cobra, yeti)
    assert dead(g, yeti) and dead(g, cobra)


def test_ex1_396_mogushan_warden_taunt() -> None:
    g = S.prepared()
    warden = S.summon(g, 2, "EX1_396")
    assert attack_targets(g, S.summon(g, 1, "CS2_171")) == {warden}


def test_ex1_405_shieldbearer_taunt() -> None:
    g = S.prepared()
    shield = S.summon(g, 2, "EX1_405")
    assert attack_targets(g, S.summon(g, 1, "CS2_171")) == {shield}


def test_new1_023_faerie_dragon_cannot_be_targeted_by_spells_or_hero_powers() -> None:
    g = S.prepared(hero1="HERO_08")  # Mage: Fireblast targets
    dragon = S.summon(g, 2, "NEW1_023")
    own = S.summon(g, 1, "NEW1_023")
    yeti = S.summon(g, 2, "CS2_182")
    fireball = S.give(g, 1, "CS2_029")
    assert dragon not in play_targets(g, fireball) and own not in play_targets(g, fireball)
    assert yeti in play_targets(g, fireball)
    powers = {a.target for a in g.legal_actions() if a.kind.name == "POWER"}
    assert dragon not in powers and own not in powers and yeti in powers
    archer = S.give(g, 1, "CS2_189")  # a battlecry may target it
    assert dragon in play_targets(g, archer)
    S.attack(g, S.summon(g, 1, "CS2_182"), dragon)  # and so may an attack
    assert dead(g, dragon)
