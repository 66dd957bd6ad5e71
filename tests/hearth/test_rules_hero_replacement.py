"""Hero replacement (Lord Jaraxxus, SabberStone's ReplaceHeroTask): the minion, the hero and
its hero power leave play for SETASIDE; a fresh hero with the card data's Health, its hero
power (unused) and a weapon take their place; nothing of the old hero is carried over."""

from __future__ import annotations

from test_from_view import agree
from test_hslog_games import stream_problems

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import (
    ARMOR,
    ATK,
    CREATOR,
    DAMAGE,
    DURABILITY,
    EXHAUSTED,
    HEALTH,
    HERO_ENTITY,
    HERO_POWER_ENTITY,
    Z_GRAVEYARD,
    Z_PLAY,
    Z_SETASIDE,
    ZONE,
)
from games.hearth.game import State
from games.hearth.tree import ViewTree


def jaraxxus(g: State) -> tuple[int, int, int]:
    """Play Lord Jaraxxus for player 1; returns (the minion, the old hero, the old power)."""
    old_hero, old_power = g.hero[1], g.power[1]
    jax = S.give(g, 1, "EX1_323")
    S.play(g, jax)
    return jax, old_hero, old_power


def test_the_hero_becomes_lord_jaraxxus_with_fifteen_health() -> None:
    g = S.prepared(hero1="HERO_07")
    S.hit(g, g.hero[1], 20)
    jax, old_hero, old_power = jaraxxus(g)
    hero = g.ents[g.hero[1]]
    assert hero.card.id == "EX1_323h" and hero.id not in (old_hero, jax)
    assert hero[HEALTH] == 15 and g.health(hero.id) == 15  # the old damage is gone
    assert g.ents[2][HERO_ENTITY] == hero.id
    assert g.ents[old_hero][ZONE] == Z_SETASIDE and g.ents[old_power][ZONE] == Z_SETASIDE
    assert g.ents[jax][ZONE] == Z_SETASIDE and g.board[1] == []
    assert g.hero[2] != hero.id and g.ents[g.hero[2]].card.id == "HERO_01"


def test_inferno_is_the_new_hero_power_unused_this_turn() -> None:
    g = S.prepared(hero1="HERO_07", mana=10)
    S.power(g)  # Life Tap used this turn
    S.set_mana(g, 1, 11)  # 9 for Jaraxxus, 2 for INFERNO!
    jaraxxus(g)
    power = g.ents[g.power[1]]
    assert power.card.id == "EX1_tk33" and power[ZONE] == Z_PLAY and not power[EXHAUSTED]
    assert g.ents[2][HERO_POWER_ENTITY] == power.id and power[CREATOR] == g.hero[1]
    S.power(g)
    (infernal,) = g.board[1]
    assert g.ents[infernal].card.id == "EX1_tk34" and g.health(infernal) == 6
    assert g.ents[infernal][ATK] == 6 and g.mana(1) == 0 and power[EXHAUSTED]


def test_blood_fury_replaces_the_weapon_and_may_attack_at_once() -> None:
    g = S.prepared(hero1="HERO_07")
    S.play(g, S.give(g, 1, "CS2_106"))  # Fiery War Axe
    axe = g.weapon[1]
    S.set_mana(g, 1, 9)
    jaraxxus(g)
    fury = g.ents[g.weapon[1]]
    assert g.ents[axe][ZONE] == Z_GRAVEYARD
    assert fury.card.id == "EX1_323w" and fury[ATK] == 3 and fury[DURABILITY] == 8
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[2]) == 27
    assert fury[DURABILITY] - fury[DAMAGE] == 7


def test_armor_and_attack_of_the_old_hero_are_lost() -> None:
    g = S.prepared(hero1="HERO_01")
    g.gain_armor(1, 7)
    S.play(g, S.give(g, 1, "CS2_105"))  # Heroic Strike: +4 Attack this turn
    S.set_mana(g, 1, 9)
    jaraxxus(g)
    hero = g.ents[g.hero[1]]
    assert hero[ARMOR] == 0 and hero[ATK] == 0 and g.attack_value(hero.id) == 3
    S.end_turn(g)  # the Heroic Strike enchantment went with the old hero: nothing to undo
    assert g.ents[g.hero[1]][ATK] == 0


def test_jaraxxus_is_never_summoned() -> None:
    # Knife Juggler throws after a friendly minion is summoned: Jaraxxus has left by then.
    g = S.prepared(hero1="HERO_07")
    S.summon(g, 1, "NEW1_019")
    jaraxxus(g)
    assert g.health(g.hero[2]) == 30 and all(g.health(i) == g.ents[i][HEALTH] for i in g.board[2])


def test_jaraxxus_dies_at_fifteen_damage() -> None:
    g = S.prepared(hero1="HERO_07")
    jaraxxus(g)
    S.hit(g, g.hero[1], 15)
    assert g.is_over and g.result() is not None and g.result().winner == 2


def test_the_history_shows_the_new_hero_to_both_players() -> None:
    g = S.prepared(hero1="HERO_07", history=True)
    jaraxxus(g)
    for viewer in (None, 1, 2):
        assert stream_problems(g, viewer) == []
    new = g.hero[1]
    shown = [
        e["full_entity"]
        for e in S.entries(g.history(2))
        if e["type"].endswith("full_entity") and e["full_entity"]["entityID"] == new
    ]
    assert shown and shown[0]["name"] == "EX1_323h"



def test_clone_hash_and_a_rebuilt_view_keep_the_new_hero() -> None:
    g = S.prepared(hero1="HERO_07", history=True)
    jaraxxus(g)
    c = g.clone()
    assert c.hash() == g.hash() and c.hero == g.hero and c.power == g.power
    S.end_turn(g)
    S.end_turn(g)
    for p in (1, 2):
        tree = ViewTree()
        tree.feed(g.history(viewer=p))
        mine = tree.state(p, seed=3, opponent_deck=list(S.FILLER))
        agree(g, mine, p, f"viewer {p}", all_actions=p == g.current)
        assert mine.hero[1] == g.hero[1] and mine.power[1] == g.power[1]
    d = g.determinized(2, seed=5)
    assert d.ents[d.hero[1]].card.id == "EX1_323h"
    assert any(a.kind == Kind.POWER for a in d.legal_actions())
