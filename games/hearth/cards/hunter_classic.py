"""Hunter Classic cards (Expert set), with their tokens and enchantments.

Tracking offers its player a mid-turn choice (``Kind.CHOOSE``) among the top three cards
of their deck:

>>> from games.hearth import Action, Kind, scenario as S
>>> g = S.prepared(hero1="HERO_05", deck1=["CS2_231"] * 4 + ["CS2_182", "CS2_200", "CS2_231"])
>>> top = g.deck[1][::-1][:3]
>>> S.play(g, S.give(g, 1, "DS1_184"))            # Tracking
>>> g.pending_choice == (1, tuple(top))
True
>>> g.apply(Action(Kind.CHOOSE, 1, cards=(top[1],)))
>>> g.hand[1][-1] == top[1], len(g.deck[1]), g.card_id(top[1])
(True, 0, 'CS2_200')
"""

from __future__ import annotations

from ..dsl import (
    ADJACENT_TO_TARGET,
    ALL_MINIONS,
    ENEMY_MINIONS,
    ENEMY_SECRETS,
    EV_SECRET_REVEALED,
    FRIENDLY_HERO,
    ON_FRIENDLY,
    ONE_OF,
    RANDOM,
    SELF,
    TARGET,
    Aura,
    Buff,
    ChooseFromDeck,
    Damage,
    Destroy,
    DestroySecret,
    Draw,
    SetTag,
    Summon,
    SummonFor,
    Trigger,
    card,
    draw_chosen_discard_rest,
    enchantment,
    vanilla,
)
from ..enums import R_BEAST, STEALTH, PlayReq

# Tracking: "Look at the top 3 cards of your deck. Draw one and discard the others."
card("DS1_184", spell=ChooseFromDeck(3, draw_chosen_discard_rest))
# Gladiator's Longbow: the hero is Immune for as long as it is ATTACKING (secrets set off by
# the attack included), as fireplace's IMMUNE_WHILE_ATTACKING.
card("DS1_188", aura=Aura(FRIENDLY_HERO, "DS1_188e"))
enchantment("DS1_188e", immune_while_attacking=1)
card("EX1_534", deathrattle=Summon("EX1_534t", count=2, side="slot"))  # Savannah Highmane
vanilla("EX1_534t")  # Hyena
card(  # Eaglehorn Bow: +1 Durability whenever a friendly secret goes off (not Flare's)
    "EX1_536",
    trigger=Trigger(EV_SECRET_REVEALED, Buff(SELF, "EX1_536e"), ON_FRIENDLY),
)
enchantment("EX1_536e", durability=1)
card(  # Explosive Shot: the neighbours are those of the target before the 5 is dealt
    "EX1_537",
    spell=[Damage(TARGET, 5, spell=True), Damage(ADJACENT_TO_TARGET, 2, spell=True)],
    requirements={PlayReq.REQ_TARGET_TO_PLAY: 0, PlayReq.REQ_MINION_TARGET: 0},
)
card(  # Unleash the Hounds: counted when cast, as many Hounds as fit
    "EX1_538",
    spell=SummonFor("EX1_538t", ENEMY_MINIONS),
    requirements={PlayReq.REQ_MINIMUM_ENEMY_MINIONS: 1, PlayReq.REQ_NUM_MINION_SLOTS: 1},
)
vanilla("EX1_538t", "EX1_543")  # Hound (Charge), King Krush (Charge)
# Flare: Stealth off every minion, every enemy secret destroyed (no effect), draw a card.
card("EX1_544", spell=[SetTag(ALL_MINIONS, STEALTH, 0), DestroySecret(ENEMY_SECRETS), Draw(1)])
card(  # Bestial Wrath: a friendly Beast; the enchantment is a one-turn effect in the data
    "EX1_549",
    spell=Buff(TARGET, "EX1_549o"),
    requirements={
        PlayReq.REQ_TARGET_TO_PLAY: 0,
        PlayReq.REQ_FRIENDLY_TARGET: 0,
        PlayReq.REQ_TARGET_WITH_RACE: R_BEAST,
    },
)
enchantment("EX1_549o", atk=2, immune=1)
card(  # Deadly Shot
    "EX1_617",
    spell=Destroy(RANDOM(ENEMY_MINIONS)),
    requirements={PlayReq.REQ_MINIMUM_ENEMY_MINIONS: 1},
)

# SI:7 Infiltrator (neutral, with the secret hunters): one random enemy secret destroyed.
card("EX1_186", battlecry=DestroySecret(ONE_OF(ENEMY_SECRETS)))
