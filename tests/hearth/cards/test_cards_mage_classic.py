"""Classic Mage cards (games/hearth/cards/mage_classic.py) and Lightspawn."""

from __future__ import annotations

from hearth_cardtest import dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.carddb import load_cards
from games.hearth.enums import ARMOR, FROZEN, IMMUNE, Z_GRAVEYARD, ZONE


def test_cs2_028_blizzard_damages_and_freezes_every_enemy_minion() -> None:
    g = S.prepared()
    yeti, wisp = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_231")
    mine = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_028"))
    assert stats(g, yeti) == (4, 3) and g.ents[yeti][FROZEN] and dead(g, wisp)
    assert stats(g, mine) == (4, 5) and not g.ents[mine][FROZEN]


def test_cs2_031_ice_lance_freezes_then_deals_4_to_a_frozen_character() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_031"), target=yeti)
    assert stats(g, yeti) == (4, 5) and g.ents[yeti][FROZEN]
    S.play(g, S.give(g, 1, "CS2_031"), target=yeti)
    assert stats(g, yeti) == (4, 1)
    S.summon(g, 1, "CS2_197")  # Ogre Magi: Spell Damage +1
    S.play(g, S.give(g, 1, "CS2_031"), target=g.hero[2])
    assert g.health(g.hero[2]) == 30 and g.ents[g.hero[2]][FROZEN]
    S.play(g, S.give(g, 1, "CS2_031"), target=g.hero[2])
    assert g.health(g.hero[2]) == 25


def test_ex1_179_icicle_draws_only_when_the_minion_is_frozen() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_179"), target=yeti)
    assert stats(g, yeti) == (4, 3) and g.hand[1] == []
    g.freeze(yeti)
    S.play(g, S.give(g, 1, "EX1_179"), target=yeti)
    assert stats(g, yeti) == (4, 1) and len(g.hand[1]) == 1
    assert g.hero[2] not in play_targets(g, S.give(g, 1, "EX1_179"))  # a minion only


def test_ex1_180_tome_of_intellect_adds_a_mage_spell() -> None:
    db = load_cards()
    seen = set()
    for seed in range(30):
        g = S.prepared(seed=seed)
        S.play(g, S.give(g, 1, "EX1_180"))
        (new,) = g.hand[1]
        card = db[g.ents[new].card.id]
        assert card.card_class == 4 and card.type == 5 and card.collectible and card.playable
        seen.add(card.id)
    assert len(seen) > 5  # random, from the whole pool


def test_ex1_274_and_ex1_274e_ethereal_arcanist_grows_at_its_turn_end_with_a_secret() -> None:
    g = S.prepared()
    arcanist = S.summon(g, 1, "EX1_274")
    S.end_turn(g)
    S.end_turn(g)
    assert stats(g, arcanist) == (3, 3)  # no secret
    S.play(g, S.give(g, 1, "EX1_289"))  # Ice Barrier
    S.end_turn(g)
    assert stats(g, arcanist) == (5, 5)
    S.end_turn(g)  # the opponent's turn end: nothing
    assert stats(g, arcanist) == (5, 5)


def test_ex1_275_cone_of_cold_freezes_and_hits_the_minion_and_its_neighbours() -> None:
    g = S.prepared()
    a, b, c, d = (S.summon(g, 2, "CS2_182") for _ in range(4))
    S.play(g, S.give(g, 1, "EX1_275"), target=b)
    for m in (a, b, c):
        assert stats(g, m) == (4, 4) and g.ents[m][FROZEN]
    assert stats(g, d) == (4, 5) and not g.ents[d][FROZEN]


def test_ex1_279_pyroblast_deals_10_with_spell_damage() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_279"), target=g.hero[2])
    assert g.health(g.hero[2]) == 20
    S.summon(g, 1, "CS2_197")
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_279"), target=g.hero[2])
    assert g.health(g.hero[2]) == 9


def test_ex1_295_and_ex1_295o_ice_block_prevents_fatal_damage_and_makes_the_hero_immune() -> None:
    g = S.prepared()
    block = S.give(g, 1, "EX1_295")
    S.play(g, block)
    g.ents[g.hero[1]].tags[ARMOR] = 3
    S.end_turn(g)
    S.hit(g, g.hero[1], 27)  # 3 armor + 24: 6 Health left, not fatal
    assert g.health(g.hero[1]) == 6 and g.secrets[1] == [block]
    g.ents[g.hero[1]].tags[ARMOR] = 2
    S.play(g, S.give(g, 2, "EX1_279"), target=g.hero[1])  # 10 - 2 armor >= 6: fatal
    assert g.health(g.hero[1]) == 6 and g.ents[g.hero[1]][ARMOR] == 2
    assert g.ents[g.hero[1]][IMMUNE] and g.ents[block][ZONE] == Z_GRAVEYARD
    S.set_mana(g, 2, 10)
    S.play(g, S.give(g, 2, "CS2_029"), target=g.hero[1])  # Immune for the rest of the turn
    assert g.health(g.hero[1]) == 6 and not g.is_over
    S.end_turn(g)
    assert not g.ents[g.hero[1]][IMMUNE]


def test_ex1_295_ice_block_waits_out_damage_that_is_not_fatal_and_its_owners_turn() -> None:
    g = S.prepared()
    block = S.give(g, 1, "EX1_295")
    S.play(g, block)
    S.hit(g, g.hero[1], 29)
    g.ents[g.hero[1]].tags[ARMOR] = 0
    S.play(g, S.give(g, 1, "CS2_029"), target=g.hero[1])  # own turn: a secret never triggers
    assert g.is_over and g.secrets[1] == [block]


def test_ex1_335_lightspawn_attack_is_always_its_health() -> None:
    g = S.prepared()
    light = S.summon(g, 1, "EX1_335")
    assert stats(g, light) == (5, 5)
    S.hit(g, light, 2)
    assert stats(g, light) == (3, 3)
    S.play(g, S.give(g, 1, "CS2_087"), target=light)  # Blessing of Might: +3 Attack, nothing
    assert stats(g, light) == (3, 3)
    S.play(g, S.give(g, 1, "CS2_092"), target=light)  # Blessing of Kings: +4/+4
    assert stats(g, light) == (7, 7)
    S.summon(g, 1, "CS2_122")  # Raid Leader's +1 Attack aura changes nothing either
    assert stats(g, light) == (7, 7)
    g.heal(1, light, 5)
    S.resolve(g)
    assert stats(g, light) == (9, 9)
    g.silence(light)  # back to its own 0 Attack, the buffs gone; Raid Leader still counts
    S.resolve(g)
    assert stats(g, light) == (1, 5)

