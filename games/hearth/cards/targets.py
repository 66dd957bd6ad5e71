"""Play-requirement sets shared by the card modules (PlayReq -> parameter).

This module declares no card; it only names the requirement combinations the Basic set
uses, so each declaration reads like its card text.
"""

from __future__ import annotations

from ..enums import PlayReq

_TARGET = PlayReq.REQ_TARGET_TO_PLAY
_IF_AVAILABLE = PlayReq.REQ_TARGET_IF_AVAILABLE
_MINION = PlayReq.REQ_MINION_TARGET

# Spells that cannot be cast without a target.
A_MINION: dict[PlayReq, int] = {_TARGET: 0, _MINION: 0}
DAMAGED_ENEMY_MINION: dict[PlayReq, int] = {
    _TARGET: 0,
    _MINION: 0,
    PlayReq.REQ_ENEMY_TARGET: 0,
    PlayReq.REQ_DAMAGED_TARGET: 0,
}
# Battlecries: a target is chosen when one exists, else the minion is played without one.
ANY_IF_AVAILABLE: dict[PlayReq, int] = {_IF_AVAILABLE: 0, PlayReq.REQ_NONSELF_TARGET: 0}
MINION_IF_AVAILABLE: dict[PlayReq, int] = {
    _IF_AVAILABLE: 0,
    _MINION: 0,
    PlayReq.REQ_NONSELF_TARGET: 0,
}
FRIENDLY_MINION_IF_AVAILABLE: dict[PlayReq, int] = {
    _IF_AVAILABLE: 0,
    _MINION: 0,
    PlayReq.REQ_FRIENDLY_TARGET: 0,
    PlayReq.REQ_NONSELF_TARGET: 0,
}
OTHER_MINION_IF_AVAILABLE = MINION_IF_AVAILABLE
# Summoning spells need a free board slot (SabberStone: REQ_NUM_MINION_SLOTS = 1).
ONE_SLOT: dict[PlayReq, int] = {PlayReq.REQ_NUM_MINION_SLOTS: 1}
# Shadow Word: Pain / Death, Backstab (SabberStone CardDefs).
MINION_MAX_ATTACK_3: dict[PlayReq, int] = {_TARGET: 0, _MINION: 0, PlayReq.REQ_TARGET_MAX_ATTACK: 3}
MINION_MIN_ATTACK_5: dict[PlayReq, int] = {_TARGET: 0, _MINION: 0, PlayReq.REQ_TARGET_MIN_ATTACK: 5}
UNDAMAGED_MINION: dict[PlayReq, int] = {_TARGET: 0, _MINION: 0, PlayReq.REQ_UNDAMAGED_TARGET: 0}
