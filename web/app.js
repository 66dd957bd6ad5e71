// The spectator page: the match list (from /ws/lobby) and one match (from /ws/matches/{id}),
// live or replayed. The URL names the match and the move: ?match=<id>&seq=<n>.
import { PlayFromHere, SeatOutput } from "./debug.js";
import { adminButton, adminToken, authHeaders, el, wsProtocols, wsUrl } from "./dom.js";
import { gameName, games, viewerFor } from "./games.js";

const SPEEDS = [1, 2, 5, 10];
const STEP_MS = 700; // one step at 1x

const token = adminToken(); // before the URL is read: an old ?token= is cut from it
const params = new URLSearchParams(location.search);
adminButton(token);

// ---------------------------------------------------------------- the match list
// Live and recent matches come from the server's memory, older ones from its database, a
// page at a time ("older matches" asks the lobby socket for the next page). The filter
// above the list (game, player, status) asks the server for its first page: thousands of
// stored matches are filtered in the database, not here. The lobby's live events are not
// filtered by the server: the list applies the filter to them (`fits`).
const STATUSES = ["waiting", "running", "paused", "finished", "aborted", "cancelled"];
const BOT_TYPING_MS = 300; // the player field asks the server once typing pauses
const matches = new Map();
let lobby = null;
let stored = null; // {next, total}: the next stored page's offset, how many there are
const filter = { game: "", bot: "", status: "" };
let answered = "||"; // the filter `matches` was last filled under: "game|bot|status"
let typing = null;

const filterActive = () => Boolean(filter.game || filter.bot || filter.status);

function fits(m) {
  return (!filter.game || m.game === filter.game) && (!filter.status || m.status === filter.status)
    && (!filter.bot || m.players.includes(filter.bot));
}

function askPage(offset) {
  if (!lobby || lobby.readyState !== WebSocket.OPEN) return;
  const message = { type: "page", offset };
  for (const [key, value] of Object.entries(filter)) if (value) message[key] = value;
  lobby.send(JSON.stringify(message));
}

function connectLobby() {
  const ws = new WebSocket(wsUrl("/ws/lobby"));
  lobby = ws;
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type === "matches") {
      matches.clear();
      for (const m of data.matches) matches.set(m.id, m);
      stored = data.stored
        ? { next: data.stored.offset + data.stored.limit, total: data.stored.total } : null;
      answered = "||";
      if (filterActive()) askPage(0); // a reconnect: the filter's first page again
    } else if (data.type === "page") {
      if (data.offset === 0) { // a filter's first page: what the list shows from now on
        matches.clear();
        const f = data.filter ?? {};
        answered = `${f.game ?? ""}|${f.bot ?? ""}|${f.status ?? ""}`;
      }
      for (const m of data.matches) if (!matches.has(m.id)) matches.set(m.id, m);
      stored = { next: data.offset + data.limit, total: data.total };
    } else if (data.type === "match") {
      matches.set(data.match.id, data.match);
    } else if (data.type === "error") {
      document.getElementById("conn").textContent = `the list: ${data.error}`;
      return;
    }
    drawList();
    followLive();
  };
  ws.onopen = () => { document.getElementById("conn").textContent = "connected"; };
  ws.onclose = () => {
    document.getElementById("conn").textContent = "reconnecting…";
    setTimeout(connectLobby, 1000);
  };
}

function filterChanged() {
  drawList(); // at once from what is here, then from the server's answer
  askPage(0);
}

function drawFilter(list) {
  const form = document.getElementById("list-filter");
  const game = el("select", { name: "game", "aria-label": "game" },
    el("option", { value: "" }, "every game"),
    ...list.map((g) => el("option", { value: g.id }, g.name ?? g.id)));
  const status = el("select", { name: "status", "aria-label": "status" },
    el("option", { value: "" }, "any status"),
    ...STATUSES.map((st) => el("option", { value: st }, st)));
  const bot = el("input", { name: "bot", type: "search", placeholder: "player",
    "aria-label": "player", list: "players", autocomplete: "off", maxlength: "100" });
  game.value = filter.game;
  status.value = filter.status;
  bot.value = filter.bot;
  game.addEventListener("change", () => { filter.game = game.value; filterChanged(); });
  status.addEventListener("change", () => { filter.status = status.value; filterChanged(); });
  bot.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      if (bot.value.trim() === filter.bot) return;
      filter.bot = bot.value.trim();
      filterChanged();
    }, BOT_TYPING_MS);
  });
  form.addEventListener("submit", (ev) => ev.preventDefault());
  form.replaceChildren(game, status, bot, el("datalist", { id: "players" }));
}

const clock = (seconds) => {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
};

function when(stamp) {
  const date = new Date(stamp * 1000);
  const today = date.toDateString() === new Date().toDateString();
  return today ? date.toLocaleTimeString() : date.toLocaleString();
}

// "winner: greedy" or "draw" (or who failed), then the scores, "42 : 17".
function outcome(m) {
  const r = m.result;
  if (!r) return m.live ? "" : m.status;
  const head = r.winnerName ? `winner: ${r.winnerName}`
    : r.cause ? `no winner (${r.cause.toLowerCase().replaceAll("_", " ")})` : "draw";
  return r.scores?.length ? `${head} · ${r.scores.join(" : ")}` : head;
}

function drawList() {
  const list = document.getElementById("matches");
  const all = [...matches.values()].filter(fits);
  const live = all.filter((m) => m.live).sort((a, b) => b.created - a.created);
  const done = all.filter((m) => !m.live)
    .sort((a, b) => (b.finished ?? b.created) - (a.finished ?? a.created));
  const now = Date.now() / 1000;
  const item = (m) => {
    const begun = m.started ?? null;
    const end = m.finished ?? (m.live ? now : null);
    const times = [begun ? `started ${when(begun)}` : `created ${when(m.created)}`];
    if (begun && end) times.push(clock(end - begun));
    const link = el("a", { href: `?match=${m.id}` },
      el("span", { class: `status ${m.status}` }, m.status),
      el("b", {}, gameName(m.game)), " ",
      m.players.join(" vs "),
      el("span", { class: "outcome-line", "data-winner": m.result?.winnerName ?? "" },
        outcome(m)),
      el("span", { class: "when" }, times.join(" · ")));
    link.addEventListener("click", (ev) => { ev.preventDefault(); openMatch(m.id, null); });
    return el("li", { class: m.id === current?.id ? "current" : "", "data-id": m.id,
      "data-status": m.status }, link);
  };
  let older = "";
  if (stored && stored.next < stored.total) {
    const more = el("button", { class: "older", "data-action": "older" }, "older matches");
    more.addEventListener("click", () => askPage(stored.next));
    older = el("li", { class: "section" }, more);
  }
  const recent = stored ? `Recent · ${stored.total} stored` : "Recent";
  list.replaceChildren(
    el("li", { class: "section" }, `Live (${live.length})`), ...live.map(item),
    el("li", { class: "section" }, recent), ...done.map(item), older);
  list.dataset.answered = answered; // which filter the server last answered (for tests)
  list.dataset.total = stored ? String(stored.total) : "";
  const players = document.getElementById("players");
  if (players) {
    const names = [...new Set([...matches.values()].flatMap((m) => m.players))].sort();
    players.replaceChildren(...names.slice(0, 200).map((n) => el("option", { value: n })));
  }
}

// ---------------------------------------------------------------- one match
let current = null;

// A regular end names the winner; a match a bot ended by failing says which seat failed,
// how, and links to that seat's output (a launched bot's stdout and stderr).
function resultLine(result, info) {
  const scores = result.scores?.length ? ` (${result.scores.join(" : ")})` : "";
  if (!result.cause) {
    const head = result.winnerName ? `Winner: ${result.winnerName}` : "Draw";
    return el("div", { class: "result", id: "result" }, `${head} — ${result.reason}${scores}`);
  }
  const seat = result.violationSeat;
  const who = seat === null || seat === undefined ? "every seat" : info.players[seat] ?? `seat ${seat + 1}`;
  const cause = result.cause.toLowerCase().replaceAll("_", " ");
  const winner = result.winnerName ? `; winner: ${result.winnerName}` : "";
  const parts = [`${who} failed: ${cause} (${result.reason})${winner}${scores}`];
  if (seat !== null && seat !== undefined) {
    parts.push(" · ", el("a", { href: `/api/matches/${info.id}/seats/${seat}/log`,
      class: "seat-log", "data-seat": String(seat) }, `${who}'s output`));
  }
  return el("div", { class: "result failed", id: "result", "data-failed-seat": String(seat ?? "all") },
    ...parts);
}

class MatchView {
  constructor(id, seq) {
    this.id = id;
    this.wantSeq = seq; // from the URL: show this move, do not follow
    this.following = seq === null;
    this.timeline = []; // {seq, state, result}
    this.index = -1;
    this.lastSeq = -1;
    this.hello = null;
    this.render = null; // the game's viewer, once loaded
    this.playing = null;
    this.speed = 1;
    this.closed = false;
    this.adminNote = ""; // the last admin action's outcome, shown beside its buttons
    this.root = el("div", { class: "match", "data-match": id });
    document.getElementById("main").replaceChildren(this.root);
    this.connect();
  }

  connect() {
    const query = new URLSearchParams({ since: String(this.lastSeq + 1) });
    this.ws = new WebSocket(wsUrl(`/ws/matches/${this.id}?${query}`), wsProtocols(token));
    this.ws.onmessage = (msg) => this.receive(JSON.parse(msg.data));
    this.ws.onclose = (ev) => {
      if (current !== this) return;
      if (ev.code === 1000 || ev.code === 4004) {
        this.closed = true;
        if (ev.code === 4004) this.root.replaceChildren(el("p", {}, "No such match."));
        else this.draw();
        followLive();
      } else {
        setTimeout(() => current === this && this.connect(), 500); // resume with since
      }
    };
  }

  receive(data) {
    if (data.type === "hello") {
      this.hello = data;
      // Frames from `since` carry no snapshot: a match created paused says so only here.
      this.paused = data.match.status === "paused";
      if (token) { // the admin's: what the launched bots said, play from here
        this.output ??= new SeatOutput(this.id, data.match.players.length, token,
          () => current === this && this.draw());
        games().then((list) => {
          this.game = list.find((g) => g.id === data.match.game) ?? null;
          if (current === this) this.draw();
        });
      }
      viewerFor(data.match.game).then((render) => {
        this.render = render;
        if (current === this) this.draw();
      });
      return;
    }
    if (data.type === "snapshot") {
      this.paused = Boolean(data.paused); // a match watched from its middle may be paused
      this.push({ seq: data.seq, state: data.state, result: data.result });
    } else if (data.type === "event") {
      this.lastSeq = data.seq;
      if (data.state) this.push({ seq: data.seq, state: data.state, result: data.result });
      if (data.kind === "pause") this.paused = data.paused;
      if (data.kind === "closed") this.closed = true;
    }
    if (this.wantSeq !== null && this.timeline.length) {
      const at = this.timeline.findLastIndex((f) => f.seq <= this.wantSeq);
      this.index = Math.max(0, at);
    }
    this.draw();
  }

  push(frame) {
    this.timeline.push(frame);
    this.frameAt = performance.now(); // the current move's clock runs from the last news
    if (this.following) this.index = this.timeline.length - 1;
  }

  // The current move's time, running while the match is live (the clocks table under the
  // board counts the moves already made). Kept across redraws, ticked ten times a second.
  moveClock(status) {
    if (status !== "live" || !this.timeline.length) {
      clearInterval(this.clockTimer);
      this.clockTimer = null;
      return "";
    }
    this.clock ??= el("span", { class: "hint", id: "move-clock",
      title: "time since the last move: the seat to move is thinking" });
    const tick = () => {
      const ms = Math.max(0, Math.round(performance.now() - (this.frameAt ?? 0)));
      this.clock.textContent = `this move: ${(ms / 1000).toFixed(1)} s`;
      this.clock.dataset.ms = String(ms);
      if (current !== this || this.closed) {
        clearInterval(this.clockTimer);
        this.clockTimer = null;
      }
    };
    tick();
    this.clockTimer ??= setInterval(tick, 100);
    return this.clock;
  }

  go(index, byUser = true) {
    if (!this.timeline.length) return;
    this.index = Math.max(0, Math.min(this.timeline.length - 1, index));
    this.following = this.index === this.timeline.length - 1 && !this.closed;
    if (byUser) this.wantSeq = null;
    const url = new URL(location.href);
    url.searchParams.set("match", this.id);
    url.searchParams.set("seq", String(this.timeline[this.index].seq));
    history.replaceState(null, "", url);
    this.draw();
  }

  play() {
    if (this.playing) { clearInterval(this.playing); this.playing = null; this.draw(); return; }
    if (this.index >= this.timeline.length - 1) this.go(0);
    this.playing = setInterval(() => {
      if (this.index >= this.timeline.length - 1) { this.play(); return; }
      this.go(this.index + 1);
    }, STEP_MS / this.speed);
    this.draw();
  }

  setSpeed(speed) {
    this.speed = speed;
    if (this.playing) { this.play(); this.play(); }
  }

  // The admin's controls of a live match (the token is set): POST /api/matches/{id}/{action},
  // handled by the room between moves; the frames then say what changed (paused, a move).
  async control(action) {
    if (action === "cancel" && !confirm("Cancel this match?")) return;
    let note;
    try {
      const answer = await fetch(`/api/matches/${encodeURIComponent(this.id)}/${action}`,
        { method: "POST", headers: authHeaders(token) });
      const body = await answer.json().catch(() => ({}));
      note = answer.ok ? `${action}: sent` : `${action} refused: ${body.detail ?? answer.status}`;
      // Spectators see a cancelled match end "stopped"; the store calls it cancelled.
      if (answer.ok && action === "cancel") this.cancelled = true;
    } catch (error) {
      note = `${action} failed: ${error}`;
    }
    this.adminNote = note;
    if (current === this) this.draw();
  }

  // "Play from here" (the admin's, a game that starts from positions): on a finished or
  // paused match, a new match from the position shown. It opens following its newest
  // frame, live; the page's "follow live" channel is left as it is: switched on, it would
  // leave the new match for another live one (the paused original) once it ends.
  fromHere(status) {
    if (!token || !this.game?.positions || !(this.closed || status === "paused")) return "";
    this.from ??= new PlayFromHere(this.hello.match, this.game, token,
      () => this.timeline[this.index], () => !this.closed, (id) => openMatch(id, null));
    return this.from.update();
  }

  // Made once and kept across draws (only its state changes): a live match redraws at every
  // move, and a button replaced between the press and the release would lose the click.
  adminBar() {
    if (!token || this.closed) return "";
    if (!this.bar) {
      const button = (action, label, title) => {
        const b = el("button", { "data-admin": action, title }, label);
        b.addEventListener("click", () => this.control(action));
        return b;
      };
      this.barParts = {
        pause: button("pause", "pause", "pause the match between moves"),
        step: button("step", "step", "one move, then paused again"),
        resume: button("resume", "resume", "play on"),
        cancel: button("cancel", "cancel", "end the match now (status: cancelled)"),
        note: el("span", { class: "hint", id: "admin-note" }),
      };
      this.bar = el("div", { class: "adminbar", id: "adminbar" },
        ...Object.values(this.barParts));
    }
    const parts = this.barParts;
    parts.pause.disabled = this.paused;
    parts.step.disabled = !this.paused;
    parts.resume.disabled = !this.paused;
    parts.note.textContent = this.adminNote;
    return this.bar;
  }

  draw() {
    if (!this.hello) return;
    const info = this.hello.match;
    const frame = this.timeline[this.index];
    const last = this.timeline.length - 1;
    // Closed without a result: stopped before its end (cancelled by an admin, or aborted).
    const ended = ["aborted", "cancelled"].includes(info.status) ? info.status
      : this.timeline.some((f) => f.result) ? "finished" : "aborted";
    const status = this.closed ? (this.cancelled ? "cancelled" : ended)
      : this.paused ? "paused" : "live";
    const button = (label, title, action) => {
      const b = el("button", { title, "data-action": title }, label);
      b.addEventListener("click", action);
      return b;
    };
    const range = el("input", { type: "range", min: "0", max: String(Math.max(0, last)),
      value: String(Math.max(0, this.index)), "aria-label": "move" });
    range.addEventListener("input", () => this.go(Number(range.value)));
    const speed = el("select", { "aria-label": "speed" },
      ...SPEEDS.map((s) => el("option", s === this.speed ? { value: s, selected: "" }
        : { value: s }, `${s}x`)));
    speed.addEventListener("change", () => this.setSpeed(Number(speed.value)));
    const share = el("a", { href: location.href, class: "share" }, "link to this move");
    const body = el("div", { class: "view" });
    // The game's viewer gets the frames too (its move list) and a way to show one of them.
    const view = { timeline: this.timeline, index: this.index, go: (i) => this.go(i) };
    // What the launched bots said at this frame (the admin's): `view.aside`, which a game's
    // viewer may place beside its board; else it goes under the game's view.
    this.output?.update(this.timeline.at(-1)?.seq ?? -1, this.closed);
    view.aside = this.output?.panel(view, info.players) || null;
    if (frame && this.render) this.render(body, this.hello.meta, frame.state, info, view);
    if (view.aside && !view.aside.parentNode) body.append(view.aside);
    if (this.output) body.append(this.output.overTime(view, info.players));
    const result = frame?.result;
    this.root.replaceChildren(
      el("div", { class: "title" },
        el("h1", {}, info.players.join(" vs ")),
        el("span", { class: "hint", id: "status", "data-status": status },
          `${gameName(info.game)} · ${status}`),
        el("span", { class: "hint", id: "seq" }, frame ? `seq ${frame.seq}` : ""),
        this.moveClock(status)),
      this.adminBar(),
      el("div", { class: "controls" },
        button("|◀◀", "first", () => this.go(0)),
        button("◀", "back", () => this.go(this.index - 1)),
        button(this.playing ? "pause" : "play", "play", () => this.play()),
        button("▶", "forward", () => this.go(this.index + 1)),
        button("▶▶|", "last", () => { this.go(last); this.following = !this.closed; }),
        range, speed,
        el("span", { class: "pos" }, `${this.index + 1} / ${this.timeline.length}`),
        share),
      this.fromHere(status),
      result ? resultLine(result, info) : "",
      body);
    drawList();
  }
}

// "Follow live", like a TV channel: when the watched match is over (or none is open), the
// newest live match opens; the choice stays in the URL (?follow=1).
let follow = params.get("follow") === "1";

function followLive() {
  if (!follow || (current && !current.closed)) return;
  const next = [...matches.values()].filter((m) => m.live && m.id !== current?.id)
    .sort((a, b) => b.created - a.created)[0];
  if (next) openMatch(next.id, null);
}

function followToggle() {
  const box = el("input", { type: "checkbox", id: "follow", "aria-label": "follow live" });
  box.checked = follow;
  box.addEventListener("change", () => {
    follow = box.checked;
    const url = new URL(location.href);
    if (follow) url.searchParams.set("follow", "1"); else url.searchParams.delete("follow");
    history.replaceState(null, "", url);
    followLive();
  });
  document.getElementById("follow-slot").replaceChildren(
    el("label", { class: "follow", title: "jump to the next live match when this one ends" },
      box, " follow live"));
}

// Keyboard: arrows step, Home/End jump, space plays or pauses (not while typing in a field).
document.addEventListener("keydown", (ev) => {
  if (!current || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const tag = ev.target?.tagName;
  if ((tag === "TEXTAREA" || tag === "SELECT" || (tag === "INPUT" && ev.target.type !== "range"
      && ev.target.type !== "checkbox")) || (tag === "BUTTON" && ev.key === " ")) return;
  const last = current.timeline.length - 1;
  const keys = {
    ArrowLeft: () => current.go(current.index - 1),
    ArrowRight: () => current.go(current.index + 1),
    Home: () => current.go(0),
    End: () => { current.go(last); current.following = !current.closed; },
    " ": () => current.play(),
  };
  const act = keys[ev.key];
  if (act) { ev.preventDefault(); act(); }
});

function openMatch(id, seq) {
  if (current) {
    if (current.playing) clearInterval(current.playing);
    current.ws?.close();
    current = null;
  }
  const url = new URL(location.href);
  url.searchParams.set("match", id);
  if (seq === null) url.searchParams.delete("seq"); else url.searchParams.set("seq", seq);
  history.replaceState(null, "", url);
  current = new MatchView(id, seq);
}

followToggle();
connectLobby();
games().then((list) => { drawFilter(list); drawList(); }); // the games' names
if (params.get("match")) {
  const seq = params.get("seq");
  openMatch(params.get("match"), seq === null ? null : Number(seq));
}
