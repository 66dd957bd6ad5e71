// Blokus: the 20x20 board with its coordinates, the last move outlined (with its think
// time), the list of moves, each colour's remaining shapes, points, the clocks, and charts
// of the think times and the points over the match.
import { clocks, lineChart, thinkText } from "/charts.js";
import { el, moveList } from "/dom.js";

const CELL = 7; // px per square of a remaining shape

function shape(cells, color) {
  const w = Math.max(...cells.map(([x]) => x)) + 1;
  const h = Math.max(...cells.map(([, y]) => y)) + 1;
  return el("svg", { width: w * CELL, height: h * CELL, viewBox: `0 0 ${w * CELL} ${h * CELL}` },
    ...cells.map(([x, y]) => el("rect", { x: x * CELL, y: y * CELL, width: CELL - 1,
      height: CELL - 1, fill: `var(--${color})` })));
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

// Each move once, at the first frame that shows it (a result frame repeats the last one):
// [{index, last, before}], `before` the state the move was made in (null: not kept).
function history(view) {
  const found = [];
  let before = null;
  view.timeline.forEach((frame, index) => {
    const state = frame.state;
    if (!state) return;
    if (state.last && (before === null || before.turn !== state.turn)) {
      found.push({ index, last: state.last, before });
    }
    before = state;
  });
  return found;
}

function moveItems(moves) {
  return moves.map(({ index, last, before }) => ({ index, attrs: { "data-color": last.color },
    text: [el("span", { class: "move-text" }, moveText(last, before)),
      last.thinkMs === undefined || last.thinkMs === null ? ""
        : el("span", { class: "move-think" }, thinkText(last.thinkMs))] }));
}

// The clocks (a colour's moves count for its team's seat) and the charts over the match.
function overTime(moves, meta, info, view) {
  const teams = Object.entries(meta.teams);
  const seatOf = new Map(teams.flatMap(([, colors], seat) => colors.map((c) => [c, seat])));
  const seats = teams.map(([team], seat) => info.players[seat] ?? team);
  const thinks = moves.filter((m) => Number.isFinite(m.last.thinkMs)).map((m) => ({
    seat: seatOf.get(m.last.color), ms: m.last.thinkMs, index: m.index, color: m.last.color }));
  const frames = view.timeline.length;
  const cssColor = (color) => `var(--${color})`;
  const thinkChart = lineChart({ id: "think-chart", title: "Think time per move",
    frames, marker: view.index, format: thinkText,
    series: meta.colors.map((color) => ({ label: color, color: cssColor(color),
      points: thinks.filter((t) => t.color === color).map((t) => [t.index, t.ms]) })) });
  const points = lineChart({ id: "score-chart", title: "Points per colour", frames,
    marker: view.index,
    series: meta.colors.map((color) => ({ label: color, color: cssColor(color),
      points: view.timeline.flatMap((f, i) => (f.state?.points ? [[i, f.state.points[color]]]
        : [])) })) });
  return el("div", { class: "overtime" }, clocks(seats, thinks, view.index), thinkChart, points);
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
  const moves = view ? history(view) : [];
  // `view.aside`: the page's panel for beside the board (what the launched bots said at
  // this move), above the move list.
  const list = view ? el("div", { class: "movebox" }, view.aside ?? "", el("h3", {}, "Moves"),
    moveList(moveItems(moves), view, { id: "moves" })) : "";
  root.append(el("div", { class: "blokus" }, board, list,
    el("div", { class: "side" },
      el("div", { class: "teams" }, ...teams),
      el("p", { id: "turn" }, state.over ? `Game over after round ${state.round} · `
        : `Round ${state.round}: ${state.current} (team ${state.currentTeam}) to move · `, move),
      ...colours)),
  view ? overTime(moves, meta, info, view) : "");
}
