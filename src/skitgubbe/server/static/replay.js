// The replay of a finished deal: the same table, every hand face up, stepped through move by move
// (forward, back, jump to any move) from the server's replay message ("frames": the table after
// each move, sent once the deal is over).

import { cardText, tidy } from "./cards.js";
import { t, tc } from "./i18n.js";
import { flyIn } from "./motion.js";
import { clockwise, el, phaseText, pilesInto, plateEl, ring, trickInto } from "./render.js";

const $ = (id) => document.getElementById(id);
let R = null;  // {frames: [{pub, hands, seat, move, lines}], names, k, me}

function build(r) {
  const frames = [];
  let p = {}, hands = [];
  for (const f of r.frames) {
    p = { ...p, ...f.public };
    hands = hands.slice();
    for (const [s, cards] of Object.entries(f.hands)) hands[+s] = cards;
    frames.push({ pub: p, hands, seat: f.seat, move: f.move, lines: f.lines });
  }
  return frames;
}

function moveText(f) {
  if (f.move === null) return t("The deal");
  const who = f.seat >= 0 ? R.names[f.seat] : t("Chance");
  // the move in action notation ("play 7H"): its verb in the page's language, its cards as the page
  // writes them ("7♥", "Kn♥")
  const [verb, ...rest] = f.move.split(" ");
  const move = [verbWord(verb), ...rest].join(" ").replace(/\b([2-9TJQKA][CDHS])\b/g, (_, c) => cardText(c));
  return t("{name}: {move}", { name: who, move });
}
/** An action's verb ("play", "pick") as a word of the page's language; another (a chance move's) as it is. */
function verbWord(verb) {
  switch (verb) {
    case "play": return tc("move", "play");
    case "stock": return tc("move", "stock");
    case "sluff": return tc("move", "sluff");
    case "pass": return tc("move", "pass");
    case "pick": return tc("move", "pick");
    case "dreck": return tc("move", "dreck");
    case "store": return tc("move", "store");
    case "exchange": return tc("move", "exchange");
    default: return verb;
  }
}

function draw(animate) {
  const f = R.frames[R.k];
  const p = f.pub;
  const seats = R.names.map((name) => ({ name, connected: true }));
  const ctx = { pub: p, seats, hands: f.hands, me: null, title: p.loser_title.replace(/^the /, ""), timer: null,
                trumpCard: null, lastTrick: null, pairs: p.first_phase === "pairs" };
  const felt = $("replay-table");
  const before = new Set([...felt.querySelectorAll(".trick .play")].map((e) => e.dataset.key));
  const plates = {};
  felt.querySelectorAll(".plate").forEach((e) => { plates[e.dataset.seat] = e.getBoundingClientRect(); });
  const order = clockwise(R.me, p.players);
  const spots = ring(order.length - 1);
  const seatBox = el("div", { class: "seats replay-seats" });
  const bottomBox = el("div", { class: "seats replay-seats" });  // after the middle, for a phone's column
  order.forEach((seat, k) => {
    const plate = plateEl(seat, ctx);
    const [x, y] = k === 0 ? [50, 96] : spots[k - 1];
    plate.style.setProperty("--x", x.toFixed(1) + "%");
    plate.style.setProperty("--y", y.toFixed(1) + "%");
    if (seat === f.seat) plate.classList.add("just-moved");
    if (k > 0 && y < 25) plate.classList.add("high");
    if (k === 0) plate.classList.add("low");  // its bottom edge on the table's: it grows upwards
    (k === 0 ? bottomBox : seatBox).append(plate);
  });
  const piles = el("div", { class: "piles" });
  pilesInto(piles, ctx);
  const trick = el("div", { class: "trick" });
  trickInto(trick, ctx);
  felt.replaceChildren(seatBox, el("div", { class: "center" }, piles,
    el("div", { class: "middle" }, el("p", { class: "phase-line", text: phaseText(ctx) }), trick)), bottomBox);
  if (animate) {
    trick.querySelectorAll(".play").forEach((e) => { if (!before.has(e.dataset.key)) flyIn(e, plates[e.dataset.seat]); });
  }
  $("rp-step").value = R.k;
  $("rp-pos").textContent = t("move {k} of {n}", { k: R.k, n: R.frames.length - 1 });
  $("rp-line").textContent = f.lines.length ? tidy(f.lines.join(" · ")) : moveText(f);
  $("rp-moves").querySelectorAll("button").forEach((b, k) => b.classList.toggle("here", k === R.k));
}

/** The replay's own words (title, the list of moves) in the page's language. */
function words() {
  $("replay-title").textContent = R.game ? t("Replay of deal {n}", { n: R.game }) : t("Replay of a game record");
  $("rp-moves").replaceChildren(...R.frames.map((f, k) =>
    el("li", {}, el("button", { type: "button", onclick: () => go(k) }, moveText(f)))));
}

/** Draw an open replay again in the page's language (the language was changed); its narration
 * lines stay in the language the server wrote them in. */
export function redrawReplay() {
  if (!R || $("replay").hidden) return;
  words();
  draw(false);
}

function go(k, animate = false) {
  R.k = Math.max(0, Math.min(R.frames.length - 1, k));
  draw(animate);
}

function keys(ev) {
  if (ev.target && ev.target.tagName === "INPUT" && ev.target.type === "range") return;  // the slider's own keys
  const k = { ArrowRight: R.k + 1, ArrowLeft: R.k - 1, Home: 0, End: R.frames.length - 1 }[ev.key];
  if (k !== undefined) { go(k, ev.key === "ArrowRight"); ev.preventDefault(); }
  if (ev.key === "Escape") close();
}

let onClose = null;
function close() {
  $("replay").hidden = true;
  document.body.classList.remove("replaying");
  if (onClose) onClose();
}

/** Open the replay of message ``r`` (type replay, complete), seen from seat ``me`` (null: seat 0). */
export function openReplay(r, { room, me, onClose: done }) {
  R = { frames: build(r), names: r.names, k: 0, me: me === null || me === undefined ? 0 : me };
  onClose = done;
  // a finished deal's permanent link (kept by the server after its table is gone); none for a record file
  $("replay-link").hidden = !r.deal;
  $("replay-link").href = r.deal ? location.origin + "/replay/" + r.deal : "#";
  R.game = r.game;
  $("rp-step").max = R.frames.length - 1;
  $("rp-record").textContent = r.record || "";
  words();
  $("replay").hidden = false;
  document.body.classList.add("replaying");
  go(0);
  $("rp-next").focus();
}

$("rp-first").addEventListener("click", () => go(0));
$("rp-back").addEventListener("click", () => go(R.k - 1));
$("rp-next").addEventListener("click", () => go(R.k + 1, true));
$("rp-last").addEventListener("click", () => go(R.frames.length - 1));
$("rp-step").addEventListener("input", (ev) => go(+ev.target.value));
$("replay-close").addEventListener("click", close);
$("replay").addEventListener("keydown", keys);
