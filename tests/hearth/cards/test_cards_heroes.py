"""Heroes, hero powers and The Coin."""

from __future__ import annotations

import pytest
from hearth_cardtest import stats

from games import hearth
from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import ARMOR, EXHAUSTED, TEMP_RESOURCES


@pytest.mark.parametrize(
    ("hero", "power"),
    [
        ("HERO_01", "HERO_01bp"),
        ("HERO_04", "HERO_04bp"),
        ("HERO_08", "HERO_08bp"),
        ("HERO_09", "HERO_09bp"),
    ],
)
def test_heroes_have_30_health_and_their_power(hero: str, power: str) -> None:
    g = S.prepared(hero1=hero, hero2=hero)
    for p in (1, 2):
        assert g.ents[g.hero[p]].card.id == hero and g.health(g.hero[p]) == 30
        assert g.ents[g.power[p]].card.id == power


def powers(g: hearth.State) -> list[int]:
    return [a.target for a in g.legal_actions() if a.kind == Kind.POWER]


def test_hero_01_garrosh_and_hero_01bp_armor_up() -> None:
    g = S.prepared(hero1="HERO_01")
    assert powers(g) == [0]
    S.power(g)
    assert g.ents[g.hero[1]][ARMOR] == 2 and g.mana(1) == 8
    assert powers(g) == []  # once per turn
    S.end_turn(g)
    S.end_turn(g)
    S.power(g)
    assert g.ents[g.hero[1]][ARMOR] == 4  # armor stacks


def test_hero_04_uther_and_hero_04bp_reinforce() -> None:
    g = S.prepared(hero1="HERO_04")
    S.summon(g, 1, "CS2_231")
    S.power(g)
    recruit = g.board[1][-1]
    assert g.ents[recruit].card.id == "CS2_101t" and stats(g, recruit) == (1, 1)
    assert g.ents[recruit][EXHAUSTED] == 1


def test_hero_08_jaina_and_hero_08bp_fireblast() -> None:
    g = S.prepared()
    wisp = S.summon(g, 2, "CS2_231")
    assert set(powers(g)) == {g.hero[1], g.hero[2], wisp}
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 29 and g.mana(1) == 8


def test_hero_09_anduin_and_hero_09bp_lesser_heal() -> None:
    g = S.prepared(hero1="HERO_09")
    g.damage(g.hero[2], g.hero[1], 5)
    S.power(g, g.hero[1])
    assert g.health(g.hero[1]) == 27
    g2 = S.prepared(hero1="HERO_09")
    g2.damage(g2.hero[2], g2.hero[1], 1)
    S.power(g2, g2.hero[1])
    assert g2.health(g2.hero[1]) == 30  # never above the maximum


def test_game_005_the_coin() -> None:
    g = hearth.new_game(seed=1, first_player=1)
    coin = g.coin
    assert g.ents[coin].card.id == "GAME_005" and coin in g.hand[2]
    for p in (1, 2):
        g.apply(hearth.Action(Kind.MULLIGAN, p))
    g.apply(hearth.END_TURN)
    assert g.mana(2) == 1
    S.play(g, coin)
    assert g.mana(2) == 2 and g.ents[3][TEMP_RESOURCES] == 1
    g.apply(hearth.END_TURN)
    assert g.ents[3][TEMP_RESOURCES] == 0
