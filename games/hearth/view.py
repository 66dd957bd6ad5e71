"""What a game looks like from outside the engine: per-player observations and the tag tree.

Presentation only: nothing here changes a game. :meth:`games.hearth.game.State.observation`
delegates to :func:`observation`.
"""

from __future__ import annotations

from typing import Any

from .actions import Action
from .core import Core
from .enums import (
    ARMOR,
    ATK,
    DAMAGE,
    DIVINE_SHIELD,
    DURABILITY,
    ENTITY_ID,
    EXHAUSTED,
    FATIGUE,
    FROZEN,
    HEALTH,
    NUM_ATTACKS_THIS_TURN,
    RESOURCES,
    SILENCED,
    TAUNT,
    TURN,
)


def observation(state: Core, player: int, legal_actions: list[Action]) -> dict[str, Any]:
    """What ``player`` may see: own hand and secrets in full; the opponent's hand and deck
    as counts, its secrets as their classes.

    ``legal_actions``: the actions ``player`` may take now (empty when not to move)."""
    if player not in (1, 2):
        raise ValueError("player must be 1 or 2")
    ents = state.ents

    def char(i: int) -> dict[str, Any]:
        e = ents[i]
        return {
            "entity": i,
            "card": e.card.id,
            "atk": e[ATK],
            "health": e[HEALTH] - e[DAMAGE],
            "max_health": e[HEALTH],
            "taunt": bool(e[TAUNT]),
            "divine_shield": bool(e[DIVINE_SHIELD]),
            "frozen": bool(e[FROZEN]),
            "exhausted": bool(e[EXHAUSTED]),
            "attacks": e[NUM_ATTACKS_THIS_TURN],
            "armor": e[ARMOR],
            "silenced": bool(e[SILENCED]),
        }

    def side(q: int, own: bool) -> dict[str, Any]:
        pe = ents[1 + q]
        w = state.weapon[q]
        d: dict[str, Any] = {
            "hero": char(state.hero[q]),
            "hero_power": {
                "entity": state.power[q],
                "card": ents[state.power[q]].card.id,
                "used": bool(ents[state.power[q]][EXHAUSTED]),
            },
            "weapon": None
            if not w
            else {
                "entity": w,
                "card": ents[w].card.id,
                "atk": ents[w][ATK],
                "durability": ents[w][DURABILITY] - ents[w][DAMAGE],
            },
            "board": [char(i) for i in state.board[q]],
            "mana": state.mana(q),
            "max_mana": pe[RESOURCES],
            "fatigue": pe[FATIGUE],
            "deck_count": len(state.deck[q]),
            "hand_count": len(state.hand[q]),
        }
        # Secrets: the owner sees the cards; the opponent only how many and their class.
        d["secrets"] = [
            {"entity": i, "card": ents[i].card.id} if own
            else {"entity": i, "class": ents[i].card.card_class}
            for i in state.secrets[q]
        ]
        if own:
            d["hand"] = [
                {"entity": i, "card": ents[i].card.id, "cost": state.cost(i)}
                for i in state.hand[q]
            ]
        else:
            d["hand"] = [{"entity": i} for i in state.hand[q]]
        return d

    # --- hunter --- a pending mid-turn choice: its player sees the cards, the other one
    # only the entity ids (the cards came from a hidden deck).
    choice: dict[str, Any] | None = None
    if state.choices and not state.over:
        pick = state.choices[0]
        mine = pick.player == player
        choice = {
            "player": pick.player,
            "source": pick.source,
            "entities": [
                {"entity": i, "card": ents[i].card.id, "cost": state.cost(i)} if mine
                else {"entity": i}
                for i in pick.offered
            ],
        }
    return {
        "choice": choice,
        "player": player,
        "turn": ents[1][TURN],
        "step": state.step,
        "current_player": state.current,
        "you": side(player, True),
        "opponent": side(3 - player, False),
        "legal_actions": legal_actions,
        "over": state.over,
    }


def entities(state: Core) -> dict[int, tuple[str, dict[int, int]]]:
    """Every entity: id -> (card id, current tags), for introspection and validation.

    >>> from games import hearth
    >>> tree = entities(hearth.new_game(seed=1))
    >>> tree[1][0], tree[2][1][ENTITY_ID]
    ('', 2)
    """
    out = {}
    for i, e in state.ents.items():
        tags = e.all_tags()
        tags[ENTITY_ID] = i
        out[i] = (e.card.id, tags)
    return out


__all__ = ["entities", "observation"]
