"""The last Classic cards: Rogue's returns, Stealth until your next turn and combos
(games/hearth/cards/rogue_classic.py), Freezing Trap (cards/secrets.py), the Brewmasters,
Ysera and Dream (cards/neutral_classic_b.py). Expected figures follow the card text and
the fireplace / SabberStone tests; docs/hearth-cards/rogue-return.md has the choices."""

from __future__ import annotations

from hearth_cardtest import card_ids, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.carddb import load_cards
from games.hearth.enums import (
    ATTACHED,
    POISONOUS,
    STEALTH,
    Z_GRAVEYARD,
    Z_HAND,
    Z_SETASIDE,
    ZONE,
)
from games.hearth.game import State

ROGUE = "HERO_03"


def _coin(g: State) -> None:
    """Play a card first, so the next one's Combo is on."""
    S.play(g, S.give(g, g.current, "GAME_005"))


def _attached(g: State, eid: int) -> list[str]:
    return [g.ents[i].card.id for i in g.enchants if g.ents[i][ATTACHED] == eid]


def test_ex1_581_sap_returns_an_enemy_minion_to_its_owners_hand() -> None:
    g = S.prepared(hero1=ROGUE)
    yeti = S.summon(g, 2, "CS2_182")
    mine = S.summon(g, 1, "CS2_231")
    sap = S.give(g, 1, "EX1_581")
    assert play_targets(g, sap) == {yeti}
    S.hit(g, yeti, 2)
    S.play(g, sap, yeti)
    assert g.board[2] == [] and card_ids(g, g.hand[2]) == ["CS2_182"]
    assert g.health(g.hand[2][0]) == 5 and g.board[1] == [mine]


def test_new1_004_vanish_returns_every_minion_and_burns_what_does_not_fit() -> None:
    g = S.prepared(hero1=ROGUE)
    a = S.summon(g, 1, "CS2_182")
    b = S.summon(g, 2, "EX1_096")  # Loot Hoarder: no deathrattle when burned
    c = S.summon(g, 2, "CS2_231")
    for _ in range(9):
        S.give(g, 2, "CS2_231")
    deck = len(g.deck[2])
    S.play(g, S.give(g, 1, "NEW1_004"))
    assert g.board[1] == [] and g.board[2] == []
    assert card_ids(g, g.hand[1]) == ["CS2_182"] and g.ents[a][ZONE] == Z_SETASIDE
    # In order of play: the Hoarder fills the hand, the Wisp goes to the graveyard.
    assert card_ids(g, g.hand[2])[-1] == "EX1_096" and len(g.hand[2]) == 10
    assert g.ents[b][ZONE] == Z_SETASIDE and g.ents[c][ZONE] == Z_GRAVEYARD
    assert len(g.deck[2]) == deck


def test_ex1_144_shadowstep_and_gbl_002e_the_returned_card_costs_2_less() -> None:
    g = S.prepared(hero1=ROGUE)
    ogre = S.summon(g, 1, "CS2_200")  # Boulderfist Ogre (6)
    S.summon(g, 2, "CS2_231")
    step = S.give(g, 1, "EX1_144")
    assert play_targets(g, step) == {ogre}
    S.hit(g, ogre, 3)
    S.play(g, step, ogre)
    (back,) = g.hand[1]
    assert g.cost(back) == 4 and _attached(g, back) == ["GBL_002e"]
    assert stats(g, back) == (6, 7)
    S.play(g, back)
    assert g.mana(1) == 10 - 4


def test_new1_005_kidnapper_returns_a_minion_with_combo_only() -> None:
    g = S.prepared(hero1=ROGUE)
    yeti = S.summon(g, 2, "CS2_182")
    plain = S.give(g, 1, "NEW1_005")
    assert play_targets(g, plain) == {0}
    S.play(g, plain)
    assert g.board[2] == [yeti]
    S.end_turn(g)
    S.end_turn(g)
    _coin(g)
    combo = S.give(g, 1, "NEW1_005")
    assert yeti in play_targets(g, combo)
    S.play(g, combo, yeti)
    assert g.board[2] == [] and "CS2_182" in card_ids(g, g.hand[2])


def test_ex1_137_headcrack_deals_2_and_with_combo_comes_back_next_turn() -> None:
    g = S.prepared(hero1=ROGUE)
    alone = S.give(g, 1, "EX1_137")
    S.play(g, alone)
    assert g.health(g.hero[2]) == 28
    crack = S.give(g, 1, "EX1_137")
    S.play(g, crack)  # the first Headcrack was played before: combo
    assert g.health(g.hero[2]) == 26
    S.end_turn(g)
    S.end_turn(g)
    (back,) = [i for i in g.hand[1] if g.ents[i].card.id == "EX1_137"]  # one copy back
    assert g.ents[alone][ZONE] == Z_GRAVEYARD and g.ents[crack][ZONE] == Z_GRAVEYARD
    S.summon(g, 1, "CS2_197")  # Ogre Magi: Spell Damage +1
    S.play(g, back)
    assert g.health(g.hero[2]) == 23


def test_ex1_128_conceal_and_ex1_128e_stealth_until_your_next_turn() -> None:
    g = S.prepared(hero1=ROGUE)
    yeti = S.summon(g, 1, "CS2_182")
    assassin = S.summon(g, 1, "EX1_522")
    other = S.summon(g, 2, "CS2_231")
    S.play(g, S.give(g, 1, "EX1_128"))
    assert g.ents[yeti][STEALTH] and _attached(g, yeti) == ["EX1_128e"]
    S.end_turn(g)
    # The opponent can neither attack nor target them.
    fireball = S.give(g, 2, "CS2_029")
    assert play_targets(g, fireball) == {g.hero[1], g.hero[2], other}
    S.end_turn(g)
    assert not g.ents[yeti][STEALTH] and _attached(g, yeti) == []
    assert g.ents[assassin][STEALTH]  # its own Stealth stays


def test_ex1_128e_an_attack_ends_the_stealth_and_nothing_is_taken_twice() -> None:
    g = S.prepared(hero1=ROGUE)
    yeti = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_128"))
    S.attack(g, yeti, g.hero[2])
    assert not g.ents[yeti][STEALTH]
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[yeti][STEALTH] == 0 and _attached(g, yeti) == []


def test_new1_014_master_of_disguise_and_new1_014e_stealth_a_friendly_minion() -> None:
    g = S.prepared(hero1=ROGUE)
    yeti = S.summon(g, 1, "CS2_182")
    master = S.give(g, 1, "NEW1_014")
    assert play_targets(g, master) == {yeti}
    S.play(g, master, yeti)
    assert g.ents[yeti][STEALTH] and _attached(g, yeti) == ["NEW1_014e"]
    S.end_turn(g)
    assert g.ents[yeti][STEALTH]
    S.end_turn(g)
    assert not g.ents[yeti][STEALTH]


def test_ex1_126_betrayal_the_minion_hits_its_neighbours() -> None:
    g = S.prepared(hero1=ROGUE)
    left = S.summon(g, 2, "CS2_182")
    mid = S.summon(g, 2, "CS2_200")  # 6/7
    right = S.summon(g, 2, "CS2_231")
    far = S.summon(g, 2, "CS2_120")
    betrayal = S.give(g, 1, "EX1_126")
    assert play_targets(g, betrayal) == {left, mid, right, far}
    S.play(g, betrayal, mid)
    assert dead(g, left) and dead(g, right)
    assert stats(g, mid) == (6, 7) and stats(g, far) == (2, 3)


def test_ex1_126_betrayal_a_poisonous_minion_destroys_its_neighbours() -> None:
    g = S.prepared(hero1=ROGUE)
    big = S.summon(g, 2, "CS2_200")
    cobra = S.summon(g, 2, "EX1_170")  # Emperor Cobra 2/3, Poisonous
    assert g.ents[cobra][POISONOUS]
    S.play(g, S.give(g, 1, "EX1_126"), cobra)
    assert dead(g, big) and stats(g, cobra) == (2, 3)


def test_cs2_233_blade_flurry_its_weapons_attack_to_enemy_minions() -> None:
    g = S.prepared(hero1=ROGUE)
    a, b = S.summon(g, 2, "CS2_182"), S.summon(g, 2, "CS2_231")
    mine = S.summon(g, 1, "CS2_231")
    flurry = S.give(g, 1, "CS2_233")
    assert play_targets(g, flurry) == set()  # no weapon: not playable
    S.power(g)  # Wicked Knife 1/2
    S.play(g, S.give(g, 1, "CS2_074"))  # Deadly Poison: +2 Attack
    S.play(g, flurry)
    assert g.weapon[1] == 0 and stats(g, a) == (4, 2) and dead(g, b)
    assert not dead(g, mine) and g.health(g.hero[2]) == 30


def test_ex1_613_edwin_vancleef_and_ex1_613e_2_2_for_each_other_card() -> None:
    g = S.prepared(hero1=ROGUE)
    alone = S.give(g, 1, "EX1_613")
    S.play(g, alone)
    assert stats(g, alone) == (2, 2) and _attached(g, alone) == []  # itself does not count
    _coin(g)
    _coin(g)
    edwin = S.give(g, 1, "EX1_613")
    S.play(g, edwin)  # Edwin, two Coins before this one: 3 others
    assert stats(g, edwin) == (8, 8) and _attached(g, edwin) == ["EX1_613e"]
    S.play(g, S.give(g, 1, "EX1_332"), edwin)  # Silence takes it back
    assert stats(g, edwin) == (2, 2)


def test_ex1_182_pilfer_adds_a_card_of_another_class() -> None:
    db = load_cards()
    seen = set()
    for seed in range(12):
        g = S.prepared(hero1=ROGUE, seed=seed)
        S.play(g, S.give(g, 1, "EX1_182"))
        (card,) = g.hand[1]
        c = db[g.ents[card].card.id]
        assert c.playable and c.card_class not in (7, 12)  # neither Rogue nor neutral
        seen.add(c.id)
        again = S.prepared(hero1=ROGUE, seed=seed)
        S.play(again, S.give(again, 1, "EX1_182"))
        assert card_ids(again, again.hand[1]) == [c.id]  # seeded
    assert len(seen) > 1


def test_ex1_522_patient_assassin_stealth_and_poisonous() -> None:
    g = S.prepared(hero1=ROGUE)
    assassin = S.summon(g, 1, "EX1_522")
    ogre = S.summon(g, 2, "CS2_200")
    assert g.ents[assassin][STEALTH] and g.ents[assassin][POISONOUS]
    S.attack(g, assassin, ogre)
    assert dead(g, ogre) and dead(g, assassin)


def test_ex1_611_freezing_trap_and_ex1_611e_the_attacker_goes_back_costing_2_more() -> None:
    g = S.prepared(hero1="HERO_05")
    S.play(g, S.give(g, 1, "EX1_611"))
    S.end_turn(g)
    yeti = S.summon(g, 2, "CS2_182")
    S.hit(g, yeti, 2)
    S.attack(g, yeti, g.hero[1])
    assert g.health(g.hero[1]) == 30 and g.board[2] == [] and g.secrets[1] == []
    back = next(i for i in g.hand[2] if g.ents[i].card.id == "CS2_182")
    assert g.cost(back) == 6 and _attached(g, back) == ["EX1_611e"] and g.health(back) == 5
    assert g.ents[back][ZONE] == Z_HAND


def test_ex1_611_freezing_trap_ignores_a_hero_and_waits_for_a_minion() -> None:
    g = S.prepared(hero1="HERO_05", hero2=ROGUE)
    trap = S.give(g, 1, "EX1_611")
    S.play(g, trap)
    S.end_turn(g)
    S.power(g)  # Wicked Knife
    S.attack(g, g.hero[2], g.hero[1])
    assert g.secrets[1] == [trap] and g.health(g.hero[1]) == 29


def test_ex1_049_youthful_brewmaster_returns_a_friendly_minion() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.summon(g, 2, "CS2_231")
    brew = S.give(g, 1, "EX1_049")
    assert play_targets(g, brew) == {yeti}
    S.play(g, brew, yeti)
    assert g.board[1] == [brew] and card_ids(g, g.hand[1]) == ["CS2_182"]
    alone = S.give(g, 1, "EX1_049")
    S.end_turn(g)
    S.end_turn(g)
    assert play_targets(g, alone) == {brew}


def test_ex1_057_ancient_brewmaster_without_a_friendly_minion_plays_without_a_target() -> None:
    g = S.prepared()
    S.summon(g, 2, "CS2_231")
    brew = S.give(g, 1, "EX1_057")
    assert play_targets(g, brew) == {0}
    S.play(g, brew)
    assert stats(g, brew) == (5, 4)


def test_ex1_572_ysera_adds_a_dream_card_at_the_end_of_each_of_your_turns() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_572")
    S.end_turn(g)
    assert card_ids(g, g.hand[1])[0].startswith("DREAM_0")
    S.end_turn(g)
    S.end_turn(g)
    dreams = [c for c in card_ids(g, g.hand[1]) if c.startswith("DREAM_")]
    assert len(dreams) == 2


def test_dream_04_dream_returns_any_minion_to_its_owners_hand() -> None:
    g = S.prepared()
    mine = S.summon(g, 1, "CS2_231")
    theirs = S.summon(g, 2, "CS2_182")
    dream = S.give(g, 1, "DREAM_04")
    assert play_targets(g, dream) == {mine, theirs}
    S.play(g, dream, theirs)
    assert g.board[2] == [] and card_ids(g, g.hand[2]) == ["CS2_182"]
