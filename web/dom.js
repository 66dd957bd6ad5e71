// Small DOM helpers shared by the page and the game renderers.

export function el(tag, attrs = {}, ...children) {
  const ns = tag === "svg" || tag === "rect" ? "http://www.w3.org/2000/svg" : null;
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) {
    if (child === null || child === undefined || child === "") continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function wsUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}
