"""Our history has the shape of a real game's: STEP, PLAYSTATE and blocks, read by hslog.

The four Power.log files of real games in tests/hearth/data/power-logs/ (CC0, gzipped; or
``GAUNTLET_HS_LOGS``) and seeded games of ours are read the same way, through
``hslog.LogParser`` (ours: Kettle history -> Power.log text, `history_grammar.py`), and
their grammars compared. What a real game shows (the `REAL_*` constants below are what
the four logs show; `test_the_reference_is_what_the_real_logs_show` checks them against
the files whenever they are there, the other tests then compare with the files' own
measurements):

* STEP goes BEGIN_MULLIGAN, then per turn MAIN_READY, MAIN_START_TRIGGERS, MAIN_START,
  MAIN_ACTION (MAIN_COMBAT set inside each ATTACK block, back to MAIN_ACTION after it),
  MAIN_END, MAIN_CLEANUP, MAIN_NEXT; FINAL_WRAPUP, FINAL_GAMEOVER at the end. BEGIN_FIRST,
  BEGIN_SHUFFLE, BEGIN_DRAW and MAIN_BEGIN are never STEP (nor NEXT_STEP) values.
* Every STEP change is written at the top level, MAIN_COMBAT inside the ATTACK block; the
  NEXT_STEP changes in a TRIGGER block (the step's own block), in the ATTACK block
  (MAIN_ACTION) or at the top level (FINAL_WRAPUP).
* PLAYSTATE: PLAYING, then LOSING (in a DEATHS block) -> LOST and WON, or CONCEDED ->
  LOST and WON. Never WINNING.
* A block type opens on one kind of entity (DEATHS on the game, PLAY on a card, TRIGGER on
  the game, a player or a card) inside given parents (DEATHS never inside ATTACK).

Where ours may differ, and why (docs/hearth-engine.md, "The history's grammar"):

* FATIGUE blocks (on the player): the Kettle design wiki's power type 0x8; none of the
  four real games reached fatigue.
* A game ends in the step it is in: the real games end in MAIN_ACTION or MAIN_COMBAT;
  ours can also end at the mulligan (a concede), at a turn's start (a trigger or fatigue
  killing a hero), at its end, or at MAIN_NEXT (the turn cap, a draw).
* A draw (both heroes die, or the turn cap) is TIED for both; no real sample has one.
"""

from __future__ import annotations

import io
import random
from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import cache
from typing import Any

import history_grammar as hg

from games import hearth

# ---------------------------------------------------------------------------------------
# What the four real logs show (checked against the files by the first test)

REAL_TRANSITIONS = frozenset(
    {
        ("INVALID", "BEGIN_MULLIGAN"),
        ("BEGIN_MULLIGAN", "MAIN_READY"),
        ("MAIN_READY", "MAIN_START_TRIGGERS"),
        ("MAIN_START_TRIGGERS", "MAIN_START"),
        ("MAIN_START", "MAIN_ACTION"),
        ("MAIN_ACTION", "MAIN_COMBAT"),
        ("MAIN_COMBAT", "MAIN_ACTION"),
        ("MAIN_ACTION", "MAIN_END"),
        ("MAIN_END", "MAIN_CLEANUP"),
        ("MAIN_CLEANUP", "MAIN_NEXT"),
        ("MAIN_NEXT", "MAIN_READY"),
        ("MAIN_ACTION", "FINAL_WRAPUP"),
        ("MAIN_COMBAT", "FINAL_WRAPUP"),
        ("FINAL_WRAPUP", "FINAL_GAMEOVER"),
    }
)
REAL_STEP_PLACES = frozenset(
    {(step, hg.TOP) for a, b in REAL_TRANSITIONS for step in (a, b) if step != "INVALID"}
    - {("MAIN_COMBAT", hg.TOP)}
    | {("MAIN_COMBAT", "ATTACK")}
)
REAL_NEXT_STEP_PLACES = frozenset(
    {
        ("BEGIN_MULLIGAN", "TRIGGER"),
        ("MAIN_READY", "TRIGGER"),
        ("MAIN_START_TRIGGERS", "TRIGGER"),
        ("MAIN_START", "TRIGGER"),
        ("MAIN_ACTION", "TRIGGER"),
        ("MAIN_ACTION", "ATTACK"),
        ("MAIN_END", "TRIGGER"),
        ("MAIN_CLEANUP", "TRIGGER"),
        ("MAIN_NEXT", "TRIGGER"),
        ("FINAL_WRAPUP", hg.TOP),
        ("FINAL_GAMEOVER", "TRIGGER"),
    }
)
NEVER_STEPS = frozenset({"BEGIN_FIRST", "BEGIN_SHUFFLE", "BEGIN_DRAW", "MAIN_BEGIN"})
# Each player's PLAYSTATE changes in a whole game, (value, where written).
PLAYING = ("PLAYING", hg.TOP)
REAL_PLAYSTATES = frozenset(
    {
        (PLAYING, ("LOSING", "DEATHS"), ("LOST", hg.TOP)),
        (PLAYING, ("CONCEDED", hg.TOP), ("LOST", hg.TOP)),
        (PLAYING, ("WON", hg.TOP)),
    }
)
# The tags every real ATTACK block changes, whoever attacks.
ATTACK_TAGS = frozenset(
    {"STEP", "NEXT_STEP", "PROPOSED_ATTACKER", "PROPOSED_DEFENDER", "ATTACKING", "DEFENDING"}
)

# Ours only (see the module docstring and docs/hearth-engine.md).
KETTLE_ONLY_BLOCKS = frozenset({"FATIGUE"})
OURS_END_STEPS = frozenset(
    {"BEGIN_MULLIGAN", "MAIN_START_TRIGGERS", "MAIN_START", "MAIN_END", "MAIN_NEXT"}
)
OURS_PLAYSTATES = frozenset(
    {
        (PLAYING, ("TIED", hg.TOP)),
        (PLAYING, ("LOSING", "DEATHS"), ("TIED", hg.TOP)),
    }
)

# ---------------------------------------------------------------------------------------
# The games


def _real_available() -> bool:
    return len(hg.real_logs()) == 4


@cache
def real_grammars() -> tuple[hg.Grammar, ...]:
    return tuple(hg.measure_log_file(path) for path in hg.real_logs())


def whole(g: hg.Grammar) -> bool:
    """A log of a whole game (one of the four starts mid-game: a reconnect)."""
    return bool(g.steps) and g.step_names()[0] == "BEGIN_MULLIGAN"


def play(state: Any, seed: int, concede_after: int | None = None) -> Any:
    rng = random.Random(seed)
    for done in range(5000):
        if state.is_over:
            break
        if done == concede_after:
            state.concede(state.pending()[0])
            break
        state.apply(rng.choice(state.legal_actions()))
    assert state.is_over, f"seed {seed}: the game did not finish"
    return state


def our_games() -> list[tuple[str, Any]]:
    """Seeded random games that reach every way ours can end."""
    games = [(f"seed {s}", play(hearth.new_game(seed=s, history=True), s)) for s in range(1, 7)]
    cards = hearth.collectible_cards()
    for s in (3001, 3002, 3003):  # the whole card set: deathrattles, triggers, auras
        rng = random.Random(s)
        decks = [(rng.choice(("HERO_01", "HERO_04", "HERO_08", "HERO_09")),
                  [rng.choice(cards) for _ in range(30)]) for _ in "12"]
        state = hearth.new_game(seed=s, decks=decks, history=True)
        games.append((f"random decks {s}", play(state, s)))
    tiny = [("HERO_08", ["CS2_231"] * 4), ("HERO_01", ["CS2_231"] * 4)]  # fatigue decides
    games.append(("fatigue", play(hearth.new_game(seed=8, decks=tiny, history=True), 8)))
    games.append(("concede", play(hearth.new_game(seed=9, history=True), 9, concede_after=40)))
    games.append(("concede in the mulligan",
                  play(hearth.new_game(seed=10, history=True), 10, concede_after=0)))
    games.append(("turn cap", play(hearth.new_game(seed=11, history=True, turn_cap=3), 11)))
    return games


@cache
def ours() -> tuple[tuple[str, Any, hg.Grammar], ...]:
    return tuple(
        (name, state, hg.measure_history(state.history(), f"ours, {name}"))
        for name, state in our_games()
    )


def union(grammars: Iterable[hg.Grammar], what: str) -> set[Any]:
    out: set[Any] = set()
    for g in grammars:
        out |= getattr(g, what)()
    return out


def reference(what: str, fallback: frozenset[Any]) -> frozenset[Any]:
    """The real logs' own measurement when they are here, else the recorded reference."""
    if not _real_available():
        return fallback
    grammars = real_grammars()
    if what == "transitions":
        grammars = tuple(g for g in grammars if whole(g))
    return frozenset(union(grammars, what))


def playstates(g: hg.Grammar) -> set[tuple[tuple[str, str], ...]]:
    return {tuple((hg.name_of(hg.PlayState, c.value), c.where) for c in changes)
            for changes in g.playstates.values()}


# ---------------------------------------------------------------------------------------
# The reference


def test_the_reference_is_what_the_real_logs_show() -> None:
    assert _real_available(), f"the four real logs are not in {hg.LOG_DIR}"
    grammars = real_grammars()
    assert [whole(g) for g in grammars].count(True) == 3
    assert union((g for g in grammars if whole(g)), "transitions") == REAL_TRANSITIONS
    assert union(grammars, "step_places") == REAL_STEP_PLACES
    next_places = {(hg.name_of(hg.Step, c.value), c.where)
                   for g in grammars for c in g.next_steps}
    assert next_places == REAL_NEXT_STEP_PLACES
    assert not {s for g in grammars for s in g.step_names()} & NEVER_STEPS
    assert not {s for s, _ in next_places} & NEVER_STEPS
    seen = set().union(*(playstates(g) for g in grammars if whole(g)))
    assert seen == REAL_PLAYSTATES
    for g in grammars:
        attacks = [b for b in g.blocks if b.type == "ATTACK"]
        # The reconnect log (a later client's format) writes its two attacks without a
        # STEP change; the three whole games set MAIN_COMBAT in every ATTACK block.
        tags = ATTACK_TAGS if whole(g) else ATTACK_TAGS - {"STEP", "NEXT_STEP"}
        combats = len(attacks) if whole(g) else 0
        assert attacks and g.step_names().count("MAIN_COMBAT") == combats, g.name
        assert all({t for t, _ in b.tags} >= tags for b in attacks), g.name
        assert ("DEATHS", "ATTACK") not in g.nesting()


# ---------------------------------------------------------------------------------------
# Ours against it


def test_our_step_changes_are_real_ones() -> None:
    real = reference("transitions", REAL_TRANSITIONS)
    allowed = real | {(step, "FINAL_WRAPUP") for step in OURS_END_STEPS}
    problems = []
    for name, _, g in ours():
        names = g.step_names()
        assert names[0] == "BEGIN_MULLIGAN" and names[-2:] == ["FINAL_WRAPUP", "FINAL_GAMEOVER"]
        assert not set(names) & NEVER_STEPS, name
        extra = g.transitions() - allowed
        if extra:
            problems.append(f"{name}: {sorted(extra)}")
    assert not problems, "\n".join(problems)
    seen = union((g for _, _, g in ours()), "transitions")
    # the whole real cycle is there, attacks and both real endings included
    assert real <= seen, sorted(real - seen)
    assert {("MAIN_COMBAT", "MAIN_ACTION"), ("MAIN_COMBAT", "FINAL_WRAPUP"),
            ("MAIN_START", "FINAL_WRAPUP"), ("MAIN_NEXT", "FINAL_WRAPUP"),
            ("BEGIN_MULLIGAN", "FINAL_WRAPUP")} <= seen


def test_steps_and_next_steps_are_written_where_a_real_log_writes_them() -> None:
    places = reference("step_places", REAL_STEP_PLACES)
    for name, _, g in ours():
        assert g.step_places() <= places, f"{name}: {sorted(g.step_places() - places)}"
        nxt = {(hg.name_of(hg.Step, c.value), c.where) for c in g.next_steps}
        assert nxt <= REAL_NEXT_STEP_PLACES, f"{name}: {sorted(nxt - REAL_NEXT_STEP_PLACES)}"


def test_main_combat_is_set_once_per_attack_inside_its_block() -> None:
    attacks = 0
    for name, state, g in ours():
        blocks = [b for b in g.blocks if b.type == "ATTACK"]
        assert len(blocks) == hg.count_attacks(state.history()), name
        assert g.step_names().count("MAIN_COMBAT") == len(blocks), name
        assert [c.where for c in g.steps if c.value == hg.Step.MAIN_COMBAT] == ["ATTACK"] * len(
            blocks
        )
        for b in blocks:
            assert {t for t, _ in b.tags} >= ATTACK_TAGS, f"{name}: {sorted(b.tags)}"
        attacks += len(blocks)
    assert attacks > 50


def test_a_game_ends_as_a_real_one_does() -> None:
    allowed = REAL_PLAYSTATES | OURS_PLAYSTATES
    endings: Counter[str] = Counter()
    for name, state, g in ours():
        per_player = [tuple((hg.name_of(hg.PlayState, c.value), c.where) for c in g.playstates[e])
                      for e in (2, 3)]
        assert set(per_player) <= allowed, f"{name}: {per_player}"
        assert "WINNING" not in {s for p in per_player for s, _ in p}
        result = state.result()
        finals = [p[-1][0] for p in per_player]
        if result.winner:
            assert finals[result.winner - 1] == "WON" and finals[2 - result.winner] == "LOST"
            how = "CONCEDED" if result.reason == "concede" else "LOSING"
            assert per_player[2 - result.winner][1][0] == how, name
        else:
            assert finals == ["TIED", "TIED"], name
        endings[result.reason] += 1
    assert set(endings) == {"hero died", "concede", "turn cap"}, endings


def test_blocks_open_on_the_entities_and_in_the_places_a_real_log_uses() -> None:
    # weapon triggers (Truesilver Champion) open TRIGGER blocks on the weapon in the real
    # game too; the stored Power.log files only hold no such weapon
    openers = reference("openers", frozenset()) | {("TRIGGER", "WEAPON")}
    nesting = reference("nesting", frozenset())
    assert openers, "the real Power.log files are not here (tests/hearth/data/power-logs)"
    parents = {p for _, p in nesting}
    used: set[tuple[str, str]] = set()
    for name, _, g in ours():
        for b in g.blocks:
            if b.type in KETTLE_ONLY_BLOCKS:
                assert b.opener == "PLAYER" and b.parent in parents, f"{name}: {b}"
                continue
            assert (b.type, b.opener) in openers, f"{name}: {b.type} opened by {b.opener}"
            assert (b.type, b.parent) in nesting, f"{name}: {b.type} inside {b.parent}"
            used.add((b.type, b.opener))
    # the turn steps' TRIGGER blocks, deaths, plays, powers and attacks: the real kinds
    assert {("TRIGGER", "GAME"), ("TRIGGER", "PLAYER"), ("TRIGGER", "MINION"),
            ("DEATHS", "GAME"), ("PLAY", "MINION"), ("PLAY", "SPELL"), ("PLAY", "HERO_POWER"),
            ("POWER", "SPELL"), ("ATTACK", "MINION"), ("ATTACK", "HERO")} <= used


def test_the_power_log_and_hsreplay_exports_have_the_same_grammar() -> None:
    """The server's replay exporters write the same history: read back by hslog (the
    Power.log text) and by hsreplay (the XML), each has the grammar of the stream."""
    from hsreplay.document import HSReplayDocument

    from server.games.hearth.replay import hsreplay_xml, power_log

    for name, state, g in ours()[:3] + ours()[-3:]:
        when = datetime(2026, 1, 1, tzinfo=UTC)
        text = power_log(state.history(), when)
        exported = hg.measure(hg.parse_log(text), f"{name}, Power.log")
        xml = hsreplay_xml(text, when)
        (tree,) = HSReplayDocument.from_xml_file(io.BytesIO(xml.encode())).to_packet_tree()
        replayed = hg.measure(tree, f"{name}, HSReplay")
        for other in (exported, replayed):
            assert other.step_names() == g.step_names(), other.name
            assert other.transitions() == g.transitions()
            assert other.step_places() == g.step_places()
            assert playstates(other) == playstates(g)
            assert [(b.type, b.opener, b.parent) for b in other.blocks] == [
                (b.type, b.opener, b.parent) for b in g.blocks
            ]
