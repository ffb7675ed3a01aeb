// Drawing the table from the server's data: the seats around it, the stock and trump, the trick
// or the phase-two table in the middle.  Used by the live table (table.js) and the replay
// (replay.js); nothing here talks to the server.

import { backEl, cardEl, cardText, cardWords, cardsText, suitEl, suitWord } from "./cards.js";
import { lang, t, tn } from "./i18n.js";

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

/** "Ann", "Ann and Bo", "Ann, Bo and Cy" (in the page's language). */
export const listOf = (names) => names.length < 2 ? names.join("")
  : t("{first} and {last}", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });

const NEWS = new Set(["end-one", "trump", "dreck-dealt"]);  // a new phase: held up against the next play

/** What the banner says of one update's ``events``: ``{lines, ms, hold}`` for ``banner`` (motion.js).
 * The big news (war, bounce, phase two, the trump, the dreck, a seat out) is kept, in the order it
 * happened; else the last small one (one card left, a killed trick; three cards only alone).
 * ``nameOf(seat)`` names a seat, the English word "You" marking the reader's own (said "You" or
 * "you" in the page's language, as the sentence needs); ``over``: the deal is over. */
export function announcement(events, nameOf, over = false) {
  const big = [];
  let small = "", news = false;
  const names = (seats, start) => seats.map((s, k) => {
    const n = nameOf(s);
    return n !== "You" ? n : start && k === 0 ? t("You") : t("you");
  });
  for (const ev of events) {
    const who = ev.seat >= 0 ? nameOf(ev.seat) : "";
    const you = who === "You";
    if (ev.kind === "war") big.push(t("War! {seats} play again", { seats: listOf(names(ev.seats, true)) }));
    else if (ev.kind === "bounce") big.push(t("Bounce! {seats} play again", { seats: listOf(names(ev.seats, true)) }));
    else if (ev.kind === "end-one") big.push(t("Phase two: get rid of your cards"));
    else if (ev.kind === "trump" && ev.seats.length) big.push(t("Trump: {suit}", { suit: suitWord("CDHS"[ev.seats[0]]) }));
    else if (ev.kind === "dreck-dealt") big.push(t("The dreck goes to {seats}", { seats: listOf(names(ev.seats, false)) }));
    else if (ev.kind === "out" && !over) big.push(you ? t("You are out") : t("{name} is out", { name: who }));
    else if (ev.kind === "one-card") small = you ? t("You have one card") : t("{name} has one card", { name: who });
    else if (ev.kind === "three-cards" && !small) small = you ? t("You have three cards") : t("{name} has three cards", { name: who });
    else if (ev.kind === "kill") small = you ? t("You killed the trick") : t("{name} killed the trick", { name: who });
    else continue;
    news = news || NEWS.has(ev.kind);
  }
  const lines = big.length ? big.slice(0, 3) : small ? [small] : [];
  return { lines, ms: 1600 + 800 * (lines.length - 1), hold: news ? 1400 : 0 };
}

/** "3 seats": English only (kept for older callers; new text uses tn() from i18n.js). */
export const plural = (k, word) => k + " " + word + (k === 1 ? "" : "s");

/** "1st", "2nd", ... in the page's language ("nr 1" in Swedish, "1." in Norwegian and Finnish). */
export function ordinal(k) {
  if (lang() !== "en") return t("{n}th", { n: k });  // one form does for the other languages
  return k + (k % 100 >= 11 && k % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][k % 10] || "th");
}

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
  const info = seats[i] || { name: t("Seat {n}", { n: i }) };
  const toAct = pub.to_act === i;
  const out = pub.out.indexOf(i);
  const lost = pub.loser === i;
  const sluff = pub.window.includes(i);
  const cls = ["plate", toAct ? "to-act" : "", out >= 0 ? "is-out" : "", lost ? "lost" : "",
               sluff ? "may-sluff" : "", i === ctx.me ? "mine" : ""].join(" ");
  const size = pub.hand_sizes[i];
  const words = [info.name, tn("{n} card in hand", "{n} cards in hand", size)];
  const head = el("div", { class: "plate-head" }, el("span", { class: "pname", text: info.name }));
  if (pub.dealer === i) { head.append(el("span", { class: "chip dealer", title: t("dealer"), text: t("D") })); words.push(t("dealer")); }
  if (info.bot && !/\bbot\b/.test(info.name)) head.append(el("span", { class: "chip", text: t("bot") }));
  else if (!info.bot && info.connected === false) { head.append(el("span", { class: "chip away", text: t("away") })); words.push(t("away")); }
  const plate = el("div", { class: cls, "data-seat": i, role: "group" }, head);
  if (hands && hands[i]) {
    const row = el("div", { class: "open-hand" });
    for (const c of hands[i]) row.append(cardEl(c, { cls: "mini" + (pub.trump_suit === c[1] ? " trump" : "") }));
    if (!hands[i].length) row.append(el("span", { class: "muted", text: t("no cards") }));
    plate.append(row);
  } else {
    plate.append(el("div", { class: "plate-hand" }, fan(size), el("span", { class: "count", text: String(size) })));
  }
  const stats = el("div", { class: "pstats" });
  if (pub.phase === "phase one") {
    stats.append(el("span", { text: t("pile {n}", { n: pub.piles[i] }) }));
    words.push(tn("{n} card won", "{n} cards won", pub.piles[i]));
  }
  if (info.goats) stats.append(el("span", { class: "tally", text: t("{title} ×{n}", { title: ctx.title, n: info.goats }) }));
  plate.append(stats);
  const known = pub.known[i] || [];
  if (known.length && i === ctx.me) {
    // your own hand: only how much of it the others know (the cards are in your hand below)
    stats.append(el("span", { class: "known-count", title: t("everyone knows these cards of yours: {cards}", { cards: cardsText(known) }),
                              text: t("{n} known", { n: known.length }) }));
    words.push(t("everyone knows {cards} in your hand", { cards: cardsText(known) }));
  } else if (known.length && !(hands && hands[i])) {
    const row = el("div", { class: "known", title: t("cards everyone knows are in this hand") },
      el("span", { class: "known-tag", text: t("known") }));
    for (const c of known) row.append(cardEl(c, { cls: "micro", label: t("{card}, known to be in {name}'s hand", { card: cardWords(c), name: info.name }) }));
    plate.append(row);
    words.push(t("known: {cards}", { cards: cardsText(known) }));
  }
  let state = "";
  if (lost) state = t("the {title}", { title: ctx.title });
  else if (out >= 0) state = t("out, {place}", { place: ordinal(out + 1) });
  else if (toAct) state = i === ctx.me ? t("your turn") : t("to play");
  else if (sluff) state = t("may sluff");
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
    stack.append(cardEl(trumpCard, { cls: "small under", label: t("trump card {card}, under the stock", { card: cardWords(trumpCard) }) }));
  }
  if (pub.exposed) stack.append(cardEl(pub.exposed, { cls: "small under", label: t("face up under the stock: {card}", { card: cardWords(pub.exposed) }) }));
  for (let k = 0; k < Math.min(pub.stock, 3); k++) stack.append(backEl("small pile-card"));
  if (ctx.stockButton && pub.stock > 0) {
    const b = el("button", { type: "button", class: "stack-btn", "aria-label": t("Turn up the top stock card (T)"), onclick: ctx.stockButton });
    stack.append(b);
  }
  stock.append(stack, el("span", { class: "pile-label", text: pub.phase === "phase one" || pub.stock ? t("stock {n}", { n: pub.stock }) : t("no stock") }));
  if (pub.reserve) stock.append(el("span", { class: "pile-label", text: t("reserve {n}", { n: pub.reserve }) }));
  const trump = el("div", { class: "trump" });
  if (pub.trump_suit) {
    trump.append(el("span", { class: "pile-label", text: t("trump") }), suitEl(pub.trump_suit, "suit big"),
                 el("span", { class: "trump-word", text: suitWord(pub.trump_suit) }));
    if (trumpCard && !(pub.stock > 0 && pub.phase === "phase one")) trump.append(el("span", { class: "muted", text: "(" + cardText(trumpCard) + ")" }));
  } else {
    trump.append(el("span", { class: "pile-label", text: t("trump") }), el("span", { class: "trump-unknown", text: "?" }));
    const holder = pub.trump_holder;
    const who = holder < 0 ? t("the last stock card will name it") : holder === ctx.me ? t("you hold the face-down trump card")
      : t("{name} holds the face-down trump card", { name: ctx.seats[holder].name });
    if (ctx.trumpCard && holder === ctx.me) trump.append(el("span", { class: "muted", text: t("yours: {card}", { card: cardText(ctx.trumpCard) }) }));
    else trump.append(el("span", { class: "muted small-text", text: who }));
  }
  box.append(stock, trump);
}

/** The phase in words, with the kill count in phase two. */
export function phaseText(ctx) {
  const { pub, seats } = ctx;
  if (pub.phase === "phase one") {
    return pub.leader >= 0 ? t("Phase one · trick led by {name}", { name: seats[pub.leader].name }) : t("Phase one");
  }
  if (pub.phase === "phase two") {
    const kill = tn("{n} play kills a trick", "{n} plays kill a trick", pub.kill_at);
    if (!pub.table.length) {
      if (ctx.secondPerson && pub.to_act === ctx.me) return t("Phase two · you lead · {kill}", { kill });  // a lesson's learner
      return pub.to_act >= 0 ? t("Phase two · {name} leads · {kill}", { name: seats[pub.to_act].name, kill })
                             : t("Phase two · {kill}", { kill });
    }
    return t("Phase two · {kill}", { kill: pub.kill });
  }
  if (pub.phase === "dreck deal") return t("The dreck is dealt");
  return t("The deal is over");
}

function playEl(seat, cards, ctx, { tag = "", beat = false } = {}) {
  const who = seat === ctx.me ? t("You") : ctx.seats[seat].name;
  const box = el("div", { class: "play" + (beat ? " to-beat" : ""), "data-seat": seat, "data-key": seat + ":" + cards.join(" ") });
  const row = el("div", { class: "play-cards" });
  for (const c of cards) row.append(cardEl(c, { cls: "tc" + (beat ? " beat-me" : ""), label: beat ? t("{card}, {name}, to beat", { card: cardWords(c), name: who })
                                                                                   : t("{card}, {name}", { card: cardWords(c), name: who }) }));
  if (beat || tag) box.append(el("span", { class: "tag", text: beat && !tag ? t("high") : tag }));
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
      if (k > 0) row.append(el("span", { class: "round-tag", text: ctx.pairs ? t("bounce") : t("war") }));
      for (const [s, c] of rnd) row.append(playEl(s, [c], ctx, { beat: k === head && beat.has(c) && pub.winner < 0 }));
      if (k === last && pub.round_seats.length && pub.winner < 0) {
        row.append(el("div", { class: "due", text: t("next: {names}", { names: pub.round_seats.map((s) => s === ctx.me ? t("you") : seats[s].name).join(", ") }) }));
      }
      box.append(row);
    });
    if (pub.sluffs.length) {
      const row = el("div", { class: "round sluffs" }, el("span", { class: "round-tag", text: t("sluffed") }));
      for (const [s, c] of pub.sluffs) row.append(playEl(s, [c], ctx));
      box.append(row);
    }
    if (pub.winner >= 0) {
      const mine = pub.winner === ctx.me, name = seats[pub.winner].name, later = pub.window.length > 0;
      const text = mine ? (later ? t("You take the trick once everyone is done sluffing") : t("You take the trick"))
        : later ? t("{name} takes the trick once everyone is done sluffing", { name }) : t("{name} takes the trick", { name });
      box.append(el("p", { class: "note", text }));
    }
    return;
  }
  if (pub.phase === "phase two" && pub.table.length) {
    const row = el("div", { class: "table-plays" });
    pub.table.forEach(([s, cards], k) => {
      const top = k === pub.table.length - 1;
      row.append(playEl(s, cards, ctx, { beat: top, tag: top ? t("to beat") : "" }));
    });
    box.append(row);
    if (pub.pick_up.length) box.append(el("p", { class: "note", text: t("picking up takes {cards}", { cards: cardsText(pub.pick_up) }) }));
    return;
  }
  const lead = pub.to_act >= 0 && pub.phase !== "game over" ? (pub.to_act === ctx.me ? t("You lead") : t("{name} leads", { name: seats[pub.to_act].name })) : "";
  const empty = el("div", { class: "empty-trick" });
  if (lead) empty.append(el("p", { class: "lead-note", text: lead }));
  if (ctx.lastTrick && ctx.lastTrick.plays.length) empty.append(lastTrickEl(ctx.lastTrick, ctx, true));
  box.append(empty);
}

/** A collected trick: who took (or killed, or picked up) which cards, each play with its seat. */
export function lastTrickEl(last, ctx, small = false) {
  const mine = last.seat === ctx.me;
  const name = ctx.seats[last.seat] ? ctx.seats[last.seat].name : "";
  const cards = cardsText(last.cards);
  let said;
  if (last.kind === "win") said = mine ? t("You took the trick") : t("{name} took the trick", { name });
  else if (last.kind === "kill") said = mine ? t("You killed the trick") : t("{name} killed the trick", { name });
  else if (last.kind === "pick-up") said = mine ? t("You picked up {cards}", { cards }) : t("{name} picked up {cards}", { name, cards });
  else said = mine ? t("You") : name;
  const box = el("div", { class: "last-trick" + (small ? " small" : "") });
  box.append(el("p", { class: "note", text: small ? t("Last trick: {what}", { what: said }) : said }));
  const row = el("div", { class: "table-plays" });
  for (const p of last.plays) row.append(playEl(p.seat, p.cards, ctx, { tag: p.kind === "sluff" ? t("sluff") : "" }));
  box.append(row);
  return box;
}
