"""Random picks from a selector (two random enemy minions), tribe conditions and targets
(REQ_TARGET_WITH_RACE), hero attack this turn, and the hero-attacked target requirement."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.dsl import ENEMY_MINIONS, RANDOM, Ctx
from games.hearth.enums import ATK, NUM_ATTACKS_THIS_TURN, PlayReq


def test_random_picks_distinct_living_entities() -> None:
    for seed in range(20):
        g = S.prepared(seed=seed)
        ids = [S.summon(g, 2, "CS2_182") for _ in range(4)]
        S.hit(g, ids[0], 5)  # dead: never picked
        picked = RANDOM(ENEMY_MINIONS, 2)(g, Ctx(g.hero[1], 0, 1))
        assert len(set(picked)) == 2 and ids[0] not in picked
        assert picked == sorted(picked, key=lambda i: g.ents[i].order)
    g = S.prepared()
    only = S.summon(g, 2, "CS2_231")
    assert RANDOM(ENEMY_MINIONS, 2)(g, Ctx(g.hero[1], 0, 1)) == [only]


def test_race_target_requirement() -> None:
    g = S.prepared()
    boar, yeti = S.summon(g, 1, "CS2_171"), S.summon(g, 1, "CS2_182")
    reqs = {int(PlayReq.REQ_TARGET_WITH_RACE): 20}
    assert g._targets(1, reqs, 0) == [boar]
    assert yeti not in g._targets(1, reqs, 0)


def test_minimum_enemy_minions_requirement() -> None:
    g = S.prepared()
    cleave = S.give(g, 1, "BT_740")  # REQ_MINIMUM_ENEMY_MINIONS 1
    S.summon(g, 1, "CS2_231")  # friendly minions do not count
    assert not any(a.entity == cleave for a in g.legal_actions())
    S.summon(g, 2, "CS2_231")
    assert any(a.entity == cleave for a in g.legal_actions())


def test_hero_attack_this_turn_and_the_attacked_requirement() -> None:
    g = S.prepared(hero1="HERO_10")
    hero = g.hero[1]
    reqs = {int(PlayReq.REQ_TARGET_IF_AVAILABLE_AND_HERO_ATTACKED_THIS_TURN): 0}
    assert g._targets(1, reqs, 0) == []
    S.power(g)
    assert g.ents[hero][ATK] == 1
    S.attack(g, hero, g.hero[2])
    assert g.ents[hero][NUM_ATTACKS_THIS_TURN] == 1 and g._targets(1, reqs, 0) != []
    S.end_turn(g)
    assert g.ents[hero][ATK] == 0
    S.end_turn(g)
    assert g._targets(1, reqs, 0) == []
