"""`gauntlet match ...`: create, list, show, control and fetch matches from the terminal.

A thin client of a running server's HTTP API (`docs/api.md`): `create` reserves seats for
bots you start yourself (it prints the reservation codes and the `gauntlet bot` lines to
use them) or seats registered bots the server launches; `pause`, `resume`, `step` and
`cancel` control a live match; `replay` fetches the official replay. Nobody writes admin
XML or curl by hand.

The admin token (create and control) is GAUNTLET_ADMIN_TOKEN, else the one the server
stored in `<data-dir>/admin-token`. Every failure is one `error:` line and exit code 1
(2 for bad arguments). `--json` prints the API's answer as JSON instead of tables.
"""

from __future__ import annotations

import base64
import functools
import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn
from urllib.parse import urlsplit

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from server.commands.common import command_settings, env_help
from server.commands.root import app
from server.games.registry import GameRegistry
from server.settings import DEFAULTS, Settings, env_name

match_app = typer.Typer(
    name="match", no_args_is_help=True, rich_markup_mode=None,
    help="Reserve seats and control matches through the HTTP API.\n\n"
    "create, list, show, pause, resume, step, cancel and replay talk to the HTTP API of a "
    "running `gauntlet serve` (--api).")
app.add_typer(match_app, name="match")

BOT_PREFIX = "bot:"
TOKEN_FILE = "admin-token"
TIMEOUT = 30.0
FULL_ID = 36  # a UUID's length; shorter ids are looked up as prefixes

ApiOption = Annotated[str | None, typer.Option(
    "--api", metavar="URL",
    help="The server's HTTP address (default: http://HOST:HTTP_PORT from GAUNTLET_HOST "
    "and GAUNTLET_HTTP_PORT, i.e. http://127.0.0.1:8000).")]
DataDirOption = Annotated[Path, typer.Option(
    help=env_help("data_dir", "The server's data folder (its admin-token)."))]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the API's JSON answer.")]
MatchIdArgument = Annotated[str, typer.Argument(
    metavar="MATCH_ID", help="The match id (a unique prefix will do).")]


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


class Api:
    """The HTTP API at `base`: JSON in and out, every failure a `fail()` line."""

    def __init__(self, base: str, settings: Settings) -> None:
        import httpx

        self.base = base.rstrip("/")
        self.settings = settings
        self.client = httpx.Client(base_url=self.base, timeout=TIMEOUT)

    def close(self) -> None:
        self.client.close()

    def token(self) -> str:
        if self.settings.admin_token is not None:
            return self.settings.admin_token.get_secret_value()
        path = self.settings.data_dir / TOKEN_FILE
        try:
            token = path.read_text(encoding="utf-8").strip()
        except OSError:
            token = ""
        if not token:
            fail(f"no admin token: set {env_name('admin_token')} or point --data-dir at "
                 f"the server's data folder (no {path})")
        return token

    def call(self, method: str, path: str, *, admin: bool = False, json_body: Any = None,
             params: dict[str, Any] | None = None) -> Any:
        """The response (parsed JSON unless it is a document) of a 2xx answer."""
        import httpx

        headers = {"Authorization": f"Bearer {self.token()}"} if admin else {}
        try:
            response = self.client.request(method, "/api" + path, headers=headers,
                                           json=json_body, params=params)
        except httpx.TimeoutException:
            fail(f"{self.base} did not answer within {TIMEOUT:g} s")
        except httpx.HTTPError as error:
            reason = str(error) or type(error).__name__
            fail(f"no Gauntlet API at {self.base} ({reason}); is `gauntlet serve` running "
                 f"there? (--api URL)")
        kind = response.headers.get("content-type", "")
        body: Any = None
        if kind.startswith("application/json"):
            try:
                body = response.json()
            except ValueError:
                body = None
        if response.is_success:
            if kind.startswith("application/json"):
                return body
            return response.content
        detail = body.get("detail") if isinstance(body, dict) else None
        if not isinstance(detail, str):
            fail(f"{self.base} does not look like a Gauntlet API: {method} /api{path} "
                 f"answered HTTP {response.status_code}")
        if response.status_code == 401:
            source = (env_name("admin_token") if self.settings.admin_token is not None
                      else str(self.settings.data_dir / TOKEN_FILE))
            fail(f"the server refused the admin token from {source}: {detail}")
        fail(f"{detail} (HTTP {response.status_code})")

    def match_id(self, given: str) -> str:
        """A full match id: `given`, or the one match whose id starts with it."""
        if len(given) >= FULL_ID:
            return given
        page = self.call("GET", "/matches", params={"limit": 500})
        found = [m["id"] for m in page.get("items", []) if m["id"].startswith(given)]
        if len(found) == 1:
            return str(found[0])
        if not found:
            fail(f"no match whose id starts with {given!r} among the latest 500")
        fail(f"{len(found)} matches start with {given!r}; give more of the id")


def _api(ctx: typer.Context, api: str | None) -> Api:
    return api_client(command_settings(ctx), api)


def api_client(settings: Settings, api: str | None) -> Api:
    """The server's API at `--api`, or where the settings say it listens."""
    if api is None:
        host = settings.host if settings.host not in ("0.0.0.0", "::") else "127.0.0.1"
        api = f"http://{host}:{settings.http_port}"
    parts = urlsplit(api)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        fail(f"--api {api}: expected an address like http://127.0.0.1:8000", 2)
    return Api(api, settings)


def _print_json(body: Any) -> None:
    typer.echo(json.dumps(body, indent=2, sort_keys=False))


def _seat_request(spec: str) -> dict[str, Any]:
    if spec.startswith(BOT_PREFIX):
        name = spec[len(BOT_PREFIX):]
        if not name:
            fail(f"seat {spec!r}: name the registered bot after 'bot:'", 2)
        return {"bot": name}
    return {"name": spec}


@functools.cache
def _games() -> GameRegistry:
    """The games installed here (the server's, when it runs from this installation): their
    short names, and the bundled bots `gauntlet bot` runs."""
    return GameRegistry.from_entry_points()


def _bot_line(game: str, host: str | None, port: object, match_id: str, code: str) -> str:
    """A `gauntlet bot` command line that takes this reserved seat: the game's strongest
    bundled bot, and the reservation as its kit wants it (Kettle: `GAME_ID:PASSWORD`)."""
    games = _games()
    plugin = games.get(game) if game in games else None
    kit = plugin.kit() if plugin is not None and plugin.kit is not None else None
    bots = plugin.bots if plugin is not None else ()
    reservation = f"{match_id}:{code}" if kit is not None and kit.protocol == "kettle" \
        else code
    return (f"gauntlet bot {bots[-1] if bots else '<your bot>'} -h {host} -p {port} "
            f"-r {reservation}")


@match_app.command()
def create(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(
        metavar="GAME", help="blokus (= swc_2027_blokus), hearth, or another game id.")],
    seats: Annotated[list[str], typer.Argument(
        metavar="SEAT", help="One per seat, in seat order: a NAME reserves the seat for a "
        "bot you start yourself (the answer carries its reservation code); bot:NAME seats "
        "a registered bot that the server launches.")],
    seed: Annotated[int | None, typer.Option(min=0, help="Seed of the game.")] = None,
    paused: Annotated[bool, typer.Option(
        "--paused", help="Start paused: `gauntlet match step` asks for one move, "
        "`resume` goes on.")] = False,
    soft: Annotated[float | None, typer.Option(
        "--soft-timeout", max=3600,
        help="This match's soft move clock in seconds.")] = None,
    hard: Annotated[float | None, typer.Option(
        "--hard-timeout", max=3600,
        help="This match's hard move clock in seconds.")] = None,
    no_timeout: Annotated[bool, typer.Option(
        "--no-timeout", help="No move clocks in this match.")] = False,
    from_match: Annotated[str | None, typer.Option(
        "--from", metavar="MATCH_ID",
        help="Start from this stored match's position before decision --turn.")] = None,
    from_replay: Annotated[Path | None, typer.Option(
        "--from-replay", metavar="FILE", dir_okay=False,
        help="Blokus: start from an official replay file (.xml or .xml.gz), at its first "
        "memento with turn >= --turn.")] = None,
    turn: Annotated[int, typer.Option(
        min=0, help="With --from: the decision (0 = the first); with --from-replay: the "
        "game's turn.")] = 0,
    swap: Annotated[bool, typer.Option(
        "--swap", help="With --from: the seats as given play the other sides.")] = False,
    rng: Annotated[str, typer.Option(
        metavar="same|fresh", help="With --from (Hearth): go on with the original random "
        "stream, or a fresh one (seeded with --seed, else at random).")] = "same",
    api: ApiOption = None,
    data_dir: DataDirOption = DEFAULTS.data_dir,
    as_json: JsonOption = False,
) -> None:
    """Create a match with reserved seats and/or registered bots.

    Example: `gauntlet match create blokus alice bob --paused` prints two reservation
    codes; `gauntlet bot blokus-greedy -r CODE` seats a bot with each. `--from MATCH_ID
    --turn N` starts it from a stored match's position (docs/server.md numbers the
    decisions), `--from-replay FILE --turn N` from an official Blokus replay.
    """
    origin = _origin(from_match, from_replay, turn, swap, rng)
    for option, value in (("--soft-timeout", soft), ("--hard-timeout", hard)):
        if value is not None and value <= 0:
            fail(f"{option} {value:g}: a clock needs more than 0 seconds", 2)
    if soft is not None and hard is not None and soft > hard:
        fail(f"the soft timeout ({soft:g} s) is above the hard timeout ({hard:g} s)", 2)
    client = _api(ctx, api)
    body: dict[str, Any] = {"game": _games().resolve(game),
                            "seats": [_seat_request(s) for s in seats], "paused": paused}
    if origin is not None:
        if "match" in origin:
            origin["match"] = client.match_id(origin["match"])
        body["from"] = origin
    if seed is not None:
        body["seed"] = seed
    if soft is not None or hard is not None or no_timeout:
        clocks: dict[str, Any] = {"enabled": not no_timeout}
        if soft is not None:
            clocks["soft"] = soft
        if hard is not None:
            clocks["hard"] = hard
        elif soft is not None:
            clocks["hard"] = max(soft, DEFAULTS.hard_timeout)
        body["clocks"] = clocks
    try:
        created = client.call("POST", "/matches", admin=True, json_body=body)
        if as_json:
            _print_json(created)
            return
        health = client.call("GET", "/health")
    finally:
        client.close()
    console = Console(soft_wrap=True)
    state = created["status"] + (", paused" if paused else "")
    console.print(f"Match {created['id']} ({created['game']}): {state}")
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for column in ("seat", "name", "bot", "reservation"):
        table.add_column(column, no_wrap=True, overflow="fold")
    for seat in created["seats"]:
        table.add_row(str(seat["index"]), seat["name"], seat["bot"] or "-",
                      seat["reservation"] or "-")
    console.print(table)
    reserved = [s for s in created["seats"] if s["reservation"]]
    if reserved:
        host = urlsplit(client.base).hostname
        port = health.get("tcp_port")
        console.print("Start a bot for each reserved seat, e.g.:")
        for seat in reserved:
            console.print("  " + _bot_line(created["game"], host, port, created["id"],
                                           seat["reservation"]), highlight=False)
    if paused:
        console.print(f"It starts paused once every seat has joined: "
                      f"`gauntlet match step {created['id']}` asks for one move.",
                      highlight=False)


def _origin(match: str | None, replay: Path | None, turn: int, swap: bool,
            rng: str) -> dict[str, Any] | None:
    """The request's "from" (None: a match from the start); bad flags exit with code 2."""
    if match is not None and replay is not None:
        fail("--from and --from-replay: give one of them", 2)
    if rng not in ("same", "fresh"):
        fail(f"--rng {rng}: same or fresh", 2)
    if match is None and replay is None:
        for flag, given in (("--turn", turn != 0), ("--swap", swap), ("--rng", rng != "same")):
            if given:
                fail(f"{flag} goes with --from or --from-replay", 2)
        return None
    origin: dict[str, Any] = {"turn": turn, "swap": swap}
    if match is not None:
        return {**origin, "match": match, "rng": rng}
    if rng != "same":
        fail("--rng goes with --from (a stored match)", 2)
    assert replay is not None
    try:
        data = replay.read_bytes()
    except OSError as error:
        fail(f"cannot read {replay}: {error.strerror or error}")
    if data[:2] == b"\x1f\x8b":  # gzip, as the contest system writes replays
        return {**origin, "replay_gzip": base64.b64encode(data).decode()}
    try:
        return {**origin, "replay": data.decode("utf-8")}
    except UnicodeDecodeError:
        fail(f"{replay} is neither XML text nor gzip: not a replay file")


@match_app.command(name="list")
def list_(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    status: Annotated[str | None, typer.Option(
        help="Only this status: waiting, running, paused, finished, cancelled, aborted.")]
    = None,
    bot: Annotated[str | None, typer.Option(help="Only matches of this bot.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=500, help="At most this many.")] = 20,
    offset: Annotated[int, typer.Option(min=0, help="Skip this many (newest first).")] = 0,
    api: ApiOption = None,
    data_dir: DataDirOption = DEFAULTS.data_dir,
    as_json: JsonOption = False,
) -> None:
    """List matches, newest first."""
    client = _api(ctx, api)
    params: dict[str, Any] = {"limit": limit, "offset": offset}
    for key, value in (("game", game), ("status", status), ("bot", bot)):
        if value is not None:
            params[key] = _games().resolve(value) if key == "game" else value
    try:
        page = client.call("GET", "/matches", params=params)
    finally:
        client.close()
    if as_json:
        _print_json(page)
        return
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  title=f"{len(page['items'])} of {page['total']} matches")
    # The id in full (it is what the other commands take); the rest may wrap.
    table.add_column("id", no_wrap=True, min_width=FULL_ID)
    for column in ("game", "status", "created"):
        table.add_column(column, overflow="fold")
    games = _games()
    for item in page["items"]:
        table.add_row(item["id"], games.short_name(item["game"]), item["status"],
                      _time(item["created"]))
    Console().print(table)


def _time(value: str | None) -> str:
    return "-" if value is None else value.replace("T", " ")[:19]


@match_app.command()
def show(
    ctx: typer.Context,
    match_id: MatchIdArgument,
    api: ApiOption = None,
    data_dir: DataDirOption = DEFAULTS.data_dir,
    as_json: JsonOption = False,
) -> None:
    """Status, seats (outcome, why a bot lost) and result of one match."""
    client = _api(ctx, api)
    try:
        match = client.call("GET", f"/matches/{client.match_id(match_id)}")
    finally:
        client.close()
    if as_json:
        _print_json(match)
        return
    console = Console(soft_wrap=True)
    flags = []
    if match.get("live"):
        flags.append("live, paused" if match.get("paused") else "live")
    extra = f" ({', '.join(flags)})" if flags else ""
    console.print(f"Match {match['id']} ({match['game']}): {match['status']}{extra}",
                  highlight=False)
    console.print(f"created {_time(match['created'])}, started {_time(match['started'])}, "
                  f"finished {_time(match['finished'])}", highlight=False)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False)
    for column in ("seat", "name", "outcome", "failure", "detail"):
        table.add_column(column, overflow="fold")
    for seat in match["seats"]:
        detail = (seat.get("detail") or "").strip().splitlines()
        table.add_row(str(seat["index"]), seat["name"], seat.get("outcome") or "-",
                      (seat.get("failure") or "-").replace("_", " "),
                      detail[-1] if detail else "")
    console.print(table)
    result = match.get("result")
    if result is not None:
        console.print(result_summary(match, result), highlight=False)


def result_summary(match: dict[str, Any], result: dict[str, Any]) -> str:
    """An English line for a stored result; an official (German) text follows in quotes.

    >>> result_summary({"seats": [{"index": 0, "name": "a"}, {"index": 1, "name": "b",
    ...     "failure": "timeout"}]}, {"winner": 0, "reason": "Zu spät.",
    ...     "scores": {"scores": [12, 0]}})
    'Result: seat 0 (a) won 12:0; seat 1 (b) lost by timeout; official text: "Zu spät."'
    >>> result_summary({"seats": [{"index": i, "name": n, "outcome": "loss"}
    ...     for i, n in enumerate("ab")]}, {"winner": None, "reason": "left"})
    'Result: every seat lost; left end'
    """
    winner = result.get("winner")
    names = {s["index"]: s["name"] for s in match.get("seats", [])}
    outcomes = {s.get("outcome") for s in match.get("seats", [])}
    head = ("Result: every seat lost" if winner is None and outcomes == {"loss"}
            else "Result: a draw" if winner is None
            else f"Result: seat {winner} ({names.get(winner, '?')}) won")
    scores = result.get("scores")
    if isinstance(scores, dict):
        scores = scores.get("scores")
    if isinstance(scores, list) and all(isinstance(x, int | float) for x in scores):
        head += " " + ":".join(f"{x:g}" for x in scores)
    failures = [f"seat {s['index']} ({s['name']}) lost by {s['failure'].replace('_', ' ')}"
                for s in match.get("seats", []) if s.get("failure")]
    parts = [head, *failures]
    reason = (result.get("reason") or "").strip()
    if " " in reason:  # an official text rather than a cause's code word
        parts.append(f'official text: "{reason}"')
    elif reason:
        parts.append(f"{reason.replace('_', ' ').lower()} end")
    return "; ".join(parts)


def _control(ctx: typer.Context, action: str, match_id: str, api: str | None,
             as_json: bool, done: str) -> None:
    client = _api(ctx, api)
    try:
        full = client.match_id(match_id)
        answer = client.call("POST", f"/matches/{full}/{action}", admin=True)
    finally:
        client.close()
    if as_json:
        _print_json(answer)
    else:
        typer.echo(f"{full}: {done}")


@match_app.command()
def pause(ctx: typer.Context, match_id: MatchIdArgument, api: ApiOption = None,
          data_dir: DataDirOption = DEFAULTS.data_dir, as_json: JsonOption = False) -> None:
    """Pause a live match (after the move being thought about, if any)."""
    _control(ctx, "pause", match_id, api, as_json, "pause requested")


@match_app.command()
def resume(ctx: typer.Context, match_id: MatchIdArgument, api: ApiOption = None,
           data_dir: DataDirOption = DEFAULTS.data_dir, as_json: JsonOption = False) -> None:
    """Resume a paused match."""
    _control(ctx, "resume", match_id, api, as_json, "resume requested")


@match_app.command()
def step(ctx: typer.Context, match_id: MatchIdArgument, api: ApiOption = None,
         data_dir: DataDirOption = DEFAULTS.data_dir, as_json: JsonOption = False) -> None:
    """Ask a paused match for one move.

    A paused match that has not started yet starts (both seats taken) or ends.
    """
    _control(ctx, "step", match_id, api, as_json, "one move requested")


@match_app.command()
def cancel(ctx: typer.Context, match_id: MatchIdArgument, api: ApiOption = None,
           data_dir: DataDirOption = DEFAULTS.data_dir, as_json: JsonOption = False) -> None:
    """End a live match now (status cancelled)."""
    _control(ctx, "cancel", match_id, api, as_json, "cancel requested")


@match_app.command()
def replay(
    ctx: typer.Context,
    match_id: MatchIdArgument,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write the replay to this file (default: standard output).")]
    = None,
    api: ApiOption = None,
    data_dir: DataDirOption = DEFAULTS.data_dir,
) -> None:
    """Fetch a finished match's replay.

    Blokus: the official Software-Challenge replay XML; Hearth: HSReplay XML.
    """
    client = _api(ctx, api)
    try:
        full = client.match_id(match_id)
        status = client.call("GET", f"/matches/{full}")["status"]
        if status in ("waiting", "running", "paused"):
            fail(f"match {full} is {status}: its replay exists once it has ended")
        document = client.call("GET", f"/matches/{full}/replay")
    finally:
        client.close()
    data = document if isinstance(document, bytes) else json.dumps(document).encode()
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        output.write_bytes(data)
    except OSError as error:
        fail(f"cannot write {output}: {error.strerror or error}")
    typer.echo(f"replay written to {output} ({len(data)} bytes)", err=True)
