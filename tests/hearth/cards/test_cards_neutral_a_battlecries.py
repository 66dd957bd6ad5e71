"""Neutral Classic battlecry and deathrattle minions (helper neutralA), one scenario each;
the figures follow the card text, SabberStone's and fireplace's tests."""

from __future__ import annotations

from hearth_cardtest import atk, card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import (
    ATTACHED,
    RESOURCES,
    RESOURCES_USED,
    TAUNT,
    Z_HAND,
    ZONE,
)
from games.hearth.game import State


def _enchantments_on(g: State, eid: int) -> list[str]:
    return [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == eid]


def test_cs2_117_earthen_ring_farseer_restores_3() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.hit(g, yeti, 4)
    S.hit(g, g.hero[1], 10)
    farseer = S.give(g, 1, "CS2_117")
    assert play_targets(g, farseer) == {g.hero[1], g.hero[2], yeti}
    S.play(g, farseer, yeti)
    assert g.health(yeti) == 4  # 1 + 3, never above its maximum of 5
    S.play(g, S.give(g, 1, "CS2_117"), g.hero[1])
    assert g.health(g.hero[1]) == 23 and stats(g, farseer) == (3, 3)


def test_cs2_151_silver_hand_knight_summons_a_squire() -> None:
    g = S.prepared()
    left = S.summon(g, 1, "CS2_231")
    right = S.summon(g, 1, "CS2_231")
    knight = S.give(g, 1, "CS2_151")
    S.play(g, knight, position=1)
    assert card_ids(g, g.board[1]) == ["CS2_231", "CS2_151", "CS2_152", "CS2_231"]
    assert g.board[1][0] == left and g.board[1][3] == right
    assert stats(g, knight) == (4, 4) and stats(g, g.board[1][2]) == (2, 2)


def test_cs2_181_injured_blademaster_deals_4_to_himself() -> None:
    g = S.prepared()
    berserker = S.summon(g, 1, "EX1_604")  # Frothing Berserker sees the damage (fireplace)
    blademaster = S.give(g, 1, "CS2_181")
    S.play(g, blademaster)
    assert stats(g, blademaster) == (4, 3)  # SabberStone: Health 3 of 7
    assert atk(g, berserker) == 3


def test_ex1_002_the_black_knight_destroys_an_enemy_taunt() -> None:
    g = S.prepared()
    shieldmasta = S.summon(g, 2, "CS2_179")  # Sen'jin Shieldmasta: Taunt
    raptor = S.summon(g, 2, "CS2_172")
    own_taunt = S.summon(g, 1, "CS2_179")
    knight = S.give(g, 1, "EX1_002")
    assert play_targets(g, knight) == {shieldmasta}  # not the Raptor, not its own Taunt
    S.play(g, knight, shieldmasta)
    assert dead(g, shieldmasta) and not dead(g, raptor) and not dead(g, own_taunt)
    assert stats(g, knight) == (4, 5)
    # No enemy Taunt: it is played without a target.
    S.set_mana(g, 1, 10)
    again = S.give(g, 1, "EX1_002")
    assert play_targets(g, again) == {0}


def test_ex1_005_big_game_hunter_destroys_7_or_more_attack() -> None:
    g = S.prepared()
    bgh = S.give(g, 1, "EX1_005")
    ogre = S.summon(g, 2, "CS2_200")  # Boulderfist Ogre, 6 Attack
    assert play_targets(g, bgh) == {0}
    S.play(g, S.give(g, 1, "CS2_087"), ogre)  # Blessing of Might: 9 Attack
    core_hound = S.summon(g, 1, "CS2_201")  # Core Hound, 9 Attack, friendly
    assert play_targets(g, bgh) == {ogre, core_hound}
    S.play(g, bgh, ogre)
    assert dead(g, ogre) and not dead(g, core_hound) and stats(g, bgh) == (4, 2)


def test_ex1_014_king_mukla_gives_the_opponent_2_bananas() -> None:
    g = S.prepared(history=True)
    mukla = S.give(g, 1, "EX1_014")
    S.play(g, mukla)
    assert stats(g, mukla) == (5, 5) and g.hand[1] == []
    assert card_ids(g, g.hand[2]) == ["EX1_014t", "EX1_014t"]
    # Mukla's owner sees two cards arrive, not which; their new owner sees Bananas.
    for viewer, names in ((1, {""}), (2, {"EX1_014t"})):
        made = [e["full_entity"] for e in S.entries(g.history(viewer=viewer)) if "full_entity" in e]
        assert {e["name"] for e in made if e["entityID"] in g.hand[2]} == names
    S.end_turn(g)
    wisp = S.summon(g, 2, "CS2_231")
    S.play(g, g.hand[2][0], wisp)
    assert stats(g, wisp) == (2, 2) and len(g.hand[2]) == 2  # one Banana and the draw
    assert _enchantments_on(g, wisp) == ["EX1_014te"]


def test_ex1_043_twilight_drake_gains_health_per_card_in_hand() -> None:
    g = S.prepared()
    for _ in range(7):
        S.give(g, 1, "CS2_231")
    drake = S.give(g, 1, "EX1_043")
    S.play(g, drake)
    assert stats(g, drake) == (4, 8)  # 1 + 7 (fireplace), the drake itself not counted
    S.end_turn(g)
    S.end_turn(g)
    for eid in list(g.hand[1]):
        S.remove(g, eid)
    lone = S.give(g, 1, "EX1_043")
    S.play(g, lone)
    assert stats(g, lone) == (4, 1) and _enchantments_on(g, lone) == []


def test_ex1_046_dark_iron_dwarf_gives_2_attack_this_turn() -> None:
    g = S.prepared()
    enemy = S.summon(g, 2, "CS2_182")
    dwarf = S.give(g, 1, "EX1_046")
    assert play_targets(g, dwarf) == {enemy}  # any minion, either side
    S.play(g, dwarf, enemy)
    assert atk(g, enemy) == 6 and stats(g, dwarf) == (4, 4)
    S.end_turn(g)
    assert atk(g, enemy) == 4  # gone at the end of the turn


def test_ex1_048_spellbreaker_silences_a_minion() -> None:
    g = S.prepared()
    shieldmasta = S.summon(g, 2, "CS2_179")
    breaker = S.give(g, 1, "EX1_048")
    S.play(g, breaker, shieldmasta)
    assert not g.ents[shieldmasta][TAUNT] and stats(g, breaker) == (4, 3)


def test_ex1_050_coldlight_oracle_each_player_draws_2() -> None:
    g = S.prepared()
    mine, theirs = g.deck[1][-2:], g.deck[2][-2:]
    S.play(g, S.give(g, 1, "EX1_050"))
    assert sorted(g.hand[1]) == sorted(mine) and sorted(g.hand[2]) == sorted(theirs)
    assert all(g.ents[i][ZONE] == Z_HAND for i in mine + theirs)


def test_ex1_058_sunfury_protector_gives_adjacent_taunt() -> None:
    g = S.prepared()
    w1, w2, w3 = (S.summon(g, 1, "CS2_231") for _ in range(3))
    sunfury = S.give(g, 1, "EX1_058")
    S.play(g, sunfury, position=1)
    assert [bool(g.ents[i][TAUNT]) for i in (w1, sunfury, w2, w3)] == [True, False, True, False]
    assert stats(g, sunfury) == (2, 3)
    S.play(g, S.give(g, 1, "CS2_203"), w1)  # Silence takes the given Taunt away
    assert not g.ents[w1][TAUNT]


def test_ex1_059_crazed_alchemist_swaps_attack_and_health() -> None:
    g = S.prepared()
    warden = S.summon(g, 1, "EX1_396")  # Mogu'shan Warden 1/7 (fireplace)
    S.play(g, S.give(g, 1, "EX1_059"), warden)
    assert stats(g, warden) == (7, 1) and _enchantments_on(g, warden) == ["EX1_059e"]
    snapjaw = S.summon(g, 1, "CS2_119")  # Oasis Snapjaw 2/7: fireplace's bug #9 case
    S.play(g, S.give(g, 1, "EX1_059"), snapjaw)
    assert stats(g, snapjaw) == (7, 2)
    S.hit(g, snapjaw, 1)
    assert stats(g, snapjaw) == (7, 1)
    S.play(g, S.give(g, 1, "CS2_203"), snapjaw)  # Silence: back to 2/7, the damage kept
    assert stats(g, snapjaw) == (2, 6)
    # SabberStone's case: a Boar under Stormwind Champion with Blessing of Might, 5/2,
    # becomes 3/6 (2/5 of its own, the Champion's +1/+1 on top).
    g = S.prepared()
    boar = S.summon(g, 1, "CS2_171")
    S.summon(g, 1, "CS2_222")
    S.play(g, S.give(g, 1, "CS2_087"), boar)
    assert stats(g, boar) == (5, 2)
    S.play(g, S.give(g, 1, "EX1_059"), boar)
    assert stats(g, boar) == (3, 6)


def test_ex1_082_mad_bomber_splits_3_between_other_characters() -> None:
    for seed in range(6):
        g = S.prepared(seed=seed)
        statues = [S.summon(g, 1, "CS2_182") for _ in range(2)]
        bomber = S.give(g, 1, "EX1_082")
        S.play(g, bomber)
        chars = [*statues, g.hero[1], g.hero[2]]
        taken = sum(5 - g.health(i) for i in statues) + sum(30 - g.health(h) for h in chars[2:])
        assert taken == 3 and stats(g, bomber) == (3, 2)


def test_ex1_083_tinkmaster_overspark_transforms_another_random_minion() -> None:
    seen = set()
    for seed in range(12):
        g = S.prepared(seed=seed)
        first = S.give(g, 1, "EX1_083")
        S.play(g, first)  # alone: nothing to transform
        assert card_ids(g, g.board[1]) == ["EX1_083"]
        second = S.give(g, 1, "EX1_083")
        S.play(g, second)
        assert card_ids(g, [second]) == ["EX1_083"]
        (new,) = card_ids(g, [first])
        assert new in ("EX1_tk28", "EX1_tk29")
        assert stats(g, first) == ((1, 1) if new == "EX1_tk28" else (5, 5))
        seen.add(new)
    assert seen == {"EX1_tk28", "EX1_tk29"}  # both outcomes happen


def test_ex1_089_arcane_golem_gives_the_opponent_a_mana_crystal() -> None:
    g = S.prepared(mana=None)
    for _ in range(3):
        S.end_turn(g)
        S.end_turn(g)
    assert g.ents[2][RESOURCES] == 4 and g.ents[3][RESOURCES] == 3  # fireplace's figures
    golem = S.give(g, 1, "EX1_089")
    S.play(g, golem)
    assert g.ents[2][RESOURCES] == 4 and g.ents[3][RESOURCES] == 4
    assert g.ents[3][RESOURCES_USED] == 1  # an empty crystal (SabberStone)
    assert stats(g, golem) == (4, 4)
    S.end_turn(g)
    assert g.mana(2) == 5  # the opponent's next turn: 4 + 1, all full


def test_ex1_093_defender_of_argus_buffs_and_taunts_adjacent() -> None:
    g = S.prepared()
    left = S.summon(g, 1, "CS2_231")
    far = S.summon(g, 1, "CS2_231")
    argus = S.give(g, 1, "EX1_093")
    S.play(g, argus, position=1)  # between the two: both are adjacent
    assert stats(g, left) == (2, 2) and stats(g, far) == (2, 2)
    assert g.ents[left][TAUNT] and g.ents[far][TAUNT] and not g.ents[argus][TAUNT]
    assert stats(g, argus) == (2, 3)
    alone = S.give(g, 1, "EX1_093")
    S.play(g, alone)  # right of the Wisp at the end only
    assert stats(g, far) == (3, 3) and stats(g, left) == (2, 2)


def test_ex1_097_abomination_deals_2_to_all_characters_on_death() -> None:
    g = S.prepared()
    abomination = S.give(g, 1, "EX1_097")
    S.play(g, abomination)
    assert g.ents[abomination][TAUNT] and stats(g, abomination) == (4, 4)
    friend = S.summon(g, 1, "CS2_182")
    wisp = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_029"), abomination)  # Fireball
    assert dead(g, abomination) and dead(g, wisp)
    assert g.health(friend) == 3 and g.health(g.hero[1]) == 28 and g.health(g.hero[2]) == 28
