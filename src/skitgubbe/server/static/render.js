// Drawing the table from the server's data: the seats around it, the stock and trump, the trick
// or the phase-two table in the middle.  Used by the live table (table.js) and the replay
// (replay.js); nothing here talks to the server.

import { SUITS, backEl, cardEl, cardText, cardWords, cardsText, suitEl } from "./cards.js";

export function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy". */
export const listOf = (names) => names.length < 2 ? names.join("") : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];

const NEWS = new Set(["end-one", "trump", "dreck-dealt"]);  // a new phase: held up against the next play

/** What the banner says of one update's ``events``: ``{lines, ms, hold}`` for ``banner`` (motion.js).
 * The big news (war, bounce, phase two, the trump, the dreck, a seat out) is kept, in the order it
 * happened; else the last small one (one card left, a killed trick; three cards only alone).
 * ``nameOf(seat)`` names a seat ("You" for yours: "you" inside a sentence); ``over``: the deal is over. */
export function announcement(events, nameOf, over = false) {
  const big = [];
  let small = "", news = false;
  const names = (seats, start) => seats.map((s, k) => { const n = nameOf(s); return n === "You" && !(start && k === 0) ? "you" : n; });
  for (const ev of events) {
    const who = ev.seat >= 0 ? nameOf(ev.seat) : "";
    const you = who === "You";
    if (ev.kind === "war") big.push("War! " + listOf(names(ev.seats, true)) + " play again");
    else if (ev.kind === "bounce") big.push("Bounce! " + listOf(names(ev.seats, true)) + " play again");
    else if (ev.kind === "end-one") big.push("Phase two: get rid of your cards");
    else if (ev.kind === "trump" && ev.seats.length) big.push("Trump: " + SUITS["CDHS"[ev.seats[0]]].word);
    else if (ev.kind === "dreck-dealt") big.push("The dreck goes to " + listOf(names(ev.seats, false)));
    else if (ev.kind === "out" && !over) big.push(who + (you ? " are" : " is") + " out");
    else if (ev.kind === "one-card") small = who + (you ? " have" : " has") + " one card";
    else if (ev.kind === "three-cards" && !small) small = who + (you ? " have" : " has") + " three cards";
    else if (ev.kind === "kill") small = who + " killed the trick";
    else continue;
    news = news || NEWS.has(ev.kind);
  }
  const lines = big.length ? big.slice(0, 3) : small ? [small] : [];
  return { lines, ms: 1600 + 800 * (lines.length - 1), hold: news ? 1400 : 0 };
}

export const ordinal = (k) => k + (k % 100 >= 11 && k % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][k % 10] || "th");
export const plural = (k, word) => k + " " + word + (k === 1 ? "" : "s");

/** Where the seats other than the bottom one sit around an oval, clockwise from the bottom seat's
 * left: [x%, y%] each. */
export function ring(count) {
  if (count <= 0) return [];
  if (count === 1) return [[50, 11]];
  const from = count === 2 ? 150 : 172, to = count === 2 ? 30 : 8;
  const out = [];
  for (let k = 0; k < count; k++) {
    const a = (from - (k * (from - to)) / (count - 1)) * Math.PI / 180;
    out.push([50 + 40 * Math.cos(a), 52 - 40 * Math.sin(a)]);
  }
  return out;
}

/** The seats in the order they sit around the table, from ``bottom`` clockwise. */
export function clockwise(bottom, n) {
  return Array.from({ length: n }, (_, k) => (bottom + k) % n);
}

function fan(count, cls = "") {
  const box = el("span", { class: "fan " + cls, "aria-hidden": "true" });
  const shown = Math.min(count, 9);
  for (let k = 0; k < shown; k++) {
    const b = backEl("mini");
    b.style.setProperty("--tilt", ((k - (shown - 1) / 2) * 7).toFixed(1) + "deg");
    box.append(b);
  }
  return box;
}

/** A seat around the table: name, dealer mark, hand size as fanned backs (or the hand face up,
 * in a replay), pile, known cards (small, marked "known"), to act, out, bot, away, tally. */
export function plateEl(i, ctx) {
  const { pub, seats, hands, timer } = ctx;
  const info = seats[i] || { name: "Seat " + i };
  const toAct = pub.to_act === i;
  const out = pub.out.indexOf(i);
  const lost = pub.loser === i;
  const sluff = pub.window.includes(i);
  const cls = ["plate", toAct ? "to-act" : "", out >= 0 ? "is-out" : "", lost ? "lost" : "",
               sluff ? "may-sluff" : "", i === ctx.me ? "mine" : ""].join(" ");
  const size = pub.hand_sizes[i];
  const words = [info.name, plural(size, "card") + " in hand"];
  const head = el("div", { class: "plate-head" }, el("span", { class: "pname", text: info.name }));
  if (pub.dealer === i) { head.append(el("span", { class: "chip dealer", title: "dealer", text: "D" })); words.push("dealer"); }
  if (info.bot && !/\bbot\b/.test(info.name)) head.append(el("span", { class: "chip", text: "bot" }));
  else if (!info.bot && info.connected === false) { head.append(el("span", { class: "chip away", text: "away" })); words.push("away"); }
  const plate = el("div", { class: cls, "data-seat": i, role: "group" }, head);
  if (hands && hands[i]) {
    const row = el("div", { class: "open-hand" });
    for (const c of hands[i]) row.append(cardEl(c, { cls: "mini" + (pub.trump_suit === c[1] ? " trump" : "") }));
    if (!hands[i].length) row.append(el("span", { class: "muted", text: "no cards" }));
    plate.append(row);
  } else {
    plate.append(el("div", { class: "plate-hand" }, fan(size), el("span", { class: "count", text: String(size) })));
  }
  const stats = el("div", { class: "pstats" });
  if (pub.phase === "phase one") {
    stats.append(el("span", { text: "pile " + pub.piles[i] }));
    words.push(plural(pub.piles[i], "card") + " won");
  }
  if (info.goats) stats.append(el("span", { class: "tally", text: ctx.title + " ×" + info.goats }));
  plate.append(stats);
  const known = pub.known[i] || [];
  if (known.length && i === ctx.me) {
    // your own hand: only how much of it the others know (the cards are in your hand below)
    stats.append(el("span", { class: "known-count", title: "everyone knows these cards of yours: " + cardsText(known),
                              text: known.length + " known" }));
    words.push("everyone knows " + cardsText(known) + " in your hand");
  } else if (known.length && !(hands && hands[i])) {
    const row = el("div", { class: "known", title: "cards everyone knows are in this hand" },
      el("span", { class: "known-tag", text: "known" }));
    for (const c of known) row.append(cardEl(c, { cls: "micro", label: cardWords(c) + ", known to be in " + info.name + "'s hand" }));
    plate.append(row);
    words.push("known: " + cardsText(known));
  }
  let state = "";
  if (lost) state = "the " + ctx.title;
  else if (out >= 0) state = "out, " + ordinal(out + 1);
  else if (toAct) state = i === ctx.me ? "your turn" : "to play";
  else if (sluff) state = "may sluff";
  if (toAct && timer !== null && timer !== undefined) state += " · " + timer + " s";
  if (state) { plate.append(el("div", { class: "pstate", text: state })); words.push(state); }
  plate.setAttribute("aria-label", words.join(", "));
  return plate;
}

/** The stock (a stack of backs with its count) and the trump (card or suit, always shown). */
export function pilesInto(box, ctx) {
  const { pub } = ctx;
  box.replaceChildren();
  const stock = el("div", { class: "stock" });
  const stack = el("div", { class: "stack" });
  const trumpCard = ctx.trumpCard || pub.trump_card;
  if (trumpCard && pub.stock > 0 && pub.phase === "phase one") {
    stack.append(cardEl(trumpCard, { cls: "small under", label: "trump card " + cardWords(trumpCard) + ", under the stock" }));
  }
  if (pub.exposed) stack.append(cardEl(pub.exposed, { cls: "small under", label: "face up under the stock: " + cardWords(pub.exposed) }));
  for (let k = 0; k < Math.min(pub.stock, 3); k++) stack.append(backEl("small pile-card"));
  if (ctx.stockButton && pub.stock > 0) {
    const b = el("button", { type: "button", class: "stack-btn", "aria-label": "Turn up the top stock card (T)", onclick: ctx.stockButton });
    stack.append(b);
  }
  stock.append(stack, el("span", { class: "pile-label", text: pub.phase === "phase one" || pub.stock ? "stock " + pub.stock : "no stock" }));
  if (pub.reserve) stock.append(el("span", { class: "pile-label", text: "reserve " + pub.reserve }));
  const trump = el("div", { class: "trump" });
  if (pub.trump_suit) {
    trump.append(el("span", { class: "pile-label", text: "trump" }), suitEl(pub.trump_suit, "suit big"),
                 el("span", { class: "trump-word", text: SUITS[pub.trump_suit].word }));
    if (trumpCard && !(pub.stock > 0 && pub.phase === "phase one")) trump.append(el("span", { class: "muted", text: "(" + cardText(trumpCard) + ")" }));
  } else {
    trump.append(el("span", { class: "pile-label", text: "trump" }), el("span", { class: "trump-unknown", text: "?" }));
    const holder = pub.trump_holder;
    const who = holder >= 0 ? (holder === ctx.me ? "you hold" : ctx.seats[holder].name + " holds") + " the face-down trump card" : "the last stock card will name it";
    if (ctx.trumpCard && holder === ctx.me) trump.append(el("span", { class: "muted", text: "yours: " + cardText(ctx.trumpCard) }));
    else trump.append(el("span", { class: "muted small-text", text: who }));
  }
  box.append(stock, trump);
}

/** The phase in words, with the kill count in phase two. */
export function phaseText(ctx) {
  const { pub, seats } = ctx;
  if (pub.phase === "phase one") {
    return pub.leader >= 0 ? "Phase one · trick led by " + seats[pub.leader].name : "Phase one";
  }
  if (pub.phase === "phase two") {
    if (!pub.table.length) return "Phase two · " + (pub.to_act >= 0 ? seats[pub.to_act].name + " leads" : "") + " · " + pub.kill_at + " plays kill a trick";
    return "Phase two · " + pub.kill;
  }
  if (pub.phase === "dreck deal") return "The dreck is dealt";
  return "The deal is over";
}

function playEl(seat, cards, ctx, { tag = "", beat = false } = {}) {
  const who = seat === ctx.me ? "You" : ctx.seats[seat].name;
  const box = el("div", { class: "play" + (beat ? " to-beat" : ""), "data-seat": seat, "data-key": seat + ":" + cards.join(" ") });
  const row = el("div", { class: "play-cards" });
  for (const c of cards) row.append(cardEl(c, { cls: "tc" + (beat ? " beat-me" : ""), label: cardWords(c) + ", " + who + (beat ? ", to beat" : "") }));
  if (beat || tag) box.append(el("span", { class: "tag", text: beat && !tag ? "high" : tag }));
  box.append(row, el("span", { class: "who", text: who }));
  return box;
}

/** The trick (phase one: each round apart, sluffs apart) or the phase-two table (each play apart,
 * the play to beat marked), or, when the table is empty, who leads and the last trick. */
export function trickInto(box, ctx) {
  const { pub, seats } = ctx;
  box.replaceChildren();
  const beat = new Set(pub.to_beat || []);
  if (pub.phase === "phase one" && pub.rounds.some((r) => r.length)) {
    const last = pub.rounds.length - 1;
    // the cards to beat head the last round with cards (a new war round starts empty)
    let head = last;
    while (head > 0 && !pub.rounds[head].length) head--;
    pub.rounds.forEach((rnd, k) => {
      if (!rnd.length && k < last) return;
      const row = el("div", { class: "round" + (k < last ? " done" : "") + (rnd.length ? "" : " empty"), "data-round": k });
      if (k > 0) row.append(el("span", { class: "round-tag", text: ctx.pairs ? "bounce" : "war" }));
      for (const [s, c] of rnd) row.append(playEl(s, [c], ctx, { beat: k === head && beat.has(c) && pub.winner < 0 }));
      if (k === last && pub.round_seats.length && pub.winner < 0) {
        row.append(el("div", { class: "due", text: "next: " + pub.round_seats.map((s) => s === ctx.me ? "you" : seats[s].name).join(", ") }));
      }
      box.append(row);
    });
    if (pub.sluffs.length) {
      const row = el("div", { class: "round sluffs" }, el("span", { class: "round-tag", text: "sluffed" }));
      for (const [s, c] of pub.sluffs) row.append(playEl(s, [c], ctx));
      box.append(row);
    }
    if (pub.winner >= 0) {
      const who = pub.winner === ctx.me ? "You take" : seats[pub.winner].name + " takes";
      box.append(el("p", { class: "note", text: who + " the trick" + (pub.window.length ? " once everyone is done sluffing" : "") }));
    }
    return;
  }
  if (pub.phase === "phase two" && pub.table.length) {
    const row = el("div", { class: "table-plays" });
    pub.table.forEach(([s, cards], k) => {
      const top = k === pub.table.length - 1;
      row.append(playEl(s, cards, ctx, { beat: top, tag: top ? "to beat" : "" }));
    });
    box.append(row);
    if (pub.pick_up.length) box.append(el("p", { class: "note", text: "picking up takes " + cardsText(pub.pick_up) }));
    return;
  }
  const lead = pub.to_act >= 0 && pub.phase !== "game over" ? (pub.to_act === ctx.me ? "You lead" : seats[pub.to_act].name + " leads") : "";
  const empty = el("div", { class: "empty-trick" });
  if (lead) empty.append(el("p", { class: "lead-note", text: lead }));
  if (ctx.lastTrick && ctx.lastTrick.plays.length) empty.append(lastTrickEl(ctx.lastTrick, ctx, true));
  box.append(empty);
}

/** A collected trick: who took (or killed, or picked up) which cards, each play with its seat. */
export function lastTrickEl(last, ctx, small = false) {
  const who = last.seat === ctx.me ? "You" : ctx.seats[last.seat] ? ctx.seats[last.seat].name : "";
  const verb = { win: who + (last.seat === ctx.me ? " took" : " took"), kill: who + " killed", "pick-up": who + " picked up" }[last.kind] || who;
  const box = el("div", { class: "last-trick" + (small ? " small" : "") });
  box.append(el("p", { class: "note", text: (small ? "Last trick: " : "") + verb + " " + (last.kind === "pick-up" ? cardsText(last.cards) : "the trick") }));
  const row = el("div", { class: "table-plays" });
  for (const p of last.plays) row.append(playEl(p.seat, p.cards, ctx, { tag: p.kind === "sluff" ? "sluff" : "" }));
  box.append(row);
  return box;
}
