"""Weapons changed by minions: Durability removed (``damage_weapon``: DAMAGE on the weapon,
broken in the death phase), Durability and Attack added by an enchantment (DURABILITY is
the maximum), and the Durability left read as a number (``dsl.Durability``)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.dsl import ENEMY_WEAPON, FRIENDLY_WEAPON, Ctx, Durability, TagSum
from games.hearth.enums import ATK, DAMAGE, DURABILITY, Z_GRAVEYARD, ZONE


def test_removing_durability_breaks_the_weapon_in_the_death_phase() -> None:
    g = S.prepared()
    axe = g.equip(2, "CS2_106")  # 3/2
    g.damage_weapon(axe, 1)
    assert g.ents[axe][DAMAGE] == 1 and g.weapon[2] == axe
    g.damage_weapon(axe, 1)
    assert g.weapon[2] == axe  # marked, not yet gone
    S.resolve(g)
    assert g.weapon[2] == 0 and g.ents[axe][ZONE] == Z_GRAVEYARD


def test_damage_weapon_ignores_what_is_not_an_equipped_weapon() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    g.damage_weapon(wisp, 1)
    assert not g.ents[wisp][DAMAGE]


def test_an_enchantment_adds_attack_and_durability() -> None:
    g = S.prepared()
    axe = g.equip(1, "CS2_106")
    g.ents[axe].tags[DAMAGE] = 1
    g.add_enchantment("NEW1_024o", axe, axe)
    assert g.ents[axe][ATK] == 4 and g.ents[axe][DURABILITY] == 3
    assert Durability(FRIENDLY_WEAPON).eval(g, Ctx(0, 0, 1)) == 2
    assert TagSum(FRIENDLY_WEAPON, ATK).eval(g, Ctx(0, 0, 1)) == 4
    assert Durability(ENEMY_WEAPON).eval(g, Ctx(0, 0, 1)) == 0  # no weapon: 0
