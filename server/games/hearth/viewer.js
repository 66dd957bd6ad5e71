// Hearth: heroes, mana, hands (card backs when hidden), boards, weapons, secrets, the list
// of plays (clickable: the position after a play), a legend of the markers, the clocks and
// charts of the think times and the heroes' health over the match.
import { clocks, lineChart, thinkText } from "/charts.js";
import { el, moveList } from "/dom.js";

function stat(cls, label, value) {
  return el("span", { class: `stat ${cls}`, title: label }, `${label} ${value}`);
}

function card(c) {
  if (!c.card) return el("div", { class: "card back", title: "hidden card" });
  return el("div", { class: "card", title: c.text ?? "" },
    el("span", { class: "cost" }, String(c.cost)), c.name);
}

// A minion's markers (the legend explains them): a class each, and words in its title.
const MARKS = [
  ["taunt", "taunt", "Taunt: must be attacked first"],
  ["divine_shield", "shield", "Divine Shield: the next damage is ignored"],
  ["frozen", "frozen", "Frozen: cannot attack this turn"],
  ["silenced", "silenced", "Silenced: its text and enchantments are gone"],
];

function minion(m) {
  const marks = MARKS.filter(([key]) => m[key]);
  const damaged = m.max_health !== undefined && m.health < m.max_health;
  const cls = ["minion", ...marks.map(([, c]) => c)].join(" ");
  const title = [m.text ?? "", ...marks.map(([, , words]) => words)].filter(Boolean).join("\n");
  return el("div", { class: cls, title }, el("div", {}, m.name),
    el("div", {}, stat("atk", "⚔", m.atk), " ",
      stat(damaged ? "hp damaged" : "hp", "♥", m.health)));
}

// What the markers mean, beside the board (samples styled as the real thing; no sample
// takes a class the hands are counted by, such as `card`).
function legend() {
  const item = (sample, words) => el("li", {}, sample, " ", words);
  const sample = (cls, text = "") => el("span", { class: `sample ${cls}` }, text);
  return el("details", { class: "legend", id: "legend", open: "" }, el("summary", {}, "Legend"),
    el("ul", {},
      item(sample("minion taunt", "M"), "taunt (thick border)"),
      item(sample("minion shield", "M"), "divine shield (gold glow)"),
      item(sample("minion frozen", "M"), "frozen (blue)"),
      item(sample("minion silenced", "M"), "silenced (struck through)"),
      item(stat("hp damaged", "♥", 2), "health below its maximum"),
      item(stat("atk", "⚔", 3), "attack"),
      item(el("span", { class: "weapon" }, "⚔ ", stat("dur", "durability", 2)),
        "weapon: attack and durability"),
      item(el("span", { class: "secret hidden" }, "?"), "a secret, hidden while the match is live"),
      item(el("span", { class: "secret" }, "Secret"), "a secret, named (admin, or after the end)"),
      item(sample("card-back"), "a card in hand the spectator may not see"),
      item(el("span", { class: "cost" }, "3"), "mana cost"),
      item(sample("hside current", "P"), "the player to act")));
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

function lineText(t, players) {
  if (t.kind === "turn") return `Turn ${t.turn}: ${players[t.player - 1]}`;
  const who = players[t.player - 1] ?? `P${t.player}`;
  const verb = { play: "plays", attack: "attacks with", power: "uses", trigger: "triggers" }[t.kind];
  return `${who} ${verb} ${t.name ?? "a card"}${t.target ? ` → ${t.target}` : ""}`;
}

// Every play of the frames so far, each at the first frame whose ticker has it (by its
// number `n`); oldest first.
function plays(view, players) {
  const seen = new Map();
  view.timeline.forEach((frame, index) => {
    for (const t of frame.state?.ticker ?? []) {
      if (t.n !== undefined && !seen.has(t.n)) seen.set(t.n, { t, index });
    }
  });
  return [...seen.values()].sort((a, b) => a.t.n - b.t.n).map(({ t, index }) => ({
    index, text: lineText(t, players), attrs: t.kind === "turn" ? { class: "turn" } : {} }));
}

function ticker(state, names, view) {
  const numbered = view && state.ticker.every((t) => t.n !== undefined);
  if (!numbered) { // frames stored before the plays were numbered: this frame's, newest first
    return el("ul", { class: "ticker", id: "ticker" },
      ...[...state.ticker].reverse().map((t) =>
        el("li", t.kind === "turn" ? { class: "turn" } : {}, lineText(t, names))));
  }
  return moveList(plays(view, names), view, { class: "moves ticker", id: "ticker" });
}

const SEAT_COLORS = ["var(--BLUE)", "var(--RED)"];

// The clocks and the charts, from every frame so far (the answer that made each frame).
function overTime(names, view) {
  const thinks = [];
  view.timeline.forEach((frame, index) => {
    const think = frame.state?.think;
    if (think && Number.isFinite(think.ms)) thinks.push({ seat: think.seat, ms: think.ms, index });
  });
  const frames = view.timeline.length;
  const thinkChart = lineChart({ id: "think-chart", title: "Think time per decision", frames,
    marker: view.index, format: thinkText,
    series: names.map((name, seat) => ({ label: name, color: SEAT_COLORS[seat],
      points: thinks.filter((t) => t.seat === seat).map((t) => [t.index, t.ms]) })) });
  const health = lineChart({ id: "score-chart", title: "Hero health", frames, marker: view.index,
    series: names.map((name, seat) => ({ label: name, color: SEAT_COLORS[seat],
      points: view.timeline.flatMap((f, i) => {
        const hero = f.state?.players?.[seat]?.hero;
        return hero ? [[i, Math.max(0, hero.health)]] : [];
      }) })) });
  return el("div", { class: "overtime" }, clocks(names, thinks, view.index), thinkChart, health);
}

export function render(root, meta, state, info, view) {
  const [one, two] = state.players;
  const names = state.players.map((p) => p.name);
  root.append(el("div", { class: "hearth" },
    el("div", {},
      el("p", { id: "turn" }, state.over ? "Game over" : `Turn ${state.turn} · ${names[state.current - 1]} to act`
        + (state.full ? "" : " · hands hidden")),
      side(two, state.current === 2), side(one, state.current === 1),
      view?.aside ?? ""), // the page's panel: what the launched bots said at this frame
    el("div", {}, el("h3", {}, "Plays"), ticker(state, names, view), legend())),
  view ? overTime(names, view) : "");
}
