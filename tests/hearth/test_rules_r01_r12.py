"""Conformance cases R01-R12 of reference section 5: start, mulligan, mana, draws, board,
hero powers, summoning sickness and Taunt. Each test asserts the expected outcome given there.
"""

from __future__ import annotations

from typing import Any

from games import hearth
from games.hearth import scenario as S
from games.hearth.actions import Action, Kind
from games.hearth.enums import (
    FATIGUE,
    MULLIGAN_STATE,
    NEXT_STEP,
    RESOURCES,
    RESOURCES_USED,
    STEP,
    TEMP_RESOURCES,
    Z_DECK,
    Z_GRAVEYARD,
    ZONE,
    BlockType,
    Mulligan,
    Step,
)

DISTINCT = [
    "CS2_231",
    "CS2_168",
    "CS2_172",
    "CS2_120",
    "CS2_182",
    "CS2_200",
    "CS2_171",
    "CS2_124",
    "CS2_121",
    "CS2_179",
]


def keep_all(g: hearth.State) -> None:
    for p in (1, 2):
        g.apply(Action(Kind.MULLIGAN, p))


def step_names(g: hearth.State, since: int = 0) -> list[str]:
    """STEP changes of the game entity in the (full) Kettle history, blocks included."""
    out: list[str] = []

    def walk(items: list[Any]) -> None:
        for it in items:
            if "tag_change" in it:
                tc = it["tag_change"]
                if tc["entityID"] == 1 and tc["tag"] == STEP:
                    out.append(Step(tc["value"]).name)
            elif "power_block" in it:
                walk(it["power_block"]["history"])

    walk(g.history(since=since))
    return out


def test_r01_opening_hands_the_coin_and_the_first_turn() -> None:
    for first in (1, 2):
        g = hearth.new_game(seed=7, first_player=first)
        second = 3 - first
        assert len(g.hand[first]) == 3 and len(g.hand[second]) == 5
        assert g.ents[g.hand[second][-1]].card.id == "GAME_005" and g.coin == g.hand[second][-1]
        assert g.coin not in g.mulligan_cards(second) and len(g.mulligan_cards(second)) == 4
        offered = {c for a in g.legal_actions() if a.entity == second for c in a.cards}
        assert g.coin not in offered
        keep_all(g)
        assert len(g.hand[second]) == 5  # 4 cards + The Coin after the mulligan
        assert g.current == first and g.step == Step.MAIN_ACTION
        assert len(g.hand[first]) == 4  # drew to 4
        assert g.mana(first) == 1 and g.ents[1 + first][RESOURCES] == 1


def test_r01_the_coin_is_created_before_the_mulligan() -> None:
    """SabberStone's BEGIN_DRAW creates The Coin; a real log writes no STEP for it: the
    opening hands and The Coin are one TRIGGER block of the game, ending with NEXT_STEP
    BEGIN_MULLIGAN, before the first STEP change (BEGIN_MULLIGAN)."""
    g = hearth.new_game(seed=3, history=True, first_player=1)
    order: list[str] = []
    opening = None
    for it in g.history():
        if "power_block" in it and opening is None:
            opening = it["power_block"]
            assert (opening["power_type"], opening["entityID"]) == (BlockType.TRIGGER, 1)
            for inner in opening["history"]:
                if "full_entity" in inner and inner["full_entity"]["entityID"] == g.coin:
                    order.append("coin")
                elif "tag_change" in inner and inner["tag_change"]["tag"] == NEXT_STEP:
                    order.append("NEXT_STEP=" + Step(inner["tag_change"]["value"]).name)
        elif "tag_change" in it:
            tc = it["tag_change"]
            if tc["entityID"] == 1 and tc["tag"] == STEP:
                order.append(Step(tc["value"]).name)
    assert order == ["coin", "NEXT_STEP=BEGIN_MULLIGAN", "BEGIN_MULLIGAN"]


def test_r02_mulligan_draws_before_shuffling_back() -> None:
    for seed in range(12):
        g = hearth.new_game(
            seed=seed,
            decks=[("HERO_08", DISTINCT * 3), ("HERO_01", DISTINCT * 3)],
            first_player=1,
            shuffle=False,
        )
        hand = list(g.hand[1])
        g.apply(Action(Kind.MULLIGAN, 1, cards=tuple(sorted(hand))))
        assert len(g.hand[1]) == 3
        assert not set(hand) & set(g.hand[1])  # a replaced card never comes straight back
        assert all(g.ents[i][ZONE] == Z_DECK for i in hand)
        assert len(g.deck[1]) == 27
        assert g.ents[2][MULLIGAN_STATE] == Mulligan.DONE


def test_r03_max_mana_grows_per_own_turn_up_to_ten_and_refills() -> None:
    g = hearth.new_game(seed=4, first_player=1)
    keep_all(g)
    seen = []
    for _ in range(26):
        if g.current == 1:
            pe = g.ents[2]
            seen.append((pe[RESOURCES], pe[RESOURCES_USED]))
            if g.mana(1) >= 2:
                S.power(g, g.hero[2])  # spend mana: the next turn must refill it
        g.apply(hearth.END_TURN)
    assert seen == [(n, 0) for n in range(1, 11)] + [(10, 0)] * 3


def test_r03_the_crystal_is_added_in_main_ready() -> None:
    g = hearth.new_game(seed=6, history=True, first_player=1)
    keep_all(g)
    mark = len(g.history())
    g.apply(hearth.END_TURN)
    order: list[str] = []

    def walk(items: list[Any]) -> None:
        for it in items:
            if "power_block" in it:  # a step's work is a TRIGGER block after its STEP
                walk(it["power_block"]["history"])
            tc = it.get("tag_change")
            if tc and tc["entityID"] == 1 and tc["tag"] == STEP:
                order.append(Step(tc["value"]).name)
            elif tc and tc["entityID"] == 3 and tc["tag"] == RESOURCES:
                order.append(f"RESOURCES={tc['value']}")

    walk(g.history(since=mark))
    assert order[order.index("MAIN_READY") + 1] == "RESOURCES=1"
    assert order.index("RESOURCES=1") < order.index("MAIN_START_TRIGGERS")


def test_r04_the_coin_is_temporary_and_never_overflows() -> None:
    """The 10-mana cap with The Coin is [U] for Hearthstone itself; fireplace and
    SabberStone (TempManaTask) both keep available mana at 10, and so do we."""
    g = hearth.new_game(seed=5, first_player=1)
    keep_all(g)
    g.apply(hearth.END_TURN)
    assert g.mana(2) == 1
    S.play(g, g.coin)
    assert g.mana(2) == 2  # 2 mana available on turn 1 of the second player
    g.apply(hearth.END_TURN)
    g.apply(hearth.END_TURN)
    assert g.mana(2) == 2 and g.ents[3][TEMP_RESOURCES] == 0  # the extra crystal is gone
    full = S.prepared(mana=10)
    S.play(full, S.give(full, 1, "GAME_005"))
    assert full.mana(1) == 10 and full.ents[2][RESOURCES] == 10


def test_r05_turn_steps_follow_the_real_order() -> None:
    g = hearth.new_game(seed=2, history=True, first_player=1)
    keep_all(g)
    mark = len(g.history())
    g.apply(hearth.END_TURN)
    assert step_names(g, mark) == [
        "MAIN_END",
        "MAIN_CLEANUP",
        "MAIN_NEXT",
        "MAIN_READY",
        "MAIN_START_TRIGGERS",
        "MAIN_START",
        "MAIN_ACTION",
    ]


def test_r06_fatigue_is_cumulative_per_player_and_counts_the_turn_draw() -> None:
    g = S.prepared()
    S.empty_deck(g, 1)
    S.empty_deck(g, 2)
    S.play(g, S.give(g, 1, "CS2_023"))  # Arcane Intellect: two fatigue draws
    assert g.health(g.hero[1]) == 27 and g.ents[2][FATIGUE] == 2
    S.end_turn(g)
    assert g.health(g.hero[2]) == 29  # its own counter starts at 1
    S.end_turn(g)
    assert g.health(g.hero[1]) == 24


def test_r07_overdraw_burns_the_card_without_damage() -> None:
    """The burned card's zone is [U] in the reference; like SabberStone we move it to
    the graveyard (fireplace keeps it out of the graveyard list)."""
    g = S.prepared()
    for _ in range(9):
        S.give(g, 1, "CS2_182")
    ai = S.give(g, 1, "CS2_023")
    first, second = g.deck[1][-1], g.deck[1][-2]
    S.play(g, ai)  # hand 9 -> draws one to 10, the second is burned
    assert len(g.hand[1]) == 10 and first in g.hand[1]
    assert g.ents[second][ZONE] == Z_GRAVEYARD and second not in g.hand[1]
    assert g.health(g.hero[1]) == 30
    S.end_turn(g)
    S.end_turn(g)  # the turn-start draw burns too
    assert len(g.hand[1]) == 10 and g.health(g.hero[1]) == 30


def test_r08_full_board_blocks_minions_and_reinforce() -> None:
    g = S.prepared(hero1="HERO_04")
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    yeti, tide, fireball = (S.give(g, 1, c) for c in ("CS2_182", "EX1_506", "CS2_029"))
    acts = g.legal_actions()
    assert not any(a.entity in (yeti, tide) for a in acts)
    assert not any(a.kind == Kind.POWER for a in acts)
    assert any(a.entity == fireball for a in acts)  # spells are still playable


def test_r09_tidehunter_as_seventh_minion_and_mirror_image_with_six() -> None:
    g = S.prepared()
    for _ in range(6):
        S.summon(g, 1, "CS2_231")
    tide = S.give(g, 1, "EX1_506")
    S.play(g, tide)
    assert len(g.board[1]) == 7 and g.board[1][-1] == tide
    assert "EX1_506a" not in [g.ents[i].card.id for i in g.board[1]]
    g2 = S.prepared()
    for _ in range(6):
        S.summon(g2, 1, "CS2_231")
    S.play(g2, S.give(g2, 1, "CS2_027"))
    assert [g2.ents[i].card.id for i in g2.board[1]].count("CS2_mirror") == 1


def test_r10_hero_power_once_per_turn_for_two_mana_without_spell_damage() -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_142")
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 29 and g.mana(1) == 8
    assert not any(a.kind == Kind.POWER for a in g.legal_actions())
    S.end_turn(g)
    S.end_turn(g)
    assert any(a.kind == Kind.POWER for a in g.legal_actions())
    S.set_mana(g, 1, 1)
    assert not any(a.kind == Kind.POWER for a in g.legal_actions())  # costs 2


def test_r11_summoning_sickness_charge_and_zero_attack() -> None:
    g = S.prepared()
    yeti, boar, image = (S.give(g, 1, c) for c in ("CS2_182", "CS2_171", "CS2_027"))
    S.play(g, yeti)
    S.play(g, boar)
    S.play(g, image)
    attackers = {a.entity for a in g.legal_actions() if a.kind == Kind.ATTACK}
    assert attackers == {boar}
    S.end_turn(g)
    S.end_turn(g)
    attackers = {a.entity for a in g.legal_actions() if a.kind == Kind.ATTACK}
    assert attackers == {boar, yeti}  # the 0/2 Mirror Images never attack


def test_r12_taunt_limits_attacks_but_not_spells_or_hero_powers() -> None:
    g = S.prepared()
    boar = S.summon(g, 1, "CS2_171")
    senjin = S.summon(g, 2, "CS2_179")
    wisp = S.summon(g, 2, "CS2_231")
    assert {a.target for a in g.legal_actions() if a.entity == boar} == {senjin}
    fireball = S.give(g, 1, "CS2_029")
    assert {g.hero[2], wisp} <= {a.target for a in g.legal_actions() if a.entity == fireball}
    assert {g.hero[2], wisp} <= {a.target for a in g.legal_actions() if a.kind == Kind.POWER}
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 29
