"""An aura may buff a weapon, and a weapon coming or going updates the auras (Spiteful
Smith: "Your weapon has +2 Attack while this is damaged", an enrage whose bonus sits on
the weapon; ``dsl.WHILE`` with ``dsl.is_damaged``)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import ATK

ROGUE = "HERO_03"


def test_equipping_while_enraged_buffs_the_new_weapon() -> None:
    g = S.prepared(hero1=ROGUE)
    smith = S.summon(g, 1, "CS2_221")
    S.hit(g, smith, 1)
    S.power(g)
    knife = g.weapon[1]
    assert g.ents[knife][ATK] == 3 and g.attack_value(g.hero[1]) == 3


def test_a_replaced_weapon_loses_the_bonus_and_the_new_one_gets_it() -> None:
    g = S.prepared(hero1=ROGUE)
    smith = S.summon(g, 1, "CS2_221")
    S.power(g)
    old = g.weapon[1]
    S.hit(g, smith, 1)
    assert g.ents[old][ATK] == 3
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "CS2_106"))  # Fiery War Axe replaces the Knife
    new = g.weapon[1]
    assert new != old and not (g.ents[old].aura or {}).get(ATK)
    assert g.ents[new][ATK] == 5


def test_healed_or_dead_the_bonus_goes() -> None:
    g = S.prepared(hero1=ROGUE)
    smith = S.summon(g, 1, "CS2_221")
    S.power(g)
    knife = g.weapon[1]
    S.hit(g, smith, 2)
    assert g.ents[knife][ATK] == 3
    g.heal(smith, smith, 2)
    S.resolve(g)
    assert g.ents[knife][ATK] == 1
    S.hit(g, smith, 1)
    assert g.ents[knife][ATK] == 3
    S.hit(g, smith, 5)
    assert g.ents[knife][ATK] == 1


def test_the_bonus_is_on_the_weapon_not_the_hero() -> None:
    g = S.prepared(hero1=ROGUE)
    smith = S.summon(g, 1, "CS2_221")
    S.power(g)
    S.hit(g, smith, 1)
    assert g.ents[g.hero[1]][ATK] == 0 and g.attack_value(g.hero[1]) == 3
    S.end_turn(g)  # sheathed on the opponent's turn
    assert g.attack_value(g.hero[1]) == 0
