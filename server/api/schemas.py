"""Request and response bodies, each with an example for the OpenAPI document."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, model_validator

from server.store import MatchStatus

MATCH_ID = "3f0c2b1e-8a41-4c6e-9a57-0d6f1b2c3d4e"
RESERVATION = "5d1e6a0b-2c8f-4b7d-9e3a-1f2a3b4c5d6e"
TIME = "2027-03-01T12:00:00Z"


def _examples(*examples: Any) -> ConfigDict:
    return ConfigDict(extra="forbid", json_schema_extra={"examples": list(examples)})


class ErrorOut(BaseModel):
    model_config = _examples({"detail": "no match 3f0c2b1e-8a41-4c6e-9a57-0d6f1b2c3d4e"})
    detail: str = Field(description="What went wrong, in one sentence.")
    errors: list[dict[str, str]] | None = Field(
        None, description="Validation errors: the field (`body.seats.0.name`) and the message.")


class HealthOut(BaseModel):
    model_config = _examples({"status": "ok", "store": True, "rooms": 2, "tcp_port": 13050})
    status: str
    store: bool
    rooms: int
    tcp_port: int | None
    store_error: str | None = None


class GameOut(BaseModel):
    model_config = _examples({"id": "swc_2027_blokus", "aliases": ["blokus"], "seats": 2,
                              "protocols": ["sc"], "bots": ["random", "greedy"],
                              "replay_formats": ["sc-xml"]})
    id: str
    aliases: list[str] = Field(description="Other names every `game` field and filter "
                               "takes (the command line's too).")
    seats: int
    protocols: list[str]
    bots: list[str] = Field(description="Registered bots that play this game.")
    replay_formats: list[str] = Field(
        description="`format`s of GET /api/matches/{id}/replay, the default first.")


class DeckIn(BaseModel):
    """A deck as a hero and its cards (card ids)."""

    model_config = _examples({"hero": "HERO_08", "cards": ["CS2_029", "CS2_029", "..."]})
    hero: str = Field(min_length=1, max_length=32)
    cards: list[Annotated[str, Field(min_length=1, max_length=32)]] = Field(max_length=60)


class SeatIn(BaseModel):
    """A seat: `bot` (a registered bot's name or id, launched by the server) or `name` (a seat
    reserved for a client you start; the answer carries its reservation code). `deck`
    (Hearth): a class deck's name (`mage`, `basic-warlock`), a deck code, or `{hero,
    cards}`; a deck the game does not take is a 422 naming the card and the rule."""

    model_config = _examples({"name": "alice"}, {"bot": "greedy"})
    name: str | None = Field(None, min_length=1, max_length=100)
    # Strict: a JSON string is a name, a JSON integer an id ("1" names the bot called 1).
    bot: StrictStr | Annotated[StrictInt, Field(ge=0, le=2**63 - 1)] | None = Field(
        None, description="A registered bot: its name (a string) or its id (an integer).")
    deck: Annotated[str, Field(min_length=1, max_length=4000)] | DeckIn | None = Field(
        None, description="Hearth: a class deck's name, a deck code, or {hero, cards}.")

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.name is None) == (self.bot is None):
            raise ValueError("give exactly one of `name` (a reserved seat) or `bot`")
        if isinstance(self.bot, str) and not 1 <= len(self.bot) <= 100:
            raise ValueError("`bot` names have 1 to 100 characters")
        return self


class ClocksIn(BaseModel):
    model_config = _examples({"soft": 2.0, "hard": 10.0, "enabled": True})
    soft: float = Field(2.0, gt=0, le=3600, description="SC: an answer after this loses.")
    hard: float = Field(10.0, gt=0, le=3600, description="SC: no answer by then loses.")
    decision: float = Field(10.0, gt=0, le=3600, description="Hearth: per decision.")
    turn: float = Field(75.0, gt=0, le=3600, description="Hearth: per turn.")
    enabled: bool = True
    min_move_time: float = Field(0.0, ge=0, le=60, description="Pace for people watching: "
                                 "seconds between two moves at least (0: as fast as the "
                                 "bots).")


class FromIn(BaseModel):
    """Where a match starts (issue #29): a stored match's position before its decision
    `turn` (`match`), or an official Software-Challenge replay's first memento with turn >=
    `turn` (Blokus: `replay`, the file's XML text, or `replay_gzip`, a `.xml.gz` file in
    base64). `swap`: the seats as given play the other sides (seat 0 of the request plays
    the position's seat 1). `rng` (Hearth, from a match): "same" goes on with the original
    random stream, "fresh" reseeds it (with `seed`, else a random one)."""

    model_config = _examples({"match": MATCH_ID, "turn": 12},
                             {"match": MATCH_ID, "turn": 5, "swap": True, "rng": "fresh"},
                             {"replay": "<protocol>...</protocol>", "turn": 20})
    match: str | None = Field(None, min_length=1, max_length=64)
    replay: str | None = Field(None, min_length=1, max_length=1 << 20)
    replay_gzip: str | None = Field(None, min_length=1, max_length=1 << 20)
    turn: int = Field(ge=0, le=100_000)
    swap: bool = False
    rng: Literal["same", "fresh"] = "same"

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if sum(x is not None for x in (self.match, self.replay, self.replay_gzip)) != 1:
            raise ValueError("give exactly one of `match`, `replay` or `replay_gzip`")
        if self.rng == "fresh" and self.match is None:
            raise ValueError("`rng` \"fresh\" is for a stored match's position")
        return self


class MatchCreate(BaseModel):
    model_config = _examples(
        {"game": "swc_2027_blokus", "seats": [{"name": "a"}, {"name": "b"}]},
        {"game": "swc_2027_blokus", "seats": [{"bot": "greedy"}, {"bot": "random"}],
         "seed": 7},
    )
    game: str = Field(min_length=1, max_length=32)
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    clocks: ClocksIn | None = None
    paused: bool = Field(False, description="Start paused: step or resume it.")
    from_: FromIn | None = Field(None, alias="from", description="Start from a stored "
                                 "match's position or a replay file's (issue #29).")


class SeatCreated(BaseModel):
    model_config = _examples({"index": 0, "name": "a", "bot": None, "reservation": RESERVATION})
    index: int
    name: str
    bot: str | None
    reservation: str | None = Field(description="joinPrepared code (reserved seats only).")


class MatchCreated(BaseModel):
    model_config = _examples({"id": MATCH_ID, "game": "swc_2027_blokus", "status": "waiting",
                              "seats": [{"index": 0, "name": "a", "bot": None,
                                         "reservation": RESERVATION},
                                        {"index": 1, "name": "greedy", "bot": "greedy",
                                         "reservation": None}]})
    id: str
    game: str
    status: MatchStatus
    seats: list[SeatCreated]


class SeatOut(BaseModel):
    model_config = _examples({"index": 0, "name": "greedy", "bot_id": 2, "outcome": "win",
                              "failure": None, "detail": "", "score_parts": [61]})
    index: int
    name: str
    bot_id: int | None
    outcome: str | None
    failure: str | None = Field(description="failed_to_start, crash, timeout, illegal_move, "
                                "protocol_error or disconnect")
    detail: str
    score_parts: list[Any] | None


class ResultOut(BaseModel):
    model_config = _examples({"winner": 0, "reason": "regular",
                              "scores": {"scores": [61, 40], "cause": None},
                              "committed": TIME})
    winner: int | None
    reason: str
    scores: Any
    committed: datetime


class MatchSummary(BaseModel):
    model_config = _examples({"id": MATCH_ID, "game": "swc_2027_blokus", "status": "finished",
                              "seed": 7, "created": TIME, "started": TIME, "finished": TIME})
    id: str
    game: str
    status: str
    seed: int | None
    created: datetime
    started: datetime | None
    finished: datetime | None


class MatchOut(MatchSummary):
    model_config = _examples({"id": MATCH_ID, "game": "swc_2027_blokus", "status": "finished",
                              "seed": 7, "created": TIME, "started": TIME, "finished": TIME,
                              "options": {"source": "api"}, "live": False,
                              "paused": None, "seats": [], "result": None})
    options: dict[str, Any]
    live: bool = Field(description="Running in this server process now.")
    paused: bool | None
    seats: list[SeatOut]
    result: ResultOut | None


class MatchPage(BaseModel):
    model_config = _examples({"items": [], "total": 0, "limit": 50, "offset": 0})
    items: list[MatchSummary]
    total: int
    limit: int
    offset: int


class ActionOut(BaseModel):
    model_config = _examples({"id": MATCH_ID, "action": "pause", "accepted": True})
    id: str
    action: str
    accepted: bool


class BotIn(BaseModel):
    """A bot to register: `command` (argv) or `bot` (a bot of the game's Python kit)."""

    model_config = _examples(
        {"name": "mybot", "game": "swc_2027_blokus", "bot": "/home/me/bot/my_bot.py:MyBot"},
        {"name": "mybot", "game": "swc_2027_blokus", "command": ["java", "-jar", "bot.jar"],
         "workdir": "/home/me/bot", "env": {"MYBOT_DEPTH": "3"}})
    name: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.\-]+$")
    game: str = Field(min_length=1, max_length=32)
    command: list[str] | None = Field(None, min_length=1, max_length=100,
                                      description="argv; --host --port are appended, the "
                                      "reservation is in $GAUNTLET_RESERVATION.")
    bot: str | None = Field(None, min_length=1, max_length=1024, description=(
        "Instead of `command`: a bot of the game's Python kit as `gauntlet play` takes "
        "it (`my_bot.py:MyBot`, `package.module:Class`, a bundled name), run with the "
        "server's Python; a relative file is taken in `workdir`."))
    workdir: str | None = Field(None, min_length=1, max_length=1024)
    env: dict[str, str] = Field(default_factory=dict, max_length=100)
    deck: Annotated[str, Field(min_length=1, max_length=4000)] | DeckIn | None = Field(
        None, description="Hearth: the deck it plays when a seat names none (in the ladder, "
        "always): a class deck's name, a deck code, or {hero, cards}.")

    @model_validator(mode="after")
    def _plain_text(self) -> Self:
        if (self.command is None) == (self.bot is None):
            raise ValueError("give exactly one of `command` (argv) or `bot` (a kit bot "
                             "such as \"my_bot.py:MyBot\")")
        texts = [*(self.command or ()), self.bot or "", *(self.env), *self.env.values(),
                 self.workdir or ""]
        if any("\x00" in t for t in texts):
            raise ValueError("NUL characters are not allowed in command, bot, workdir or env")
        if self.command is not None and not self.command[0]:
            raise ValueError("command[0] is empty")
        return self


class BotOut(BaseModel):
    """A registered bot. Its command, working directory and environment values (where
    users put API keys) are shown to the admin only: everyone else gets null there, and
    the variables' names in `env_names`."""

    model_config = _examples({"id": 2, "name": "mybot", "game": "swc_2027_blokus",
                              "command": ["python", "my_bot.py"], "workdir": "/home/me/bot",
                              "env": {"MYBOT_DEPTH": "3"}, "env_names": ["MYBOT_DEPTH"],
                              "created": TIME},
                             {"id": 2, "name": "mybot", "game": "swc_2027_blokus",
                              "command": None, "workdir": None, "env": None,
                              "env_names": ["MYBOT_DEPTH"], "created": TIME})
    id: int
    name: str
    game: str
    command: list[str] | None = Field(description="argv (admin token only)")
    workdir: str | None = Field(description="Working directory (admin token only)")
    env: dict[str, str] | None = Field(description="Added environment (admin token only)")
    env_names: list[str] = Field(description="The names of `env`'s variables")
    deck: str | DeckIn | None = Field(None, description="Its default deck, as registered")
    created: datetime


class SeatMoveOut(BaseModel):
    """One decision of a launched seat: what its bot printed on stderr meanwhile and what
    it cost. `move` N is the seat's N-th decision (move 0 is what came before the first),
    `turn` the match-wide number of that decision (the `turn` of `ask`, of `from` and of
    `?turn=`)."""

    model_config = _examples({"move": 3, "turn": 5, "seq": 11, "think_ms": 412, "cpu_ms": 400,
                              "peak_rss_kb": 31200, "lines": ["depth 4: +12"],
                              "truncated": False, "dropped_lines": 0, "dropped_bytes": 0})
    move: int = Field(description="The seat's own count: its N-th decision (0: before the "
                      "first)")
    turn: int | None = Field(None, description="The match-wide decision number: decision "
                             "events of every seat counted from 0 (move 0: null)")
    seq: int | None = Field(description="The decision's seq in the event log (move 0: null)")
    think_ms: int | None = Field(description="From the request written to the answer read "
                                 "(the event log's `think`)")
    cpu_ms: int | None = Field(description="CPU time of the bot's processes during the "
                               "decision (Linux /proc, 10 ms resolution)")
    peak_rss_kb: int | None = Field(description="Peak resident memory of the bot's "
                                    "processes during the decision, KiB (Linux /proc)")
    lines: list[str] = Field(description="stderr lines that arrived during the decision")
    truncated: bool = Field(description="Lines (or line ends) were dropped: 64 lines / "
                            "8 KiB a move, 256 KiB a seat, 2 KiB a line")
    dropped_lines: int
    dropped_bytes: int


class SeatMovesOut(BaseModel):
    model_config = _examples({"match": MATCH_ID, "seat": 0, "moves": [
        {"move": 0, "turn": None, "seq": None, "think_ms": None, "cpu_ms": None,
         "peak_rss_kb": None, "lines": ["loading book"], "truncated": False,
         "dropped_lines": 0, "dropped_bytes": 0},
        {"move": 1, "turn": 1, "seq": 3, "think_ms": 412, "cpu_ms": 400, "peak_rss_kb": 31200,
         "lines": ["move 1"], "truncated": False, "dropped_lines": 0, "dropped_bytes": 0}]})
    match: str
    seat: int
    moves: list[SeatMoveOut]
