"""Transform into one of several cards at random (``dsl.TransformRandom``, Tinkmaster
Overspark): which minion and which card come from the game's seeded RNG, the minion first;
a clone draws the same."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.game import State


def _tinker(seed: int) -> tuple[State, list[str]]:
    g = S.prepared(seed=seed)
    for p in (1, 2):
        S.summon(g, p, "CS2_182")
    S.play(g, S.give(g, 1, "EX1_083"))
    return g, [g.ents[i].card.id for i in g.board[1] + g.board[2]]


def test_the_outcome_follows_the_seed() -> None:
    outcomes = {tuple(_tinker(seed)[1]) for seed in range(20)}
    assert len(outcomes) > 1
    for seed in range(5):
        assert _tinker(seed)[1] == _tinker(seed)[1]


def test_a_clone_draws_the_same_and_never_the_tinkmaster() -> None:
    for seed in range(8):
        g = S.prepared(seed=seed)
        S.summon(g, 2, "CS2_182")
        S.summon(g, 1, "CS2_182")
        tink = S.give(g, 1, "EX1_083")
        c = g.clone()
        S.play(g, tink)
        S.play(c, tink)
        assert g.hash() == c.hash()
        assert g.ents[tink].card.id == "EX1_083"
        changed = [i for i in g.board[1] + g.board[2] if g.ents[i].card.id != "CS2_182"]
        assert [g.ents[i].card.id for i in changed if i != tink] in (["EX1_tk28"], ["EX1_tk29"])
