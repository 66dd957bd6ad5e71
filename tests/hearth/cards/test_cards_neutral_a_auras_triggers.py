"""Neutral Classic minions whose text is an aura, an enrage or a trigger (helper neutralA)."""

from __future__ import annotations

from hearth_cardtest import atk, can_attack, card_ids, dead, stats

from games.hearth import scenario as S
from games.hearth.enums import ATK, ATTACHED, CHARGE, DAMAGE, EXHAUSTED, Z_PLAY, Z_SETASIDE, ZONE
from games.hearth.game import State

ROGUE = "HERO_03"  # Dagger Mastery: a 1/2 Wicked Knife
COIN = "GAME_005"


def _tag_changes(g: State, viewer: int) -> list[dict[str, int]]:
    return [e["tag_change"] for e in S.entries(g.history(viewer=viewer)) if "tag_change" in e]


def _enchantments_on(g: State, eid: int) -> list[str]:
    return [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == eid]



def test_cs2_146_southsea_deckhand_has_charge_while_a_weapon_is_equipped() -> None:
    g = S.prepared(hero1=ROGUE)
    deckhand = S.give(g, 1, "CS2_146")
    S.play(g, deckhand)
    assert stats(g, deckhand) == (2, 1) and not g.ents[deckhand][CHARGE]
    assert not can_attack(g, deckhand)
    S.power(g)  # a Wicked Knife: now it has Charge (SabberStone's figures)
    assert g.ents[deckhand][CHARGE] and can_attack(g, deckhand)
    S.attack(g, deckhand, g.hero[2])
    assert g.health(g.hero[2]) == 28
    S.play(g, S.give(g, 1, "EX1_066"))  # our own Acidic Swamp Ooze: no enemy weapon
    S.end_turn(g)
    S.play(g, S.give(g, 2, "EX1_066"))  # the enemy Ooze destroys the Knife
    assert not g.weapon[1] and not g.ents[deckhand][CHARGE]


def test_cs2_221_spiteful_smith_weapon_has_2_attack_while_damaged() -> None:
    g = S.prepared(hero1=ROGUE)
    smith = S.give(g, 1, "CS2_221")
    S.play(g, smith)
    S.power(g)
    knife = g.weapon[1]
    assert g.attack_value(g.hero[1]) == 1
    S.hit(g, smith, 1)  # SabberStone: the Fireblast on the Smith gives the Knife 3 Attack
    assert g.attack_value(g.hero[1]) == 3 and _weapon_atk_of(g, knife) == 3
    S.play(g, S.give(g, 1, "CS2_117"), smith)  # Earthen Ring Farseer heals it
    assert g.attack_value(g.hero[1]) == 1
    S.hit(g, smith, 2)
    assert g.attack_value(g.hero[1]) == 3
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "CS2_203"), smith)  # Silence (SabberStone: Ironbeak Owl)
    assert g.attack_value(g.hero[1]) == 1 and g.health(smith) == 4
    # Enraged before the weapon comes: the new weapon gets the bonus too.
    g2 = S.prepared(hero1=ROGUE)
    smith2 = S.summon(g2, 1, "CS2_221")
    S.hit(g2, smith2, 1)
    assert not g2.weapon[1]
    S.power(g2)
    assert g2.attack_value(g2.hero[1]) == 3
    assert g2.attack_value(g2.hero[2]) == 0  # only its own side's weapon


def _weapon_atk_of(g: State, weapon: int) -> int:
    return g.ents[weapon][ATK]


def test_ex1_009_angry_chicken_has_5_attack_while_damaged() -> None:
    g = S.prepared()
    chicken = S.give(g, 1, "EX1_009")
    S.play(g, chicken)
    S.play(g, S.give(g, 1, "EX1_019"), chicken)  # Shattered Sun Cleric: 2/2 (SabberStone)
    assert stats(g, chicken) == (2, 2)
    S.hit(g, chicken, 1)
    assert stats(g, chicken) == (7, 1)  # 1 + 1 + 5
    S.play(g, S.give(g, 1, "CS2_203"), chicken)  # Silence: Cleric's buff gone, no enrage
    assert stats(g, chicken) == (1, 1) and not dead(g, chicken)


def test_ex1_062_old_murk_eye_counts_other_murlocs_on_the_battlefield() -> None:
    g = S.prepared()
    eye = S.give(g, 1, "EX1_062")
    assert g.ents[eye].card.atk == 2
    murloc = S.summon(g, 1, "CS2_168")
    S.play(g, eye)
    assert g.ents[eye][CHARGE] and can_attack(g, eye)
    assert stats(g, eye) == (3, 4)  # fireplace's figures from here on
    S.summon(g, 2, "CS2_168")
    assert atk(g, eye) == 4
    S.summon(g, 2, "CS2_168")
    assert atk(g, eye) == 5
    S.hit(g, murloc, 5)
    assert dead(g, murloc) and atk(g, eye) == 4
    other_eye = S.summon(g, 2, "EX1_062")
    assert atk(g, eye) == atk(g, other_eye) == 5
    S.summon(g, 1, "CS2_231")  # a Wisp is no Murloc
    assert atk(g, eye) == 5
    S.play(g, S.give(g, 1, "CS2_203"), eye)  # silenced: its printed 2 Attack, no Charge
    assert stats(g, eye) == (2, 4) and not g.ents[eye][CHARGE] and atk(g, other_eye) == 5


def test_ex1_004_young_priestess_gives_another_friendly_minion_1_health() -> None:
    g = S.prepared()
    priestess = S.give(g, 1, "EX1_004")
    S.play(g, priestess)
    assert stats(g, priestess) == (2, 1)
    S.end_turn(g)  # alone: nothing to buff, itself excluded
    assert stats(g, priestess) == (2, 1)
    wisp2 = S.summon(g, 2, "CS2_231")
    S.end_turn(g)  # the enemy's turn end: nothing
    assert g.health(wisp2) == 1 and g.health(priestess) == 1
    wisp1 = S.summon(g, 1, "CS2_231")
    S.end_turn(g)
    assert stats(g, wisp1) == (1, 2) and _enchantments_on(g, wisp1) == ["EX1_004e"]
    assert g.health(priestess) == 1


def test_ex1_006_alarm_o_bot_swaps_with_a_minion_in_hand() -> None:
    g = S.prepared(history=True)
    bot = S.give(g, 1, "EX1_006")
    S.play(g, bot)
    hoarder = S.summon(g, 1, "EX1_096")
    S.play(g, S.give(g, 1, "EX1_014t"), bot)  # a Banana: 1/4
    S.hit(g, bot, 2)
    acolyte = S.give(g, 1, "EX1_007")
    S.give(g, 1, "CS2_029")  # a Fireball is no minion
    S.end_turn(g)
    S.end_turn(g)
    # SabberStone's case: the Acolyte takes the bot's slot; the bot is a fresh card in
    # hand, a new entity the opponent cannot tell from the rest of the hand.
    assert g.board[1] == [acolyte, hoarder]
    assert g.ents[bot][ZONE] == Z_SETASIDE and _enchantments_on(g, bot) == []
    back = g.hand[1][1]
    assert card_ids(g, g.hand[1]) == ["CS2_029", "EX1_006", "CS2_231"]  # then the draw
    assert g.ents[back][DAMAGE] == 0 and stats(g, back) == (0, 3)
    assert g.ents[acolyte][ZONE] == Z_PLAY and g.ents[acolyte][EXHAUSTED]
    assert not can_attack(g, acolyte)  # summoned this turn
    theirs = list(S.entries(g.history(viewer=2)))
    shown = [e["show_entity"] for e in theirs if "show_entity" in e]
    assert any(e["entityID"] == acolyte and e["name"] == "EX1_007" for e in shown)
    made = [e["full_entity"] for e in theirs if "full_entity" in e]
    assert [e["name"] for e in made if e["entityID"] == back] == [""]
    # No minion in hand: it stays.
    g2 = S.prepared()
    bot2 = S.summon(g2, 1, "EX1_006")
    S.give(g2, 1, "CS2_029")
    S.end_turn(g2)
    S.end_turn(g2)
    assert g2.board[1] == [bot2]


def test_ex1_055_mana_addict_gains_2_attack_this_turn_per_spell() -> None:
    g = S.prepared()
    addict = S.give(g, 1, "EX1_055")
    S.play(g, addict)
    assert stats(g, addict) == (1, 3)
    S.end_turn(g)
    S.play(g, S.give(g, 2, COIN))  # the enemy's spell: nothing (fireplace)
    assert atk(g, addict) == 1
    S.end_turn(g)
    S.play(g, S.give(g, 1, COIN))
    assert atk(g, addict) == 3
    S.play(g, S.give(g, 1, COIN))
    assert atk(g, addict) == 5
    S.end_turn(g)
    assert atk(g, addict) == 1


def test_ex1_080_secretkeeper_grows_whenever_a_secret_is_played() -> None:
    g = S.prepared()
    keeper = S.give(g, 1, "EX1_080")
    S.play(g, keeper)
    assert stats(g, keeper) == (1, 2)
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])  # a spell, no Secret
    assert stats(g, keeper) == (1, 2)
    S.play(g, S.give(g, 1, "EX1_289"))  # Ice Barrier: its own secret
    assert stats(g, keeper) == (2, 3)
    S.end_turn(g)
    S.play(g, S.give(g, 2, "EX1_287"))  # Counterspell: an enemy secret counts too
    assert stats(g, keeper) == (3, 4)
    assert card_ids(g, g.secrets[2]) == ["EX1_287"]
    # SabberStone's (skipped) figures: damaged to 3/1, then silenced: 1/1.
    S.play(g, S.give(g, 2, "CS2_024"), keeper)  # Frostbolt
    assert stats(g, keeper) == (3, 1)
    S.play(g, S.give(g, 2, "CS2_203"), keeper)
    assert stats(g, keeper) == (1, 1)
