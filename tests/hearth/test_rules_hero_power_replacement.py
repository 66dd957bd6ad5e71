"""Hero power replacement (Shadowform, SabberStone's ReplaceHeroPower): the old hero power
goes to SETASIDE and a new one, unused this turn, takes its place."""

from __future__ import annotations

from test_from_view import agree
from test_hslog_games import stream_problems

from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import CREATOR, EXHAUSTED, HERO_POWER_ENTITY, Z_PLAY, Z_SETASIDE, ZONE
from games.hearth.tree import ViewTree


def power_card(g: S.State, p: int = 1) -> str:
    return g.ents[g.power[p]].card.id


def shadowform(g: S.State) -> None:
    S.play(g, S.give(g, 1, "EX1_625"))


def test_the_new_hero_power_replaces_the_old_one() -> None:
    g = S.prepared(hero1="HERO_09")
    old = g.power[1]
    shadowform(g)
    new = g.ents[g.power[1]]
    assert new.card.id == "EX1_625t" and new.id != old and new[ZONE] == Z_PLAY
    assert g.ents[old][ZONE] == Z_SETASIDE
    assert g.ents[2][HERO_POWER_ENTITY] == new.id and new[CREATOR] == g.hero[1]


def test_a_hero_power_used_this_turn_is_replaced_by_an_unused_one() -> None:
    g = S.prepared(hero1="HERO_09")
    S.power(g, g.hero[1])  # Lesser Heal
    assert g.ents[g.power[1]][EXHAUSTED]
    shadowform(g)
    assert not g.ents[g.power[1]][EXHAUSTED]
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 28 and g.ents[g.power[1]][EXHAUSTED]
    assert not any(a.kind == Kind.POWER for a in g.legal_actions())


def test_a_second_shadowform_gives_mind_shatter_and_a_third_keeps_it() -> None:
    g = S.prepared(hero1="HERO_09")
    shadowform(g)
    shadowform(g)
    assert power_card(g) == "EX1_625t2"
    S.power(g, g.hero[2])
    assert g.health(g.hero[2]) == 27
    S.set_mana(g, 1, 3)
    shadowform(g)  # text: "If already in Shadowform: 3 damage" (SabberStone: back to 2)
    assert power_card(g) == "EX1_625t2" and not g.ents[g.power[1]][EXHAUSTED]


def test_the_replaced_power_is_seen_by_both_players_and_rebuilt_from_a_view() -> None:
    g = S.prepared(hero1="HERO_09", history=True)
    shadowform(g)
    for viewer in (None, 1, 2):
        assert stream_problems(g, viewer) == []
    for p in (1, 2):
        tree = ViewTree()
        tree.feed(g.history(viewer=p))
        mine = tree.state(p, seed=1, opponent_deck=list(S.FILLER))
        agree(g, mine, p, f"viewer {p}", all_actions=p == g.current)
        assert mine.power == g.power
    c = g.clone()
    assert c.hash() == g.hash() and power_card(c) == "EX1_625t"
