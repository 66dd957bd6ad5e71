"""Demon Hunter cards beyond the Basic set: Sightless Watcher (Ashes of Outland).

>>> from games.hearth import Action, Kind, scenario as S
>>> g = S.prepared(hero1="HERO_10", deck1=["CS2_231"] * 4 + ["CS2_182", "CS2_200", "CS2_231"])
>>> S.play(g, S.give(g, 1, "BT_323"))             # Sightless Watcher
>>> player, offered = g.pending_choice
>>> player, len(offered), set(offered) <= set(g.deck[1])
(1, 3, True)
>>> g.apply(Action(Kind.CHOOSE, 1, cards=(offered[0],)))
>>> g.deck[1][-1] == offered[0]
True
"""

from __future__ import annotations

from ..dsl import ChooseFromDeck, card, chosen_on_top

# "Battlecry: Look at 3 cards in your deck. Choose one to put on top." Three distinct
# random cards; they stay in the deck, the chosen one moves to the top.
card("BT_323", battlecry=ChooseFromDeck(3, chosen_on_top, top=False))
