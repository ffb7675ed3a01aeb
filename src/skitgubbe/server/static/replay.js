// The replay of a finished deal: the same table, every hand face up, stepped through move by move
// (forward, back, jump to any move) from the server's replay message ("frames": the table after
// each move, sent once the deal is over).  A lesson (GET /api/lessons/N: the message has "lesson")
// plays in lesson mode: its intro first, before each move the rule at work ("why"), at the learner's
// moves ("learner") the viewer waits for a tap on the card (or move button) the example plays
// ("expected"; another is refused with the rule, and the right one then shown), at the end the outro.

import { cardText, cardWords, tidy } from "./cards.js";
import { t, tc } from "./i18n.js";
import { flyIn } from "./motion.js";
import { clockwise, el, phaseText, pilesInto, plateEl, ring, trickInto } from "./render.js";

const $ = (id) => document.getElementById(id);
let R = null;  // {frames: [{pub, hands, seat, move, lines, why, learner, expected}], names, k, me, lesson}

function build(r) {
  const frames = [];
  let p = {}, hands = [];
  for (const f of r.frames) {
    p = { ...p, ...f.public };
    hands = hands.slice();
    for (const [s, cards] of Object.entries(f.hands)) hands[+s] = cards;
    frames.push({ pub: p, hands, seat: f.seat, move: f.move, lines: f.lines, why: f.why || "",
                  learner: !!f.learner, expected: f.expected || f.move });
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
  // a lesson's table is the learner's ("You lead", "your turn"); a replay's is nobody's
  const ctx = { pub: p, seats, hands: f.hands, me: R.lesson ? R.me : null, secondPerson: !!R.lesson, title: p.loser_title.replace(/^the /, ""), timer: null,
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
  if (R.lesson) lessonStep();
}

// -- lesson mode --------------------------------------------------------------------------------------
/** The step after the table shown: the move the lesson plays next (null at the end). */
function upcoming() { return R.frames[R.k + 1] || null; }

/** A lesson's words for the table shown, and at a learner's move its hand made tappable. */
function lessonStep() {
  const L = R.lesson;
  const next = upcoming();
  const text = $("rp-lesson-text");
  text.replaceChildren();
  if (R.k === 0) text.append(el("span", { class: "rp-lesson-intro", text: L.intro }), " ");
  if (next) text.append(el("strong", { text: next.why || moveText(next) }));
  else text.append(el("strong", { text: L.outro }));
  if (R.k === 0) text.append(el("span", { class: "rp-lesson-source", text: L.source }));
  $("rp-lesson-note").textContent = L.note;
  const waiting = !!(next && next.learner);
  $("rp-next").disabled = waiting || !next;
  $("rp-lesson-back").hidden = !!next;
  const moves = $("rp-lesson-moves");
  moves.replaceChildren();
  if (!waiting) return;
  text.append(" ", el("span", { class: "rp-lesson-ask", text: t("Your move: tap the card to play in your hand, or a move button.") }));
  const [verb, ...cards] = next.expected.split(" ");
  for (const v of L.verbs) {
    const b = el("button", { type: "button", "data-move": v, onclick: () => answer(v === verb && !cards.length) }, verbWord(v));
    if (L.tries && v === verb && !cards.length) b.classList.add("lesson-expected", "primary");
    moves.append(b);
  }
  const hand = $("replay-table").querySelector('.plate[data-seat="' + R.me + '"] .open-hand');
  if (!hand) return;
  for (const c of hand.querySelectorAll(".card[data-card]")) {
    const right = cards.includes(c.dataset.card);
    c.classList.add("lesson-card");
    if (L.tries && right) c.classList.add("lesson-expected");
    c.setAttribute("role", "button");
    c.setAttribute("tabindex", "0");
    c.setAttribute("aria-label", t("Play {card}", { card: cardWords(c.dataset.card) }));
    c.addEventListener("click", () => answer(right));
    c.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); answer(right); } });
  }
}

/** The person's answer at a learner's move: the right one plays it, another is refused with the rule. */
function answer(right) {
  const L = R.lesson;
  if (right) {
    L.note = ""; L.tries = 0;
    go(R.k + 1, true);
    focusLesson();
    return;
  }
  L.tries += 1;
  L.note = t("Not this one: {reason}", { reason: upcoming().why });
  draw(false);
  focusLesson();
}

/** Focus what a lesson waits for: the learner's first card (or move button), Back at the end, else Next. */
function focusLesson() {
  const wanted = !$("rp-lesson-back").hidden ? $("rp-lesson-back")
    : $("rp-next").disabled ? ($("replay-table").querySelector(".lesson-expected, .lesson-card") || $("rp-lesson-moves").querySelector("button"))
    : $("rp-next");
  (wanted || $("replay-close")).focus();
}

/** The replay's own words (title, the list of moves) in the page's language. */
function words() {
  $("replay-title").textContent = R.lesson ? t("Lesson {n}: {title}", { n: R.lesson.n, title: R.lesson.title })
    : R.game ? t("Replay of deal {n}", { n: R.game }) : t("Replay of a game record");
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
  const to = Math.max(0, Math.min(R.frames.length - 1, k));
  if (R.lesson && to !== R.k) { R.lesson.note = ""; R.lesson.tries = 0; }  // a new step: no wrong try yet
  R.k = to;
  draw(animate);
}

function keys(ev) {
  if (ev.target && ev.target.tagName === "INPUT" && ev.target.type === "range") return;  // the slider's own keys
  if (R.lesson && ev.key === "ArrowRight" && $("rp-next").disabled) return;  // a learner's move waits for a tap
  const k = { ArrowRight: R.k + 1, ArrowLeft: R.k - 1, Home: 0, End: R.frames.length - 1 }[ev.key];
  if (k !== undefined) { go(k, ev.key === "ArrowRight"); ev.preventDefault(); }
  if (ev.key === "Escape") close();
}

let onClose = null;
function close() {
  $("replay").hidden = true;
  $("replay").classList.remove("lesson-mode");
  $("rp-next").disabled = false;
  document.body.classList.remove("replaying");
  if (onClose) onClose();
}

/** Open the replay of message ``r`` (type replay, complete), seen from seat ``me`` (null: seat 0). */
export function openReplay(r, { room, me, onClose: done }) {
  R = { frames: build(r), names: r.names, k: 0, me: me === null || me === undefined ? 0 : me, lesson: null };
  if (r.lesson) {
    const verbs = new Set();
    for (const f of R.frames) if (f.learner && ["pick", "stock", "pass"].includes(f.expected)) verbs.add(f.expected);
    R.lesson = { n: r.lesson, title: r.title, intro: r.intro, outro: r.outro, source: r.source, note: "", tries: 0,
                 verbs: [...verbs] };
  }
  $("replay").classList.toggle("lesson-mode", !!R.lesson);
  $("rp-lesson").hidden = !R.lesson;
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
  if (R.lesson) focusLesson(); else $("rp-next").focus();
}

$("rp-first").addEventListener("click", () => go(0));
$("rp-back").addEventListener("click", () => go(R.k - 1));
$("rp-next").addEventListener("click", () => { go(R.k + 1, true); if (R.lesson) focusLesson(); });
$("rp-last").addEventListener("click", () => go(R.frames.length - 1));
$("rp-step").addEventListener("input", (ev) => go(+ev.target.value));
$("replay-close").addEventListener("click", close);
$("rp-lesson-back").addEventListener("click", close);
$("replay").addEventListener("keydown", keys);
