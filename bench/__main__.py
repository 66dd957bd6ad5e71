"""Run every benchmark module in `bench/` (each has a `main()`), or the ones named.

    python -m bench                 # all
    python -m bench blokus_engine   # one
    python -m bench store           # the store's cost: CPU per move on/off, loop lag
    python -m bench hostile         # worst loop lag per hostile Kettle frame
    python -m bench instructions    # a move's instructions, counted by valgrind (not in "all")
    python -m bench against         # CPU per move against an older commit (not in "all")
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import bench


def benchmarks() -> list[str]:
    """The modules `python -m bench` runs when none is named."""
    return sorted(
        m.name
        for m in pkgutil.iter_modules(bench.__path__)
        # *_peer modules run inside a peer's own environment, started by a benchmark module;
        # *_adapter modules are helpers the benchmarks (and tests) import, not benchmarks.
        # soak is the load test of `make soak`, minutes long: not a figure of `make bench`;
        # free_bots is the bots' process that sc_server and store start; instructions needs
        # valgrind and minutes, against the repository's history: run by name to compare
        # commits.
        if not m.name.startswith("_") and not m.name.endswith(("_peer", "_adapter"))
        and m.name not in ("soak", "free_bots", "instructions", "against")
    )


def main(argv: list[str]) -> None:
    names = argv or benchmarks()
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"\n## bench.{name}\n", flush=True)
        module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
