// Card faces and backs drawn as SVG by this file (no image files, no font needed for the suits),
// and the one card notation of the page: "10" for the ten everywhere, suit symbols in text, the
// court cards' letters and the suits' names in the page's language (i18n.js: "card rank", "suit").
// Cards arrive in action notation ("7H", "TD"); English narration's "T♦" is shown as "10♦" (tidy).

import { lang, t, tc } from "./i18n.js";

export const SUITS = {
  C: { sym: "♣", word: "clubs", red: false },
  D: { sym: "♦", word: "diamonds", red: true },
  H: { sym: "♥", word: "hearts", red: true },
  S: { sym: "♠", word: "spades", red: false },
};

/** Suit ``s`` ("H") named in the page's language ("hearts", "hjärter"). */
export function suitWord(s) {
  switch (s) {
    case "C": return tc("suit", "clubs");
    case "D": return tc("suit", "diamonds");
    case "H": return tc("suit", "hearts");
    default: return tc("suit", "spades");
  }
}
/** Rank ``r`` ("T", "J") as the corner of a card shows it in the page's language ("10", "Kn"). */
function rankLabel(r) {
  let s;
  switch (r) {
    case "2": s = tc("card rank", "2"); break;
    case "3": s = tc("card rank", "3"); break;
    case "4": s = tc("card rank", "4"); break;
    case "5": s = tc("card rank", "5"); break;
    case "6": s = tc("card rank", "6"); break;
    case "7": s = tc("card rank", "7"); break;
    case "8": s = tc("card rank", "8"); break;
    case "9": s = tc("card rank", "9"); break;
    case "T": s = tc("card rank", "T"); break;
    case "J": s = tc("card rank", "J"); break;
    case "Q": s = tc("card rank", "Q"); break;
    case "K": s = tc("card rank", "K"); break;
    default: s = tc("card rank", "A");
  }
  return s === "T" ? "10" : s;  // the page shows the ten as 10 (English's catalog is the ids)
}
/** Rank ``r`` as a word for a card's spoken name ("ten", "knekt"). */
function rankName(r) {
  switch (r) {
    case "2": return tc("rank name", "two");
    case "3": return tc("rank name", "three");
    case "4": return tc("rank name", "four");
    case "5": return tc("rank name", "five");
    case "6": return tc("rank name", "six");
    case "7": return tc("rank name", "seven");
    case "8": return tc("rank name", "eight");
    case "9": return tc("rank name", "nine");
    case "T": return tc("rank name", "ten");
    case "J": return tc("rank name", "jack");
    case "Q": return tc("rank name", "queen");
    case "K": return tc("rank name", "king");
    default: return tc("rank name", "ace");
  }
}

/** Card ``c``'s rank as its corner shows it ("10", "J"; "Kn" in Swedish). */
export const rankText = (c) => rankLabel(c[0]);
/** Card ``c`` ("TH") in short: rank and suit symbol ("10♥"). */
export const cardText = (c) => rankText(c) + SUITS[c[1]].sym;
/** Card ``c``'s spoken name in the page's language ("ten of hearts", "hjärter tio"). */
export const cardWords = (c) => t("{rank} of {suit}", { rank: rankName(c[0]), suit: suitWord(c[1]) });
export const cardsText = (list) => list.map(cardText).join(" ");
export const isRed = (c) => SUITS[c[1]].red;
/** Text from the server (narration, reasons) in the page's notation: English's "T♦" becomes "10♦"
 * (the server writes other languages' ranks from their catalogs already). */
export const tidy = (text) => String(text).replace(/(^|[^\p{L}\p{N}])T([♣♦♥♠])/gu, "$110$2");

const RED = "#c8102e", BLACK = "#15171a";

// suit shapes in a 100 x 100 box
const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 28 2 12 14 2 28 2c10 0 18 6 22 15C54 8 62 2 72 2c14 0 26 10 26 26 0 22-20 40-48 64z",
  D: "M50 2 90 50 50 98 10 50z",
  S: "M50 2C78 28 98 44 98 62c0 14-11 24-24 24-9 0-16-4-20-11 1 10 6 17 14 23H32c8-6 13-13 14-23-4 7-11 11-20 11C13 86 2 76 2 62 2 44 22 28 50 2z",
  C: "M50 4a21 21 0 0 1 19 30 21 21 0 1 1-9 36c1 12 6 20 14 26H26c8-6 13-14 14-26a21 21 0 1 1-9-36A21 21 0 0 1 50 4z",
};

/** The hidden SVG holding the suit symbols and the back pattern, put once into the page. */
export function installSprite() {
  if (document.getElementById("card-sprite")) return;
  const symbols = Object.entries(SUIT_PATHS).map(([s, d]) =>
    `<symbol id="suit-${s}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`).join("");
  const div = document.createElement("div");
  div.innerHTML = `<svg id="card-sprite" width="0" height="0" style="position:absolute" aria-hidden="true"
    focusable="false"><defs>${symbols}
    <pattern id="back-pattern" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="10" height="10" fill="#1f3f8a"/><rect width="5" height="10" fill="#2d56b3"/></pattern>
    </defs></svg>`;
  document.body.prepend(div.firstChild);
}

const use = (s, x, y, size, flip = false) =>
  `<use href="#suit-${s}" x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}"` +
  (flip ? ` transform="rotate(180 ${x} ${y})"` : "") + "/>";

// pip centres (card box 100 x 140), rows top to bottom; pips below the middle are turned round
const L = 32, M = 50, R = 68;
const PIPS = {
  2: [[M, 30], [M, 110]],
  3: [[M, 30], [M, 70], [M, 110]],
  4: [[L, 30], [R, 30], [L, 110], [R, 110]],
  5: [[L, 30], [R, 30], [M, 70], [L, 110], [R, 110]],
  6: [[L, 30], [R, 30], [L, 70], [R, 70], [L, 110], [R, 110]],
  7: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [L, 110], [R, 110]],
  8: [[L, 30], [R, 30], [M, 50], [L, 70], [R, 70], [M, 90], [L, 110], [R, 110]],
  9: [[L, 30], [R, 30], [L, 57], [R, 57], [M, 70], [L, 83], [R, 83], [L, 110], [R, 110]],
  T: [[L, 30], [R, 30], [M, 44], [L, 57], [R, 57], [L, 83], [R, 83], [M, 96], [L, 110], [R, 110]],
};

function index(rank, s, colour) {
  const wide = rank.length > 1;
  const text = `<text x="${wide ? 4 : 7}" y="30" font-size="${wide ? 27 : 30}" font-weight="700"
    font-family="Arial, Helvetica, sans-serif" fill="${colour}"${wide ? ' textLength="29" lengthAdjust="spacingAndGlyphs"' : ""}>${rank}</text>`;
  return text + use(s, 17, 46, 22);
}

const faces = new Map();  // by language and card: the court letters differ

/** The SVG of card ``c``'s face ("7H"): corner indices and pips (a framed letter on a court card). */
export function faceSVG(c) {
  const key = lang() + ":" + c;
  let svg = faces.get(key);
  if (svg) return svg;
  const r = c[0], s = c[1], colour = SUITS[s].red ? RED : BLACK, rank = rankText(c);
  let middle;
  if (PIPS[r]) {
    middle = PIPS[r].map(([x, y]) => use(s, x, y, 19, y > 70)).join("");
  } else if (r === "A") {
    middle = use(s, 50, 72, 50);
  } else {
    middle = `<rect x="24" y="24" width="52" height="92" rx="4" fill="#f6ecd2" stroke="${colour}" stroke-width="1.5"/>
      <text x="50" y="72" text-anchor="middle" font-size="40" font-weight="700"
        font-family="Georgia, 'Times New Roman', serif" fill="${colour}"${rank.length > 1 ? ' textLength="44" lengthAdjust="spacingAndGlyphs"' : ""}>${rank}</text>` + use(s, 50, 94, 22);
  }
  svg = `<svg viewBox="0 0 100 140" class="svg-card" aria-hidden="true" focusable="false">
    <rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#8a8f98" stroke-width="2"/>
    <g fill="${colour}">${index(rank, s, colour)}${middle}
    <g transform="rotate(180 50 70)">${index(rank, s, colour)}</g></g></svg>`;
  faces.set(key, svg);
  return svg;
}

export const BACK_SVG = `<svg viewBox="0 0 100 140" class="svg-card" aria-hidden="true" focusable="false">
  <rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#8a8f98" stroke-width="2"/>
  <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#back-pattern)"/></svg>`;

/** A card face as an element: ``<span class="card">`` with an accessible name (role img), or
 * the tag given (a button, for the hand). */
export function cardEl(c, { tag = "span", cls = "", label = null } = {}) {
  const e = document.createElement(tag);
  e.className = "card " + (isRed(c) ? "red " : "") + cls;
  e.dataset.card = c;
  e.innerHTML = faceSVG(c);
  if (tag === "span") {
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", label || cardWords(c));
  } else if (label) {
    e.setAttribute("aria-label", label);
  }
  return e;
}

/** A card back (decorative unless given a label). */
export function backEl(cls = "", label = null) {
  const e = document.createElement("span");
  e.className = "card back " + cls;
  e.innerHTML = BACK_SVG;
  if (label) { e.setAttribute("role", "img"); e.setAttribute("aria-label", label); }
  else e.setAttribute("aria-hidden", "true");
  return e;
}

/** A suit symbol as inline SVG in the suit's colour, for text such as "trump ♥". */
export function suitEl(s, cls = "suit") {
  const e = document.createElement("span");
  e.className = cls + (SUITS[s].red ? " red" : "");
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", suitWord(s));
  e.innerHTML = `<svg viewBox="0 0 100 100" aria-hidden="true" focusable="false"><use href="#suit-${s}"
    fill="${SUITS[s].red ? RED : BLACK}"/></svg>`;
  return e;
}
