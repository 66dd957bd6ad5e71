"""The grammar of a game's history, measured through hslog: real Power.log files and ours.

A real game (the Hearthstone client's Power.log, tests/hearth/data/power-logs/ or
``GAUNTLET_HS_LOGS``) and one of ours (its Kettle history written as Power.log text by
``hslog_bridge.to_power_log``) are both read with ``hslog.LogParser``, and
:func:`measure` walks the packet tree into a :class:`Grammar`:

* ``steps``: the game's STEP values in order, each with where it was written (top level
  or inside which block type); ``next_steps`` likewise for NEXT_STEP;
* ``playstates``: each player's PLAYSTATE values in order;
* ``blocks``: every block, with its type, the kind of entity that opens it (GAME, PLAYER
  or the card's CARDTYPE, as hslog's exported entity tree knows it; CARD when the card
  never became known), the parent block type, and which tags change directly inside it
  (tag name and the kind of entity that carries it).

``python tests/hearth/history_grammar.py`` prints the measurements of the real logs and
of a few seeded random games of ours side by side (``--ours-only``/``--real-only``).
"""

from __future__ import annotations

import gzip
import io
import logging
import os
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import hslog_bridge as bridge
from hearthstone.entities import Card, Game
from hearthstone.enums import BlockType, CardType, GameTag, PlayState, Step
from hslog import LogParser
from hslog import packets as P
from hslog.export import EntityTreeExporter

# The four CC0 logs ship with the tests, gzipped (data/power-logs/README.md says where from).
LOG_DIR = Path(os.environ.get("GAUNTLET_HS_LOGS",
                              Path(__file__).with_name("data") / "power-logs"))
TOP = "top"  # where: a change written outside every block


@dataclass(frozen=True, slots=True)
class Change:
    """One tag change of interest: the value and where it was written."""

    value: int
    where: str  # TOP, or the BlockType name of the innermost open block


@dataclass(frozen=True, slots=True)
class BlockInfo:
    type: str  # BlockType name
    opener: str  # GAME, PLAYER, a CardType name (HERO, MINION, ...) or CARD
    parent: str  # TOP or the parent block's type
    tags: frozenset[tuple[str, str]]  # (tag name, entity kind) changed directly inside


@dataclass
class Grammar:
    """What :func:`measure` found in one game's history."""

    name: str
    steps: list[Change] = field(default_factory=list)
    next_steps: list[Change] = field(default_factory=list)
    playstates: dict[int, list[Change]] = field(default_factory=dict)
    blocks: list[BlockInfo] = field(default_factory=list)

    def step_names(self) -> list[str]:
        return [name_of(Step, c.value) for c in self.steps]

    def transitions(self) -> set[tuple[str, str]]:
        """The set of STEP changes a -> b (the first STEP comes from INVALID)."""
        names = ["INVALID", *self.step_names()]
        return set(pairwise(names))

    def step_places(self) -> set[tuple[str, str]]:
        """(STEP value, where it was written)."""
        return {(name_of(Step, c.value), c.where) for c in self.steps}

    def playstate_names(self, player_entity: int) -> list[str]:
        return [name_of(PlayState, c.value) for c in self.playstates.get(player_entity, [])]

    def openers(self) -> set[tuple[str, str]]:
        """(block type, kind of entity opening it)."""
        return {(b.type, b.opener) for b in self.blocks}

    def nesting(self) -> set[tuple[str, str]]:
        """(block type, parent block type or TOP)."""
        return {(b.type, b.parent) for b in self.blocks}

    def tags_in(self, block_type: str) -> Counter[tuple[str, str]]:
        """How many blocks of this type change each (tag, entity kind) directly inside."""
        out: Counter[tuple[str, str]] = Counter()
        for b in self.blocks:
            if b.type == block_type:
                out.update(b.tags)
        return out

    def count(self, block_type: str) -> int:
        return sum(1 for b in self.blocks if b.type == block_type)


def name_of(enum: Any, value: int) -> str:
    """The enum member's name, or the number when the enum lacks it."""
    try:
        return str(enum(value).name)
    except ValueError:
        return str(value)


def parse_log(text: str) -> P.PacketTree:
    """The one game of a Power.log text, read with hslog (its format warnings muted)."""
    parser = LogParser()
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # old-format META_DATA lines make hslog warn per line
    try:
        parser.read(io.StringIO(text))
        parser.flush()
    finally:
        root.setLevel(level)
    if len(parser.games) != 1:
        raise ValueError(f"expected one game in the log, hslog found {len(parser.games)}")
    return parser.games[0]


def real_logs() -> list[Path]:
    return sorted([*LOG_DIR.glob("*.power.log"), *LOG_DIR.glob("*.power.log.gz")])


def measure_log_file(path: Path) -> Grammar:
    if path.suffix == ".gz":
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    else:
        text = path.read_text(encoding="utf-8")
    return measure(parse_log(text), path.name.removesuffix(".gz"))


def measure_history(history: Sequence[dict[str, Any]], name: str) -> Grammar:
    """Our Kettle history, through Power.log text and hslog, as a real log is read."""
    return measure(parse_log(bridge.to_power_log(history)), name)


def measure(tree: P.PacketTree, name: str) -> Grammar:
    kinds = _entity_kinds(tree)
    g = Grammar(name)
    _walk(tree.packets, [], g, kinds)
    return g


def _entity_kinds(tree: P.PacketTree) -> dict[int, str]:
    game: Game = EntityTreeExporter(tree).export().game
    kinds: dict[int, str] = {1: "GAME"}
    for entity in game.entities:
        if entity.id == 1:
            continue
        if not isinstance(entity, Card):
            kinds[entity.id] = "PLAYER"
            continue
        ctype = entity.tags.get(GameTag.CARDTYPE, 0)
        kinds[entity.id] = name_of(CardType, ctype) if ctype else "CARD"
    return kinds


def _id(entity: Any) -> int:
    """An entity id; hslog leaves a player named in the log as a ``PlayerReference``."""
    entity_id = getattr(entity, "entity_id", entity)
    return int(entity_id) if entity_id is not None else 0


def _walk(packets: Iterable[P.Packet], stack: list[str], g: Grammar, kinds: dict[int, str]) -> None:
    where = stack[-1] if stack else TOP
    for p in packets:
        if isinstance(p, P.TagChange):
            entity, tag, value = _id(p.entity), int(p.tag), int(p.value)
            if entity == 1 and tag == GameTag.STEP:
                g.steps.append(Change(value, where))
            elif entity == 1 and tag == GameTag.NEXT_STEP:
                g.next_steps.append(Change(value, where))
            elif tag == GameTag.PLAYSTATE:
                g.playstates.setdefault(entity, []).append(Change(value, where))
        elif isinstance(p, P.Block):
            btype = name_of(BlockType, int(p.type))
            inside = frozenset(
                (name_of(GameTag, int(c.tag)), kinds.get(_id(c.entity), "CARD"))
                for c in p.packets
                if isinstance(c, P.TagChange)
            )
            g.blocks.append(BlockInfo(btype, kinds.get(_id(p.entity), "CARD"), where, inside))
            stack.append(btype)
            _walk(p.packets, stack, g, kinds)
            stack.pop()


# --------------------------------------------------------------------------------------
# our games


def random_history(seed: int, concede_after: int | None = None) -> list[dict[str, Any]]:
    """The full Kettle history of a seeded uniformly random game of ours (history on);
    ``concede_after``: the current player concedes after that many actions."""
    from games import hearth

    state = hearth.new_game(seed=seed, history=True)
    rng = random.Random(seed)
    for done in range(5000):
        if state.is_over:
            break
        if concede_after is not None and done == concede_after:
            state.concede(state.pending()[0])
            break
        state.apply(rng.choice(state.legal_actions()))
    assert state.is_over, f"seed {seed}: the random game did not finish"
    return state.history()


def count_attacks(history: Sequence[dict[str, Any]]) -> int:
    """ATTACK blocks in a Kettle history (at any depth)."""
    return sum(1 for b in _kettle_blocks(history) if b["power_type"] == BlockType.ATTACK)


def _kettle_blocks(items: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for item in items:
        body = item.get("power_block")
        if body is not None:
            yield body
            yield from _kettle_blocks(body["history"])


# --------------------------------------------------------------------------------------
# printing


def describe(g: Grammar) -> str:
    lines = [f"== {g.name}"]
    steps = g.step_names()
    lines.append(f"STEP values ({len(steps)}): {Counter(steps).most_common()}")
    lines.append(f"first STEPs: {steps[:12]}")
    lines.append(f"last STEPs: {steps[-6:]}")
    lines.append(f"STEP transitions: {sorted(g.transitions())}")
    lines.append(f"STEP written at: {sorted(g.step_places())}")
    nxt = Counter((name_of(Step, c.value), c.where) for c in g.next_steps)
    lines.append(f"NEXT_STEP (value, where): {sorted(nxt.items())}")
    for pid in sorted(g.playstates):
        changes = [(name_of(PlayState, c.value), c.where) for c in g.playstates[pid]]
        lines.append(f"PLAYSTATE of entity {pid}: {changes}")
    lines.append(f"blocks: {Counter(b.type for b in g.blocks).most_common()}")
    for btype in sorted({b.type for b in g.blocks}):
        openers = Counter(b.opener for b in g.blocks if b.type == btype)
        parents = Counter(b.parent for b in g.blocks if b.type == btype)
        lines.append(f"  {btype}: opened by {dict(openers)}; inside {dict(parents)}")
        common = [f"{t}@{k}:{n}" for (t, k), n in g.tags_in(btype).most_common(14)]
        lines.append(f"    tags changed inside: {', '.join(common)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--ours-only", action="store_true")
    parser.add_argument("--real-only", action="store_true")
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    args = parser.parse_args(argv)
    if not args.ours_only:
        for path in real_logs():
            print(describe(measure_log_file(path)), end="\n\n")
    if not args.real_only:
        for seed in args.seeds:
            print(describe(measure_history(random_history(seed), f"ours, seed {seed}")), end="\n\n")
        grammar = measure_history(random_history(4, concede_after=30), "ours, seed 4, concede")
        print(describe(grammar))


if __name__ == "__main__":
    main()
