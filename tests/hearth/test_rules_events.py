"""Rule tests of the event layer and the keywords the engine reads from card data.

Each event is checked with a listener that records what it saw: a Wisp body given a test
trigger (``dataclasses.replace`` of the shared card; the registry of real cards is not
touched). Keywords are set as tags on real minions, as an enchantment or the card data would.
"""

from __future__ import annotations

import dataclasses

from games.hearth import scenario as S
from games.hearth.actions import Action, Kind
from games.hearth.carddb import load_cards
from games.hearth.dsl import Call
from games.hearth.enums import (
    CANNOT_ATTACK_HEROES,
    CANT_ATTACK,
    EXHAUSTED,
    IMMUNE,
    LIFESTEAL,
    POISONOUS,
    RUSH,
    STEALTH,
    TAUNT,
    TO_BE_DESTROYED,
    Z_PLAY,
    ZONE,
)
from games.hearth.game import State
from games.hearth.primitives import Ctx, Primitives
from games.hearth.script import (
    EV_AFTER_ATTACK,
    EV_AFTER_CAST,
    EV_ATTACK,
    EV_CAST,
    EV_DAMAGED,
    EV_DIED,
    EV_PLAYED,
    ON_ANY,
    ON_BY_SELF,
    ON_ENEMY,
    ON_FRIENDLY,
    ON_FRIENDLY_HERO,
    CardScript,
    Trigger,
)

Seen = list[tuple[int, int, int]]


def listener(g: State, p: int, event: int, scope: str = ON_ANY) -> tuple[int, Seen]:
    """A 1/1 on ``p``'s board that records (event, subject, other) for ``event``."""
    seen: Seen = []

    def record(_: Primitives, ctx: Ctx) -> None:
        seen.append((event, ctx.target, ctx.other))

    body = dataclasses.replace(
        load_cards()["CS2_231"], script=CardScript(triggers=(Trigger(event, Call(record), scope),))
    )
    e = g._create(body, p, Z_PLAY)
    g._enter_board(e, p, len(g.board[p]))
    g._set(e, EXHAUSTED, 0)
    g._update_auras()
    g._legal = None
    return e.id, seen


def test_an_attack_fires_before_and_after_the_combat_damage_with_the_defender() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    ogre = S.summon(g, 2, "CS2_200")
    _, before = listener(g, 2, EV_ATTACK)
    _, after = listener(g, 2, EV_AFTER_ATTACK)
    S.attack(g, yeti, ogre)
    assert before == [(EV_ATTACK, yeti, ogre)]
    assert after == [(EV_AFTER_ATTACK, yeti, ogre)]


def test_a_trigger_that_kills_the_defender_before_the_damage_cancels_the_attack() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    wisp = S.summon(g, 2, "CS2_231")
    body = dataclasses.replace(
        load_cards()["CS2_231"],
        script=CardScript(
            triggers=(Trigger(EV_ATTACK, Call(lambda gg, ctx: gg.destroy(ctx.other)), ON_ANY),)
        ),
    )
    e = g._create(body, 2, Z_PLAY)
    g._enter_board(e, 2, 0)
    g._legal = None
    S.attack(g, yeti, wisp)
    assert g.ents[wisp][ZONE] != Z_PLAY  # destroyed by the trigger
    assert g.health(yeti) == 5  # no combat damage either way


def test_spells_fire_played_and_cast_before_their_text_and_after_cast_after() -> None:
    g = S.prepared()
    enemy = g.hero[2]
    _, played = listener(g, 1, EV_PLAYED, ON_FRIENDLY)
    _, cast = listener(g, 1, EV_CAST, ON_FRIENDLY)
    health_seen: list[int] = []

    def enemy_health(_: Primitives, ctx: Ctx) -> None:
        health_seen.append(g.health(enemy))

    body = dataclasses.replace(
        load_cards()["CS2_231"],
        script=CardScript(
            triggers=(
                Trigger(EV_CAST, Call(enemy_health), ON_FRIENDLY),
                Trigger(EV_AFTER_CAST, Call(enemy_health), ON_FRIENDLY),
            )
        ),
    )
    e = g._create(body, 1, Z_PLAY)
    g._enter_board(e, 1, 0)
    g._legal = None
    fireball = S.give(g, 1, "CS2_029")
    S.play(g, fireball, enemy)
    assert played == [(EV_PLAYED, fireball, 0)] and cast == [(EV_CAST, fireball, 0)]
    assert health_seen == [30, 24]  # before the text, then after it
    wisp = S.give(g, 1, "CS2_231")
    S.play(g, wisp)
    assert played[-1] == (EV_PLAYED, wisp, 0) and len(cast) == 1  # a minion is not cast
    assert g.ents[1 + 1].tags.get(269) == 2  # NUM_CARDS_PLAYED_THIS_TURN


def test_the_opponents_plays_are_enemy_events() -> None:
    g = S.prepared()
    _, mine = listener(g, 1, EV_PLAYED, ON_FRIENDLY)
    _, theirs = listener(g, 1, EV_PLAYED, ON_ENEMY)
    S.end_turn(g)
    S.set_mana(g, 2, 10)
    wisp = S.give(g, 2, "CS2_231")
    S.play(g, wisp)
    assert mine == [] and theirs == [(EV_PLAYED, wisp, 0)]


def test_damage_names_its_source_and_died_fires_after_the_minion_left_play() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    wisp = S.summon(g, 2, "CS2_231")
    lid, by_me = listener(g, 1, EV_DAMAGED, ON_BY_SELF)
    _, died = listener(g, 2, EV_DIED)
    S.attack(g, yeti, wisp)
    assert died == [(EV_DIED, wisp, 0)]
    S.hit(g, g.hero[2], 2, source=lid)
    assert by_me == [(EV_DAMAGED, g.hero[2], lid)]


def test_hero_scope_matches_only_the_friendly_hero() -> None:
    g = S.prepared(hero1="HERO_01")
    _, seen = listener(g, 1, EV_ATTACK, ON_FRIENDLY_HERO)
    S.play(g, S.give(g, 1, "CS2_106"))  # Fiery War Axe
    S.attack(g, g.hero[1], g.hero[2])
    assert seen == [(EV_ATTACK, g.hero[1], g.hero[2])]


def test_rush_attacks_minions_only_on_its_first_turn() -> None:
    g = S.prepared()
    raptor = S.summon(g, 1, "CS2_172", ready=False)
    enemy = S.summon(g, 2, "CS2_231")
    attacks = {a.target for a in g.legal_actions() if a.kind == Kind.ATTACK and a.entity == raptor}
    assert attacks == set()
    g._set(g.ents[raptor], RUSH, 1)
    attacks = {a.target for a in g.legal_actions() if a.kind == Kind.ATTACK and a.entity == raptor}
    assert attacks == {enemy}
    S.end_turn(g)
    S.end_turn(g)
    attacks = {a.target for a in g.legal_actions() if a.kind == Kind.ATTACK and a.entity == raptor}
    assert attacks == {enemy, g.hero[2]}


def test_cannot_attack_heroes_and_cant_attack() -> None:
    g = S.prepared()
    raptor = S.summon(g, 1, "CS2_172")
    enemy = S.summon(g, 2, "CS2_231")
    g._set(g.ents[raptor], CANNOT_ATTACK_HEROES, 1)
    assert {a.target for a in g.legal_actions() if a.entity == raptor} == {enemy}
    g._set(g.ents[raptor], CANT_ATTACK, 1)
    assert not [a for a in g.legal_actions() if a.entity == raptor]


def test_stealth_hides_from_enemy_targets_and_attacks_until_it_attacks() -> None:
    g = S.prepared()
    mine = S.summon(g, 1, "CS2_182")
    hidden = S.summon(g, 2, "CS2_179")  # Sen'jin: a Taunt in Stealth does not count
    g._set(g.ents[hidden], STEALTH, 1)
    assert {a.target for a in g.legal_actions() if a.entity == mine} == {g.hero[2]}
    fireball = S.give(g, 1, "CS2_029")
    assert hidden not in {a.target for a in g.legal_actions() if a.entity == fireball}
    S.end_turn(g)
    assert any(a.entity == hidden and a.target == mine for a in g.legal_actions())
    S.attack(g, hidden, mine)
    assert g.ents[hidden][STEALTH] == 0 and g.ents[hidden][TAUNT] == 1


def test_immune_takes_no_damage() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    g._set(g.ents[yeti], IMMUNE, 1)
    assert S.hit(g, yeti, 4) == 0 and g.health(yeti) == 5


def test_lifesteal_heals_the_source_controllers_hero_by_the_damage_dealt() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.hit(g, g.hero[1], 10)
    g._set(g.ents[yeti], LIFESTEAL, 1)
    target = S.summon(g, 2, "CS2_231")
    S.attack(g, yeti, target)
    assert g.health(g.hero[1]) == 24  # 4 dealt (not the 1 the Wisp had left), 4 healed
    shielded = S.summon(g, 2, "EX1_008")  # Argent Squire: the shield absorbs, nothing heals
    S.end_turn(g)
    S.end_turn(g)
    S.attack(g, yeti, shielded)
    assert g.health(g.hero[1]) == 24


def test_poisonous_destroys_a_damaged_minion_but_not_a_hero_or_through_a_shield() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    g._set(g.ents[wisp], POISONOUS, 1)
    ogre = S.summon(g, 2, "CS2_200")
    S.attack(g, wisp, ogre)
    assert g.ents[ogre][ZONE] != Z_PLAY
    hero_hit = S.summon(g, 1, "CS2_231")
    g._set(g.ents[hero_hit], POISONOUS, 1)
    S.hit(g, g.hero[2], 1, source=hero_hit)
    assert g.ents[g.hero[2]][ZONE] == Z_PLAY and not g.ents[g.hero[2]][TO_BE_DESTROYED]
    squire = S.summon(g, 2, "EX1_008")
    S.hit(g, squire, 1, source=hero_hit)
    assert g.ents[squire][ZONE] == Z_PLAY


def test_illegal_attack_on_a_hero_with_rush_is_refused_and_changes_nothing() -> None:
    g = S.prepared()
    raptor = S.summon(g, 1, "CS2_172", ready=False)
    g._set(g.ents[raptor], RUSH, 1)
    before = g.hash()
    try:
        g.apply(Action(Kind.ATTACK, raptor, g.hero[2]))
    except ValueError:
        pass
    else:
        raise AssertionError("a Rush minion attacked a hero on its first turn")
    assert g.hash() == before
