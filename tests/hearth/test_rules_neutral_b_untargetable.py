"""CANT_BE_TARGETED_BY_SPELLS / CANT_BE_TARGETED_BY_HERO_POWERS (Faerie Dragon, Laughing
Sister): no spell, or no hero power, of either player may choose it; battlecries, attacks
and random effects still reach it (play.py ``_targets``)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import CANT_BE_TARGETED_BY_HERO_POWERS, CANT_BE_TARGETED_BY_SPELLS
from games.hearth.game import State


def power_targets(g: State) -> set[int]:
    return {a.target for a in g.legal_actions() if a.kind == Kind.POWER}


def spell_targets(g: State, card_id: str) -> set[int]:
    eid = S.give(g, g.current, card_id)
    return {a.target for a in g.legal_actions() if a.entity == eid}


def test_a_spell_cannot_target_it_on_either_side() -> None:
    g = S.prepared()
    dragon = S.summon(g, 2, "NEW1_023")
    own = S.summon(g, 1, "NEW1_023")
    targets = spell_targets(g, "CS2_029")  # Fireball
    assert dragon not in targets and own not in targets and g.hero[2] in targets


def test_a_hero_power_cannot_target_it() -> None:
    g = S.prepared(hero1="HERO_08")  # Fireblast
    dragon = S.summon(g, 2, "NEW1_023")
    wisp = S.summon(g, 2, "CS2_231")
    assert dragon not in power_targets(g) and wisp in power_targets(g)


def test_the_two_tags_are_read_apart() -> None:
    g = S.prepared(hero1="HERO_08")
    wisp = S.summon(g, 2, "CS2_231")
    g.set_tag(wisp, CANT_BE_TARGETED_BY_HERO_POWERS, 1)
    assert wisp in spell_targets(g, "CS2_029") and wisp not in power_targets(g)
    other = S.summon(g, 2, "CS2_231")
    g.set_tag(other, CANT_BE_TARGETED_BY_SPELLS, 1)
    assert other not in spell_targets(g, "CS2_029") and other in power_targets(g)


def test_battlecries_attacks_and_random_effects_still_reach_it() -> None:
    g = S.prepared()
    dragon = S.summon(g, 2, "NEW1_023")
    assert dragon in spell_targets(g, "CS2_189")  # Elven Archer's battlecry
    boar = S.summon(g, 1, "CS2_171")
    assert any(a.entity == boar and a.target == dragon for a in g.legal_actions())
    S.play(g, S.give(g, 1, "CS2_025"))  # Arcane Explosion: no target chosen, hits it
    assert g.health(dragon) == 1


def test_silence_removes_it() -> None:
    g = S.prepared()
    dragon = S.summon(g, 2, "NEW1_023")
    g.silence(dragon)
    assert dragon in spell_targets(g, "CS2_029")
