"""EV_AFTER_PLAY_CARD, "after you play a card" (Xavius): heard for a card of any type played
from hand, once its play resolved (after a minion's battlecry, death phase and after-summon
triggers; after a spell's text; after a weapon is equipped; a secret put in place or a
countered spell count too), before the play's last death phase."""

from __future__ import annotations

from games.hearth import scenario as S


def test_every_card_type_fires_it_after_its_play() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_614")  # Xavius hears it
    S.play(g, S.give(g, 1, "CS2_189"), g.hero[2])  # a minion with a battlecry
    assert [g.ents[i].card.id for i in g.board[1]] == ["EX1_614", "EX1_614t", "CS2_189"]
    S.play(g, S.give(g, 1, "CS2_025"))  # Arcane Explosion: the text first, then the Satyr
    assert len(g.board[1]) == 4
    S.play(g, S.give(g, 1, "CS2_106"))  # a weapon
    assert len(g.board[1]) == 5
    S.set_mana(g, 1, 10)
    S.play(g, S.give(g, 1, "EX1_287"))  # a secret (Counterspell)
    assert len(g.board[1]) == 6


def test_the_spell_text_comes_before_it() -> None:
    # Arcane Explosion would hit the Satyr of the opponent's Xavius if it came first; it
    # is the caster's, so check on the caster's side: the Satyr is summoned after the text.
    g = S.prepared()
    S.summon(g, 1, "EX1_614")
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind: 1 to every minion, then the Satyr
    satyr = g.board[1][1]
    assert g.ents[satyr].card.id == "EX1_614t" and g.health(satyr) == 1


def test_a_listener_the_card_killed_hears_nothing() -> None:
    g = S.prepared()
    xavius = S.summon(g, 1, "EX1_614")
    S.hit(g, xavius, 4)
    S.play(g, S.give(g, 1, "EX1_400"))  # Whirlwind kills it: no Satyr
    assert g.board[1] == []


def test_not_heard_for_cards_that_are_not_played() -> None:
    g = S.prepared()
    S.summon(g, 1, "EX1_614")
    S.summon(g, 1, "CS2_231")  # summoned, not played
    S.power(g, g.hero[2])  # the hero power is no card
    assert len(g.board[1]) == 2
