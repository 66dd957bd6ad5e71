// The games this server hosts (GET /games.json): their names, and the viewer module each
// game's package brings (/games/<id>/viewer.js, exporting render(root, meta, state, info,
// view), docs/viewer.md), and its style sheet, viewer.css.
// The page itself names no game; one without a viewer has its frames shown as they are.
import { el } from "./dom.js";

let listed = null;
const viewers = new Map(); // game id -> Promise of its render function
export const names = new Map(); // game id -> display name, once games() has answered

export function games() {
  listed ??= fetch("/games.json")
    .then((answer) => (answer.ok ? answer.json() : []))
    .catch(() => [])
    .then((list) => {
      for (const game of list) names.set(game.id, game.name);
      return list;
    });
  return listed;
}

export function gameName(id) {
  return names.get(id) ?? id;
}

export function renderFrame(root, meta, state) {
  root.replaceChildren(el("pre", { class: "frame" }, JSON.stringify(state, null, 1)));
}

export function viewerFor(id) {
  if (!viewers.has(id)) {
    viewers.set(id, games().then(async (list) => {
      const game = list.find((g) => g.id === id);
      if (game?.style) {
        document.head.append(el("link", { rel: "stylesheet", href: game.style }));
      }
      const url = game?.viewer;
      if (!url) return renderFrame;
      try {
        return (await import(url)).render ?? renderFrame;
      } catch (error) {
        console.error(`viewer of ${id}`, error);
        return renderFrame;
      }
    }));
  }
  return viewers.get(id);
}
