"""The entity/tag model: tag fallback, enchantments as entities, auras added and removed."""

from __future__ import annotations

from typing import Any

import pytest

from games.hearth import scenario as S
from games.hearth.carddb import load_cards
from games.hearth.entity import Entity
from games.hearth.enums import (
    ATK,
    ATTACHED,
    CARDTYPE,
    CONTROLLER,
    DAMAGE,
    HEALTH,
    PLAYER_ID,
    T_ENCHANTMENT,
    TAUNT,
    Z_GRAVEYARD,
    Z_PLAY,
    ZONE,
)
from games.hearth.game import State


def test_tag_reads_own_then_card_then_zero_plus_aura() -> None:
    yeti = Entity(99, load_cards()["CS2_182"])
    assert yeti[ATK] == 4  # from the card
    assert yeti[TAUNT] == 0  # nowhere: 0
    yeti.tags[ATK] = 9  # own tags win over the card
    assert yeti[ATK] == 9
    yeti.aura = {ATK: 2, HEALTH: 1}
    assert yeti[ATK] == 11 and yeti[HEALTH] == 6
    assert yeti.base(ATK) == 9
    del yeti.tags[ATK]
    assert yeti[ATK] == 6


def test_card_tags_are_never_written() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    bok = S.give(g, 1, "CS2_092")
    S.play(g, bok, yeti)
    assert g.ents[yeti][ATK] == 8
    assert load_cards()["CS2_182"].tags[ATK] == 4


def test_game_players_and_cards_have_the_real_ids() -> None:
    g = S.prepared()
    assert g.ents[1].card.tags[CARDTYPE] == 1
    assert g.ents[2][PLAYER_ID] == 1 and g.ents[3][PLAYER_ID] == 2
    assert min(i for i in g.ents if i > 3) == 4
    assert g.ents[g.hero[1]][CONTROLLER] == 1 and g.ents[g.hero[2]][CONTROLLER] == 2


def test_enchantment_is_an_entity_attached_to_its_target() -> None:
    g = S.prepared()
    yeti = S.summon(g, 1, "CS2_182")
    S.play(g, S.give(g, 1, "CS2_092"), yeti)
    enchants = [e for e in g.ents.values() if e.card.id == "CS2_092e"]
    assert len(enchants) == 1
    ench = enchants[0]
    assert ench[CARDTYPE] == T_ENCHANTMENT and ench[ATTACHED] == yeti and ench[ZONE] == Z_PLAY
    assert (g.ents[yeti][ATK], g.ents[yeti][HEALTH]) == (8, 9)


def test_aura_added_and_removed_with_its_source() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    leader = S.summon(g, 1, "CS2_122")
    enemy = S.summon(g, 2, "CS2_231")
    assert g.ents[wisp][ATK] == 2
    assert g.ents[leader][ATK] == 2  # R17: an aura never buffs its source
    assert g.ents[enemy][ATK] == 1  # friendly only
    late = S.summon(g, 1, "CS2_231")
    assert g.ents[late][ATK] == 2  # a minion arriving later gets it
    fb = S.give(g, 1, "CS2_029")
    S.play(g, fb, leader)
    assert g.ents[leader][ZONE] == Z_GRAVEYARD
    assert g.ents[wisp][ATK] == 1 and g.ents[late][ATK] == 1


def test_R17_wisp_with_raid_leader_and_champion() -> None:
    g = S.prepared()
    wisp = S.summon(g, 1, "CS2_231")
    S.summon(g, 1, "CS2_122")
    champion = S.summon(g, 1, "CS2_222")
    assert (g.ents[wisp][ATK], g.health(wisp)) == (3, 2)
    assert (g.ents[champion][ATK], g.health(champion)) == (7, 6)  # Raid Leader only


def test_R18_health_aura_loss_keeps_a_damaged_minion_alive() -> None:
    g = S.prepared()
    champion = S.summon(g, 1, "CS2_222")
    yeti = S.summon(g, 1, "CS2_182")
    assert (g.ents[yeti][ATK], g.health(yeti)) == (5, 6)
    g.damage(champion, yeti, 5)
    g._deaths()
    assert g.health(yeti) == 1
    S.play(g, S.give(g, 1, "CS2_029"), champion)
    assert g.ents[champion][ZONE] == Z_GRAVEYARD
    assert g.ents[yeti][ZONE] == Z_PLAY
    assert (g.ents[yeti][ATK], g.health(yeti), g.ents[yeti][DAMAGE]) == (4, 1, 4)


def test_auras_are_updated_incrementally_not_per_read(monkeypatch: pytest.MonkeyPatch) -> None:
    g = S.prepared()
    S.summon(g, 1, "CS2_122")
    (inst,) = g.auras
    before = inst.applied
    wisp = S.summon(g, 1, "CS2_231")
    assert inst.applied == (*before, wisp)
    # Reads and actions that leave the board alone recompute nothing: count the aura
    # applications while reading tags and listing actions.
    calls = 0
    real = State._aura_apply

    def counting(self: State, *args: Any) -> None:
        nonlocal calls
        calls += 1
        real(self, *args)

    monkeypatch.setattr(State, "_aura_apply", counting)
    for _ in range(50):
        assert g.ents[wisp][ATK] == 2
    g.legal_actions()
    assert calls == 0
    S.summon(g, 1, "CS2_231")  # a board change does recompute
    assert calls >= 1
