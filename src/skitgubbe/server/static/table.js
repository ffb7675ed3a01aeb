// The skitgubbe online table.  Everything shown comes from the server's messages for this seat
// (docs/server.md); the rules, the shuffle and the bots run only on the server.
"use strict";

const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANKS = { T: ["10", "10"], J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"], A: ["A", "ace"] };
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

let ws = null, table = null, me = null, you = null, n = 0, retry = 0, options = null;
let roomCode = (params.get("room") || "").toUpperCase();
let timerAt = null, giveUp = false;

function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const kid of kids) e.append(kid);
  return e;
}
function cardText(c) { return (RANKS[c[0]] ? RANKS[c[0]][0] : c[0]) + SUITS[c[1]][0]; }
function cardWords(c) { return (RANKS[c[0]] ? RANKS[c[0]][1] : c[0]) + " of " + SUITS[c[1]][1]; }
function cardSpan(c) {
  return el("span", { class: "card" + ("DH".includes(c[1]) ? " red" : ""), role: "img", "aria-label": cardWords(c),
                      text: cardText(c) });
}
function cards(list) { const f = document.createDocumentFragment(); list.forEach((c, i) => {
  if (i) f.append(" "); f.append(cardSpan(c)); }); return f; }
function name(seat) { return table && table.seats[seat] ? table.seats[seat].name : "seat " + seat; }
function stored() { try { return JSON.parse(localStorage.getItem("skitgubbe:" + roomCode) || "null"); }
                    catch (e) { return null; } }
function status(text) { $("status").textContent = text; }
function show(id) { for (const s of ["lobby", "join", "table"]) $(s).hidden = s !== id; }

async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" },
                                                          body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || "request failed");
  return data;
}

// -- making and joining -------------------------------------------------------------------
function fillPlayers() {
  const p = options.presets.find((x) => x.name === $("make-preset").value);
  const sel = $("make-players"), keep = +sel.value || 3;
  sel.replaceChildren();
  for (let k = p.min_players; k <= p.max_players; k++) sel.append(el("option", { value: k, text: k }));
  sel.value = Math.min(Math.max(keep, p.min_players), p.max_players);
  fillSeats();
}
function fillSeats() {
  const box = $("make-seats");
  box.replaceChildren(el("legend", { text: "The other seats" }));
  for (let s = 1; s < +$("make-players").value; s++) {
    const sel = el("select", { id: "seat-" + s, "data-seat": s });
    sel.append(el("option", { value: "open", text: "a friend (invite)" }));
    for (const b of options.bots) sel.append(el("option", { value: b, text: "bot: " + b }));
    sel.value = options.bots[0];
    box.append(el("label", { text: "Seat " + s + " " }, sel));
  }
}
async function lobby() {
  options = await api("/api/options");
  const pre = $("make-preset");
  for (const p of options.presets) pre.append(el("option", { value: p.name, text: p.name }));
  pre.addEventListener("change", fillPlayers);
  $("make-players").addEventListener("change", fillSeats);
  fillPlayers();
  $("make-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const seats = [...document.querySelectorAll("#make-seats select")].map((s) => s.value);
    const house = $("make-house").value.trim();
    const body = { name: $("make-name").value, players: +$("make-players").value, seats,
                   turn_seconds: +$("make-timer").value };
    if (house) body.house_rules = house; else body.preset = pre.value;
    try {
      const made = await api("/api/rooms", body);
      roomCode = made.room;
      localStorage.setItem("skitgubbe:" + roomCode, JSON.stringify({ player: made.player, token: made.token }));
      history.replaceState(null, "", "/?room=" + roomCode);
      connect();
    } catch (e) { $("make-error").textContent = e.message; }
  });
  show("lobby");
  status("Make a table, or open an invitation link.");
}
function joinForm() {
  $("join-code").textContent = roomCode;
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const j = await api("/api/rooms/" + roomCode + "/join", { name: $("join-name").value });
      localStorage.setItem("skitgubbe:" + roomCode, JSON.stringify({ player: j.player, token: j.token }));
      connect();
    } catch (e) { $("join-error").textContent = e.message; }
  });
  $("watch-go").addEventListener("click", () => connect(true));
  show("join");
  status("Table " + roomCode + ": choose a name to sit down, or watch.");
}

// -- the connection -------------------------------------------------------------------------
function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
function act(move) { $("error").textContent = ""; n += 1; send({ type: "act", n, move }); }

function connect(spectate = false) {
  const seat = stored();
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onopen = () => {
    retry = 0;
    if (seat && !spectate) send({ type: "hello", room: roomCode, player: seat.player, token: seat.token });
    else send({ type: "hello", room: roomCode, spectate: true });
  };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = () => {
    if (giveUp) return;
    status("Connection lost: reconnecting…");
    retry = Math.min(retry + 1, 6);
    setTimeout(() => connect(spectate), 300 * retry);
  };
  show("table");
  $("invite").replaceChildren("Room code ", el("strong", { text: roomCode }), " · invite link: ",
    el("a", { href: "/?room=" + roomCode, text: location.origin + "/?room=" + roomCode }));
}

function receive(msg) {
  if (msg.type === "error") {
    $("error").textContent = msg.message;
    if (!table && (msg.code === "forbidden" || msg.code === "no-room")) {
      // the seat token is not good here (the room is gone, or it was for another room): start again
      giveUp = true;
      localStorage.removeItem("skitgubbe:" + roomCode);
      ws.close();
      status(msg.message + " · open the start page to make or join a table.");
    }
    return;
  }
  if (msg.type === "chat") { addChat(msg); return; }
  if (msg.type === "replay") { showReplay(msg); return; }
  if (msg.type === "pong") return;
  if (msg.type === "sync") {
    you = msg.you; $("log").replaceChildren(); $("chat").replaceChildren();
    msg.chat.forEach(addChat);
    if (you.player !== null) n = Math.max(n, Date.now());  // move numbers keep growing across reconnects
  }
  if (msg.type === "sync" || msg.type === "state") {
    if (table && msg.table.game !== table.game) $("log").replaceChildren();
    table = msg.table; me = msg.me;
    for (const line of msg.lines) $("log").append(el("li", { text: line }));
    $("log").scrollTop = $("log").scrollHeight;
    timerAt = table.timer === null ? null : Date.now() + table.timer * 1000;
    render();
  }
}
function addChat(m) { $("chat").append(el("li", {}, el("strong", { text: m.name + ": " }), m.text));
                      $("chat").scrollTop = $("chat").scrollHeight; }

// -- drawing the table ----------------------------------------------------------------------
function render() {
  const p = table.public;
  const seat = me ? me.seat : null;
  if (table.status === "lobby") {
    status("Waiting for friends: share the invite link.");
  } else if (p && p.loser !== null && table.status === "over") {
    status("Game over: " + name(p.loser) + " is " + p.loser_title + ".");
  } else if (p) {
    const who = p.to_act === seat ? "your turn" : p.to_act >= 0 ? name(p.to_act) + " to act" : "";
    status((p.window.includes(seat) ? "Sluff or say done · " : "") + who);
  }
  $("start").hidden = !(table.status === "lobby" && you && you.player === 0);
  $("again-box").hidden = !(table.status === "over" && me);
  $("leave").hidden = !me || me.left || table.status !== "playing";
  $("reclaim").hidden = !me || !me.left;
  if (!p) { $("seats").replaceChildren(); return; }
  $("phase").textContent = p.rules + " · " + p.phase;
  $("stock").textContent = p.phase === "phase one" ? "stock " + p.stock : "";
  const tr = $("trump");
  tr.replaceChildren("trump: ");
  if (p.trump_suit) {
    tr.append(SUITS[p.trump_suit][0] + " " + SUITS[p.trump_suit][1]);
    const tc = (me && me.trump_card) || p.trump_card;
    if (tc) tr.append(" (", cardSpan(tc), ")");
  } else if (p.trump_holder >= 0) tr.append("not yet known, " + name(p.trump_holder) + " holds the face-down trump card");
  else tr.append("not yet known");
  if (p.exposed) tr.append(" · bottom card ", cardSpan(p.exposed));
  // seats
  $("seats").replaceChildren(...table.seats.map((s, i) => {
    const li = el("li", { class: (i === p.to_act ? "to-act " : "") + (i === seat ? "me" : "") });
    li.append(el("strong", { text: s.name + (i === seat ? " (you)" : "") }));
    const bits = [p.hand_sizes[i] + " in hand"];
    if (p.phase === "phase one") bits.push("pile " + p.piles[i]);
    if (s.bot) bits.push("bot: " + s.bot);
    else if (!s.connected) bits.push("away");
    if (p.out.includes(i)) bits.push("out");
    if (i === p.to_act) bits.push("to act");
    if (p.window.includes(i)) bits.push("may sluff");
    bits.push("goats " + s.goats);
    li.append(el("div", { text: bits.join(" · ") }));
    if (i !== seat && p.known[i].length && p.phase !== "phase one") li.append(el("div", { text: "known: " }, cards(p.known[i])));
    return li;
  }));
  renderTrick(p);
  renderHand(p);
}

function renderTrick(p) {
  const box = $("trick");
  box.replaceChildren();
  if (p.phase === "phase one") {
    box.append(el("div", { text: p.leader >= 0 ? "Trick led by " + name(p.leader) : "No trick yet" }));
    p.rounds.forEach((rnd, k) => {
      if (!rnd.length) return;
      const row = el("div", { class: "round", text: "round " + (k + 1) + ": " });
      rnd.forEach(([s, c], j) => { if (j) row.append(" · "); row.append(name(s) + " ", cardSpan(c)); });
      box.append(row);
    });
    if (p.round_seats.length) box.append(el("div", { text: "still to play: " + p.round_seats.map(name).join(", ") }));
    if (p.sluffs.length) {
      const row = el("div", { text: "sluffed: " });
      p.sluffs.forEach(([s, c], j) => { if (j) row.append(" · "); row.append(name(s) + " ", cardSpan(c)); });
      box.append(row);
    }
    if (p.winner >= 0) box.append(el("div", { text: name(p.winner) + " takes the trick once everyone is done sluffing" }));
  } else if (p.phase === "phase two") {
    if (!p.table.length) box.append(el("div", { text: "Table empty: " + name(p.to_act) + " leads; " + p.kill_at + " plays kill a trick" }));
    else {
      box.append(el("div", { text: p.kill }));
      const ol = el("ol");
      p.table.forEach(([s, cs], i) => ol.append(el("li", { class: "play" }, name(s) + (i ? " beat with " : " led "), cards(cs))));
      box.append(ol);
      if (p.pick_up.length) box.append(el("div", { text: "picking up takes " }, cards(p.pick_up)));
    }
  }
}

function renderHand(p) {
  const hand = $("hand"), moves = $("moves");
  // keep the keyboard focus on the same card or move across updates
  const active = document.activeElement;
  const inside = active && (hand.contains(active) || moves.contains(active));
  const key = inside ? (active.dataset.card || active.dataset.move) : null;
  hand.replaceChildren(); moves.replaceChildren();
  if (inside) setTimeout(() => {
    const again = [...hand.children, ...moves.children].find((b) => (b.dataset.card || b.dataset.move) === key)
      || hand.querySelector("button.legal") || moves.querySelector("button") || hand.querySelector("button");
    if (again) again.focus();
  }, 0);
  if (!me) { hand.append(el("p", { text: "You are watching." })); return; }
  const single = {};
  for (const m of me.legal) {
    const parts = m.move.split(" ");
    if ((m.kind === "play" || m.kind === "sluff") && parts.length === 2 && !single[parts[1]]) single[parts[1]] = m.move;
  }
  for (const c of me.hand) {
    const legal = single[c];
    const b = el("button", { type: "button", class: "card" + ("DH".includes(c[1]) ? " red" : "") + (legal ? " legal" : ""),
                             "aria-label": cardWords(c) + (legal ? (legal.startsWith("sluff") ? ", sluff" : ", play") : ""),
                             "data-card": c, text: cardText(c) });
    // a card that is not a legal move is still sent, so that the server can say why not
    b.addEventListener("click", () => act(legal || "play " + c));
    hand.append(b);
  }
  for (const m of me.legal) {
    const parts = m.move.split(" ");
    if ((m.kind === "play" || m.kind === "sluff") && parts.length === 2) continue;  // the card buttons
    moves.append(el("button", { type: "button", class: "move", "data-move": m.move, text: m.label,
                                onclick: () => act(m.move) }));
  }
}

function showReplay(r) {
  const box = $("replay");
  box.hidden = false;
  const lines = [];
  if (r.complete) r.hands.forEach((h, i) => lines.push(r.names[i] + " was dealt: " + h.map(cardText).join(" ")));
  else lines.push("The deal is still on: only the public moves are shown.");
  r.moves.forEach(([s, m], i) => lines.push((i + 1) + ". " + (s < 0 ? "chance" : r.names[s]) + ": " + m));
  if (r.record) lines.push("", r.record);
  box.textContent = lines.join("\n");
}

setInterval(() => {
  $("timer").textContent = timerAt ? "⏱ " + Math.max(0, Math.ceil((timerAt - Date.now()) / 1000)) + " s" : "";
}, 500);

$("leave").addEventListener("click", () => send({ type: "leave" }));
$("reclaim").addEventListener("click", () => send({ type: "reclaim" }));
$("start").addEventListener("click", () => send({ type: "start" }));
$("again").addEventListener("click", () => send({ type: "again", roving: $("roving").checked }));
$("replay-btn").addEventListener("click", () => send({ type: "replay" }));
$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const t = $("chat-text").value.trim();
  if (t) send({ type: "chat", text: t });
  $("chat-text").value = "";
});

if (!roomCode) lobby().catch((e) => status(e.message));
else if (stored()) connect();
else joinForm();
