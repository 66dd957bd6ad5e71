"""The Kettle history -> hslog bridge on hand-written histories (seed 000's exact format).

The small game below is written by hand, and so is what it must export to: every expected
value comes from reading the history, never from the bridge.
"""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import hslog_bridge as bridge
import pytest
from hearthstone.entities import Card
from hearthstone.enums import (
    BlockType,
    CardType,
    GameTag,
    MetaDataType,
    PlayState,
    State,
    Step,
    Zone,
)
from hslog import packets as P
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

H = "kettle:types/history/"


def item(kind: str, **body: Any) -> dict[str, Any]:
    return {"type": H + kind, kind: body}


def tags(**values: int) -> list[dict[str, int]]:
    return [{"name": int(GameTag[name]), "value": int(value)} for name, value in values.items()]


def entity(entity_id: int, name: str, **values: int) -> dict[str, Any]:
    return {"entityID": entity_id, "name": name, "tags": tags(**values)}


def card(entity_id: int, name: str, **values: int) -> dict[str, Any]:
    return item("full_entity", **entity(entity_id, name, **values))


def change(entity_id: int, tag: str, value: int) -> dict[str, Any]:
    return item("tag_change", entityID=entity_id, tag=int(GameTag[tag]), value=int(value))


def small_game() -> list[dict[str, Any]]:
    """Player 1's view of a short game: Yeti played, Polymorphed by player 2, who concedes.

    Ids: game 1, players 2 and 3, Jaina 4 + Fireblast 5 (player 1), Garrosh 6 + Armor Up! 7
    (player 2), 8 = a hidden card in player 2's hand (revealed as Polymorph when played),
    9 = player 1's Chillwind Yeti, 10 = player 1's hidden deck card (drawn: Elven Archer),
    11 = player 1's Fireball, shown in hand, then mulliganed back into the deck.
    """
    minion, spell = CardType.MINION, CardType.SPELL
    return [
        item(
            "create_game",
            game_entity={
                "entityID": 1,
                "tags": tags(
                    ENTITY_ID=1,
                    CARDTYPE=CardType.GAME,
                    ZONE=Zone.PLAY,
                    STATE=State.RUNNING,
                    TURN=1,
                    STEP=Step.BEGIN_MULLIGAN,
                    NEXT_STEP=Step.MAIN_READY,
                ),
            },
            players=[
                {
                    "playerID": pid,
                    "game_accountID": {"hi": 0, "lo": pid},
                    "card_back": 0,
                    "entity": {
                        "entityID": pid + 1,
                        "tags": tags(
                            ENTITY_ID=pid + 1,
                            PLAYER_ID=pid,
                            TEAM_ID=pid,
                            CONTROLLER=pid,
                            CARDTYPE=CardType.PLAYER,
                            ZONE=Zone.PLAY,
                            PLAYSTATE=PlayState.PLAYING,
                            HERO_ENTITY=2 * pid + 2,
                            FIRST_PLAYER=int(pid == 1),
                            CURRENT_PLAYER=int(pid == 1),
                        ),
                    },
                }
                for pid in (1, 2)
            ],
        ),
        card(4, "HERO_08", CARDTYPE=CardType.HERO, ZONE=Zone.PLAY, CONTROLLER=1, HEALTH=30),
        card(5, "HERO_08bp", CARDTYPE=CardType.HERO_POWER, ZONE=Zone.PLAY, CONTROLLER=1, COST=2),
        card(6, "HERO_01", CARDTYPE=CardType.HERO, ZONE=Zone.PLAY, CONTROLLER=2, HEALTH=30),
        card(7, "HERO_01bp", CARDTYPE=CardType.HERO_POWER, ZONE=Zone.PLAY, CONTROLLER=2, COST=2),
        card(8, "", ZONE=Zone.HAND, CONTROLLER=2, ZONE_POSITION=1),
        card(
            9,
            "CS2_182",
            CARDTYPE=minion,
            ZONE=Zone.HAND,
            CONTROLLER=1,
            ZONE_POSITION=1,
            COST=4,
            ATK=4,
            HEALTH=5,
        ),
        card(10, "", ZONE=Zone.DECK, CONTROLLER=1),
        card(11, "CS2_029", CARDTYPE=spell, ZONE=Zone.HAND, CONTROLLER=1, ZONE_POSITION=2, COST=4),
        # the mulligan puts the Fireball back: it moves, then player 1 no longer sees it
        change(11, "ZONE", Zone.DECK),
        change(11, "ZONE_POSITION", 0),
        item("hide_entity", entityID=11, zone=int(Zone.DECK)),
        change(1, "STEP", Step.MAIN_READY),
        change(2, "RESOURCES", 4),
        # the turn's draw, revealed to its owner
        item(
            "show_entity",
            **entity(
                10,
                "CS2_189",
                CARDTYPE=minion,
                ZONE=Zone.HAND,
                ZONE_POSITION=2,
                COST=1,
                ATK=1,
                HEALTH=1,
            ),
        ),
        change(1, "STEP", Step.MAIN_ACTION),
        item(
            "power_block",
            power_type=int(BlockType.PLAY),
            entityID=9,
            cardID="CS2_182",
            effect_index=0,
            entity_target=0,
            history=[
                item("meta_data", type=int(MetaDataType.TARGET), data=0, info=[9]),
                change(2, "RESOURCES_USED", 4),
                change(9, "ZONE", Zone.PLAY),
                change(9, "ZONE_POSITION", 1),
                change(10, "ZONE_POSITION", 1),
                change(9, "JUST_PLAYED", 1),
            ],
        ),
        change(2, "CURRENT_PLAYER", 0),
        change(3, "CURRENT_PLAYER", 1),
        change(1, "TURN", 2),
        # player 2 plays its hidden card: revealed as Polymorph, which transforms the Yeti
        item(
            "power_block",
            power_type=int(BlockType.PLAY),
            entityID=8,
            cardID="CS2_022",
            effect_index=0,
            entity_target=9,
            history=[
                item("show_entity", **entity(8, "CS2_022", CARDTYPE=spell, ZONE=Zone.PLAY, COST=4)),
                item(
                    "power_block",
                    power_type=int(BlockType.POWER),
                    entityID=8,
                    cardID="CS2_022",
                    effect_index=-1,
                    entity_target=9,
                    history=[
                        item("change_entity", **entity(9, "CS2_tk1", ATK=1, HEALTH=1, COST=1)),
                        change(9, "JUST_PLAYED", 0),
                    ],
                ),
                change(8, "ZONE", Zone.GRAVEYARD),
            ],
        ),
        change(3, "PLAYSTATE", PlayState.CONCEDED),
        change(3, "PLAYSTATE", PlayState.LOST),
        change(2, "PLAYSTATE", PlayState.WON),
        change(1, "STATE", State.COMPLETE),
        change(1, "STEP", Step.FINAL_GAMEOVER),
    ]


# The final state, read off the history above by hand.
EXPECTED: dict[int, tuple[str | None, dict[int, int]]] = {
    1: (
        None,
        {
            GameTag.STATE: State.COMPLETE,
            GameTag.STEP: Step.FINAL_GAMEOVER,
            GameTag.TURN: 2,
            GameTag.NEXT_STEP: Step.MAIN_READY,
        },
    ),
    2: (
        None,
        {
            GameTag.PLAYSTATE: PlayState.WON,
            GameTag.RESOURCES: 4,
            GameTag.RESOURCES_USED: 4,
            GameTag.CURRENT_PLAYER: 0,
            GameTag.HERO_ENTITY: 4,
        },
    ),
    3: (
        None,
        {GameTag.PLAYSTATE: PlayState.LOST, GameTag.CURRENT_PLAYER: 1, GameTag.RESOURCES_USED: 0},
    ),
    4: ("HERO_08", {GameTag.ZONE: Zone.PLAY, GameTag.CONTROLLER: 1, GameTag.HEALTH: 30}),
    5: ("HERO_08bp", {GameTag.ZONE: Zone.PLAY, GameTag.CONTROLLER: 1, GameTag.COST: 2}),
    6: ("HERO_01", {GameTag.ZONE: Zone.PLAY, GameTag.CONTROLLER: 2}),
    7: ("HERO_01bp", {GameTag.ZONE: Zone.PLAY, GameTag.CONTROLLER: 2}),
    8: (
        "CS2_022",
        {
            GameTag.ZONE: Zone.GRAVEYARD,
            GameTag.CONTROLLER: 2,
            GameTag.COST: 4,
            GameTag.ZONE_POSITION: 1,
        },
    ),
    9: (
        "CS2_tk1",
        {
            GameTag.ZONE: Zone.PLAY,
            GameTag.CONTROLLER: 1,
            GameTag.ZONE_POSITION: 1,
            GameTag.ATK: 1,
            GameTag.HEALTH: 1,
            GameTag.COST: 1,
            GameTag.JUST_PLAYED: 0,
        },
    ),
    10: (
        "CS2_189",
        {
            GameTag.ZONE: Zone.HAND,
            GameTag.CONTROLLER: 1,
            GameTag.ZONE_POSITION: 1,
            GameTag.COST: 1,
            GameTag.ATK: 1,
            GameTag.HEALTH: 1,
        },
    ),
    11: ("CS2_029", {GameTag.ZONE: Zone.DECK, GameTag.CONTROLLER: 1, GameTag.ZONE_POSITION: 0}),
}


@pytest.fixture(params=["packets", "power_log"])
def export(request: pytest.FixtureRequest) -> Any:
    return bridge.export_game if request.param == "packets" else bridge.export_game_via_log


def test_small_game_exports_to_the_expected_entities(export: Any) -> None:
    game = export(small_game())
    assert bridge.compare_entities(game, EXPECTED) == []
    assert sorted(e.id for e in game.entities) == list(range(1, 12))


def test_players_and_controllers(export: Any) -> None:
    game = export(small_game())
    assert [(p.id, p.player_id) for p in game.players] == [(2, 1), (3, 2)]
    assert game.current_player is not None and game.current_player.player_id == 2
    assert game.first_player is not None and game.first_player.id == 2
    yeti = game.find_entity_by_id(9)
    assert yeti.controller is game.players[0]
    assert game.players[0].hero.card_id == "HERO_08"
    assert game.players[1].hero.card_id == "HERO_01"
    assert [e.id for e in game.in_zone(Zone.HAND)] == [10]


def test_reveal_transform_and_hide(export: Any) -> None:
    game = export(small_game())
    polymorph, yeti, archer, fireball = (game.find_entity_by_id(i) for i in (8, 9, 10, 11))
    assert isinstance(polymorph, Card) and polymorph.revealed
    assert polymorph.initial_card_id == "CS2_022"  # hidden at creation, known from the reveal
    # the transform keeps the entity and its history: the original card is remembered
    assert yeti.card_id == "CS2_tk1" and yeti.initial_card_id == "CS2_182"
    assert not yeti.is_original_entity
    # show_entity merges: tags of the reveal are added to the entity's earlier ones
    assert archer.tags[GameTag.CONTROLLER] == 1 and archer.tags[GameTag.CARDTYPE] == CardType.MINION
    # hslog keeps a hidden card's id and only clears "revealed"; the zone came by tag_change
    assert fireball.card_id == "CS2_029" and not fireball.revealed


def test_hidden_card_stays_hidden() -> None:
    history = small_game()[:10]  # up to the hidden cards, before any reveal
    for export in (bridge.export_game, bridge.export_game_via_log):
        game = export(history)
        assert game.find_entity_by_id(8).card_id is None
        assert game.find_entity_by_id(10).card_id is None
        assert bridge.compare_entities(game, {8: (None, {GameTag.ZONE: Zone.HAND})}) == []


def test_packet_tree_structure() -> None:
    tree = bridge.to_packet_tree(small_game())
    top = tree.packets
    assert isinstance(top[0], P.CreateGame) and len(top[0].players) == 2
    assert top[0].players[1].player_id == 2 and top[0].players[1].entity == 3
    blocks = [p for p in top if isinstance(p, P.Block)]
    assert [(b.entity, b.type, b.target) for b in blocks] == [
        (9, BlockType.PLAY, 0),
        (8, BlockType.PLAY, 9),
    ]
    meta = blocks[0].packets[0]
    assert isinstance(meta, P.MetaData) and meta.meta == MetaDataType.TARGET and meta.info == [9]
    inner = blocks[1].packets[1]
    assert isinstance(inner, P.Block) and inner.type == BlockType.POWER and inner.ended
    assert isinstance(inner.packets[0], P.ChangeEntity) and inner.packets[0].card_id == "CS2_tk1"
    hidden = top[5]
    assert isinstance(hidden, P.FullEntity) and hidden.entity == 8 and hidden.card_id is None
    assert len(list(tree.recursive_iter(P.TagChange))) == 20


def test_power_log_text_parses_back_to_the_same_tree() -> None:
    history = small_game()
    text = bridge.to_power_log(history)
    lines = [line.split(" - ", 1)[1] for line in text.splitlines()]
    assert lines[0] == "CREATE_GAME"
    assert "    GameEntity EntityID=1" in lines
    assert "    Player EntityID=3 PlayerID=2 GameAccountId=[hi=0 lo=2]" in lines
    assert "FULL_ENTITY - Creating ID=8 CardID=" in lines
    assert "SHOW_ENTITY - Updating Entity=10 CardID=CS2_189" in lines
    assert "HIDE_ENTITY - Entity=11 tag=49 value=2" in lines
    assert (
        "BLOCK_START BlockType=7 Entity=8 EffectCardId=CS2_022 EffectIndex=0 Target=9 SubOption=-1"
        in lines
    )
    assert "        CHANGE_ENTITY - Updating Entity=9 CardID=CS2_tk1" in lines
    assert lines.count("BLOCK_END") == 2 and lines.count("    BLOCK_END") == 1
    parsed = bridge.parse_power_log(text)
    assert bridge.compare_trees(bridge.to_packet_tree(history), parsed) == []


def test_both_paths_export_identical_entities() -> None:
    direct = bridge.entity_snapshot(bridge.export_game(small_game()))
    via_log = bridge.entity_snapshot(bridge.export_game_via_log(small_game()))
    assert direct == via_log


def test_history_survives_json() -> None:
    history = json.loads(json.dumps(small_game()))
    assert bridge.compare_entities(bridge.export_game(history), EXPECTED) == []


def test_game_entity_as_bare_id_with_tags_beside_it() -> None:
    history = small_game()
    body = history[0]["create_game"]
    body["tags"] = body["game_entity"]["tags"]
    body["game_entity"] = 1
    assert bridge.compare_entities(bridge.export_game(history), EXPECTED) == []


# --- the comparison helper --------------------------------------------------------------


def test_compare_entities_reports_each_difference_readably() -> None:
    game = bridge.export_game(small_game())
    wrong = {
        9: ("CS2_182", {GameTag.ZONE: Zone.HAND, GameTag.ATK: 1}),
        8: (None, {}),
        2: (None, {GameTag.PLAYSTATE: PlayState.LOST, GameTag.ARMOR: 0}),
        99: ("CS2_231", {}),
    }
    assert bridge.compare_entities(game, wrong) == [
        "entity 2: PLAYSTATE is WON (4), expected LOST (5)",
        "entity 8: card id is 'CS2_022', expected None",
        "entity 9: card id is 'CS2_tk1', expected 'CS2_182'",
        "entity 9 (CS2_tk1): ZONE is PLAY (1), expected HAND (3)",
        "entity 99: missing from the exported game",
    ]


def test_compare_trees_finds_a_changed_value() -> None:
    history = small_game()
    other = copy.deepcopy(history)
    other[-1]["tag_change"]["value"] = int(Step.FINAL_WRAPUP)
    problems = bridge.compare_trees(bridge.to_packet_tree(history), bridge.to_packet_tree(other))
    assert len(problems) == 1 and "TagChange" in problems[0]
    shorter = bridge.to_packet_tree(history[:-1])
    assert bridge.compare_trees(bridge.to_packet_tree(history), shorter) == [
        "packet counts differ: 39 != 38"
    ]


# --- malformed histories ----------------------------------------------------------------


def _mutate(path: tuple[Any, ...], value: Any) -> list[dict[str, Any]]:
    history = small_game()
    node: Any = history
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return history


_DELETE = object()
BLOCK = 16  # index of the first power_block in small_game()

MALFORMED = [
    ((0, "type"), H + "full_entity", "history[0]: a history must start with create_game"),
    ((5, "type"), H + "create_game", "history[5]: create_game is allowed once"),
    ((5, "type"), H + "history_block", "'history_block' is not a history item"),
    ((5, "type"), "kettle:types/full_entity", "history[5].type: expected 'kettle:types/history/"),
    ((5, "full_entity"), _DELETE, "history[5].full_entity: expected an object, got nothing"),
    ((5, "full_entity", "entityID"), "8", "history[5].full_entity.entityID: expected an integer"),
    ((5, "full_entity", "entityID"), True, "history[5].full_entity.entityID: expected an integer"),
    ((5, "full_entity", "entityID"), 0, "history[5].full_entity.entityID: 0 is out of range"),
    ((5, "full_entity", "entityID"), 4, "history[5].full_entity.entityID: entity 4 already exists"),
    ((5, "full_entity", "name"), _DELETE, "history[5].full_entity.name: missing"),
    ((5, "full_entity", "name"), "CS2-182", "history[5].full_entity.name: expected a card id"),
    ((5, "full_entity", "name"), 182, "history[5].full_entity.name: expected a card id"),
    ((5, "full_entity", "tags"), {"49": 3}, "history[5].full_entity.tags: expected a list"),
    ((5, "full_entity", "tags", 0), [49, 3], "history[5].full_entity.tags[0]: expected"),
    ((5, "full_entity", "tags", 0, "value"), 3.0, "tags[0].value: expected an integer"),
    ((5, "full_entity", "tags", 0, "name"), "ZONE", "tags[0].name: expected an integer"),
    ((14, "show_entity", "name"), "", "history[14].show_entity.name: a card id is required"),
    ((14, "show_entity", "entityID"), 77, "history[14].show_entity.entityID: entity 77 was never"),
    ((11, "hide_entity", "zone"), 42, "history[11].hide_entity.zone: 42 is not a Zone"),
    ((13, "tag_change", "entityID"), 12, "history[13].tag_change.entityID: entity 12 was never"),
    ((13, "tag_change", "value"), None, "history[13].tag_change.value: expected an integer, got"),
    ((13, "tag_change", "value"), 1 << 40, "history[13].tag_change.value: 1099511627776 is out"),
    ((BLOCK, "power_block", "power_type"), 42, "power_block.power_type: 42 is not a BlockType"),
    ((BLOCK, "power_block", "history"), {}, "power_block.history: expected a list"),
    ((BLOCK, "power_block", "entity_target"), 50, "entity_target: entity 50 was never created"),
    ((BLOCK, "power_block", "history", 0, "meta_data", "info"), [9, 1000], "info[1]: entity 1000"),
    ((BLOCK, "power_block", "history", 0, "meta_data", "type"), 200, "200 is not a MetaDataType"),
    ((5, "full_entity", "tags", 1, "value"), 3, "CONTROLLER must be a PlayerID [1, 2], got 3"),
    ((13, "tag_change", "tag"), 50, "history[13].tag_change.value: CONTROLLER must be a PlayerID"),
    ((0, "create_game", "players"), [], "history[0].create_game.players: expected a list of 2"),
    ((0, "create_game", "players", 1, "playerID"), 1, "players[1].playerID: duplicate player id"),
    ((0, "create_game", "players", 1, "entity", "entityID"), 2, "entity 2 already exists"),
    ((0, "create_game", "game_entity", "entityID"), 5, "the game entity is 1, got 5"),
]


@pytest.mark.parametrize(("path", "value", "message"), MALFORMED)
def test_malformed_history_is_rejected_with_a_clear_error(
    path: tuple[Any, ...], value: Any, message: str
) -> None:
    history = _mutate(path, value)
    for convert in (bridge.to_packet_tree, bridge.to_power_log):
        with pytest.raises(bridge.HistoryError) as info:
            convert(history)
        assert message in str(info.value)


def test_create_game_inside_a_block_is_rejected() -> None:
    history = small_game()
    history[BLOCK]["power_block"]["history"].append(copy.deepcopy(history[0]))
    with pytest.raises(bridge.HistoryError, match=r"history\[16\]\.power_block\.history\[6\]"):
        bridge.to_packet_tree(history)


@pytest.mark.parametrize("garbage", [None, {}, "[]", 42, [], [None], [[]], [{"type": 1}]])
def test_garbage_is_rejected(garbage: Any) -> None:
    with pytest.raises(bridge.HistoryError):
        bridge.export_game(garbage)


def test_deep_nesting_is_limited() -> None:
    history = small_game()[:9]
    nested: list[dict[str, Any]] = []
    history.append(item("power_block", power_type=5, entityID=1, history=nested))
    for _ in range(bridge.MAX_DEPTH + 1):
        inner: list[dict[str, Any]] = []
        nested.append(item("power_block", power_type=5, entityID=1, history=inner))
        nested = inner
    with pytest.raises(bridge.HistoryError, match="nested deeper than 64"):
        bridge.to_packet_tree(history)


def test_negative_values_replay_as_packets_but_cannot_be_logged() -> None:
    history = small_game()
    history.append(change(9, "DAMAGE", -1))
    assert bridge.export_game(history).find_entity_by_id(9).tags[GameTag.DAMAGE] == -1
    with pytest.raises(bridge.HistoryError, match="negative value -1 cannot be written"):
        bridge.to_power_log(history)


def test_change_entity_of_a_never_revealed_card_is_refused_by_hslog() -> None:
    history = small_game()[:10]
    history.append(item("change_entity", **entity(8, "CS2_tk1", ATK=1)))
    for export in (bridge.export_game, bridge.export_game_via_log):
        with pytest.raises(bridge.HistoryError, match=r"hslog refused.*no previous known CardID"):
            export(history)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 40),
    st.sampled_from(["type", "entityID", "name", "tags", "value", "tag"]),
    json_values,
)
def test_fuzzed_histories_raise_only_history_error(index: int, key: str, junk: Any) -> None:
    history = small_game()
    target = history[min(index, len(history) - 1)]
    body = target[target["type"][len(H) :]]
    (target if key == "type" else body)[key] = junk
    for convert in (bridge.export_game, bridge.export_game_via_log):
        with contextlib.suppress(bridge.HistoryError):
            convert(history)
