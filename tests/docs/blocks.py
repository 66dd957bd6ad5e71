"""The fenced code blocks of README.md and docs/*.md, with their info strings and lines."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`\n]*)$")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    info: str  # the first word of the info string ("" when unmarked)
    text: str
    flags: frozenset[str] = frozenset()  # the info string's other words ("norun")

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(path: Path) -> list[Block]:
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent = len(opening["indent"])
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][indent:] if lines[j][:indent].isspace() else lines[j])
            j += 1
        words = opening["info"].split()
        found.append(Block(path, i + 1, words[0] if words else "", "\n".join(body) + "\n",
                           frozenset(words[1:])))
        i = j + 1
    return found


def all_blocks() -> list[Block]:
    return [block for path in documents() for block in blocks(path)]
