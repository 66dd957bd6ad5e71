"""Plain-int game constants taken from ``hearthstone.enums`` (hot paths avoid IntEnum lookups).

The values are the game's own numbers, the ones Kettle history and hslog expect.
``PlayReq`` is not in ``hearthstone`` 9.x; its values are those of the game client
(``PlayErrors.ErrorType``) as SabberStone and old fireplace list them.
"""

from __future__ import annotations

from enum import IntEnum

# Re-exported: the engine names these enums through this module only.
from hearthstone.enums import BlockType as BlockType
from hearthstone.enums import CardType as CardType
from hearthstone.enums import GameTag as GameTag
from hearthstone.enums import MetaDataType as MetaDataType
from hearthstone.enums import Mulligan as Mulligan
from hearthstone.enums import PlayState as PlayState
from hearthstone.enums import Race as Race
from hearthstone.enums import State as State
from hearthstone.enums import Step as Step
from hearthstone.enums import Zone as Zone


class PlayReq(IntEnum):
    """Play requirements (client ``PlayErrors.ErrorType`` numbers)."""

    REQ_MINION_TARGET = 1
    REQ_FRIENDLY_TARGET = 2
    REQ_ENEMY_TARGET = 3
    REQ_DAMAGED_TARGET = 4
    REQ_NONSELF_TARGET = 9
    REQ_TARGET_TO_PLAY = 11
    REQ_NUM_MINION_SLOTS = 12
    REQ_WEAPON_EQUIPPED = 13
    REQ_HERO_TARGET = 17
    REQ_MINION_CAP = 20
    REQ_TARGET_IF_AVAILABLE = 22
    REQ_TARGET_WITH_RACE = 10
    REQ_MINIMUM_ENEMY_MINIONS = 23
    REQ_TARGET_IF_AVAILABLE_AND_HERO_ATTACKED_THIS_TURN = 94
    REQ_UNDAMAGED_TARGET = 5
    REQ_TARGET_MAX_ATTACK = 8
    REQ_TARGET_MIN_ATTACK = 41
    REQ_ENTIRE_ENTOURAGE_NOT_IN_PLAY = 44
    REQ_MUST_TARGET_TAUNTER = 46  # neutralA: The Black Knight
    REQ_MINIMUM_TOTAL_MINIONS = 45  # warlock: Brawl


# Tags, as plain ints.
TURN = int(GameTag.TURN)
STEP = int(GameTag.STEP)
NEXT_STEP = int(GameTag.NEXT_STEP)
STATE = int(GameTag.STATE)
PLAYSTATE = int(GameTag.PLAYSTATE)
CURRENT_PLAYER = int(GameTag.CURRENT_PLAYER)
FIRST_PLAYER = int(GameTag.FIRST_PLAYER)
PLAYER_ID = int(GameTag.PLAYER_ID)
TEAM_ID = int(GameTag.TEAM_ID)
HERO_ENTITY = int(GameTag.HERO_ENTITY)
HERO_POWER_ENTITY = int(GameTag.HERO_POWER_ENTITY)
WEAPON = int(GameTag.WEAPON)
MAXHANDSIZE = int(GameTag.MAXHANDSIZE)
STARTHANDSIZE = int(GameTag.STARTHANDSIZE)
MAXRESOURCES = int(GameTag.MAXRESOURCES)
RESOURCES = int(GameTag.RESOURCES)
RESOURCES_USED = int(GameTag.RESOURCES_USED)
TEMP_RESOURCES = int(GameTag.TEMP_RESOURCES)
FATIGUE = int(GameTag.FATIGUE)
MULLIGAN_STATE = int(GameTag.MULLIGAN_STATE)
NUM_CARDS_DRAWN_THIS_TURN = int(GameTag.NUM_CARDS_DRAWN_THIS_TURN)
NUM_CARDS_PLAYED_THIS_TURN = int(GameTag.NUM_CARDS_PLAYED_THIS_TURN)
NUM_MINIONS_PLAYED_THIS_TURN = int(GameTag.NUM_MINIONS_PLAYED_THIS_TURN)
NUM_TURNS_IN_PLAY = int(GameTag.NUM_TURNS_IN_PLAY)

ENTITY_ID = int(GameTag.ENTITY_ID)
CARDTYPE = int(GameTag.CARDTYPE)
ZONE = int(GameTag.ZONE)
ZONE_POSITION = int(GameTag.ZONE_POSITION)
CONTROLLER = int(GameTag.CONTROLLER)
ATK = int(GameTag.ATK)
HEALTH = int(GameTag.HEALTH)
DAMAGE = int(GameTag.DAMAGE)
COST = int(GameTag.COST)
ARMOR = int(GameTag.ARMOR)
DURABILITY = int(GameTag.DURABILITY)
EXHAUSTED = int(GameTag.EXHAUSTED)
FROZEN = int(GameTag.FROZEN)
FREEZE = int(GameTag.FREEZE)
NUM_ATTACKS_THIS_TURN = int(GameTag.NUM_ATTACKS_THIS_TURN)
TAUNT = int(GameTag.TAUNT)
CHARGE = int(GameTag.CHARGE)
DIVINE_SHIELD = int(GameTag.DIVINE_SHIELD)
WINDFURY = int(GameTag.WINDFURY)
STEALTH = int(GameTag.STEALTH)
IMMUNE = int(GameTag.IMMUNE)
SECRET = int(GameTag.SECRET)
OVERLOAD = int(GameTag.OVERLOAD)
OVERLOAD_OWED = int(GameTag.OVERLOAD_OWED)
OVERLOAD_LOCKED = int(GameTag.OVERLOAD_LOCKED)
CLASS = int(GameTag.CLASS)
CANT_PLAY = int(GameTag.CANT_PLAY)
CARD_TARGET = int(GameTag.CARD_TARGET)
RUSH = int(GameTag.RUSH)
LIFESTEAL = int(GameTag.LIFESTEAL)
POISONOUS = int(GameTag.POISONOUS)
CANNOT_ATTACK_HEROES = int(GameTag.CANNOT_ATTACK_HEROES)
CANT_ATTACK = int(GameTag.CANT_ATTACK)
SPELLPOWER = int(GameTag.SPELLPOWER)
SILENCED = int(GameTag.SILENCED)
DEATHRATTLE = int(GameTag.DEATHRATTLE)
BATTLECRY = int(GameTag.BATTLECRY)
ENRAGED = int(GameTag.ENRAGED)
AURA = int(GameTag.AURA)
ADJACENT_BUFF = int(GameTag.ADJACENT_BUFF)
TO_BE_DESTROYED = int(GameTag.TO_BE_DESTROYED)
ATTACHED = int(GameTag.ATTACHED)
CREATOR = int(GameTag.CREATOR)
ONE_TURN_EFFECT = int(GameTag.TAG_ONE_TURN_EFFECT)
SCRIPT_DATA_NUM_1 = int(GameTag.TAG_SCRIPT_DATA_NUM_1)
SCRIPT_DATA_NUM_2 = int(GameTag.TAG_SCRIPT_DATA_NUM_2)
CARDRACE = int(GameTag.CARDRACE)
JUST_PLAYED = int(GameTag.JUST_PLAYED)
ATTACKING = int(GameTag.ATTACKING)
DEFENDING = int(GameTag.DEFENDING)
PROPOSED_ATTACKER = int(GameTag.PROPOSED_ATTACKER)
PROPOSED_DEFENDER = int(GameTag.PROPOSED_DEFENDER)
PREDAMAGE = int(GameTag.PREDAMAGE)
LAST_AFFECTED_BY = int(GameTag.LAST_AFFECTED_BY)

# Zones.
Z_PLAY = int(Zone.PLAY)
Z_DECK = int(Zone.DECK)
Z_HAND = int(Zone.HAND)
Z_GRAVEYARD = int(Zone.GRAVEYARD)
Z_SETASIDE = int(Zone.SETASIDE)
Z_SECRET = int(Zone.SECRET)
Z_REMOVED = int(Zone.REMOVEDFROMGAME)

# Card types.
T_GAME = int(CardType.GAME)
T_PLAYER = int(CardType.PLAYER)
T_HERO = int(CardType.HERO)
T_MINION = int(CardType.MINION)
T_SPELL = int(CardType.SPELL)
T_ENCHANTMENT = int(CardType.ENCHANTMENT)
T_WEAPON = int(CardType.WEAPON)
T_HERO_POWER = int(CardType.HERO_POWER)

# Races used by the card set.
R_MURLOC = int(Race.MURLOC)
R_BEAST = int(Race.BEAST)
R_TOTEM = int(Race.TOTEM)
R_DEMON = int(Race.DEMON)

# Limits.
MAX_HAND = 10
MAX_SECRETS = 5
MAX_BOARD = 7
MAX_MANA = 10

# Power block and meta data types (history), as plain ints.
B_ATTACK = int(BlockType.ATTACK)
B_POWER = int(BlockType.POWER)
B_TRIGGER = int(BlockType.TRIGGER)
B_DEATHS = int(BlockType.DEATHS)
B_PLAY = int(BlockType.PLAY)
B_FATIGUE = int(BlockType.FATIGUE)
M_DAMAGE = int(MetaDataType.DAMAGE)
M_HEALING = int(MetaDataType.HEALING)
M_TARGET = int(MetaDataType.TARGET)

# --- neutralA ---
SCRIPT_DATA_NUM_3 = int(GameTag.TAG_SCRIPT_DATA_NUM_3)
SCRIPT_DATA_NUM_4 = int(GameTag.TAG_SCRIPT_DATA_NUM_4)

# --- neutralB ---
R_PIRATE = int(Race.PIRATE)
R_DRAGON = int(Race.DRAGON)
R_MECHANICAL = int(Race.MECHANICAL)
RARITY = int(GameTag.RARITY)
R_LEGENDARY = 5  # Rarity.LEGENDARY
CANT_BE_TARGETED_BY_SPELLS = int(GameTag.CANT_BE_TARGETED_BY_SPELLS)
CANT_BE_TARGETED_BY_HERO_POWERS = int(GameTag.CANT_BE_TARGETED_BY_HERO_POWERS)
# Deaths of friendly minions, on the player entity as a real log writes them; on a dead
# minion the game count at its death orders the graveyard (High Inquisitor Whitemane).
NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN = int(GameTag.NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_TURN)
NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME = int(GameTag.NUM_FRIENDLY_MINIONS_THAT_DIED_THIS_GAME)

# --- control ---
# The controller's tags that Prophet Velen and Auchenai Soulpriest give (real logs put them
# on the player entity); here they are counted from the minions in play (CardScript's
# ``player_tags``), never stored.
HEALING_DOES_DAMAGE = int(GameTag.HEALING_DOES_DAMAGE)
SPELLPOWER_DOUBLE = int(GameTag.SPELLPOWER_DOUBLE)
SPELL_HEALING_DOUBLE = int(GameTag.SPELL_HEALING_DOUBLE)
HERO_POWER_DOUBLE = int(GameTag.HERO_POWER_DOUBLE)
# A copy whose identity the original's controller knows (Lorewalker Cho's copy of their
# spell in the other hand): determinized() keeps it.
COPIED_FROM_ENTITY_ID = int(GameTag.COPIED_FROM_ENTITY_ID)

# --- warlock ---
HEALTH_MINIMUM = int(GameTag.HEALTH_MINIMUM)

# --- hunter ---
# Gladiator's Longbow: the hero is Immune while its ATTACKING tag is set (fireplace's rule).
IMMUNE_WHILE_ATTACKING = int(GameTag.IMMUNE_WHILE_ATTACKING)
