"""Classic and Hall of Fame Warrior cards (helper warlock)."""

from __future__ import annotations

from hearth_cardtest import can_attack, dead, in_play, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ARMOR, ATK, DAMAGE, DURABILITY, HEALTH_MINIMUM, IMMUNE


def test_cs2_104_rampage_and_cs2_104e() -> None:
    g = S.prepared()
    yeti, fresh = S.summon(g, 1, "CS2_182"), S.summon(g, 1, "CS2_200")
    enemy = S.summon(g, 2, "CS2_182")
    S.hit(g, yeti, 2)
    S.hit(g, enemy, 1)
    rp = S.give(g, 1, "CS2_104")
    assert play_targets(g, rp) == {yeti, enemy}
    S.play(g, rp, yeti)
    assert stats(g, yeti) == (7, 6) and stats(g, fresh) == (6, 7)


def test_ex1_391_slam_draws_if_it_survives() -> None:
    g = S.prepared()
    yeti, wisp = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_391"), yeti)
    assert stats(g, yeti) == (4, 3) and len(g.hand[1]) == 1
    S.play(g, S.give(g, 1, "EX1_391"), wisp)
    assert dead(g, wisp) and len(g.hand[1]) == 1


def test_ex1_392_battle_rage_draws_per_damaged_friendly_character() -> None:
    g = S.prepared()
    a, b, c = (S.summon(g, 1, "CS2_182") for _ in range(3))
    enemy = S.summon(g, 2, "CS2_182")
    for i in (g.hero[1], a, b, enemy):
        S.hit(g, i, 1)
    S.play(g, S.give(g, 1, "EX1_392"))
    assert len(g.hand[1]) == 3 and in_play(g, c)


def test_ex1_398_arathi_weaponsmith() -> None:
    g = S.prepared()
    aw = S.give(g, 1, "EX1_398")
    S.play(g, aw)
    w = g.ents[g.weapon[1]]
    assert stats(g, aw) == (3, 3) and w.card.id == "EX1_398t" and (w[ATK], w[DURABILITY]) == (2, 2)


def test_ex1_407_brawl_leaves_one_random_survivor() -> None:
    survivors = set()
    for seed in range(8):
        g = S.prepared(seed=seed)
        minions = [
            S.summon(g, 1, "CS2_182"),
            S.summon(g, 1, "EX1_008"),
            S.summon(g, 2, "CS2_200"),
            S.summon(g, 2, "CS2_231"),
        ]
        S.play(g, S.give(g, 1, "EX1_407"))
        alive = [i for i in minions if in_play(g, i)]
        assert len(alive) == 1  # Argent Squire's Divine Shield does not save it
        survivors.add(minions.index(alive[0]))
    assert len(survivors) > 1


def test_ex1_407_brawl_needs_two_minions() -> None:
    g = S.prepared()
    S.summon(g, 2, "CS2_182")
    brawl = S.give(g, 1, "EX1_407")
    assert play_targets(g, brawl) == set()
    S.summon(g, 1, "CS2_231")
    assert play_targets(g, brawl) == {0}


def test_ex1_408_mortal_strike() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_408"), g.hero[2])
    assert g.health(g.hero[2]) == 26
    S.hit(g, g.hero[1], 17)  # 13 Health: still 4
    S.play(g, S.give(g, 1, "EX1_408"), g.hero[2])
    assert g.health(g.hero[2]) == 22
    S.hit(g, g.hero[1], 1)  # 12 Health: 6
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_408"), g.hero[2])
    assert g.health(g.hero[2]) == 16


def test_ex1_409_upgrade_and_ex1_409e() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "CS2_106"))  # Fiery War Axe 3/2
    axe = g.ents[g.weapon[1]]
    S.play(g, S.give(g, 1, "EX1_409"))
    assert g.weapon[1] == axe.id and (axe[ATK], axe[DURABILITY]) == (4, 3)
    g2 = S.prepared()
    S.play(g2, S.give(g2, 1, "EX1_409"))
    heavy = g2.ents[g2.weapon[1]]
    assert heavy.card.id == "EX1_409t" and (heavy[ATK], heavy[DURABILITY]) == (1, 3)


def test_ex1_410_shield_slam() -> None:
    g = S.prepared()
    ogre = S.summon(g, 2, "CS2_200")
    g.gain_armor(1, 5)
    ss = S.give(g, 1, "EX1_410")
    assert g.hero[2] not in play_targets(g, ss)
    S.play(g, ss, ogre)
    assert stats(g, ogre) == (6, 2) and g.ents[g.hero[1]][ARMOR] == 5
    S.summon(g, 1, "CS2_142")  # Spell Damage +1
    S.play(g, S.give(g, 1, "EX1_410"), ogre)
    assert dead(g, ogre)


def test_ex1_410_shield_slam_without_armor_deals_nothing() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_410"), yeti)
    assert stats(g, yeti) == (4, 5)


def test_ex1_411_gorehowl_and_ex1_411e2() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_411"))
    gh = g.ents[g.weapon[1]]
    assert (gh[ATK], gh[DURABILITY]) == (7, 1)
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, g.hero[1], yeti)
    assert dead(g, yeti) and g.health(g.hero[1]) == 26
    assert g.weapon[1] == gh.id and gh[ATK] == 6 and gh[DAMAGE] == 0 and not gh[IMMUNE]
    S.end_turn(g)
    S.end_turn(g)
    S.attack(g, g.hero[1], g.hero[2])  # a hero: durability as usual
    assert g.health(g.hero[2]) == 24 and g.weapon[1] == 0


def test_ex1_414_grommash_hellscream_and_ex1_414e() -> None:
    g = S.prepared()
    grom = S.give(g, 1, "EX1_414")
    S.play(g, grom)
    assert stats(g, grom) == (4, 9) and can_attack(g, grom)
    S.hit(g, grom, 1)
    assert stats(g, grom) == (10, 8)
    g.heal(1, grom, 1)
    S.resolve(g)
    assert stats(g, grom) == (4, 9)


def test_ex1_603_cruel_taskmaster_and_ex1_603e() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    ct = S.give(g, 1, "EX1_603")
    assert play_targets(g, ct) == {yeti}
    S.play(g, ct, yeti)
    assert stats(g, yeti) == (6, 4) and stats(g, ct) == (2, 2)
    alone = S.prepared()
    ct2 = S.give(alone, 1, "EX1_603")
    assert play_targets(alone, ct2) == {0}


def test_ex1_607_inner_rage_and_ex1_607e() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_607"), yeti)
    assert stats(g, yeti) == (6, 4) and g.mana(1) == 10


def test_new1_036_commanding_shout_and_new1_036e2() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    ogre = S.summon(g, 2, "CS2_200")
    S.play(g, S.give(g, 1, "NEW1_036"))
    assert len(g.hand[1]) == 1 and g.ents[2][HEALTH_MINIMUM] == 1
    later = S.give(g, 1, "CS2_231")
    S.play(g, later)  # played after the Shout: protected too
    S.attack(g, yeti, ogre)
    assert stats(g, yeti) == (4, 1) and stats(g, ogre) == (6, 3)
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind: 1 each
    assert in_play(g, yeti) and in_play(g, later) and stats(g, ogre) == (6, 2)
    S.hit(g, g.hero[1], 5)  # heroes are not protected
    assert g.health(g.hero[1]) == 25
    S.end_turn(g)
    assert g.ents[2][HEALTH_MINIMUM] == 0
    S.hit(g, yeti, 1)
    assert dead(g, yeti)


def test_ex1_411_gorehowl_misdirected_to_a_minion_loses_attack() -> None:
    g = S.prepared(hero2="HERO_05")
    S.end_turn(g)
    S.set_mana(g, 2, 10)
    S.play(g, S.give(g, 2, "EX1_533"))  # Misdirection
    yeti = S.summon(g, 2, "CS2_182")
    S.end_turn(g)
    S.play(g, S.give(g, 1, "EX1_411"))
    gh = g.ents[g.weapon[1]]
    S.attack(g, g.hero[1], g.hero[2])  # redirected to the Yeti, the only other character
    assert dead(g, yeti) and g.health(g.hero[2]) == 30
    assert g.weapon[1] == gh.id and gh[ATK] == 6 and gh[DAMAGE] == 0
