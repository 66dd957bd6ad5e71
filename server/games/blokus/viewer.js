// Blokus: the 20x20 board with its coordinates, the last move outlined (with its think
// time), the list of moves, each colour's remaining shapes, points.
import { el, moveList } from "/dom.js";

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

// A move as the list shows it: "R3 BLUE PENTO_L (4,7)", the position being the piece's
// top-left as the Software-Challenge spells it. Frames stored before the round and the
// position were sent: the round of the frame before, the top-left of the cells.
function moveText(last, before) {
  const round = last.round ?? before?.round ?? "?";
  if (last.skip) return `R${round} ${last.color} passed`;
  const x = last.x ?? Math.min(...last.cells.map(([cx]) => cx));
  const y = last.y ?? Math.min(...last.cells.map(([, cy]) => cy));
  return `R${round} ${last.color} ${last.kind} (${x},${y})`;
}

// Each move once, at the first frame that shows it (a result frame repeats the last one).
function moves(view) {
  const items = [];
  let before = null;
  view.timeline.forEach((frame, index) => {
    const state = frame.state;
    if (!state) return;
    if (state.last && (before === null || before.turn !== state.turn)) {
      const think = state.last.thinkMs;
      items.push({ index, attrs: { "data-color": state.last.color },
        text: [el("span", { class: "move-text" }, moveText(state.last, before)), think === undefined || think === null ? ""
          : el("span", { class: "move-think" }, thinkText(think))] });
    }
    before = state;
  });
  return items;
}

// The board with its numbers: x 0-19 along the top, y 0-19 down the side (the
// Software-Challenge's coordinates); each square's title says its (x,y) too.
function boardWithCoordinates(state, size) {
  const last = new Set((state.last?.cells ?? []).map(([x, y]) => y * size + x));
  const board = el("div", { class: "board", id: "board",
    "data-filled": String([...state.board].filter((c) => c !== ".").length) });
  [...state.board].forEach((c, i) => {
    board.append(el("div", { class: `${c === "." ? "" : c}${last.has(i) ? " last" : ""}`,
      title: `(${i % size},${Math.floor(i / size)})` }));
  });
  const numbers = (axis) => el("div", { class: `coords ${axis}`, "data-axis": axis },
    ...Array.from({ length: size }, (_, n) => el("span", {}, String(n))));
  return el("div", { class: "board-frame", id: "board-frame" },
    el("span", { class: "corner" }), numbers("x"), numbers("y"), board);
}

export function render(root, meta, state, info, view) {
  const size = meta.size;
  const board = boardWithCoordinates(state, size);
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
  const list = view ? el("div", { class: "movebox" }, el("h3", {}, "Moves"),
    moveList(moves(view), view, { id: "moves" })) : "";
  root.append(el("div", { class: "blokus" }, board, list,
    el("div", { class: "side" },
      el("div", { class: "teams" }, ...teams),
      el("p", { id: "turn" }, state.over ? `Game over after round ${state.round} · `
        : `Round ${state.round}: ${state.current} (team ${state.currentTeam}) to move · `, move),
      ...colours)));
}
