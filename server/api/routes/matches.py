"""Matches: create (launch bots or hand out reservations), list, read, control, events,
replay and the launched seats' output."""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import PlainTextResponse, Response

from server import positions
from server.api.deps import Admin, ContextDep, GameFilter, IsAdmin, ServiceDep, StoreDep
from server.api.schemas import (
    MATCH_ID,
    ActionOut,
    ErrorOut,
    FromIn,
    MatchCreate,
    MatchCreated,
    MatchOut,
    MatchPage,
    MatchSummary,
    ResultOut,
    SeatCreated,
    SeatMoveOut,
    SeatMovesOut,
    SeatOut,
)
from server.launcher.moves import lines_text
from server.matches import MatchError, SeatRequest, find_bot
from server.positions import Start
from server.rooms import Clocks
from server.spectate.frames import FULL_KEY
from server.store import Match, MatchStatus, Store
from server.store.secrecy import is_revealed, revealed, seeds_in_play

router = APIRouter(prefix="/matches", tags=["matches"])

MatchId = Annotated[str, Path(min_length=1, max_length=64, examples=[MATCH_ID])]
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorOut,
                                                     "description": "No such match"}}
MUTATING: dict[int | str, dict[str, Any]] = {401: {"model": ErrorOut,
                                                    "description": "Admin token missing"}}
EVENTS_EXAMPLE = ('{"seq": 0, "time": "2027-03-01T12:00:00Z", "kind": "welcome", '
                  '"payload": {"seat": 0}}\n')
REPLAY_EXAMPLE = '<protocol>\n<room roomId="...">...</room>\n</protocol>'


def _summary(match: Match, show_seed: bool) -> MatchSummary:
    """`show_seed`: the caller is the admin, or the match is `revealed` (a seed rebuilds a
    Hearth game's shuffles, server.store.secrecy)."""
    return MatchSummary(id=match.id, game=match.game, status=match.status,
                        seed=match.seed if show_seed else None, created=match.created,
                        started=match.started, finished=match.finished)


# Payload fields that may hold what only a seat or an admin may see: the seats' and the
# spectators' full histories, and the result's HSReplay document (every hand).
_HIDDEN_FIELDS = frozenset({"public", FULL_KEY, "hsreplay", "answer"})


def _neutral(payload: Any) -> Any:
    if not isinstance(payload, dict):
        return payload
    return {key: value for key, value in payload.items() if key not in _HIDDEN_FIELDS}


def _match(store: Store, match_id: str) -> Match:
    match = store.get_match(match_id)
    if match is None:
        raise MatchError(f"no match {match_id}", 404)
    return match


def _deck(deck: Any) -> Any:
    """The seat's deck as the game reads it: text, or {hero, cards}."""
    return deck.model_dump() if hasattr(deck, "model_dump") else deck


DISPATCH_WAIT = 10.0
"""Seconds POST /api/matches waits for room in a full worker queue before answering 503."""


@router.post("", status_code=201, summary="Start a match",
             responses={**MUTATING, 404: {"model": ErrorOut}, 422: {"model": ErrorOut},
                        503: {"model": ErrorOut, "description": "The store fails, or the "
                              "workers' queue is full"}},
             dependencies=[Admin])
async def create_match(body: MatchCreate, service: ServiceDep, context: ContextDep,
                       request: Request) -> MatchCreated:
    """Seats with `bot` are launched by the server at once; seats with `name` get a
    reservation code for `joinPrepared` (`--reservation`). The match starts when every
    seat has joined.

    With a broker (`GAUNTLET_BROKER_URL`, docs/scale.md) a match of registered bots only
    (not paused) is queued for the workers instead, as the ladder's matches are; a match
    with a reserved seat needs this node's TCP port and is played here."""
    clocks = None
    if body.clocks is not None:
        c = body.clocks
        clocks = Clocks(c.soft, max(c.hard, c.soft), c.decision, c.turn, c.enabled,
                        c.min_move_time)
    game = context.games.resolve(body.game)  # an alias names its game, as on the CLI
    requested = [SeatRequest(s.name, s.bot, _deck(s.deck)) for s in body.seats]
    start, seed = None, body.seed
    if body.from_ is not None:
        start = await _start(body.from_, game, body.seed, service, context)
        seed = start.seed
        if body.from_.swap:
            requested.reverse()  # seat i of the request plays the position's seat 1 - i
    match_id, seats = await service.start_match(
        game, requested, seed=seed, paused=body.paused, clocks=clocks,
        remote=context.dispatcher, remote_wait=DISPATCH_WAIT, start=start)
    return MatchCreated(id=match_id, game=game, status=MatchStatus.WAITING,
                        seats=[SeatCreated(**s) for s in seats])


async def _start(origin: FromIn, game: str, seed: int | None, service: Any,
                 context: Any) -> Start:
    """The position a new match starts from (`server.positions`); MatchError 422 naming
    the field."""
    if game not in context.games:
        raise MatchError(f"game: unknown game {game!r}; known: {context.games.listing()}", 404)
    plugin = context.games.get(game)
    if origin.match is not None:
        if seed is not None and origin.rng == "same":
            raise MatchError("seed: a match from a stored position keeps its seed (rng "
                             "\"same\"); give rng \"fresh\" to reseed it", 422)
        store = service.store
        if store is None:
            raise MatchError("from.match: this server has no store", 409)
        return await asyncio.to_thread(positions.from_match, store, plugin, origin.match,
                                       origin.turn, origin.rng, seed)
    if origin.replay_gzip is not None:
        try:
            data = base64.b64decode(origin.replay_gzip, validate=True)
        except binascii.Error as exc:
            raise MatchError(f"from.replay_gzip: not base64: {exc}", 422) from None
    else:
        data = (origin.replay or "").encode()
    # CPU work (an XML parse, the moves replayed) off the loop.
    return await asyncio.to_thread(positions.from_replay, plugin, data, origin.turn)


@router.get("", summary="List matches, newest first")
def list_matches(
    store: StoreDep,
    admin: IsAdmin,
    game: GameFilter,
    status: Annotated[MatchStatus | None, Query(examples=["finished"])] = None,
    bot: Annotated[str | None, Query(max_length=100, description="Bot name, or id when "
                                     "no bot has that name", examples=["greedy"])] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=2**31)] = 0,
) -> MatchPage:
    bot_id = None
    if bot is not None:
        found = find_bot(store, bot)  # a query is text: a name first, then an id
        if found is None and bot.isascii() and bot.isdigit() and len(bot) < 19:
            found = find_bot(store, int(bot))
        if found is None:  # a typo is an error, never a silently empty list
            known = ", ".join(sorted(b.name for b in store.list_bots())[:50])
            raise MatchError(f"bot: no registered bot {bot!r}; known: {known}", 422)
        bot_id = found.id
    page = store.list_matches(game=game, status=status, bot_id=bot_id, limit=limit,
                              offset=offset)
    in_play = set() if admin else seeds_in_play(
        store, [m.seed for m in page.items if m.seed is not None])
    return MatchPage(items=[_summary(m, admin or revealed(m, in_play)) for m in page.items],
                     total=page.total, limit=page.limit, offset=page.offset)


@router.get("/{match_id}", summary="One match: status, seats, result", responses=NOT_FOUND)
def get_match(match_id: MatchId, store: StoreDep, service: ServiceDep,
              admin: IsAdmin) -> MatchOut:
    """`seed` is shown to the admin, and to everyone once the match has ended and no match
    or ladder leg still to be played shares it (null otherwise)."""
    match = _match(store, match_id)
    seats = [SeatOut(index=s.index, name=s.display_name, bot_id=s.bot_id, outcome=s.outcome,
                     failure=s.failure, detail=s.detail, score_parts=s.score_parts)
             for s in store.seats(match_id)]
    result = store.get_result(match_id)
    room = service.live_room(match_id)
    return MatchOut(**_summary(match, admin or is_revealed(store, match)).model_dump(),
                    options=match.options,
                    live=room is not None, paused=None if room is None else room.paused,
                    seats=seats,
                    result=None if result is None else ResultOut(
                        winner=result.winner, reason=result.reason, scores=result.scores,
                        committed=result.committed))


@router.post("/{match_id}/{action}", summary="Pause, resume, step or cancel a live match",
             status_code=202, dependencies=[Admin],
             responses={**MUTATING, **NOT_FOUND,
                        409: {"model": ErrorOut, "description": "Not running here"}})
async def control(match_id: MatchId,
                  action: Literal["pause", "resume", "step", "cancel"],
                  service: ServiceDep) -> ActionOut:
    """Handled by the room between moves. `step` asks for one move of a paused match;
    `cancel` ends it with status `cancelled`."""
    if service.live_room(match_id) is None and service.store is not None \
            and await asyncio.to_thread(service.store.get_match, match_id) is None:
        raise MatchError(f"no match {match_id}", 404)
    service.control(match_id, action)
    return ActionOut(id=match_id, action=action, accepted=True)


@router.get("/{match_id}/events", summary="The match's event log as JSON lines",
            response_class=Response,
            responses={200: {"content": {"application/x-ndjson": {"example": EVENTS_EXAMPLE}},
                             "description": "One JSON object per line, by seq"}, **NOT_FOUND})
def events(match_id: MatchId, store: StoreDep, admin: IsAdmin, context: ContextDep,
           since: Annotated[int, Query(ge=0, le=2**31, description="First seq")] = 0,
           limit: Annotated[int, Query(ge=1, le=10_000)] = 1000) -> Response:
    """Hidden information (a Hearth match's full history, the spectators' full frames, the
    HSReplay document) is shown to the admin, and to everyone once the match has ended and
    no match or ladder leg still to be played shares its seed (the second leg of a ladder
    round replays the first one's deal); before that the events carry what a neutral
    spectator may see."""
    match = _match(store, match_id)
    hide = not admin and not is_revealed(store, match)
    found = store.events_since(match_id, since, limit=limit)
    plugin = context.games.get(match.game) if match.game in context.games else None
    if plugin is not None and plugin.read_events is not None:
        # As the game reads them back (Hearth: the result event with its HSReplay document).
        found = plugin.read_events(found, lambda: store.events_since(match_id))
    lines = [json.dumps({"seq": e.seq, "time": e.time.isoformat(), "kind": e.kind,
                         "payload": _neutral(e.payload) if hide else e.payload},
                        separators=(",", ":"))
             for e in found]
    body = "".join(line + "\n" for line in lines)
    return Response(body, media_type="application/x-ndjson")


@router.get("/{match_id}/replay",
            summary="The replay, in one of the game's formats (GET /api/games lists them)",
            response_class=Response,
            responses={200: {"content": {"application/xml": {"example": REPLAY_EXAMPLE}},
                             "description": "The replay document"},
                       **NOT_FOUND,
                       410: {"model": ErrorOut, "description": "Its events were dropped "
                             "by the retention (GAUNTLET_EVENT_RETENTION_DAYS)"},
                       403: {"model": ErrorOut, "description": "Its seed is still in "
                             "play (admin token needed)"},
                       400: {"model": ErrorOut, "description": "The game has no such "
                             "format"},
                       501: {"model": ErrorOut, "description": "No replay format for "
                             "this game"}})
def replay(match_id: MatchId, store: StoreDep, context: ContextDep, admin: IsAdmin,
           fmt: Annotated[str | None, Query(
               alias="format", max_length=32, pattern=r"^[a-z0-9-]+$", examples=["hsreplay"],
               description="One of the game's `replay_formats` (GET /api/games); "
                           "default: its first")] = None) -> Response:
    """Once the match has ended; a match whose seed a match or ladder leg still to be
    played shares (its deal) has its replay shown to the admin only until that one ends."""
    match = _match(store, match_id)
    if match.status in (MatchStatus.WAITING, MatchStatus.RUNNING, MatchStatus.PAUSED):
        raise MatchError(f"match {match_id} has not ended yet: its replay exists once it has "
                         "(follow it live at /ws/matches/{id} or with /events)", 404)
    dropped = store.events_dropped(match_id)
    if dropped is not None:
        raise MatchError(f"match {match_id}: its events were dropped by the retention on "
                         f"{dropped:%Y-%m-%d} (its result is kept)", 410)
    if not admin and not is_revealed(store, match):
        why = ("it shares its seed with a match still to be played: its replay is shown "
               "once that one has ended" if match.status == MatchStatus.FINISHED else
               "it did not finish, and the ladder plays an aborted match again with its "
               "seed: its replay is not shown")
        raise MatchError(f"match {match_id}: {why} (except with the admin token)", 403)
    plugin = context.games.get(match.game) if match.game in context.games else None
    if plugin is None or not plugin.replays:
        raise MatchError(f"no replay format for {match.game}", 501)
    chosen = plugin.replay_format(fmt)
    if chosen is None:
        known = ", ".join(f.name for f in plugin.replays)
        raise MatchError(f"{match.game} has no replay format {fmt!r}; it has: {known}", 400)
    document = chosen.export(match_id, store.events_since(match_id))
    if document is None:
        raise MatchError(f"match {match_id} has no {chosen.name} document (it has no result "
                         "yet, or it was played before that format was written)", 404)
    return Response(document, media_type=chosen.media_type, headers={
        "Content-Disposition": f'attachment; filename="{chosen.filename.format(id=match.id)}"'})


TURN = Query(ge=0, le=2**31, description="Only the move of the match's decision N, the `turn` "
             "of `ask` and `from` (every seat's decision events counted from 0); 422 when it "
             "is another seat's")


@router.get("/{match_id}/seats/{seat}/log", summary="A launched bot's stdout and stderr",
            response_class=PlainTextResponse,
            responses={200: {"content": {"text/plain": {"example": "== stdout ==\n..."}},
                             "description": "Its bounded output (head and tail)"},
                       **MUTATING, **NOT_FOUND},
            dependencies=[Admin])
def seat_log(match_id: MatchId, seat: Annotated[int, Path(ge=0, le=64)], store: StoreDep,
             service: ServiceDep, turn: Annotated[int | None, TURN] = None
             ) -> PlainTextResponse:
    """Admin token only: a bot's output is its author's (it may print its settings, its
    environment or what it was handed to join). Without `turn` the whole bounded output
    (stdout and stderr); with it the stderr lines of that decision, with a mark where
    some were dropped."""
    _match(store, match_id)
    if turn is not None:
        move = _move_of_turn(_seat_moves(service, match_id, seat),
                             _decision_seats(store, match_id), match_id, seat, turn)
        return PlainTextResponse(lines_text(move["lines"], move["dropped_lines"],
                                            move["dropped_bytes"]))
    text = service.seat_log(match_id, seat)
    if text is None:
        raise MatchError(f"match {match_id} seat {seat}: no bot was launched for it", 404)
    return PlainTextResponse(text)


@router.get("/{match_id}/seats/{seat}/moves",
            summary="A launched bot's stderr and usage per move, as JSON",
            responses={**MUTATING, **NOT_FOUND,
                       422: {"model": ErrorOut, "description": "A turn that is not the seat's"}},
            dependencies=[Admin])
def seat_moves(match_id: MatchId, seat: Annotated[int, Path(ge=0, le=64)], store: StoreDep,
               service: ServiceDep, turn: Annotated[int | None, TURN] = None) -> SeatMovesOut:
    """Admin token only, as the log. Per move: the seat's move number (0: what it printed
    before its first decision), the decision's match-wide number (`turn`) and seq in the
    event log, think time, the bot's CPU time and peak memory during it, its stderr
    lines."""
    _match(store, match_id)
    moves = _seat_moves(service, match_id, seat)
    seats = _decision_seats(store, match_id)
    numbers = {seq: n for n, (seq, _seat) in enumerate(seats)}
    if turn is not None:
        moves = [_move_of_turn(moves, seats, match_id, seat, turn)]
    return SeatMovesOut(match=match_id, seat=seat, moves=[
        SeatMoveOut(move=m["turn"], turn=numbers.get(m["seq"]),
                    **{k: v for k, v in m.items() if k != "turn"}) for m in moves])


def _decision_seats(store: Store, match_id: str) -> list[tuple[int, Any]]:
    """(seq, seat) of each decision event in seq order: decision N is item N."""
    return [(e.seq, e.payload.get("seat"))
            for e in store.events_since(match_id, kind="decision")
            if isinstance(e.payload, dict)]


def _move_of_turn(moves: list[dict[str, Any]], seats: list[tuple[int, Any]], match_id: str,
                  seat: int, turn: int) -> dict[str, Any]:
    """The seat's move of the match's decision `turn`; 422 naming the problem (past the end,
    another seat's decision, not stored) and the seat's decisions."""
    if turn >= len(seats):
        raise MatchError(f"turn {turn} is past the end: match {match_id} has decisions 0 to "
                         f"{len(seats) - 1}", 422)
    seq, decider = seats[turn]
    if decider != seat:
        mine = [n for n, (_seq, s) in enumerate(seats) if s == seat]
        near = [n for n in mine if n < turn][-2:] + [n for n in mine if n > turn][:3]
        raise MatchError(f"turn {turn} is seat {decider}'s decision, not seat {seat}'s (seat "
                         f"{seat} decides at {', '.join(map(str, near))}, ...)", 422)
    found = next((m for m in moves if m["seq"] == seq), None)
    if found is None:
        raise MatchError(f"turn {turn}: match {match_id} seat {seat} has no lines stored for "
                         "it (played before they were kept)", 422)
    return found


def _seat_moves(service: Any, match_id: str, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] | None = service.seat_moves(match_id, seat)
    if moves is None:
        raise MatchError(f"match {match_id} seat {seat}: no bot was launched for it", 404)
    return moves
