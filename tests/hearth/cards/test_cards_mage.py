"""Mage spells (spell damage, random splits, transforms, summons and freezes)."""

from __future__ import annotations

from hearth_cardtest import attack_targets, can_attack, card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ATTACHED, DAMAGE, DEATHRATTLE, FROZEN, TAUNT, Z_GRAVEYARD, ZONE


def test_cs2_029_fireball() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    fireball = S.give(g, 1, "CS2_029")
    assert play_targets(g, fireball) == {g.hero[1], g.hero[2], yeti}
    S.play(g, fireball, yeti)
    assert dead(g, yeti) and g.mana(1) == 6 and g.ents[fireball][ZONE] == Z_GRAVEYARD
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.health(g.hero[2]) == 24
    empty = S.prepared()
    assert play_targets(empty, S.give(empty, 1, "CS2_029")) == {empty.hero[1], empty.hero[2]}


def test_cs2_024_frostbolt() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_142")
    frostbolt = S.give(g, 1, "CS2_024")
    S.play(g, frostbolt, g.hero[2])
    assert g.health(g.hero[2]) == 26  # 3 + 1 spell damage
    assert g.ents[g.hero[2]][FROZEN] == 1


def test_cs2_025_arcane_explosion() -> None:
    g = S.prepared()
    wisp, yeti = S.summon(g, 2, "CS2_231"), S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_025"))
    assert dead(g, wisp) and stats(g, yeti) == (4, 4)
    assert stats(g, mine) == (1, 1) and g.health(g.hero[2]) == 30


def test_cs2_032_flamestrike() -> None:
    g = S.prepared()
    yeti, ogre = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_200")
    mine = S.summon(g, 1, "CS2_182")
    flamestrike = S.give(g, 1, "CS2_032")
    S.play(g, flamestrike)
    assert g.mana(1) == 3  # cost 7
    assert stats(g, yeti) == (4, 1) and stats(g, ogre) == (6, 3)  # 4 damage in patch 17.6
    assert stats(g, mine) == (4, 5) and g.health(g.hero[2]) == 30


def test_ex1_277_arcane_missiles() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_277"))
    assert g.health(g.hero[2]) == 27 and g.health(g.hero[1]) == 30
    ogre = S.summon(g, 2, "CS2_200")
    S.play(g, S.give(g, 1, "EX1_277"))
    assert (30 - 3 - g.health(g.hero[2])) + g.ents[ogre][DAMAGE] == 3
    # Missiles pick only living targets: a 1-health minion takes at most one.
    g2 = S.prepared(seed=5)
    wisps = [S.summon(g2, 2, "CS2_231") for _ in range(3)]
    S.play(g2, S.give(g2, 1, "EX1_277"))
    killed = sum(dead(g2, w) for w in wisps)
    assert killed + (30 - g2.health(g2.hero[2])) == 3


def test_cs2_023_arcane_intellect() -> None:
    g = S.prepared()
    top2 = g.deck[1][-2:][::-1]
    S.play(g, S.give(g, 1, "CS2_023"))
    assert g.hand[1] == top2 and g.mana(1) == 7


def test_cs2_022_polymorph() -> None:
    g = S.prepared()
    hoarder = S.summon(g, 2, "EX1_096")
    S.summon(g, 2, "CS2_231")
    polymorph = S.give(g, 1, "CS2_022")
    assert g.hero[2] not in play_targets(g, polymorph)  # minions only
    S.play(g, polymorph, hoarder)
    assert g.ents[hoarder].card.id == "CS2_tk1" and g.board[2][0] == hoarder
    assert stats(g, hoarder) == (1, 1) and g.ents[hoarder][DEATHRATTLE] == 0
    assert g.hand[2] == []


def test_cs2_027_mirror_image() -> None:
    g = S.prepared()
    mirror = S.give(g, 1, "CS2_027")
    S.play(g, mirror)
    assert card_ids(g, g.board[1]) == ["CS2_mirror", "CS2_mirror"]
    img = g.board[1][0]
    assert stats(g, img) == (0, 2) and g.ents[img][TAUNT] == 1
    S.end_turn(g)
    boar = S.summon(g, 2, "CS2_171")
    assert attack_targets(g, boar) == set(g.board[1])
    S.end_turn(g)
    assert not can_attack(g, img)  # 0 attack: never
    for _ in range(5):
        S.summon(g, 1, "CS2_231")
    assert not any(a.entity == S.give(g, 1, "CS2_027") for a in g.legal_actions())


def test_cs2_026_frost_nova() -> None:
    g = S.prepared()
    a, b = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_231")
    mine = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_026"))
    assert g.ents[a][FROZEN] == g.ents[b][FROZEN] == 1
    assert g.ents[mine][FROZEN] == 0 and g.ents[g.hero[2]][FROZEN] == 0
    S.end_turn(g)
    assert not can_attack(g, a) and not can_attack(g, b)
    S.end_turn(g)
    assert g.ents[a][FROZEN] == 0


def test_cs2_022_polymorph_removes_enchantments() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_092"), yeti)
    S.end_turn(g)
    g.damage(g.hero[1], yeti, 3)
    S.play(g, S.give(g, 1, "CS2_022"), yeti)
    assert stats(g, yeti) == (1, 1) and g.ents[yeti][DAMAGE] == 0
    assert not [i for i in g.enchants if g.ents[i][ATTACHED] == yeti]


# ------------------------------------------------------------------------------ (card-c)


def test_cs2_033_water_elemental() -> None:
    g = S.prepared()
    we = S.summon(g, 1, "CS2_033")
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, we, g.hero[2])
    assert g.ents[g.hero[2]][FROZEN] == 1 and g.health(g.hero[2]) == 27
    S.end_turn(g)
    S.attack(g, yeti, we)  # defending: the attacker it damages is frozen too
    assert g.ents[yeti][FROZEN] == 1 and stats(g, yeti) == (4, 2)
    S.end_turn(g)
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[1])  # damage by another source: no freeze
    assert g.ents[g.hero[1]][FROZEN] == 0
    squire = S.summon(g, 2, "EX1_008")
    S.attack(g, we, squire)  # Divine Shield: no damage dealt, no freeze
    assert g.ents[squire][FROZEN] == 0
