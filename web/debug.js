// The admin's debugging parts of one match (issue #29): what each launched bot said during
// the move shown (its stderr lines, think time, CPU time and peak memory, with charts over
// the match), and "play from here", a new match from the position shown. Both need the
// admin token: a bot's output is its author's, and starting a match is the admin's.
import { lineChart, thinkText } from "./charts.js";
import { authHeaders, el } from "./dom.js";

const REFRESH_MS = 1000; // a live match's moves are asked for again at most this often
const EVENTS_PAGE = 10_000; // the most GET /api/matches/{id}/events gives at once

export function memoryText(kb) {
  return kb < 1024 ? `${kb} KiB` : `${(kb / 1024).toFixed(1)} MiB`;
}

// The move whose lines the frame at `seq` shows: the last decision at or before it (move
// 0, what the bot printed before its first decision, until there is one).
export function moveAt(moves, seq) {
  let found = moves.length && moves[0].seq === null ? moves[0] : null;
  for (const move of moves) if (move.seq !== null && move.seq <= seq) found = move;
  return found;
}

// The match-wide decision number of the position a frame shows: the position before
// decision N is the game after every answer whose event comes before decision N
// (docs/server.md, "Decisions and positions"), so the frame at `seq` is the position
// before the first decision after it: N = the decisions at or before `seq`.
export function decisionAt(decisionSeqs, seq) {
  return decisionSeqs.filter((s) => s <= seq).length;
}

// ---------------------------------------------------------------- what the bot said
// GET /api/matches/{id}/seats/{n}/moves for each seat (a 404: no bot was launched for
// it). A live match's moves grow: they are asked for again as frames come (at most once a
// second), and once more when the match is over.
export class SeatOutput {
  constructor(matchId, seats, token, changed) {
    this.matchId = matchId;
    this.seats = seats;
    this.token = token;
    this.changed = changed; // called when new moves came (the page redraws)
    this.found = new Map(); // seat -> its moves (launched seats only)
    this.asking = false;
    this.askedAt = -Infinity;
    this.askedSeq = -1; // the last frame's seq when they were last asked for
    this.final = false; // asked for after the match was over
    this.timer = null;
  }

  // Called at every draw: ask again when frames came since (or the match just ended).
  update(lastSeq, closed) {
    if (this.asking || this.final || (lastSeq <= this.askedSeq && !closed)) return;
    const wait = Math.max(0, this.askedAt + REFRESH_MS - Date.now());
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.load(lastSeq, closed), closed ? 0 : wait);
  }

  async load(lastSeq, closed) {
    this.asking = true;
    this.askedAt = Date.now();
    try {
      const answers = await Promise.all(Array.from({ length: this.seats }, async (_, seat) => {
        const url = `/api/matches/${encodeURIComponent(this.matchId)}/seats/${seat}/moves`;
        const answer = await fetch(url, { headers: authHeaders(this.token) });
        return answer.ok ? [seat, (await answer.json()).moves] : [seat, null];
      }));
      for (const [seat, moves] of answers) if (moves) this.found.set(seat, moves);
      this.askedSeq = lastSeq;
      // No seat of it was launched here (in-process or reserved seats, a worker's match):
      // nothing will come, so nothing is asked again.
      this.final = closed || !this.found.size;
    } catch (error) {
      console.error("seat moves", error);
    } finally {
      this.asking = false;
    }
    this.changed();
  }

  // The panel beside the board for the frame `view.index` shows: each launched seat's
  // lines and usage at that move; "" until a launched seat's moves are known.
  panel(view, players) {
    if (!this.found.size || !view.timeline.length) return "";
    const frame = view.timeline[view.index];
    const seats = [...this.found.entries()].sort(([a], [b]) => a - b);
    return el("section", { class: "said", id: "said" },
      el("h3", {}, "What the bots said"),
      el("div", { class: "said-seats" },
        ...seats.map(([seat, moves]) => this.seatPart(seat, moves, players[seat], frame, view))));
  }

  seatPart(seat, moves, name, frame, view) {
    const move = moveAt(moves, frame.seq);
    const who = name ?? `seat ${seat + 1}`;
    const head = move === null ? `${who}: nothing yet`
      : move.move === 0 ? `${who}: before its first move`
        : `${who}: move ${move.move} (turn ${move.turn ?? "?"})`;
    const usage = move && move.move > 0 ? el("div", { class: "usage" },
      el("span", { class: "u-think", "data-ms": String(move.think_ms ?? "") },
        `think ${move.think_ms === null ? "–" : thinkText(move.think_ms)}`),
      el("span", { class: "u-cpu", "data-ms": String(move.cpu_ms ?? "") },
        `CPU ${move.cpu_ms === null ? "–" : thinkText(move.cpu_ms)}`),
      el("span", { class: "u-rss", "data-kb": String(move.peak_rss_kb ?? "") },
        `peak ${move.peak_rss_kb === null ? "–" : memoryText(move.peak_rss_kb)}`)) : "";
    const lines = move?.lines ?? [];
    const text = lines.length ? el("pre", { class: "lines" }, lines.join("\n"))
      : el("p", { class: "lines empty" }, "nothing printed");
    const cut = move?.truncated ? el("p", { class: "truncated", title: "the server keeps "
      + "64 lines and 8 KiB a move, 2 KiB a line, 256 KiB a seat" },
    `truncated: ${move.dropped_lines} lines (${move.dropped_bytes} bytes) dropped`) : "";
    return el("div", { class: "said-seat", "data-seat": String(seat),
      "data-move": String(move?.move ?? ""), "data-truncated": String(Boolean(move?.truncated)) },
    el("h4", {}, head), usage, text, cut);
  }

  // The charts over the match (under the board, with the game's own): per launched seat
  // its think and CPU time and its peak memory per move.
  overTime(view, players) {
    if (!this.found.size || !view.timeline.length) return "";
    const seats = [...this.found.entries()].sort(([a], [b]) => a - b);
    return el("div", { class: "overtime said-charts", id: "said-charts" },
      ...seats.flatMap(([seat, moves]) => this.charts(seat, moves, view,
        players[seat] ?? `seat ${seat + 1}`)));
  }

  // The seat's think and CPU time, and its peak memory, per move over the match; a move is
  // drawn at the frame its answer made (the first frame after its decision).
  charts(seat, moves, view, name) {
    const frames = view.timeline.length;
    const answered = moves.filter((m) => m.seq !== null).map((m) => {
      const index = view.timeline.findIndex((f) => f.seq >= m.seq);
      return { ...m, index };
    }).filter((m) => m.index >= 0);
    const points = (key) => answered.filter((m) => m[key] !== null && m[key] !== undefined)
      .map((m) => [m.index, m[key]]);
    return [
      lineChart({ id: `said-time-${seat}`, title: `${name}: think and CPU time`, frames,
        marker: view.index, format: thinkText, series: [
          { label: "think", color: "var(--BLUE)", points: points("think_ms") },
          { label: "CPU", color: "var(--RED)", points: points("cpu_ms") }] }),
      lineChart({ id: `said-memory-${seat}`, title: `${name}: peak memory`, frames,
        marker: view.index, format: (kb) => `${Math.round(kb / 1024)} MiB`, series: [
          { label: "peak memory", color: "var(--GREEN)", points: points("peak_rss_kb") }] }),
    ];
  }
}

// ---------------------------------------------------------------- play from here
// A button, then a small form: a bot per seat (GET /api/bots?game=), swap, and for a game
// with randomness after its start the random stream (same or fresh); it POSTs
// /api/matches with "from": {"match", "turn"} (docs/api.md, "Starting from a position").
// Made once and kept across draws, as the admin bar: a live redraw must not eat a click.
export class PlayFromHere {
  constructor(match, game, token, shown, live, started) {
    this.match = match; // {id, game, players}
    this.game = game; // its entry of /games.json
    this.token = token;
    this.shown = shown; // () => the frame shown
    this.live = live; // () => the match is still live (paused)
    this.started = started; // (new match id) => the page opens it
    this.open = false;
    this.bots = null;
    this.build();
  }

  build() {
    this.toggle = el("button", { type: "button", "data-action": "play-from-here",
      title: "a new match from the position shown, with the bots you pick" }, "play from here");
    this.toggle.addEventListener("click", () => this.show(!this.open));
    this.selects = this.match.players.map((name, seat) => el("select", {
      name: `bot-${seat}`, "aria-label": `seat ${seat + 1}'s bot`, "data-seat": String(seat) }));
    this.swap = el("input", { type: "checkbox", name: "swap" });
    this.rng = el("select", { name: "rng", "aria-label": "random stream" },
      el("option", { value: "same" }, "same random stream"),
      el("option", { value: "fresh" }, "fresh random stream"));
    this.where = el("span", { class: "hint", id: "from-where" });
    this.note = el("span", { class: "hint", id: "from-note" });
    this.submit = el("button", { type: "submit", "data-action": "start-from-here" }, "start");
    this.form = el("form", { class: "from-form", id: "from-form", hidden: "" },
      ...this.selects.map((select, seat) => el("label", {}, `seat ${seat + 1} `, select)),
      el("label", { title: "the bots as picked play the other sides" }, this.swap, " swap"),
      this.game?.freshRng ? this.rng : "", this.where, this.submit, this.note);
    this.form.addEventListener("submit", (ev) => { ev.preventDefault(); this.start(); });
    this.node = el("div", { class: "from-here", id: "from-here" }, this.toggle, this.form);
  }

  async show(open) {
    this.open = open;
    this.form.hidden = !open;
    if (open && this.bots === null) await this.loadBots();
  }

  async loadBots() {
    this.note.textContent = "loading the bots…";
    try {
      const answer = await fetch(`/api/bots?game=${encodeURIComponent(this.match.game)}`,
        { headers: authHeaders(this.token) });
      if (!answer.ok) throw new Error(`${answer.status}`);
      this.bots = (await answer.json()).map((b) => b.name);
      this.note.textContent = this.bots.length ? "" : "no bot is registered for this game";
    } catch (error) {
      this.bots = [];
      this.note.textContent = `the bots: ${error}`;
    }
    this.selects.forEach((select, seat) => {
      select.replaceChildren(...this.bots.map((name) => el("option", { value: name }, name)));
      // The original's bot where it is a registered one, else the first.
      if (this.bots.includes(this.match.players[seat])) select.value = this.match.players[seat];
    });
    this.submit.disabled = !this.bots.length;
  }

  // At every draw: where the new match would start.
  update() {
    const frame = this.shown();
    this.where.textContent = frame ? `from the position at seq ${frame.seq}` : "";
    this.where.dataset.seq = frame ? String(frame.seq) : "";
    return this.node;
  }

  // Every decision event's seq, from the stored event log (a page at a time), and the last
  // seq stored (a live match's log is written in batches: it may lag behind the frames).
  async decisionSeqs() {
    const seqs = [];
    let last = -1;
    for (let since = 0; ;) {
      const query = new URLSearchParams({ since: String(since), limit: String(EVENTS_PAGE) });
      const answer = await fetch(`/api/matches/${encodeURIComponent(this.match.id)}/events?`
        + query, { headers: authHeaders(this.token) });
      if (!answer.ok) throw new Error(`the event log: ${answer.status}`);
      const lines = (await answer.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l));
      for (const event of lines) if (event.kind === "decision") seqs.push(event.seq);
      if (lines.length) last = lines[lines.length - 1].seq;
      if (lines.length < EVENTS_PAGE) return { seqs, last };
      since = lines[lines.length - 1].seq + 1;
    }
  }

  async start() {
    const frame = this.shown();
    if (!frame) return;
    this.submit.disabled = true;
    try {
      const { seqs, last } = await this.decisionSeqs();
      if (last < frame.seq) { // counted now, the decisions up to the frame would be short
        this.note.textContent = "the event log is not stored up to this position yet: "
          + "try again in a moment";
        return;
      }
      const turn = decisionAt(seqs, frame.seq);
      if (turn >= seqs.length) {
        // A paused match asks its next decision only once it is stepped or resumed.
        this.note.textContent = this.live()
          ? "the decision after this position is not asked yet: step once, or pick an "
            + "earlier move"
          : "no decision follows this position: pick an earlier move";
        return;
      }
      const from = { match: this.match.id, turn, swap: this.swap.checked };
      if (this.game?.freshRng) from.rng = this.rng.value;
      const body = { game: this.match.game, seats: this.selects.map((s) => ({ bot: s.value })),
        from };
      const answer = await fetch("/api/matches", { method: "POST",
        headers: { ...authHeaders(this.token), "Content-Type": "application/json" },
        body: JSON.stringify(body) });
      const created = await answer.json().catch(() => ({}));
      if (!answer.ok) {
        const detail = typeof created.detail === "string" ? created.detail
          : JSON.stringify(created.detail ?? answer.status);
        this.note.textContent = `refused: ${detail}`;
        return;
      }
      this.note.textContent = `started ${created.id} from turn ${turn}`;
      this.started(created.id);
    } catch (error) {
      this.note.textContent = `failed: ${error}`;
    } finally {
      this.submit.disabled = false;
    }
  }
}
