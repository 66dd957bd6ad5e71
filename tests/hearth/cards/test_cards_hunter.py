"""Hunter Basic cards, Steady Shot and the Animal Companions."""

from __future__ import annotations

from hearth_cardtest import attack_targets, can_attack, card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import CHARGE, TAUNT

BOAR, RAPTOR, YETI, WISP = "CS2_171", "CS2_172", "CS2_182", "CS2_231"  # boar/raptor: Beasts


def test_hero_05bp_steady_shot() -> None:
    g = S.prepared(hero1="HERO_05")
    S.summon(g, 1, "CS2_142")  # spell damage never applies to hero powers
    S.power(g)
    assert g.health(g.hero[2]) == 28 and g.mana(1) == 8
    S.summon(g, 2, "EX1_008")
    assert not any(a.entity == g.power[1] for a in g.legal_actions())  # once a turn


def test_ds1_185_arcane_shot() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, YETI)
    shot = S.give(g, 1, "DS1_185")
    assert play_targets(g, shot) == {g.hero[1], g.hero[2], yeti}
    S.play(g, shot, yeti)
    assert stats(g, yeti) == (4, 3)
    S.summon(g, 1, "CS2_142")
    S.play(g, S.give(g, 1, "DS1_185"), g.hero[2])
    assert g.health(g.hero[2]) == 27


def test_cs2_084_hunters_mark_cs2_084e() -> None:
    g = S.prepared()
    ogre = S.summon(g, 2, "CS2_200")
    S.hit(g, ogre, 3)
    mark = S.give(g, 1, "CS2_084")
    assert play_targets(g, mark) == {ogre}
    S.play(g, mark, ogre)
    assert stats(g, ogre) == (6, 1)  # damage cleared: exactly 1 health
    S.play(g, S.give(g, 1, "EX1_332"), ogre)  # Silence: back to 7 health, undamaged
    assert stats(g, ogre) == (6, 7)
    g2 = S.prepared()
    shielded = S.summon(g2, 2, "EX1_008")  # Argent Squire: 1 health already
    S.play(g2, S.give(g2, 1, "CS2_084"), shielded)
    assert stats(g2, shielded) == (1, 1)
    yeti = S.summon(g2, 2, YETI)
    S.play(g2, S.give(g2, 1, "CS2_084"), yeti)
    S.play(g2, S.give(g2, 1, "CS2_092"), yeti)  # Blessing of Kings after the Mark: 8/5
    assert stats(g2, yeti) == (8, 5)


def test_cs2_237_starving_buzzard() -> None:
    g = S.prepared()
    buzzard = S.give(g, 1, "CS2_237")
    S.play(g, buzzard)
    assert g.hand[1] == []  # not for itself
    S.play(g, S.give(g, 1, RAPTOR))
    assert len(g.hand[1]) == 1
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, YETI))
    assert len(g.hand[1]) == 1  # not a Beast
    S.summon(g, 2, RAPTOR)
    assert len(g.hand[1]) == 1  # enemy Beasts do not count
    S.play(g, S.give(g, 1, "NEW1_031"))  # a summoned companion is a Beast
    assert len(g.hand[1]) == 2


def test_ds1_070_houndmaster_ds1_070o() -> None:
    g = S.prepared()
    raptor, yeti = S.summon(g, 1, RAPTOR), S.summon(g, 1, YETI)
    S.summon(g, 2, BOAR)
    hound = S.give(g, 1, "DS1_070")
    assert play_targets(g, hound) == {raptor}  # friendly Beasts only
    S.play(g, hound, raptor)
    assert stats(g, raptor) == (5, 4) and g.ents[raptor][TAUNT] == 1 and stats(g, yeti) == (4, 5)
    g2 = S.prepared()
    S.summon(g2, 1, YETI)
    lone = S.give(g2, 1, "DS1_070")
    assert play_targets(g2, lone) == {0}  # no Beast: played without a target
    S.play(g2, lone)
    assert stats(g2, lone) == (4, 3)


def test_ds1_175_timber_wolf_ds1_175o() -> None:
    g = S.prepared()
    raptor, yeti = S.summon(g, 1, RAPTOR), S.summon(g, 1, YETI)
    enemy = S.summon(g, 2, RAPTOR)
    wolf = S.summon(g, 1, "DS1_175")
    assert stats(g, raptor) == (4, 2) and stats(g, yeti) == (4, 5)
    assert stats(g, wolf) == (1, 1) and stats(g, enemy) == (3, 2)  # not itself, not enemies
    S.hit(g, wolf, 1)
    assert dead(g, wolf) and stats(g, raptor) == (3, 2)


def test_ds1_178_tundra_rhino_ds1_178e() -> None:
    g = S.prepared()
    rhino = S.give(g, 1, "DS1_178")
    S.play(g, rhino)
    assert can_attack(g, rhino)  # itself a Beast
    raptor = S.give(g, 1, RAPTOR)
    S.play(g, raptor)
    assert can_attack(g, raptor) and g.ents[raptor][CHARGE] == 1
    yeti = S.give(g, 1, YETI)
    S.set_mana(g, 1, 10)
    S.play(g, yeti)
    assert not can_attack(g, yeti)
    S.hit(g, rhino, 5)
    assert dead(g, rhino) and g.ents[raptor][CHARGE] == 0


def test_ds1_183_multi_shot() -> None:
    g = S.prepared()
    shot = S.give(g, 1, "DS1_183")
    assert play_targets(g, shot) == set()  # no enemy minion: unplayable
    a = S.summon(g, 2, YETI)
    assert play_targets(g, shot) == {0}  # one is enough (SabberStone)
    b, c = S.summon(g, 2, YETI), S.summon(g, 2, YETI)
    S.play(g, shot)
    hit = [m for m in (a, b, c) if stats(g, m) == (4, 2)]
    assert len(hit) == 2 and g.health(g.hero[2]) == 30
    g2 = S.prepared(seed=3)
    wisps = [S.summon(g2, 2, WISP) for _ in range(2)]
    S.summon(g2, 1, "CS2_142")
    S.play(g2, S.give(g2, 1, "DS1_183"))
    assert all(dead(g2, w) for w in wisps) and g2.health(g2.hero[2]) == 30
    g3 = S.prepared()
    lone = S.summon(g3, 2, YETI)
    S.play(g3, S.give(g3, 1, "DS1_183"))
    assert stats(g3, lone) == (4, 2) and g3.health(g3.hero[2]) == 30


def test_ex1_539_kill_command() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_539"), g.hero[2])
    assert g.health(g.hero[2]) == 27
    S.summon(g, 2, BOAR)  # an enemy Beast does not count
    S.play(g, S.give(g, 1, "EX1_539"), g.hero[2])
    assert g.health(g.hero[2]) == 24
    S.summon(g, 1, BOAR)
    S.play(g, S.give(g, 1, "EX1_539"), g.hero[2])
    assert g.health(g.hero[2]) == 19


def test_new1_031_animal_companion_new1_032_new1_033_new1_033o_new1_034() -> None:
    seen = set()
    for seed in range(30):
        g = S.prepared(seed=seed)
        wisp = S.summon(g, 1, WISP)
        S.play(g, S.give(g, 1, "NEW1_031"))
        (comp,) = [i for i in g.board[1] if i != wisp]
        cid = g.ents[comp].card.id
        seen.add(cid)
        if cid == "NEW1_032":  # Misha: 4/4 Taunt
            assert stats(g, comp) == (4, 4) and g.ents[comp][TAUNT] == 1
        elif cid == "NEW1_033":  # Leokk: other friendly minions +1 Attack
            assert stats(g, comp) == (2, 4) and stats(g, wisp) == (2, 1)
        else:  # Huffer: 4/2 Charge
            assert stats(g, comp) == (4, 2) and can_attack(g, comp)
    assert seen == {"NEW1_032", "NEW1_033", "NEW1_034"}
    g = S.prepared()
    for _ in range(7):
        S.summon(g, 1, WISP)
    ac = S.give(g, 1, "NEW1_031")
    assert play_targets(g, ac) == set()  # full board
    assert card_ids(g, g.board[1]) == [WISP] * 7
    assert attack_targets(g, g.board[1][0]) == {g.hero[2]}
