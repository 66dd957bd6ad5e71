"""Copies of cards into a hand (Mind Vision, Thoughtsteal, Psychic Conjurer, Lorewalker
Cho) and from the enemy deck onto the board (Mindgames): new cards, hidden from whoever
may not see them, and what the determinizer keeps."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import COPIED_FROM_ENTITY_ID
from games.hearth.game import State


def _named(g: State, viewer: int, eid: int) -> set[str]:
    """The names ``viewer``'s history gives entity ``eid`` in full/show entity entries."""
    out = set()
    for entry in S.entries(g.history(viewer=viewer)):
        for kind in ("full_entity", "show_entity"):
            body = entry.get(kind)
            if body and body["entityID"] == eid:
                out.add(body["name"])
    return out



def test_mind_vision_copy_is_seen_by_its_owner_only() -> None:
    g = S.prepared(hero1="HERO_09", history=True)
    S.give(g, 2, "CS2_029")
    S.play(g, S.give(g, 1, "CS2_003"))
    (copy,) = g.hand[1]
    assert _named(g, 1, copy) == {"CS2_029"}
    assert _named(g, 2, copy) == {""}
    assert g.observation(2)["opponent"]["hand"] == [{"entity": copy}]  # no card named


def test_thoughtsteal_copies_hidden_from_the_deck_owner_and_deck_untouched() -> None:
    g = S.prepared(hero1="HERO_09", deck2=("CS2_182",) * 30, history=True)
    deck = list(g.deck[2])
    S.play(g, S.give(g, 1, "EX1_339"))
    assert g.deck[2] == deck
    for copy in g.hand[1]:
        assert _named(g, 1, copy) == {"CS2_182"} and _named(g, 2, copy) == {""}
        assert g.ents[copy][COPIED_FROM_ENTITY_ID] == 0  # a guess for the opponent


def test_copies_from_a_small_deck_are_distinct_cards_of_it() -> None:
    g = S.prepared(hero1="HERO_09", deck2=("CS2_182",) * 30)
    S.empty_deck(g, 2)
    S.play(g, S.give(g, 1, "EX1_339"))  # an empty deck: nothing
    assert g.hand[1] == []


def test_cho_copy_is_known_to_the_caster_and_kept_by_determinized() -> None:
    g = S.prepared(deck2=("CS2_182",) * 30, history=True)
    S.summon(g, 1, "EX1_100")
    fireball = S.give(g, 1, "CS2_029")
    S.play(g, fireball, g.hero[2])
    (copy,) = g.hand[2]
    assert g.ents[copy][COPIED_FROM_ENTITY_ID] == fireball
    assert _named(g, 1, copy) == {""}  # a card back in the history, as in a real log
    for seed in range(5):
        d = g.determinized(1, seed)
        assert d.ents[copy].card.id == "CS2_029"  # player 1 cast it: no guess
        assert all(d.ents[i].card.id == "CS2_182" for i in d.deck[2])


def test_mind_vision_copy_of_the_opponent_is_resampled_for_its_owner() -> None:
    # Player 2's copy of one of player 1's cards: player 1 does not know which one.
    g = S.prepared(deck1=("CS2_231",) * 30, deck2=("CS2_182",) * 30)
    S.give(g, 1, "CS2_029")
    S.end_turn(g)
    S.play(g, S.give(g, 2, "CS2_003"))
    copies = [i for i in g.hand[2] if g.ents[i].card.id == "CS2_029"]
    assert len(copies) == 1
    kinds = {g.determinized(1, s).ents[copies[0]].card.id for s in range(12)}
    assert "CS2_182" in kinds  # traded with the hidden deck like any hidden card


def test_mindgames_copy_is_a_fresh_minion_and_the_deck_keeps_its_card() -> None:
    g = S.prepared(hero1="HERO_09", deck2=("CS2_182",) * 30)
    n = len(g.deck[2])
    yeti = g.deck[2][0]
    S.hit(g, g.hero[1], 1)
    S.play(g, S.give(g, 1, "EX1_345"))
    (copy,) = g.board[1]
    assert copy != yeti and g.ents[copy].card.id == "CS2_182" and len(g.deck[2]) == n
    assert g.health(copy) == 5


def test_copies_survive_clone_and_hash() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_100")
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    c = g.clone()
    assert c.hash() == g.hash() and c.hand == g.hand
