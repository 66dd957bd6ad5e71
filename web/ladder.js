// The ladder page: per game (a tab each) the standings with each bot's rating history (a
// small SVG chart drawn here: no chart library, nothing fetched from elsewhere) and the
// crosstable, polled from /api/ladder every few seconds; a bot's recent matches link to the
// match viewer. With the admin token the ladder can be started and stopped.
// The URL names the game and the bot: ladder.html?game=<id>&bot=<name>.
import { adminButton, adminToken, authHeaders, el } from "./dom.js";
import { gameName, games } from "./games.js";

const POLL_MS = 3000;
const RECENT = 10; // matches listed for the picked bot
const HISTORY = 200; // games per bot in its chart
const CHART = { width: 160, height: 28, pad: 2 };
const SVG = "http://www.w3.org/2000/svg";

const token = adminToken(); // before the URL is read: an old ?token= is cut from it
const params = new URLSearchParams(location.search);
adminButton(token);
let game = params.get("game");
let bot = params.get("bot");
let timer = null;
let generation = 0; // a refresh that a newer one overtook draws nothing
const seen = new Map(); // match id -> GET /api/matches/{id} of a match that is over
let histories = { key: null, bots: new Map() }; // refetched only when a game was rated

async function api(path, init = {}) {
  const answer = await fetch(`/api${path}`, { ...init, headers: authHeaders(token) });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

function here(changes) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key); else url.searchParams.set(key, value);
  }
  return url;
}

function pick(changes) {
  if ("game" in changes) game = changes.game;
  if ("bot" in changes) bot = changes.bot;
  history.replaceState(null, "", here(changes));
  refresh();
}

function link(label, changes, attrs = {}) {
  const a = el("a", { href: here(changes).search, ...attrs }, label);
  a.addEventListener("click", (ev) => { ev.preventDefault(); pick(changes); });
  return a;
}

const points = (p) => (Number.isInteger(p) ? String(p) : `${Math.floor(p) || ""}½`);

// ---------------------------------------------------------------- the history charts
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

async function loadHistories(state) {
  const key = `${state.game}/${state.rated}`;
  if (histories.key === key) return histories;
  const found = await api(`/ladder/${state.game}/history?limit=${HISTORY}`);
  return { key, bots: new Map(found.bots.map((b) => [b.bot, b])) };
}

// One scale for every bot of the game, so that the charts compare down the column.
function ratingRange(bots) {
  const all = [...bots.values()].flatMap((b) => b.points.map((p) => p.rating));
  if (!all.length) return null;
  const low = Math.min(...all);
  const high = Math.max(...all);
  return high - low < 1e-9 ? [low - 1, high + 1] : [low, high];
}

// A sparkline of the rating after each game (x: the bot's game number), a dot on the last.
function chart(line, range) {
  const points = line?.points ?? [];
  if (points.length < 2 || !range) {
    return el("td", { class: "history", "data-points": "0" },
      el("span", { class: "hint" }, "no games yet"));
  }
  const { width, height, pad } = CHART;
  const first = points[0].game;
  const span = Math.max(1, points[points.length - 1].game - first);
  const x = (p) => pad + ((p.game - first) / span) * (width - 2 * pad);
  const y = (p) => height - pad - ((p.rating - range[0]) / (range[1] - range[0])) * (height - 2 * pad);
  const xy = points.map((p) => `${x(p).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
  const last = points[points.length - 1];
  const dated = points.filter((p) => p.at);
  const when = dated.length
    ? ` · ${new Date(dated[0].at).toLocaleString()} – ${new Date(last.at).toLocaleString()}` : "";
  const title = `${line.bot}: ${points[0].rating.toFixed(2)} → ${last.rating.toFixed(2)}`
    + ` over games ${first}–${last.game}${when}`;
  return el("td", { class: "history", "data-points": String(points.length),
    "data-last": String(last.rating) },
  svg("svg", { class: "spark", width: String(width), height: String(height),
    viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title },
  svg("title", {}, document.createTextNode(title)),
  svg("polyline", { points: xy, fill: "none", stroke: "currentColor", "stroke-width": "1.5",
    "stroke-linejoin": "round" }),
  svg("circle", { cx: x(last).toFixed(1), cy: y(last).toFixed(1), r: "2.5",
    class: `last ${last.outcome ?? ""}` })));
}

// ---------------------------------------------------------------- admin: start and stop
async function switchLadder(running) {
  const conn = document.getElementById("conn");
  try {
    await api(`/ladder/${game}/${running ? "start" : "stop"}`, { method: "POST" });
  } catch (err) {
    conn.textContent = `not ${running ? "started" : "stopped"} (${err.message})`;
    return;
  }
  refresh();
}

function drawAdmin(state) {
  const slot = document.getElementById("ladder-admin");
  if (!token) { slot.replaceChildren(); return; }
  const button = (label, running) => {
    const b = el("button", { type: "button", id: `ladder-${label}`, "data-action": label,
      title: `${label} the ${gameName(state.game)} ladder (admin)` }, label);
    b.disabled = state.running === running;
    b.addEventListener("click", () => { b.disabled = true; switchLadder(running); });
    return b;
  };
  slot.replaceChildren(button("start", true), button("stop", false));
}

// ---------------------------------------------------------------- drawing
function drawTabs(ladders) {
  document.getElementById("tabs").replaceChildren(...ladders.map((l) =>
    link(el("span", {}, gameName(l.game), l.running ? el("span", { class: "dot" }) : ""),
      { game: l.game, bot: null },
      { class: l.game === game ? "tab current" : "tab", "data-game": l.game,
        title: l.running ? "running" : "stopped" })));
}

function drawSummary(state) {
  const summary = document.getElementById("summary");
  summary.dataset.rated = String(state.rated);
  summary.dataset.running = String(state.running);
  summary.textContent = `${state.running ? "running" : "stopped"} · ${state.rated} games rated`
    + ` · ${state.games_per_minute.toFixed(1)} games/min · ${state.live} live`
    + ` · ${state.queued} queued`;
}

// The batch Elo (one fit over every rated game) and the half width of its 95 % interval.
function batchElo(s) {
  if (s.elo === null || s.elo === undefined) {
    return el("td", { class: "num elo", title: "no rated game yet" }, "—");
  }
  const sign = s.elo > 0 ? "+" : s.elo < 0 ? "−" : "";
  const half = (s.elo_high - s.elo_low) / 2;
  return el("td", { class: "num elo", "data-elo": String(s.elo),
    "data-low": String(s.elo_low), "data-high": String(s.elo_high),
    title: `95 % interval ${s.elo_low.toFixed(0)} … ${s.elo_high.toFixed(0)}` },
  `${sign}${Math.abs(s.elo).toFixed(0)} ± ${half.toFixed(0)}`);
}

function drawStandings(state) {
  const head = ["#", "bot", "rating", "history", "μ ± σ", "Elo (95 %)", "games", "W", "D",
    "L", "failures"];
  const range = ratingRange(histories.bots);
  const rows = state.standings.map((s) => el("tr",
    { "data-bot": s.bot, "data-games": String(s.games), class: s.bot === bot ? "current" : "" },
    el("td", { class: "num" }, String(s.rank)),
    el("td", {}, link(s.bot, { bot: s.bot === bot ? null : s.bot })),
    el("td", { class: "num rating" }, s.rating.toFixed(2)),
    chart(histories.bots.get(s.bot), range),
    el("td", { class: "num" }, `${s.mu.toFixed(1)} ± ${s.sigma.toFixed(1)}`),
    batchElo(s),
    el("td", { class: "num" }, String(s.games)),
    el("td", { class: "num" }, String(s.wins)),
    el("td", { class: "num" }, String(s.draws)),
    el("td", { class: "num" }, String(s.losses)),
    el("td", { class: "failures" }, ...Object.entries(s.failures).sort()
      .map(([kind, n]) => el("span", { class: "fail", "data-kind": kind }, `${kind} ${n}`)))));
  document.getElementById("standings").replaceChildren(
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows));
}

function drawCrosstable(cross) {
  const byRow = new Map(cross.rows.map((r) => [r.bot, new Map(r.results.map((c) =>
    [c.opponent, c]))]));
  const cell = (row, col) => {
    if (row === col) return el("td", { class: "self" }, "—");
    const c = byRow.get(row)?.get(col);
    if (!c || !c.games) return el("td", { "data-row": row, "data-col": col, "data-games": "0" }, "·");
    const share = c.points / c.games; // 0..1: red to green
    return el("td", { "data-row": row, "data-col": col, "data-games": String(c.games),
      title: `${row} scored ${c.points} of ${c.games} against ${col}`,
      style: `background: hsl(${Math.round(share * 120)} 55% 85%)` },
    `${points(c.points)}/${c.games}`);
  };
  document.getElementById("crosstable").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", {}, ""),
      ...cross.bots.map((b, i) => el("th", { title: b }, `${i + 1}`)))),
    el("tbody", {}, ...cross.bots.map((row, i) => el("tr", { "data-bot": row },
      el("th", {}, `${i + 1} ${row}`), ...cross.bots.map((col) => cell(row, col))))));
}

function recentLine(m, botId) {
  const mine = m.seats.find((s) => s.bot_id === botId);
  const other = m.seats.filter((s) => s !== mine).map((s) => s.name).join(", ");
  const outcome = m.status === "finished" ? (mine?.outcome ?? "?")
    : m.live ? "live" : m.status;
  const failure = mine?.failure ? ` (${mine.failure})` : "";
  const when = new Date(m.finished ?? m.created).toLocaleTimeString();
  const target = `./?match=${m.id}`;
  return el("li", { "data-match": m.id },
    el("a", { href: target }, el("span", { class: `outcome ${outcome}` }, outcome + failure),
      ` vs ${other} · ${when}`));
}

async function loadRecent() {
  if (!bot) return null;
  const query = new URLSearchParams({ game, bot, limit: String(RECENT) });
  const page = await api(`/matches?${query}`);
  const found = await Promise.all(page.items.map(async (m) => {
    if (seen.has(m.id)) return seen.get(m.id);
    const full = await api(`/matches/${m.id}`);
    if (!full.live && full.status !== "waiting") seen.set(m.id, full);
    return full;
  }));
  return found;
}

function drawRecent(found, botId) {
  const section = document.getElementById("recent");
  if (!found) { section.replaceChildren(); return; }
  section.replaceChildren(
    el("h2", {}, `Recent matches of ${bot}`),
    found.length ? el("ul", { class: "recent", id: "recent-list" }, ...found.map((m) => recentLine(m, botId)))
      : el("p", { class: "hint" }, "None yet."));
}

// ---------------------------------------------------------------- polling
async function refresh() {
  clearTimeout(timer);
  const mine = ++generation;
  const conn = document.getElementById("conn");
  try {
    const ladders = await api("/ladder");
    if (!ladders.length) {
      if (mine === generation) conn.textContent = "this server runs without a store: no ladder";
      return;
    }
    if (!ladders.some((l) => l.game === game)) {
      game = (ladders.find((l) => l.running) ?? ladders[0]).game; // a running one first
    }
    const state = ladders.find((l) => l.game === game);
    const cross = await api(`/ladder/${game}/crosstable`);
    if (bot && !state.standings.some((s) => s.bot === bot)) bot = null;
    const recent = await loadRecent();
    const history = await loadHistories(state);
    if (mine !== generation) return;
    histories = history;
    drawTabs(ladders);
    drawSummary(state);
    drawAdmin(state);
    drawStandings(state);
    drawCrosstable(cross);
    drawRecent(recent, state.standings.find((s) => s.bot === bot)?.bot_id);
    conn.textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (err) {
    if (mine !== generation) return;
    conn.textContent = `not answering (${err.message}); retrying…`;
  }
  timer = setTimeout(refresh, POLL_MS);
}

games().then(refresh); // the tabs show the games' names
