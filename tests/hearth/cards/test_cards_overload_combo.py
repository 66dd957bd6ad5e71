"""Classic Shaman Overload cards and Rogue Combo cards (rules: test_rules_overload_combo.py)."""

from __future__ import annotations

from hearth_cardtest import card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import OVERLOAD_OWED, TAUNT, WINDFURY


def test_ex1_238_lightning_bolt() -> None:
    g = S.prepared(hero1="HERO_02")
    S.summon(g, 1, "CS2_142")  # Spell Damage +1
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_238"), yeti)
    assert stats(g, yeti) == (4, 1) and g.ents[2][OVERLOAD_OWED] == 1


def test_ex1_241_lava_burst() -> None:
    g = S.prepared(hero1="HERO_02")
    S.play(g, S.give(g, 1, "EX1_241"), g.hero[2])
    assert g.health(g.hero[2]) == 25 and g.ents[2][OVERLOAD_OWED] == 2 and g.mana(1) == 7


def test_ex1_248_feral_spirit() -> None:
    g = S.prepared(hero1="HERO_02")
    spirit = S.give(g, 1, "EX1_248")
    S.play(g, spirit)
    assert card_ids(g, g.board[1]) == ["EX1_tk11", "EX1_tk11"]
    assert all(stats(g, i) == (2, 3) and g.ents[i][TAUNT] for i in g.board[1])
    assert g.ents[2][OVERLOAD_OWED] == 2
    full = S.prepared(hero1="HERO_02")
    for _ in range(7):
        S.summon(full, 1, "CS2_231")
    assert play_targets(full, S.give(full, 1, "EX1_248")) == set()


def test_ex1_243_dust_devil() -> None:
    g = S.prepared(hero1="HERO_02")
    devil = S.give(g, 1, "EX1_243")
    S.play(g, devil)
    assert stats(g, devil) == (3, 1) and g.ents[devil][WINDFURY]
    assert g.ents[2][OVERLOAD_OWED] == 2 and g.mana(1) == 9


def test_ex1_250_earth_elemental() -> None:
    g = S.prepared(hero1="HERO_02")
    elemental = S.give(g, 1, "EX1_250")
    S.play(g, elemental)
    assert stats(g, elemental) == (7, 8) and g.ents[elemental][TAUNT]
    assert g.ents[2][OVERLOAD_OWED] == 3


def test_ex1_124_eviscerate() -> None:
    g = S.prepared(hero1="HERO_03")
    S.summon(g, 1, "CS2_142")
    S.play(g, S.give(g, 1, "EX1_124"), g.hero[2])
    assert g.health(g.hero[2]) == 27  # 2 + 1
    S.play(g, S.give(g, 1, "EX1_124"), g.hero[2])
    assert g.health(g.hero[2]) == 22  # combo: 4 + 1


def test_ex1_134_si7_agent() -> None:
    g = S.prepared(hero1="HERO_03")
    agent = S.give(g, 1, "EX1_134")
    S.play(g, agent)
    assert stats(g, agent) == (3, 3) and g.health(g.hero[2]) == 30
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_134"), yeti)
    assert stats(g, yeti) == (4, 3)


def test_ex1_131_defias_ringleader() -> None:
    g = S.prepared(hero1="HERO_03")
    first = S.give(g, 1, "EX1_131")
    S.play(g, first)
    assert card_ids(g, g.board[1]) == ["EX1_131"]
    S.play(g, S.give(g, 1, "EX1_131"), position=0)
    assert card_ids(g, g.board[1]) == ["EX1_131", "EX1_131t", "EX1_131"]
    assert stats(g, g.board[1][1]) == (2, 1)


def test_cs2_073_cold_blood_cs2_073e_and_cs2_073e2() -> None:
    g = S.prepared(hero1="HERO_03")
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_073"), wisp)
    assert stats(g, wisp) == (3, 1)  # CS2_073e: +2
    S.play(g, S.give(g, 1, "CS2_073"), wisp)
    assert stats(g, wisp) == (7, 1)  # CS2_073e2: +4 with combo
    S.end_turn(g)
    assert stats(g, wisp) == (7, 1)  # not a one-turn effect


def test_ex1_133_perditions_blade() -> None:
    g = S.prepared(hero1="HERO_03")
    wisp = S.summon(g, 2, "CS2_231")
    blade = S.give(g, 1, "EX1_133")
    assert play_targets(g, blade) == {g.hero[1], g.hero[2], wisp}
    S.play(g, blade, wisp)
    assert dead(g, wisp) and g.weapon[1] == blade and g.attack_value(g.hero[1]) == 2
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_133"), yeti)
    assert stats(g, yeti) == (4, 3)  # combo: 2
    empty = S.prepared(hero1="HERO_03")  # the heroes are always there: one must be hit
    assert play_targets(empty, S.give(empty, 1, "EX1_133")) == {empty.hero[1], empty.hero[2]}
