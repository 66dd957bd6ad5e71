"""Classic Druid cards (games/hearth/cards/druid_classic.py): Choose One and the rest.

A Choose One card is played with ``Action.cards == (k,)``; ``choose`` below plays option k."""

from __future__ import annotations

from hearth_cardtest import dead, stats

from games.hearth import scenario as S
from games.hearth.actions import Action, IllegalAction, Kind
from games.hearth.enums import ARMOR, CHARGE, RESOURCES, TAUNT
from games.hearth.game import State


def choose(g: State, eid: int, k: int, target: int = 0, position: int | None = None) -> None:
    if position is None and g.ents[eid].card.type == 4:
        position = len(g.board[g.current])
    g.apply(Action(Kind.PLAY, eid, target, -1 if position is None else position, (k,)))


def options(g: State, eid: int) -> set[tuple[int, ...]]:
    return {a.cards for a in g.legal_actions() if a.kind == Kind.PLAY and a.entity == eid}


def test_ex1_154_ex1_154a_ex1_154b_wrath_three_or_one_and_a_card() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    choose(g, S.give(g, 1, "EX1_154"), 0, yeti)  # Solar Wrath
    assert stats(g, yeti) == (4, 2) and g.hand[1] == []
    S.summon(g, 1, "CS2_197")  # Spell Damage +1 counts for the option's text
    choose(g, S.give(g, 1, "EX1_154"), 1, yeti)  # Nature's Wrath: 1 (+1) and a card
    assert dead(g, yeti) and len(g.hand[1]) == 1
    wrath = S.give(g, 1, "EX1_154")
    S.remove(g, S.summon(g, 1, "CS2_231"))
    try:  # a Choose One card is never played without its option
        g.apply(Action(Kind.PLAY, wrath, g.board[1][0], -1))
        raise AssertionError("played without an option")
    except IllegalAction:
        pass


def test_ex1_155_ex1_155a_ex1_155ae_ex1_155b_ex1_155be_mark_of_nature() -> None:
    g = S.prepared()
    wisp, boar = S.summon(g, 1, "CS2_231"), S.summon(g, 1, "CS2_171")
    choose(g, S.give(g, 1, "EX1_155"), 0, wisp)  # Tiger's Fury
    assert stats(g, wisp) == (5, 1)
    choose(g, S.give(g, 1, "EX1_155"), 1, boar)  # Thick Hide
    assert stats(g, boar) == (1, 5) and g.ents[boar][TAUNT]
    g.silence(boar)
    assert stats(g, boar) == (1, 1) and not g.ents[boar][TAUNT]


def test_ex1_158_ex1_158e_soul_of_the_forest_treants_take_the_slots() -> None:
    g = S.prepared()
    a, b = S.summon(g, 1, "CS2_182"), S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_158"))
    S.play(g, S.give(g, 1, "CS2_062"))  # Hellfire: 3 to every character
    treants = [g.ents[i].card.id for i in g.board[1]]
    assert dead(g, b) and treants == ["CS2_182", "EX1_158t"] and stats(g, a) == (4, 2)


def test_ex1_160_ex1_160a_ex1_160b_ex1_160be_power_of_the_wild() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    choose(g, S.give(g, 1, "EX1_160"), 1)  # Leader of the Pack
    assert stats(g, wisp) == (2, 2)
    choose(g, S.give(g, 1, "EX1_160"), 0)  # a 3/2 Panther
    assert [g.ents[i].card.id for i in g.board[1]] == ["CS2_231", "EX1_160t"]
    assert stats(g, g.board[1][1]) == (3, 2)
    for _ in range(5):
        S.summon(g, 1, "CS2_231")
    assert options(g, S.give(g, 1, "EX1_160")) == {(1,)}  # no room: no Panther option


def test_ex1_161_naturalize_destroys_and_the_opponent_draws_two() -> None:
    g = S.prepared()
    shielded = S.summon(g, 2, "EX1_008")  # Argent Squire: Divine Shield does not help
    S.play(g, S.give(g, 1, "EX1_161"), target=shielded)
    assert dead(g, shielded) and len(g.hand[2]) == 2 and g.hand[1] == []


def test_ex1_164_ex1_164a_ex1_164b_nourish() -> None:
    g = S.prepared(mana=None)
    S.set_mana(g, 1, 6)
    choose(g, S.give(g, 1, "EX1_164"), 0)  # two full crystals
    pe = g.ents[2]
    assert pe[RESOURCES] == 8 and g.mana(1) == 2
    g2 = S.prepared()
    choose(g2, S.give(g2, 1, "EX1_164"), 1)
    assert len(g2.hand[1]) == 3
    S.set_mana(g, 1, 9)
    choose(g, S.give(g, 1, "EX1_164"), 0)  # never above 10
    assert g.ents[2][RESOURCES] == 10


def test_ex1_165_ex1_165a_ex1_165b_druid_of_the_claw_forms() -> None:
    g = S.prepared()
    S.summon(g, 2, "CS2_182")
    choose(g, S.give(g, 1, "EX1_165"), 0)  # Cat Form: a 4/4 with Charge that attacks now
    (cat,) = g.board[1]
    assert g.ents[cat].card.id == "EX1_165t1" and g.ents[cat][CHARGE]
    S.attack(g, cat, g.hero[2])
    assert g.health(g.hero[2]) == 26
    choose(g, S.give(g, 1, "EX1_165"), 1)  # Bear Form: a 4/6 with Taunt
    bear = g.board[1][1]
    assert g.ents[bear].card.id == "EX1_165t2" and stats(g, bear) == (4, 6)
    assert g.ents[bear][TAUNT]


def test_ex1_166_ex1_166a_ex1_166b_keeper_of_the_grove() -> None:
    g = S.prepared()
    choose(g, S.give(g, 1, "EX1_166"), 0, g.hero[2])  # Moonfire: 2, not boosted
    assert g.health(g.hero[2]) == 28
    taunt = S.summon(g, 2, "CS2_179")
    choose(g, S.give(g, 1, "EX1_166"), 1, taunt)  # Dispel
    assert not g.ents[taunt][TAUNT]
    g3 = S.prepared()
    assert options(g3, S.give(g3, 1, "EX1_166")) == {(0,), (1,)}  # Dispel with no target


def test_ex1_178_ex1_178a_ex1_178ae_ex1_178b_ex1_178be_ancient_of_war() -> None:
    g = S.prepared()
    choose(g, S.give(g, 1, "EX1_178"), 0)  # Rooted
    rooted = g.board[1][0]
    assert stats(g, rooted) == (5, 10) and g.ents[rooted][TAUNT]
    S.set_mana(g, 1, 10)
    choose(g, S.give(g, 1, "EX1_178"), 1)  # Uproot
    assert stats(g, g.board[1][1]) == (10, 5) and not g.ents[g.board[1][1]][TAUNT]


def test_ex1_183_ex1_183e_gift_of_the_wild() -> None:
    g = S.prepared()
    a, b = S.summon(g, 1, "CS2_231"), S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_183"))
    assert stats(g, a) == (3, 3) and stats(g, b) == (6, 7)
    assert g.ents[a][TAUNT] and g.ents[b][TAUNT]


def test_ex1_570_ex1_570e_bite_attack_this_turn_and_armor() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_570"))
    hero = g.hero[1]
    assert g.ents[hero][ARMOR] == 4 and g.attack_value(hero) == 4
    S.attack(g, hero, g.hero[2])
    assert g.health(g.hero[2]) == 26
    S.end_turn(g)
    assert g.attack_value(hero) == 0 and g.ents[hero][ARMOR] == 4


def test_ex1_571_force_of_nature_three_treants() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_571"))
    assert [g.ents[i].card.id for i in g.board[1]] == ["EX1_158t"] * 3
    assert all(stats(g, i) == (2, 2) and not g.ents[i][CHARGE] for i in g.board[1])


def test_ex1_573_ex1_573a_ex1_573ae_ex1_573b_cenarius() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    choose(g, S.give(g, 1, "EX1_573"), 0)  # Demigod's Favor: the others only
    cenarius = g.board[1][1]
    assert stats(g, wisp) == (3, 3) and stats(g, cenarius) == (5, 8)
    S.set_mana(g, 1, 10)
    choose(g, S.give(g, 1, "EX1_573"), 1, position=0)  # Shan'do's Lesson: beside it
    ids = [g.ents[i].card.id for i in g.board[1]]
    assert ids.count("EX1_573t") == 2 and ids[0] == "EX1_573"
    assert all(g.ents[i][TAUNT] for i in g.board[1] if g.ents[i].card.id == "EX1_573t")


def test_ex1_578_savagery_uses_the_hero_attack_with_its_weapon() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_578"), target=yeti)  # no Attack: nothing
    assert stats(g, yeti) == (4, 5)
    S.play(g, S.give(g, 1, "CS2_106"))  # Fiery War Axe: 3 Attack on the hero's own turn
    S.summon(g, 1, "CS2_197")  # Spell Damage does not count (no $ in the text)
    S.play(g, S.give(g, 1, "EX1_578"), target=yeti)
    assert stats(g, yeti) == (4, 2)


def test_new1_007_new1_007a_new1_007b_starfall() -> None:
    g = S.prepared()
    a, b = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_231")
    mine = S.summon(g, 1, "CS2_231")
    choose(g, S.give(g, 1, "NEW1_007"), 0)  # Stellar Drift: 2 to every enemy minion
    assert stats(g, a) == (4, 3) and dead(g, b) and not dead(g, mine)
    choose(g, S.give(g, 1, "NEW1_007"), 1, a)  # Starlord: 5 to a minion
    assert dead(g, a)


def test_new1_008_new1_008a_new1_008b_ancient_of_lore() -> None:
    g = S.prepared()
    choose(g, S.give(g, 1, "NEW1_008"), 0)  # a card
    assert len(g.hand[1]) == 1
    S.hit(g, g.hero[1], 10)
    S.set_mana(g, 1, 10)
    choose(g, S.give(g, 1, "NEW1_008"), 1, g.hero[1])  # restore 5
    assert g.health(g.hero[1]) == 25
