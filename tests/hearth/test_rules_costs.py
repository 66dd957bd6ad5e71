"""The cost layer (games/hearth/costs.py): one effective cost, read by the legal actions,
the payment, the view and the history; SabberStone's order of modifiers; cost auras kept
exact as cards enter and leave the hand; hidden information kept."""

from __future__ import annotations

from bots.hearth.bundled import GreedyBot
from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import COST, RESOURCES_USED, Z_HAND, ZONE
from games.hearth.game import State

FIREBALL, WISP, YETI, FROSTWOLF, SILENCE = "CS2_029", "CS2_231", "CS2_182", "CS2_121", "EX1_332"
APPRENTICE, VENTURE, PORTAL, PINT = "EX1_608", "CS2_227", "EX1_315", "EX1_076"
MOUNTAIN, MOLTEN, MILLHOUSE, PREPARATION = "EX1_105", "EX1_620", "NEW1_029", "EX1_145"


def cost_changes(g: State, viewer: int | None, eid: int) -> list[int]:
    return [
        t["value"]
        for e in S.entries(g.history(viewer=viewer))
        if "tag_change" in e
        for t in [e["tag_change"]]
        if t["entityID"] == eid and t["tag"] == COST
    ]


def plays(g: State, eid: int) -> bool:
    return any(a.kind == Kind.PLAY and a.entity == eid for a in g.legal_actions())


# --- one read everywhere


def test_the_effective_cost_is_what_is_checked_paid_and_shown() -> None:
    g = S.prepared(mana=3)
    S.summon(g, 1, APPRENTICE)
    fireball = S.give(g, 1, FIREBALL)
    assert g.cost(fireball) == 3 and g.ents[fireball][COST] == 3
    assert plays(g, fireball)
    hand = {c["entity"]: c["cost"] for c in g.observation(1)["you"]["hand"]}
    assert hand[fireball] == 3
    assert g.entities()[fireball][1][COST] == 3
    S.play(g, fireball, target=g.hero[2])
    assert g.ents[2][RESOURCES_USED] == 3


def test_never_below_0() -> None:
    g = S.prepared()
    S.summon(g, 1, APPRENTICE)
    S.summon(g, 1, APPRENTICE)
    moonfire = S.give(g, 1, "CS2_008")
    assert g.cost(moonfire) == 0 and g.ents[moonfire][COST] == 0


def test_a_bot_plays_a_giant_its_effective_cost_allows() -> None:
    g = S.prepared(mana=4)
    giant = S.give(g, 1, MOUNTAIN)
    for _ in range(8):
        S.give(g, 1, WISP)
    assert g.cost(giant) == 4 and plays(g, giant)
    bot = GreedyBot(seed=1)
    for _ in range(20):
        if giant not in g.hand[1] or g.current != 1:
            break
        g.apply(bot.act(g.clone(), g.legal_actions(1)))
    assert giant in g.board[1]


# --- the order (docs/hearth-cards/costs.md)


def test_summoning_portal_goes_before_the_other_auras() -> None:
    g = S.prepared()
    frostwolf = S.give(g, 1, FROSTWOLF)  # (2)
    S.summon(g, 1, VENTURE)  # +3 first in order of play, Portal still goes first
    S.summon(g, 1, PORTAL)
    assert g.cost(frostwolf) == 1 + 3
    g2 = S.prepared()
    f2 = S.give(g2, 1, FROSTWOLF)
    S.summon(g2, 1, PORTAL)
    S.summon(g2, 1, PINT)
    assert g2.cost(f2) == 0  # Portal 2 -> 1, then Pint-Sized -1


def test_enchantment_then_auras_then_the_card_itself() -> None:
    g = S.prepared()
    giant = S.give(g, 1, MOUNTAIN)  # (12)
    for _ in range(3):
        S.give(g, 1, WISP)
    g.add_enchantment("CS2_053e", giant, g.hero[1])  # -3, on the card
    S.summon(g, 1, VENTURE)  # +3
    assert g.cost(giant) == 12 - 3 + 3 - 3


def test_a_set_cost_then_a_later_aura() -> None:
    g = S.prepared()
    theirs = S.give(g, 2, FIREBALL)
    S.play(g, S.give(g, 1, MILLHOUSE))
    assert g.cost(theirs) == 0
    S.summon(g, 2, APPRENTICE)  # played after the set: 0 - 1, never below 0
    assert g.cost(theirs) == 0


# --- exact as the hand changes


def test_drawn_created_discarded_and_played_cards() -> None:
    g = S.prepared(deck1=[FIREBALL] * 10)
    S.summon(g, 1, APPRENTICE)
    drawn = g.draw(1)
    S.resolve(g)
    assert g.cost(drawn) == 3
    created = S.give(g, 1, FIREBALL)
    assert g.cost(created) == 3
    g.discard(1, created)
    S.resolve(g)
    assert g.ents[created][ZONE] != Z_HAND and g.ents[created][COST] == 4
    S.play(g, drawn, target=g.hero[2])
    assert g.ents[drawn][COST] == 4  # out of the hand: the printed cost again


def test_a_minion_returned_to_hand_is_a_new_card_with_the_aura() -> None:
    g = S.prepared()
    S.summon(g, 1, VENTURE)
    bot = S.summon(g, 1, "EX1_006")  # Alarm-o-Bot
    yeti = S.give(g, 1, YETI)
    assert g.cost(yeti) == 7
    back = g.swap_with_hand(bot, yeti)
    S.resolve(g)
    assert g.card_id(back) == "EX1_006" and g.cost(back) == 3 + 3
    assert g.ents[yeti][COST] == 4


def test_the_source_leaves_or_is_silenced() -> None:
    g = S.prepared()
    fireball = S.give(g, 1, FIREBALL)
    a = S.summon(g, 1, APPRENTICE)
    b = S.summon(g, 1, APPRENTICE)
    assert g.cost(fireball) == 2
    S.play(g, S.give(g, 1, SILENCE), target=a)
    assert g.cost(fireball) == 3
    g.destroy(b)
    S.resolve(g)
    assert g.cost(fireball) == 4


def test_one_shot_ends_when_used_or_at_the_end_of_the_turn() -> None:
    g = S.prepared()
    f1, f2 = S.give(g, 1, FIREBALL), S.give(g, 1, FIREBALL)
    S.play(g, S.give(g, 1, PREPARATION))
    assert g.cost(f1) == g.cost(f2) == 2
    S.play(g, f1, target=g.hero[2])
    assert g.cost(f2) == 4
    S.play(g, S.give(g, 1, PREPARATION))
    S.end_turn(g)
    assert g.cost(f2) == 4
    assert not [i for i in g.enchants if g.card_id(i) == "EX1_145o"]


def test_opening_hand_costs_during_the_mulligan() -> None:
    from games import hearth

    deck = [MOUNTAIN] * 30
    g = hearth.new_game(seed=1, decks=[("HERO_08", deck), ("HERO_01", deck)], first_player=1)
    for p in (1, 2):
        for i in g.hand[p]:
            if g.card_id(i) == MOUNTAIN:
                assert g.ents[i][COST] == 12 - (len(g.hand[p]) - 1)


# --- history and hidden information


def test_history_shows_tag_change_cost_to_the_owner_only() -> None:
    g = S.prepared(history=True, deck1=[MOLTEN] * 10)
    giant = g.draw(1)
    S.resolve(g)
    S.hit(g, g.hero[1], 3)
    assert cost_changes(g, None, giant) == [17]
    assert cost_changes(g, 1, giant) == [17]
    assert cost_changes(g, 2, giant) == []
    S.summon(g, 1, VENTURE)
    assert cost_changes(g, 1, giant)[-1] == 20
    assert g.ents[giant][COST] == 20


def test_a_cost_enchantment_writes_one_tag_change() -> None:
    g = S.prepared(history=True)
    S.summon(g, 1, APPRENTICE)
    fireball = S.give(g, 1, FIREBALL)
    S.resolve(g)
    assert cost_changes(g, 1, fireball) == [3]
    g.add_enchantment("CS2_053e", fireball, g.hero[1])
    assert cost_changes(g, 1, fireball) == [3, 0]  # 4 - 3 - 1, never the raw -0 or 1
    assert cost_changes(g, 2, fireball) == []


def test_clone_and_determinized_keep_costs() -> None:
    g = S.prepared()
    S.summon(g, 1, VENTURE)
    S.summon(g, 2, "EX1_616")  # Mana Wraith: both hands
    mine = S.give(g, 1, YETI)
    theirs = [S.give(g, 2, c) for c in (YETI, FIREBALL, WISP, MOUNTAIN)]
    g.add_enchantment("CS2_053e", theirs[1], g.hero[2])
    assert g.cost(mine) == 8
    c = g.clone()
    assert c.cost(mine) == 8 and c.hash() == g.hash()
    for seed in range(5):
        d = g.determinized(1, seed)
        assert d.cost(mine) == 8
        fresh = d.clone()
        fresh.aura_dirty = True
        fresh._update_auras()
        # Whatever the hidden cards became, their costs are what a fresh evaluation gives.
        assert [d.cost(i) for i in theirs] == [fresh.cost(i) for i in theirs]
        # The enchantment stays with its entity: (3) less than whatever card it now is.
        card = d.ents[theirs[1]].card
        extra = 1 if card.type == 4 else 0  # Mana Wraith
        assert d.ents[theirs[1]].base(COST) == card.cost - 3
        assert d.cost(theirs[1]) == max(0, card.cost - 3 + extra - (
            len(d.hand[2]) - 1 if card.id == MOUNTAIN else 0))


# --- what changes a cost without damage or a zone change of its own (found by random games)


def test_molten_giant_follows_a_health_set_by_alexstrasza() -> None:
    g = S.prepared()
    giant = S.give(g, 1, MOLTEN)
    assert g.cost(giant) == 20
    S.play(g, S.give(g, 1, "EX1_561"), g.hero[1], position=0)  # Alexstrasza: own hero to 15
    assert g.health(g.hero[1]) == 15
    assert g.cost(giant) == 5 and g.ents[giant][COST] == 5


def test_a_card_picked_by_tracking_gets_the_pint_sized_discount() -> None:
    g = S.prepared(deck1=(YETI,) * 30)
    S.summon(g, 1, PINT)
    S.play(g, S.give(g, 1, "DS1_184"))  # Tracking: the top three are Yetis
    pick = g.legal_actions()[0]
    assert pick.kind == Kind.CHOOSE
    g.apply(pick)
    yeti = pick.cards[0]
    assert g.ents[yeti][ZONE] == Z_HAND
    assert g.cost(yeti) == 3 and g.ents[yeti][COST] == 3  # the first minion: 1 less
