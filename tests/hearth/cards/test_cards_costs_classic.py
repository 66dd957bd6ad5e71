"""One scenario per cost-changing card (games/hearth/cards/costs_classic.py); figures from
fireplace's tests/test_classic.py and SabberStone's Expert1CardsGenTest where they agree
with the 17.6 text (docs/hearth-cards/costs.md)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import ATTACHED, RESOURCES_USED
from games.hearth.game import State

FIREBALL, FROSTBOLT, MOONFIRE, WISP = "CS2_029", "CS2_024", "CS2_008", "CS2_231"
FOOTMAN, FROSTWOLF, YETI, SILENCE = "CS1_042", "CS2_121", "CS2_182", "EX1_332"
LIGHTS_JUSTICE, WAR_AXE = "CS2_091", "CS2_106"


def playable(g: State, eid: int) -> bool:
    return any(a.kind == Kind.PLAY and a.entity == eid for a in g.legal_actions())


def used(g: State, p: int = 1) -> int:
    return g.ents[1 + p][RESOURCES_USED]


def test_ex1_608_sorcerers_apprentice_spells_cost_1_less() -> None:
    g = S.prepared()
    fireball = S.give(g, 1, FIREBALL)
    moonfire = S.give(g, 1, MOONFIRE)
    wisp = S.give(g, 1, WISP)
    theirs = S.give(g, 2, FIREBALL)
    a1 = S.give(g, 1, "EX1_608")
    S.play(g, a1)
    assert (g.cost(fireball), g.cost(moonfire), g.cost(wisp), g.cost(theirs)) == (3, 0, 0, 4)
    S.play(g, S.give(g, 1, "EX1_608"))
    assert g.cost(fireball) == 2
    g.destroy(a1)
    S.resolve(g)
    assert g.cost(fireball) == 3
    S.play(g, fireball, target=g.hero[2])
    assert used(g) == 2 + 2 + 3


def test_ex1_612_kirin_tor_mage_next_secret_costs_0() -> None:
    g = S.prepared()
    counterspell = S.give(g, 1, "EX1_287")
    vaporize = S.give(g, 1, "EX1_594")
    missiles = S.give(g, 1, "EX1_277")
    S.play(g, S.give(g, 1, "EX1_612"))
    assert (g.cost(counterspell), g.cost(vaporize), g.cost(missiles)) == (0, 0, 1)
    before = used(g)
    S.play(g, counterspell)
    assert used(g) == before  # paid (0)
    assert g.cost(vaporize) == 3  # used up by the first Secret
    S.play(g, S.give(g, 1, "EX1_612"))
    assert g.cost(vaporize) == 0
    S.end_turn(g)
    assert g.cost(vaporize) == 3  # "this turn" only
    S.end_turn(g)
    assert g.cost(vaporize) == 3


def test_cs2_227_venture_co_mercenary_your_minions_cost_3_more() -> None:
    g = S.prepared()
    fireball = S.give(g, 1, FIREBALL)
    wisp = S.give(g, 1, WISP)
    theirs = S.give(g, 2, WISP)
    venture = S.give(g, 1, "CS2_227")
    S.play(g, venture)
    assert (g.cost(wisp), g.cost(fireball), g.cost(theirs)) == (3, 4, 0)
    second = S.give(g, 1, "CS2_227")
    assert g.cost(second) == 5 + 3
    S.set_mana(g, 1, 10)
    S.play(g, second)
    assert g.cost(wisp) == 6
    S.play(g, S.give(g, 1, SILENCE), target=venture)
    assert g.cost(wisp) == 3


def test_ex1_076_pint_sized_summoner_first_minion_each_turn_costs_1_less() -> None:
    g = S.prepared()
    footman1 = S.give(g, 1, FOOTMAN)
    footman2 = S.give(g, 1, FOOTMAN)
    frostwolf = S.give(g, 1, FROSTWOLF)
    moonfire = S.give(g, 1, MOONFIRE)
    S.summon(g, 1, "EX1_076")  # summoned, not played: no minion played yet
    assert (g.cost(footman1), g.cost(frostwolf), g.cost(moonfire)) == (0, 1, 0)
    S.play(g, footman1)
    assert used(g) == 0
    assert (g.cost(footman2), g.cost(frostwolf)) == (1, 2)
    S.end_turn(g)
    S.end_turn(g)
    assert (g.cost(footman2), g.cost(frostwolf)) == (0, 1)
    S.summon(g, 1, "EX1_076")
    assert g.cost(frostwolf) == 0  # two Summoners: (2) less


def test_ex1_076_pint_sized_summoner_played_is_the_first_minion() -> None:
    g = S.prepared()
    raptor = S.give(g, 1, "CS2_172")
    S.play(g, S.give(g, 1, "EX1_076"))
    assert g.cost(raptor) == 2  # SabberStone: the Summoner itself was this turn's first
    S.end_turn(g)
    S.end_turn(g)
    assert g.cost(raptor) == 1


def test_ex1_105_mountain_giant_1_less_per_other_card_in_hand() -> None:
    g = S.prepared()
    giant = S.give(g, 1, "EX1_105")
    assert g.cost(giant) == 12
    wisps = [S.give(g, 1, WISP) for _ in range(5)]
    assert g.cost(giant) == 7
    S.play(g, wisps[0])
    assert g.cost(giant) == 8
    S.end_turn(g)
    S.end_turn(g)  # drew a card
    assert g.cost(giant) == 12 - (len(g.hand[1]) - 1) == 7


def test_ex1_586_sea_giant_1_less_per_other_minion() -> None:
    g = S.prepared()
    giant = S.give(g, 1, "EX1_586")
    assert g.cost(giant) == 10
    S.play(g, S.give(g, 1, WISP))
    assert g.cost(giant) == 9
    for _ in range(3):
        S.summon(g, 2, WISP)
    assert g.cost(giant) == 6
    for _ in range(6):
        S.summon(g, 1, WISP)
    for _ in range(4):
        S.summon(g, 2, WISP)
    assert g.cost(giant) == 0  # 14 minions: never below (0)
    assert playable(g, giant) is False  # the board is full
    g.destroy(g.board[1][0])
    S.resolve(g)
    assert g.cost(giant) == 0 and playable(g, giant)


def test_ex1_620_molten_giant_1_less_per_damage_taken() -> None:
    g = S.prepared()
    molten = S.give(g, 1, "EX1_620")
    assert g.cost(molten) == 20
    S.set_mana(g, 1, 5)
    S.hit(g, g.hero[1], 14)
    assert g.cost(molten) == 6 and not playable(g, molten)
    S.hit(g, g.hero[1], 1)
    assert g.cost(molten) == 5 and playable(g, molten)
    S.play(g, S.give(g, 1, "CS2_007"), target=g.hero[1])  # Healing Touch: +8
    assert g.cost(molten) == 13
    theirs = S.give(g, 2, "EX1_620")
    assert g.cost(theirs) == 20


def test_ex1_616_mana_wraith_all_minions_cost_1_more() -> None:
    g = S.prepared()
    wisp1, wisp2 = S.give(g, 1, WISP), S.give(g, 2, WISP)
    fireball = S.give(g, 1, FIREBALL)
    weapon = S.give(g, 2, LIGHTS_JUSTICE)
    wraith = S.give(g, 1, "EX1_616")
    S.play(g, wraith)
    assert (g.cost(wisp1), g.cost(wisp2), g.cost(fireball), g.cost(weapon)) == (1, 1, 4, 1)
    assert g.cost(g.power[1]) == g.cost(g.power[2]) == 2
    g.destroy(wraith)
    S.resolve(g)
    assert g.cost(wisp1) == g.cost(wisp2) == 0


def test_new1_022_dread_corsair_1_less_per_weapon_attack() -> None:
    g = S.prepared()
    corsair = S.give(g, 1, "NEW1_022")
    assert g.cost(corsair) == 4
    S.play(g, S.give(g, 1, LIGHTS_JUSTICE))
    assert g.cost(corsair) == 3
    axe = S.give(g, 1, WAR_AXE)
    S.play(g, axe)
    assert g.cost(corsair) == 1
    g.destroy(axe)
    S.resolve(g)
    assert g.cost(corsair) == 4


def test_new1_029_millhouse_manastorm_enemy_spells_cost_0_next_turn() -> None:
    g = S.prepared()
    mine = S.give(g, 1, FIREBALL)
    theirs = S.give(g, 2, FIREBALL)
    minion = S.give(g, 2, YETI)
    S.play(g, S.give(g, 1, "NEW1_029"))
    assert (g.cost(mine), g.cost(theirs), g.cost(minion)) == (4, 0, 4)
    S.end_turn(g)
    drawn = S.give(g, 2, FROSTBOLT)
    assert g.cost(theirs) == g.cost(drawn) == 0
    S.play(g, theirs, target=g.hero[1])
    assert g.cost(drawn) == 0  # not used up: every spell this turn
    S.end_turn(g)
    assert g.cost(drawn) == 2


def test_cs2_053_far_sight_drawn_card_costs_3_less() -> None:
    g = S.prepared(deck1=[YETI] * 10)
    far_sight = S.give(g, 1, "CS2_053")
    S.play(g, far_sight)
    (drawn,) = g.hand[1]
    assert g.card_id(drawn) == YETI and g.cost(drawn) == 1
    S.play(g, drawn)
    assert used(g) == 3 + 1


def test_cs2_053_far_sight_never_below_0() -> None:
    g = S.prepared(deck1=[FOOTMAN] * 10)
    S.play(g, S.give(g, 1, "CS2_053"))
    (drawn,) = g.hand[1]
    assert g.cost(drawn) == 0


def test_ex1_315_summoning_portal_2_less_but_not_less_than_1() -> None:
    g = S.prepared()
    wisp = S.give(g, 1, WISP)
    weapon = S.give(g, 1, LIGHTS_JUSTICE)
    molten = S.give(g, 1, "EX1_620")
    footman = S.give(g, 1, FOOTMAN)
    frostwolf = S.give(g, 1, FROSTWOLF)
    yeti = S.give(g, 1, YETI)
    portal = S.give(g, 1, "EX1_315")
    S.play(g, portal)
    got = [g.cost(i) for i in (wisp, weapon, molten, footman, frostwolf, yeti)]
    assert got == [0, 1, 18, 1, 1, 2]
    S.hit(g, g.hero[1], 1)
    assert g.cost(molten) == 17
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_315"))
    assert g.cost(molten) == 20 - 2 - 2 - 1 and g.cost(yeti) == 1
    S.play(g, S.give(g, 1, SILENCE), target=portal)
    assert g.cost(yeti) == 2 and g.cost(frostwolf) == 1


def test_ex1_145_preparation_next_spell_costs_2_less() -> None:
    g = S.prepared()
    prep1, prep2 = S.give(g, 1, "EX1_145"), S.give(g, 1, "EX1_145")
    sprint = S.give(g, 1, "CS2_077")
    eviscerate = S.give(g, 1, "EX1_124")
    footman = S.give(g, 1, FOOTMAN)
    theirs = S.give(g, 2, FIREBALL)
    S.play(g, prep1)
    assert (g.cost(sprint), g.cost(eviscerate), g.cost(footman), g.cost(theirs)) == (5, 0, 1, 4)
    S.play(g, sprint)
    assert used(g) == 5
    assert g.cost(eviscerate) == 2  # used up
    S.play(g, prep2)
    assert g.cost(eviscerate) == 0
    S.end_turn(g)
    assert g.cost(eviscerate) == 2  # this turn only


# --- the enchantments: real entities where the card data has one on a card or a player


def enchants_of(g: State, card_id: str) -> list[int]:
    return [i for i in g.enchants if g.card_id(i) == card_id]


def test_cs2_053e_far_sight_enchantment_sits_on_the_drawn_card_and_goes_with_a_spell() -> None:
    g = S.prepared(deck1=[FIREBALL] * 5)
    S.play(g, S.give(g, 1, "CS2_053"))
    (drawn,) = g.hand[1]
    (ench,) = enchants_of(g, "CS2_053e")
    assert g.tag(ench, ATTACHED) == drawn and g.cost(drawn) == 1
    S.play(g, drawn, target=g.hero[2])
    assert enchants_of(g, "CS2_053e") == []  # used: nothing left attached to a spent spell


def test_ex1_612o_power_of_the_kirin_tor_on_the_player_until_used() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_612"))
    (ench,) = enchants_of(g, "EX1_612o")
    assert g.tag(ench, ATTACHED) == 2  # player 1's entity
    S.play(g, S.give(g, 1, FIREBALL), target=g.hero[2])  # not a Secret: kept
    assert enchants_of(g, "EX1_612o") == [ench]
    S.play(g, S.give(g, 1, "EX1_287"))  # Counterspell
    assert enchants_of(g, "EX1_612o") == []


def test_ex1_145o_preparation_on_the_player_until_the_end_of_turn() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "EX1_145"))
    (ench,) = enchants_of(g, "EX1_145o")
    S.play(g, S.give(g, 1, WISP))  # a minion: kept
    assert enchants_of(g, "EX1_145o") == [ench]
    S.end_turn(g)
    assert enchants_of(g, "EX1_145o") == []


def test_new1_029t_kill_millhouse_lasts_through_the_enemy_turn() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, "NEW1_029"))
    (ench,) = enchants_of(g, "NEW1_029t")
    S.end_turn(g)
    assert enchants_of(g, "NEW1_029t") == [ench]
    S.end_turn(g)
    assert enchants_of(g, "NEW1_029t") == []
