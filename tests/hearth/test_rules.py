"""The core rules of reference section 5 that need no card script beyond the basics."""

from __future__ import annotations

import pytest

from games import hearth
from games.hearth import scenario as S
from games.hearth.actions import Action, Kind
from games.hearth.enums import (
    ARMOR,
    DAMAGE,
    DIVINE_SHIELD,
    DURABILITY,
    FROZEN,
    PLAYSTATE,
    RESOURCES,
    STEP,
    TEMP_RESOURCES,
    Z_DECK,
    Z_GRAVEYARD,
    Z_HAND,
    Z_PLAY,
    ZONE,
    PlayState,
    Step,
)

WISPS = ["CS2_231"] * 30


def deck_of(*ids: str, fill: str = "CS2_231", size: int = 30) -> list[str]:
    return list(ids) + [fill] * (size - len(ids))


def steps(g: hearth.State, since: int = 0) -> list[str]:
    out = []

    def walk(items: list) -> None:
        for it in items:
            if "tag_change" in it:
                tc = it["tag_change"]
                if tc["entityID"] == 1 and tc["tag"] == STEP:
                    out.append(Step(tc["value"]).name)
            elif "power_block" in it:
                walk(it["power_block"]["history"])

    walk(g.history(since=since))
    return out


def keep_all(g: hearth.State) -> None:
    for p in (1, 2):
        g.apply(Action(Kind.MULLIGAN, p))


# ---------------------------------------------------------------------------- start, mulligan


def test_R01_opening_hands_coin_and_first_turn() -> None:
    g = hearth.new_game(seed=11, first_player=2)
    assert g.step == Step.BEGIN_MULLIGAN and sorted(g.pending()) == [1, 2]
    assert len(g.hand[2]) == 3
    assert len(g.hand[1]) == 5 and g.ents[g.hand[1][-1]].card.id == "GAME_005"
    assert g.coin not in g.mulligan_cards(1) and len(g.mulligan_cards(1)) == 4
    # Mulligan choices: every subset of the offered cards, for both players.
    acts = g.legal_actions()
    assert sum(a.entity == 2 for a in acts) == 2**3 and sum(a.entity == 1 for a in acts) == 2**4
    keep_all(g)
    assert g.current == 2 and g.step == Step.MAIN_ACTION
    assert len(g.hand[2]) == 4 and len(g.hand[1]) == 5
    assert g.mana(2) == 1 and g.ents[3][RESOURCES] == 1


@pytest.mark.parametrize("seed", range(12))
def test_R02_replaced_cards_never_come_straight_back(seed: int) -> None:
    # A 6-card deck: an engine that shuffled the replaced cards back before drawing would
    # hand one back in about a third of these seeds.
    deck = [f"{c}" for c in ("CS2_182", "CS2_200", "CS2_172", "CS2_120", "CS2_168", "CS2_231")]
    g = hearth.new_game(seed=seed, decks=[("HERO_08", deck), ("HERO_01", WISPS)], first_player=1,
                        shuffle=False)
    hand = list(g.hand[1])
    assert [g.ents[i].card.id for i in hand] == ["CS2_182", "CS2_200", "CS2_172"]
    replace = tuple(sorted(hand[:2]))
    g.apply(Action(Kind.MULLIGAN, 1, cards=replace))
    assert len(g.hand[1]) == 3
    assert not set(replace) & set(g.hand[1])
    assert all(g.ents[i][ZONE] == Z_DECK for i in replace)
    assert g.hand[1][2] == hand[2]  # kept card stays
    # The mulligan of player 2 is still pending; player 1 can't act again.
    assert g.pending() == [2]
    with pytest.raises(hearth.IllegalAction):
        g.apply(Action(Kind.MULLIGAN, 1))


def test_R05_turn_steps_in_order() -> None:
    g = hearth.new_game(seed=2, history=True, first_player=1)
    # A real log's grammar: the first STEP is BEGIN_MULLIGAN (the first player, the
    # shuffle and the opening hands are one TRIGGER block of the game before it), and
    # the mulligan goes straight to MAIN_READY (no MAIN_BEGIN).
    assert steps(g) == ["BEGIN_MULLIGAN"]
    mark = len(g.history())
    keep_all(g)
    assert steps(g, mark) == ["MAIN_READY", "MAIN_START_TRIGGERS", "MAIN_START", "MAIN_ACTION"]
    mark = len(g.history())
    g.apply(hearth.END_TURN)
    assert steps(g, mark) == ["MAIN_END", "MAIN_CLEANUP", "MAIN_NEXT", "MAIN_READY",
                              "MAIN_START_TRIGGERS", "MAIN_START", "MAIN_ACTION"]


# ---------------------------------------------------------------------------- mana, draw


def test_R03_mana_grows_to_ten_and_refills() -> None:
    g = hearth.new_game(seed=4, first_player=1)
    keep_all(g)
    seen = []
    for _ in range(24):
        if g.current == 1:
            seen.append(g.mana(1))
            S.play(g, S.give(g, 1, "CS2_231")) if len(g.hand[1]) < 10 else None
        g.apply(hearth.END_TURN)
    assert seen == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]


def test_R04_coin_is_one_temporary_crystal_and_never_above_ten() -> None:
    g = hearth.new_game(seed=5, first_player=2)
    keep_all(g)
    g.apply(hearth.END_TURN)
    assert g.current == 1 and g.mana(1) == 1
    S.play(g, g.coin)
    assert g.mana(1) == 2 and g.ents[2][TEMP_RESOURCES] == 1
    g.apply(hearth.END_TURN)
    g.apply(hearth.END_TURN)
    assert g.mana(1) == 2  # the extra crystal was for one turn only
    g2 = S.prepared(mana=10)
    coin = S.give(g2, 1, "GAME_005")
    S.play(g2, coin)
    assert g2.mana(1) == 10


def test_R06_fatigue_is_cumulative_and_counts_the_turn_draw() -> None:
    g = S.prepared()
    S.empty_deck(g, 1)
    S.empty_deck(g, 2)
    hero = g.hero[1]
    g.draw(1)
    assert g.health(hero) == 29
    g.draw(1)
    assert g.health(hero) == 27
    S.end_turn(g)
    S.end_turn(g)  # player 1's turn-start draw: 3 fatigue
    assert g.health(hero) == 24


def test_R07_overdraw_burns_the_card() -> None:
    g = S.prepared()
    for _ in range(10):
        S.give(g, 1, "CS2_182")
    top = g.deck[1][-1]
    deck_before = len(g.deck[1])
    assert g.draw(1) == 0
    assert len(g.hand[1]) == 10 and len(g.deck[1]) == deck_before - 1
    assert g.ents[top][ZONE] == Z_GRAVEYARD
    assert g.health(g.hero[1]) == 30


# ---------------------------------------------------------------------------- board


def test_R08_full_board_blocks_minions_and_reinforce() -> None:
    g = S.prepared(hero1="HERO_04")
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    yeti = S.give(g, 1, "CS2_182")
    fb = S.give(g, 1, "CS2_029")
    acts = g.legal_actions()
    assert not any(a.entity == yeti for a in acts)
    assert not any(a.kind == Kind.POWER for a in acts)
    assert any(a.entity == fb for a in acts)
    g2 = S.prepared(hero1="HERO_04")
    S.power(g2)
    (recruit,) = g2.board[1]
    assert g2.ents[recruit].card.id == "CS2_101t"


def test_minion_positions_are_offered_and_kept() -> None:
    g = S.prepared()
    a = S.summon(g, 1, "CS2_231")
    b = S.summon(g, 1, "CS2_231")
    yeti = S.give(g, 1, "CS2_182")
    positions = sorted(x.position for x in g.legal_actions() if x.entity == yeti)
    assert positions == [0, 1, 2]
    S.play(g, yeti, position=1)
    assert g.board[1] == [a, yeti, b]


# ---------------------------------------------------------------------------- combat


def test_R11_summoning_sickness_and_charge() -> None:
    g = S.prepared()
    yeti, boar = S.give(g, 1, "CS2_182"), S.give(g, 1, "CS2_171")
    S.play(g, yeti)
    S.play(g, boar)
    attackers = {a.entity for a in g.legal_actions() if a.kind == Kind.ATTACK}
    assert boar in attackers and yeti not in attackers
    S.end_turn(g)
    S.end_turn(g)
    attackers = {a.entity for a in g.legal_actions() if a.kind == Kind.ATTACK}
    assert {boar, yeti} <= attackers


def test_R12_taunt_restricts_attacks_but_not_spells_or_powers() -> None:
    g = S.prepared()
    boar = S.summon(g, 1, "CS2_171")
    senjin = S.summon(g, 2, "CS2_179")
    S.summon(g, 2, "CS2_231")
    targets = {a.target for a in g.legal_actions() if a.kind == Kind.ATTACK and a.entity == boar}
    assert targets == {senjin}
    fb = S.give(g, 1, "CS2_029")
    assert g.hero[2] in {a.target for a in g.legal_actions() if a.entity == fb}
    assert g.hero[2] in {a.target for a in g.legal_actions() if a.kind == Kind.POWER}


def test_R13_combat_damage_is_simultaneous() -> None:
    g = S.prepared()
    raptor = S.summon(g, 1, "CS2_172")
    croc = S.summon(g, 2, "CS2_120")
    S.attack(g, raptor, croc)
    assert g.ents[raptor][ZONE] == Z_GRAVEYARD and g.ents[croc][ZONE] == Z_GRAVEYARD
    yeti = S.summon(g, 1, "CS2_182")
    ogre = S.summon(g, 2, "CS2_200")
    S.attack(g, yeti, ogre)
    assert g.ents[yeti][ZONE] == Z_GRAVEYARD
    assert (g.ents[ogre][ZONE], g.health(ogre)) == (Z_PLAY, 3)


def test_attacked_hero_loses_health_and_a_minion_attacks_once() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.attack(g, yeti, g.hero[2])
    assert g.health(g.hero[2]) == 26 and g.health(yeti) == 5
    assert not any(a.entity == yeti for a in g.legal_actions())


def test_R14_divine_shield_absorbs_one_hit() -> None:
    g = S.prepared()
    squire = S.summon(g, 2, "EX1_008")
    assert g.ents[squire][DIVINE_SHIELD] == 1
    assert g.damage(g.hero[1], squire, 0) == 0 and g.ents[squire][DIVINE_SHIELD] == 1
    wisp = S.summon(g, 1, "CS2_231")
    S.attack(g, wisp, squire)
    assert g.ents[squire][DIVINE_SHIELD] == 0 and g.health(squire) == 1
    assert g.ents[wisp][ZONE] == Z_GRAVEYARD
    g.destroy(squire)
    g._deaths()
    assert g.ents[squire][ZONE] == Z_GRAVEYARD
    other = S.summon(g, 2, "EX1_008")
    S.power(g, other)  # Fireblast pops the shield, then the next hit kills
    assert g.health(other) == 1 and g.ents[other][DIVINE_SHIELD] == 0


def test_R10_hero_power_once_per_turn_without_spell_damage() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_142")  # Kobold Geomancer: Spell Damage +1
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 29
    assert g.mana(1) == 8
    assert not any(a.kind == Kind.POWER for a in g.legal_actions())
    fb = S.give(g, 1, "CS2_029")
    S.play(g, fb, g.hero[2])
    assert g.health(g.hero[2]) == 22  # Fireball 6 + 1
    S.end_turn(g)
    S.end_turn(g)
    assert any(a.kind == Kind.POWER for a in g.legal_actions())


def test_lesser_heal_is_capped_at_max_health() -> None:
    g = S.prepared(hero1="HERO_09")
    yeti = S.summon(g, 1, "CS2_182")
    g.damage(g.hero[2], yeti, 1)
    S.power(g, yeti)
    assert g.health(yeti) == 5 and g.ents[yeti][DAMAGE] == 0


def test_R28_armor_absorbs_damage_first() -> None:
    g = S.prepared(hero1="HERO_01")
    S.power(g)
    hero = g.hero[1]
    assert g.ents[hero][ARMOR] == 2
    g.damage(g.hero[2], hero, 3)
    assert g.ents[hero][ARMOR] == 0 and g.health(hero) == 29


def test_R26_frozen_character_misses_its_next_turn_then_thaws() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_024"), yeti)
    assert g.ents[yeti][FROZEN] == 1 and g.health(yeti) == 2
    S.end_turn(g)
    assert g.ents[yeti][FROZEN] == 1
    assert not any(a.entity == yeti for a in g.legal_actions())
    S.end_turn(g)
    assert g.ents[yeti][FROZEN] == 0


def test_R26_frozen_after_attacking_stays_frozen_through_the_next_turn() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.attack(g, yeti, g.hero[2])
    g.freeze(yeti)  # e.g. hit by a Water Elemental while attacking
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[yeti][FROZEN] == 1
    assert not any(a.entity == yeti for a in g.legal_actions())
    S.end_turn(g)
    assert g.ents[yeti][FROZEN] == 0


def test_R27_weapon_durability_and_sheathing() -> None:
    g = S.prepared(hero1="HERO_01")
    axe = S.give(g, 1, "CS2_106")
    S.play(g, axe)
    hero = g.hero[1]
    assert g.weapon[1] == axe and g.attack_value(hero) == 3
    S.attack(g, hero, g.hero[2])
    assert g.health(g.hero[2]) == 27
    assert g.ents[axe][DURABILITY] - g.ents[axe][DAMAGE] == 1
    S.end_turn(g)
    # On the opponent's turn the weapon is sheathed: attacking the hero costs nothing.
    raptor = S.summon(g, 2, "CS2_172")
    S.attack(g, raptor, hero)
    assert g.health(raptor) == 2 and g.health(hero) == 27
    S.end_turn(g)
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, hero, yeti)
    assert g.health(hero) == 23  # the hero takes the defender's attack
    assert g.weapon[1] == 0 and g.ents[axe][ZONE] == Z_GRAVEYARD


# ---------------------------------------------------------------------------- the end


def test_R36_hero_at_zero_loses_and_both_at_zero_draw() -> None:
    g = S.prepared()
    g.damage(1, g.hero[2], 29)
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.is_over and g.result().winner == 1
    assert g.ents[2][PLAYSTATE] == PlayState.WON and g.ents[3][PLAYSTATE] == PlayState.LOST
    assert g.legal_actions() == []
    g2 = S.prepared()
    g2.damage(1, g2.hero[1], 30)
    g2.damage(1, g2.hero[2], 31)
    assert not g2.is_over  # only a death phase ends the game
    g2._deaths()
    assert g2.is_over and g2.result().winner == 0
    assert g2.ents[2][PLAYSTATE] == g2.ents[3][PLAYSTATE] == PlayState.TIED


def test_R38_turn_cap_ends_the_game_in_a_draw() -> None:
    g = hearth.new_game(seed=9, turn_cap=6)
    keep_all(g)
    while not g.is_over:
        g.apply(hearth.END_TURN)
    assert g.result().winner == 0 and g.result().reason == "turn cap"
    assert g.ents[1][20] == 7  # TURN


def test_concede() -> None:
    g = S.prepared()
    g.concede(1)
    assert g.is_over and g.result().winner == 2 and g.result().reason == "concede"


def test_drawn_card_moves_from_deck_to_hand() -> None:
    g = S.prepared()
    top = g.deck[1][-1]
    assert g.draw(1) == top and g.ents[top][ZONE] == Z_HAND and g.hand[1][-1] == top
