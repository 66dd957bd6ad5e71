// The spectator page: the match list (from /ws/lobby) and one match (from /ws/matches/{id}),
// live or replayed. The URL names the match and the move: ?match=<id>&seq=<n>.
import { adminButton, adminToken, authHeaders, el, wsProtocols, wsUrl } from "./dom.js";
import { gameName, games, viewerFor } from "./games.js";

const SPEEDS = [1, 2, 5, 10];
const STEP_MS = 700; // one step at 1x

const token = adminToken(); // before the URL is read: an old ?token= is cut from it
const params = new URLSearchParams(location.search);
adminButton(token);

// ---------------------------------------------------------------- the match list
// Live and recent matches come from the server's memory, older ones from its database, a
// page at a time ("older matches" asks the lobby socket for the next page).
const matches = new Map();
let lobby = null;
let stored = null; // {next, total}: the next stored page's offset, how many there are

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
    } else if (data.type === "page") {
      for (const m of data.matches) if (!matches.has(m.id)) matches.set(m.id, m);
      stored = { next: data.offset + data.limit, total: data.total };
    } else if (data.type === "match") {
      matches.set(data.match.id, data.match);
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

function drawList() {
  const list = document.getElementById("matches");
  const all = [...matches.values()];
  const live = all.filter((m) => m.live).sort((a, b) => b.created - a.created);
  const done = all.filter((m) => !m.live)
    .sort((a, b) => (b.finished ?? b.created) - (a.finished ?? a.created));
  const item = (m) => {
    const link = el("a", { href: `?match=${m.id}` },
      el("span", { class: `status ${m.status}` }, m.status),
      el("b", {}, gameName(m.game)), " ",
      m.players.join(" vs "));
    link.addEventListener("click", (ev) => { ev.preventDefault(); openMatch(m.id, null); });
    return el("li", { class: m.id === current?.id ? "current" : "", "data-id": m.id,
      "data-status": m.status }, link);
  };
  let older = "";
  if (stored && stored.next < stored.total) {
    const more = el("button", { class: "older", "data-action": "older" }, "older matches");
    more.addEventListener("click", () => {
      lobby?.send(JSON.stringify({ type: "page", offset: stored.next }));
    });
    older = el("li", { class: "section" }, more);
  }
  list.replaceChildren(
    el("li", { class: "section" }, `Live (${live.length})`), ...live.map(item),
    el("li", { class: "section" }, "Recent"), ...done.map(item), older);
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
    if (this.following) this.index = this.timeline.length - 1;
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
    if (frame && this.render) this.render(body, this.hello.meta, frame.state, info, view);
    const result = frame?.result;
    this.root.replaceChildren(
      el("div", { class: "title" },
        el("h1", {}, info.players.join(" vs ")),
        el("span", { class: "hint", id: "status", "data-status": status },
          `${gameName(info.game)} · ${status}`),
        el("span", { class: "hint", id: "seq" }, frame ? `seq ${frame.seq}` : "")),
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
games().then(drawList); // the games' names
if (params.get("match")) {
  const seq = params.get("seq");
  openMatch(params.get("match"), seq === null ? null : Number(seq));
}
