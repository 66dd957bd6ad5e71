// The clocks and the small charts a game's viewer draws under its board, from the frames
// the page keeps (no library: inline SVG, nothing fetched).
import { el } from "./dom.js";

// How long a seat thought: "85 ms", "1.24 s".
export function thinkText(ms) {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

// Each seat's think time so far. `seats`: the seats' names; `thinks`: [{seat, ms, index}]
// (index: the frame the answer made); `upto`: the frame shown (later answers not counted).
export function clocks(seats, thinks, upto) {
  const rows = seats.map((name, seat) => {
    const mine = thinks.filter((t) => t.seat === seat && t.index <= upto).map((t) => t.ms);
    const total = mine.reduce((a, b) => a + b, 0);
    const cells = mine.length
      ? [String(mine.length), thinkText(total), thinkText(Math.round(total / mine.length)),
        thinkText(Math.max(...mine))]
      : ["0", "–", "–", "–"];
    return el("tr", { "data-seat": String(seat), "data-total-ms": String(total) },
      el("th", {}, name), ...cells.map((c) => el("td", {}, c)));
  });
  return el("table", { class: "clocks", id: "clocks" },
    el("caption", {}, "Clocks (think time so far)"),
    el("thead", {}, el("tr", {}, ...["seat", "moves", "total", "mean", "longest"]
      .map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows));
}

const W = 320;
const H = 120;
const PAD = { left: 34, right: 8, top: 8, bottom: 16 };

// A line chart over the match. `series`: [{label, color, points: [[frame index, value]]}];
// `frames`: how many frames the match has so far; `marker`: the frame shown (a vertical
// line); `format`: a value as the axis says it.
export function lineChart({ id, title, series, frames, marker, format = String }) {
  const values = series.flatMap((s) => s.points.map(([, v]) => v));
  const top = Math.max(1, ...values);
  const xs = (i) => PAD.left + (W - PAD.left - PAD.right) * (frames > 1 ? i / (frames - 1) : 0);
  const ys = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / top);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, width: String(W), height: String(H),
    class: "mini", role: "img", "aria-label": title },
  el("rect", { x: PAD.left, y: PAD.top, width: W - PAD.left - PAD.right,
    height: H - PAD.top - PAD.bottom, class: "plot" }),
  el("text", { x: PAD.left - 3, y: PAD.top + 8, class: "tick-label", "text-anchor": "end" },
    format(top)),
  el("text", { x: PAD.left - 3, y: H - PAD.bottom, class: "tick-label", "text-anchor": "end" },
    format(0)),
  el("text", { x: W - PAD.right, y: H - 3, class: "tick-label", "text-anchor": "end" },
    `${frames} frame${frames === 1 ? "" : "s"}`),
  ...series.filter((s) => s.points.length).map((s) => el("polyline", {
    class: "series", "data-series": s.label, style: `stroke: ${s.color}`, fill: "none",
    points: s.points.map(([i, v]) => `${xs(i).toFixed(1)},${ys(v).toFixed(1)}`).join(" ") })),
  el("line", { class: "marker", x1: xs(marker), x2: xs(marker), y1: PAD.top,
    y2: H - PAD.bottom }));
  const key = el("div", { class: "chart-key" }, ...series.map((s) =>
    el("span", {}, el("span", { style: `color: ${s.color}` }, "■ "), s.label)));
  return el("figure", { class: "minichart", id }, el("figcaption", {}, title), svg, key);
}
