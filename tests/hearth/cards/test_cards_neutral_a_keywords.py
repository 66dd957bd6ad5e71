"""Keyword-only neutral Classic minions (helper neutralA): each keyword at work, with the
card's own stats, played from hand."""

from __future__ import annotations

from hearth_cardtest import attack_targets, can_attack, dead, play_targets, stats

from games.hearth import scenario as S
from games.hearth.enums import DIVINE_SHIELD, STEALTH
from games.hearth.game import State

FIREBALL = "CS2_029"


def _played(g: State, card_id: str) -> int:
    """Play ``card_id`` from player 1's hand; it is on the board afterwards."""
    eid = S.give(g, 1, card_id)
    S.play(g, eid)
    assert eid in g.board[1]
    return eid


def _enemy_turn(g: State) -> None:
    S.end_turn(g)
    S.set_mana(g, 2, 10)


def _check_taunt(card_id: str, figures: tuple[int, int]) -> None:
    g = S.prepared()
    other = S.summon(g, 1, "CS2_182")  # a Yeti beside it, no Taunt
    taunt = _played(g, card_id)
    assert stats(g, taunt) == figures
    _enemy_turn(g)
    raptor = S.summon(g, 2, "CS2_172")
    assert attack_targets(g, raptor) == {taunt}  # neither the hero nor the Yeti
    assert other not in attack_targets(g, raptor)


def _check_stealth(card_id: str, figures: tuple[int, int]) -> None:
    g = S.prepared()
    sneaky = _played(g, card_id)
    assert stats(g, sneaky) == figures and g.ents[sneaky][STEALTH]
    _enemy_turn(g)
    raptor = S.summon(g, 2, "CS2_172")
    fireball = S.give(g, 2, FIREBALL)
    assert sneaky not in attack_targets(g, raptor)
    assert sneaky not in play_targets(g, fireball)
    S.end_turn(g)
    # Attacking reveals it: the enemy may then target it.
    S.attack(g, sneaky, g.hero[2])
    assert not g.ents[sneaky][STEALTH] and g.health(g.hero[2]) == 30 - figures[0]
    S.end_turn(g)
    assert sneaky in attack_targets(g, raptor) and sneaky in play_targets(g, fireball)


def _check_windfury(card_id: str, figures: tuple[int, int]) -> None:
    g = S.prepared()
    bird = _played(g, card_id)
    assert stats(g, bird) == figures and not can_attack(g, bird)  # summoning sickness
    S.end_turn(g)
    S.end_turn(g)
    S.attack(g, bird, g.hero[2])
    assert can_attack(g, bird)
    S.attack(g, bird, g.hero[2])
    assert not can_attack(g, bird)
    assert g.health(g.hero[2]) == 30 - 2 * figures[0]


def _check_divine_shield(card_id: str, figures: tuple[int, int]) -> None:
    g = S.prepared()
    shielded = _played(g, card_id)
    assert stats(g, shielded) == figures and g.ents[shielded][DIVINE_SHIELD]
    S.hit(g, shielded, 10)
    assert stats(g, shielded) == figures and not g.ents[shielded][DIVINE_SHIELD]
    S.hit(g, shielded, figures[1])
    assert dead(g, shielded)


def test_cs1_069_fen_creeper_taunt() -> None:
    _check_taunt("CS1_069", (3, 6))


def test_cs2_161_ravenholdt_assassin_stealth() -> None:
    _check_stealth("CS2_161", (7, 5))


def test_cs2_169_young_dragonhawk_windfury() -> None:
    _check_windfury("CS2_169", (1, 1))


def test_ex1_010_worgen_infiltrator_stealth() -> None:
    _check_stealth("EX1_010", (2, 1))


def test_ex1_017_jungle_panther_stealth() -> None:
    _check_stealth("EX1_017", (4, 2))


def test_ex1_020_scarlet_crusader_divine_shield() -> None:
    _check_divine_shield("EX1_020", (3, 1))


def test_ex1_021_thrallmar_farseer_windfury() -> None:
    _check_windfury("EX1_021", (2, 3))


def test_ex1_023_silvermoon_guardian_divine_shield() -> None:
    _check_divine_shield("EX1_023", (3, 3))


def test_ex1_028_stranglethorn_tiger_stealth() -> None:
    _check_stealth("EX1_028", (5, 5))


def test_ex1_032_sunwalker_taunt_and_divine_shield() -> None:
    _check_taunt("EX1_032", (4, 5))
    _check_divine_shield("EX1_032", (4, 5))


def test_ex1_033_windfury_harpy_windfury() -> None:
    _check_windfury("EX1_033", (4, 5))


def test_ex1_045_ancient_watcher_cant_attack_until_silenced() -> None:
    g = S.prepared()
    watcher = _played(g, "EX1_045")
    assert stats(g, watcher) == (4, 5)
    S.end_turn(g)
    S.end_turn(g)
    assert not can_attack(g, watcher)  # awake, 4 Attack, and still not
    S.play(g, S.give(g, 1, "CS2_203"), watcher)  # Ironbeak Owl silences it
    assert can_attack(g, watcher)
    S.attack(g, watcher, g.hero[2])
    assert g.health(g.hero[2]) == 26


def test_ex1_067_argent_commander_charge_and_divine_shield() -> None:
    g = S.prepared()
    commander = _played(g, "EX1_067")
    assert stats(g, commander) == (4, 2)
    yeti = S.summon(g, 2, "CS2_182")
    assert can_attack(g, commander)  # Charge: the turn it is played
    S.attack(g, commander, yeti)  # the Yeti's 4 hits the shield
    assert stats(g, commander) == (4, 2) and not g.ents[commander][DIVINE_SHIELD]
    assert g.health(yeti) == 1
