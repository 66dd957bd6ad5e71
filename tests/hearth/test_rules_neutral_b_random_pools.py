"""Random cards from the pool (Barrens Stablehand, Brightwing): ``card_pool`` holds the
collectible cards the engine plays (a declared card: an undeclared one would act as a
vanilla one) of a type, race and rarity, in id order; the pick uses the seeded RNG. A card
created in a hand or drawn out of the deck by an effect stays hidden from the opponent."""

from __future__ import annotations

from games import hearth
from games.hearth import scenario as S
from games.hearth.carddb import load_cards
from games.hearth.enums import R_BEAST, R_LEGENDARY, T_MINION, T_SPELL, Z_GRAVEYARD, ZONE


def test_the_pool_is_the_playable_collectible_cards_that_match() -> None:
    g = S.prepared()
    beasts = g.card_pool(T_MINION, race=R_BEAST)
    cards = load_cards()
    assert list(beasts) == sorted(beasts)
    assert all(cards[c].playable and cards[c].race == R_BEAST for c in beasts)
    playable = hearth.collectible_cards()
    assert set(beasts) == {
        c for c in playable if cards[c].race == R_BEAST and cards[c].type == T_MINION
    }
    legends = g.card_pool(T_MINION, rarity=R_LEGENDARY)
    assert "EX1_116" in legends and "EX1_560" not in legends  # Nozdormu is not declared
    assert all(cards[c].type == T_SPELL for c in g.card_pool(T_SPELL))


def test_the_pick_is_seeded() -> None:
    def pick(seed: int) -> str:
        g = S.prepared(seed=seed)
        S.play(g, S.give(g, 1, "EX1_189"))
        return g.ents[g.hand[1][0]].card.id

    assert [pick(s) for s in range(6)] == [pick(s) for s in range(6)]
    assert len({pick(s) for s in range(6)}) > 1


def test_a_card_created_in_hand_is_hidden_from_the_opponent() -> None:
    g = S.prepared(history=True)
    since = len(g.history(2))
    S.play(g, S.give(g, 1, "EX1_189"))
    (new,) = g.hand[1]
    card_id = g.ents[new].card.id
    theirs = repr(g.history(2)[since:])
    assert f"'{card_id}'" not in theirs and f"'{card_id}'" in repr(g.history(1)[since:])


def test_a_card_drawn_by_an_effect_is_hidden_from_the_opponent() -> None:
    deck = ["CS2_231"] * 29 + ["NEW1_025"]
    g = S.prepared(deck1=deck, history=True)
    since = len(g.history(2))
    S.play(g, S.give(g, 1, "NEW1_016"))  # Captain's Parrot draws the Corsair
    assert [g.ents[i].card.id for i in g.hand[1]] == ["NEW1_025"]
    assert "'NEW1_025'" not in repr(g.history(2)[since:])


def test_drawn_with_a_full_hand_the_card_burns() -> None:
    g = S.prepared()
    for _ in range(10):
        S.give(g, 1, "CS2_231")
    card = g.deck[1][0]  # the bottom card
    assert g.draw_card(1, card) == 0
    assert g.ents[card][ZONE] == Z_GRAVEYARD and card not in g.deck[1] and len(g.hand[1]) == 10
    assert g.draw_card(1, card) == 0  # no longer in the deck: nothing
