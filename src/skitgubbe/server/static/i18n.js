// The page's words in the reader's language.  The catalogs are the project's gettext catalogs
// (skitgubbe/locale/LANG/LC_MESSAGES/skitgubbe.po), served as JSON by GET /api/catalog/LANG
// (server/catalogs.py).  A message id is the English text with {name} fields:
//   t("Table {code}", { code })              a message
//   tn("{n} card", "{n} cards", n, { n })    a counted one (every shipped language: one / many)
//   tc("card rank", "J")                      one with a context
// Babel extracts the calls (babel.cfg: keywords t, tn:1,2, tc:1c,2), so write each id as one
// string literal.  index.html marks its words with data-t (the element's text) and data-t-attrs
// (attributes whose values are ids): translatePage() writes them in the reader's language.

export const LANGUAGES = { en: "English", sv: "Svenska", nb: "Norsk bokmål", fi: "Suomi" };
const ALIASES = { no: "nb", nn: "nb" };
let LANG = "en";
let MESSAGES = {};

function fill(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
}
/** Message id `id` in the reader's language, its {fields} filled from `args`. */
export function t(id, args) {
  const s = MESSAGES[id];
  return fill(typeof s === "string" && s ? s : id, args);
}
/** A counted message: `one` for n == 1, else `many` (translated), fields from `args`. */
export function tn(one, many, n, args) {
  const s = MESSAGES[one];
  const forms = Array.isArray(s) ? s : [one, many];
  return fill(n === 1 ? forms[0] : forms[forms.length > 1 ? 1 : 0], { n, ...(args || {}) });
}
/** Message id `id` with context `ctx` (gettext's pgettext). */
export function tc(ctx, id, args) {
  const s = MESSAGES[ctx + "\u0004" + id];
  return fill(typeof s === "string" && s ? s : id, args);
}
/** The reader's language code ("en", "sv", "nb", "fi"). */
export function lang() { return LANG; }

/** The language to show: the one chosen with the picker (kept in localStorage), else the first
 * of the browser's languages that we ship, else English.  `?lang=xx` in the address wins. */
export function wantedLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  let saved = null;
  try { saved = localStorage.getItem("skitgubbe:lang"); } catch (e) { /* private mode */ }
  for (const tag of [asked, saved, ...(navigator.languages || [navigator.language])]) {
    if (!tag) continue;
    const code = tag.toLowerCase().split(/[-_]/)[0];
    const known = ALIASES[code] || code;
    if (known in LANGUAGES) return known;
  }
  return "en";
}

/** Load language `code`'s catalog (English needs none) and make it the page's language. */
export async function useLanguage(code) {
  if (!(code in LANGUAGES)) code = "en";
  let messages = {};
  if (code !== "en") {
    try {
      const r = await fetch("/api/catalog/" + code);
      if (r.ok) messages = (await r.json()).messages || {};
    } catch (e) { /* offline: English it is */ }
  }
  LANG = code;
  MESSAGES = messages;
  document.documentElement.lang = code;
  return code;
}

/** Remember `code` as the reader's choice. */
export function rememberLanguage(code) {
  try { localStorage.setItem("skitgubbe:lang", code); } catch (e) { /* private mode */ }
}

/** Write every data-t element and data-t-attrs attribute under `root` in the page's language.
 * The English id is kept in data-t-id / data-t-ATTR the first time, so a second language can
 * be written over the first. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-t]")) {
    if (!node.dataset.tId) node.dataset.tId = node.textContent.split(/\s+/).filter(Boolean).join(" ");
    node.textContent = t(node.dataset.tId);
  }
  for (const node of root.querySelectorAll("[data-t-attrs]")) {
    for (const name of node.dataset.tAttrs.split(",").map((s) => s.trim()).filter(Boolean)) {
      const keep = "tAttr" + name.replace(/(^|-)(\w)/g, (_, __, c) => c.toUpperCase());
      if (!(keep in node.dataset)) node.dataset[keep] = (node.getAttribute(name) || "").split(/\s+/).filter(Boolean).join(" ");
      if (node.dataset[keep]) node.setAttribute(name, t(node.dataset[keep]));
    }
  }
}
