"""The bundled Hearth bots on the engine alone: legal, deterministic, and greedy beats random."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bots.hearth import BUNDLED, Bot, GreedyBot, IllegalBotAction, RandomBot, load_bot, play_game
from bots.hearth.bundled import bot_factory
from games import hearth
from games.hearth import END_TURN, Action, Kind

GAMES = 200


def series(games: int) -> tuple[int, int, float]:
    """Greedy vs random over ``games`` seeds, seats alternating: (greedy wins, draws, s)."""
    wins = draws = 0
    start = time.perf_counter()
    for i in range(games):
        greedy_seat = 1 + i % 2
        greedy, rand = GreedyBot(seed=i), RandomBot(seed=10_000 + i)
        bots = (greedy, rand) if greedy_seat == 1 else (rand, greedy)
        result = play_game(bots, seed=i, private=False).result()
        assert result is not None
        wins += result.winner == greedy_seat
        draws += result.winner == 0
    return wins, draws, time.perf_counter() - start


def test_greedy_beats_random_clearly() -> None:
    wins, draws, seconds = series(GAMES)
    print(f"greedy won {wins}/{GAMES} ({draws} draws) in {seconds:.2f} s")
    assert wins >= 0.9 * GAMES  # 198/200 when this test was written


def test_games_are_deterministic_given_the_seeds() -> None:
    def final(seed: int) -> int:
        return play_game((GreedyBot(seed=seed), RandomBot(seed=seed)), seed=seed).hash()

    assert [final(s) for s in range(5)] == [final(s) for s in range(5)]


def test_private_views_change_nothing_for_the_bundled_bots() -> None:
    for seed in range(3):
        shared = play_game((GreedyBot(seed=1), GreedyBot(seed=2)), seed=seed, private=False)
        private = play_game((GreedyBot(seed=1), GreedyBot(seed=2)), seed=seed, private=True)
        assert shared.hash() == private.hash()


def test_greedy_mulligan_replaces_cards_costing_more_than_three() -> None:
    for seed in range(20):
        g = hearth.new_game(seed=seed)
        costs = {i: tags.get(48, 0) for i, (_, tags) in g.entities().items()}  # 48 = COST
        for p in g.pending():
            choices = sorted({c for a in g.legal_actions(p) for c in a.cards})
            assert GreedyBot(seed=0).mulligan(g.clone(), choices) == [
                c for c in choices if costs[c] > 3
            ]


def test_every_answer_is_one_of_the_options() -> None:
    class Checked(Bot):
        def __init__(self, inner: Bot) -> None:
            self.inner = inner
            self.calls = 0

        def mulligan(self, state: hearth.State, choices: list[int]) -> list[int]:  # type: ignore[override]
            replace = self.inner.mulligan(state, choices)
            assert set(replace) <= set(choices)
            return replace

        def act(self, state: hearth.State, options: list[Action]) -> Action:  # type: ignore[override]
            self.calls += 1
            assert options[0] == END_TURN and set(options) == set(state.legal_actions())
            action = self.inner.act(state, options)
            assert action in options
            return action

    for seed in range(10):
        a, b = Checked(GreedyBot(seed)), Checked(RandomBot(seed))
        assert play_game((a, b), seed=seed).is_over
        assert a.calls and b.calls


def test_greedy_trades_favourably_and_goes_face_otherwise() -> None:
    from games.hearth import scenario as S

    g = S.prepared(mana=0)  # turn 1, player 1 acts, no mana: attacks only
    yeti = S.summon(g, 1, "CS2_182")  # 4/5
    raptor = S.summon(g, 2, "CS2_172")  # 3/2: the yeti kills it and survives
    bot = GreedyBot(seed=0)
    assert bot.act(g, g.legal_actions()) == Action(Kind.ATTACK, yeti, raptor)

    g = S.prepared(mana=0)
    raptor = S.summon(g, 1, "CS2_172")  # 3/2
    ogre = S.summon(g, 2, "CS2_200")  # 6/7: no kill, so face
    S.hit(g, ogre, 4)  # 6/3 now: the raptor kills it and dies, a more valuable minion
    assert bot.act(g, g.legal_actions()) == Action(Kind.ATTACK, raptor, ogre)

    g = S.prepared(mana=0)
    raptor = S.summon(g, 1, "CS2_172")
    S.summon(g, 2, "CS2_182")  # 4/5: no kill, so face
    assert bot.act(g, g.legal_actions()) == Action(Kind.ATTACK, raptor, g.hero[2])
    S.attack(g, raptor, g.hero[2])
    assert bot.act(g, g.legal_actions()) == END_TURN


def test_greedy_goes_for_lethal_before_trading() -> None:
    from games.hearth import scenario as S

    g = S.prepared(mana=0)
    yeti = S.summon(g, 1, "CS2_182")
    S.summon(g, 2, "CS2_172")  # a good trade, but the enemy hero is at 4
    S.hit(g, g.hero[2], 26)
    assert GreedyBot(seed=0).act(g, g.legal_actions()) == Action(Kind.ATTACK, yeti, g.hero[2])


def test_greedy_plays_the_most_expensive_affordable_card() -> None:
    from games.hearth import scenario as S

    g = S.prepared(mana=4)
    S.give(g, 1, "CS2_172")  # 2 mana
    yeti = S.give(g, 1, "CS2_182")  # 4 mana
    S.give(g, 1, "CS2_200")  # 6 mana: not affordable
    assert GreedyBot(seed=0).act(g, g.legal_actions()) == Action(Kind.PLAY, yeti, 0, 0)


def test_a_bot_answering_outside_its_options_is_named() -> None:
    class Cheat(Bot):
        def act(self, state: hearth.State, options: list[Action]) -> Action:  # type: ignore[override]
            return Action(Kind.ATTACK, 1, 1)

    with pytest.raises(IllegalBotAction, match="Cheat"):
        play_game((Cheat(), Cheat()), seed=1)


def test_bots_are_found_by_name_module_and_file(tmp_path: Path) -> None:
    assert sorted(BUNDLED) == ["hearth-greedy", "hearth-random"]
    assert load_bot("hearth-random", seed=1).name == "hearth-random"
    assert isinstance(load_bot("bots.hearth.bundled:GreedyBot", seed=1), GreedyBot)
    path = tmp_path / "my_bot.py"
    path.write_text(
        "from bots.hearth import Bot\n"
        "from games.hearth import END_TURN\n"
        "class Lazy(Bot):\n"
        "    def act(self, state, options):\n"
        "        return END_TURN\n"
    )
    assert load_bot(f"{path}:Lazy").name == "Lazy"
    for bad in ("nonsense", f"{path}:Missing", "bots.blokus.bundled:GreedyBot", "no_such_mod:X"):
        with pytest.raises(ValueError):
            bot_factory(bad)
