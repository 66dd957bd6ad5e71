"""Engine rules the Warlock/Warrior/Shaman Classic cards brought: deathrattles given by
enchantments, a minimum Health for a turn, stats an enchantment holds in its script data,
Windfury and Immune on weapons, a minimum of minions in play, a deck card drawn by choice,
and auras that give a keyword another aura reads."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import (
    ATK,
    B_TRIGGER,
    DAMAGE,
    HEALTH_MINIMUM,
    IMMUNE,
    RESOURCES,
    RESOURCES_USED,
    SCRIPT_DATA_NUM_1,
    SCRIPT_DATA_NUM_2,
    WINDFURY,
    Z_GRAVEYARD,
    Z_HAND,
    ZONE,
)
from games.hearth.game import State


def stats(g: State, eid: int) -> tuple[int, int]:
    return g.ents[eid][ATK], g.health(eid)


def dead(g: State, eid: int) -> bool:
    return g.ents[eid][ZONE] == Z_GRAVEYARD


def play_targets(g: State, eid: int) -> set[int]:
    return {a.target for a in g.legal_actions() if a.kind == Kind.PLAY and a.entity == eid}


def test_an_aura_that_gives_a_keyword_is_seen_by_another_aura() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_084")  # Warsong Commander: Charge minions +1 Attack
    rhino = S.give(g, 1, "DS1_178")  # Tundra Rhino 2/5: your Beasts have Charge
    S.play(g, rhino)
    assert stats(g, rhino) == (3, 5)


def test_an_enchantment_deathrattle_runs_after_the_minions_own_in_its_own_block() -> None:
    g = S.prepared(history=True)
    golem = S.summon(g, 1, "EX1_556")
    S.play(g, S.give(g, 1, "CS2_038"), golem)
    (ench,) = g.enchants
    S.hit(g, golem, 3)
    assert sorted(g.ents[i].card.id for i in g.board[1]) == ["EX1_556", "skele21"]
    blocks = [
        e["power_block"]["entityID"]
        for e in g.history()
        if e["type"].endswith("power_block") and e["power_block"]["power_type"] == B_TRIGGER
    ]
    assert blocks[-2:] == [golem, ench]


def test_a_minimum_health_stops_damage_at_1_for_the_players_minions_only() -> None:
    g = S.prepared()
    mine, theirs = S.summon(g, 1, "CS2_182"), S.summon(g, 2, "CS2_182")
    g.add_enchantment("NEW1_036e2", 2, g.hero[1])
    assert g.ents[2][HEALTH_MINIMUM] == 1
    S.hit(g, mine, 10)
    S.hit(g, theirs, 10)
    assert stats(g, mine) == (4, 1) and dead(g, theirs)
    assert S.hit(g, mine, 3) == 0
    g.destroy(mine)
    S.resolve(g)
    assert dead(g, mine)


def test_script_data_stats_are_undone_by_silence_and_kept_by_a_copy() -> None:
    g = S.prepared()
    wisp, yeti = S.summon(g, 1, "CS2_231"), S.summon(g, 1, "CS2_182")
    vt = S.give(g, 1, "EX1_304")
    S.play(g, vt, position=1)
    assert stats(g, vt) == (8, 9) and dead(g, wisp) and dead(g, yeti)
    fm = S.give(g, 1, "EX1_564")  # Faceless Manipulator copies it, enchantment included
    S.play(g, fm, vt)
    (copy,) = [i for i in g.enchants if g.ents[i][SCRIPT_DATA_NUM_1] and i != g.enchants[0]]
    assert (g.ents[copy][SCRIPT_DATA_NUM_1], g.ents[copy][SCRIPT_DATA_NUM_2]) == (5, 6)
    assert stats(g, fm) == (8, 9)
    g.silence(fm)
    S.resolve(g)
    assert stats(g, fm) == (3, 3) and stats(g, vt) == (8, 9)


def test_a_windfury_weapon_lets_the_hero_attack_twice() -> None:
    g = S.prepared()
    g.equip(1, "EX1_567")
    assert g.ents[g.weapon[1]][WINDFURY]
    S.attack(g, g.hero[1], g.hero[2])
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 26


def test_an_immune_weapon_loses_no_durability() -> None:
    g = S.prepared()
    w = g.equip(1, "CS2_106")
    g.set_tag(w, IMMUNE, 1)
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 27 and g.weapon[1] == w and g.ents[w][DAMAGE] == 0
    g.set_tag(w, IMMUNE, 0)
    S.end_turn(g)
    S.end_turn(g)
    S.attack(g, g.hero[1], g.hero[2])
    assert g.ents[w][DAMAGE] == 1


def test_a_minimum_of_minions_in_play_counts_both_sides() -> None:
    g = S.prepared()
    brawl = S.give(g, 1, "EX1_407")
    S.summon(g, 1, "CS2_231")
    assert play_targets(g, brawl) == set()
    S.summon(g, 2, "CS2_231")
    assert play_targets(g, brawl) == {0}


def test_losing_a_crystal_keeps_the_mana_left_this_turn() -> None:
    g = S.prepared(mana=None)
    S.set_mana(g, 1, 5)
    g._set(g.ents[2], RESOURCES_USED, 2)
    g.lose_mana_crystal(1)
    assert g.ents[2][RESOURCES] == 4 and g.mana(1) == 3
    S.set_mana(g, 1, 1)
    g.lose_mana_crystal(1, 3)
    assert g.ents[2][RESOURCES] == 0 and g.mana(1) == 0


def test_a_deck_card_drawn_by_choice() -> None:
    g = S.prepared()
    bottom = g.deck[1][0]
    assert g.draw_card(1, bottom) == bottom and g.ents[bottom][ZONE] == Z_HAND
    assert bottom not in g.deck[1] and g.hand[1] == [bottom]
    assert g.draw_card(1, bottom) == 0
    assert g.ents[bottom][ATK] == 1
