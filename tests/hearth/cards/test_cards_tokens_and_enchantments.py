"""Tokens and enchantments: each one created the way the game creates it.

The enchantment deltas asserted here are the card texts of patch 17.6 (the 17.6 CardDefs
carry no stat values for enchantments, so the declarations in games/hearth/cards hold them).
"""

from __future__ import annotations

import json
from pathlib import Path

from hearth_cardtest import atk, dead, stats

from games.hearth import scenario as S
from games.hearth.carddb import DATA_FILE
from games.hearth.enums import ATTACHED, CARDRACE, ONE_TURN_EFFECT, R_BEAST, R_MURLOC, TAUNT
from games.hearth.game import State
from games.hearth.script import SCRIPTS


def attached(g: State, eid: int) -> list[str]:
    return [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == eid]


# ------------------------------------------------------------------------------ tokens


def test_ex1_506a_murloc_scout() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_506"))
    scout = g.board[1][-1]
    assert g.ents[scout].card.id == "EX1_506a" and stats(g, scout) == (1, 1)
    assert g.ents[scout][CARDRACE] == R_MURLOC


def test_cs2_boar_boar() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "CS2_196"))
    boar = g.board[1][-1]
    assert g.ents[boar].card.id == "CS2_boar" and stats(g, boar) == (1, 1)
    assert g.ents[boar][CARDRACE] == R_BEAST


def test_skele21_damaged_golem() -> None:
    g = S.prepared()
    golem = S.summon(g, 1, "EX1_556")
    g.destroy(golem)
    g._deaths()
    (token,) = g.board[1]
    assert g.ents[token].card.id == "skele21" and stats(g, token) == (2, 1)


def test_cs2_tk1_sheep() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_022"), yeti)
    assert g.ents[yeti].card.id == "CS2_tk1" and stats(g, yeti) == (1, 1)
    assert g.ents[yeti][CARDRACE] == R_BEAST


def test_cs2_mirror_mirror_image() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "CS2_027"))
    for img in g.board[1]:
        assert g.ents[img].card.id == "CS2_mirror" and stats(g, img) == (0, 2)
        assert g.ents[img][TAUNT] == 1


def test_cs2_101t_silver_hand_recruit() -> None:
    g = S.prepared(hero1="HERO_04")
    S.power(g)
    (recruit,) = g.board[1]
    assert g.ents[recruit].card.id == "CS2_101t" and stats(g, recruit) == (1, 1)


# ------------------------------------------------------------------------------ enchantments


def test_cs2_122e_raid_leader_aura_gives_one_attack() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    S.summon(g, 1, "CS2_122")
    assert stats(g, wisp) == (2, 1)


def test_cs2_222o_stormwind_champion_aura_gives_one_one() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    S.summon(g, 1, "CS2_222")
    assert stats(g, wisp) == (2, 2)


def test_ex1_019e_clerics_blessing() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_019"), wisp)
    assert attached(g, wisp) == ["EX1_019e"] and stats(g, wisp) == (2, 2)


def test_cs2_226e_frostwolf_banner_scales_with_the_count() -> None:
    g = S.prepared()
    for _ in range(5):
        S.summon(g, 1, "CS2_231")
    warlord = S.give(g, 1, "CS2_226")
    S.play(g, warlord)
    assert attached(g, warlord) == ["CS2_226e"] and stats(g, warlord) == (9, 9)


def test_cs2_105e_heroic_strike_is_a_one_turn_effect() -> None:
    g = S.prepared(hero1="HERO_01")
    S.play(g, S.give(g, 1, "CS2_105"))
    assert attached(g, g.hero[1]) == ["CS2_105e"]
    assert g.ents[g.enchants[-1]][ONE_TURN_EFFECT] == 1
    S.end_turn(g)
    assert attached(g, g.hero[1]) == [] and atk(g, g.hero[1]) == 0


def test_cs2_188o_inspired_is_a_one_turn_effect() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_188"), wisp)
    assert attached(g, wisp) == ["CS2_188o"] and atk(g, wisp) == 3
    S.end_turn(g)
    assert attached(g, wisp) == [] and atk(g, wisp) == 1


def test_cs2_092e_blessing_of_kings() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_092"), wisp)
    assert attached(g, wisp) == ["CS2_092e"] and stats(g, wisp) == (5, 5)


def test_cs2_004e_power_word_shield() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    S.play(g, S.give(g, 1, "CS2_004"), wisp)
    assert attached(g, wisp) == ["CS2_004e"] and stats(g, wisp) == (1, 3)


def test_ex1_399e_berserking_stacks() -> None:
    g = S.prepared()
    berserker = S.summon(g, 1, "EX1_399")
    S.play(g, S.give(g, 1, "EX1_400"))
    S.play(g, S.give(g, 1, "EX1_400"))
    S.play(g, S.give(g, 1, "EX1_400"))
    assert attached(g, berserker) == ["EX1_399e"] * 3 and stats(g, berserker) == (11, 4)


def test_ex1_162o_strength_of_the_pack() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    wolf = S.summon(g, 1, "EX1_162")
    assert atk(g, wisp) == 2 and atk(g, wolf) == 2
    S.play(g, S.give(g, 1, "CS2_029"), wolf)
    assert dead(g, wolf) and atk(g, wisp) == 1


def test_ex1_508o_grimscale_aura() -> None:
    g = S.prepared()
    raider = S.summon(g, 1, "CS2_168")
    S.summon(g, 1, "EX1_508")
    assert stats(g, raider) == (3, 1)


def test_ex1_393e_enraged() -> None:
    g = S.prepared()
    amani = S.summon(g, 1, "EX1_393")
    S.play(g, S.give(g, 1, "EX1_400"))
    assert stats(g, amani) == (5, 2)


def test_every_declared_card_has_a_test_named_after_it() -> None:
    # Declared: a script (or vanilla) next to its id; cards.json also holds the cards that
    # are not implemented yet, and those are not playable.
    ids = [c["id"] for c in json.loads(DATA_FILE.read_text(encoding="utf-8"))["cards"]
           if c["id"] in SCRIPTS]
    names = " ".join(
        line.split("def ", 1)[1].split("(", 1)[0]
        for path in Path(__file__).parent.glob("test_*.py")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("def test_")
    )
    assert [i for i in ids if i.lower() not in names] == []
