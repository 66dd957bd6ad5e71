"""Swapping a minion with a card in hand (Alarm-o-Bot, ``swap_with_hand``): the hand's
minion is summoned into the slot the other left (an effect's summon: no battlecry,
summoning sick, "after summon" triggers fire), and the one from the board comes back to
the hand as a new, fresh entity of its card, hidden from the opponent like a drawn card."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import ATTACHED, DAMAGE, EXHAUSTED, Z_HAND, Z_SETASIDE, ZONE
from games.hearth.tree import ViewTree


def test_the_hand_minion_takes_the_slot_and_no_battlecry_runs() -> None:
    g = S.prepared()
    left = S.summon(g, 1, "CS2_231")
    bot = S.summon(g, 1, "EX1_006")
    right = S.summon(g, 1, "CS2_231")
    archer = S.give(g, 1, "CS2_189")  # Elven Archer: its battlecry would need a target
    back = g.swap_with_hand(bot, archer)
    S.resolve(g)
    assert g.board[1] == [left, archer, right]
    assert g.ents[archer][EXHAUSTED] and g.health(g.hero[2]) == 30
    assert g.hand[1] == [back] and g.ents[back].card.id == "EX1_006"
    assert g.ents[back][ZONE] == Z_HAND and g.ents[bot][ZONE] == Z_SETASIDE


def test_the_card_back_in_hand_is_fresh() -> None:
    g = S.prepared()
    bot = S.summon(g, 1, "EX1_006")
    g.add_enchantment("CS2_092e", bot, bot)  # +4/+4
    S.hit(g, bot, 2)
    wisp = S.give(g, 1, "CS2_231")
    back = g.swap_with_hand(bot, wisp)
    S.resolve(g)
    assert g.ents[back][DAMAGE] == 0 and g.ents[back].tags.get(EXHAUSTED) is None
    assert not [i for i in g.enchants if g.ents[i][ATTACHED] in (bot, back)]
    assert g.health(back) == 3


def test_after_summon_triggers_fire() -> None:
    g = S.prepared()
    S.summon(g, 1, "NEW1_019")  # Knife Juggler
    bot = S.summon(g, 1, "EX1_006")
    wisp = S.give(g, 1, "CS2_231")
    before = g.health(g.hero[2])  # the bot's own summon threw a knife already
    g.swap_with_hand(bot, wisp)
    S.resolve(g)
    assert g.health(g.hero[2]) == before - 1


def test_the_opponent_never_learns_which_card_went_back() -> None:
    g = S.prepared(history=True)
    bot = S.summon(g, 1, "EX1_006")
    S.give(g, 1, "CS2_231")
    S.give(g, 1, "CS2_029")
    S.end_turn(g)
    S.end_turn(g)  # the swap at the start of player 1's turn
    back = next(i for i in g.hand[1] if g.ents[i].card.id == "EX1_006")
    assert back != bot
    theirs = list(S.entries(g.history(viewer=2)))
    named = {
        e[k]["name"]
        for e in theirs
        for k in ("full_entity", "show_entity")
        if k in e and e[k]["entityID"] == back
    }
    assert named == {""}
    blocks = [e["power_block"] for e in theirs if "power_block" in e]
    assert all(b["cardID"] == "" for b in blocks if b["entityID"] == back)
    # The opponent's rebuilt view holds a hidden card there and agrees on the rest.
    tree = ViewTree()
    tree.feed(g.history(viewer=2))
    assert tree.entities[back][0] == ""
    mine = tree.state(2, seed=3, opponent_deck=["CS2_231"] * 30)
    assert len(mine.hand[1]) == len(g.hand[1]) and mine.board[1] == g.board[1]


def test_no_minion_in_hand_no_swap() -> None:
    g = S.prepared()
    bot = S.summon(g, 1, "EX1_006")
    S.give(g, 1, "CS2_029")
    S.end_turn(g)
    S.end_turn(g)
    assert g.board[1] == [bot]
