"""Asking a bot again (issue #29): `POST /api/matches/{id}/seats/{n}/ask`.

A registered bot is started as a fresh process and fed exactly what seat n of the stored
match was sent up to decision `turn` (`server.ask`); its answer comes back beside the
stored one, both as the event log writes moves. Nothing is stored.
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from server import positions
from server.api.deps import Admin, ContextDep, ServiceDep, StoreDep
from server.api.schemas import ErrorOut
from server.ask import AskError, ask_stored
from server.launcher import BotSpec, WireProtocol
from server.matches import MatchError, find_bot

router = APIRouter(prefix="/matches", tags=["matches"])


class AskIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"turn": 12, "bot": "greedy"}]})
    turn: int | None = Field(None, ge=0, le=2**31, description="The decision number (the "
                             "match's decision events numbered from 0, docs/server.md); "
                             "none: the seat's last decision.")
    bot: StrictStr | Annotated[StrictInt, Field(ge=0, le=2**63 - 1)] = Field(
        description="A registered bot of the match's game: its name, or its id.")


class AskOut(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{
        "match": "3f0c2b1e-8a41-4c6e-9a57-0d6f1b2c3d4e", "seat": 0, "turn": 12,
        "bot": "greedy", "answer": ["BLUE", "PENTO_L", "NONE", False, 3, 0],
        "stored": ["BLUE", "PENTO_L", "NONE", False, 3, 0], "same": True,
        "think_ms": 41.5, "legal": True, "failure": None}]})
    match: str
    seat: int
    turn: int
    bot: str
    answer: Any = Field(description="The bot's answer as the event log writes moves "
                        "(null: it gave none, see `failure`).")
    stored: Any = Field(description="The answer stored in the match (null: none).")
    same: bool
    think_ms: float | None = Field(description="The bot's think time, as the room measures "
                                   "it: the request written to the answer read.")
    legal: bool | None = Field(description="Whether the game took the answer.")
    failure: str | None = Field(description="Why the bot gave no answer.")


@router.post("/{match_id}/seats/{seat}/ask", summary="Ask a bot again at a decision",
             dependencies=[Admin],
             responses={401: {"model": ErrorOut}, 404: {"model": ErrorOut},
                        422: {"model": ErrorOut}})
async def ask_again(match_id: Annotated[str, Path(min_length=1, max_length=64)],
                    seat: Annotated[int, Path(ge=0, le=64)], body: AskIn, store: StoreDep,
                    service: ServiceDep, context: ContextDep) -> AskOut:
    """Starts `bot` and feeds it exactly the messages seat `seat` received up to decision
    `turn` (same bytes, same order, same protocol; at its earlier decisions the stored
    answers are played, whatever it says), then stops it. Refused (422, naming the field,
    nothing started): a turn past the end, a turn that is not this seat's, an unknown
    bot, a bot of another game, a match that does not rebuild."""
    match = await asyncio.to_thread(store.get_match, match_id)
    if match is None:
        raise MatchError(f"no match {match_id}", 404)
    if match.game not in context.games:
        raise MatchError(f"match: its game {match.game!r} is not installed here", 422)
    plugin = context.games.get(match.game)
    bot = await asyncio.to_thread(find_bot, store, body.bot)
    if bot is None:
        raise MatchError(f"bot: no registered bot {body.bot!r}", 422)
    if bot.game != match.game:
        raise MatchError(f"bot: bot {bot.name!r} plays {bot.game}, not {match.game}", 422)
    if not bot.command:
        raise MatchError(f"bot: bot {bot.name!r} plays in the server's process; only a "
                         "launched bot can be asked again", 422)
    protocol: WireProtocol = "sc" if plugin.speaks("sc") else "kettle"
    spec = BotSpec(bot.name, match.game, list(bot.command),
                   cwd=FilePath(bot.workdir) if bot.workdir else None, env=dict(bot.env),
                   protocol=protocol)
    events = await asyncio.to_thread(store.events_since, match_id)
    seats = await asyncio.to_thread(store.seats, match_id)
    try:
        asked = await ask_stored(plugin, match_id, seed=match.seed, options=match.options,
                                 events=events, seat=seat, turn=body.turn, spec=spec,
                                 clocks=service.lobby.clocks,
                                 names=[s.display_name for s in seats],
                                 # Read once: the ask rebuilds the position twice.
                                 origin=positions.origin_of(
                                     functools.cache(positions.store_reader(store)), plugin,
                                     match.options))
    except AskError as error:
        raise MatchError(str(error), error.status) from None
    said = asked.last
    return AskOut(match=match_id, seat=seat, turn=asked.decision, bot=bot.name,
                  answer=None if said is None else said.answer, stored=asked.stored,
                  same=said is not None and said.same,
                  think_ms=None if said is None else said.think_ms,
                  legal=None if said is None else said.legal, failure=asked.failure)
