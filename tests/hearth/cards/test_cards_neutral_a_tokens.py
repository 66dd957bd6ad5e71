"""The tokens and enchantments of helper neutralA's cards, each on its own."""

from __future__ import annotations

from hearth_cardtest import atk, stats

from games.hearth import scenario as S
from games.hearth.enums import ATK, ATTACHED, TAUNT
from games.hearth.game import State


def _on(g: State, eid: int) -> list[str]:
    return [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == eid]


def test_ex1_014t_bananas_give_a_minion_1_1() -> None:
    g = S.prepared()
    bananas = S.give(g, 1, "EX1_014t")
    assert not [a for a in g.legal_actions() if a.entity == bananas]  # needs a minion
    yeti = S.summon(g, 2, "CS2_182")
    S.play(g, bananas, yeti)
    assert stats(g, yeti) == (5, 6) and g.mana(1) == 9


def test_ex1_014te_bananas_enchantment_is_1_1_until_silenced() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    g.add_enchantment("EX1_014te", wisp, wisp)
    assert stats(g, wisp) == (2, 2) and _on(g, wisp) == ["EX1_014te"]
    S.play(g, S.give(g, 1, "CS2_203"), wisp)
    assert stats(g, wisp) == (1, 1)


def test_ex1_004e_elunes_grace_is_1_health() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    g.add_enchantment("EX1_004e", wisp, wisp)
    assert stats(g, wisp) == (1, 2)


def test_ex1_043e_hour_of_twilight_is_health_times_its_scale() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    g.add_enchantment("EX1_043e", wisp, wisp, 3)
    assert stats(g, wisp) == (1, 4)


def test_ex1_046e_tempered_is_2_attack_this_turn() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    g.add_enchantment("EX1_046e", wisp, wisp)
    assert atk(g, wisp) == 3
    S.end_turn(g)
    assert atk(g, wisp) == 1 and _on(g, wisp) == []


def test_ex1_055o_empowered_is_2_attack_this_turn() -> None:
    g = S.prepared()
    addict = S.summon(g, 1, "EX1_055")
    g.add_enchantment("EX1_055o", addict, addict)
    assert atk(g, addict) == 3
    S.end_turn(g)
    assert atk(g, addict) == 1


def test_ex1_059e_experiments_swaps_and_silence_undoes_it() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    g.swap_attack_health("EX1_059e", yeti, yeti)
    assert stats(g, yeti) == (5, 4) and _on(g, yeti) == ["EX1_059e"]
    S.play(g, S.give(g, 1, "CS2_203"), yeti)
    assert stats(g, yeti) == (4, 5) and _on(g, yeti) == []


def test_ex1_080o_keeping_secrets_is_1_1() -> None:
    g = S.prepared()
    keeper = S.summon(g, 1, "EX1_080")
    g.add_enchantment("EX1_080o", keeper, keeper)
    assert stats(g, keeper) == (2, 3)


def test_ex1_093e_hand_of_argus_is_1_1_and_taunt() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    g.add_enchantment("EX1_093e", wisp, wisp)
    assert stats(g, wisp) == (2, 2) and g.ents[wisp][TAUNT]
    S.play(g, S.give(g, 1, "CS2_203"), wisp)
    assert stats(g, wisp) == (1, 1) and not g.ents[wisp][TAUNT]


def test_ex1_009e_enraged_is_5_attack() -> None:
    g = S.prepared()
    chicken = S.summon(g, 1, "EX1_009")
    S.hit(g, g.hero[2], 1)  # damage elsewhere: no enrage
    assert atk(g, chicken) == 1
    g2 = S.prepared()
    raptor = S.summon(g2, 1, "CS2_172")
    g2.add_enchantment("EX1_009e", raptor, raptor)
    assert atk(g2, raptor) == 8


def test_cs2_221e_sharp_is_2_attack_on_the_weapon() -> None:
    g = S.prepared(hero1="HERO_03")
    S.power(g)
    knife = g.weapon[1]
    g.add_enchantment("CS2_221e", knife, knife)
    assert g.ents[knife][ATK] == 3 and g.attack_value(g.hero[1]) == 3


def test_cs2_152_squire_is_a_2_2() -> None:
    g = S.prepared()
    squire = S.summon(g, 1, "CS2_152")
    assert stats(g, squire) == (2, 2)
