// Small DOM helpers shared by the page and the game renderers.

const SVG_TAGS = new Set(["svg", "rect", "polyline", "line", "text", "g", "circle"]);

export function el(tag, attrs = {}, ...children) {
  const ns = SVG_TAGS.has(tag) ? "http://www.w3.org/2000/svg" : null;
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) {
    if (child === null || child === undefined || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A match's moves as a list a game's viewer draws beside its board. `items`: [{index, text,
// attrs}] in match order (`text`: a string, a node, or a list of them), `index` the timeline frame that shows the position after the move;
// `view`: the page's {index, go} (the frame shown, and how to show another). A click shows
// that move's position; the move of the frame shown is marked `current` (later ones
// `future`) and scrolled into the list's view, so it follows the scrubber and the keys.
export function moveList(items, view, attrs = {}) {
  let current = -1;
  items.forEach((item, i) => { if (item.index <= view.index) current = i; });
  const list = el("ol", { class: "moves", ...attrs });
  items.forEach((item, i) => {
    const state = i === current ? "current" : item.index > view.index ? "future" : "";
    const button = el("button", { type: "button", "data-index": String(item.index),
      title: "show the position after this move" }, ...[item.text].flat());
    button.addEventListener("click", () => view.go(item.index));
    const attrs = item.attrs ?? {};
    list.append(el("li", { ...attrs, class: [state, attrs.class].filter(Boolean).join(" ") },
      button));
  });
  if (!items.length) list.append(el("li", { class: "empty" }, "no moves yet"));
  // Once the list is on the page (the caller attaches it right after this returns).
  requestAnimationFrame(() => {
    const mark = list.querySelector("li.current");
    if (mark) list.scrollTop = mark.offsetTop - (list.clientHeight - mark.offsetHeight) / 2;
  });
  return list;
}

export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

// ---------------------------------------------------------------- the admin token
// Kept in this tab's sessionStorage and sent in headers, never in a URL (histories,
// shared "link to this move" URLs, Referer). fetch: `Authorization: Bearer`; a WebSocket
// (whose headers a page cannot set): the subprotocol `token.<UTF-8 hex>` next to
// `gauntlet`. An old link's `?token=` is moved into the tab and cut from the address.
const TOKEN_KEY = "gauntlet-admin-token";

export function adminToken() {
  const url = new URL(location.href);
  const given = url.searchParams.get("token");
  if (given !== null) {
    url.searchParams.delete("token");
    history.replaceState(null, "", url);
    if (given) sessionStorage.setItem(TOKEN_KEY, given);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

export function authHeaders(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

export function wsProtocols(token) {
  if (!token) return [];
  const hex = Array.from(new TextEncoder().encode(token),
    (b) => b.toString(16).padStart(2, "0")).join("");
  return ["gauntlet", `token.${hex}`];
}

// The header's "admin" button: asks for the token (or forgets it), then reloads.
export function adminButton(token) {
  const button = document.getElementById("admin");
  if (!button) return;
  button.textContent = token ? "admin ✓" : "admin";
  button.title = token ? "the admin token is set in this tab; click to forget it"
    : "set the admin token (data/admin-token) for this tab: hidden cards, seeds";
  button.addEventListener("click", () => {
    if (token) {
      sessionStorage.removeItem(TOKEN_KEY);
    } else {
      const typed = prompt("Admin token (kept in this tab only)");
      if (!typed) return;
      sessionStorage.setItem(TOKEN_KEY, typed.trim());
    }
    location.reload();
  });
}
