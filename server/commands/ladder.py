"""`gauntlet ladder start|stop|status`: a thin HTTP client of a running server's ladder API.

The server is found like every client finds it: `--url` (default from GAUNTLET_HOST and
GAUNTLET_HTTP_PORT), the admin token from GAUNTLET_ADMIN_TOKEN or `<data dir>/admin-token`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from server.cli import app
from server.settings import load_settings

ladder_app = typer.Typer(help="The training ladder of a running server (start, stop, status).",
                         no_args_is_help=True)
app.add_typer(ladder_app, name="ladder")

GAMES = ("swc_2027_blokus", "hearth")


def _default_url() -> str:
    settings = load_settings()
    host = settings.host if settings.host not in ("", "0.0.0.0", "::") else "127.0.0.1"
    return f"http://{host}:{settings.http_port}"


def _token(data_dir: Path | None) -> str | None:
    settings = load_settings()
    if settings.admin_token is not None:
        return settings.admin_token.get_secret_value()
    path = (data_dir or settings.data_dir) / "admin-token"
    try:
        return path.read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


Url = Annotated[str | None, typer.Option(
    "--url", help="The server's HTTP address. Default: GAUNTLET_HOST and GAUNTLET_HTTP_PORT.")]
DataDir = Annotated[Path | None, typer.Option(
    help="Where the admin token is (<data dir>/admin-token). Env: GAUNTLET_DATA_DIR.")]
Games = Annotated[list[str] | None, typer.Argument(
    help="Games (default: every ladder game of the server).", show_default=False)]


def _request(method: str, url: str, path: str, token: str | None = None) -> Any:
    import httpx

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        answer = httpx.request(method, f"{url.rstrip('/')}/api{path}", headers=headers,
                               timeout=30)
    except httpx.HTTPError as exc:
        typer.echo(f"error: no answer from {url}: {exc}", err=True)
        raise typer.Exit(1) from None
    if answer.status_code >= 400:
        try:
            detail = answer.json().get("detail", answer.text)
        except ValueError:
            detail = answer.text
        typer.echo(f"error: {method} {path}: {answer.status_code} {detail}", err=True)
        raise typer.Exit(1)
    return answer.json()


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


def standings_table(state: dict[str, Any]) -> Table:
    running = "running" if state["running"] else "stopped"
    table = Table(title=f"{state['game']}: {running}, {state['rated']} games rated, "
                        f"{state['games_per_minute']:.1f} games/min, {state['live']} live, "
                        f"{state['queued']} queued")
    for name, justify in (("#", "right"), ("bot", "left"), ("rating", "right"),
                          ("mu", "right"), ("sigma", "right"), ("games", "right"),
                          ("W", "right"), ("D", "right"), ("L", "right"),
                          ("failures", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for s in state["standings"]:
        failures = ", ".join(f"{k} {v}" for k, v in sorted(s["failures"].items()))
        table.add_row(str(s["rank"]), s["bot"], f"{s['rating']:.2f}", f"{s['mu']:.2f}",
                      f"{s['sigma']:.2f}", str(s["games"]), str(s["wins"]), str(s["draws"]),
                      str(s["losses"]), failures)
    return table


@ladder_app.command()
def status(games: Games = None, url: Url = None) -> None:
    """Standings of each game: rating (mu - 3 sigma), record, failures; games per minute."""
    url = url or _default_url()
    console = Console()
    for game in _games(url, games):
        console.print(standings_table(_request("GET", url, f"/ladder/{game}")))
