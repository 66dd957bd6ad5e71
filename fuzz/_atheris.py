"""One atheris (libFuzzer) process for one target: ``python -m fuzz._atheris TARGET
[libFuzzer flags] [corpus dirs | crash files]``. Given a crash file, it replays it once.

The codecs and the games are imported under atheris' instrumentation, so the fuzzer is
guided by their branch coverage (lxml's C code is not instrumented).
"""

from __future__ import annotations

import importlib
import sys

import atheris


def main() -> None:
    target = sys.argv.pop(1)
    with atheris.instrument_imports(include=["protocols", "games", "fuzz"]):
        module = importlib.import_module(f"fuzz.{target}")
    atheris.Setup(sys.argv, module.one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
