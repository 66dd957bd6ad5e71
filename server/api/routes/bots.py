"""Registered bots: what the launcher runs for a seat (`{"bot": name}` in a new match)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response

from server.api.deps import Admin, ContextDep, GameFilter, IsAdmin, StoreDep, game_id
from server.api.registration import checked_command
from server.api.schemas import BotIn, BotOut, DeckIn, ErrorOut
from server.matches import MatchError, checked_deck
from server.store import Bot

router = APIRouter(prefix="/bots", tags=["bots"])

BotId = Annotated[int, Path(ge=1, le=2**62, examples=[1])]
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "No such bot"}}


def _out(bot: Bot, admin: bool) -> BotOut:
    """`admin`: with its command, workdir and environment values (secrets, often)."""
    assert bot.id is not None
    return BotOut(id=bot.id, name=bot.name, game=bot.game,
                  command=bot.command if admin else None,
                  workdir=bot.workdir if admin else None,
                  env=bot.env if admin else None, env_names=sorted(bot.env),
                  deck=bot.deck, created=bot.created)


@router.post("", status_code=201, summary="Register a bot", dependencies=[Admin],
             responses={401: {"model": ErrorOut}, 409: {"model": ErrorOut},
                        422: {"model": ErrorOut}})
def create_bot(body: BotIn, store: StoreDep, context: ContextDep) -> BotOut:
    """`command` is executed without a shell, with `--host H --port P` appended and the
    reservation in `GAUNTLET_RESERVATION`; `bot` instead names a bot of the game's Python
    kit (`my_bot.py:MyBot`, `package.module:Class`, a bundled name), run with the
    server's own Python. `workdir` is its working directory, `env` is added to a minimal
    environment; `deck` (Hearth) is the deck it plays when a seat names none. What could
    never start is refused now (422): a program that is not there, a missing workdir, a kit
    bot that does not load, a deck the game does not take."""
    game = game_id(context.games, body.game)
    if store.get_bot_by_name(body.name) is not None:
        raise MatchError(f"name: a bot named {body.name!r} is registered already", 409)
    plugin = context.games.get(game)
    command = checked_command(plugin, body.command, body.bot, body.workdir)
    deck = None if body.deck is None else (
        body.deck.model_dump() if isinstance(body.deck, DeckIn) else body.deck)
    if deck is not None:
        checked_deck(plugin, deck, "deck")
    return _out(store.create_bot(body.name, game, command, workdir=body.workdir,
                                 env=body.env, deck=deck), True)


@router.get("", summary="List bots")
def list_bots(store: StoreDep, admin: IsAdmin, game: GameFilter) -> list[BotOut]:
    """Command, workdir and environment values with the admin token only."""
    return [_out(b, admin) for b in store.list_bots(game=game)]


@router.get("/{bot_id}", summary="One bot", responses=NOT_FOUND)
def get_bot(bot_id: BotId, store: StoreDep, admin: IsAdmin) -> BotOut:
    """Command, workdir and environment values with the admin token only."""
    bot = store.get_bot(bot_id)
    if bot is None:
        raise MatchError(f"no bot {bot_id}", 404)
    return _out(bot, admin)


@router.delete("/{bot_id}", status_code=204, summary="Forget a bot", dependencies=[Admin],
               response_class=Response, responses={**NOT_FOUND, 401: {"model": ErrorOut}})
def delete_bot(bot_id: BotId, store: StoreDep) -> Response:
    """Its past matches stay, seated by name."""
    if not store.delete_bot(bot_id):
        raise MatchError(f"no bot {bot_id}", 404)
    return Response(status_code=204)
