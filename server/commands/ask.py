"""`gauntlet ask MATCH --seat S --turn N --bot BOT`: ask a bot again what it would play at
one decision of a stored match, and `--bisect --bot A --bot B`: the first decision at
which two bots answer differently (issue #29).

The match (its seed, options and event log) is read from a running server's HTTP API with
the admin token, as `gauntlet match` does; the bot runs here, as a fresh child process of
this command, in a throwaway server of its own (`server.ask`): it is sent exactly what the
seat was sent up to decision N and its answer is printed beside the stored one. BOT is a
registered bot's name (its command, workdir and environment, from the API), or any bot
`gauntlet play` takes: a name or `file.py:Class` of the game's kit (run with `--seed
--bot-seed` when given), or a command line. Every failure is one `error:` line.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from server import positions
from server.ask import Asked, AskError, ask_stored, normalized
from server.commands.common import command_settings
from server.commands.match import (
    Api,
    ApiOption,
    DataDirOption,
    JsonOption,
    MatchIdArgument,
    api_client,
    fail,
)
from server.commands.root import app
from server.commands.seating import plugin_named, seat_of, usage_error
from server.launcher import BotSpec, WireProtocol
from server.rooms import Clocks
from server.series import SeatCommand
from server.settings import DEFAULTS

EVENTS_PAGE = 10_000


@app.command()
def ask(
    ctx: typer.Context,
    match_id: MatchIdArgument,
    seat: Annotated[int, typer.Option("--seat", min=0, max=64,
                                      help="The seat to ask (0 = the first).")],
    bot: Annotated[list[str], typer.Option(
        "--bot", help="The bot: a registered bot's name, a kit bot (greedy, file.py:Class) "
        "or a command line. Twice with --bisect.")],
    turn: Annotated[int | None, typer.Option(
        "--turn", min=0, help="The decision number (the match's decisions numbered from 0, "
        "docs/server.md); default: the seat's last.")] = None,
    bisect: Annotated[bool, typer.Option(
        "--bisect", help="Ask two bots (--bot A --bot B) at every decision of the seat: "
        "the first at which they answer differently.")] = False,
    bot_seed: Annotated[int | None, typer.Option(
        "--bot-seed", help="`--seed N` for a kit bot (use the original seat's seed to "
        "reproduce it).")] = None,
    api: ApiOption = None,
    data_dir: DataDirOption = DEFAULTS.data_dir,
    json_out: JsonOption = False,
) -> None:
    """Ask a bot again at a decision of a stored match: a fresh process, sent exactly what
    the seat was sent up to it; its answer and think time beside the stored answer."""
    if bisect and (len(bot) != 2 or turn is not None):
        usage_error("--bisect takes two bots (--bot A --bot B) and no --turn")
    if not bisect and len(bot) != 1:
        usage_error("give one --bot (two with --bisect)")
    settings = command_settings(ctx)
    client = api_client(settings, api)
    try:
        full_id = client.match_id(match_id)
        match = client.call("GET", f"/matches/{full_id}", admin=True)
        events = _events(client, full_id)
        plugin = plugin_named(str(match["game"]))
        registered = {b["name"]: b for b in client.call("GET", "/bots", admin=True)}
        chain = _chain(client, match)
    finally:
        client.close()
    origin = positions.origin_of(chain.get, plugin, match.get("options"))
    specs = [_spec(plugin, name, registered, bot_seed) for name in bot]
    names = [s.get("name") or "" for s in match.get("seats", [])]
    clocks = Clocks(settings.soft_timeout, settings.hard_timeout,
                    decision=settings.decision_timeout, turn=settings.turn_timeout,
                    enabled=not settings.no_timeout)

    async def one(spec: BotSpec, at: int | None) -> Asked:
        return await ask_stored(plugin, full_id, seed=match.get("seed"),
                                options=match.get("options"), events=events, seat=seat,
                                turn=at, spec=spec, clocks=clocks, names=names,
                                origin=origin)

    async def both() -> list[Asked]:
        return list(await asyncio.gather(*(one(spec, None) for spec in specs)))

    try:
        if bisect:
            _print_bisect(full_id, seat, bot, asyncio.run(both()), json_out)
        else:
            _print_one(full_id, seat, bot[0], asyncio.run(one(specs[0], turn)), json_out)
    except AskError as error:
        fail(str(error))



def _chain(client: Api, match: dict[str, Any]) -> dict[str, positions.Recorded]:
    """The matches a match from a position came from, up the chain (each read while the
    client is open; `server.positions.origin_of` rebuilds the position from them)."""
    found: dict[str, positions.Recorded] = {}
    origin = (match.get("options") or {}).get("from")
    while isinstance(origin, dict) and isinstance(origin.get("match"), str) \
            and origin["match"] not in found and len(found) < positions.MAX_CHAIN:
        match_id = origin["match"]
        body = client.call("GET", f"/matches/{match_id}", admin=True)
        events = [positions.Event(seq, kind, payload)
                  for seq, kind, payload in normalized(_events(client, match_id))]
        found[match_id] = positions.Recorded(match_id, str(body["game"]), body.get("seed"),
                                             body.get("options") or {}, events)
        origin = (body.get("options") or {}).get("from")
    return found


def _events(client: Api, match_id: str) -> list[dict[str, Any]]:
    """Every event of the match (admin: with its answers), page by page."""
    found: list[dict[str, Any]] = []
    since = 0
    while True:
        body = client.call("GET", f"/matches/{match_id}/events", admin=True,
                           params={"since": since, "limit": EVENTS_PAGE})
        text = body.decode() if isinstance(body, bytes) else str(body or "")
        page = [json.loads(line) for line in text.splitlines() if line.strip()]
        found.extend(page)
        if len(page) < EVENTS_PAGE:
            return found
        since = int(page[-1]["seq"]) + 1


def _spec(plugin: Any, name: str, registered: dict[str, Any], seed: int | None) -> BotSpec:
    """How `name` runs: a registered bot of the game as registered, else as `gauntlet
    play` runs it (`server.commands.seating.seat_of`)."""
    protocol: WireProtocol = "sc" if plugin.speaks("sc") else "kettle"
    found = registered.get(name)
    if found is not None and found.get("game") == plugin.game_id and found.get("command"):
        return BotSpec(name, plugin.game_id, list(found["command"]),
                       cwd=Path(found["workdir"]) if found.get("workdir") else None,
                       env=dict(found.get("env") or {}), protocol=protocol)
    seating = seat_of(plugin, name)
    if not isinstance(seating, SeatCommand):
        usage_error(f"bot {name!r} plays in this process; only a bot run as a program can be "
                    "asked again")
    return seating.spec(name, seed)


def _said_json(match_id: str, seat: int, bot: str, asked: Asked) -> dict[str, Any]:
    said = asked.last
    return {"match": match_id, "seat": seat, "turn": asked.decision, "bot": bot,
            "answer": None if said is None else said.answer, "stored": asked.stored,
            "same": said is not None and said.same,
            "think_ms": None if said is None else said.think_ms,
            "legal": None if said is None else said.legal, "failure": asked.failure}


def _move(move: Any) -> str:
    return "-" if move is None else json.dumps(move)


def _print_one(match_id: str, seat: int, bot: str, asked: Asked, json_out: bool) -> None:
    body = _said_json(match_id, seat, bot, asked)
    if json_out:
        typer.echo(json.dumps(body, indent=2))
        return
    typer.echo(f"match {match_id}, seat {seat}, decision {asked.decision}: {bot}")
    think = "" if body["think_ms"] is None else f"  ({body['think_ms']:.1f} ms)"
    legal = "" if body["legal"] in (None, True) else "  (illegal)"
    typer.echo(f"  asked:  {_move(body['answer'])}{think}{legal}")
    typer.echo(f"  stored: {_move(body['stored'])}")
    if asked.failure is not None:
        typer.echo(f"  no answer: {asked.failure}")
    typer.echo("  same" if body["same"] else "  different")


def _print_bisect(match_id: str, seat: int, bots: list[str], asked: list[Asked],
                  json_out: bool) -> None:
    a, b = asked
    answers_b = {s.decision: s for s in b.said}
    first = next((s for s in a.said if s.decision in answers_b
                  and s.answer != answers_b[s.decision].answer), None)
    compared = sum(1 for s in a.said if s.decision in answers_b)
    body = {"match": match_id, "seat": seat, "bots": bots, "compared": compared,
            "turn": None if first is None else first.decision,
            "answers": None if first is None else [first.answer,
                                                   answers_b[first.decision].answer],
            "stored": None if first is None else first.stored,
            "failures": [a.failure, b.failure]}
    if json_out:
        typer.echo(json.dumps(body, indent=2))
        return
    if first is None:
        typer.echo(f"match {match_id}, seat {seat}: {bots[0]} and {bots[1]} answer the same "
                   f"at all {compared} decisions compared")
    else:
        typer.echo(f"match {match_id}, seat {seat}: first different at decision "
                   f"{first.decision}")
        typer.echo(f"  {bots[0]}: {_move(first.answer)}")
        typer.echo(f"  {bots[1]}: {_move(answers_b[first.decision].answer)}")
        typer.echo(f"  stored: {_move(first.stored)}")
    for name, found in zip(bots, asked, strict=True):
        if found.failure is not None:
            typer.echo(f"  {name} gave no answer at decision {found.decision}: "
                       f"{found.failure}")
