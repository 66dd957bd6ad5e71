"""Conformance cases R25-R38 of reference section 5: stacking triggers, Freeze, weapons,
armor, one-turn effects, Execute, Polymorph, Faceless Manipulator, Frostwolf Warlord, Knife
Juggler, overdraw from a deathrattle, the end of the game, determinism and the turn cap.
Each test asserts the expected outcome given there.
"""

from __future__ import annotations

from games import hearth
from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import (
    ARMOR,
    ATK,
    ATTACHED,
    DAMAGE,
    DEATHRATTLE,
    DIVINE_SHIELD,
    DURABILITY,
    FROZEN,
    HEALTH,
    PLAYSTATE,
    TURN,
    Z_GRAVEYARD,
    Z_PLAY,
    ZONE,
    PlayState,
)
from games.hearth.game import State
from games.hearth.rng import SplitMix64


def stats(g: State, eid: int) -> tuple[int, int]:
    return g.ents[eid][ATK], g.health(eid)


def dead(g: State, eid: int) -> bool:
    return g.ents[eid][ZONE] == Z_GRAVEYARD


def can_attack(g: State, eid: int) -> bool:
    return any(a.kind == Kind.ATTACK and a.entity == eid for a in g.legal_actions())


def test_r25_gurubashi_gains_three_attack_per_damage_instance() -> None:
    g = S.prepared(hero1="HERO_01")
    berserker = S.summon(g, 1, "EX1_399")
    S.play(g, S.give(g, 1, "EX1_400"))
    S.play(g, S.give(g, 1, "EX1_400"))
    assert stats(g, berserker) == (8, 5)


def test_r26_frozen_enemy_misses_its_next_turn_then_thaws() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_024"), yeti)
    S.end_turn(g)
    assert g.ents[yeti][FROZEN] == 1 and not can_attack(g, yeti)
    S.end_turn(g)  # thaws at the end of its owner's turn
    assert g.ents[yeti][FROZEN] == 0
    S.end_turn(g)
    assert can_attack(g, yeti)


def test_r26_frozen_after_attacking_stays_frozen_through_the_next_turn() -> None:
    """SabberStone's MAIN_CLEANUP rule: only characters that neither attacked nor were
    exhausted this turn thaw at the end of their owner's turn."""
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.attack(g, yeti, g.hero[2])
    S.play(g, S.give(g, 1, "CS2_024"), yeti)  # frozen after it attacked this turn
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[yeti][FROZEN] == 1 and not can_attack(g, yeti)
    S.end_turn(g)
    assert g.ents[yeti][FROZEN] == 0


def test_r26_frozen_charge_minion_that_could_attack_thaws_at_its_owners_end_of_turn() -> None:
    """SabberStone's MAIN_CLEANUP thaws characters without summoning sickness *or with
    Charge* that did not attack: a Boar played and frozen this turn could have attacked."""
    g = S.prepared()
    boar = S.give(g, 1, "CS2_171")
    S.play(g, boar)
    assert can_attack(g, boar)  # Charge: ready although just played (EXHAUSTED is set)
    S.play(g, S.give(g, 1, "CS2_092"), boar)  # Blessing of Kings: 5/5, survives Frostbolt
    S.play(g, S.give(g, 1, "CS2_024"), boar)  # frozen before it attacked
    assert g.ents[boar][FROZEN] == 1 and g.health(boar) == 2
    S.end_turn(g)
    assert g.ents[boar][FROZEN] == 0
    S.end_turn(g)
    assert can_attack(g, boar)


def test_r27_fiery_war_axe_durability_and_sheathing() -> None:
    g = S.prepared(hero1="HERO_01")
    axe = S.give(g, 1, "CS2_106")
    S.play(g, axe)
    hero = g.hero[1]
    S.attack(g, hero, g.hero[2])
    assert g.health(g.hero[2]) == 27
    assert g.ents[axe][DURABILITY] - g.ents[axe][DAMAGE] == 1
    S.end_turn(g)
    raptor = S.summon(g, 2, "CS2_172")
    S.attack(g, raptor, hero)  # the weapon is sheathed: no damage back
    assert g.health(raptor) == 2 and g.health(hero) == 27
    S.end_turn(g)
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, hero, yeti)  # second swing: the hero takes the defender's attack
    assert g.health(hero) == 23 and g.health(yeti) == 2
    assert g.weapon[1] == 0 and dead(g, axe)


def test_r28_armor_absorbs_damage_first() -> None:
    g = S.prepared(hero1="HERO_01", hero2="HERO_08")
    S.power(g)
    S.end_turn(g)
    S.power(g, g.hero[1])  # Fireblast: 1 damage
    S.play(g, S.give(g, 2, "CS2_189"), g.hero[1])  # 1 more
    g.damage(g.hero[2], g.hero[1], 1)
    assert g.ents[g.hero[1]][ARMOR] == 0 and g.health(g.hero[1]) == 29
    g2 = S.prepared(hero1="HERO_01")
    S.power(g2)
    g2.damage(g2.hero[2], g2.hero[1], 3)
    assert g2.ents[g2.hero[1]][ARMOR] == 0 and g2.health(g2.hero[1]) == 29


def test_r29_one_turn_attack_buffs_expire_at_the_end_of_the_turn() -> None:
    g = S.prepared(hero1="HERO_01")
    hero = g.hero[1]
    S.play(g, S.give(g, 1, "CS2_105"))
    assert g.attack_value(hero) == 4
    S.play(g, S.give(g, 1, "CS2_106"))
    assert g.attack_value(hero) == 7
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_188"), wisp)
    assert g.ents[wisp][ATK] == 3
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[hero][ATK] == 0 and g.attack_value(hero) == 3 and g.ents[wisp][ATK] == 1


def test_r30_execute_targets_only_damaged_enemy_minions() -> None:
    """Destroying through Divine Shield is [U] in the reference (R14); SabberStone's
    DestroyTask only marks the minion, so the shield never matters."""
    g = S.prepared(hero1="HERO_01")
    hurt, whole = S.summon(g, 2, "CS2_200"), S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_182")
    for eid in (hurt, mine, g.hero[2]):
        g.damage(g.hero[2], eid, 1)
    g._legal = None
    execute = S.give(g, 1, "CS2_108")
    assert {a.target for a in g.legal_actions() if a.entity == execute} == {hurt}
    S.play(g, execute, hurt)  # 6/6 remaining: destroyed regardless of health
    assert dead(g, hurt) and not dead(g, whole)
    # Destroy ignores Divine Shield ([U] in the reference; SabberStone's DestroyTask only
    # marks ToBeDestroyed, it never deals damage).
    senjin = S.summon(g, 2, "CS2_179")
    g.damage(g.hero[1], senjin, 1)
    g._set(g.ents[senjin], DIVINE_SHIELD, 1)  # no Basic card re-shields: set it directly
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "CS2_108"), senjin)
    assert dead(g, senjin)


def test_r31_polymorph_keeps_the_slot_and_drops_everything_else() -> None:
    g = S.prepared()
    left = S.summon(g, 2, "CS2_231")
    hoarder = S.summon(g, 2, "EX1_096")
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_092"), hoarder)
    S.end_turn(g)
    g.damage(g.hero[1], hoarder, 2)
    g._deaths()
    hand = len(g.hand[2])
    S.play(g, S.give(g, 1, "CS2_022"), hoarder)
    assert g.board[2] == [left, hoarder] and g.ents[hoarder].card.id == "CS2_tk1"
    assert stats(g, hoarder) == (1, 1) and g.ents[hoarder][DEATHRATTLE] == 0
    assert not [i for i in g.enchants if g.ents[i][ATTACHED] == hoarder]
    S.power(g, hoarder)
    assert dead(g, hoarder) and len(g.hand[2]) == hand  # no deathrattle fired


def test_r32_faceless_copies_enchantments_and_damage_but_not_aura_bonuses() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_222")
    yeti = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_092"), yeti)  # Blessing of Kings
    g.damage(g.hero[2], yeti, 1)
    g._deaths()
    assert stats(g, yeti) == (9, 9)
    faceless = S.give(g, 1, "EX1_564")
    S.play(g, faceless, yeti)
    assert g.ents[faceless].card.id == "CS2_182"
    assert stats(g, faceless) == (9, 9) and g.ents[faceless][DAMAGE] == 1
    assert g.ents[faceless][HEALTH] == 10  # base + BoK + the aura once
    assert not can_attack(g, faceless)
    copied = [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == faceless]
    assert copied == ["CS2_092e"]


def test_r32_faceless_copy_of_a_charge_minion_can_attack() -> None:
    g = S.prepared()
    rider = S.summon(g, 2, "CS2_124")
    faceless = S.give(g, 1, "EX1_564")
    S.play(g, faceless, rider)
    assert g.ents[faceless].card.id == "CS2_124" and can_attack(g, faceless)


def test_r32_faceless_without_another_minion_is_a_plain_three_three() -> None:
    g = S.prepared()
    faceless = S.give(g, 1, "EX1_564")
    assert {a.target for a in g.legal_actions() if a.entity == faceless} == {0}
    S.play(g, faceless)
    assert g.ents[faceless].card.id == "EX1_564" and stats(g, faceless) == (3, 3)


def test_r33_frostwolf_warlord_counts_other_friendly_minions() -> None:
    g = S.prepared()
    for _ in range(3):
        S.summon(g, 1, "CS2_231")
    warlord = S.give(g, 1, "CS2_226")
    S.play(g, warlord)
    assert stats(g, warlord) == (7, 7)


def test_r34_knife_juggler_juggles_for_the_scout_and_the_tidehunter() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "NEW1_019"))
    for _ in range(3):
        S.play(g, S.give(g, 1, "EX1_506"))
    assert len(g.board[1]) == 7 and g.health(g.hero[2]) == 24


def test_r35_loot_hoarder_draw_with_a_full_hand_burns_the_card() -> None:
    g = S.prepared()
    hoarder = S.summon(g, 2, "EX1_096")
    for _ in range(10):
        S.give(g, 2, "CS2_231")
    top = g.deck[2][-1]
    S.power(g, hoarder)
    assert dead(g, hoarder) and len(g.hand[2]) == 10
    assert g.ents[top][ZONE] == Z_GRAVEYARD and top not in g.hand[2]


def test_r36_a_hero_at_zero_after_a_death_phase_loses() -> None:
    g = S.prepared()
    g.damage(g.hero[1], g.hero[2], 24)
    assert not g.is_over  # only a death phase ends the game
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.is_over and g.result() is not None and g.result().winner == 1
    assert g.ents[2][PLAYSTATE] == PlayState.WON and g.ents[3][PLAYSTATE] == PlayState.LOST
    assert g.legal_actions() == []


def test_r36_both_heroes_dying_in_one_phase_is_a_draw() -> None:
    g = S.prepared(hero1="HERO_01")
    S.empty_deck(g, 1)
    S.empty_deck(g, 2)
    acolyte = S.summon(g, 1, "EX1_007")  # its draw is a fatigue hit for player 1
    hoarder = S.summon(g, 2, "EX1_096")  # its deathrattle draw is one for player 2
    g.damage(g.hero[2], g.hero[1], 29)
    g.damage(g.hero[1], g.hero[2], 29)
    g._deaths()
    S.play(g, S.give(g, 1, "EX1_400"))
    assert dead(g, hoarder) and g.ents[acolyte][ZONE] == Z_PLAY
    assert g.health(g.hero[1]) <= 0 and g.health(g.hero[2]) <= 0
    assert g.is_over and g.result() is not None and g.result().winner == 0
    assert g.ents[2][PLAYSTATE] == g.ents[3][PLAYSTATE] == PlayState.TIED


ALL_CARDS = list(hearth.collectible_cards())


def decks(seed: int) -> list[tuple[str, list[str]]]:
    n = len(ALL_CARDS)
    return [
        ("HERO_08", [ALL_CARDS[(seed + 3 * i) % n] for i in range(30)]),
        ("HERO_04", [ALL_CARDS[(seed + 7 * i + 1) % n] for i in range(30)]),
    ]


def play(g: State, policy: SplitMix64, steps: int) -> list[int]:
    hashes = []
    for _ in range(steps):
        if g.is_over:
            break
        acts = g.legal_actions()
        g.apply(acts[policy.below(len(acts))])
        hashes.append(g.hash())
    return hashes


def test_r37_same_seed_and_actions_give_the_same_states() -> None:
    for seed in range(6):
        a = hearth.new_game(seed=seed, decks=decks(seed))
        b = hearth.new_game(seed=seed, decks=decks(seed))
        assert a.hash() == b.hash()
        ha, hb = play(a, SplitMix64(seed), 400), play(b, SplitMix64(seed), 400)
        assert ha == hb and a.entities() == b.entities()


def test_r37_a_clone_is_independent_and_replays_identically() -> None:
    for seed in range(6):
        g = hearth.new_game(seed=seed, decks=decks(seed))
        play(g, SplitMix64(seed), 60)
        before = g.hash()
        clone = g.clone()
        play(clone, SplitMix64(seed + 1000), 200)  # different actions on the clone
        assert g.hash() == before
        twin = g.clone()
        assert play(g, SplitMix64(seed + 7), 200) == play(twin, SplitMix64(seed + 7), 200)


def test_r38_turn_cap_ends_the_game_in_a_draw() -> None:
    """Hearthstone's own turn limit is [U] (neither fireplace nor SabberStone has one): the
    cap is a playout option, and passing it is a draw for both players."""
    g = hearth.new_game(seed=9, turn_cap=8)
    for p in (1, 2):
        g.apply(hearth.Action(Kind.MULLIGAN, p))
    while not g.is_over:
        g.apply(hearth.END_TURN)
    result = g.result()
    assert result is not None and result.winner == 0 and result.reason == "turn cap"
    assert g.ents[1][TURN] == 9
