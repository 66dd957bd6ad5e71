"""Hunter Classic cards, Sightless Watcher and SI:7 Infiltrator, one scenario per card.

The mid-turn choice itself (legality, hidden information, clones) has its rule tests in
tests/hearth/test_rules_mid_turn_choice.py, the secret-revealed event in
tests/hearth/test_rules_secret_revealed.py.
"""

from __future__ import annotations

from hearth_cardtest import can_attack, card_ids, dead, in_play, play_targets, stats

from games.hearth import Action, Kind, State
from games.hearth import scenario as S
from games.hearth.enums import (
    CHARGE,
    DAMAGE,
    DURABILITY,
    IMMUNE,
    STEALTH,
    Z_GRAVEYARD,
    Z_SECRET,
    ZONE,
)

BOAR, RAPTOR, YETI, WISP, OGRE = "CS2_171", "CS2_172", "CS2_182", "CS2_231", "CS2_200"
# Player 1 draws 4 cards before turn 1 (3 opening, 1 on the turn), so these 4 are in hand
# (cleared) and the listed cards after them make the deck, the first listed on top.
DRAWN = (WISP,) * 4


def deck_of(*cards: str) -> list[str]:
    return [*DRAWN, *cards]


def choose(g: State, chosen: int) -> None:
    assert g.pending_choice is not None
    g.apply(Action(Kind.CHOOSE, g.pending_choice[0], cards=(chosen,)))


def secret_for_2(g: State, card_id: str) -> int:
    """Player 2 plays ``card_id`` (a secret) on their turn; player 1 is to act again."""
    S.end_turn(g)
    secret = S.give(g, 2, card_id)
    S.play(g, secret)
    S.end_turn(g)
    return secret


def test_ds1_184_tracking() -> None:
    g = S.prepared(hero1="HERO_05", deck1=deck_of(YETI, BOAR, OGRE, RAPTOR))
    top3 = g.deck[1][::-1][:3]
    assert card_ids(g, top3) == [YETI, BOAR, OGRE]
    S.play(g, S.give(g, 1, "DS1_184"))
    assert g.pending_choice == (1, tuple(top3)) and g.mana(1) == 9
    assert len(g.deck[1]) == 1  # the three are set aside while the player looks
    choose(g, top3[2])
    assert card_ids(g, g.hand[1]) == [OGRE]
    assert [g.ents[i][ZONE] for i in top3[:2]] == [Z_GRAVEYARD, Z_GRAVEYARD]  # discarded
    assert card_ids(g, g.deck[1]) == [RAPTOR] and g.pending_choice is None
    S.end_turn(g)
    S.end_turn(g)
    assert card_ids(g, g.hand[1]) == [OGRE, RAPTOR]  # the next draw is the fourth card


def test_bt_323_sightless_watcher() -> None:
    g = S.prepared(hero1="HERO_10", deck1=deck_of(YETI, BOAR, OGRE, RAPTOR, WISP))
    deck_before = list(g.deck[1])
    watcher = S.give(g, 1, "BT_323")
    S.play(g, watcher)
    assert in_play(g, watcher) and stats(g, watcher) == (3, 2)
    assert g.pending_choice is not None
    player, offered = g.pending_choice
    assert player == 1 and len(set(offered)) == 3 and set(offered) <= set(g.deck[1])
    assert sorted(g.deck[1]) == sorted(deck_before)  # looked at, not taken
    bottom = g.deck[1][0]
    pick = bottom if bottom in offered else offered[0]
    choose(g, pick)
    assert g.deck[1][-1] == pick and sorted(g.deck[1]) == sorted(deck_before)
    S.end_turn(g)
    S.end_turn(g)
    assert g.hand[1][-1] == pick  # drawn next


def test_ds1_188_gladiators_longbow_ds1_188e() -> None:
    g = S.prepared(hero1="HERO_05")
    S.play(g, S.give(g, 1, "DS1_188"))
    hero = g.hero[1]
    assert g.attack_value(hero) == 5
    ogre = S.summon(g, 2, OGRE)
    S.attack(g, hero, ogre)
    assert g.health(hero) == 30 and stats(g, ogre) == (6, 2)  # Immune while attacking
    S.end_turn(g)
    S.attack(g, ogre, hero)  # defending is not attacking
    assert g.health(hero) == 24


def test_ds1_188_longbow_immune_to_a_secret_the_attack_sets_off() -> None:
    g = S.prepared(hero1="HERO_05", hero2="HERO_05")
    S.play(g, S.give(g, 1, "DS1_188"))
    secret_for_2(g, "EX1_610")  # Explosive Trap: 2 to each enemy character on attack
    wisp = S.summon(g, 1, WISP)
    S.attack(g, g.hero[1], g.hero[2])
    assert g.health(g.hero[1]) == 30 and dead(g, wisp) and g.health(g.hero[2]) == 25


def test_ex1_534_savannah_highmane_ex1_534t() -> None:
    g = S.prepared()
    left = S.summon(g, 1, WISP)
    mane = S.summon(g, 1, "EX1_534")
    right = S.summon(g, 1, WISP)
    assert stats(g, mane) == (6, 5)
    S.hit(g, mane, 5)
    assert dead(g, mane)
    assert card_ids(g, g.board[1]) == [WISP, "EX1_534t", "EX1_534t", WISP]
    assert g.board[1][0] == left and g.board[1][3] == right
    assert [stats(g, i) for i in g.board[1][1:3]] == [(2, 2), (2, 2)]


def test_ex1_536_eaglehorn_bow_ex1_536e() -> None:
    g = S.prepared(hero1="HERO_05")
    bow = S.give(g, 1, "EX1_536")
    S.play(g, bow)
    S.play(g, S.give(g, 1, "EX1_554"))  # Snake Trap: when a friendly minion is attacked
    wisp = S.summon(g, 1, WISP)
    assert g.ents[bow][DURABILITY] == 2
    S.end_turn(g)
    raptor = S.summon(g, 2, RAPTOR)
    S.attack(g, raptor, wisp)
    assert g.ents[bow][DURABILITY] == 3 and len(g.board[1]) == 3  # three snakes, wisp died
    S.end_turn(g)
    S.attack(g, g.hero[1], g.hero[2])
    assert g.ents[bow][DAMAGE] == 1 and g.health(g.hero[2]) == 27


def test_ex1_537_explosive_shot() -> None:
    g = S.prepared()
    a, b, c, d = (S.summon(g, 2, x) for x in (YETI, OGRE, YETI, YETI))
    shot = S.give(g, 1, "EX1_537")
    assert play_targets(g, shot) == {a, b, c, d}  # minions only
    S.play(g, shot, b)
    assert stats(g, a) == (4, 3) and stats(g, b) == (6, 2) and stats(g, c) == (4, 3)
    assert stats(g, d) == (4, 5)
    S.summon(g, 1, "CS2_142")  # Kobold Geomancer: +1 to both amounts
    S.play(g, S.give(g, 1, "EX1_537"), a)
    assert dead(g, a) and dead(g, b) and stats(g, c) == (4, 3)  # 6 and 3 with Spell Damage


def test_ex1_538_unleash_the_hounds_ex1_538t() -> None:
    g = S.prepared()
    hounds = S.give(g, 1, "EX1_538")
    assert play_targets(g, hounds) == set()  # no enemy minion: not playable
    for _ in range(3):
        S.summon(g, 2, WISP)
    S.summon(g, 1, YETI)
    S.play(g, hounds)
    assert card_ids(g, g.board[1]) == [YETI] + ["EX1_538t"] * 3
    first = g.board[1][1]
    assert stats(g, first) == (1, 1) and g.ents[first][CHARGE] and can_attack(g, first)
    for _ in range(3):
        S.summon(g, 2, WISP)
    S.play(g, S.give(g, 1, "EX1_538"))  # six enemy minions, three free slots
    assert len(g.board[1]) == 7


def test_ex1_543_king_krush() -> None:
    g = S.prepared()
    krush = S.give(g, 1, "EX1_543")
    S.play(g, krush)
    assert stats(g, krush) == (8, 8) and can_attack(g, krush)
    S.attack(g, krush, g.hero[2])
    assert g.health(g.hero[2]) == 22


def test_ex1_544_flare() -> None:
    g = S.prepared(hero1="HERO_05", hero2="HERO_08")
    mine = S.give(g, 1, "EX1_554")
    S.play(g, mine)  # the caster's own secret stays
    S.end_turn(g)
    theirs = S.give(g, 2, "EX1_289")  # Ice Barrier
    S.play(g, theirs)
    worgen = S.summon(g, 2, "EX1_010")  # Worgen Infiltrator: Stealth
    S.end_turn(g)
    own_worgen = S.summon(g, 1, "EX1_010")
    assert g.ents[worgen][STEALTH] and g.ents[own_worgen][STEALTH]
    hand = len(g.hand[1])
    S.play(g, S.give(g, 1, "EX1_544"))
    assert not g.ents[worgen][STEALTH] and not g.ents[own_worgen][STEALTH]
    assert g.ents[theirs][ZONE] == Z_GRAVEYARD and g.secrets[2] == []
    assert g.ents[mine][ZONE] == Z_SECRET and g.secrets[1] == [mine]
    assert len(g.hand[1]) == hand + 1  # drew a card
    assert play_targets(g, S.give(g, 1, "DS1_185")) >= {worgen}  # targetable now


def test_ex1_549_bestial_wrath_ex1_549o() -> None:
    g = S.prepared()
    boar = S.summon(g, 1, BOAR)
    S.summon(g, 1, YETI)
    enemy_raptor = S.summon(g, 2, RAPTOR)
    wrath = S.give(g, 1, "EX1_549")
    assert play_targets(g, wrath) == {boar}  # a friendly Beast only
    S.play(g, wrath, boar)
    assert stats(g, boar) == (3, 1) and g.ents[boar][IMMUNE]
    ogre = S.summon(g, 2, OGRE)
    S.attack(g, boar, ogre)
    assert stats(g, boar) == (3, 1) and stats(g, ogre) == (6, 4)
    S.end_turn(g)
    assert stats(g, boar) == (1, 1) and not g.ents[boar][IMMUNE]  # this turn only
    assert enemy_raptor in g.board[2]


def test_ex1_617_deadly_shot() -> None:
    g = S.prepared()
    shot = S.give(g, 1, "EX1_617")
    assert play_targets(g, shot) == set()  # no enemy minion
    ids = [S.summon(g, 2, x) for x in (YETI, OGRE, WISP)]
    mine = S.summon(g, 1, YETI)
    S.play(g, shot)
    assert sum(dead(g, i) for i in ids) == 1 and len(g.board[2]) == 2 and in_play(g, mine)


def test_ex1_186_si7_infiltrator() -> None:
    g = S.prepared(hero1="HERO_05", hero2="HERO_08")
    S.end_turn(g)
    barrier = S.give(g, 2, "EX1_289")
    S.play(g, barrier)
    counter = S.give(g, 2, "EX1_287")
    S.play(g, counter)
    S.end_turn(g)
    spy = S.give(g, 1, "EX1_186")
    S.play(g, spy)
    assert stats(g, spy) == (5, 4)
    gone = [s for s in (barrier, counter) if g.ents[s][ZONE] == Z_GRAVEYARD]
    assert len(gone) == 1 and len(g.secrets[2]) == 1
    S.play(g, S.give(g, 1, "EX1_186"))
    assert g.secrets[2] == []
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_186"))  # none left: nothing happens
    assert len(g.board[1]) == 3

