"""Garbage and illegal plays of the card set: each is refused with IllegalAction and leaves
the game exactly as it was (same state hash)."""

from __future__ import annotations

import pytest

from games import hearth
from games.hearth import scenario as S
from games.hearth.actions import Action, Kind
from games.hearth.enums import T_MINION
from games.hearth.game import State


def refused(g: State, action: Action) -> None:
    before = g.hash()
    with pytest.raises(hearth.IllegalAction):
        g.apply(action)
    assert g.hash() == before


def board() -> tuple[State, dict[str, int]]:
    g = S.prepared()
    ids = {
        "mine": S.summon(g, 1, "CS2_182"),
        "mine_hurt": S.summon(g, 1, "CS2_182"),
        "theirs": S.summon(g, 2, "CS2_182"),
        "theirs_hurt": S.summon(g, 2, "CS2_182"),
        "my_hero": g.hero[1],
        "their_hero": g.hero[2],
    }
    for k in ("mine_hurt", "theirs_hurt", "their_hero"):
        g.damage(g.hero[1], ids[k], 1)
    g._deaths()
    g._legal = None
    return g, ids


@pytest.mark.parametrize(
    ("card_id", "bad"),
    [
        ("CS2_108", ("theirs", "mine_hurt", "their_hero", "mine", None)),  # Execute
        ("EX1_019", ("theirs", "my_hero", "their_hero", None)),  # Cleric: friendly minion
        ("CS2_188", ("my_hero", "their_hero", None)),  # Abusive Sergeant: a minion
        ("CS2_203", ("my_hero", "their_hero", None)),  # Ironbeak Owl
        ("EX1_564", ("my_hero", "their_hero", None)),  # Faceless Manipulator
        ("CS2_022", ("my_hero", "their_hero", None)),  # Polymorph
        ("CS2_092", ("my_hero", None)),  # Blessing of Kings
        ("CS2_004", ("their_hero", None)),  # Power Word: Shield
        ("EX1_332", ("my_hero", None)),  # Silence
        ("CS2_029", (None,)),  # Fireball needs a target
        ("CS2_189", (None,)),  # Elven Archer: targets exist, so one must be chosen
        ("CS2_025", ("theirs",)),  # Arcane Explosion takes no target
        ("CS2_032", ("their_hero",)),  # Flamestrike takes no target
        ("EX1_400", ("mine",)),  # Whirlwind takes no target
    ],
)
def test_illegal_targets_are_refused(card_id: str, bad: tuple[str | None, ...]) -> None:
    g, ids = board()
    eid = S.give(g, 1, card_id)
    minion = g.ents[eid].card.type == T_MINION
    for name in bad:
        target = 0 if name is None else ids[name]
        refused(g, Action(Kind.PLAY, eid, target, 0 if minion else -1))


def test_garbage_targets_and_positions_are_refused() -> None:
    g, ids = board()
    archer = S.give(g, 1, "CS2_189")
    in_hand = S.give(g, 1, "CS2_231")
    for target in (999, -1, in_hand, g.deck[1][0], 1, 2, 3, g.power[1]):
        refused(g, Action(Kind.PLAY, archer, target, 0))
    for position in (-1, 3, 99):
        refused(g, Action(Kind.PLAY, archer, ids["theirs"], position))
    refused(g, Action(Kind.PLAY, ids["theirs"], 0, 0))  # not a card in my hand
    refused(g, Action(Kind.PLAY, g.deck[1][0], 0, 0))


def test_cards_cost_their_mana() -> None:
    g = S.prepared(mana=6)
    flamestrike = S.give(g, 1, "CS2_032")
    refused(g, Action(Kind.PLAY, flamestrike))
    S.set_mana(g, 1, 7)
    S.play(g, flamestrike)
    assert g.mana(1) == 0


def test_mirror_image_needs_a_free_slot() -> None:
    g = S.prepared()
    for _ in range(7):
        S.summon(g, 1, "CS2_231")
    refused(g, Action(Kind.PLAY, S.give(g, 1, "CS2_027")))
