"""``python -m fuzz [--seconds N] [--hypothesis] [TARGET ...]`` (``make fuzz``).

Runs every target (or those named) for N seconds each: with atheris, one libFuzzer
process per target, its corpus in ``fuzz/.corpus/TARGET`` (started from the target's
``SEEDS``) and crash reproducers in ``fuzz/artifacts/``; without atheris (or with
``--hypothesis``), a hypothesis search over the same ``one_input``. Exits 1 when a target
crashed. Replay a reproducer: ``python -m fuzz._atheris TARGET fuzz/artifacts/FILE``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

from fuzz import TARGETS

HERE = Path(__file__).parent


def _seed_corpus(name: str, module: ModuleType) -> Path:
    corpus = HERE / ".corpus" / name
    corpus.mkdir(parents=True, exist_ok=True)
    for seed in module.SEEDS:
        (corpus / f"seed-{hashlib.sha1(seed).hexdigest()[:16]}").write_bytes(seed)
    return corpus


def run_atheris(name: str, module: ModuleType, seconds: int) -> bool:
    corpus = _seed_corpus(name, module)
    artifacts = HERE / "artifacts"
    artifacts.mkdir(exist_ok=True)
    command = [
        sys.executable, "-m", "fuzz._atheris", name, f"-max_total_time={seconds}",
        "-timeout=10", "-rss_limit_mb=2048", "-max_len=8192", "-print_final_stats=1",
        f"-artifact_prefix={artifacts}/{name}-", str(corpus),
    ]
    print(f"== {name}: atheris for {seconds} s", flush=True)
    return subprocess.run(command, cwd=HERE.parent, check=False).returncode == 0


def run_hypothesis(name: str, module: ModuleType, seconds: int) -> bool:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    print(f"== {name}: hypothesis for {seconds} s (no atheris)", flush=True)
    inputs = st.one_of(st.sampled_from(module.SEEDS), st.binary(max_size=4096),
                       st.builds(lambda s, i, b: s[:i] + b + s[i:],
                                 st.sampled_from(module.SEEDS), st.integers(0, 400),
                                 st.binary(max_size=64)))

    @settings(max_examples=2000, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(inputs)
    def search(data: bytes) -> None:
        module.one_input(data)

    end = time.monotonic() + seconds
    rounds = 0
    while time.monotonic() < end:
        try:
            search()
        except Exception as error:  # hypothesis already printed the shrunk input
            print(f"!! {name}: {type(error).__name__}: {error}", flush=True)
            return False
        rounds += 1
    print(f"   {name}: {rounds * 2000} inputs, no crash", flush=True)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    parser.add_argument("targets", nargs="*", choices=[[], *TARGETS], default=[])
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--hypothesis", action="store_true", help="do not use atheris")
    args = parser.parse_args()
    use_atheris = not args.hypothesis and importlib.util.find_spec("atheris") is not None
    failed = []
    for name in args.targets or TARGETS:
        module = importlib.import_module(f"fuzz.{name}")
        runner = run_atheris if use_atheris else run_hypothesis
        if not runner(name, module, args.seconds):
            failed.append(name)
    print(f"fuzz: {len(failed)} of {len(args.targets or TARGETS)} targets crashed"
          + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
