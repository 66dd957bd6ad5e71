// The ladder page: per game (a tab each) the standings and the crosstable, polled from
// /api/ladder every few seconds; a bot's recent matches link to the match viewer.
// The URL names the game and the bot: ladder.html?game=<id>&bot=<name>.
import { adminButton, adminToken, authHeaders, el } from "./dom.js";
import { gameName, games } from "./games.js";

const POLL_MS = 3000;
const RECENT = 10; // matches listed for the picked bot

const token = adminToken(); // before the URL is read: an old ?token= is cut from it
const params = new URLSearchParams(location.search);
adminButton(token);
let game = params.get("game");
let bot = params.get("bot");
let timer = null;
let generation = 0; // a refresh that a newer one overtook draws nothing
const seen = new Map(); // match id -> GET /api/matches/{id} of a match that is over

async function api(path) {
  const answer = await fetch(`/api${path}`, { headers: authHeaders(token) });
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
  const head = ["#", "bot", "rating", "μ ± σ", "Elo (95 %)", "games", "W", "D", "L",
    "failures"];
  const rows = state.standings.map((s) => el("tr",
    { "data-bot": s.bot, "data-games": String(s.games), class: s.bot === bot ? "current" : "" },
    el("td", { class: "num" }, String(s.rank)),
    el("td", {}, link(s.bot, { bot: s.bot === bot ? null : s.bot })),
    el("td", { class: "num rating" }, s.rating.toFixed(2)),
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
    if (mine !== generation) return;
    drawTabs(ladders);
    drawSummary(state);
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
