"""The fuzz targets on their seeds (so `make test` keeps the harnesses working), and every
input the fuzzers found, as a regression test.

Replay a reproducer the fuzzer wrote: ``python -m fuzz._atheris TARGET fuzz/artifacts/FILE``.
"""

from __future__ import annotations

import importlib

import pytest

from fuzz import TARGETS
from protocols.kettle.connection import Refused, ServerConnection


@pytest.mark.parametrize("name", TARGETS)
def test_targets_accept_their_seeds(name: str) -> None:
    module = importlib.import_module(f"fuzz.{name}")
    assert module.SEEDS
    for seed in module.SEEDS:
        module.one_input(seed)


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


@pytest.mark.parametrize("body", [
    b'{"type": "\\ud800"}',
    b'{"type": "kettle:types/\\udfff"}',
    b'[{"type": "kettle:types/concede"}, {"type": "x\\ud800"}]',
])
def test_unknown_type_with_a_lone_surrogate_gets_a_sendable_nack(body: bytes) -> None:
    import fuzz.kettle_server as target

    target.one_input(b"\x00\x00" + _frame(body))  # the harness' own check, for the record
    connection = ServerConnection()
    connection.receive_data(_frame(body))
    refusals = [e for e in connection.events() if isinstance(e, Refused)]
    assert refusals and refusals[-1].reason == "unknown_type"
    assert connection.send(refusals[-1].nack)
