"""One player's picture of a game, folded from that player's Kettle history stream.

A bot that receives ``state.history(viewer=p)`` (or the same entries over Kettle) keeps a
:class:`ViewTree` up to date with :meth:`ViewTree.feed` and rebuilds a playable engine
:class:`~games.hearth.game.State` from it with :meth:`ViewTree.state` (see
:meth:`State.from_view <games.hearth.game.State.from_view>`):

>>> from games import hearth
>>> g = hearth.new_game(seed=4, history=True)
>>> tree = ViewTree()
>>> tree.feed(g.history(viewer=1))
>>> mine = tree.state(player=1, seed=0)
>>> mine.legal_actions(1) == g.legal_actions(1)
True

``entities`` maps entity id -> (card id, {tag: value}); the card id is "" while the viewer
may not see the card (the opponent's hand and deck). Besides the tags the tree keeps the
few facts a tag dict does not carry but a viewer has seen happen: the order in which
minions entered play (deaths and "in order of play" effects depend on it), the zone each
entity was created in, and the first card id each entity was seen as.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .carddb import COIN
from .enums import CARDTYPE, CONTROLLER, ENTITY_ID, T_MINION, Z_DECK, Z_HAND, Z_PLAY, ZONE
from .game import State
from .history import PREFIX, PUBLIC_OF_HIDDEN

Entities = dict[int, tuple[str, dict[int, int]]]


def _tag_dict(raw: Iterable[Mapping[str, int]]) -> dict[int, int]:
    return {int(t["name"]): int(t["value"]) for t in raw}


class ViewTree:
    """The entities one viewer has seen, kept up to date entry by entry."""

    __slots__ = ("created_in", "entities", "first_card", "play_order")

    def __init__(self) -> None:
        self.entities: Entities = {}
        # minion ids in the order they entered play (the engine's order of play)
        self.play_order: list[int] = []
        self.created_in: dict[int, int] = {}  # entity id -> the zone it was created in
        self.first_card: dict[int, str] = {}  # entity id -> the first card id seen for it

    def feed(self, entries: Iterable[Mapping[str, Any]]) -> None:
        """Apply history entries in order (power blocks are entered)."""
        for entry in entries:
            kind = entry["type"][len(PREFIX) :]
            body = entry[kind]
            if kind == "power_block":
                self.feed(body["history"])
            elif kind == "tag_change":
                self._tag_change(int(body["entityID"]), int(body["tag"]), int(body["value"]))
            elif kind in ("full_entity", "show_entity", "change_entity"):
                self._entity(kind, body)
            elif kind == "hide_entity":
                eid = int(body["entityID"])
                _, tags = self.entities[eid]
                self.entities[eid] = ("", {t: v for t, v in tags.items() if t in PUBLIC_OF_HIDDEN})
            elif kind == "create_game":
                game = body["game_entity"]
                self.entities[int(game["entityID"])] = ("", _tag_dict(game["tags"]))
                for player in body["players"]:
                    pe = player["entity"]
                    self.entities[int(pe["entityID"])] = ("", _tag_dict(pe["tags"]))
            # meta_data changes no entity

    def _entity(self, kind: str, body: Mapping[str, Any]) -> None:
        eid = int(body["entityID"])
        card_id = str(body["name"])
        tags = _tag_dict(body["tags"])
        if kind == "full_entity":
            self.created_in[eid] = tags.get(ZONE, 0)
            merged = tags
            was_in_play = False
        else:
            # hslog merges the tags of show_entity and change_entity into the entity's own
            _, old = self.entities[eid]
            was_in_play = old.get(ZONE) == Z_PLAY
            merged = {**old, **tags}
        merged.setdefault(ENTITY_ID, eid)
        self.entities[eid] = (card_id, merged)
        if card_id and eid not in self.first_card:
            self.first_card[eid] = card_id
        if not was_in_play:
            self._entered(eid)

    def _tag_change(self, eid: int, tag: int, value: int) -> None:
        tags = self.entities[eid][1]
        before = tags.get(tag)
        tags[tag] = value
        if tag == ZONE and before != Z_PLAY:
            self._entered(eid)

    def _entered(self, eid: int) -> None:
        """A minion arriving in play takes the next place in the order of play."""
        _, tags = self.entities[eid]
        if tags.get(ZONE) == Z_PLAY and tags.get(CARDTYPE) == T_MINION:
            self.play_order.append(eid)

    # ------------------------------------------------------------------ what is hidden

    def coin(self) -> int:
        """The Coin's entity id (0 if none): the one card a game creates straight into a
        hand (the second player's, before the mulligan), so even a hidden one is known."""
        for eid, (card_id, _) in self.entities.items():
            if card_id == COIN:
                return eid
        for eid, zone in self.created_in.items():
            if zone == Z_HAND:
                return eid
        return 0

    def unseen(self, player: int, deck_list: Sequence[str]) -> list[str]:
        """What the opponent of ``player`` may still hold, hand and deck together: their
        ``deck_list`` less every card of it they have shown (cards that began in their deck
        and were seen as some card id since)."""
        left = Counter(deck_list)
        for eid, zone in self.created_in.items():
            if zone != Z_DECK or eid not in self.first_card:
                continue
            _, tags = self.entities[eid]
            if tags.get(CONTROLLER) == 3 - player:
                left[self.first_card[eid]] -= 1
        return sorted(left.elements())

    def state(
        self,
        player: int,
        seed: int,
        opponent_deck: Sequence[str] | None = None,
        turn_cap: int | None = None,
        choice: tuple[int, Sequence[int], int] | None = None,
    ) -> State:
        """A playable State for ``player`` (:meth:`State.from_view`): the opponent's hidden
        cards are drawn from what is left of ``opponent_deck`` when it is given; ``choice``
        is the mid-turn choice open now, as its ``entity_choices`` tells it."""
        pool = None if opponent_deck is None else self.unseen(player, opponent_deck)
        return State.from_view(
            self.entities,
            player,
            seed,
            play_order=self.play_order,
            coin=self.coin(),
            opponent_cards=pool,
            turn_cap=turn_cap,
            choice=choice,
        )


def fold(entries: Iterable[Mapping[str, Any]]) -> Entities:
    """The entity tree a history stream describes: id -> (card id, {tag: value})."""
    tree = ViewTree()
    tree.feed(entries)
    return tree.entities


__all__ = ["Entities", "ViewTree", "fold"]
