"""Bots against each other in one process, straight on the engine (no codec, no socket).

For tests, tuning and quick series: the same ``Bot`` classes the Kettle kit drives.

>>> from bots.hearth.bundled import GreedyBot, RandomBot
>>> game = play_game((GreedyBot(seed=1), RandomBot(seed=2)), seed=7)
>>> game.is_over, game.result().winner in (0, 1, 2)
(True, True)
>>> play_game((GreedyBot(seed=1), RandomBot(seed=2)), seed=7).hash() == game.hash()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from bots.hearth.bot import Bot, Outcome
from games.hearth import Action, Kind, State, new_game

__all__ = ["IllegalBotAction", "play_game", "play_state"]


class IllegalBotAction(ValueError):
    """A bot answered with something that is not one of its options."""


def play_game(
    bots: tuple[Bot, Bot],
    seed: int,
    *,
    decks: Sequence[tuple[str, Sequence[str]]] | None = None,
    first_player: int | None = None,
    turn_cap: int | None = None,
    private: bool = True,
    max_actions: int = 5000,
) -> State:
    """Play one game from ``new_game(seed)``: ``bots[0]`` is player 1. Returns the final state.

    ``private``: each decision gets a clone of the game (a bot may search it freely);
    ``private=False`` hands out the game itself, which saves a clone per decision for bots
    known not to write to it (the bundled ones).
    """
    state = new_game(seed=seed, decks=decks, first_player=first_player, turn_cap=turn_cap)
    return play_state(state, bots, private=private, max_actions=max_actions)


def play_state(
    state: State, bots: tuple[Bot, Bot], *, private: bool = True, max_actions: int = 5000
) -> State:
    """Play ``state`` (at its mulligan or later) to the end with ``bots``; see ``play_game``."""
    for p in (1, 2):
        bots[p - 1].on_start(p)
    for _ in range(max_actions):
        if state.is_over:
            break
        for player in state.pending():
            bot = bots[player - 1]
            view = state.clone() if private else state
            options = state.legal_actions(player)
            if options[0].kind == Kind.MULLIGAN:
                choices = sorted({c for a in options for c in a.cards})
                replace = bot.mulligan(view, choices)
                action = Action(Kind.MULLIGAN, player, cards=tuple(sorted(set(replace))))
            elif options[0].kind == Kind.CHOOSE:
                # A mid-turn choice goes to Bot.choose, as an entity_choices does over Kettle.
                picked = bot.choose(view, [a.cards[0] for a in options], 1, 1)
                action = Action(Kind.CHOOSE, player, cards=tuple(picked))
            else:
                action = bot.act(view, options)
            if action not in options:
                raise IllegalBotAction(f"{bot.name} answered {action!r}, not one of its options")
            state.apply(action, player)
            if state.is_over or options[0].kind != Kind.MULLIGAN:
                break  # after an action the next decision may be the same player's again
    result = state.result()
    for p in (1, 2):
        bots[p - 1].on_result(Outcome(p, None if result is None else result.winner,
                                      "" if result is None else result.reason))
    return state
