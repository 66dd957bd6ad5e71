"""Scenario helpers for tests and experiments (fireplace's ``prepare_game`` / ``give``).

>>> from games.hearth import scenario as S
>>> g = S.prepared()                      # turn 1, player 1 to act, 10 mana each
>>> fb = S.give(g, 1, "CS2_029")
>>> S.play(g, fb, target=g.hero[2])
>>> g.health(g.hero[2])
24
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from . import new_game
from .actions import END_TURN, Action, Kind
from .enums import EXHAUSTED, RESOURCES, RESOURCES_USED, Z_REMOVED
from .game import State

FILLER = ("CS2_231",) * 30  # Wisps: harmless draws


def prepared(
    hero1: str = "HERO_08",
    hero2: str = "HERO_01",
    deck1: Sequence[str] = FILLER,
    deck2: Sequence[str] = FILLER,
    mana: int | None = 10,
    seed: int = 0,
    history: bool = False,
    clear_hands: bool = True,
) -> State:
    """A game past the mulligan (both keep), player 1 in MAIN_ACTION of turn 1.

    ``mana``: both players' crystals (None = the real 1); ``clear_hands``: remove the
    opening hands (and The Coin) so a test starts from empty hands."""
    g = new_game(seed=seed, decks=[(hero1, deck1), (hero2, deck2)], shuffle=False,
                 history=history, first_player=1)
    for p in (1, 2):
        g.apply(Action(Kind.MULLIGAN, p))
    if clear_hands:
        for p in (1, 2):
            for eid in list(g.hand[p]):
                remove(g, eid)
    if mana is not None:
        set_mana(g, 1, mana)
        set_mana(g, 2, mana)
    g._legal = None
    return g


def set_mana(g: State, p: int, crystals: int) -> None:
    pe = g.ents[1 + p]
    g._set(pe, RESOURCES, crystals)
    g._set(pe, RESOURCES_USED, 0)
    g._legal = None


def remove(g: State, eid: int) -> None:
    """Take a card out of hand or deck (to REMOVEDFROMGAME)."""
    e = g.ents[eid]
    p = g.controller(e)
    for zone in (g.hand[p], g.deck[p]):
        if eid in zone:
            zone.remove(eid)
    g._move(e, Z_REMOVED)
    g._positions(g.hand[p])
    g._legal = None


def empty_deck(g: State, p: int) -> None:
    for eid in list(g.deck[p]):
        remove(g, eid)


def give(g: State, p: int, card_id: str) -> int:
    """Put a new ``card_id`` into ``p``'s hand; returns its entity id."""
    eid = g.give(p, card_id)
    g._legal = None
    return eid


def summon(g: State, p: int, card_id: str, position: int | None = None, ready: bool = True) -> int:
    """Put a new minion straight onto ``p``'s board (``ready``: it may attack this turn)."""
    pos = len(g.board[p]) if position is None else position
    eid = g.summon(p, card_id, pos)
    if eid and ready:
        g._set(g.ents[eid], EXHAUSTED, 0)
    g._deaths()
    g._legal = None
    return eid


def hit(g: State, target: int, amount: int, source: int = 1) -> int:
    """Deal damage outside any card (a test's stand-in for "something hits it"), then
    resolve triggers and deaths as the end of an effect would. Returns the damage dealt."""
    dealt = g.damage(source, target, amount)
    g._deaths()
    return dealt


def resolve(g: State) -> None:
    """Resolve queued triggers and deaths after direct engine calls."""
    g._deaths()


def play(g: State, eid: int, target: int = 0, position: int | None = None) -> None:
    """Play a card from the current player's hand (a minion goes to the right end by default)."""
    pos = -1
    e = g.ents[eid]
    if e.card.type == 4:  # minion
        pos = len(g.board[g.current]) if position is None else position
    g.apply(Action(Kind.PLAY, eid, target, pos))


def power(g: State, target: int = 0) -> None:
    g.apply(Action(Kind.POWER, g.power[g.current], target))


def attack(g: State, attacker: int, defender: int) -> None:
    g.apply(Action(Kind.ATTACK, attacker, defender))


def end_turn(g: State) -> None:
    g.apply(END_TURN)


def entries(history: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every entry of a history (``g.history(viewer)``), the blocks' contents included, in
    order: a block, then what it holds.

    >>> g = prepared(history=True)
    >>> fb = give(g, 1, "CS2_029"); play(g, fb, target=g.hero[2])
    >>> [e["power_block"]["entityID"] for e in entries(g.history(viewer=1))
    ...  if "power_block" in e][-1] == fb                  # the Fireball's PLAY block
    True
    """
    for e in history:
        yield e
        if "power_block" in e:
            yield from entries(e["power_block"]["history"])
