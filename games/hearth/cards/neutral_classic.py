"""Classic neutral minions whose text is a trigger or an enrage, declared by id.

The triggers use the event layer (docs/hearth-engine.md, "Triggers"): "whenever you cast a
spell" resolves before the spell's text, "after you cast a spell" after it; "whenever a
minion dies" when the death phase removes it.

>>> from games.hearth import scenario as S
>>> g = S.prepared()
>>> pyro = S.summon(g, 1, "NEW1_020")           # Wild Pyromancer
>>> wisp = S.summon(g, 2, "CS2_231")
>>> S.play(g, S.give(g, 1, "CS2_024"), g.hero[2])   # Frostbolt, then 1 to all minions
>>> g.health(pyro), g.ents[wisp][ZONE] == Z_GRAVEYARD
(1, True)
"""

from __future__ import annotations

from ..dsl import (
    ALL_CHARACTERS,
    ALL_MINIONS,
    ENEMY_CHARACTERS,
    ENEMY_HERO,
    EV_AFTER_CAST,
    EV_CAST,
    EV_DIED,
    EV_HEALED,
    EV_PLAYED,
    EV_SUMMONED,
    EV_TURN_END,
    EV_TURN_START,
    ON_ANY,
    ON_FRIENDLY,
    ON_FRIENDLY_MINION,
    ON_FRIENDLY_PLAYER,
    ON_OTHER_FRIENDLY_MINION,
    SELF,
    Buff,
    Damage,
    DamageRandom,
    Draw,
    Seq,
    Summon,
    Trigger,
    card,
    enchantment,
    is_race,
    vanilla,
)
from ..enums import CARDRACE, R_MURLOC, T_MINION, Z_GRAVEYARD, ZONE  # noqa: F401 (doctest)

# ------------------------------------------------------------------------------ spells cast

card("EX1_044", trigger=Trigger(EV_PLAYED, Buff(SELF, "EX1_044e"), ON_FRIENDLY))  # Questing
enchantment("EX1_044e", atk=1, health=1)
card("NEW1_026", trigger=Trigger(EV_CAST, Summon("NEW1_026t"), ON_FRIENDLY))  # Violet Teacher
card("NEW1_020", trigger=Trigger(EV_AFTER_CAST, Damage(ALL_MINIONS, 1), ON_FRIENDLY))  # Pyro
card("EX1_095", trigger=Trigger(EV_CAST, Draw(1), ON_FRIENDLY))  # Gadgetzan Auctioneer

# ------------------------------------------------------------------------------ deaths

card("tt_004", trigger=Trigger(EV_DIED, Buff(SELF, "tt_004o"), ON_ANY))  # Flesheating Ghoul
enchantment("tt_004o", atk=1)
card("EX1_595", trigger=Trigger(EV_DIED, Draw(1), ON_FRIENDLY_MINION))  # Cult Master
card("EX1_029", deathrattle=Damage(ENEMY_HERO, 2))  # Leper Gnome

# ------------------------------------------------------------------------------ damage, healing

card(  # Lightwarden: any character, either side
    "EX1_001", trigger=Trigger(EV_HEALED, Buff(SELF, "EX1_001e"), ON_ANY)
)
enchantment("EX1_001e", atk=2)
card("EX1_412", enrage="EX1_412e")  # Raging Worgen: +1 Attack and Windfury while damaged
enchantment("EX1_412e", atk=1, windfury=1)
card("EX1_390", enrage="EX1_390e")  # Tauren Warrior
enchantment("EX1_390e", atk=3)

# ------------------------------------------------------------------------------ summons

card(  # Murloc Tidecaller: another friendly Murloc, summoned or played
    "EX1_509",
    trigger=Trigger(
        EV_SUMMONED, Buff(SELF, "EX1_509e"), ON_OTHER_FRIENDLY_MINION, when=is_race(R_MURLOC)
    ),
)
enchantment("EX1_509e", atk=1)

# ------------------------------------------------------------------------------ turn start and end

card("NEW1_038", trigger=Trigger(EV_TURN_END, Buff(SELF, "NEW1_038o"), ON_ANY))  # Gruul
enchantment("NEW1_038o", atk=1, health=1)
card(  # Imp Master: the damage first, then the Imp (to its right)
    "EX1_597",
    trigger=Trigger(EV_TURN_END, Seq(Damage(SELF, 1), Summon("EX1_598")), ON_FRIENDLY_PLAYER),
)
card(  # Demolisher
    "EX1_102", trigger=Trigger(EV_TURN_START, DamageRandom(ENEMY_CHARACTERS, 2), ON_FRIENDLY_PLAYER)
)
card("NEW1_040", trigger=Trigger(EV_TURN_END, Summon("NEW1_040t"), ON_FRIENDLY_PLAYER))  # Hogger
card(  # Baron Geddon
    "EX1_249",
    trigger=Trigger(EV_TURN_END, Damage(ALL_CHARACTERS - SELF, 2), ON_FRIENDLY_PLAYER),
)
card(  # Ragnaros the Firelord (Hall of Fame; Can't Attack is a card-data tag)
    "EX1_298",
    trigger=Trigger(EV_TURN_END, DamageRandom(ENEMY_CHARACTERS, 8), ON_FRIENDLY_PLAYER),
)

vanilla("EX1_563")  # Malygos: Spell Damage +5
