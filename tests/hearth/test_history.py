"""Kettle history details (hslog replays are checked in F's test_hslog_*.py)."""

from __future__ import annotations

from typing import Any

from games import hearth
from games.hearth import scenario as S
from games.hearth.enums import (
    COST,
    DAMAGE,
    STEP,
    TAUNT,
    ZONE,
    BlockType,
    MetaDataType,
    Step,
    Zone,
)

H = "kettle:types/history/"


def flat(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for it in items:
        out.append(it)
        if "power_block" in it:
            out.extend(flat(it["power_block"]["history"]))
    return out


def kinds(items: list[dict[str, Any]]) -> set[str]:
    return {it["type"][len(H):] for it in flat(items)}


def test_every_entry_has_the_seed_envelope() -> None:
    g = hearth.new_game(seed=1, history=True)
    for it in flat(g.history()):
        name = it["type"][len(H):]
        assert it["type"].startswith(H) and set(it) == {"type", name}
    first = g.history()[0]["create_game"]
    assert first["game_entity"]["entityID"] == 1
    assert [(p["playerID"], p["entity"]["entityID"]) for p in first["players"]] == [(1, 2), (2, 3)]
    # kettle.md §2.3: a Player is {playerID, game_accountID, card_back, entity}.
    assert all(set(p) == {"playerID", "game_accountID", "card_back", "entity"}
               for p in first["players"])
    tag = next(it for it in flat(g.history()) if "full_entity" in it)["full_entity"]["tags"][0]
    assert set(tag) == {"name", "value"}


def test_the_coin_is_hidden_from_the_first_player_until_played() -> None:
    g = hearth.new_game(seed=2, history=True, first_player=1)
    coin = g.coin

    def body(viewer: int | None, kind: str) -> list[dict[str, Any]]:
        return [it[kind] for it in flat(g.history(viewer)) if kind in it
                and it[kind]["entityID"] == coin]

    assert body(1, "full_entity")[0]["name"] == ""
    assert body(2, "full_entity")[0]["name"] == "GAME_005"
    assert {t["name"] for t in body(1, "full_entity")[0]["tags"]} <= {49, 50, 53, 263}
    for p in (1, 2):
        g.apply(hearth.Action(hearth.Kind.MULLIGAN, p))
    g.apply(hearth.END_TURN)
    S.play(g, coin)
    (shown,) = body(1, "show_entity")
    assert shown["name"] == "GAME_005"
    assert not body(2, "show_entity")


def test_hidden_cards_tag_changes_are_filtered() -> None:
    g = S.prepared(history=True)
    card = S.give(g, 2, "CS2_182")
    mark1, mark2 = len(g.history(1)), len(g.history(2))
    g._set(g.ents[card], COST, 1)  # e.g. a cost change in hand
    assert not g.history(1, since=mark1)
    (change,) = g.history(2, since=mark2)
    assert change["tag_change"] == {"entityID": card, "tag": COST, "value": 1}


def test_attack_block_with_damage_metadata_and_deaths() -> None:
    g = S.prepared(history=True)
    raptor = S.summon(g, 1, "CS2_172")
    croc = S.summon(g, 2, "CS2_120")
    mark = len(g.history())
    S.attack(g, raptor, croc)
    # As in a real log: the ATTACK block, the death phase after it (DEATHS is never
    # nested in ATTACK), then STEP MAIN_ACTION and the player's block (NEXT_STEP MAIN_END).
    block, death, step, after = g.history(since=mark)
    pb = block["power_block"]
    assert (pb["power_type"], pb["entityID"]) == (BlockType.ATTACK, raptor)
    assert pb["entity_target"] == croc
    items = flat(pb["history"])
    damages = [it["meta_data"] for it in items if "meta_data" in it]
    assert {(m["type"], m["data"], tuple(m["info"])) for m in damages} == {
        (MetaDataType.DAMAGE, 3, (croc,)), (MetaDataType.DAMAGE, 2, (raptor,))}
    assert not [it for it in items if "power_block" in it]
    assert step["tag_change"] == {"entityID": 1, "tag": STEP, "value": Step.MAIN_ACTION}
    assert after["power_block"]["power_type"] == BlockType.TRIGGER
    deaths = [death["power_block"]]
    assert [d["power_type"] for d in deaths] == [BlockType.DEATHS]
    moved = {it["tag_change"]["entityID"] for it in flat(deaths[0]["history"])
             if "tag_change" in it and it["tag_change"]["tag"] == ZONE
             and it["tag_change"]["value"] == Zone.GRAVEYARD}
    assert moved == {raptor, croc}
    assert any(it["tag_change"] == {"entityID": croc, "tag": DAMAGE, "value": 3}
               for it in items if "tag_change" in it)


def test_polymorph_is_a_change_entity_that_clears_old_keywords() -> None:
    g = S.prepared(history=True)
    senjin = S.summon(g, 2, "CS2_179")
    mark = len(g.history())
    S.play(g, S.give(g, 1, "CS2_022"), senjin)
    changes = [it["change_entity"] for it in flat(g.history(since=mark)) if "change_entity" in it]
    assert len(changes) == 1 and changes[0]["entityID"] == senjin
    assert changes[0]["name"] == "CS2_tk1"
    tags = {t["name"]: t["value"] for t in changes[0]["tags"]}
    assert tags[TAUNT] == 0


def test_play_block_nests_the_spell_power_block() -> None:
    g = S.prepared(history=True)
    fb = S.give(g, 1, "CS2_029")
    mark = len(g.history())
    S.play(g, fb, g.hero[2])
    (block,) = g.history(since=mark)
    pb = block["power_block"]
    assert (pb["power_type"], pb["entityID"], pb["cardID"]) == (BlockType.PLAY, fb, "CS2_029")
    inner = [it["power_block"] for it in pb["history"] if "power_block" in it]
    assert inner and inner[0]["power_type"] == BlockType.POWER
    assert "tag_change" in kinds(g.history(since=mark))


def test_death_phase_runs_between_battlecry_and_after_summon() -> None:
    g = S.prepared(history=True)
    juggler = S.summon(g, 1, "NEW1_019")
    wisp = S.summon(g, 1, "CS2_231")
    archer = S.give(g, 1, "CS2_189")
    mark = len(g.history())
    S.play(g, archer, target=wisp)
    (play,) = g.history(since=mark)
    blocks = [(b["power_block"]["power_type"], b["power_block"]["entityID"])
              for b in play["power_block"]["history"] if "power_block" in b]
    assert blocks == [(BlockType.POWER, archer), (BlockType.DEATHS, 1),
                      (BlockType.TRIGGER, juggler)]
