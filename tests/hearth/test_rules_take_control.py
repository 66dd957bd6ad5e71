"""Taking control of a minion (Mind Control, Shadow Madness, Cabal, Sylvanas, Mind Control
Tech): the primitive ``take_control`` and the Shadow Madness return at the end of the turn."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import CHARGE, CONTROLLER, EXHAUSTED, NUM_ATTACKS_THIS_TURN, ZONE_POSITION
from games.hearth.game import State


def _can_attack(g: State, eid: int) -> bool:
    return any(a.kind == Kind.ATTACK and a.entity == eid for a in g.legal_actions())


def test_taken_minion_moves_to_the_right_end_with_its_tags() -> None:
    g = S.prepared()
    mine = S.summon(g, 1, "CS2_231")
    yeti = S.summon(g, 2, "CS2_182")
    S.summon(g, 2, "CS2_172")
    S.hit(g, yeti, 2)
    assert g.take_control(yeti, 1)
    assert g.board[1] == [mine, yeti] and yeti not in g.board[2]
    assert g.ents[yeti][CONTROLLER] == 1 and g.ents[yeti][ZONE_POSITION] == 2
    assert g.health(yeti) == 3  # damage stays
    assert g.ents[g.board[2][0]][ZONE_POSITION] == 1  # the old board closes the gap


def test_taken_minion_has_summoning_sickness_unless_charge() -> None:
    g = S.prepared()
    yeti = S.summon(g, 2, "CS2_182")
    boar = S.summon(g, 2, "CS2_171")  # Stonetusk Boar: Charge
    g._set(g.ents[yeti], NUM_ATTACKS_THIS_TURN, 1)  # it attacked on its owner's turn
    g.take_control(yeti, 1)
    g.take_control(boar, 1)
    g._legal = None
    assert g.ents[yeti][EXHAUSTED] == 1 and not _can_attack(g, yeti)
    assert g.ents[yeti][NUM_ATTACKS_THIS_TURN] == 0
    assert _can_attack(g, boar)
    S.end_turn(g)
    S.end_turn(g)
    assert _can_attack(g, yeti)  # its new owner's next turn


def test_full_board_refuses_and_the_effect_destroys() -> None:
    g = S.prepared()
    for _ in range(6):
        S.summon(g, 1, "CS2_231")
    theirs = [S.summon(g, 2, "CS2_182") for _ in range(4)]
    S.summon(g, 1, "CS2_231")
    assert not g.take_control(theirs[0], 1)  # 7 on the taker's board
    assert g.controller_of(theirs[0]) == 2 and theirs[0] in g.board[2]
    # Make room (one Wisp dies), then fill it again with the Tech itself.
    g.destroy(g.board[1][-1])
    S.resolve(g)
    # Mind Control Tech fills the 7th slot itself: the stolen Yeti is destroyed instead
    # (SabberStone's ControlTask).
    S.play(g, S.give(g, 1, "EX1_085"))
    assert len(g.board[1]) == 7 and len(g.board[2]) == 3
    assert sum(g.health(i) <= 0 or i not in g.board[2] for i in theirs) == 1


def test_auras_follow_the_new_controller() -> None:
    g = S.prepared()
    raid = S.summon(g, 2, "CS2_122")  # Raid Leader: other friendly minions +1 Attack
    wisp = S.summon(g, 2, "CS2_231")
    assert g.attack_value(wisp) == 2
    g.take_control(raid, 1)
    S.resolve(g)
    assert g.attack_value(wisp) == 1
    mine = S.summon(g, 1, "CS2_231")
    assert g.attack_value(mine) == 2


def test_triggers_follow_the_new_controller() -> None:
    g = S.prepared()
    hoarder = S.summon(g, 2, "EX1_096")  # Loot Hoarder: its deathrattle draws for its owner
    g.take_control(hoarder, 1)
    hand = len(g.hand[1])
    g.destroy(hoarder)
    S.resolve(g)
    assert len(g.hand[1]) == hand + 1 and len(g.hand[2]) == 0


def test_shadow_madness_returns_at_the_end_of_the_turn() -> None:
    g = S.prepared(hero1="HERO_09")
    raptor = S.summon(g, 2, "CS2_172")  # 3/2
    S.play(g, S.give(g, 1, "EX1_334"), raptor)
    assert g.controller_of(raptor) == 1 and _can_attack(g, raptor)
    S.attack(g, raptor, g.hero[2])
    assert g.health(g.hero[2]) == 27
    S.end_turn(g)
    assert g.controller_of(raptor) == 2 and raptor in g.board[2]
    assert g._attached(raptor) == []  # the enchantment went with the return


def test_shadow_madness_silenced_goes_back_at_once() -> None:
    # SabberStone's Shadow Madness test: a Silence removes EX1_334e and the minion returns.
    g = S.prepared(hero1="HERO_09")
    raptor = S.summon(g, 2, "CS2_172")
    S.play(g, S.give(g, 1, "EX1_334"), raptor)
    S.play(g, S.give(g, 1, "EX1_332"), raptor)  # Silence removes Shadow Madness
    assert g.controller_of(raptor) == 2 and g.board[1] == [] and g.board[2] == [raptor]
    S.end_turn(g)
    assert g.controller_of(raptor) == 2


def test_shadow_madness_gives_charge_that_goes_with_it() -> None:
    g = S.prepared(hero1="HERO_09")
    raptor = S.summon(g, 2, "CS2_172")
    S.play(g, S.give(g, 1, "EX1_334"), raptor)
    assert g.ents[raptor][CHARGE] == 1 and g.ents[raptor][EXHAUSTED] == 1
    S.end_turn(g)
    assert g.ents[raptor][CHARGE] == 0


def test_shadow_madness_on_a_minion_that_dies_returns_nothing() -> None:
    g = S.prepared(hero1="HERO_09")
    raptor = S.summon(g, 2, "CS2_172")
    S.play(g, S.give(g, 1, "EX1_334"), raptor)
    S.attack(g, raptor, S.summon(g, 2, "CS2_182"))  # 3/2 into a 4/5: it dies
    S.end_turn(g)
    assert raptor not in g.board[1] + g.board[2]


def test_shadow_madness_return_to_a_full_board_destroys() -> None:
    g = S.prepared(hero1="HERO_09")
    raptor = S.summon(g, 2, "CS2_172")
    S.play(g, S.give(g, 1, "EX1_334"), raptor)
    for _ in range(7):
        S.summon(g, 2, "CS2_231")
    S.end_turn(g)
    assert raptor not in g.board[1] and raptor not in g.board[2]


def test_take_control_survives_clone_hash_and_determinized() -> None:
    g = S.prepared(hero1="HERO_09")
    raptor = S.summon(g, 2, "CS2_172")
    S.play(g, S.give(g, 1, "EX1_334"), raptor)
    c = g.clone()
    assert c.hash() == g.hash() and c.board == g.board
    d = g.determinized(1, seed=3)
    assert d.board[1] == g.board[1] and d.controller_of(raptor) == 1
    S.end_turn(c)
    assert c.controller_of(raptor) == 2 and g.controller_of(raptor) == 1
