// The browser table: one person plays seat 0 against the host's random agent, over the host
// protocol (docs/protocol.md) on the WebSocket of the server that served this page. It reads
// only seat 0's own messages (its view, its request, its readable log).
"use strict";

const $ = (id) => document.getElementById(id);
const state = {
  ws: null,
  games: [],
  gameId: null,
  token: null,
  players: 2,
  view: null,
  cards: {},
  request: null, // the `request` message pending for seat 0
  answered: null, // the request last answered, until the next comes
  picked: new Set(),
  over: false,
};

function send(msg) {
  state.ws.send(JSON.stringify(msg));
}

function status(text) {
  $("status").textContent = text;
}

// Names from the rules (`first_or_second`, `hand`) read as words.
function words(name) {
  return String(name ?? "").replace(/_/g, " ");
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "on") for (const [ev, f] of Object.entries(v)) e.addEventListener(ev, f);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c != null) e.append(c);
  return e;
}

function connect() {
  const ws = new WebSocket(`ws://${location.host}/`);
  state.ws = ws;
  ws.onopen = () => send({ type: "hello", protocol: 1 });
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => status("Disconnected from the host: reload the page.");
}

function receive(msg) {
  switch (msg.type) {
    case "welcome": return welcome(msg);
    case "created":
      state.gameId = msg.game_id;
      state.players = msg.players;
      return send({ type: "join", game_id: msg.game_id, seat: 0, log: "readable" });
    case "joined":
      state.token = msg.token;
      return status(`Game ${msg.game_id}: you are P1.`);
    case "view":
      state.view = msg.view;
      state.cards = msg.cards ?? {};
      return render();
    case "log": return log(msg.lines);
    case "request":
      state.request = msg;
      state.answered = null;
      state.picked = new Set();
      // The board changed since the last view: ask for it; options render with it.
      return send({ type: "view", game_id: state.gameId, token: state.token });
    case "game_over": return gameOver(msg);
    case "error":
      status(`Refused: ${msg.message} (${msg.code})`);
      // A refused answer changed nothing: the request is still pending.
      if (!state.request && state.answered && !state.over) {
        state.request = state.answered;
        renderDecision();
      }
      return undefined;
    default: return undefined; // `event`: the readable log tells it
  }
}

function welcome(msg) {
  state.games = msg.games;
  const select = $("game");
  select.replaceChildren(...msg.games.map((g) => el("option", { value: g.game, textContent: g.game })));
  select.onchange = () => {
    const g = state.games.find((x) => x.game === select.value);
    const players = $("players");
    players.min = Math.max(2, g.players[0]);
    players.max = g.players[1];
    players.value = Math.min(Math.max(players.value, players.min), players.max);
  };
  select.onchange();
  $("start").disabled = false;
  status(`Riffle ${msg.riffle_version}: pick a game.`);
}

function start(e) {
  e.preventDefault();
  const players = Number($("players").value);
  const agents = {};
  for (let s = 1; s < players; s++) agents[String(s)] = "random";
  Object.assign(state, { gameId: null, token: null, view: null, request: null, over: false });
  $("log").replaceChildren();
  $("banner").hidden = true;
  $("table").hidden = false;
  const create = { type: "create", game: $("game").value, players, seed: Number($("seed").value) || 0, agents };
  // Some games need a mode for more players (Gundam: battle-royal, team).
  const mode = $("mode").value.trim();
  if (mode) create.mode = mode;
  send(create);
}

function log(lines) {
  const box = $("log");
  for (const line of lines) box.append(el("li", { textContent: line }));
  box.scrollTop = box.scrollHeight;
}

function gameOver(msg) {
  state.over = true;
  state.request = null;
  const won = msg.winners.includes(0);
  const who = msg.winners.map((p) => `P${p + 1}`).join(", ");
  const text = msg.winners.length === 0 ? "A draw" : won ? "You won!" : `${who} won`;
  const banner = $("banner");
  banner.textContent = `Game over: ${text} (${words(msg.reason)}).`;
  banner.hidden = false;
  send({ type: "view", game_id: state.gameId, token: state.token });
}

function playerName(p) {
  return p === 0 ? "P1 (you)" : `P${p + 1} (random)`;
}

function render() {
  const v = state.view;
  if (!v) return;
  $("turn").textContent = v.turn === 0
    ? "Setting up"
    : `Turn ${v.turn}: ${playerName(v.turn_player)}${v.phase ? `, ${words(v.phase)} phase` : ""}`;
  renderBoard(v);
  renderDecision();
}

function renderBoard(v) {
  const owners = [...Array(state.players).keys()];
  const sections = owners.map((p) => {
    const zones = v.zones.filter((z) => z.owner === p && !(p === 0 && z.name === "hand"));
    // The rules' player values; zero ones are mostly bookkeeping.
    const values = Object.entries(v.values?.[p] ?? {}).filter(([, n]) => n !== 0)
      .map(([k, n]) => `${words(k)} ${n}`).join(", ");
    return el("div", { class: p === 0 ? "player you" : "player" },
      el("h3", {}, playerName(p), values ? el("span", { class: "values", textContent: values }) : null),
      el("div", { class: "zones" }, ...zones.map(zoneBox)));
  });
  const shared = v.zones.filter((z) => z.owner == null);
  if (shared.length) {
    sections.push(el("div", { class: "player" }, el("h3", { textContent: "Shared" }),
      el("div", { class: "zones" }, ...shared.map(zoneBox))));
  }
  $("board").replaceChildren(...sections);
  const hand = v.zones.find((z) => z.owner === 0 && z.name === "hand");
  $("hand").replaceChildren(...(hand ? hand.cards.map((c) => cardButton(c)) : []));
}

function zoneBox(z) {
  const seen = z.cards.filter((c) => c.name);
  const hidden = z.count - seen.length;
  return el("div", { class: "zone", "data-zone": z.name },
    el("div", { class: "name", textContent: `${words(z.name)} (${z.count})` }),
    seen.length ? el("div", { class: "cards" }, ...seen.flatMap(withAttachments)) : null,
    hidden > 0 && seen.length > 0 ? el("div", { class: "hidden", textContent: `+${hidden} unseen` }) : null);
}

// A card, then the cards attached to it (a pilot, DON!!) that the seat may see.
function withAttachments(c) {
  const attached = (c.attachments ?? []).filter((a) => a.label).map((a) => cardButton(a, true));
  return [cardButton(c), ...attached];
}

function cardButton(c, attached = false) {
  const stats = ["power", "cost", "hp", "ap", "attack", "health"]
    .filter((k) => c.values?.[k] != null)
    .map((k) => c.values[k]).join("/");
  const classes = ["card"];
  if (c.orientation && c.orientation !== "active") classes.push("rested");
  if (!c.face_up) classes.push("facedown");
  if (attached) classes.push("attached");
  const b = el("button", {
    type: "button",
    class: classes.join(" "),
    "aria-label": `${c.label ?? "hidden card"}${c.face_up ? "" : ", face down"}`,
    on: { mouseenter: () => showCard(c), focus: () => showCard(c), click: () => showCard(c) },
  }, attached ? "↳ " : null, c.label ?? "?", stats ? el("span", { class: "stats", textContent: stats }) : null);
  return b;
}

// Every card of the view with an identity, by object id (attachments too).
function cardsById() {
  const out = new Map();
  const walk = (c) => {
    if (c.id != null) out.set(c.id, c);
    (c.attachments ?? []).forEach(walk);
  };
  for (const z of state.view?.zones ?? []) z.cards.forEach(walk);
  return out;
}

function showCard(c) {
  const printed = state.cards[c.definition ?? c.card] ?? {};
  const facts = Object.entries(c.values ?? {}).map(([k, n]) => `${words(k)} ${n}`);
  for (const [k, set] of Object.entries(c.sets ?? {})) if (set.length) facts.push(`${words(k)}: ${set.map(words).join(", ")}`);
  for (const [k, n] of Object.entries(c.counters ?? {})) facts.push(`${words(k)} ×${n}`);
  facts.push(...(c.flags ?? []).map(words));
  $("card-body").replaceChildren(
    el("h3", { textContent: c.label ?? printed.name ?? "hidden card" }),
    el("div", { class: "meta", textContent: [c.card, words(printed.category), c.orientation, c.face_up ? null : "face down"].filter(Boolean).join(" · ") }),
    facts.length ? el("div", { class: "meta", textContent: facts.join(" · ") }) : null,
    el("p", { class: "text", textContent: printed.text || "(no text)" }));
}

function renderDecision() {
  const box = $("options");
  const pending = state.request;
  box.replaceChildren();
  delete box.dataset.requestId;
  if (!pending) {
    $("prompt").textContent = state.over ? "The game is over." : "Waiting for the other players…";
    return;
  }
  const req = pending.request;
  $("prompt").textContent = `${words(req.prompt)}${req.type === "choose" && req.max !== 1 ? ` (choose ${req.min} to ${req.max})` : ""}`;
  box.dataset.requestId = pending.request_id;
  if (req.type === "number") {
    const input = el("input", { id: "number", type: "number", min: req.min, max: req.max, value: req.min });
    box.append(el("label", {}, `Number (${req.min} to ${req.max}) `, input),
      el("button", { type: "button", id: "confirm", textContent: "Confirm", on: { click: () => answer({ type: "number", value: Number(input.value) }) } }));
    return;
  }
  const single = req.min === 1 && req.max === 1;
  const byId = cardsById();
  req.options.forEach((o, i) => {
    const card = byId.get(o.card) ?? byId.get(o.target);
    const b = el("button", {
      type: "button",
      class: "option",
      textContent: o.label,
      on: {
        click: () => (single ? answer({ type: "choose", indices: [i] }) : toggle(i, b)),
        mouseenter: () => card && showCard(card),
        focus: () => card && showCard(card),
      },
    });
    if (!single) b.setAttribute("aria-pressed", String(state.picked.has(i)));
    box.append(b);
  });
  if (!single) {
    box.append(el("button", { type: "button", id: "confirm", on: { click: () => answer({ type: "choose", indices: [...state.picked].sort((a, b) => a - b) }) } }));
    updateConfirm();
  }
}

function toggle(i, b) {
  if (state.picked.has(i)) state.picked.delete(i);
  else state.picked.add(i);
  b.setAttribute("aria-pressed", String(state.picked.has(i)));
  updateConfirm();
}

function updateConfirm() {
  const req = state.request.request;
  const n = state.picked.size;
  const confirm = $("confirm");
  confirm.textContent = `Confirm (${n} chosen)`;
  confirm.disabled = n < req.min || n > req.max;
}

function answer(response) {
  const pending = state.request;
  if (!pending) return;
  state.request = null;
  state.answered = pending;
  renderDecision();
  send({ type: "respond", game_id: state.gameId, token: state.token, request_id: pending.request_id, response });
}

$("setup").addEventListener("submit", start);
connect();
