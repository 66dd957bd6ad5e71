"""Seeded random games: every history stream, replayed by hslog, ends in the engine's state.

For each game (uniformly random legal actions, history on) the full stream and each
player's stream go through `hslog_bridge` into hslog's `EntityTreeExporter`, and the
exported entity tree is compared with `state.entities()` (the engine's own final state:
entity id -> (card id, current tags)).

Which tags are compared, and why:

* Every entity a viewer may see: its card id and ALL of its tags, i.e. every tag
  `state.entities()` reports (card data, own tags and aura contributions: ZONE, CONTROLLER,
  ZONE_POSITION, ATK, HEALTH, DAMAGE, COST, ARMOR, EXHAUSTED, FROZEN, PLAYSTATE, STEP,
  RESOURCES, ...). A tag hslog never heard of counts as 0, as in the game. Comparing the
  whole set (not a hand-picked list) means that any state change the history forgot, for
  any tag, shows up here; the per-viewer streams must do as well as the full one.
* A card a viewer may not see (in the opponent's HAND or DECK, the zones Kettle hides):
  the exported entity has no card id, its public tags ZONE, CONTROLLER and ZONE_POSITION
  equal the engine's, and it carries no other tag than those and ENTITY_ID (a COST, ATK or
  CARDTYPE there would leak what the card is). Its id is never given a card id anywhere
  in that viewer's stream (full/show/change_entity names, power_block cardID).
* The set of entity ids is the same on both sides.

Games use the default decks (reference §2.4) and, in a few chunks, random decks drawn from
the whole card set of reference §4, so that every card's history gets replayed.

Some games also go through the stronger Power.log text path (`hslog.LogParser`), which
must rebuild the very same packet tree and entities, and some are checked at random
points mid-game (between actions), not only at the end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import hslog_bridge as bridge
import pytest
from hearthstone.enums import GameTag, Zone

from games import hearth
from games.hearth.carddb import load_cards

CHUNKS = 10
GAMES_PER_CHUNK = 10  # 100 games, three streams each
LOG_SEEDS = range(1000, 1012)  # also through Power.log text
MIDGAME_SEEDS = range(2000, 2008)
MIDGAME_EVERY = 12  # on average one check per this many actions
ACTION_CAP = 5000

# Reference hearth-engine.md §4: the 52 collectible cards, for random decks that reach the
# cards the default decks leave out (auras, deathrattles, Faceless, ...).
COLLECTIBLES = hearth.collectible_cards()
HEROES = ("HERO_01", "HERO_04", "HERO_08", "HERO_09")
RANDOM_DECK_CHUNKS = 4
RANDOM_DECK_GAMES = 6

HIDDEN_ZONES = frozenset({Zone.HAND, Zone.DECK, Zone.SECRET})
PUBLIC_OF_HIDDEN = (GameTag.ZONE, GameTag.CONTROLLER, GameTag.ZONE_POSITION)
ALLOWED_ON_HIDDEN = frozenset({*PUBLIC_OF_HIDDEN, GameTag.ENTITY_ID})

EngineEntities = Mapping[int, tuple[str, Mapping[int, int]]]


def random_game(seed: int, stop_after: int | None = None, decks: Any = None) -> Any:
    """Uniformly random legal actions from `new_game(seed, history=True)`."""
    state = hearth.new_game(seed=seed, decks=decks, history=True)
    rng = random.Random(seed)
    for _ in range(ACTION_CAP if stop_after is None else stop_after):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def hidden_from(viewer: int | None, tags: Mapping[int, int]) -> bool:
    return (
        viewer is not None
        and tags.get(GameTag.ZONE, 0) in HIDDEN_ZONES
        and tags.get(GameTag.CONTROLLER, 0) != viewer
    )


def secret(tags: Mapping[int, int]) -> bool:
    """A card in the SECRET zone: hidden, but its class is public."""
    return tags.get(GameTag.ZONE, 0) == Zone.SECRET


def stream_problems(state: Any, viewer: int | None) -> list[str]:
    """Everything wrong with one stream of `state`, as readable lines (empty = fine)."""
    engine: EngineEntities = state.entities()
    history = state.history(viewer)
    game = bridge.export_game(history)
    expected: dict[int, tuple[str | None, Mapping[int, int]]] = {}
    hidden: set[int] = set()
    unseen = getattr(state, "unseen", set())  # --- hunter --- Tracking's cards, shown to no one
    for entity_id, (card_id, tags) in engine.items():
        if hidden_from(viewer, tags) or (
            viewer is not None and entity_id in unseen
            and tags.get(GameTag.CONTROLLER, 0) != viewer
        ):
            hidden.add(entity_id)
            public = PUBLIC_OF_HIDDEN + ((GameTag.CLASS,) if secret(tags) else ())
            expected[entity_id] = (None, {t: tags.get(t, 0) for t in public})
        else:
            expected[entity_id] = (card_id or None, tags)
    problems = bridge.compare_entities(game, expected)
    exported_ids = {e.id for e in game.entities}
    if exported_ids != set(engine):
        problems.append(
            f"entity ids differ: only exported {sorted(exported_ids - set(engine))[:10]}, "
            f"only in the engine {sorted(set(engine) - exported_ids)[:10]}"
        )
    for entity_id in sorted(hidden):
        exported = game.find_entity_by_id(entity_id)
        allowed = ALLOWED_ON_HIDDEN
        if secret(engine[entity_id][1]):
            allowed = allowed | {GameTag.CLASS}
        extra = set(exported.tags) - allowed if exported is not None else set()
        if extra:
            names = sorted(GameTag(t).name for t in extra)
            problems.append(f"hidden entity {entity_id} carries tags {names}")
    problems.extend(
        f"hidden entity {entity_id} is named {name!r} at {path}"
        for entity_id, name, path in named_entities(history)
        if entity_id in hidden
    )
    return problems


def named_entities(
    items: list[dict[str, Any]], path: str = "history"
) -> Iterator[tuple[int, str, str]]:
    """(entity id, card id, path) of every place a stream names an entity's card."""
    for index, item in enumerate(items):
        kind = item["type"].rsplit("/", 1)[1]
        body = item[kind]
        here = f"{path}[{index}].{kind}"
        if kind in ("full_entity", "show_entity", "change_entity") and body["name"]:
            yield body["entityID"], body["name"], here
        elif kind == "power_block":
            if body.get("cardID"):
                yield body["entityID"], body["cardID"], here
            yield from named_entities(body["history"], f"{here}.history")


def check(state: Any, seed: int, viewers: tuple[int | None, ...] = (None, 1, 2)) -> list[str]:
    return [
        f"seed {seed}, viewer {viewer}: {problem}"
        for viewer in viewers
        for problem in stream_problems(state, viewer)[:8]
    ]


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_stream_replays_to_the_engine_state(chunk: int) -> None:
    problems: list[str] = []
    unfinished = []
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        state = random_game(seed)
        if not state.is_over:
            unfinished.append(seed)
        problems.extend(check(state, seed))
    assert not unfinished, f"random games did not finish: seeds {unfinished}"
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("chunk", range(RANDOM_DECK_CHUNKS))
def test_random_decks_of_the_whole_card_set_replay_too(chunk: int) -> None:
    problems: list[str] = []
    for seed in range(3000 + chunk * RANDOM_DECK_GAMES, 3000 + (chunk + 1) * RANDOM_DECK_GAMES):
        rng = random.Random(seed)
        decks = [(rng.choice(HEROES), [rng.choice(COLLECTIBLES) for _ in range(30)]) for _ in "12"]
        state = random_game(seed, decks=decks)
        assert state.is_over, f"seed {seed}: the random game did not finish"
        problems.extend(check(state, seed))
    assert set(COLLECTIBLES) == {c.id for c in load_cards().values() if c.playable}
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("seed", MIDGAME_SEEDS)
def test_streams_agree_with_the_engine_mid_game(seed: int) -> None:
    state = hearth.new_game(seed=seed, history=True)
    rng = random.Random(seed)
    when = random.Random(-seed)  # picks the checkpoints, apart from the game's choices
    problems: list[str] = []
    checked = 0
    for done in range(1, ACTION_CAP):
        state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            break
        if when.randrange(MIDGAME_EVERY) == 0:
            checked += 1
            problems.extend(f"after {done} actions: {p}" for p in check(state, seed))
    assert checked >= 2, "the game was too short to be checked mid-game"
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("seed", LOG_SEEDS)
def test_power_log_text_rebuilds_the_same_tree(seed: int) -> None:
    state = random_game(seed)
    for viewer in (None, 1, 2):
        history = state.history(viewer)
        parsed = bridge.parse_power_log(bridge.to_power_log(history))
        direct = bridge.to_packet_tree(history)
        assert bridge.compare_trees(direct, parsed) == [], f"viewer {viewer}"
        via_log = bridge.entity_snapshot(bridge.export_tree(parsed))
        assert via_log == bridge.entity_snapshot(bridge.export_tree(direct)), f"viewer {viewer}"


def test_streams_survive_json() -> None:
    state = random_game(7)
    for viewer in (None, 1, 2):
        history = state.history(viewer)
        again = json.loads(json.dumps(history))
        assert again == history
        assert bridge.entity_snapshot(bridge.export_game(again)) == bridge.entity_snapshot(
            bridge.export_game(history)
        )


def test_player_streams_really_hide_something() -> None:
    """Guards the checks above against a vacuous pass: hidden cards exist in every game."""
    state = random_game(3, stop_after=20)
    engine = state.entities()
    for viewer in (1, 2):
        hidden = [i for i, (_, tags) in engine.items() if hidden_from(viewer, tags)]
        assert len(hidden) >= 20  # the opponent's deck alone
        game = bridge.export_game(state.history(viewer))
        assert all(game.find_entity_by_id(i).card_id is None for i in hidden)
    full = bridge.export_game(state.history(None))
    assert all(full.find_entity_by_id(i).card_id for i in engine if i > 3)


class _Doctored:
    """A finished game whose history streams were altered: the checks must notice."""

    def __init__(self, state: Any, streams: dict[int | None, list[dict[str, Any]]]) -> None:
        self._state = state
        self._streams = streams

    def entities(self) -> EngineEntities:
        return self._state.entities()

    def history(self, viewer: int | None = None) -> list[dict[str, Any]]:
        return self._streams[viewer]


def test_the_checks_notice_a_lost_change_and_a_leak() -> None:
    # A game that ends with a card player 1 may not see (most do: the opponent's deck).
    seed, state = next((s, g) for s in range(5, 50) for g in [random_game(s)]
                       if any(hidden_from(1, tags) for _, tags in g.entities().values()))
    streams = {v: json.loads(json.dumps(state.history(v))) for v in (None, 1, 2)}
    assert check(_Doctored(state, streams), seed) == []

    # forget every change of the game's STEP in the full stream
    def forget(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        kept = []
        for item in items:
            body = item.get("tag_change")
            if body is not None and (body["entityID"], body["tag"]) == (1, GameTag.STEP):
                continue
            if "power_block" in item:
                item["power_block"]["history"] = forget(item["power_block"]["history"])
            kept.append(item)
        return kept

    streams[None] = forget(streams[None])
    problems = stream_problems(_Doctored(state, streams), None)
    assert any(p.startswith("entity 1: STEP is ") for p in problems), problems

    # name a card that player 1 may not see in player 1's stream
    engine = state.entities()
    secret = next(i for i, (_, tags) in engine.items() if hidden_from(1, tags))
    streams[1].append(
        {
            "type": "kettle:types/history/show_entity",
            "show_entity": {"entityID": secret, "name": engine[secret][0], "tags": []},
        }
    )
    problems = stream_problems(_Doctored(state, streams), 1)
    assert f"hidden entity {secret} is named {engine[secret][0]!r} at history[" in "\n".join(
        problems
    )
