"""Counted self auras (``dsl.SelfBonus``): a minion's own stat or keyword computed from the
board with no enchantment, as the card data has none (Old Murk-Eye's +1 Attack per other
Murloc, Southsea Deckhand's Charge while a weapon is equipped). The bonus is an aura
contribution (never an own tag), follows every board change, goes with Silence, and
survives clone and the state rebuilt from a player's view."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import ATK, CHARGE
from games.hearth.game import State


def _aura(g: State, eid: int, tag: int) -> int:
    return (g.ents[eid].aura or {}).get(tag, 0)


def test_the_bonus_is_an_aura_contribution_counted_per_unit() -> None:
    g = S.prepared()
    eye = S.summon(g, 1, "EX1_062")
    assert g.ents[eye][ATK] == 2 and _aura(g, eye, ATK) == 0
    murlocs = [S.summon(g, p, "CS2_168") for p in (1, 2, 2)]
    assert g.ents[eye][ATK] == 5 and _aura(g, eye, ATK) == 3
    assert g.ents[eye].tags.get(ATK) is None  # its own tags never hold the bonus
    (inst,) = [a for a in g.auras if a.source == eye]
    assert inst.applied == (eye, eye, eye)
    S.hit(g, murlocs[1], 5)
    assert g.ents[eye][ATK] == 4


def test_transform_and_silence_change_the_count() -> None:
    g = S.prepared()
    eye = S.summon(g, 1, "EX1_062")
    raider = S.summon(g, 2, "CS2_168")
    assert g.ents[eye][ATK] == 3
    g.transform(raider, "CS2_231")  # a Murloc no more
    S.resolve(g)
    assert g.ents[eye][ATK] == 2
    S.summon(g, 2, "CS2_168")
    g.silence(eye)
    S.resolve(g)
    assert g.ents[eye][ATK] == 2 and _aura(g, eye, ATK) == 0
    assert not [a for a in g.auras if a.source == eye]


def test_a_keyword_bonus_comes_and_goes_with_its_condition() -> None:
    g = S.prepared(hero1="HERO_03")
    deckhand = S.summon(g, 1, "CS2_146", ready=False)
    assert not g.ents[deckhand][CHARGE]
    S.power(g)  # a weapon: Charge
    assert g.ents[deckhand][CHARGE] == 1
    w = g.weapon[1]
    g.destroy(w)
    S.resolve(g)
    assert not g.weapon[1] and g.ents[deckhand][CHARGE] == 0


def test_clone_and_view_rebuild_keep_the_bonus() -> None:
    g = S.prepared()
    eye = S.summon(g, 1, "EX1_062")
    S.summon(g, 2, "CS2_168")
    c = g.clone()
    assert c.hash() == g.hash() and c.ents[eye][ATK] == 3
    S.summon(c, 1, "CS2_168")
    assert c.ents[eye][ATK] == 4 and g.ents[eye][ATK] == 3
    d = g.determinized(2, seed=5)
    assert d.ents[eye][ATK] == 3
