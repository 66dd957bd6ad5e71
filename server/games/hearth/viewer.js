// Hearth: heroes, mana, hands (card backs when hidden), boards, weapons, secrets, a ticker.
import { el } from "/dom.js";

function stat(cls, label, value) {
  return el("span", { class: `stat ${cls}`, title: label }, `${label} ${value}`);
}

function card(c) {
  if (!c.card) return el("div", { class: "card back", title: "hidden card" });
  return el("div", { class: "card", title: c.text ?? "" },
    el("span", { class: "cost" }, String(c.cost)), c.name);
}

function minion(m) {
  const cls = `minion${m.taunt ? " taunt" : ""}${m.divine_shield ? " shield" : ""}`;
  return el("div", { class: cls, title: m.text ?? "" }, el("div", {}, m.name),
    el("div", {}, stat("atk", "⚔", m.atk), " ", stat("hp", "♥", m.health)));
}

function weapon(w) {
  return el("span", { class: "weapon", title: w.text ?? "", "data-weapon": w.name },
    `${w.name} `, stat("atk", "⚔", w.atk), " ", stat("dur", "durability", w.durability));
}

// A secret: its name when the spectator may know it, else "?" (only how many there are).
function secret(s) {
  if (s.hidden || !s.name) return el("span", { class: "secret hidden", title: "a secret" }, "?");
  return el("span", { class: "secret", title: s.text ?? "" }, s.name);
}

function side(p, current) {
  const secrets = p.secrets ?? [];
  const hero = p.hero;
  return el("section", { class: `hside${current ? " current" : ""}`, "data-player": String(p.player) },
    el("div", { class: "hrow" },
      el("span", { class: "hero" }, `${p.name} — ${hero.name}`),
      stat("hp", "♥", Math.max(0, hero.health)), hero.armor ? stat("armor", "armor", hero.armor) : "",
      hero.atk ? stat("atk", "⚔", hero.atk) : "",
      stat("mana", "mana", `${p.mana}/${p.maxMana}`),
      el("span", { class: "stat" }, `deck ${p.deck}`),
      el("span", { class: "stat", title: p.heroPower.text ?? "" },
        `${p.heroPower.name}${p.heroPower.used ? " (used)" : ""}`),
      p.weapon ? weapon(p.weapon) : "",
      secrets.length ? el("span", { class: "secrets", "data-secrets": String(p.player),
        title: `${secrets.length} secret${secrets.length > 1 ? "s" : ""}` },
        "secrets ", ...secrets.map(secret)) : ""),
    el("div", { class: "hrow hand", "data-hand": String(p.player) }, ...p.hand.map(card)),
    el("div", { class: "hrow boardrow", "data-board": String(p.player) }, ...p.board.map(minion)));
}

function line(t, players) {
  if (t.kind === "turn") return el("li", { class: "turn" }, `Turn ${t.turn}: ${players[t.player - 1]}`);
  const who = players[t.player - 1] ?? `P${t.player}`;
  const verb = { play: "plays", attack: "attacks with", power: "uses", trigger: "triggers" }[t.kind];
  return el("li", {}, `${who} ${verb} ${t.name ?? "a card"}${t.target ? ` → ${t.target}` : ""}`);
}

export function render(root, meta, state, info) {
  const [one, two] = state.players;
  const names = state.players.map((p) => p.name);
  root.append(el("div", { class: "hearth" },
    el("div", {},
      el("p", { id: "turn" }, state.over ? "Game over" : `Turn ${state.turn} · ${names[state.current - 1]} to act`
        + (state.full ? "" : " · hands hidden")),
      side(two, state.current === 2), side(one, state.current === 1)),
    el("div", {}, el("h3", {}, "Plays"),
      el("ul", { class: "ticker", id: "ticker" }, ...[...state.ticker].reverse().map((t) => line(t, names))))));
}
