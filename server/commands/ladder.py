"""`gauntlet ladder start|stop|status|openings`: a thin HTTP client of a running server's
ladder API.

The server is found like every client finds it: `--url` (default from GAUNTLET_HOST and
GAUNTLET_HTTP_PORT), the admin token from GAUNTLET_ADMIN_TOKEN or `<data dir>/admin-token`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from server.commands.root import app
from server.settings import Settings, SettingsError, load_settings

ladder_app = typer.Typer(help="The training ladder of a running server (start, stop, status, "
                         "openings).", no_args_is_help=True)
app.add_typer(ladder_app, name="ladder")



def _fail(message: str, code: int = 1) -> NoReturn:
    """One `error:` line on stderr and a non-zero exit."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _settings() -> Settings:
    try:
        return load_settings()
    except SettingsError as error:
        _fail(f"invalid settings: {error}", 2)


def _default_url() -> str:
    settings = _settings()
    host = settings.host if settings.host not in ("", "0.0.0.0", "::") else "127.0.0.1"
    return f"http://{host}:{settings.http_port}"


def _token(data_dir: Path | None) -> tuple[str, str]:
    """The admin token and where it came from; none found is an error."""
    settings = _settings()
    if settings.admin_token is not None:
        return settings.admin_token.get_secret_value(), "GAUNTLET_ADMIN_TOKEN"
    path = (data_dir or settings.data_dir) / "admin-token"
    try:
        token = path.read_text(encoding="utf-8").strip()
    except OSError:
        token = ""
    if not token:
        _fail(f"no admin token: set GAUNTLET_ADMIN_TOKEN or give --data-dir (no token in "
              f"{path})")
    return token, str(path)


Url = Annotated[str | None, typer.Option(
    "--url", help="The server's HTTP address. Default: GAUNTLET_HOST and GAUNTLET_HTTP_PORT.")]
DataDir = Annotated[Path | None, typer.Option(
    help="Where the admin token is (<data dir>/admin-token). Env: GAUNTLET_DATA_DIR.")]
Games = Annotated[list[str] | None, typer.Argument(
    help="Games (default: every ladder game of the server).", show_default=False)]


def _request(method: str, url: str, path: str, token: tuple[str, str] | None = None,
             body: Any = None) -> Any:
    import httpx

    headers = {"Authorization": f"Bearer {token[0]}"} if token else {}
    try:
        answer = httpx.request(method, f"{url.rstrip('/')}/api{path}", headers=headers,
                               json=body, timeout=30)
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        _fail(f"no answer from {url}: {' '.join(str(exc).split()) or type(exc).__name__}")
    try:
        body = answer.json()
    except ValueError:
        body = None
    if answer.status_code >= 400:
        detail = body.get("detail") if isinstance(body, dict) else None
        detail = " ".join(str(detail or answer.reason_phrase).split())
        if answer.status_code == 401 and token:
            detail = f"the admin token from {token[1]} was refused ({detail})"
        _fail(f"{method} {path}: {answer.status_code} {detail}")
    if body is None:
        _fail(f"{url} is not a Gauntlet server: {method} {path} did not answer JSON")
    return body


def _games(url: str, games: list[str] | None) -> list[str]:
    if games:
        return games
    return [g["game"] for g in _request("GET", url, "/ladder")]


def _switch(action: str, games: list[str] | None, url: str | None,
            data_dir: Path | None) -> None:
    url = url or _default_url()
    token = _token(data_dir)
    for game in _games(url, games):
        state = _request("POST", url, f"/ladder/{game}/{action}", token)
        typer.echo(f"{game}: {'running' if state['running'] else 'stopped'}")


@ladder_app.command()
def start(games: Games = None, url: Url = None, data_dir: DataDir = None) -> None:
    """Start the ladder of these games (stored: it keeps running across restarts)."""
    _switch("start", games, url, data_dir)


@ladder_app.command()
def stop(games: Games = None, url: Url = None, data_dir: DataDir = None) -> None:
    """Stop it: matches being played finish and are rated, no new ones start."""
    _switch("stop", games, url, data_dir)


def opening_of(text: str) -> dict[str, Any]:
    """`MATCH_ID:TURN` as the API's opening.

    >>> opening_of("3f0c2b1e:12")
    {'match': '3f0c2b1e', 'turn': 12}
    """
    match, _, turn = text.rpartition(":")
    if not match or not turn.isdigit():
        _fail(f"opening {text!r}: give MATCH_ID:TURN (the position before decision TURN)", 2)
    return {"match": match, "turn": int(turn)}


@ladder_app.command()
def openings(game: Annotated[str, typer.Argument(help="The ladder's game.")],
             positions: Annotated[list[str] | None, typer.Argument(
                 help="MATCH_ID:TURN, each the position before the match's decision TURN "
                      "(the turn of `gauntlet ask` and `--from`).", show_default=False)]
             = None,
             clear: Annotated[bool, typer.Option(
                 "--clear", help="New rounds from the game's start again.")] = False,
             url: Url = None, data_dir: DataDir = None) -> None:
    """Show or set the positions the game's ladder rounds start from: round k from
    opening k mod n, both legs (the seats swapped) alike, every leg rated."""
    url = url or _default_url()
    if positions and clear:
        _fail("give positions or --clear, not both", 2)
    if positions or clear:
        body = {"openings": [opening_of(p) for p in positions or ()]}
        state = _request("PUT", url, f"/ladder/{game}/openings", _token(data_dir), body)
    else:
        state = _request("GET", url, f"/ladder/{game}")
    found = state["openings"]
    if not found:
        typer.echo(f"{state['game']}: every round from the game's start")
    for number, opening in enumerate(found):
        typer.echo(f"{state['game']}: opening {number}: match {opening['match']} "
                   f"before decision {opening['turn']}")


def standings_table(state: dict[str, Any]) -> Table:
    """The standings in 80 columns: a light box, names folded whole rather than cut, and
    each bot's failures under the table (a column of them did not fit)."""
    running = "running" if state["running"] else "stopped"
    failed = [(s["bot"], ", ".join(f"{k} {v}" for k, v in sorted(s["failures"].items())))
              for s in state["standings"] if s["failures"]]
    table = Table(title=f"{state['game']}: {running}, {state['rated']} games rated, "
                        f"{state['games_per_minute']:.1f} games/min, {state['live']} live, "
                        f"{state['queued']} queued",
                  box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True,
                  caption="\n".join(f"failures of {bot}: {text}" for bot, text in failed)
                  or None, caption_justify="left")
    longest = max((len(s["bot"]) for s in state["standings"]), default=3)
    for name in ("#", "bot", "rating", "mu", "sigma", "Elo (95 %)", "games", "W", "D", "L"):
        if name == "bot":
            table.add_column(name, overflow="fold", min_width=min(longest, 18))
        else:
            table.add_column(name, justify="right", no_wrap=True)
    for s in state["standings"]:
        table.add_row(str(s["rank"]), s["bot"], f"{s['rating']:.2f}", f"{s['mu']:.2f}",
                      f"{s['sigma']:.2f}", batch_elo(s), str(s["games"]), str(s["wins"]),
                      str(s["draws"]), str(s["losses"]))
    return table


def batch_elo(standing: dict[str, Any]) -> str:
    """The batch Elo and the half width of its 95 % interval; "-" for a bot without games.

    >>> batch_elo({"elo": 212.4, "elo_low": 121.9, "elo_high": 302.9})
    '+212 ± 90'
    >>> batch_elo({"elo": None}), batch_elo({})
    ('-', '-')
    """
    elo, low, high = (standing.get(k) for k in ("elo", "elo_low", "elo_high"))
    if elo is None or low is None or high is None:
        return "-"
    return f"{elo:+.0f} ± {(high - low) / 2:.0f}"


@ladder_app.command()
def status(games: Games = None, url: Url = None) -> None:
    """Standings of each game: rating (mu - 3 sigma), batch Elo with its 95 % interval,
    record, failures; games per minute."""
    url = url or _default_url()
    console = Console()
    for game in _games(url, games):
        console.print(standings_table(_request("GET", url, f"/ladder/{game}")))
