"""A trigger on a Secret being played by either player (Secretkeeper): heard on both
players' turns, for secrets only, and before the secrets that answer the cast (a secret
a Counterspell counters was still played)."""

from __future__ import annotations

from games.hearth import scenario as S
from games.hearth.enums import ATK


def test_either_players_secret_and_no_other_spell() -> None:
    g = S.prepared()
    keeper = S.summon(g, 1, "EX1_080")
    S.play(g, S.give(g, 1, "CS2_029"), g.hero[2])
    assert g.ents[keeper][ATK] == 1
    S.play(g, S.give(g, 1, "EX1_289"))
    S.end_turn(g)
    S.play(g, S.give(g, 2, "EX1_294"))  # Mirror Entity, the enemy's
    assert g.ents[keeper][ATK] == 3


def test_a_countered_secret_was_played() -> None:
    g = S.prepared()
    keeper = S.summon(g, 1, "EX1_080")
    S.play(g, S.give(g, 1, "EX1_287"))  # Counterspell: +1
    S.end_turn(g)
    S.play(g, S.give(g, 2, "EX1_289"))  # countered, yet played: +1
    assert g.ents[keeper][ATK] == 3 and g.secrets[2] == [] and g.secrets[1] == []
