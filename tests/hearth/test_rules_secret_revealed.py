"""The "secret revealed" event (``EV_SECRET_REVEALED``, Eaglehorn Bow's trigger).

It fires once per secret that goes off (its own trigger revealed it), after the secret
has left the SECRET zone, with the secret as its subject; a secret destroyed without
going off (Flare, SI:7 Infiltrator) is not revealed in this sense, as in SabberStone and
fireplace (their Reveal / SECRET_REVEALED come from a secret's trigger only).
"""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import DURABILITY, Z_GRAVEYARD, ZONE
from games.hearth.game import State
from games.hearth.script import EV_SECRET_REVEALED

RAPTOR, WISP = "CS2_172", "CS2_231"


def bow_and_secret(secret: str = "EX1_554") -> tuple[State, int, int]:
    """Player 1 (Hunter) has Eaglehorn Bow and ``secret``; player 2 is to act."""
    g = S.prepared(hero1="HERO_05", hero2="HERO_05")
    bow = S.give(g, 1, "EX1_536")
    S.play(g, bow)
    s = S.give(g, 1, secret)
    S.play(g, s)
    S.end_turn(g)
    return g, bow, s


def test_a_secret_going_off_is_revealed() -> None:
    g, bow, snake_trap = bow_and_secret()
    wisp = S.summon(g, 1, WISP)
    raptor = S.summon(g, 2, RAPTOR)
    S.attack(g, raptor, wisp)
    assert g.ents[snake_trap][ZONE] == Z_GRAVEYARD and g.ents[bow][DURABILITY] == 3


def test_each_secret_is_revealed_once() -> None:
    g, bow, _ = bow_and_secret("EX1_610")  # Explosive Trap
    S.end_turn(g)
    S.play(g, S.give(g, 1, "EX1_554"))  # Snake Trap too
    S.summon(g, 1, WISP)
    S.end_turn(g)
    boar = S.summon(g, 2, "CS2_171")
    S.attack(g, boar, g.hero[1])  # only Explosive Trap hears an attack on the hero
    assert g.ents[bow][DURABILITY] == 3 and len(g.secrets[1]) == 1
    raptor = S.summon(g, 2, RAPTOR)
    S.attack(g, raptor, g.board[1][0])
    assert g.ents[bow][DURABILITY] == 4 and g.secrets[1] == []


def test_a_destroyed_secret_is_not_revealed() -> None:
    g, bow, snake_trap = bow_and_secret()
    S.play(g, S.give(g, 2, "EX1_544"))  # the opponent's Flare destroys it
    assert g.ents[snake_trap][ZONE] == Z_GRAVEYARD and g.ents[bow][DURABILITY] == 2
    g2, bow2, trap2 = bow_and_secret()
    S.play(g2, S.give(g2, 2, "EX1_186"))  # SI:7 Infiltrator
    assert g2.ents[trap2][ZONE] == Z_GRAVEYARD and g2.ents[bow2][DURABILITY] == 2


def test_an_enemy_secret_is_not_friendly() -> None:
    g, bow, _ = bow_and_secret()
    S.end_turn(g)  # player 1's turn: player 2 sets a secret that player 1 sets off
    S.end_turn(g)
    theirs = S.give(g, 2, "EX1_554")
    S.play(g, theirs)
    wisp = S.summon(g, 2, WISP)
    S.end_turn(g)
    raptor = S.summon(g, 1, RAPTOR)
    S.attack(g, raptor, wisp)
    assert g.ents[theirs][ZONE] == Z_GRAVEYARD and g.ents[bow][DURABILITY] == 2



def test_the_bow_listens_only_while_equipped() -> None:
    g, bow, _ = bow_and_secret()
    assert g.triggers.get(EV_SECRET_REVEALED) == [bow]
    S.play(g, S.give(g, 2, "EX1_066"))  # Acidic Swamp Ooze destroys it
    assert g.triggers.get(EV_SECRET_REVEALED) == [] and g.ents[bow][ZONE] == Z_GRAVEYARD
