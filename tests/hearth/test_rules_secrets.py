"""Rule tests of secrets: the SECRET zone, its limits, the opponent's-turn rule, the order
of several secrets, what the opponent may see, and clone/hash/rebuild with secrets."""

from __future__ import annotations

from games import hearth
from games.hearth import scenario as S
from games.hearth.actions import Kind
from games.hearth.enums import ARMOR, SECRET, Z_GRAVEYARD, Z_SECRET, ZONE
from games.hearth.game import State
from games.hearth.tree import fold

ICE_BARRIER, EXPLOSIVE_TRAP, NOBLE, COUNTERSPELL = "EX1_289", "EX1_610", "EX1_130", "EX1_287"


def playable(g: State, eid: int) -> bool:
    return any(a.kind == Kind.PLAY and a.entity == eid for a in g.legal_actions())


def test_a_played_secret_waits_hidden_in_the_secret_zone() -> None:
    g = S.prepared(history=True)
    barrier = S.give(g, 1, ICE_BARRIER)
    S.play(g, barrier)
    assert g.ents[barrier][ZONE] == Z_SECRET and g.secrets[1] == [barrier]
    assert g.mana(1) == 7  # its cost is paid
    # The opponent's stream never names the card while it is a secret.
    names = [
        entry.get(kind, {}).get("name")
        for entry in g.history(viewer=2)
        for kind in ("full_entity", "show_entity")
        if entry.get(kind, {}).get("entityID") == barrier
    ]
    assert names and set(names) == {""}
    assert any(
        e.get("show_entity", {}).get("entityID") == barrier for e in g.history(viewer=None)
    ) is False


def test_two_copies_of_one_secret_never_and_at_most_five() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, ICE_BARRIER))
    second = S.give(g, 1, ICE_BARRIER)
    assert not playable(g, second)
    for cid in ("EX1_610", "EX1_554", "EX1_609", "EX1_130"):  # a test may mix classes
        S.set_mana(g, 1, 10)
        S.play(g, S.give(g, 1, cid))
    assert len(g.secrets[1]) == 5
    S.set_mana(g, 1, 10)
    assert not playable(g, S.give(g, 1, COUNTERSPELL))


def test_a_secret_does_not_trigger_on_its_owners_turn() -> None:
    g = S.prepared()
    barrier = S.give(g, 1, ICE_BARRIER)
    S.play(g, barrier)
    raptor = S.summon(g, 1, "CS2_172")
    S.end_turn(g)
    S.end_turn(g)
    # Player 1's own turn: player 1's secret ignores everything, even its own hero attacked
    # (which cannot happen) or a friendly attack; nothing reveals it.
    S.attack(g, raptor, g.hero[2])
    assert g.ents[barrier][ZONE] == Z_SECRET


def test_secrets_triggered_by_one_event_resolve_in_the_order_played() -> None:
    g = S.prepared()
    trap = S.give(g, 1, EXPLOSIVE_TRAP)
    barrier = S.give(g, 1, ICE_BARRIER)
    S.play(g, trap)
    S.play(g, barrier)
    S.end_turn(g)
    yeti = S.summon(g, 2, "CS2_182")
    S.attack(g, yeti, g.hero[1])
    assert g.ents[trap][ZONE] == g.ents[barrier][ZONE] == Z_GRAVEYARD
    assert g.secrets[1] == []
    # Trap (2 to the yeti and the enemy hero), then Barrier (8 Armor), then the attack (4).
    assert g.health(yeti) == 3 and g.health(g.hero[2]) == 28
    assert g.ents[g.hero[1]][ARMOR] == 4 and g.health(g.hero[1]) == 30


def test_an_attacker_a_secret_kills_does_not_attack() -> None:
    g = S.prepared()
    S.play(g, S.give(g, 1, EXPLOSIVE_TRAP))
    S.end_turn(g)
    boar = S.summon(g, 2, "CS2_171")
    S.attack(g, boar, g.hero[1])
    assert g.ents[boar][ZONE] == Z_GRAVEYARD and g.health(g.hero[1]) == 30


def test_clone_hash_and_rebuild_keep_secrets() -> None:
    g = S.prepared()
    barrier = S.give(g, 1, ICE_BARRIER)
    S.play(g, barrier)
    c = g.clone()
    assert c.secrets == g.secrets and c.hash() == g.hash()
    S.end_turn(c)
    yeti = S.summon(c, 2, "CS2_182")
    S.attack(c, yeti, c.hero[1])
    assert c.secrets[1] == [] and g.secrets[1] == [barrier]
    assert c.hash() != g.hash()


def test_views_and_determinized_states_keep_secrets_without_naming_the_opponents() -> None:
    g = S.prepared(hero1="HERO_08", history=True)
    barrier = S.give(g, 1, ICE_BARRIER)
    S.play(g, barrier)
    # The owner's view rebuilds the secret as it is, its trigger working.
    mine = State.from_view(fold(g.history(viewer=1)), 1, seed=3)
    assert mine.secrets[1] == [barrier] and mine.ents[barrier].card.id == ICE_BARRIER
    # The opponent's view: a hidden secret becomes some Mage secret, never another card.
    seen = set()
    for seed in range(30):
        theirs = State.from_view(fold(g.history(viewer=2)), 2, seed=seed)
        (sid,) = theirs.secrets[1]
        card = theirs.ents[sid].card
        assert card.tags.get(SECRET) and card.card_class == g.ents[barrier].card.card_class
        seen.add(card.id)
        d = g.determinized(2, seed)
        assert d.ents[d.secrets[1][0]].card.tags.get(SECRET)
    assert len(seen) > 1  # sampled, not the true one each time


def test_random_games_with_secrets_keep_the_invariants() -> None:
    mage = [ICE_BARRIER, COUNTERSPELL, "EX1_294", "tt_010", "EX1_594", "CS2_029", "CS2_024",
            "CS2_182", "CS2_172", "CS2_171"] * 3
    hunter = [EXPLOSIVE_TRAP, "EX1_533", "EX1_554", "EX1_609", NOBLE, "EX1_136", "CS2_182",
              "CS2_172", "CS2_171", "CS2_120"] * 3
    import random

    for seed in range(40):
        g = hearth.new_game(seed=seed, decks=[("HERO_08", mage), ("HERO_04", hunter)])
        rnd = random.Random(seed)
        steps = 0
        while not g.is_over and steps < 400:
            g.apply(rnd.choice(g.legal_actions()))
            steps += 1
            for p in (1, 2):
                assert all(g.ents[i][ZONE] == Z_SECRET for i in g.secrets[p])
                ids = [g.ents[i].card.id for i in g.secrets[p]]
                assert len(ids) == len(set(ids)) <= 5
        assert g.clone().hash() == g.hash()
