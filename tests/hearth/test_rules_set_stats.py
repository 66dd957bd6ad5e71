"""Set stats ("Change a minion's Attack/Health to 1"): an enchantment that sets the value,
auras still apply on top, later buffs add to it, Silence undoes it; setting Health also
clears the damage."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import ATK, HEALTH, SCRIPT_DATA_NUM_1, SCRIPT_DATA_NUM_2


def test_setting_attack_lowers_it_and_silence_restores_it() -> None:
    g = S.prepared()
    ogre = S.summon(g, 1, "CS2_200")
    ench = g.set_stat("EX1_360e", ogre, g.hero[1], ATK, 1)
    assert g.ents[ogre][ATK] == 1
    assert g.ents[ench][SCRIPT_DATA_NUM_1] == 5 and g.ents[ench][SCRIPT_DATA_NUM_2] == 1
    g.add_enchantment("CS2_092e", ogre, g.hero[1])  # +4/+4 after: 5
    assert g.ents[ogre][ATK] == 5
    g.silence(ogre)
    assert g.ents[ogre][ATK] == 6 and g.health(ogre) == 7


def test_setting_raises_a_lower_value() -> None:
    g = S.prepared()
    image = S.summon(g, 1, "CS2_mirror")  # 0/2
    ench = g.set_stat("EX1_360e", image, g.hero[1], ATK, 1)
    assert g.ents[image][ATK] == 1 and g.ents[ench][SCRIPT_DATA_NUM_2] == 0
    g.silence(image)
    assert g.ents[image][ATK] == 0


def test_auras_apply_on_top_of_a_set_value() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    leader = S.summon(g, 1, "CS2_122")  # Raid Leader: +1 Attack
    g.set_stat("EX1_360e", yeti, g.hero[1], ATK, 1)
    S.resolve(g)
    assert g.ents[yeti][ATK] == 2
    S.hit(g, leader, 5)
    assert g.ents[yeti][ATK] == 1


def test_setting_health_clears_damage_and_silence_gives_the_health_back() -> None:
    g = S.prepared()
    ogre = S.summon(g, 2, "CS2_200")
    S.hit(g, ogre, 4)
    g.set_stat("CS2_084e", ogre, g.hero[1], HEALTH, 1)
    assert g.ents[ogre][HEALTH] == 1 and g.health(ogre) == 1
    g.silence(ogre)
    assert g.ents[ogre][HEALTH] == 7 and g.health(ogre) == 7  # the old damage is gone


def test_nothing_happens_off_the_board() -> None:
    g = S.prepared()
    card = S.give(g, 1, "CS2_200")
    assert g.set_stat("EX1_360e", card, g.hero[1], ATK, 1) == 0
    assert g.ents[card][ATK] == 6
