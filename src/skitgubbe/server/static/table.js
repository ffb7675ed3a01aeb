// The skitgubbe online table.  Everything shown comes from the server's messages for this seat
// (docs/server.md); the rules, the shuffle and the bots run only on the server.  This file keeps
// the connection, the state and the hand; render.js draws the table, motion.js animates it from
// the events, replay.js steps through a finished deal, cards.js draws the cards.

import { cardEl, cardText, cardWords, cardsText, installSprite, tidy } from "./cards.js";
import { banner, bannerEnds, backsFly, flyAway, flyIn, motion, sleep } from "./motion.js";
import { announcement, clockwise, el, lastTrickEl, ordinal, phaseText, pilesInto, plateEl, ring, trickInto } from "./render.js";
import { LANGUAGES, lang, rememberLanguage, t, tn, translatePage, useLanguage, wantedLanguage } from "./i18n.js";
import { lobby as openLobby } from "./lobby.js";
import { openReplay, redrawReplay } from "./replay.js";
import { explainTerms, initHowto } from "./howto.js";
import { updateCoach } from "./coach.js";
import { initLessons } from "./lessons.js";
import { cardOptions, playOf, runWhy, tapOutcome } from "./taps.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const KEYS = { stock: "t", pass: "d", pick: "u", store: "s", exchange: "x" };

const S = {
  ws: null, table: null, me: null, you: null, options: null,
  n: 0, retry: 0, synced: false, giveUp: false, spectate: false,
  pending: null,            // the move sent and not yet answered: {n, move}
  selected: new Set(),      // cards chosen for a run or an equal play
  runMode: false,           // the Run toggle: taps choose cards (taps.js)
  queue: [], busy: false,   // server updates waiting to be shown (each may animate)
  current: [], last: null,  // the trick as the events told it, and the last trick collected
  timerAt: null, resultSeen: -1, wantReplay: params.get("replay"),
};
let roomCode = (params.get("room") || "").toUpperCase().trim();

// -- small helpers -------------------------------------------------------------------------------
const pub = () => (S.table ? S.table.public : null);
const mySeat = () => (S.me ? S.me.seat : null);
const title = () => (pub() ? pub().loser_title.replace(/^the /, "") : t("loser"));
/** Seat ``seat``'s name ("Bo"), or the English marker "You" for the reader's own (announcement()). */
function nameOf(seat) {
  if (seat === mySeat()) return "You";
  return seatName(seat);
}
/** Seat ``seat``'s name at this table, never "You". */
function seatName(seat) {
  return S.table && S.table.seats[seat] ? S.table.seats[seat].name : t("Seat {n}", { n: seat });
}
/** A reason from the server in the page's notation.  The server names the seats in the reader's
 * language; an older one wrote English "seat 2", which English text still turns into names. */
function words(text) {
  const tidied = tidy(text);
  if (lang() !== "en") return tidied;
  return tidied.replace(/\bseat (\d+)/g, (_, k) => +k === mySeat() ? "you" : seatName(+k));
}
function stored() {
  try { return JSON.parse(localStorage.getItem("skitgubbe:" + roomCode) || "null"); } catch (e) { return null; }
}
function status(text) { $("status").textContent = text; explainTerms($("status")); }
function show(id) { for (const s of ["lobby", "join", "missing", "game"]) $(s).hidden = s !== id; document.body.dataset.page = id; }

/** The server's refusal ``code`` in the reader's words; ``message`` (the server's English text,
 * most exact in English) is shown as it is for English readers and for a code the page does not know. */
function refusal(code, message) {
  if (lang() === "en" && message) return message;
  const known = errorText(code);
  return known || message || t("the server refused");
}
function errorText(code) {
  switch (code) {
    case "malformed": return t("The server could not read that message.");
    case "too-large": return t("That is too long for the server.");
    case "too-deep": return t("The server could not read that message.");
    case "unknown-type": return t("The server does not know that message.");
    case "bad-field": return t("Something in that was not accepted: check what you typed.");
    case "rate-limited": return t("Too many messages: wait a moment and try again.");
    case "no-hello": return t("Not connected to the table yet: try again in a moment.");
    case "no-room": return t("There is no such table: it may have closed.");
    case "forbidden": return t("That seat is not yours.");
    case "spectator": return t("Spectators watch: only the players can do that.");
    case "not-playing": return t("The deal is not being played now.");
    case "left": return t("A bot plays for you: take your seat back first.");
    case "replayed": return t("That move was sent already.");
    case "bad-move": return t("That is not a move.");
    case "illegal": return t("That move is not allowed now.");
    case "not-lobby": return t("The deal has started already.");
    case "not-over": return t("The deal is not over yet.");
    case "bad-request": return t("The server refused that request.");
    case "server": return t("The server failed: nothing changed. Try again.");
    case "bad-rules": return t("These rules are not allowed.");
    case "bad-table": return t("That table cannot be made.");
    case "full": return t("The table is full.");
    case "name-taken": return t("Someone is already at this table with that name: choose another.");
    case "too-many-rooms": return t("Too many tables made from here: wait a while and try again.");
    case "server-full": return t("The server is full: try again later.");
    case "too-many-connections": return t("Too many connections from here: close a tab and try again.");
    case "bad-origin": return t("The server refused a page from another site.");
    case "no-deal": return t("There is no such finished deal.");
    case "bad-record": return t("That is not a game record.");
    case "bad-host": return t("The server refused that address.");
    case "bad-content-type": return t("The server refused that request.");
    case "too-many-misses": return t("Too many tables that do not exist: wait a minute and try again.");
    case "busy": return t("The server is busy: try again in a moment.");
    case "room-moving": return t("The table is moving to another server: try again in a moment.");
    case "moved": return t("The table has moved to another server: reconnecting…");
    case "corrupt": return t("That deal's stored record is damaged.");
    case "no-language": return t("The server does not speak that language.");
    default: return null;
  }
}
/** ``path`` asking for the reader's language. */
const withLang = (path) => path + (path.includes("?") ? "&" : "?") + "lang=" + lang();

async function api(path, body) {
  let r;
  try {
    r = await fetch(withLang(path), body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" },
                                                                body: JSON.stringify(body) });
  } catch (e) { throw Object.assign(new Error(t("the server cannot be reached: check the connection and try again")), { code: "offline" }); }
  let data = {};
  try { data = await r.json(); } catch (e) { /* an answer that is not JSON */ }
  if (!r.ok) {
    const message = data.message || t("the server refused: {status}", { status: r.status });
    throw Object.assign(new Error(refusal(data.error, message)), { code: data.error, status: r.status, serverMessage: data.message });
  }
  return data;
}
function botLabel(name) { return (S.options && S.options.bot_labels && S.options.bot_labels[name]) || name; }

// -- making a table: the lobby (lobby.js) -----------------------------------------------------------------
/** Sit down at the table just made (`made`: POST /api/rooms or /api/twotables's answer) as `name`. */
function enter(made, name) {
  roomCode = made.room;
  localStorage.setItem("skitgubbe:name", name);
  localStorage.setItem("skitgubbe:" + roomCode, JSON.stringify({ player: made.player, token: made.token }));
  history.replaceState(null, "", "/?room=" + roomCode);
  connect();
}
const lobby = () => openLobby({ S, api, show, status, enter });

// -- two linked tables (the Flurst page): made from the lobby, players moved between rounds -------------
/** Where this player sits in the session's next round, or null (not there yet, or a spectator). */
function nextTable() {
  const ses = S.table && S.table.session;
  if (!ses || !ses.next || !S.you || S.you.player === null) return null;
  return ses.next[S.you.player] || null;
}
function goNextTable() {
  const goes = nextTable(), seat = stored();
  if (!goes || !seat) return;
  localStorage.setItem("skitgubbe:" + goes.room, JSON.stringify({ player: goes.player, token: seat.token }));
  location.href = "/?room=" + goes.room;
}
function sessionLines(ses) {
  const out = [];
  const winners = ses.table === "winners table";
  if (!ses.next) {
    out.push(winners
      ? t("Two tables, round {round}: this is the winners table. When the losers table has finished too, the winners table's {title} moves down and the losers table's first player out moves up.", { round: ses.round, title: title() })
      : t("Two tables, round {round}: this is the losers table. When the winners table has finished too, the winners table's {title} moves down and the losers table's first player out moves up.", { round: ses.round, title: title() }));
  } else {
    const m = ses.moves[ses.round - 1];
    if (m && m.down) out.push(t("{down} moves down to the losers table; {up} moves up to the winners table.", { down: m.down, up: m.up }));
    else out.push(t("Nobody changes tables this time."));
    const goes = nextTable();
    if (goes) {
      const there = goes.table === "winners table";
      out.push(goes.table === ses.table ? (there ? t("You stay at the winners table.") : t("You stay at the losers table."))
        : there ? t("You move to the winners table.") : t("You move to the losers table."));
    }
  }
  return out;
}

// -- replays that outlive their table: a deal's permanent link, an uploaded record ------------------------
async function storedReplay(deal) {
  try {
    const r = await api("/api/deals/" + encodeURIComponent(deal));
    status(t("Replay of a finished deal: {names}", { names: r.names.join(", ") }));
    $("lobby").hidden = true;
    openReplay(r, { room: null, me: 0, onClose: () => {
      history.replaceState(null, "", "/");
      show("lobby");
      status(t("Make a table, or open an invitation link."));
    } });
  } catch (e) {
    S.redraw = () => storedReplay(deal);
    show("missing");
    $("missing-title").textContent = t("No such deal");
    $("missing-text").textContent = t("There is no finished deal {deal} on this server ({why}). Its link may be mistyped.", { deal, why: e.message });
    status(t("No such deal."));
  }
}

// -- joining by invitation ---------------------------------------------------------------------------
/** The join page's words about the room: ``info`` is the answer of GET /api/rooms/{code}. */
function joinWords(info) {
  const seats = info.open ? tn("{n} seat open", "{n} seats open", info.open)
    : info.status === "lobby" ? t("no seat open") : t("the deal has started: you can watch");
  $("join-about").textContent = tn("{rules}, {n} player · {seats}", "{rules}, {n} players · {seats}", info.players,
                                   { rules: info.rules, seats });
  // each seat as the room info names it: a player, an "open seat" (yours to take), a bot
  $("join-seats").replaceChildren(...info.seats.map((s, i) => el("li", { class: info.kinds ? info.kinds[i] : "", text: s })));
  if (!info.open) { $("join-go").disabled = true; $("join-name").disabled = true; }
}
function missing(message) {
  S.redraw = () => missing(message);
  show("missing");
  $("missing-text").textContent = message
    ? t("There is no table {code} on this server ({why}). Its link may be mistyped, or the table was closed after an hour without play.", { code: roomCode, why: message })
    : t("There is no table {code} on this server. Its link may be mistyped, or the table was closed after an hour without play.", { code: roomCode });
  status(t("No such table."));
}
async function joinPage() {
  let info;
  try { info = await api("/api/rooms/" + encodeURIComponent(roomCode)); } catch (e) {
    if (e.status === 404 || e.code === "no-room") { missing(); return; }
    $("join-error").textContent = e.message;
  }
  S.options = S.options || await api("/api/options").catch(() => null);
  $("join-code").textContent = roomCode;
  if (info) joinWords(info);
  // another language: the room's words again from the server (its seats' words are in the language asked)
  S.redraw = async () => {
    if (info) joinWords(await api("/api/rooms/" + encodeURIComponent(roomCode)).catch(() => info));
    status(t("Table {code}: choose a name to sit down, or watch.", { code: roomCode }));
  };
  $("join-name").value = localStorage.getItem("skitgubbe:name") || "";
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = $("join-name").value.trim();
    if (!name) { $("join-error").textContent = t("Give your name: 1 to 24 characters."); $("join-name").focus(); return; }
    try {
      const j = await api("/api/rooms/" + roomCode + "/join", { name });
      localStorage.setItem("skitgubbe:name", name);
      localStorage.setItem("skitgubbe:" + roomCode, JSON.stringify({ player: j.player, token: j.token }));
      connect();
    } catch (e) {
      if (e.code === "no-room") { missing(); return; }
      $("join-error").textContent = e.message;   // a name taken, a full table: the server's own words
      $("join-name").focus();
    }
  });
  $("watch-go").addEventListener("click", () => connect(true));
  show("join");
  status(t("Table {code}: choose a name to sit down, or watch.", { code: roomCode }));
}

// -- the connection -------------------------------------------------------------------------------------
function online() { return S.ws && S.ws.readyState === 1 && S.synced; }
function send(msg) {
  if (S.ws && S.ws.readyState === 1) { S.ws.send(JSON.stringify(msg)); return true; }
  showError(t("Not connected: reconnecting… try again in a moment."));
  return false;
}
function act(move) {
  if (!online()) { showError(t("Not connected: your move was not sent. Wait until the table is back.")); return; }
  if (S.pending) { showError(t("Your last move is still on its way.")); return; }
  showError("");
  S.n = Math.max(S.n + 1, Date.now());
  S.pending = { n: S.n, move };
  S.selected.clear();
  S.runMode = false;
  send({ type: "act", n: S.n, move });
  renderDock();
}
function showError(text) { $("error").textContent = words(text || ""); explainTerms($("error")); }

function setConn(state) {
  const c = $("conn");
  c.className = "conn " + state;
  c.dataset.state = state;
  c.textContent = state === "down" ? t("Reconnecting…") : state === "lost" ? t("Disconnected") : "";
  document.body.classList.toggle("offline", state !== "up");
  if (S.table) renderDock();
}

function connect(spectate = false) {
  S.spectate = spectate;
  S.redraw = null;  // the table's own drawing follows the language (render)
  const seat = stored();
  if (!S.options) api("/api/options").then((o) => { S.options = o; if (S.table) render(); }).catch(() => {});
  // the room in the address: a proxy in front of several workers routes by it (docs/server.md)
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host
    + "/ws?room=" + encodeURIComponent(roomCode));
  S.ws = ws;
  ws.onopen = () => {
    // the reader's language (English, the server's default, goes unsaid)
    const speak = lang() === "en" ? {} : { lang: lang() };
    if (seat && !spectate) ws.send(JSON.stringify({ type: "hello", room: roomCode, player: seat.player, token: seat.token, ...speak }));
    else ws.send(JSON.stringify({ type: "hello", room: roomCode, spectate: true, ...speak }));
  };
  ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    S.synced = false;
    if (S.giveUp) { setConn("lost"); return; }
    setConn("down");
    // 4001: the table moved to another worker; 1006: the connection broke (its worker died). The
    // first try is at once, the next ones wait longer and longer (a table synced resets the count)
    const atOnce = (ev.code === 4001 || ev.code === 1006) && S.retry === 0;
    S.retry = Math.min(S.retry + 1, 8);
    setTimeout(() => { if (S.ws === ws) connect(spectate); }, atOnce ? 0 : 250 * S.retry);
  };
  show("game");
  $("room-tag").textContent = t("Table {code}", { code: roomCode });
}

function receive(msg) {
  if (msg.type === "error") {
    if (!S.table && (msg.code === "forbidden" || msg.code === "no-room")) {
      // the seat token is not good here (the table is gone, or it was for another table)
      S.giveUp = true;
      localStorage.removeItem("skitgubbe:" + roomCode);
      S.ws.close();
      if (msg.code === "no-room") missing(lang() === "en" ? msg.message : "");
      else { status(t("That seat is not yours: join again or watch.")); joinPage(); }
      return;
    }
    if (msg.n !== undefined && S.pending && msg.n === S.pending.n) {
      S.pending = null;
      if (msg.code === "replayed") { renderDock(); return; }   // it had arrived before the connection broke
    }
    showError(msg.said || refusal(msg.code, msg.message));  // "said": the rules' reason in our language
    if (S.table) renderDock();
    return;
  }
  if (msg.type === "chat") { addChat(msg); return; }
  if (msg.type === "replay") { gotReplay(msg); return; }
  if (msg.type === "pong") return;
  if (msg.type === "sync") {
    S.queue = [];
    S.you = msg.you;
    S.synced = true;
    S.retry = 0;
    S.n = Math.max(S.n, Date.now());
    $("log").replaceChildren(); $("chat").replaceChildren();
    msg.chat.forEach(addChat);
    S.current = []; S.last = null;
    track(msg.events);
    apply(msg);
    render();
    setConn("up");
    if (S.pending) {  // a move sent as the connection broke: send it again (the server refuses a repeat)
      const p = S.pending;
      S.ws.send(JSON.stringify({ type: "act", n: p.n, move: p.move }));
    }
    if (S.wantReplay && S.table.status === "over") { send({ type: "replay" }); }
    return;
  }
  if (msg.type === "state") {
    S.queue.push(msg);
    if (!S.busy) pump();
  }
}

async function pump() {
  S.busy = true;
  while (S.queue.length) {
    const msg = S.queue.shift();
    motion.speed = S.queue.length > 1 ? 0.4 : 1;
    try { await step(msg); } catch (e) { console.error(e); apply(msg); render(); }
  }
  S.busy = false;
}

/** The news line under the trick: the last line of the narration (held by ``step`` until the cards land). */
function tick() { if (S.ticker !== undefined) explainTerms(Object.assign($("ticker"), { textContent: S.ticker })); }

function apply(msg, holdNews = false) {
  const newGame = S.table && msg.table.game !== S.table.game;
  if (newGame) { $("log").replaceChildren(); S.selected.clear(); S.runMode = false; }
  S.table = msg.table; S.me = msg.me;
  if (msg.ack !== undefined && S.pending && msg.ack === S.pending.n) S.pending = null;
  for (const line of msg.lines) $("log").append(explainTerms(el("li", { text: tidy(line) }), { focusable: false }));
  $("log").scrollTop = $("log").scrollHeight;
  if (msg.lines.length) S.ticker = tidy(msg.lines[msg.lines.length - 1]);
  if (!holdNews) tick();
  S.timerAt = S.table.timer === null ? null : Date.now() + S.table.timer * 1000;
  if (S.table.status !== "playing") S.pending = null;
}

// -- the events: the trick as it happened, and what to animate -----------------------------------------
/** Follow the events: the plays of the trick on the table, and each trick collected (won, killed,
 * picked up), which is returned. */
function track(events) {
  const done = [];
  for (const ev of events) {
    const play = { seat: ev.seat, cards: ev.cards, kind: ev.kind };
    if (["play", "stock", "sluff", "beat"].includes(ev.kind)) S.current.push(play);
    else if (ev.kind === "lead") S.current = [play];
    else if (ev.kind === "win" || ev.kind === "kill") {
      S.last = { kind: ev.kind, seat: ev.seat, plays: S.current, cards: ev.cards };
      done.push(S.last); S.current = [];
    } else if (ev.kind === "pick-up") {
      const took = new Set(ev.cards);
      S.last = { kind: ev.kind, seat: ev.seat, cards: ev.cards, plays: S.current.filter((p) => p.cards.some((c) => took.has(c))) };
      done.push(S.last);
      S.current = S.current.map((p) => ({ ...p, cards: p.cards.filter((c) => !took.has(c)) })).filter((p) => p.cards.length);
    } else if (["end-one", "take-back", "tie-deal", "split", "deal"].includes(ev.kind)) S.current = [];
  }
  $("last-btn").disabled = !S.last;
  return done;
}

function snapshot() {
  const r = (e) => (e ? e.getBoundingClientRect() : null);
  const plates = {};
  document.querySelectorAll("#seats .plate").forEach((p) => { plates[p.dataset.seat] = r(p); });
  if (mySeat() !== null) plates[mySeat()] = r($("my-plate"));
  const hand = {};
  document.querySelectorAll("#hand .card").forEach((b) => { hand[b.dataset.card] = r(b); });
  return { plates, hand, center: new Set([...document.querySelectorAll("#trick .play")].map((p) => p.dataset.key)),
           stock: r(document.querySelector("#piles .stack")), trick: r($("trick")) };
}
const plateRect = (seat) => {
  const e = seat === mySeat() ? $("my-plate") : document.querySelector(`#seats .plate[data-seat="${seat}"]`);
  return e ? e.getBoundingClientRect() : null;
};

async function step(msg) {
  const before = snapshot();
  const cols = track(msg.events);
  // a word about the trick before is stale once the next play starts, or the trick is collected
  if (cols.length || msg.events.some((e) => PLAYS.has(e.kind))) bannerEnds();
  const animate = motion.on && document.visibilityState === "visible" && S.table && S.table.public && S.queue.length < 3;
  apply(msg, animate);
  if (animate && cols.length) {
    render({ collection: cols[0], holdNews: true });
    for (let k = 0; k < cols.length; k++) {
      if (k) renderCenter({ collection: cols[k] });
      await arrive($("trick"), before, msg.events);
      await sleep(cols[k].kind === "win" ? 900 : 700);
      const to = cols[k].kind === "kill" ? null : plateRect(cols[k].seat);
      const cards = [...$("trick").querySelectorAll(".card")];
      cards.forEach((c) => { c.style.visibility = "hidden"; });
      await flyAway(cards, to, { fade: cols[k].kind === "kill" });
    }
    renderCenter();
  } else {
    render({ holdNews: animate });
  }
  if (animate) {
    await Promise.all([arrive($("trick"), before, msg.events), draws(before, msg.events)]);
    renderStatus();  // the cards have landed: now the status line and the news line say what happened
    tick();
  }
  announce(msg.events);
}

/** The plays now in ``box`` that were not on the table before fly in from their seats. */
function arrive(box, before, events) {
  const turned = new Set(events.filter((e) => e.kind === "stock").map((e) => e.seat + ":" + e.cards.join(" ")));
  const runs = [];
  box.querySelectorAll(".play").forEach((p) => {
    if (before.center.has(p.dataset.key)) return;
    before.center.add(p.dataset.key);
    const seat = +p.dataset.seat;
    let from = before.plates[seat];
    if (turned.has(p.dataset.key)) from = before.stock;
    else if (seat === mySeat()) {
      const c = p.querySelector(".card");
      from = (c && before.hand[c.dataset.card]) || from;
    }
    p.style.zIndex = "0";  // in flight under the plays at rest (their TO BEAT badges stay readable)
    runs.push(flyIn(p, from).then(() => { p.style.zIndex = ""; }));
  });
  return Promise.all(runs);
}

/** Cards drawn or dealt: your own fly in face up from the stock, the others' as backs. */
function draws(before, events) {
  const runs = [];
  const back = document.querySelector("#piles .pile-card") || document.querySelector(".fan .card");
  const mine = new Set();
  for (const ev of events) {
    if (!["draw", "reserve-draw", "deal", "dreck-share", "dreck-dealt", "trump-drawn"].includes(ev.kind)) continue;
    const from = ev.kind.startsWith("dreck") || ev.kind === "deal" ? before.trick : before.stock;
    const seats = ev.kind === "dreck-dealt" ? ev.seats : [ev.seat];
    for (const seat of seats) {
      if (seat === mySeat()) ev.cards.forEach((c) => mine.add(c));
      else if (seat >= 0) runs.push(backsFly(Math.max(1, Math.min(ev.n, 5)), from, plateRect(seat), back));
    }
  }
  document.querySelectorAll("#hand .card").forEach((b) => {
    if (mine.has(b.dataset.card) && !before.hand[b.dataset.card]) runs.push(flyIn(b, before.stock || before.trick, { scale: 0.8 }));
  });
  return Promise.all(runs);
}

const PLAYS = new Set(["play", "lead", "beat", "stock", "sluff"]);

/** A word across the table for what matters most in these events (also without motion). */
function announce(events) {
  const a = announcement(events, nameOf, !!(pub() && pub().phase === "game over"));
  if (a.lines.length) banner(a.lines, a);
}

// -- drawing -------------------------------------------------------------------------------------------
function ctx(extra = {}) {
  const p = pub();
  const seat = mySeat();
  let timer = null;
  if (S.timerAt !== null && S.table.turn_seconds && !(p && p.winner >= 0)) timer = Math.max(0, Math.ceil((S.timerAt - Date.now()) / 1000));
  return { pub: p, seats: S.table.seats, me: seat, title: title(), timer, trumpCard: S.me ? S.me.trump_card : null,
           lastTrick: S.last, pairs: p && p.first_phase === "pairs", ...extra };
}

function render(opts = {}) {
  const t = S.table;
  if (!t) return;
  if (!opts.holdNews) renderStatus();  // (held while a card flies: the news shows when it lands)
  const lobbyTime = t.status === "lobby" || !t.public;
  $("waiting").hidden = !lobbyTime;
  $("center").hidden = lobbyTime;
  $("seats").hidden = lobbyTime;
  document.body.dataset.status = t.status;
  document.body.classList.toggle("spectator", !S.me);
  if (lobbyTime) renderWaiting();
  else { renderSeats(); renderCenter(opts); }
  renderDock();
  renderSide();
  renderResult();
  updateCoach(S);
}

function renderStatus() {
  const tab = S.table, p = tab.public, seat = mySeat();
  let text = "", mine = false;
  if (tab.status === "lobby") text = t("Waiting for players");
  else if (tab.status === "over" && p) {
    text = p.loser === null ? t("The deal was abandoned") : p.loser === seat ? t("You are {title}", { title: p.loser_title })
      : t("{name} is {title}", { name: seatName(p.loser), title: p.loser_title });
  } else if (p) {
    const canPlay = S.me && S.me.legal.some((m) => m.kind !== "sluff" && m.kind !== "pass");
    if (S.me && S.me.left) text = t("A bot plays for you");
    else if (p.window.includes(seat) && !canPlay) {
      // every seat with cards is asked (the window tells nobody who can sluff): say which this is
      text = S.me.legal.some((m) => m.kind === "sluff") ? t("Sluff, or say you are done") : t("Nothing to sluff: say you are done");
      mine = true;
    }
    else if (p.to_act === seat) {
      mine = true;
      text = p.phase === "phase two" ? (p.table.length ? t("Your turn: beat {cards} or pick up", { cards: cardsText(p.to_beat) })
                                                       : t("Your turn: lead"))
                                     : t("Your turn: play a card");
    } else if (p.to_act >= 0) text = t("{name} to play", { name: seatName(p.to_act) });
    else if (p.to_act === -1) text = t("Dealing the dreck…");
  }
  status(text);
  document.body.classList.toggle("my-turn", mine && online());
  document.title = (mine ? t("● Your turn · ") : "") + "Skitgubbe" + (tab.room ? " · " + tab.room : "");
  $("room-tag").textContent = t("Table {code} · {rules}", { code: tab.room, rules: tab.rules });
}

function renderSeats() {
  const t = S.table, p = t.public, n = p.players;
  const bottom = mySeat() !== null ? mySeat() : 0;
  const others = clockwise(bottom, n).slice(1);
  const spots = ring(others.length);
  const c = ctx();
  const box = $("seats");
  box.dataset.count = others.length;
  box.replaceChildren(...others.map((seat, k) => {
    const plate = plateEl(seat, c);
    plate.style.setProperty("--x", spots[k][0].toFixed(1) + "%");
    plate.style.setProperty("--y", spots[k][1].toFixed(1) + "%");
    if (spots[k][1] < 25) plate.classList.add("high");  // grows downwards, not off the table
    return plate;
  }));
  if (mySeat() === null) box.append(Object.assign(plateEl(bottom, c), { style: "--x: 50%; --y: 88%" }));
}

function renderCenter(opts = {}) {
  const c = ctx({ stockButton: legalMove("stock") ? () => act("stock") : null });
  pilesInto($("piles"), c);
  $("phase-line").textContent = phaseText(c);
  if (opts.collection) {
    const box = $("trick");
    box.replaceChildren(lastTrickEl(opts.collection, c));
    const col = opts.collection, name = seatName(col.seat), mine = col.seat === mySeat(), cards = cardsText(col.cards);
    const note = box.querySelector(".note");
    if (note) {
      note.textContent = col.kind === "win" ? (mine ? t("You take the trick") : t("{name} takes the trick", { name }))
        : col.kind === "kill" ? (mine ? t("You killed the trick") : t("{name} killed the trick", { name }))
        : mine ? t("You picked up {cards}", { cards }) : t("{name} picked up {cards}", { name, cards });
    }
  } else {
    trickInto($("trick"), c);
  }
  fitTrick();
}

/** Smaller table cards while the trick would not fit the middle of the table (big tables, wars). */
function fitTrick() {
  const trick = $("trick"), felt = $("felt");
  const narrow = window.matchMedia("(max-width: 760px)").matches;
  // on a phone the trick fills the felt above your hand: the room is what is left there
  const dock = $("dock").hidden ? 0 : $("dock").getBoundingClientRect().height;
  const room = narrow ? Math.max(150, window.innerHeight - dock - trick.getBoundingClientRect().top - 40) : felt.clientHeight * 0.5;
  trick.style.flexGrow = "0";  // (measured at the height of its cards, not of the felt it fills)
  // (on a phone also no play wrapped under the others of its row while a smaller card would not)
  const oneLine = () => [...trick.querySelectorAll(".round, .table-plays")].every((r) =>
    new Set([...r.querySelectorAll(":scope > .play")].map((e) => e.offsetTop)).size <= 1);
  for (const tw of narrow ? [84, 76, 68, 60, 56, 50, 44, 38] : [62, 54, 46, 40, 34]) {
    trick.style.setProperty("--tw", tw + "px");
    if (trick.scrollHeight <= room && (!narrow || tw <= 56 || oneLine())) break;
  }
  trick.style.flexGrow = "";
}

function renderWaiting() {
  const tab = S.table, box = $("waiting");
  const link = location.origin + "/?room=" + tab.room;
  const list = el("ul", { class: "wait-seats" });
  tab.seats.forEach((s, i) => {
    let what;
    if (s.open) what = t("open: waiting for a friend");
    else if (s.bot) what = t("bot: {name}", { name: botLabel(s.bot) });
    else what = s.connected ? t("here") : t("joined, not connected");
    const me = S.you && S.you.player === s.player;
    list.append(el("li", { class: (s.open ? "open" : s.bot ? "bot" : "person") + (s.connected ? " connected" : "") },
      el("span", { class: "seat-no", text: t("Seat {n}", { n: i + 1 }) }),
      el("strong", { text: s.open ? "—" : me ? t("{name} (you)", { name: s.name }) : s.name }), el("span", { class: "what", text: what })));
  });
  const copy = el("button", { type: "button", id: "copy-link", onclick: () => copyLink(link) }, t("Copy"));
  const kids = [el("h2", { id: "waiting-title", text: t("Waiting for players") }),
    el("p", { text: tn("{rules} · {n} seat", "{rules} · {n} seats", tab.players, { rules: tab.rules }) }), list,
    el("div", { class: "invite" }, el("label", { for: "invite-link", text: t("Invite link") }),
      el("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }), copy),
    el("p", { id: "copy-note", class: "muted", "aria-live": "polite" })];
  if (tab.session) {  // two tables: this table's link above, the other's here, for the people who sit there
    const ses = tab.session, k = ses.rooms.indexOf(tab.room), otherCode = ses.rooms[1 - k];
    const otherLink = location.origin + "/?room=" + otherCode;
    kids.splice(1, 0, el("p", { class: "session-note", text: sessionLines(ses)[0] }));
    kids.push(el("div", { class: "invite" }, el("label", { for: "other-link", text: k ? t("The winners table's link") : t("The losers table's link") }),
      el("input", { id: "other-link", readonly: true, value: otherLink, onfocus: (e) => e.target.select() })));
  }
  if (S.you && S.you.player === 0) {
    kids.push(el("button", { type: "button", id: "start", class: "primary", onclick: () => send({ type: "start" }) },
                 tab.seats.some((s) => s.open) ? t("Start now (bots take the open seats)") : t("Start")));
  } else {
    kids.push(el("p", { class: "muted", text: t("The deal starts when every seat is taken, or when {name} starts it.", { name: tab.seats[0].name }) }));
  }
  const focused = document.activeElement && document.activeElement.id;
  box.replaceChildren(...kids);
  if (focused && $(focused) && box.contains($(focused))) $(focused).focus();
}
async function copyLink(link) {
  let ok = false;
  try { await navigator.clipboard.writeText(link); ok = true; } catch (e) {
    const i = $("invite-link"); i.select(); try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
  }
  $("copy-note").textContent = ok ? t("Copied: send it to your friends.") : t("Select the link and copy it.");
}

// -- your hand and moves ----------------------------------------------------------------------------------
function legalMove(kind) { return S.me ? S.me.legal.find((m) => m.kind === kind) : undefined; }

/** Per card of the hand: its one-card move (play, or sluff out of turn) and whether it is part of a
 * legal play of several cards (a run, or equal cards). */
function cardMoves() {
  if (!S.me) return {};
  const p = pub();
  return cardOptions(legalMoves(), !!(p && p.to_act === mySeat()));
}
const legalMoves = () => (S.me ? S.me.legal.map((m) => m.move) : []);
function selectionMove() {
  if (!S.me || !S.selected.size) return null;
  return playOf(legalMoves(), [...S.selected]);
}
function canAct() { return online() && S.me && !S.me.left && !S.pending && S.table.status === "playing"; }
function whyCard(c) {
  if (!S.me || S.table.status !== "playing") return "";
  const why = S.me.why || {};
  const o = cardMoves()[c] || {};
  const text = (o.single && why[o.single]) || why["play " + c] || why["sluff " + c] ||
    (o.multi ? t("part of a run you may play: choose its cards, then Play") : "");
  return text ? t("{card}: {why}", { card: cardText(c), why: words(text) }) : "";
}
function hint(text) { $("hint").textContent = S.table && S.table.status === "over" ? "" : text; explainTerms($("hint")); }

function renderDock() {
  if (!S.table) return;
  const p = pub();
  const dock = $("dock");
  dock.hidden = !p || S.table.status === "lobby";
  if (dock.hidden) return;
  const seat = mySeat();
  // your seat
  const plate = $("my-plate");
  if (seat !== null) {
    const fresh = plateEl(seat, ctx());
    fresh.id = "my-plate";
    fresh.classList.add("my-plate");
    fresh.querySelector(".plate-hand")?.remove();
    plate.replaceWith(fresh);
  } else {
    plate.replaceChildren(el("p", { text: t("You are watching: every card you see, everyone sees.") }));
  }
  dock.classList.toggle("disabled", !online());
  renderHand();
  renderMoves();
  if (S.table.status === "over") { hint(""); showError(""); }  // no word about a move is left once the deal is over
  sizeDock();
}

function renderHand() {
  const hand = $("hand");
  const active = document.activeElement;
  const key = active && hand.contains(active) ? active.dataset.card : null;
  hand.replaceChildren();
  if (!S.me) return;
  const p = pub(), moves = cardMoves(), live = canAct();
  const trump = p.trump_suit;
  for (const c of S.me.hand) {
    const o = moves[c] || {};
    const legal = !!(o.single || o.multi);
    const sluff = o.single && o.single.startsWith("sluff");
    const label = [cardWords(c), trump === c[1] ? t("trump") : null, legal ? (sluff ? t("sluff") : t("playable")) : t("not playable now"),
                   S.selected.has(c) ? t("chosen") : null].filter(Boolean).join(", ");
    const b = cardEl(c, { tag: "button", cls: "hc " + (legal && live ? "legal" : "illegal") + (trump === c[1] ? " trump" : "") +
                           (S.selected.has(c) ? " selected" : ""), label });
    b.type = "button";
    b.setAttribute("aria-describedby", "hint");
    if (S.selected.has(c)) b.setAttribute("aria-pressed", "true");
    if (trump === c[1]) b.append(el("span", { class: "mark trump-mark", "aria-hidden": "true", title: t("trump"), text: "★" }));
    if (sluff) b.append(el("span", { class: "mark sluff-mark", "aria-hidden": "true", text: t("sluff") }));
    b.addEventListener("click", () => onCard(c));
    b.addEventListener("dblclick", () => { if (o.single && canAct()) act(o.single); });
    b.addEventListener("focus", () => hint(whyCard(c)));
    b.addEventListener("mouseenter", () => hint(whyCard(c)));
    longPress(b, () => hint(whyCard(c)));
    hand.append(b);
  }
  if (!S.me.hand.length) hand.append(el("p", { class: "muted", text: p.out.includes(mySeat()) ? t("You are out: you are safe.") : t("No cards.") }));
  layoutHand();
  if (key) (hand.querySelector(`[data-card="${key}"]`) || hand.querySelector(".legal") || hand.querySelector("button"))?.focus();
  else hint(live && Object.values(moves).some((o) => o.multi) ? tapRule() : "");
}

function renderMoves() {
  const box = $("moves");
  const active = document.activeElement && box.contains(document.activeElement) ? document.activeElement.dataset.move : null;
  box.replaceChildren();
  const table = S.table, p = pub();
  if (table.status === "over") {
    box.append(el("button", { type: "button", class: "primary", "data-move": "result", onclick: () => openResult() }, t("Show the result")));
  }
  if (!S.me) return;
  if (S.me.left) {
    box.append(el("span", { class: "muted", text: t("A bot plays for you.") }),
               el("button", { type: "button", "data-move": "reclaim", onclick: () => send({ type: "reclaim" }) }, t("Take my seat back")));
    return;
  }
  const live = canAct();
  const moves = cardMoves();
  if (Object.values(moves).some((o) => o.multi)) {
    // one tap rule (taps.js): a tap plays a card; with Run on, taps choose the cards of a run
    box.append(el("button", { type: "button", class: "run-toggle", "data-move": "run", "aria-pressed": String(S.runMode),
      "aria-keyshortcuts": "R", disabled: !live, onclick: () => toggleRun() }, t("Run"), el("kbd", { text: "R" })));
    if (S.runMode || S.selected.size) {
      const m = selectionMove(), why = runWhy(legalMoves(), [...S.selected]);
      const label = S.selected.size ? t("Play run {cards}", { cards: cardsText([...S.selected]) }) : t("Play run");
      box.append(el("button", { type: "button", class: "primary", "data-move": "play-selected", disabled: !(m && live),
        "aria-keyshortcuts": "P", title: why || null, "aria-describedby": why ? "run-why" : null,
        onclick: () => { const mv = selectionMove(); if (mv) act(mv); } }, label, el("kbd", { text: "P" })));
      if (why) box.append(el("span", { id: "run-why", class: "run-why", text: why }));
      if (S.selected.size) box.append(el("button", { type: "button", "data-move": "clear", onclick: () => { S.selected.clear(); renderDock(); } }, t("Clear")));
    }
  }
  for (const m of S.me.legal) {
    const [verb, ...cards] = m.move.split(" ");
    if ((verb === "play" || verb === "sluff") && cards.length) continue;  // the cards themselves
    const key = KEYS[m.kind];
    let text = tidy(m.label);
    if (m.kind === "pass") {
      text = S.timerAt !== null && p.winner >= 0 ? doneSluffing() : t("Done sluffing");
    }
    if (m.kind === "pick" && p.pick_up.length) text = t("Pick up {cards}", { cards: cardsText(p.pick_up) });
    const b = el("button", { type: "button", class: "move" + (m.kind === "pass" ? " primary" : ""), "data-move": m.move,
      disabled: !live, "aria-keyshortcuts": key ? key.toUpperCase() : null,
      title: S.me.why && S.me.why[m.move] ? words(S.me.why[m.move]) : null, onclick: () => act(m.move) },
      text, key ? el("kbd", { text: key.toUpperCase() }) : null);
    b.addEventListener("focus", () => hint(S.me.why && S.me.why[m.move] ? words(S.me.why[m.move]) : ""));
    box.append(b);
  }
  if (S.pending) box.append(el("span", { class: "muted", text: t("sending…") }));
  if (active) box.querySelector(`[data-move="${CSS.escape(active)}"]`)?.focus();
}

function onCard(c) {
  if (!S.me) return;
  const o = cardMoves()[c] || {};
  if (!online()) { hint(t("Not connected: wait until the table is back.")); return; }
  if (S.pending) { hint(t("Your last move is still on its way.")); return; }
  if (S.me.left) { hint(t("A bot plays for you: take your seat back first.")); return; }
  if (!o.single && !o.multi) { hint(whyCard(c)); showError(whyCard(c)); return; }
  showError("");
  const p = pub();
  const out = tapOutcome(c, legalMoves(), { runMode: S.runMode, selected: [...S.selected], myTurn: !!(p && p.to_act === mySeat()) });
  if (out.act) { act(out.act); return; }
  if (out.run) S.runMode = true;
  if (S.selected.has(c)) S.selected.delete(c); else S.selected.add(c);
  renderDock();
  const m = selectionMove();
  hint(m ? t("Press Play run (P) to play {cards}", { cards: cardsText([...S.selected]) }) : runWhy(legalMoves(), [...S.selected]));
}

/** The Run toggle: on, taps choose cards for a run; off, a tap plays one card (and the choice is dropped). */
function toggleRun(on = !S.runMode) {
  S.runMode = on;
  if (!on) S.selected.clear();
  renderDock();
  hint(on ? runWhy(legalMoves(), [...S.selected]) || tapRule() : tapRule());
}
/** The tap rule in words, for the hint line when runs may be played. */
function tapRule() {
  return S.runMode ? t("Run is on: tap the cards of a run, then Play run. Tap Run again to play single cards.")
                   : t("Tap a card to play it. To play a run, tap Run (R) first, then its cards.");
}

function longPress(elem, fn) {
  let timer = null;
  elem.addEventListener("touchstart", () => { timer = setTimeout(() => { timer = "done"; fn(); }, 450); }, { passive: true });
  const stop = (ev) => { if (timer === "done" && ev.type === "touchend") ev.preventDefault(); if (timer && timer !== "done") clearTimeout(timer); timer = null; };
  elem.addEventListener("touchend", stop);
  elem.addEventListener("touchmove", stop, { passive: true });
}

/** Overlap the hand's cards so that they fit the width, in two rows if need be; each card shows at
 * least its corner (rank and suit, 26 px): a longer hand keeps two rows and scrolls sideways. */
function layoutHand() {
  const hand = $("hand");
  const cards = [...hand.querySelectorAll(".card")];
  if (!cards.length) return;
  const width = hand.clientWidth || 320;
  const w = cards[0].offsetWidth || 60;
  const minStep = Math.max(26, w * 0.3);
  const perRow = Math.max(1, Math.floor((width - w) / minStep) + 1);
  const rows = Math.min(2, Math.ceil(cards.length / perRow));
  const each = Math.ceil(cards.length / rows);
  const scrolls = each > perRow;
  hand.dataset.rows = rows;
  hand.classList.toggle("scrolls", scrolls);
  cards.forEach((c, k) => {
    const inRow = k % each, count = Math.min(each, cards.length - Math.floor(k / each) * each);
    const step = scrolls ? minStep : count > 1 ? Math.min(w + 6, (width - w) / (count - 1)) : 0;
    c.style.setProperty("--i", inRow);
    c.style.setProperty("--step", step.toFixed(1) + "px");
    c.style.setProperty("--row", Math.floor(k / each));
    c.style.setProperty("--count", count);
    c.style.left = scrolls ? (4 + inRow * step).toFixed(1) + "px" : "";  // from the left edge, to scroll to
  });
  hand.style.setProperty("--rows", rows);
}

function sizeDock() {
  const h = $("dock").getBoundingClientRect().height;
  document.documentElement.style.setProperty("--dock-h", Math.ceil(h) + "px");
}

// -- the side: table talk, chat, your seat ------------------------------------------------------------------
function renderSide() {
  // a player chats from the waiting room on (S.me, the seat in a deal, comes with the deal)
  const spectator = !S.you || S.you.player === null;
  $("chat-form").hidden = spectator;
  const note = $("chat-note");
  if (spectator && !note) $("chat-form").after(el("p", { id: "chat-note", class: "muted", text: t("Spectators watch: the chat is for the players.") }));
  else if (!spectator && note) note.remove();
  $("leave").hidden = !S.me || S.me.left || S.table.status !== "playing";
  $("reclaim").hidden = !S.me || !S.me.left;
  $("log-btn").hidden = false;
}
function addChat(m) {
  $("chat").append(el("li", {}, el("strong", { text: t("{name}:", { name: m.name }) + " " }), m.text));
  $("chat").scrollTop = $("chat").scrollHeight;
}

// -- the end of a deal ------------------------------------------------------------------------------------------
function renderResult() {
  const tab = S.table, p = tab.public;
  const over = tab.status === "over" && p;
  if (!over) { $("result").hidden = true; return; }
  const seat = mySeat();
  $("result-title").textContent = p.loser === null ? t("The deal was abandoned")
    : p.loser === seat ? t("You are {title}!", { title: p.loser_title })
    : t("{name} is {title}!", { name: tab.seats[p.loser].name, title: p.loser_title });
  const body = $("result-body");
  body.replaceChildren();
  if (p.out.length) {
    const ol = el("ol", { class: "went-out", "aria-label": t("The order players went out") });
    p.out.forEach((s, k) => ol.append(el("li", {}, el("span", { class: "place", text: ordinal(k + 1) }), " " + (s === seat ? t("You") : tab.seats[s].name))));
    body.append(el("h3", { text: t("Went out") }), ol);
  }
  const tally = el("ul", { class: "tally-list", "aria-labelledby": "tally-title" });
  for (const [i, s] of tab.seats.entries()) {
    tally.append(el("li", { class: i === p.loser ? "lost" : "" }, (i === seat ? t("You") : s.name) + " ", el("strong", { text: String(s.goats) })));
  }
  body.append(el("h3", { id: "tally-title", text: tn("Times {title} in {n} deal", "Times {title} in {n} deals", tab.game, { title: p.loser_title }) }), tally);
  const ses = tab.session;
  if (ses) {
    body.append(el("h3", { text: t("Two tables") }), ...sessionLines(ses).map((line) => el("p", { class: "session-note", text: line })));
  }
  $("next-table").hidden = !nextTable();
  $("again").hidden = !S.me || !!ses;
  $("roving").parentElement.hidden = !S.me || !!ses;
  $("roving-text").textContent = t("Roving {title}: the {title} first changes seat with the player on its left", { title: title() });
  $("again").nextElementSibling.title = "";
  if (S.resultSeen !== tab.game) {
    S.resultSeen = tab.game;
    openResult();
  }
}
function openResult() {
  $("result").hidden = false;
  [$("next-table"), $("again"), $("result-replay")].find((b) => !b.hidden).focus();
}

// -- the replay ----------------------------------------------------------------------------------------------------
function gotReplay(r) {
  if (r.complete) {
    openReplay(r, { room: S.table ? S.table.room : roomCode, me: mySeat(), onClose: () => $("replay-btn").focus() });
  } else {
    showError(t("The replay opens once the deal is over: the moves so far are in the table talk."));
  }
  S.wantReplay = null;
}

// -- timers, keys, buttons ------------------------------------------------------------------------------------------
setInterval(() => {
  if (!S.table || S.timerAt === null || S.table.status !== "playing") return;
  const p = pub();
  if (!p) return;
  document.querySelectorAll(".plate.to-act .pstate").forEach((e) => {
    const left = Math.max(0, Math.ceil((S.timerAt - Date.now()) / 1000));
    if (S.table.turn_seconds && p.winner < 0) e.textContent = e.textContent.replace(/( · \d+ s)?$/, " · " + left + " s");
  });
  const pass = document.querySelector('#moves [data-move="pass"]');
  if (pass && p.winner >= 0) pass.firstChild.textContent = doneSluffing();
}, 500);
/** The "Done sluffing" button's words while the time to sluff runs out. */
function doneSluffing() {
  return t("Done sluffing ({n} s)", { n: Math.max(0, Math.ceil((S.timerAt - Date.now()) / 1000)) });
}

document.addEventListener("keydown", (ev) => {
  const target = ev.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!$("replay").hidden) return;  // the replay has its own keys
  const key = ev.key.toLowerCase();
  if (key === "escape") {
    if (!$("last-trick").hidden) { $("last-trick").hidden = true; $("last-btn").focus(); }
    else if (!$("result").hidden) $("result").hidden = true;
    else if (document.body.classList.contains("side-open")) toggleSide(false);
    else if (S.selected.size || S.runMode) toggleRun(false);
    return;
  }
  if (target && target.closest && target.closest("#hand") && (key === "arrowleft" || key === "arrowright")) {
    const cards = [...$("hand").querySelectorAll("button.card")];
    const i = cards.indexOf(target) + (key === "arrowright" ? 1 : -1);
    if (cards[i]) cards[i].focus();
    ev.preventDefault();
    return;
  }
  if (key === "?") { const c = target && target.dataset ? target.dataset.card : null; hint(c ? whyCard(c) : t("Focus a card (Tab, then ←/→) to hear why it can or cannot be played.")); return; }
  if (key === "l") { openLastTrick(); return; }
  if (key === "p") { const m = selectionMove(); if (m && canAct()) act(m); return; }
  if (key === "r" && canAct() && Object.values(cardMoves()).some((o) => o.multi)) { toggleRun(); return; }
  for (const [kind, k] of Object.entries(KEYS)) {
    if (key === k) { const m = legalMove(kind); if (m && canAct()) { act(m.move); ev.preventDefault(); } return; }
  }
});

function openLastTrick() {
  if (!S.last || !S.table) return;
  $("last-body").replaceChildren(lastTrickEl(S.last, ctx()));
  $("last-trick").hidden = false;
  $("last-close").focus();
}
function toggleSide(open) {
  document.body.classList.toggle("side-open", open);
  $("log-btn").setAttribute("aria-expanded", String(open));
  if (open) $("side").focus?.();
  else $("log-btn").focus();
}

$("last-btn").addEventListener("click", openLastTrick);
$("last-close").addEventListener("click", () => { $("last-trick").hidden = true; $("last-btn").focus(); });
$("leave").addEventListener("click", () => send({ type: "leave" }));
$("reclaim").addEventListener("click", () => send({ type: "reclaim" }));
$("next-table").addEventListener("click", goNextTable);
$("again").addEventListener("click", () => { if (send({ type: "again", roving: $("roving").checked })) $("result").hidden = true; });
$("result-close").addEventListener("click", () => { $("result").hidden = true; $("hand").focus(); });
$("result-replay").addEventListener("click", () => send({ type: "replay" }));
$("replay-btn").addEventListener("click", () => send({ type: "replay" }));
$("log-btn").addEventListener("click", () => toggleSide(!document.body.classList.contains("side-open")));
$("side-close").addEventListener("click", () => toggleSide(false));
$("side").setAttribute("tabindex", "-1");
$("motion-btn").setAttribute("aria-pressed", String(motion.on));
$("motion-btn").addEventListener("click", () => {
  motion.set(!motion.on);
  $("motion-btn").setAttribute("aria-pressed", String(motion.on));
  banner(motion.on ? t("Motion on") : t("Motion off"));
});
$("chat-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("chat-text").value.trim();
  if (text && send({ type: "chat", text })) $("chat-text").value = "";
});
window.addEventListener("resize", () => { if (S.table && S.me) { layoutHand(); sizeDock(); } });

// -- the page's language ------------------------------------------------------------------------------------------------
/** The header's language picker: every shipped language in its own name. */
function languagePicker() {
  const pick = $("lang-pick");
  pick.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) =>
    el("option", { value: code, lang: code, text: name, selected: code === lang() })));
  pick.value = lang();
  pick.addEventListener("change", () => switchLanguage(pick.value));
}
/** Show the page in language ``code`` from now on: the page's words, the table drawn again, and a
 * table's own words (narration, reasons) sent again by the server in that language. */
async function switchLanguage(code) {
  rememberLanguage(code);
  await useLanguage(code);
  $("lang-pick").value = lang();
  translatePage();
  if (online()) send({ type: "lang", lang: lang() });
  if ($("conn").dataset.state) setConn($("conn").dataset.state);
  if (S.table) render();
  if (S.redraw) await S.redraw();
  redrawReplay();
  // the lobby (lobby.js) and anything else drawn from the server's words listen for this
  document.dispatchEvent(new CustomEvent("skitgubbe:language", { detail: { lang: lang() } }));
}

async function start() {
  await useLanguage(wantedLanguage());
  translatePage();
  status(t("Loading…"));
  languagePicker();
  installSprite();
  initHowto(() => roomCode);
  initLessons();
  const dealLink = location.pathname.match(/^\/replay\/([^/]+)$/);
  if (dealLink) lobby().then(() => storedReplay(decodeURIComponent(dealLink[1]))).catch((e) => status(e.message));
  else if (!roomCode) {
    S.redraw = () => status(t("Make a table, or open an invitation link."));
    lobby().catch((e) => status(e.message));
  }
  else if (stored()) connect();
  else if (S.wantReplay) connect(true);
  else joinPage();
}
start();
