"""Return to hand (``return_to_hand``, SabberStone's ReturnToHandBlock) and a spell that
comes back from the graveyard (``return_from_graveyard``, Headcrack's combo).

A minion returned to its controller's hand is a fresh card there: a new entity of its card
(the old one set aside), no damage, no enchantment, no changed tag; a cost enchantment
given after the return stays with it. A full hand sends it to the graveyard without a
death. Leaving the board ends its triggers and auras at once."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import (
    ATK,
    ATTACHED,
    COST,
    DAMAGE,
    NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN,
    SCRIPT_DATA_NUM_1,
    Z_GRAVEYARD,
    Z_HAND,
    Z_SETASIDE,
    ZONE,
)
from games.hearth.tree import ViewTree


def test_a_returned_minion_is_a_fresh_card_in_hand() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    g.add_enchantment("CS2_092e", yeti, yeti)  # +4/+4
    S.hit(g, yeti, 3)
    back = g.return_to_hand(yeti)
    S.resolve(g)
    assert back != yeti and g.hand[1] == [back] and g.board[1] == []
    assert g.ents[back].card.id == "CS2_182" and g.ents[back][ZONE] == Z_HAND
    assert g.ents[yeti][ZONE] == Z_SETASIDE
    assert g.ents[back][DAMAGE] == 0 and g.ents[back][ATK] == 4 and g.cost(back) == 4
    assert not [i for i in g.enchants if g.ents[i][ATTACHED] in (yeti, back)]


def test_a_cost_enchantment_given_after_the_return_stays_with_the_card() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    back = g.return_to_hand(yeti)
    g.add_enchantment("GBL_002e", back, 1)  # Costs (2) less.
    S.resolve(g)
    assert g.cost(back) == 2 and g.ents[back][COST] == 2
    S.play(g, back)
    assert g.mana(1) == 8  # played for (2)


def test_a_full_hand_sends_it_to_the_graveyard_without_a_death() -> None:
    g = S.prepared()
    # Cult Master draws when a friendly minion dies; Loot Hoarder draws on its deathrattle.
    S.summon(g, 1, "EX1_595")
    hoarder = S.summon(g, 1, "EX1_096")
    for _ in range(10):
        S.give(g, 1, "CS2_231")
    deck = len(g.deck[1])
    assert g.return_to_hand(hoarder) == 0
    S.resolve(g)
    assert g.ents[hoarder][ZONE] == Z_GRAVEYARD and len(g.hand[1]) == 10
    assert len(g.deck[1]) == deck  # no deathrattle, no "whenever a minion dies"
    assert g.ents[2][NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN] == 0


def test_returning_from_the_board_leaves_no_aura_behind() -> None:
    g = S.prepared()
    raid = S.summon(g, 1, "CS2_122")  # Raid Leader: other friendly minions +1 Attack
    wisp = S.summon(g, 1, "CS2_231")
    assert g.ents[wisp][ATK] == 2
    g.return_to_hand(raid)
    S.resolve(g)
    assert g.ents[wisp][ATK] == 1 and not [a for a in g.auras if a.source == raid]


def test_its_triggers_stop_with_the_return() -> None:
    g = S.prepared()
    juggler = S.summon(g, 1, "NEW1_019")  # Knife Juggler
    g.return_to_hand(juggler)
    S.resolve(g)
    S.summon(g, 1, "CS2_231")
    assert g.health(g.hero[2]) == 30
    assert all(juggler not in lst for lst in g.triggers.values())


def test_the_history_shows_a_zone_change_and_hides_the_card_from_the_opponent() -> None:
    g = S.prepared(history=True)
    yeti = S.summon(g, 1, "CS2_182")
    start = len(list(S.entries(g.history(viewer=2))))
    back = g.return_to_hand(yeti)
    S.resolve(g)
    theirs = list(S.entries(g.history(viewer=2)))[start:]
    zones = [e["tag_change"] for e in theirs
             if "tag_change" in e and e["tag_change"]["tag"] == ZONE]
    assert {"entityID": yeti, "tag": ZONE, "value": Z_SETASIDE} in zones
    new = [e["full_entity"] for e in theirs if "full_entity" in e]
    assert [(x["entityID"], x["name"]) for x in new] == [(back, "")]
    mine = [e["full_entity"] for e in S.entries(g.history(viewer=1)) if "full_entity" in e]
    assert (back, "CS2_182") in [(x["entityID"], x["name"]) for x in mine]
    # Both views rebuild: the owner knows the card, the opponent holds a hidden one.
    for viewer in (1, 2):
        tree = ViewTree()
        tree.feed(g.history(viewer=viewer))
        rebuilt = tree.state(viewer, seed=5, opponent_deck=["CS2_231"] * 30)
        assert len(rebuilt.hand[1]) == 1 and rebuilt.board[1] == []
        assert (rebuilt.ents[back].card.id == "CS2_182") == (viewer == 1)


def test_a_spell_marked_in_the_graveyard_comes_back_at_its_owners_next_turn() -> None:
    g = S.prepared(hero1="HERO_03")
    S.play(g, S.give(g, 1, "GAME_005"))  # The Coin: Headcrack's combo is on
    crack = S.give(g, 1, "EX1_137")
    S.play(g, crack)
    assert g.ents[crack][ZONE] == Z_GRAVEYARD and g.ents[crack][SCRIPT_DATA_NUM_1] == 1
    S.end_turn(g)
    assert g.ents[crack][ZONE] == Z_GRAVEYARD  # not at the opponent's turn
    S.end_turn(g)
    # A fresh copy in hand (hidden from the opponent); the played one stays in the graveyard.
    back = [i for i in g.hand[1] if g.ents[i].card.id == "EX1_137"]
    assert len(back) == 1 and back[0] != crack
    assert g.ents[crack][ZONE] == Z_GRAVEYARD and g.ents[crack][SCRIPT_DATA_NUM_1] == 0
    assert all(crack not in lst for lst in g.triggers.values())


def test_a_full_hand_keeps_the_spell_in_the_graveyard() -> None:
    g = S.prepared(hero1="HERO_03")
    S.play(g, S.give(g, 1, "GAME_005"))
    crack = S.give(g, 1, "EX1_137")
    S.play(g, crack)
    for _ in range(10):
        S.give(g, 1, "CS2_231")
    S.end_turn(g)
    S.end_turn(g)
    assert g.ents[crack][ZONE] == Z_GRAVEYARD
    assert "EX1_137" not in [g.ents[i].card.id for i in g.hand[1]]
    assert g.ents[crack][SCRIPT_DATA_NUM_1] == 0  # its mark gone: it never comes back


def test_a_view_rebuilt_before_the_return_listens_from_the_graveyard_too() -> None:
    g = S.prepared(hero1="HERO_03", history=True)
    S.play(g, S.give(g, 1, "GAME_005"))
    crack = S.give(g, 1, "EX1_137")
    S.play(g, crack)
    S.end_turn(g)
    tree = ViewTree()
    tree.feed(g.history(viewer=2))
    rebuilt = tree.state(2, seed=1, opponent_deck=["CS2_231"] * 30)
    S.end_turn(rebuilt)
    assert "EX1_137" in [rebuilt.ents[i].card.id for i in rebuilt.hand[1]]
    assert all(crack not in lst for lst in rebuilt.triggers.values())
