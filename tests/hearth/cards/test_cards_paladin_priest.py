"""Paladin and Priest spells."""

from __future__ import annotations

from hearth_cardtest import attack_targets, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import ATTACHED, DAMAGE, SILENCED, TAUNT


def test_cs2_092_blessing_of_kings() -> None:
    g = S.prepared(hero1="HERO_04")
    wisp = S.summon(g, 1, "CS2_231")
    bok = S.give(g, 1, "CS2_092")
    assert play_targets(g, bok) == {wisp}
    S.play(g, bok, wisp)
    assert stats(g, wisp) == (5, 5) and g.mana(1) == 6
    (ench,) = [i for i in g.enchants if g.ents[i][ATTACHED] == wisp]
    assert g.ents[ench].card.id == "CS2_092e"


def test_cs2_093_consecration() -> None:
    g = S.prepared(hero1="HERO_04")
    a, b = S.summon(g, 2, "CS2_231"), S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_093"))
    assert dead(g, a) and stats(g, b) == (4, 3) and g.health(g.hero[2]) == 28
    assert stats(g, mine) == (1, 1) and g.health(g.hero[1]) == 30


def test_cs2_004_power_word_shield() -> None:
    g = S.prepared(hero1="HERO_09", mana=0)
    raptor = S.summon(g, 1, "CS2_172")
    pws = S.give(g, 1, "CS2_004")
    assert play_targets(g, pws) == {raptor}  # cost 0, a minion only
    S.play(g, pws, raptor)
    assert stats(g, raptor) == (3, 4) and g.hand[1] == []  # no draw in patch 17.6


def test_ex1_332_silence() -> None:
    g = S.prepared(hero1="HERO_09", mana=0)
    senjin = S.summon(g, 2, "CS2_179")
    boar = S.summon(g, 1, "CS2_171")
    g.damage(g.hero[1], senjin, 2)
    silence = S.give(g, 1, "EX1_332")
    S.play(g, silence, senjin)
    assert g.ents[senjin][TAUNT] == 0 and g.ents[senjin][SILENCED] == 1
    assert g.ents[senjin][DAMAGE] == 2  # damage is not healed
    assert g.hero[2] in attack_targets(g, boar)
