"""The mid-turn choice (``Kind.CHOOSE``): Tracking's and Sightless Watcher's pick.

While a choice waits, its player's CHOOSE actions (one per offered card, in order) are the
only legal actions, ``pending()`` names that player and ``pending_choice`` the offer; the
offered cards are named to the chooser only (history, observation, determinized copies),
and a clone carries the choice. The card's play finishes first, then the pick runs
(SabberStone's order: its choices wait until the task queue is empty).
"""

from __future__ import annotations

import pytest

from games import hearth
from games.hearth import END_TURN, Action, IllegalAction, Kind, State
from games.hearth import scenario as S
from games.hearth.enums import MAX_HAND, Z_GRAVEYARD, Z_SETASIDE, ZONE
from games.hearth.tree import ViewTree, fold

WISP, YETI, BOAR, OGRE, RAPTOR = "CS2_231", "CS2_182", "CS2_171", "CS2_200", "CS2_172"
TOP = [YETI, BOAR, OGRE, RAPTOR]  # the deck after player 1's four opening draws, top first


def tracked(history: bool = False, deck: list[str] | None = None) -> tuple[State, list[int]]:
    """Player 1 has just cast Tracking; returns the game and the top three cards."""
    cards = [WISP] * 4 + (TOP if deck is None else deck)
    g = S.prepared(hero1="HERO_05", deck1=cards, history=history)
    top = g.deck[1][::-1][:3]
    S.play(g, S.give(g, 1, "DS1_184"))
    return g, top


def names_in(entries: list[dict[str, object]]) -> set[str]:
    """Every card id an entry of a history stream names (entities and blocks)."""
    found: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("name", "cardID") and isinstance(v, str) and v:
                    found.add(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(entries)
    return found


def ids_named(entries: list[dict[str, object]]) -> set[int]:
    """Entity ids that some entry shows with a card id."""
    out: set[int] = set()

    def walk(x: object) -> None:
        if isinstance(x, dict):
            if isinstance(x.get("name"), str) and x["name"] and "entityID" in x:
                out.add(int(x["entityID"]))  # type: ignore[call-overload]
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(entries)
    return out


def test_only_the_choosers_choose_actions_are_legal_while_a_choice_waits() -> None:
    g, top = tracked()
    assert g.pending_choice == (1, tuple(top))
    assert g.legal_actions() == [Action(Kind.CHOOSE, 1, cards=(i,)) for i in top]
    assert g.pending() == [1] and g.legal_actions(2) == []
    with pytest.raises(IllegalAction):
        g.apply(END_TURN)
    with pytest.raises(IllegalAction):
        g.apply(Action(Kind.CHOOSE, 2, cards=(top[0],)))  # not player 2's choice
    with pytest.raises(IllegalAction):
        g.apply(Action(Kind.CHOOSE, 1, cards=(top[0],)), player=2)
    with pytest.raises(IllegalAction):
        g.apply(Action(Kind.CHOOSE, 1, cards=(g.hero[1],)))  # not offered
    g.apply(Action(Kind.CHOOSE, 1, cards=(top[0],)), player=1)
    assert g.pending_choice is None and END_TURN in g.legal_actions()


def test_the_chooser_may_be_the_second_player_too() -> None:
    g = S.prepared(hero2="HERO_05")
    S.end_turn(g)
    S.play(g, S.give(g, 2, "DS1_184"))
    assert g.pending_choice is not None and g.pending_choice[0] == 2
    assert g.pending() == [2]
    assert all(a.entity == 2 and a.kind == Kind.CHOOSE for a in g.legal_actions())


def test_fewer_cards_than_three_offers_them_all_and_an_empty_deck_none() -> None:
    g, top = tracked(deck=[YETI, BOAR])
    assert g.pending_choice == (1, tuple(top)) and len(top) == 2
    g2, top2 = tracked(deck=[])
    assert top2 == [] and g2.pending_choice is None and g2.health(g2.hero[1]) == 30  # no fatigue
    g3 = S.prepared(hero1="HERO_10", deck1=[WISP] * 4 + [YETI])
    S.play(g3, S.give(g3, 1, "BT_323"))
    assert g3.pending_choice == (1, tuple(g3.deck[1]))  # one card: a choice of one


def test_a_full_hand_burns_the_chosen_card() -> None:
    g = S.prepared(hero1="HERO_05", deck1=[WISP] * 4 + TOP)
    for _ in range(MAX_HAND - 1):
        S.give(g, 1, WISP)
    top = g.deck[1][::-1][:3]
    S.play(g, S.give(g, 1, "DS1_184"))
    S.give(g, 1, WISP)  # full again before the pick
    g.apply(Action(Kind.CHOOSE, 1, cards=(top[0],)))
    assert len(g.hand[1]) == MAX_HAND and all(g.ents[i][ZONE] == Z_GRAVEYARD for i in top)


def test_the_opponent_never_sees_the_offered_cards() -> None:
    g, top = tracked(history=True)
    mine, theirs = g.history(viewer=1), g.history(viewer=2)
    assert set(top) <= ids_named(mine)  # the chooser knows its own deck's cards
    assert not set(top) & ids_named(theirs)
    assert [g.ents[i][ZONE] for i in top] == [Z_SETASIDE] * 3
    g.apply(Action(Kind.CHOOSE, 1, cards=(top[1],)))
    theirs = g.history(viewer=2)
    assert not set(top) & ids_named(theirs)  # neither the drawn nor the discarded ones
    assert not {YETI, BOAR, OGRE} & names_in(theirs)
    assert {YETI, BOAR, OGRE} <= names_in(g.history())  # the full stream names them
    # What player 2 folds from its stream: the three are nameless, in hand or graveyard.
    tree = fold(theirs)
    assert all(tree[i][0] == "" for i in top)
    assert [tree[i][1][ZONE] for i in top] == [Z_GRAVEYARD, 3, Z_GRAVEYARD]  # 3 = HAND


def test_the_observation_names_the_offer_to_the_chooser_only() -> None:
    g, top = tracked()
    mine, theirs = g.observation(1)["choice"], g.observation(2)["choice"]
    assert [c["card"] for c in mine["entities"]] == [YETI, BOAR, OGRE]
    assert theirs["entities"] == [{"entity": i} for i in top] and theirs["player"] == 1
    assert g.observation(1)["legal_actions"] == g.legal_actions()
    g.apply(Action(Kind.CHOOSE, 1, cards=(top[0],)))
    assert g.observation(1)["choice"] is None


def test_clone_carries_the_choice() -> None:
    g, top = tracked(history=True)
    c = g.clone()
    assert c.hash() == g.hash() and c.pending_choice == g.pending_choice
    for x in (g, c):
        x.apply(Action(Kind.CHOOSE, 1, cards=(top[2],)))
    assert c.hash() == g.hash() and c.history(2) == g.history(2)
    d = c.clone()
    d.apply(END_TURN)
    assert c.pending_choice is None and c.hash() == g.hash()  # independent copies


def test_determinized_hides_the_offer_from_the_opponent_only() -> None:
    g, top = tracked()
    mine = g.determinized(1, seed=3)
    assert mine.pending_choice == g.pending_choice
    assert [mine.card_id(i) for i in top] == [YETI, BOAR, OGRE]  # the chooser knows them
    assert mine.observation(1) == g.observation(1)
    seen: set[tuple[str, ...]] = set()
    for seed in range(20):
        d = g.determinized(2, seed=seed)
        assert d.pending_choice == g.pending_choice and d.observation(2) == g.observation(2)
        seen.add(tuple(d.card_id(i) for i in top))
        d.apply(d.legal_actions()[0])
        assert d.pending_choice is None
    assert len(seen) > 1  # resampled, not kept
    # Once picked, the two discarded cards stay unknown to the opponent's copies too.
    g.apply(Action(Kind.CHOOSE, 1, cards=(top[2],)))
    assert g.unseen == set(top[:2])
    assert len({tuple(g.determinized(2, seed=s).card_id(i) for i in top[:2])
                for s in range(20)}) > 1
    assert [g.determinized(1, seed=4).card_id(i) for i in top[:2]] == [YETI, BOAR]


def test_from_view_rebuilds_a_game_with_unseen_cards() -> None:
    g, top = tracked(history=True)
    g.apply(Action(Kind.CHOOSE, 1, cards=(top[0],)))
    S.end_turn(g)
    tree = ViewTree()
    tree.feed(g.history(viewer=2))
    rebuilt = tree.state(2, seed=1)
    assert rebuilt.legal_actions(2) == g.legal_actions(2)
    assert len(rebuilt.hand[1]) == len(g.hand[1]) and len(rebuilt.deck[1]) == len(g.deck[1])


def test_the_play_finishes_before_the_pick() -> None:
    # Sightless Watcher's after-summon phase (Knife Juggler) runs before the pick.
    g = S.prepared(hero1="HERO_10", deck1=[WISP] * 4 + TOP)
    S.summon(g, 1, "NEW1_019")  # Knife Juggler
    S.play(g, S.give(g, 1, "BT_323"))
    assert g.health(g.hero[2]) == 29 and g.pending_choice is not None


def test_random_games_with_choices_stay_legal() -> None:
    decks = [("HERO_05", ["DS1_184"] * 2 + [WISP] * 28), ("HERO_10", ["BT_323"] * 2 + [WISP] * 28)]
    chose = 0
    for seed in range(20):
        g = hearth.new_game(seed=seed, decks=decks)
        while not g.is_over:
            acts = g.legal_actions()
            if acts[0].kind == Kind.CHOOSE:
                chose += 1
                assert {a.kind for a in acts} == {Kind.CHOOSE}
            g.apply(acts[(seed + len(acts)) % len(acts)])
    assert chose > 10


def test_from_view_reopens_the_choice_an_entity_choices_names() -> None:
    g, top = tracked(history=True)
    tree = ViewTree()
    tree.feed(g.history(viewer=1))
    pick = g.choices[0]
    rebuilt = tree.state(1, seed=2, choice=(pick.player, pick.offered, pick.source))
    assert rebuilt.pending_choice == g.pending_choice
    assert rebuilt.legal_actions() == g.legal_actions()
    for x in (g, rebuilt):
        x.apply(Action(Kind.CHOOSE, 1, cards=(top[1],)))
    assert rebuilt.observation(1) == g.observation(1)
    with pytest.raises(ValueError):  # a minion that offers nothing
        tree.state(1, seed=2, choice=(1, pick.offered, g.hero[1]))
