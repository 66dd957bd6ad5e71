"""Sequential tests: start one, list them, read one's live figures and pairs, stop it."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from server.api.deps import Admin, ContextDep, GameFilter, IsAdmin
from server.api.schemas import ErrorOut
from server.api.sprt_schemas import PairOut, TestCreate, TestOut, TestPage
from server.matches import MatchError
from server.sprt import SprtRunner
from server.sprt.runner import TestRequest
from server.store.models import PairStatus, SprtStatus, SprtTest

router = APIRouter(prefix="/tests", tags=["tests"])

TestId = Annotated[int, Path(ge=1, le=2**62)]
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No such test"},
    503: {"model": ErrorOut, "description": "This server runs without a store"}}
MUTATING: dict[int | str, dict[str, Any]] = {401: {"model": ErrorOut,
                                                    "description": "Admin token missing"}}


def _runner(context: Any) -> SprtRunner:
    runner: SprtRunner | None = context.sprt
    if runner is None:
        raise MatchError("this server runs without a store: no tests", 503)
    return runner


def _out(runner: SprtRunner, row: SprtTest, admin: bool, *, history: bool) -> TestOut:
    """Blocking: the test with its figures as of now."""
    assert row.id is not None
    tally = runner.tally(row.id, row)
    counts = runner.tests.status_counts(row.id)
    return TestOut(
        id=row.id, game=row.game, a=row.name_a, b=row.name_b, elo0=row.elo0, elo1=row.elo1,
        alpha=row.alpha, beta=row.beta, model=row.model, max_games=row.max_games,
        concurrency=row.concurrency, seed=row.seed if admin else None,
        openings=list(row.openings or []),
        status=SprtStatus(row.status), reason=row.reason,
        created=row.created, finished=row.finished, **tally.figures(),
        playing=counts.get(PairStatus.PLAYING.value, 0),
        incomplete=counts.get(PairStatus.INCOMPLETE.value, 0),
        cancelled=counts.get(PairStatus.CANCELLED.value, 0),
        history=tally.chart() if history else None)


@router.post("", status_code=201, summary="Start a sequential test", dependencies=[Admin],
             responses={**MUTATING, 404: {"model": ErrorOut}, 422: {"model": ErrorOut},
                        503: {"model": ErrorOut}})
async def create_test(body: TestCreate, context: ContextDep) -> TestOut:
    """Plays `a` against `b` in pairs (the same seed twice, seats swapped) until the
    pentanomial SPRT accepts H1 or H0, or `max_games` games are played. The test is
    stored: a restarted server resumes it."""
    runner = _runner(context)
    fields = body.model_dump()
    fields["openings"] = tuple(fields["openings"])
    row = await runner.create(TestRequest(**fields))
    return await asyncio.to_thread(_out, runner, row, True, history=True)


@router.get("", summary="List tests, newest first", responses=NOT_FOUND)
def list_tests(
    context: ContextDep,
    admin: IsAdmin,
    game: GameFilter,
    status: Annotated[SprtStatus | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
) -> TestPage:
    runner = _runner(context)
    rows, total = runner.tests.list_tests(game=game, status=status.value if status else None,
                                          limit=limit, offset=offset)
    return TestPage(items=[_out(runner, row, admin, history=False) for row in rows],
                    total=total, limit=limit, offset=offset)


@router.get("/{test_id}", summary="A test's live figures and LLR curve", responses=NOT_FOUND)
def read_test(test_id: TestId, context: ContextDep, admin: IsAdmin) -> TestOut:
    runner = _runner(context)
    return _out(runner, runner.tests.get_test(test_id), admin, history=True)


@router.get("/{test_id}/pairs", summary="A test's pairs and their games' match ids",
            responses=NOT_FOUND)
def read_pairs(test_id: TestId, context: ContextDep, admin: IsAdmin) -> list[PairOut]:
    runner = _runner(context)
    runner.tests.get_test(test_id)  # NotFound first
    return [PairOut(pair=p.pair, status=PairStatus(p.status), matches=[p.match_0, p.match_1],
                    results=[p.result_0, p.result_1], attempts=p.attempts,
                    position=p.position, seed=p.seed if admin else None, finished=p.finished)
            for p in runner.tests.pairs(test_id)]


@router.post("/{test_id}/stop", summary="Stop a running test", dependencies=[Admin],
             responses={**NOT_FOUND, **MUTATING})
async def stop_test(test_id: TestId, context: ContextDep) -> TestOut:
    """Its pairs being played are cancelled and left out; its figures stay. A test that
    ended already is answered as it is."""
    runner = _runner(context)
    row = await runner.stop(test_id)
    return await asyncio.to_thread(_out, runner, row, True, history=True)
