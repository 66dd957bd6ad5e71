"""Neutral minions with deathrattles, auras, enrage and triggers."""

from __future__ import annotations

from hearth_cardtest import atk, card_ids, dead, stats

from games.hearth import scenario as S
from games.hearth.enums import ATTACHED, Z_HAND, ZONE

# ------------------------------------------------------------------------------ deathrattles


def test_ex1_012_bloodmage_thalnos() -> None:
    g = S.prepared()
    thalnos = S.summon(g, 1, "EX1_012")
    assert g.spell_damage(1) == 1
    top = g.deck[1][-1]
    S.play(g, S.give(g, 1, "CS2_025"))  # Arcane Explosion: 1 + 1 to enemy minions
    S.power(g, thalnos)  # Fireblast kills it
    assert dead(g, thalnos) and g.ents[top][ZONE] == Z_HAND and g.hand[1] == [top]
    assert g.spell_damage(1) == 0


def test_ex1_096_loot_hoarder() -> None:
    g = S.prepared()
    hoarder = S.summon(g, 2, "EX1_096")
    top = g.deck[2][-1]
    assert stats(g, hoarder) == (2, 1)
    S.power(g, hoarder)
    assert dead(g, hoarder)
    assert g.hand[2] == [top] and g.hand[1] == []  # its owner draws


def test_ex1_556_harvest_golem() -> None:
    g = S.prepared()
    left = S.summon(g, 2, "CS2_231")
    golem = S.summon(g, 2, "EX1_556")
    right = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_029"), golem)
    assert dead(g, golem)
    assert card_ids(g, g.board[2]) == ["CS2_231", "skele21", "CS2_231"]
    assert g.board[2][0] == left and g.board[2][2] == right
    assert stats(g, g.board[2][1]) == (2, 1)


# ------------------------------------------------------------------------------ auras


def test_cs2_122_raid_leader() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    enemy = S.summon(g, 2, "CS2_231")
    leader = S.give(g, 1, "CS2_122")
    S.play(g, leader)
    assert stats(g, wisp) == (2, 1) and stats(g, leader) == (2, 2) and atk(g, enemy) == 1
    late = S.summon(g, 1, "CS2_231")
    assert atk(g, late) == 2  # minions arriving later are buffed too
    S.power(g, leader)
    S.play(g, S.give(g, 1, "CS2_029"), leader)
    assert dead(g, leader) and atk(g, wisp) == 1 and atk(g, late) == 1


def test_cs2_222_stormwind_champion() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    champion = S.give(g, 1, "CS2_222")
    S.play(g, champion)
    assert stats(g, yeti) == (5, 6) and stats(g, champion) == (6, 6)
    enemy = S.summon(g, 2, "CS2_182")
    assert stats(g, enemy) == (4, 5)


def test_ex1_508_grimscale_oracle() -> None:
    g = S.prepared()
    raider = S.summon(g, 1, "CS2_168")
    wisp = S.summon(g, 1, "CS2_231")
    enemy_murloc = S.summon(g, 2, "CS2_168")
    oracle = S.give(g, 1, "EX1_508")
    S.play(g, oracle)
    assert atk(g, raider) == 3  # a friendly Murloc
    assert atk(g, wisp) == 1 and atk(g, enemy_murloc) == 2 and atk(g, oracle) == 1
    S.play(g, S.give(g, 1, "EX1_506"))  # Tidehunter and its Scout are Murlocs
    tide, scout = g.board[1][-2:]
    assert atk(g, tide) == 3 and atk(g, scout) == 2
    oracle2 = S.summon(g, 1, "EX1_508")
    assert atk(g, oracle) == 2 and atk(g, oracle2) == 2 and atk(g, raider) == 4


def test_ex1_162_dire_wolf_alpha() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    b = S.summon(g, 1, "CS2_231")
    c = S.summon(g, 1, "CS2_231")
    wolf = S.give(g, 1, "EX1_162")
    S.play(g, wolf, position=1)
    assert [atk(g, i) for i in g.board[1]] == [2, 2, 2, 1]
    assert g.board[1] == [a, wolf, b, c]
    S.power(g, b)  # b dies: c becomes the right neighbour
    assert [atk(g, i) for i in g.board[1]] == [2, 2, 2]
    d = S.summon(g, 1, "CS2_231", position=1)  # pushed between a and the wolf
    assert g.board[1] == [a, d, wolf, c]
    assert [atk(g, i) for i in g.board[1]] == [1, 2, 2, 2]


def test_ex1_393_amani_berserker() -> None:
    g = S.prepared(hero1="HERO_09")
    amani = S.summon(g, 1, "EX1_393")
    assert stats(g, amani) == (2, 3)
    g.damage(g.hero[2], amani, 1)
    g._deaths()
    assert stats(g, amani) == (5, 2)
    S.power(g, amani)  # Lesser Heal to full health
    assert stats(g, amani) == (2, 3)


# ------------------------------------------------------------------------------ triggers


def test_ex1_007_acolyte_of_pain() -> None:
    g = S.prepared()
    acolyte = S.summon(g, 2, "EX1_007")
    S.power(g, acolyte)
    assert stats(g, acolyte) == (1, 2) and len(g.hand[2]) == 1
    S.play(g, S.give(g, 1, "CS2_029"), acolyte)  # dies, but still draws
    assert dead(g, acolyte) and len(g.hand[2]) == 2
    assert len(g.hand[1]) == 0


def test_ex1_399_gurubashi_berserker() -> None:
    g = S.prepared()
    berserker = S.summon(g, 1, "EX1_399")
    assert stats(g, berserker) == (2, 7)
    S.power(g, berserker)
    assert stats(g, berserker) == (5, 6)
    wisp = S.summon(g, 2, "CS2_231")
    S.attack(g, berserker, wisp)
    assert stats(g, berserker) == (8, 5)
    enchants = [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == berserker]
    assert enchants == ["EX1_399e", "EX1_399e"]


def test_new1_019_knife_juggler() -> None:
    g = S.prepared()
    juggler = S.give(g, 1, "NEW1_019")
    S.play(g, juggler)
    assert g.health(g.hero[2]) == 30  # its own summon does not trigger it
    S.play(g, S.give(g, 1, "CS2_231"))
    assert g.health(g.hero[2]) == 29
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_231"))  # enemy summons do not trigger it
    S.end_turn(g)
    assert g.health(g.hero[2]) == 29 and g.health(g.hero[1]) == 30
    # With enemy minions each knife hits one random living enemy character for 1.
    for _ in range(2):
        S.summon(g, 2, "CS2_182")
    enemies = [g.hero[2], *g.board[2]]  # the wisp, then the yetis
    hits = []
    for _ in range(4):
        before = [g.health(i) for i in enemies]
        S.play(g, S.give(g, 1, "CS2_231"))
        hits.append([b - g.health(i) for b, i in zip(before, enemies, strict=True)])
    assert all(sorted(h) == [0, 0, 0, 1] for h in hits)


def test_ex1_556_harvest_golems_dying_together_keep_their_slots() -> None:
    g = S.prepared(hero1="HERO_01")
    first = S.summon(g, 1, "EX1_556")
    wisp = S.summon(g, 1, "CS2_231")
    second = S.summon(g, 1, "EX1_556")
    keeper = S.summon(g, 1, "CS2_182")
    for golem in (first, second):
        g.damage(g.hero[2], golem, 2)
    g._deaths()
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind kills both Golems and the Wisp
    assert dead(g, first) and dead(g, second) and dead(g, wisp)
    assert card_ids(g, g.board[1]) == ["skele21", "skele21", "CS2_182"]
    assert g.board[1][2] == keeper and g.board[1][0] < g.board[1][1]


def test_new1_019_knife_juggler_killed_by_the_battlecry_throws_nothing() -> None:
    """SabberStone's PlayMinion runs a death phase between the battlecry and the
    after-summon phase; fireplace's test_knife_juggler expects the same."""
    g = S.prepared()
    juggler = S.summon(g, 1, "NEW1_019")
    S.power(g, juggler)  # 2/1
    S.play(g, S.give(g, 1, "CS2_189"), juggler)  # Elven Archer kills it
    assert dead(g, juggler) and g.health(g.hero[2]) == 30
