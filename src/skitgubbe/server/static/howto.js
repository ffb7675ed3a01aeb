// "How to play": the table's own rules in a dialog that never leaves the deal, and the glossary's
// game words explained where the page writes them (status line, log, ticker, reasons).
//   initHowto(roomOf)      wires the header's "How to play" button; roomOf() is the table's code (or "")
//   explainTerms(element)  wraps the glossary's terms in element's text in <abbr> with the definition:
//                          a tooltip on hover and focus, a popover on tap; returns element
// The rules come from GET /api/rooms/{code}/howto (the room's preset or house rules) or GET
// /api/howto?preset=NAME, the words from GET /api/glossary, both in the page's language
// (server/howto.py).  The worked pictures are drawn with cards.js's cardEl.

import { cardEl, cardWords, tidy } from "./cards.js";
import { lang, t } from "./i18n.js";
import { coachOn, setCoach } from "./coach.js";

const $ = (id) => document.getElementById(id);

// -- the rules panel ---------------------------------------------------------------------------------
let roomOf = () => "";
let opener = null;

async function rulesData() {
  const code = roomOf();
  const q = "lang=" + encodeURIComponent(lang());
  const url = code ? "/api/rooms/" + encodeURIComponent(code) + "/howto?" + q
                   : "/api/howto?preset=" + encodeURIComponent(presetOf()) + "&" + q;
  const r = await fetch(url);
  if (!r.ok) throw new Error(t("The rules could not be loaded."));
  return r.json();
}

function presetOf() {
  const chosen = document.querySelector("input[name=preset]:checked");
  return (chosen && chosen.value) || "pagat";
}

function sectionEl(s) {
  const box = document.createElement("section");
  box.className = "howto-section";
  const h = document.createElement("h3");
  h.textContent = s.title;
  const ul = document.createElement("ul");
  for (const line of s.lines) {
    const li = document.createElement("li");
    li.textContent = tidy(line.text);
    if (line.key) li.dataset.key = line.key;
    ul.append(li);
  }
  const fig = document.createElement("figure");
  fig.className = "howto-picture";
  const cards = document.createElement("div");
  cards.className = "howto-cards";
  for (const c of s.picture.cards) cards.append(cardEl(c, { cls: "mini", label: cardWords(c) }));
  const cap = document.createElement("figcaption");
  cap.textContent = tidy(s.picture.caption);
  fig.append(cards, cap);
  box.append(h, ul, fig);
  explainTerms(ul, { once: true });
  return box;
}

/** Open the panel with the table's rules (fetched afresh: the language may have changed). */
export async function openHowto() {
  const dlg = $("howto");
  const body = $("howto-body");
  opener = document.activeElement;
  body.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("Loading…") }));
  $("howto-tips").checked = coachOn();
  if (!dlg.open) dlg.showModal();
  try {
    const data = await rulesData();
    body.replaceChildren(...data.sections.map(sectionEl));
    body.dataset.rules = data.rules;
  } catch (e) {
    body.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: e.message }));
  }
}

function closeHowto() {
  const dlg = $("howto");
  if (dlg.open) dlg.close();
}

/** Wire the "How to play" button and its dialog; `roomFn()` gives the table's code, "" for none. */
export function initHowto(roomFn) {
  roomOf = roomFn || roomOf;
  const dlg = $("howto");
  if (!dlg) return;
  $("howto-btn").addEventListener("click", openHowto);
  $("howto-close").addEventListener("click", closeHowto);
  dlg.addEventListener("close", () => { if (opener && opener.focus) opener.focus(); });
  dlg.addEventListener("click", (ev) => { if (ev.target === dlg) closeHowto(); });  // a tap beside it
  $("howto-tips").addEventListener("change", (ev) => setCoach(ev.target.checked));
  document.addEventListener("click", (ev) => { if (!ev.target.closest || !ev.target.closest("abbr.term")) hidePop(); });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") hidePop(); });
}

// -- the glossary --------------------------------------------------------------------------------------
const WORDS = {};      // lang -> {term: definition} once loaded
const LOADING = {};    // lang -> promise
const PATTERN = {};      // lang -> RegExp over the terms, longest first

function glossaryOf(code) {
  if (WORDS[code]) return WORDS[code];
  if (!LOADING[code]) {
    LOADING[code] = fetch("/api/glossary?lang=" + encodeURIComponent(code))
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}))
      .then((words) => {
        WORDS[code] = words;
        const terms = Object.keys(words).filter((w) => w.length >= 3).sort((a, b) => b.length - a.length);
        const esc = terms.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s+"));
        // a term, as a whole word, with a short ending (sluffs, sluffed; Swedish sticket, trumfen)
        const tail = code === "en" ? "(?:s|es|ed|en|n|ing)?" : "\\p{L}{0,3}";
        PATTERN[code] = terms.length ? new RegExp("(?<![\\p{L}\\p{N}])(" + esc.join("|") + ")" + tail + "(?![\\p{L}\\p{N}])", "giu") : null;
        for (const node of document.querySelectorAll("[data-terms-wanted]")) {
          const [once, focusable] = node.dataset.termsWanted.split(" ").map((w) => w === "1");
          delete node.dataset.termsWanted;
          explainTerms(node, { once, focusable });
        }
      });
  }
  return null;
}

function definitionOf(words, found) {
  const key = found.toLowerCase().replace(/\s+/g, " ");
  for (const [term, text] of Object.entries(words)) if (term.toLowerCase() === key) return [term, text];
  return null;
}

/** Wrap the glossary's terms found in `element`'s text (in the page's language) in
 * <abbr class="term"> with the definition as its title (hover), focusable (focus shows it) and a
 * popover on tap (`once`: only each term's first place in `element`; `focusable: false` for the log,
 * whose many lines would otherwise each add tab stops: there hover and tap explain them).  Text already wrapped, and
 * buttons, links and inputs, are left alone.  Returns
 * `element`.  Before the glossary has loaded, the element is remembered and done once it is. */
export function explainTerms(element, { once = false, focusable = true } = {}) {
  if (!element) return element;
  const code = lang();
  const words = glossaryOf(code);
  if (!words) { element.dataset.termsWanted = (once ? "1" : "0") + " " + (focusable ? "1" : "0"); return element; }
  const re = PATTERN[code];
  if (!re) return element;
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement && n.parentElement.closest("abbr, button, a, input, textarea, select, svg")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [], seen = new Set();
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    re.lastIndex = 0;
    let m, at = 0;
    const parts = [];
    while ((m = re.exec(text))) {
      const def = definitionOf(words, m[1]);
      if (!def || (once && seen.has(def[0]))) continue;
      seen.add(def[0]);
      if (m.index > at) parts.push(document.createTextNode(text.slice(at, m.index)));
      const abbr = document.createElement("abbr");
      abbr.className = "term";
      abbr.title = def[0] + ": " + def[1];
      if (focusable) abbr.tabIndex = 0;
      abbr.dataset.term = def[0];
      abbr.textContent = m[0];
      abbr.addEventListener("click", (ev) => { ev.stopPropagation(); showPop(abbr); });
      abbr.addEventListener("focus", () => showPop(abbr));
      abbr.addEventListener("blur", hidePop);
      parts.push(abbr);
      at = m.index + m[0].length;
    }
    if (!parts.length) continue;
    if (at < text.length) parts.push(document.createTextNode(text.slice(at)));
    node.replaceWith(...parts);
  }
  return element;
}

function popEl() {
  let pop = $("term-pop");
  if (!pop) {
    pop = document.createElement("div");
    pop.id = "term-pop";
    pop.className = "term-pop";
    pop.setAttribute("role", "tooltip");
    pop.hidden = true;
    document.body.append(pop);
  }
  return pop;
}

function showPop(abbr) {
  const pop = popEl();
  const words = WORDS[lang()] || {};
  const term = abbr.dataset.term;
  pop.replaceChildren(Object.assign(document.createElement("strong"), { textContent: term }),
    document.createTextNode(" " + (words[term] || "")));
  pop.hidden = false;
  const r = abbr.getBoundingClientRect();
  const w = Math.min(320, window.innerWidth - 16);
  pop.style.maxWidth = w + "px";
  pop.style.left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8)) + "px";
  const below = r.bottom + 6;
  pop.style.top = (below + 80 < window.innerHeight ? below : Math.max(8, r.top - 86)) + "px";
  abbr.setAttribute("aria-describedby", "term-pop");
}

function hidePop() {
  const pop = $("term-pop");
  if (pop) pop.hidden = true;
}
