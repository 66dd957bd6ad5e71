"""Classic and Hall of Fame Warlock cards, and Shadowform."""

from __future__ import annotations

from hearth_cardtest import can_attack, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import (
    CARDRACE,
    EXHAUSTED,
    R_DEMON,
    RESOURCES,
    SCRIPT_DATA_NUM_1,
    SCRIPT_DATA_NUM_2,
    STEALTH,
    TAUNT,
    Z_GRAVEYARD,
    Z_HAND,
    ZONE,
)


def test_cs2_059_blood_imp_and_cs2_059o_blood_pact() -> None:
    g = S.prepared()
    imp = S.give(g, 1, "CS2_059")
    S.play(g, imp)
    assert g.ents[imp][STEALTH] == 1
    S.end_turn(g)  # alone: no other friendly minion, nothing happens
    assert stats(g, imp) == (0, 1)
    yeti = S.summon(g, 1, "CS2_182")
    S.end_turn(g)  # the opponent's turn end: nothing
    assert stats(g, yeti) == (4, 5)
    S.end_turn(g)
    assert stats(g, yeti) == (4, 6) and stats(g, imp) == (0, 1)
    (pact,) = [i for i in g.enchants if g.ents[i].card.id == "CS2_059o"]
    g.silence(yeti)
    assert stats(g, yeti) == (4, 5) and g.ents[pact][ZONE] == Z_GRAVEYARD


def test_ex1_181_call_of_the_void_adds_a_hidden_demon() -> None:
    g = S.prepared(history=True)
    S.play(g, S.give(g, 1, "EX1_181"))
    (demon,) = g.hand[1]
    card = g.ents[demon].card
    assert card.tags.get(CARDRACE) == R_DEMON and card.collectible and card.type == 4
    shown = [
        e["full_entity"]
        for e in g.history(2)
        if e["type"].endswith("power_block")
        for e in S.entries([e])
        if e["type"].endswith("full_entity") and e["full_entity"]["entityID"] == demon
    ]
    assert shown and all(x["name"] == "" for x in shown)



def test_ex1_185_siegebreaker_and_ex1_185e_siegebreaking() -> None:
    g = S.prepared()
    imp = S.summon(g, 1, "EX1_319")
    yeti = S.summon(g, 1, "CS2_182")
    enemy_imp = S.summon(g, 2, "EX1_319")
    sb = S.give(g, 1, "EX1_185")
    S.play(g, sb)
    assert stats(g, sb) == (5, 8) and g.ents[sb][TAUNT] == 1
    assert stats(g, imp) == (4, 2) and stats(g, yeti) == (4, 5) and stats(g, enemy_imp) == (3, 2)
    g.silence(sb)
    S.resolve(g)
    assert stats(g, imp) == (3, 2)


def test_ex1_301_felguard_destroys_a_mana_crystal() -> None:
    g = S.prepared()
    fg = S.give(g, 1, "EX1_301")
    S.play(g, fg)
    assert g.ents[2][RESOURCES] == 9 and g.mana(1) == 7  # a spent crystal goes
    assert stats(g, fg) == (3, 5) and g.ents[fg][TAUNT] == 1
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[2][RESOURCES] == 10 and g.mana(1) == 10


def test_ex1_303_shadowflame() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    ogre, wisp = S.summon(g, 2, "CS2_200"), S.summon(g, 2, "CS2_231")
    sf = S.give(g, 1, "EX1_303")
    assert play_targets(g, sf) == {yeti}
    kobold = S.summon(g, 1, "CS2_142")  # Spell Damage +1: 4 + 1
    assert play_targets(g, sf) == {yeti, kobold}
    S.play(g, sf, yeti)
    assert dead(g, yeti) and dead(g, wisp) and stats(g, ogre) == (6, 2)
    assert g.health(g.hero[2]) == 30 and stats(g, kobold) == (2, 2)


def test_ex1_304_void_terror_and_ex1_304e_consume() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    yeti = S.summon(g, 1, "CS2_182")
    other = S.summon(g, 1, "CS2_120")  # River Crocolisk, not adjacent
    S.hit(g, yeti, 2)
    vt = S.give(g, 1, "EX1_304")
    S.play(g, vt, position=1)  # between the Wisp and the Yeti
    assert dead(g, wisp) and dead(g, yeti) and g.board[1] == [vt, other]
    assert stats(g, vt) == (3 + 1 + 4, 3 + 1 + 3)
    (consume,) = [i for i in g.enchants if g.ents[i].card.id == "EX1_304e"]
    assert (g.ents[consume][SCRIPT_DATA_NUM_1], g.ents[consume][SCRIPT_DATA_NUM_2]) == (5, 4)
    S.hit(g, vt, 5)
    g.silence(vt)
    S.resolve(g)
    assert stats(g, vt) == (3, 2)  # the gain goes; the damage stays


def test_ex1_304_void_terror_alone_gains_nothing() -> None:
    g = S.prepared()
    vt = S.give(g, 1, "EX1_304")
    S.play(g, vt)
    assert stats(g, vt) == (3, 3) and g.enchants == []


def test_ex1_309_siphon_soul() -> None:
    g = S.prepared()
    S.hit(g, g.hero[1], 10)
    shield = S.summon(g, 2, "CS2_121")  # Frostwolf Grunt: Taunt, destroyed all the same
    ss = S.give(g, 1, "EX1_309")
    assert play_targets(g, ss) == {shield}
    S.play(g, ss, shield)
    assert dead(g, shield) and g.health(g.hero[1]) == 23


def test_ex1_310_doomguard_discards_two() -> None:
    g = S.prepared()
    cards = [S.give(g, 1, "CS2_231") for _ in range(3)]
    dg = S.give(g, 1, "EX1_310")
    S.play(g, dg)
    assert len(g.hand[1]) == 1 and sum(g.ents[i][ZONE] == Z_GRAVEYARD for i in cards) == 2
    assert stats(g, dg) == (5, 7) and can_attack(g, dg)


def test_ex1_312_twisting_nether() -> None:
    g = S.prepared()
    mine = [S.summon(g, 1, "CS2_182"), S.summon(g, 1, "EX1_008")]  # Argent Squire too
    theirs = [S.summon(g, 2, "CS2_200")]
    S.play(g, S.give(g, 1, "EX1_312"))
    assert all(dead(g, i) for i in mine + theirs) and g.board[1] == g.board[2] == []


def test_ex1_313_pit_lord() -> None:
    g = S.prepared()
    pl = S.give(g, 1, "EX1_313")
    S.play(g, pl)
    assert stats(g, pl) == (5, 6) and g.health(g.hero[1]) == 25 and g.health(g.hero[2]) == 30


def test_ex1_316_power_overwhelming_and_ex1_316e() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    enemy = S.summon(g, 2, "CS2_231")
    po = S.give(g, 1, "EX1_316")
    assert play_targets(g, po) == {wisp}
    S.play(g, po, wisp)
    assert stats(g, wisp) == (5, 5)
    S.end_turn(g)
    assert dead(g, wisp) and not dead(g, enemy) and g.enchants == []


def test_ex1_317_sense_demons_draws_demons_then_worthless_imps() -> None:
    deck = ["CS2_231"] * 29 + ["EX1_319"]  # one Demon, at the bottom (the list's end)
    g = S.prepared(deck1=deck)
    imp = next(i for i in g.deck[1] if g.ents[i].card.id == "EX1_319")
    S.play(g, S.give(g, 1, "EX1_317"))
    assert g.hand[1][0] == imp and g.ents[imp][ZONE] == Z_HAND
    (worthless,) = g.hand[1][1:]
    assert g.ents[worthless].card.id == "EX1_317t" and len(g.deck[1]) == 25
    S.play(g, S.give(g, 1, "EX1_317"))
    assert [g.ents[i].card.id for i in g.hand[1][2:]] == ["EX1_317t", "EX1_317t"]


def test_ex1_317_sense_demons_hides_what_it_drew() -> None:
    deck = ["CS2_231"] * 29 + ["EX1_319"]
    g = S.prepared(deck1=deck, history=True)
    imp = next(i for i in g.deck[1] if g.ents[i].card.id == "EX1_319")
    S.play(g, S.give(g, 1, "EX1_317"))
    named = {
        x[k]["entityID"]
        for x in S.entries(g.history(2))
        for k in ("full_entity", "show_entity")
        if x["type"].endswith(k) and x[k]["name"]
    }
    assert imp in g.hand[1] and imp not in named and not (set(g.hand[1]) & named)


def test_ex1_319_flame_imp() -> None:
    g = S.prepared()
    imp = S.give(g, 1, "EX1_319")
    S.play(g, imp)
    assert stats(g, imp) == (3, 2) and g.health(g.hero[1]) == 27


def test_ex1_320_bane_of_doom_summons_a_demon_when_it_kills() -> None:
    g = S.prepared()
    yeti, wisp = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_320"), yeti)
    assert stats(g, yeti) == (4, 3) and g.board[1] == []
    S.play(g, S.give(g, 1, "EX1_320"), wisp)
    (demon,) = g.board[1]
    assert dead(g, wisp) and g.ents[demon][CARDRACE] == R_DEMON
    assert g.ents[demon].card.collectible


def test_ex1_323_lord_jaraxxus() -> None:
    g = S.prepared(hero1="HERO_07")
    jax = S.give(g, 1, "EX1_323")
    S.play(g, jax)
    hero = g.ents[g.hero[1]]
    assert hero.card.id == "EX1_323h" and g.health(hero.id) == 15 and g.board[1] == []
    assert g.ents[g.power[1]].card.id == "EX1_tk33" and g.ents[g.weapon[1]].card.id == "EX1_323w"
    assert g.attack_value(hero.id) == 3


def test_ex1_tk33_inferno() -> None:
    g = S.prepared(hero1="HERO_07")
    S.play(g, S.give(g, 1, "EX1_323"))
    S.end_turn(g)
    S.end_turn(g)
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    assert not any(a.entity == g.power[1] for a in g.legal_actions())  # the board is full
    S.hit(g, g.board[1][0], 1)
    S.power(g)
    infernal = g.board[1][-1]
    assert g.ents[infernal].card.id == "EX1_tk34" and stats(g, infernal) == (6, 6)
    assert g.mana(1) == 8 and g.ents[infernal][EXHAUSTED]


def test_ex1_596_demonfire_and_ex1_596e() -> None:
    g = S.prepared()
    imp, yeti = S.summon(g, 1, "EX1_319"), S.summon(g, 1, "CS2_182")
    enemy_imp = S.summon(g, 2, "EX1_319")
    S.play(g, S.give(g, 1, "EX1_596"), imp)
    assert stats(g, imp) == (5, 4)
    S.play(g, S.give(g, 1, "EX1_596"), yeti)
    assert stats(g, yeti) == (4, 3)
    S.play(g, S.give(g, 1, "EX1_596"), enemy_imp)
    assert dead(g, enemy_imp)


def test_ex1_625_shadowform() -> None:
    g = S.prepared(hero1="HERO_09")
    S.play(g, S.give(g, 1, "EX1_625"))
    assert g.ents[g.power[1]].card.id == "EX1_625t"
    S.play(g, S.give(g, 1, "EX1_625"))
    assert g.ents[g.power[1]].card.id == "EX1_625t2"


def test_ex1_625t_mind_spike_deals_2_without_spell_damage() -> None:
    g = S.prepared(hero1="HERO_09")
    S.play(g, S.give(g, 1, "EX1_625"))
    S.summon(g, 1, "CS2_142")
    yeti = S.summon(g, 2, "CS2_182")
    S.power(g, yeti)
    assert stats(g, yeti) == (4, 3) and g.mana(1) == 5


def test_ex1_625t2_mind_shatter_deals_3() -> None:
    g = S.prepared(hero1="HERO_09")
    S.play(g, S.give(g, 1, "EX1_625"))
    S.play(g, S.give(g, 1, "EX1_625"))
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 27
