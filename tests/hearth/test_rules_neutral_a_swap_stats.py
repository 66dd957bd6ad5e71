"""Swapping Attack and Health (Crazed Alchemist, ``swap_attack_health``): the current
values swap (auras and damage counted), become the minion's own values with its Health
undamaged, auras apply on top, a 0-Attack minion dies, and Silence takes the swap back
while keeping what came after it."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import (
    ATK,
    HEALTH,
    SCRIPT_DATA_NUM_1,
    SCRIPT_DATA_NUM_2,
    SCRIPT_DATA_NUM_3,
    SCRIPT_DATA_NUM_4,
    Z_GRAVEYARD,
    ZONE,
)
from games.hearth.game import State


def _stats(g: State, eid: int) -> tuple[int, int]:
    return g.ents[eid][ATK], g.health(eid)


def test_current_values_swap_and_the_damage_goes() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.hit(g, yeti, 2)  # 4/3
    ench = g.swap_attack_health("EX1_059e", yeti, yeti)
    S.resolve(g)
    assert _stats(g, yeti) == (3, 4) and g.ents[yeti].tags.get(HEALTH) == 4
    e = g.ents[ench]
    assert (e[SCRIPT_DATA_NUM_1], e[SCRIPT_DATA_NUM_2]) == (3, 4)
    assert (e[SCRIPT_DATA_NUM_3], e[SCRIPT_DATA_NUM_4]) == (4, 5)


def test_auras_are_counted_and_still_apply_on_top() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    leader = S.summon(g, 1, "CS2_122")  # Raid Leader: the Wisp is 2/1
    g.swap_attack_health("EX1_059e", wisp, wisp)
    S.resolve(g)
    assert _stats(g, wisp) == (2, 2)  # own 1/2, +1 Attack from the aura
    S.hit(g, leader, 5)
    assert _stats(g, wisp) == (1, 2)


def test_a_zero_attack_minion_dies() -> None:
    g = S.prepared()
    bot = S.summon(g, 1, "EX1_006")  # 0/3
    g.swap_attack_health("EX1_059e", bot, bot)
    S.resolve(g)
    assert g.ents[bot][ZONE] == Z_GRAVEYARD


def test_silence_undoes_the_swap_and_the_buffs_after_it() -> None:
    g = S.prepared()
    ogre = S.summon(g, 1, "CS2_200")  # 6/7
    g.swap_attack_health("EX1_059e", ogre, ogre)  # 7/6
    g.add_enchantment("CS2_092e", ogre, ogre)  # Blessing of Kings: 11/10
    S.resolve(g)
    assert _stats(g, ogre) == (11, 10)
    g.silence(ogre)
    S.resolve(g)
    assert _stats(g, ogre) == (6, 7)  # its printed 6/7


def test_damage_after_the_swap_stays_through_silence() -> None:
    g = S.prepared()
    snapjaw = S.summon(g, 1, "CS2_119")  # 2/7 -> 7/2
    g.swap_attack_health("EX1_059e", snapjaw, snapjaw)
    S.hit(g, snapjaw, 1)
    g.silence(snapjaw)
    S.resolve(g)
    assert _stats(g, snapjaw) == (2, 6)


def test_swapping_twice_returns_the_values() -> None:
    g = S.prepared()
    raptor = S.summon(g, 1, "CS2_172")  # 3/2
    g.swap_attack_health("EX1_059e", raptor, raptor)
    g.swap_attack_health("EX1_059e", raptor, raptor)
    S.resolve(g)
    assert _stats(g, raptor) == (3, 2)
    g.silence(raptor)
    S.resolve(g)
    assert _stats(g, raptor) == (3, 2)


def test_a_faceless_copy_undoes_the_same_swap() -> None:
    g = S.prepared()
    snapjaw = S.summon(g, 1, "CS2_119")  # 2/7
    g.swap_attack_health("EX1_059e", snapjaw, snapjaw)
    copy = S.summon(g, 1, "CS2_231")
    g.transform_copy(copy, snapjaw)
    S.resolve(g)
    assert _stats(g, copy) == (7, 2)
    g.silence(copy)
    S.resolve(g)
    assert _stats(g, copy) == (2, 7)
