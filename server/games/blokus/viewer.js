// Blokus: the 20x20 board, the last move outlined (with its think time), each colour's
// remaining shapes, points.
import { el } from "/dom.js";

const CELL = 7; // px per square of a remaining shape

function shape(cells, color) {
  const w = Math.max(...cells.map(([x]) => x)) + 1;
  const h = Math.max(...cells.map(([, y]) => y)) + 1;
  return el("svg", { width: w * CELL, height: h * CELL, viewBox: `0 0 ${w * CELL} ${h * CELL}` },
    ...cells.map(([x, y]) => el("rect", { x: x * CELL, y: y * CELL, width: CELL - 1,
      height: CELL - 1, fill: `var(--${color})` })));
}

// How long the seat thought about a move: "85 ms", "1.24 s".
function thinkText(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

function lastMove(last) {
  if (!last) return "no move yet";
  const what = last.skip ? `${last.color} passed` : `${last.color} placed ${last.kind}`;
  if (last.thinkMs === undefined || last.thinkMs === null) return what;
  return el("span", { class: "lastmove" }, `${what} `,
    el("span", { class: "think", id: "think", "data-ms": String(last.thinkMs),
      title: "think time: from the request to the answer" }, `thought ${thinkText(last.thinkMs)}`));
}

export function render(root, meta, state, info) {
  const size = meta.size;
  const last = new Set((state.last?.cells ?? []).map(([x, y]) => y * size + x));
  const board = el("div", { class: "board", id: "board",
    "data-filled": String([...state.board].filter((c) => c !== ".").length) });
  [...state.board].forEach((c, i) => {
    board.append(el("div", { class: `${c === "." ? "" : c}${last.has(i) ? " last" : ""}` }));
  });
  const teams = Object.entries(meta.teams).map(([team, colors], i) =>
    el("div", { class: "team", "data-team": team },
      el("div", {}, `${info.players[i] ?? team} (${colors.join(" + ")})`),
      el("div", { class: "pts" }, String(state.teams[team]))));
  const colours = meta.colors.map((color) => {
    const out = !state.valid.includes(color);
    const cls = `colour${state.current === color ? " turn" : ""}${out ? " out" : ""}`;
    return el("div", { class: cls, "data-color": color },
      el("h3", {}, el("span", { style: `color: var(--${color})` }, "■"),
        `${color} · ${state.points[color]} points · ${state.remaining[color].length} left`),
      el("div", { class: "pieces" },
        ...state.remaining[color].map((name) => shape(meta.shapes[name], color))));
  });
  const move = lastMove(state.last);
  root.append(el("div", { class: "blokus" }, board,
    el("div", { class: "side" },
      el("div", { class: "teams" }, ...teams),
      el("p", { id: "turn" }, state.over ? `Game over after round ${state.round} · `
        : `Round ${state.round}: ${state.current} (team ${state.currentTeam}) to move · `, move),
      ...colours)));
}
