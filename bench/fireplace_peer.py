"""Uniformly random full games on fireplace2, the Python peer of our Hearth engine.

Runs inside `.venv-fireplace` (see `bench/fireplace-requirements.txt`), never in the
product's venv; `bench/hearth_engine.py` creates that venv and starts this script::

    .venv-fireplace/bin/python bench/fireplace_peer.py 50 1
    .venv-fireplace-upstream/bin/python bench/fireplace_peer.py 50 1 decks.json

and it prints one JSON object on stdout::

    {"games": 50, "seconds": 9.1, "games_per_s": 5.5, "actions_per_game": 117.2,
     "deepcopy_ms": 14.0, ...}

The agent follows the measurement in the reference (hearth-engine.md §2.4): at every
decision it lists *all* legal options (end turn; every playable card x choose-one
alternative x target; hero power x target; every attacker x target) and picks one
uniformly; the mulligan keeps a random subset; pending choices are answered at random.
fireplace2 has no legacy Basic ids, so the decks are Core-set cards: the Core reprints of
our default decks' cards, and a Core card of the same class, cost and role for the others.
fireplace2 draws from the module-level `random`, which is seeded once per run; even so,
and with PYTHONHASHSEED=0 (hearth_engine.py sets it), two processes with the same seed
can differ a little (seen: 138.5 vs 139.8 actions per game over 100 games).

With a third argument, a JSON list of deck pairs (``[[[hero, [30 ids]], [hero, [30
ids]]], ...]``), game i plays pair i modulo their number: how ``bench.hearth_engine --pool``
runs upstream fireplace (which has the 17.6 card ids) on the same random class decks as ours;
``fireplace_peer.py implemented IDS.json`` prints which of those ids fireplace implements.

Timing starts after the card database is loaded (6-7 s here, not part of games/s).
`deepcopy_ms` is `copy.deepcopy(game)` at the start of turn 10: the best of a few copies
per game, the median over a few separate games, measured outside the timed loop.
"""

from __future__ import annotations

import contextlib
import copy
import importlib
import json
import logging
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

# Our default decks (games/hearth DEFAULT_DECKS: reference §2.4 with our ids), card by card;
# where fireplace2 has no Core reprint, a Core card of the same class, cost and role.
MAGE_DECK = [
    "CORE_CS2_029",  # Fireball
    "CORE_CS2_023",  # Arcane Intellect
    "CORE_CS2_032",  # Flamestrike
    "CORE_CS2_120",  # River Crocolisk
    "CORE_CS2_122",  # Raid Leader
    "CORE_CS2_179",  # Sen'jin Shieldmasta
    "CORE_CS2_182",  # Chillwind Yeti
    "CORE_CS2_189",  # Elven Archer
    "CORE_CS2_142",  # Kobold Geomancer
    "CORE_BOT_453",  # Shooting Star, for Arcane Explosion (CS2_025)
    "CORE_KAR_009",  # Babbling Book, for Mirror Image (CS2_027)
    "CORE_CS2_033",  # Water Elemental, for Polymorph (CS2_022)
    "CORE_EX1_275",  # Cone of Cold, for Frostbolt (CS2_024)
    "CORE_GIL_801",  # Snap Freeze, for Frost Nova (CS2_026)
    "CORE_UNG_020",  # Arcanologist, for Arcane Missiles (EX1_277)
] * 2
WARRIOR_DECK = [
    "CORE_CS2_106",  # Fiery War Axe
    "CORE_CS2_108",  # Execute
    "CORE_EX1_400",  # Whirlwind
    "CORE_EX1_399",  # Gurubashi Berserker
    "CORE_CS2_188",  # Abusive Sergeant
    "CORE_EX1_391",  # Slam, for Heroic Strike (CS2_105)
    "CORE_GVG_053",  # Shieldmaiden (5 armor), for Shield Block (EX1_606)
    "CORE_EX1_010",  # Worgen Infiltrator, for Stonetusk Boar (CS2_171)
    "CORE_EX1_066",  # Acidic Swamp Ooze (3/2), for Bloodfen Raptor (CS2_172)
    "CORE_EX1_084",  # Warsong Commander, for Wolfrider (CS2_124)
    "CORE_CS2_181",  # Injured Blademaster, for Boulderfist Ogre (CS2_200)
    "CORE_EX1_603",  # Cruel Taskmaster, for Frostwolf Grunt (CS2_121)
    "CORE_EX1_402",  # Armorsmith, for Acolyte of Pain (EX1_007)
    "CORE_EX1_604",  # Frothing Berserker, for Amani Berserker (EX1_393)
    "CORE_CS2_117",  # Earthen Ring Farseer, for Razorfen Hunter (CS2_196)
] * 2
MAGE_HERO = "HERO_08"
WARRIOR_HERO = "HERO_01"

ACTION_CAP = 3000  # a game that reaches it is counted in "capped", never seen in practice
DEEPCOPY_TURN = 10
DEEPCOPY_GAMES = 5
DEEPCOPY_REPEATS = 3

Option = Callable[[], Any]


def legal_options(player: Any) -> list[Option]:
    """Every legal option of the current player, END_TURN first, as thunks."""
    game = player.game
    options: list[Option] = [game.end_turn]
    for card in list(player.hand):
        if not card.is_playable():
            continue
        variants = list(card.choose_cards) if card.must_choose_one else [None]
        for choose in variants:
            subject = choose if choose is not None else card
            if subject.requires_target():
                for target in subject.play_targets:
                    options.append(_bind(card.play, target=target, choose=choose))
            else:
                options.append(_bind(card.play, target=None, choose=choose))
    power = player.hero.power
    if power is not None and power.is_usable():
        if power.requires_target():
            options.extend(_bind(power.use, target=t) for t in power.play_targets)
        else:
            options.append(_bind(power.use))
    for character in list(player.characters):
        if character.can_attack():
            options.extend(_bind(character.attack, t) for t in character.attack_targets)
    return options


def _bind(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Option:
    return lambda: fn(*args, **kwargs)


def answer_choices(game: Any, rng: random.Random) -> int:
    """Answer pending (non-mulligan) choices at random; returns how many were answered."""
    answered = 0
    for player in game.players:
        while player.choice is not None and not game.ended and answered < 10:
            player.choice.choose(rng.choice(list(player.choice.cards)))
            answered += 1
    return answered


Decks = list[tuple[str, list[str]]]  # (hero, 30 card ids) for player 1, then player 2


def new_game(rng: random.Random, decks: Decks | None = None) -> Any:
    from fireplace.game import Game
    from fireplace.player import Player

    if decks is None:
        decks = [(MAGE_HERO, MAGE_DECK), (WARRIOR_HERO, WARRIOR_DECK)]
    players = [Player(f"P{n}", list(cards), hero) for n, (hero, cards) in enumerate(decks, 1)]
    game = Game(players=tuple(players))
    game.start()
    for player in game.players:
        offered = list(player.choice.cards)
        player.choice.choose(*rng.sample(offered, rng.randint(0, len(offered))))
    return game


class _NeverRaised(Exception):
    """fireplace2 has no GameOver: it sets `game.ended` instead."""


def play_out(game: Any, rng: random.Random, stop_at_turn: int | None = None) -> tuple[int, bool]:
    """Plays uniformly random options to the end; returns (actions, capped)."""
    # Upstream fireplace ends a game by raising GameOver out of the action that ended it.
    over: type[BaseException] = getattr(
        importlib.import_module("fireplace.exceptions"), "GameOver", _NeverRaised)
    actions = 0
    while not game.ended and actions < ACTION_CAP:
        if stop_at_turn is not None and game.turn >= stop_at_turn:
            break
        try:
            rng.choice(legal_options(game.current_player))()
            actions += 1
            actions += answer_choices(game, rng)
        except over:
            actions += 1
            break
    return actions, not game.ended and stop_at_turn is None


def peer_name() -> str:
    """The installed peer and its version: fireplace2 from PyPI, or upstream fireplace."""
    from importlib import metadata

    for dist in ("fireplace2", "fireplace"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            return f"{dist} {metadata.version(dist)}"
    return "fireplace"


def run(n_games: int, seed: int, pairs: list[Decks] | None = None) -> dict[str, Any]:
    """`pairs`: game i plays `pairs[i % len(pairs)]`; None: the two Core stand-in decks."""
    logging.basicConfig(level=logging.WARNING)
    from fireplace import cards
    from fireplace.logging import log

    log.setLevel(logging.WARNING)
    load_start = time.perf_counter()
    cards.db.initialize()
    load_seconds = time.perf_counter() - load_start

    # fireplace2 shuffles and rolls with the module-level generator; the agent has its own.
    random.seed(seed)
    rng = random.Random(seed)
    total_actions = 0
    capped = 0
    errors: list[str] = []
    start = time.perf_counter()
    cpu_start = time.process_time()
    for i in range(n_games):
        try:
            game = new_game(rng, pairs[i % len(pairs)] if pairs else None)
            actions, was_capped = play_out(game, rng)
        except Exception as exc:  # a peer bug must not sink the whole benchmark
            errors.append(f"{type(exc).__name__}: {exc}"[:200])
            continue
        total_actions += actions
        capped += was_capped
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    finished = n_games - len(errors)

    deepcopy_ms = measure_deepcopy(rng, pairs)
    return {
        "peer": peer_name(),
        "games": finished,
        "errors": len(errors),
        "first_errors": errors[:3],
        "capped": capped,
        "seconds": round(seconds, 3),
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_s": round(finished / seconds, 3) if seconds > 0 else None,
        "actions_per_game": round(total_actions / finished, 1) if finished else None,
        "deepcopy_ms": round(deepcopy_ms, 3) if deepcopy_ms is not None else None,
        "db_load_seconds": round(load_seconds, 2),
    }


def measure_deepcopy(rng: random.Random, pairs: list[Decks] | None = None) -> float | None:
    samples: list[float] = []
    for i in range(DEEPCOPY_GAMES):
        try:
            game = new_game(rng, pairs[i % len(pairs)] if pairs else None)
            play_out(game, rng, stop_at_turn=DEEPCOPY_TURN)
        except Exception:
            continue
        if game.ended:
            continue
        best = float("inf")
        for _ in range(DEEPCOPY_REPEATS):
            begin = time.perf_counter()
            copy.deepcopy(game)
            best = min(best, (time.perf_counter() - begin) * 1000)
        samples.append(best)
    return statistics.median(samples) if samples else None


KEYWORDS = re.compile(
    r"<[^>]*>|Taunt|Charge|Divine Shield|Windfury|Stealth|Poisonous|Lifesteal|Rush|"
    r"Spell Damage \+\d+|Overload: \(\d+\)|Can't attack\.|"
    r"Can't be targeted by spells or Hero Powers\.|[\W_]")


def implemented(ids: list[str]) -> list[str]:
    """Those of `ids` the installed fireplace plays: it has a script for the card, or the
    card's text is keywords only (fireplace's own helper/implemented.py rule, shortened)."""
    from fireplace import cards
    from fireplace.cards import get_script_definition

    cards.db.initialize()
    return [i for i in ids if i in cards.db and (
        get_script_definition(i) or not KEYWORDS.sub("", cards.db[i].description or ""))]


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        # `python -m bench` calls every module's main(); this one belongs to hearth_engine.
        print("fireplace_peer runs inside .venv-fireplace, started by bench.hearth_engine")
        return 0
    if len(argv) == 2 and argv[0] == "implemented":
        with open(argv[1], encoding="utf-8") as f:
            ids = json.load(f)
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            found = implemented(ids)
        print(json.dumps(found))
        return 0
    if len(argv) not in (2, 3) or not all(a.lstrip("-").isdigit() for a in argv[:2]) \
            or int(argv[0]) < 1:
        print("usage: fireplace_peer.py N_GAMES SEED [DECKS.json]", file=sys.stderr)
        return 2
    n_games, seed = int(argv[0]), int(argv[1])
    pairs = None
    if len(argv) == 3:
        with open(argv[2], encoding="utf-8") as f:
            pairs = [[(hero, list(cards)) for hero, cards in pair] for pair in json.load(f)]
    # fireplace prints debugging chatter on stdout; keep stdout for the JSON result.
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        result = run(n_games, seed, pairs)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
