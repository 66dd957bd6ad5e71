"""Taking control of minions and copying cards (Priest and neutral Classic).

Taking control moves the minion, tags, enchantments and place in the order of play kept,
to the right end of the taker's board, with summoning sickness unless it has Charge; a
full board destroys it instead (SabberStone). A copy into a hand is a new card, hidden from
the opponent like any card in a hand.

>>> from games.hearth import scenario as S
>>> g = S.prepared(hero1="HERO_09")
>>> yeti = S.summon(g, 2, "CS2_182")
>>> S.play(g, S.give(g, 1, "CS1_113"), yeti)   # Mind Control
>>> g.controller_of(yeti), g.board[1] == [yeti]
(1, True)
"""

from __future__ import annotations

from ..dsl import (
    ENEMY_MINIONS,
    EV_CAST,
    EV_TURN_END,
    ON_ANY,
    ON_FRIENDLY_PLAYER,
    RANDOM,
    TARGET,
    Buff,
    CopyFromDeck,
    CopyFromHand,
    CopyToOtherPlayer,
    Count,
    GiveBack,
    If,
    RemoveSelf,
    SummonFromEnemyDeck,
    TakeControl,
    Trigger,
    card,
)
from ..enums import CHARGE, PlayReq
from ..primitives import Ctx, Primitives
from ..script import CardScript, register
from .targets import ONE_SLOT

_ENEMY_MINION = {
    PlayReq.REQ_TARGET_TO_PLAY: 0,
    PlayReq.REQ_MINION_TARGET: 0,
    PlayReq.REQ_ENEMY_TARGET: 0,
}


def _four_enemy_minions(g: Primitives, ctx: Ctx) -> bool:
    return Count(ENEMY_MINIONS).eval(g, ctx) >= 4


card(  # Mind Control
    "CS1_113",
    spell=TakeControl(TARGET),
    requirements={**_ENEMY_MINION, PlayReq.REQ_NUM_MINION_SLOTS: 1},
)
# Shadow Madness: EX1_334e gives Charge (it may attack at once) and goes at the end of the
# turn; whenever it goes (the end of the turn, a Silence) the minion goes back
# (SabberStone's EX1_334e and Silence; the brief expected a silenced minion to stay).
card(
    "EX1_334",
    spell=[TakeControl(TARGET), Buff(TARGET, "EX1_334e")],
    requirements={
        **_ENEMY_MINION,
        PlayReq.REQ_NUM_MINION_SLOTS: 1,
        PlayReq.REQ_TARGET_MAX_ATTACK: 3,
    },
)
register(
    "EX1_334e",
    CardScript(
        buff=((CHARGE, 1),),
        triggers=(Trigger(EV_TURN_END, RemoveSelf(), ON_FRIENDLY_PLAYER),),
        on_removed=GiveBack(),
    ),
)
card(  # Cabal Shadow Priest
    "EX1_091",
    battlecry=TakeControl(TARGET),
    requirements={
        PlayReq.REQ_TARGET_IF_AVAILABLE: 0,
        PlayReq.REQ_MINION_TARGET: 0,
        PlayReq.REQ_ENEMY_TARGET: 0,
        PlayReq.REQ_TARGET_MAX_ATTACK: 2,
    },
)
card("EX1_016", deathrattle=TakeControl(RANDOM(ENEMY_MINIONS)))  # Sylvanas Windrunner
card(  # Mind Control Tech: counted when the battlecry runs
    "EX1_085", battlecry=If(_four_enemy_minions, TakeControl(RANDOM(ENEMY_MINIONS)))
)
card("CS2_003", spell=CopyFromHand())  # Mind Vision
card("EX1_339", spell=CopyFromDeck(2))  # Thoughtsteal
card("EX1_193", battlecry=CopyFromDeck(1))  # Psychic Conjurer
card("EX1_345", spell=SummonFromEnemyDeck("EX1_345t"), requirements=ONE_SLOT)  # Mindgames
# Lorewalker Cho: either player's spell, a copy to the other player's hand.
card("EX1_100", trigger=Trigger(EV_CAST, CopyToOtherPlayer(), ON_ANY))
