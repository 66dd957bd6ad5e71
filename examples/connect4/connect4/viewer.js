// Connect Four: the 6x7 grid (the last disc outlined), whose turn it is or who won, and
// the moves so far in Pons' notation. `state` comes from connect4/spectate.py.
import { el } from "/dom.js";

const SYMBOLS = ["X", "O"];

function status(state, players) {
  if (state.over) {
    if (state.winner === null || state.winner === undefined) return "Draw: the board is full";
    return `${players[state.winner]} won: four in a row`;
  }
  return `Move ${state.ply + 1}: ${players[state.turn]} (${SYMBOLS[state.turn]}) to move`;
}

function lastText(last) {
  if (!last) return "no move yet";
  const what = `last disc: column ${last.column + 1}, row ${last.row + 1}`;
  if (last.thinkMs === undefined || last.thinkMs === null) return what;
  const ms = last.thinkMs;
  const think = ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
  return el("span", {}, `${what} `, el("span", { class: "c4-think", id: "think",
    "data-ms": String(ms) }, `thought ${think}`));
}

export function render(root, meta, state, info) {
  const rows = meta.rows ?? state.grid.length;
  const columns = meta.columns ?? state.grid[0].length;
  const players = SYMBOLS.map((s, i) => info?.players?.[i] ?? meta.players?.[i] ?? s);
  const lastRow = state.last ? rows - 1 - state.last.row : -1; // the grid's top row first
  const board = el("div", { class: "c4-board", id: "board", "data-ply": String(state.ply) });
  state.grid.forEach((line, r) => {
    [...line].forEach((c, col) => {
      const last = r === lastRow && col === state.last.column;
      board.append(el("div", { class: `c4-cell${c === "." ? "" : ` c4-${c}`}${last ? " c4-last" : ""}`,
        title: `column ${col + 1}, row ${rows - r}` }));
    });
  });
  const numbers = el("div", { class: "c4-columns" },
    ...Array.from({ length: columns }, (_, i) => el("span", {}, String(i + 1))));
  const seats = SYMBOLS.map((symbol, i) => {
    const turn = !state.over && state.turn === i;
    const won = state.over && state.winner === i;
    return el("div", { class: `c4-player${turn ? " c4-turn" : ""}${won ? " c4-won" : ""}`,
      "data-seat": String(i) }, el("span", { class: `c4-disc c4-${symbol}` }), players[i]);
  });
  root.append(el("div", { class: "c4-game" },
    el("div", {}, board, numbers),
    el("div", { class: "c4-side" }, ...seats,
      el("p", { id: "turn" }, status(state, players)),
      el("p", {}, lastText(state.last)),
      el("p", { class: "c4-moves", title: "the moves in Pons' notation (columns 1-7)" },
        state.moves || "—"))));
}
