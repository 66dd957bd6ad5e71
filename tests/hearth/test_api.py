"""The API for AI developers: legal actions, apply, clone, hash, determinism, observations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import hearth
from games.hearth.actions import Action, Kind
from games.hearth.env import HearthEnv
from games.hearth.playout import play_randomly, random_game
from games.hearth.rng import SplitMix64


def test_R37_same_seed_and_actions_give_the_same_state() -> None:
    a, b = random_game(123), random_game(123)
    assert a.hash() == b.hash() and a.result() == b.result()
    assert random_game(124).hash() != a.hash()


def test_clone_stress_hashes_match_and_clones_are_independent() -> None:
    for seed in range(6):
        g = hearth.new_game(seed=seed)
        rng = SplitMix64(seed)
        steps = 0
        while not g.is_over and steps < 400:
            c = g.clone()
            assert c.hash() == g.hash()
            acts = g.legal_actions()
            action = acts[rng.below(len(acts))]
            if steps % 7 == 0:
                # Play the clone on with other choices: the original must not move.
                before = g.hash()
                play_randomly(c, seed + steps, max_actions=30)
                assert g.hash() == before
                c = g.clone()
            g.apply(action)
            c.apply(action)
            assert c.hash() == g.hash()
            steps += 1


def test_clone_carries_the_rng() -> None:
    g = hearth.new_game(seed=77)
    c = g.clone()
    assert play_randomly(g, 5).hash() == play_randomly(c, 5).hash()


def test_many_random_games_finish_and_every_legal_action_applies() -> None:
    for seed in range(40):
        g = random_game(seed)
        assert g.is_over
        r = g.result()
        assert r is not None and r.winner in (0, 1, 2)
    # Every listed action is applicable (on a clone), at every step of a few games.
    for seed in range(3):
        g = hearth.new_game(seed=1000 + seed)
        rng = SplitMix64(seed)
        while not g.is_over:
            acts = g.legal_actions()
            assert acts and len(set(acts)) == len(acts)
            for a in acts:
                g.clone().apply(a)
            g.apply(acts[rng.below(len(acts))])


def test_random_games_with_history_and_turn_cap() -> None:
    for seed in range(5):
        g = random_game(seed, history=True, turn_cap=12)
        assert g.is_over and g.history()


def test_illegal_action_raises_and_leaves_the_state_unchanged() -> None:
    g = hearth.new_game(seed=8)
    before = g.hash()
    for bad in (
        hearth.END_TURN,  # not during the mulligan
        Action(Kind.MULLIGAN, 3),
        Action(Kind.MULLIGAN, 1, cards=(999,)),
        Action(Kind.PLAY, 10_000, 0, 0),
        Action(Kind.ATTACK, 4, 5),
    ):
        with pytest.raises(hearth.IllegalAction):
            g.apply(bad)
        assert g.hash() == before
    with pytest.raises(hearth.IllegalAction):
        g.apply(("garbage",))  # type: ignore[arg-type]
    assert g.hash() == before


def test_bad_new_game_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        hearth.new_game(decks=[("HERO_08", ["NOPE"]), ("HERO_01", [])])
    with pytest.raises(ValueError):
        hearth.new_game(decks=[("CS2_182", []), ("HERO_01", [])])
    with pytest.raises(ValueError):
        hearth.new_game(decks=[("HERO_08", ["GAME_005"]), ("HERO_01", [])])
    with pytest.raises(ValueError):
        hearth.new_game(decks=[("HERO_08", [])])
    with pytest.raises(ValueError):
        hearth.new_game(decks=[("HERO_08", ["CS2_231"] * 61), ("HERO_01", [])])
    with pytest.raises(ValueError):
        hearth.new_game(first_player=3)


def test_shuffle_false_keeps_the_given_order() -> None:
    deck = ["CS2_182", "CS2_200", "CS2_172", "CS2_120", "CS2_168"] + ["CS2_231"] * 25
    g = hearth.new_game(seed=1, decks=[("HERO_08", deck), ("HERO_01", deck)], shuffle=False,
                        first_player=1)
    assert [g.ents[i].card.id for i in g.hand[1]] == deck[:3]
    assert [g.ents[i].card.id for i in g.hand[2][:4]] == deck[:4]


def test_pending_and_per_player_actions() -> None:
    g = hearth.new_game(seed=2, first_player=1)
    assert g.pending() == [1, 2]
    assert {a.entity for a in g.legal_actions(1)} == {1}
    g.apply(Action(Kind.MULLIGAN, 2))
    assert g.pending() == [1]
    g.apply(Action(Kind.MULLIGAN, 1))
    assert g.pending() == [1]
    assert g.legal_actions(2) == []
    assert hearth.END_TURN in g.legal_actions(1)


def test_observation_hides_the_opponents_hand_and_deck() -> None:
    g = hearth.new_game(seed=4, first_player=1)
    obs = g.observation(1)
    opp = obs["opponent"]
    assert opp["hand_count"] == 5 and all(set(c) == {"entity"} for c in opp["hand"])
    assert opp["deck_count"] == 26 and "deck" not in opp
    assert all("card" in c for c in obs["you"]["hand"])
    assert obs["legal_actions"] and all(a.entity == 1 for a in obs["legal_actions"])
    with pytest.raises(ValueError):
        g.observation(0)


def test_history_is_off_by_default_and_streams_when_on() -> None:
    g = hearth.new_game(seed=1)
    with pytest.raises(RuntimeError):
        g.history()
    g = hearth.new_game(seed=1, history=True)
    n = len(g.history())
    g.apply(g.legal_actions()[0])
    new = g.history(since=n)
    assert new and g.history()[n:] == new
    assert g.history()[0]["type"] == "kettle:types/history/create_game"


def test_player_views_hide_the_opponents_cards() -> None:
    g = random_game(3, history=True)

    def names(items: list, out: dict) -> dict:
        for it in items:
            for kind in ("full_entity", "show_entity"):
                if kind in it:
                    body = it[kind]
                    out.setdefault(body["entityID"], set()).add(body["name"])
            if "power_block" in it:
                names(it["power_block"]["history"], out)
        return out

    full = names(g.history(), {})
    for viewer in (1, 2):
        seen = names(g.history(viewer), {})
        opponent_deck = [i for i in g.deck[3 - viewer]]
        assert opponent_deck
        for i in opponent_deck:
            assert seen[i] == {""} and full[i] != {""}


def test_env_plays_a_whole_game() -> None:
    env = HearthEnv()
    obs, info = env.reset(seed=3)
    assert obs["player"] in (1, 2)
    rng = SplitMix64(3)
    done = False
    reward = 0.0
    while not done:
        acts = info["legal_actions"]
        _obs, reward, terminated, truncated, info = env.step(acts[rng.below(len(acts))])
        done = terminated or truncated
    assert reward in (-1.0, 0.0, 1.0) and env.state is not None and env.state.is_over


def test_entity_ids_do_not_reveal_deck_list_positions() -> None:
    # With a known deck list, ids in list order would name the opponent's hidden cards.
    deck = [f"CS2_{n}" for n in ("182", "200", "172", "120", "168")] * 6
    positions = set()
    for seed in range(8):
        g = hearth.new_game(seed=seed, decks=[("HERO_08", deck), ("HERO_01", deck)])
        first = min(i for i, e in g.ents.items() if e.card.id in deck and g.controller(e) == 1)
        positions.add(tuple(g.ents[first + k].card.id for k in range(5)))
    assert len(positions) > 1


def test_history_arguments_are_checked() -> None:
    g = hearth.new_game(seed=1, history=True)
    for bad in ({"viewer": 3}, {"viewer": "1"}, {"since": -1}):
        with pytest.raises(ValueError):
            g.history(**bad)  # type: ignore[arg-type]


def test_clone_with_history_continues_its_own_stream() -> None:
    g = hearth.new_game(seed=6, history=True)
    play_randomly(g, 1, max_actions=40)
    n = len(g.history())
    c = g.clone()
    assert c.history() == g.history()
    play_randomly(c, 2, max_actions=20)
    assert len(g.history()) == n and len(c.history()) > n
    assert c.history()[:n] == g.history()


def test_apply_checks_the_sending_seat() -> None:
    g = hearth.new_game(seed=2, first_player=1)
    before = g.hash()
    with pytest.raises(hearth.IllegalAction):
        g.apply(Action(Kind.MULLIGAN, 1), player=2)
    assert g.hash() == before
    g.apply(Action(Kind.MULLIGAN, 1), player=1)
    g.apply(Action(Kind.MULLIGAN, 2), player=2)
    with pytest.raises(hearth.IllegalAction):
        g.apply(hearth.END_TURN, player=2)
    g.apply(hearth.END_TURN, player=1)
    assert g.current == 2 and g.legal_actions(2) == g.legal_actions()
    assert g.legal_actions(1) == [] and g.observation(1)["legal_actions"] == []


def test_determinized_keeps_what_the_player_knows() -> None:
    g = hearth.new_game(seed=21, first_player=1)
    play_randomly(g, 3, max_actions=25)
    assert not g.is_over
    before = g.hash()
    samples = [g.determinized(1, seed) for seed in range(6)]
    assert g.hash() == before
    obs = g.observation(1)
    for d in samples:
        assert d.observation(1)["you"] == obs["you"]
        assert d.observation(1)["opponent"]["board"] == obs["opponent"]["board"]
        assert sorted(d.ents[i].card.id for i in d.hand[2] + d.deck[2]) == sorted(
            g.ents[i].card.id for i in g.hand[2] + g.deck[2])
        play_randomly(d, 1)
        assert d.is_over
    hands = {tuple(d.ents[i].card.id for i in d.hand[2]) for d in samples}
    assert len(hands) > 1


@settings(max_examples=150, deadline=None)
@given(
    st.tuples(
        st.integers(-3, 8), st.integers(-5, 200), st.integers(-5, 200), st.integers(-3, 12),
        st.lists(st.integers(-5, 200), max_size=5).map(tuple),
    )
)
def test_fuzzed_actions_are_refused_or_legal(raw: tuple) -> None:
    g = _FUZZ_BASE.clone()
    action = Action(*raw)
    legal = action in g.legal_actions()
    before = g.hash()
    if legal:
        g.apply(action)
    else:
        with pytest.raises(hearth.IllegalAction):
            g.apply(action)
        assert g.hash() == before


_FUZZ_BASE = play_randomly(hearth.new_game(seed=31), 4, max_actions=30)


def test_direct_engine_calls_refresh_the_legal_action_cache() -> None:
    from games.hearth import scenario as S

    g = S.prepared()
    boar = S.summon(g, 1, "CS2_171")
    assert any(a.entity == boar for a in g.legal_actions())
    S.hit(g, boar, 1)  # no manual cache handling needed
    assert not any(a.entity == boar for a in g.legal_actions())
    # Transform writes card and tags behind the tag setter: the cache must drop all the same.
    charger = S.summon(g, 1, "CS2_124")  # Wolfrider, Charge
    assert any(a.entity == charger for a in g.legal_actions())
    g.transform(charger, "CS2_tk1")  # a sheep is summoning sick
    assert not any(a.entity == charger for a in g.legal_actions())
    with pytest.raises(hearth.IllegalAction):
        g.apply(hearth.Action(hearth.Kind.ATTACK, charger, g.hero[2]))
