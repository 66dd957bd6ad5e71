// The sequential tests page: the server's SPRT tests (GET /api/tests, newest first) and,
// for the one picked, its LLR over the games as an SVG chart (GET /api/tests/{id}: the
// `history`) beside its figures in the block fastchess prints. A running test picked is
// read again every 2 s; the list every 5 s otherwise. With the admin token: a Stop button
// on a running test and a form that starts one. The URL names the test: tests.html?test=<id>.
import { adminButton, adminToken, authHeaders, el } from "./dom.js";
import { gameName, games } from "./games.js";

const LIVE_MS = 2000; // the picked test runs
const POLL_MS = 5000; // otherwise
const LIMIT = 50; // tests listed
const SVG = "http://www.w3.org/2000/svg";

const token = adminToken(); // before the URL is read: an old ?token= is cut from it
const params = new URLSearchParams(location.search);
adminButton(token);
let selected = /^\d+$/.test(params.get("test") ?? "") ? Number(params.get("test")) : null;
let timer = null;
let generation = 0; // a refresh that a newer one overtook draws nothing

const STATUS = { running: "running", h1: "H1 accepted", h0: "H0 accepted",
  inconclusive: "inconclusive", stopped: "stopped" };

class ApiError extends Error {
  constructor(path, status, detail) {
    super(`${path}: ${status} ${detail}`.trim());
    this.status = status;
    this.detail = detail;
  }
}

async function api(path, init = {}) {
  const answer = await fetch(`/api${path}`,
    { ...init, headers: { ...authHeaders(token), ...(init.headers ?? {}) } });
  if (!answer.ok) {
    let detail = "";
    try { detail = (await answer.json()).detail ?? ""; } catch { /* not JSON */ }
    throw new ApiError(path, answer.status, typeof detail === "string" ? detail : "");
  }
  return JSON.parse(await answer.text(), exactSeed);
}

// A seed is up to 2^63 - 1, past a double's integers: kept as its digits where the browser
// hands a reviver the source text (JSON.parse source text access), else shown only when exact.
function exactSeed(key, value, context) {
  if (key !== "seed" || typeof value !== "number" || Number.isSafeInteger(value)) return value;
  return context?.source ?? value;
}

const shownSeed = (seed) => (typeof seed === "string" || Number.isSafeInteger(seed)
  ? `, seed ${seed}` : "");

function here(changes) {
  const url = new URL(location.href);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) url.searchParams.delete(key); else url.searchParams.set(key, value);
  }
  return url;
}

function pick(id) {
  selected = id;
  history.replaceState(null, "", here({ test: id === null ? null : String(id) }));
  refresh();
}

// ---------------------------------------------------------------- figures as text
// As `gauntlet sprt` prints them (server/commands/sprt.py): two decimals, "+/-" the half
// of the 95 % interval.
const fixed = (x, digits = 2) => x.toFixed(digits);
const pm = (value, ci) => `${fixed(value)} +/- ${fixed((ci[1] - ci[0]) / 2)}`;
const half = (ci) => (ci[1] - ci[0]) / 2;

function llrLine(t) {
  return `LLR: ${fixed(t.llr)} (${fixed(t.progress, 1)}%) (${fixed(t.lower)}, `
    + `${fixed(t.upper)}) [${fixed(t.elo0)}, ${fixed(t.elo1)}]`;
}

function figureLines(t) {
  const lines = [
    ["llr", llrLine(t)],
    ["ptnml", `Ptnml(0-2): [${t.pentanomial.join(", ")}], pairs: ${t.pairs}, games: ${t.games}`],
    ["wdl", `W: ${t.wins}, D: ${t.draws}, L: ${t.losses}`],
  ];
  if (t.elo !== null && t.elo_ci && t.nelo !== null && t.nelo_ci) {
    lines.push(["elo", `Elo: ${pm(t.elo, t.elo_ci)}, nElo: ${pm(t.nelo, t.nelo_ci)}, `
      + `LOS: ${fixed(100 * t.los)} %`]);
  } else {
    lines.push(["elo", "Elo: no pair counted yet"]);
  }
  if (t.stopped_elo !== null && t.stopped_elo_ci) {
    lines.push(["stopped", `Elo (median-unbiased, the test stopped): ${fixed(t.stopped_elo)} `
      + `[${fixed(t.stopped_elo_ci[0])}, ${fixed(t.stopped_elo_ci[1])}]`]);
  }
  lines.push(["left", `Pairs left out: ${t.incomplete} incomplete, ${t.cancelled} cancelled`
    + ` · playing: ${t.playing}`]);
  const decided = t.decided_at !== null ? ` after ${t.decided_at} games` : "";
  lines.push(["status", `Status: ${STATUS[t.status] ?? t.status}${decided}`]);
  if (t.reason) lines.push(["reason", `Reason: ${t.reason}`]);
  lines.push(["setup", `Model: ${t.model}, α ${t.alpha}, β ${t.beta}, max games `
    + `${t.max_games}, concurrency ${t.concurrency}`
    + shownSeed(t.seed)]);
  return lines;
}

// ---------------------------------------------------------------- the chart
function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function step(span, ticks) { // a round step (1, 2 or 5 times a power of ten) for ~ticks ticks
  const raw = span / ticks;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
}

const W = 640;
const H = 320;
const M = { left: 52, right: 64, top: 14, bottom: 40 };

function chart(t) {
  const points = t.history ?? [[0, 0]];
  const maxGames = Math.max(2, ...points.map((p) => p[0]));
  const llrs = points.map((p) => p[1]);
  let lo = Math.min(t.lower, ...llrs);
  let hi = Math.max(t.upper, ...llrs);
  const pad = (hi - lo) * 0.08;
  lo -= pad; hi += pad;
  const x = (games) => M.left + (games / maxGames) * (W - M.left - M.right);
  const y = (llr) => M.top + ((hi - llr) / (hi - lo)) * (H - M.top - M.bottom);
  const at = (v) => v.toFixed(1);
  const root = svg("svg", { id: "chart", class: "chart", viewBox: `0 0 ${W} ${H}`,
    role: "img", "aria-label": `LLR over ${t.games} games` });
  root.append(svg("rect", { class: "plot", x: M.left, y: M.top, width: W - M.left - M.right,
    height: H - M.top - M.bottom }));

  // x axis: games
  const xStep = Math.max(2, step(maxGames, 6));
  for (let g = 0; g <= maxGames + 1e-9; g += xStep) {
    root.append(svg("line", { class: "tick", x1: at(x(g)), x2: at(x(g)), y1: H - M.bottom,
      y2: H - M.bottom + 4 }));
    root.append(svg("text", { class: "tick-label", x: at(x(g)), y: H - M.bottom + 16,
      "text-anchor": "middle" }, String(g)));
  }
  root.append(svg("text", { class: "axis-title", x: at(x(maxGames / 2)), y: H - 6,
    "text-anchor": "middle" }, "games"));
  // y axis: LLR
  const yStep = step(hi - lo, 6);
  for (let v = Math.ceil(lo / yStep) * yStep; v <= hi + 1e-9; v += yStep) {
    const value = Math.abs(v) < 1e-9 ? 0 : v;
    root.append(svg("line", { class: "grid-line", x1: M.left, x2: W - M.right, y1: at(y(value)),
      y2: at(y(value)) }));
    root.append(svg("text", { class: "tick-label", x: M.left - 6, y: at(y(value) + 4),
      "text-anchor": "end" }, String(Number(value.toFixed(6)))));
  }
  root.append(svg("text", { class: "axis-title", x: 14, y: at(y((lo + hi) / 2)),
    "text-anchor": "middle", transform: `rotate(-90 14 ${at(y((lo + hi) / 2))})` }, "LLR"));

  root.append(svg("line", { class: "zero", x1: M.left, x2: W - M.right, y1: at(y(0)),
    y2: at(y(0)) }));
  for (const [bound, value, label] of [["upper", t.upper, "H1"], ["lower", t.lower, "H0"]]) {
    root.append(svg("line", { class: `bound ${bound}`, "data-bound": bound,
      "data-value": value, x1: M.left, x2: W - M.right, y1: at(y(value)), y2: at(y(value)) }));
    root.append(svg("text", { class: `bound-label ${bound}`, x: W - M.right + 4,
      y: at(y(value) + 4) }, `${label} ${fixed(value)}`));
  }
  if (t.decided_at !== null) {
    root.append(svg("line", { class: "decided", x1: at(x(t.decided_at)),
      x2: at(x(t.decided_at)), y1: M.top, y2: H - M.bottom }));
  }
  root.append(svg("polyline", { class: "llr", "data-points": points.length,
    points: points.map(([g, v]) => `${at(x(g))},${at(y(v))}`).join(" ") }));
  const [lastGames, lastLlr] = points[points.length - 1];
  const last = svg("circle", { class: "last", cx: at(x(lastGames)), cy: at(y(lastLlr)), r: 3 });
  last.append(svg("title", {}, `${lastGames} games: LLR ${fixed(lastLlr)}`));
  root.append(last);
  return root;
}

// ---------------------------------------------------------------- the list
function drawList(page) {
  const head = ["#", "A vs B", "game", "status", "LLR (bounds)", "progress", "games", "Elo"];
  const rows = page.items.map((t) => {
    const a = el("a", { href: here({ test: String(t.id) }).search }, String(t.id));
    const row = el("tr", { "data-test": String(t.id), "data-status": t.status,
      class: t.id === selected ? "current" : "" },
    el("td", { class: "num" }, a),
    el("td", {}, `${t.a} vs ${t.b}`),
    el("td", {}, gameName(t.game)),
    el("td", {}, el("span", { class: `sstatus ${t.status}` }, STATUS[t.status] ?? t.status)),
    el("td", { class: "num llr" }, `${fixed(t.llr)} (${fixed(t.lower)}, ${fixed(t.upper)})`),
    el("td", { class: "num" }, `${fixed(t.progress, 1)}%`),
    el("td", { class: "num" }, String(t.games)),
    el("td", { class: "num" },
      t.elo !== null && t.elo_ci ? `${fixed(t.elo, 1)} ± ${fixed(half(t.elo_ci), 1)}` : "—"));
    row.addEventListener("click", (ev) => { ev.preventDefault(); pick(t.id); });
    return row;
  });
  document.getElementById("tests").replaceChildren(
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows));
  const summary = document.getElementById("summary");
  summary.dataset.total = String(page.total);
  summary.textContent = !page.total ? "No test yet."
    : page.total > page.items.length ? `The newest ${page.items.length} of ${page.total} tests.`
      : `${page.total} test${page.total === 1 ? "" : "s"}.`;
}

// ---------------------------------------------------------------- the test picked
let stopButton = null;

function drawDetail(t) {
  const detail = document.getElementById("detail");
  if (!t) {
    detail.removeAttribute("data-test");
    detail.replaceChildren(selected === null ? ""
      : el("p", { class: "hint" }, `No test ${selected} here.`));
    return;
  }
  if (detail.dataset.test !== String(t.id)) { // a new pick: its frame, drawn once
    stopButton = null;
    if (token) {
      stopButton = el("button", { type: "button", id: "stop", class: "stop" }, "Stop");
      stopButton.addEventListener("click", () => stop(t.id));
    }
    detail.replaceChildren(
      el("h2", { id: "detail-title" }),
      el("div", { class: "sprt-detail" }, el("div", { id: "chart-box", class: "chart-box" }),
        el("div", {}, el("div", { id: "figures", class: "figures" }),
          el("p", { class: "actions" }, stopButton ?? "",
            el("a", { href: `/api/tests/${t.id}/pairs`, class: "pairs" }, "its pairs (JSON)")))));
    detail.dataset.test = String(t.id);
  }
  detail.dataset.status = t.status;
  detail.dataset.games = String(t.games);
  document.getElementById("detail-title").textContent =
    `Test ${t.id}: ${t.a} vs ${t.b} · ${gameName(t.game)} · ${STATUS[t.status] ?? t.status}`;
  document.getElementById("chart-box").replaceChildren(chart(t));
  document.getElementById("figures").replaceChildren(...figureLines(t).map(([key, text]) =>
    el("div", { "data-line": key }, text)));
  if (stopButton) {
    stopButton.hidden = t.status !== "running";
    if (t.status !== "running") stopButton.disabled = false;
  }
}

async function stop(id) {
  if (!stopButton) return;
  stopButton.disabled = true;
  try {
    await api(`/tests/${id}/stop`, { method: "POST" });
  } catch (err) {
    document.getElementById("conn").textContent = `stop: ${err.message}`;
    stopButton.disabled = false;
  }
  refresh();
}

// ---------------------------------------------------------------- starting a test (admin)
let botsOf = null; // the game whose bots the form lists (or is asking for)

async function fillBots(game) {
  if (game === botsOf) return;
  botsOf = game;
  let bots;
  try {
    bots = await api(`/bots?game=${encodeURIComponent(game)}`);
  } catch (err) {
    if (game === botsOf) botsOf = null; // asked again on the next change
    throw err;
  }
  if (game !== botsOf) return; // another game was picked meanwhile
  for (const [id, index] of [["start-a", 0], ["start-b", 1]]) {
    const select = document.getElementById(id);
    select.replaceChildren(...bots.map((b) => el("option", { value: b.name }, b.name)));
    if (bots.length > index) select.selectedIndex = index;
  }
}

async function setUpForm() {
  document.getElementById("start-section").hidden = false;
  const form = document.getElementById("start");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const body = { game: data.get("game"), a: data.get("a"), b: data.get("b") };
    for (const key of ["elo0", "elo1", "alpha", "beta"]) body[key] = Number(data.get(key));
    body.max_games = Number.parseInt(data.get("max_games"), 10);
    const submit = document.getElementById("start-submit");
    submit.disabled = true;
    document.getElementById("start-error").textContent = "";
    try {
      const made = await api("/tests", { method: "POST", body: JSON.stringify(body),
        headers: { "Content-Type": "application/json" } });
      pick(made.id);
    } catch (err) {
      showFormError(err);
    } finally {
      submit.disabled = false;
    }
  });
  const gameSelect = document.getElementById("start-game");
  const list = await games();
  gameSelect.replaceChildren(...list.map((g) => el("option", { value: g.id }, g.name)));
  gameSelect.addEventListener("change", () => fillBots(gameSelect.value).catch(showFormError));
  if (list.length) await fillBots(gameSelect.value);
}

function showFormError(err) {
  document.getElementById("start-error").textContent = err.detail || err.message;
}

// ---------------------------------------------------------------- polling
async function refresh() {
  clearTimeout(timer);
  const mine = ++generation;
  const conn = document.getElementById("conn");
  let wait = POLL_MS;
  try {
    const page = await api(`/tests?limit=${LIMIT}`);
    if (selected === null && page.items.length) { // the newest running one, else the newest
      selected = (page.items.find((t) => t.status === "running") ?? page.items[0]).id;
    }
    let test = null;
    if (selected !== null) {
      try {
        test = await api(`/tests/${selected}`);
      } catch (err) {
        if (err.status !== 404 && err.status !== 422) throw err;
      }
    }
    if (mine !== generation) return;
    drawList(page);
    drawDetail(test);
    if (test?.status === "running") wait = LIVE_MS;
    conn.textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (err) {
    if (mine !== generation) return;
    if (err.status === 503) {
      conn.textContent = "this server runs without a store: no tests";
      return;
    }
    conn.textContent = `not answering (${err.message}); retrying…`;
  }
  timer = setTimeout(refresh, wait);
}

if (token) setUpForm().catch(showFormError);
games().then(refresh); // the list shows the games' names
