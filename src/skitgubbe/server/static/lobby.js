// The lobby: the games by their own names (GET /api/options "games", server/presets.py), one tap
// "Play now" (you and bots at the chosen game's recommended table), and one step further the full
// set-up: the preset, players, seats, timer, the house-rules builder, two tables, a record replayed.
// table.js calls lobby(host) with what the lobby needs of the table: the state, the API, the page
// switch and enter(made, name) that sits the maker down at the table just made.

import { t, tn, lang } from "./i18n.js";
import { el } from "./render.js";
import { houseRules, initBuilder, resetBuilder } from "./builder.js";
import { openReplay } from "./replay.js";

const $ = (id) => document.getElementById(id);
let H = null;  // the host: { S, api, show, status, enter }

function botLabel(name) { return (H.S.options && H.S.options.bot_labels && H.S.options.bot_labels[name]) || name; }
/** The name to sit down with: the one typed, else the translated default. */
function myName() { return $("make-name").value.trim() || t("Player"); }

// -- the set-up, one step further ---------------------------------------------------------------------
function fillPlayers(wanted) {
  const p = chosenPreset();
  const sel = $("make-players"), keep = wanted || +sel.value || 4;
  sel.replaceChildren();
  for (let k = p.min_players; k <= p.max_players; k++) sel.append(el("option", { value: k, text: k }));
  sel.value = Math.min(Math.max(keep, p.min_players), p.max_players);
  fillSeats();
}
function chosenPreset() {
  const S = H.S;
  const checked = document.querySelector("input[name=preset]:checked");
  const p = S.options.presets.find((x) => x.name === (checked ? checked.value : "pagat")) || S.options.presets[0];
  return S.house ? { ...p, min_players: S.house.min_players, max_players: S.house.max_players } : p;
}
function fillSeats() {
  const S = H.S, box = $("make-seats");
  const keep = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(el("legend", { text: t("The other seats") }));
  for (let s = 1; s < +$("make-players").value; s++) {
    const sel = el("select", { id: "seat-" + s });
    sel.append(el("option", { value: "open", text: t("a friend (send the invite link)") }));
    for (const b of S.options.bots) sel.append(el("option", { value: b, text: t("bot: {bot}", { bot: botLabel(b) }) }));
    sel.value = keep[s - 1] || S.options.difficulties[0] || S.options.bots[0];
    box.append(el("label", { class: "field seat-choice", text: t("Seat {n}", { n: s + 1 }) + " " }, sel));
  }
}
function presetRange(p) {
  return p.min_players === p.max_players ? tn("{n} player", "{n} players", p.min_players)
    : t("{low}–{high} players", { low: p.min_players, high: p.max_players });
}
function fillPresetList() {
  const list = $("preset-list");
  for (const p of H.S.options.presets) {
    const id = "preset-" + p.name;
    list.append(el("label", { class: "preset", for: id },
      el("input", { type: "radio", name: "preset", id, value: p.name, checked: p.name === "goat" }),
      el("span", { class: "preset-name", text: p.name }),
      el("span", { class: "preset-range", text: presetRange(p) }),
      el("span", { class: "preset-desc", text: p.description })));
  }
}

// -- the games and "Play now" ------------------------------------------------------------------------------
function tableText(table) {
  const bots = tn("{n} bot", "{n} bots", table.players - 1);
  return tn("{n} player: you", "{n} players: you and {bots}", table.players, { bots });
}
function pickEl(preset, table, label, cls, about) {
  const id = "pick-" + preset;
  return el("label", { class: cls, for: id },
    el("input", { type: "radio", name: "game-pick", id, value: preset, "data-players": table.players, "data-about": about }),
    el("span", { class: "pick-name", text: label }),
    el("span", { class: "pick-table", text: tableText(table) }));
}
function gameCard(g) {
  const card = el("article", { class: "game-card" + (g.web ? "" : " terminal-only"), id: "game-" + g.key,
                               "aria-labelledby": "game-name-" + g.key });
  const head = el("h3", { class: "game-head" },
    el("span", { class: "game-name", id: "game-name-" + g.key, text: g.name }),
    el("span", { class: "game-home", text: g.home }));
  card.append(head, el("p", { class: "game-pitch", text: g.pitch }));
  if (!g.web) {
    card.append(el("p", { class: "game-terminal" }, t("In the terminal only:") + " ", el("code", { text: g.command })));
    return card;
  }
  card.append(pickEl(g.preset, g.table, t("Play {game}", { game: g.name }), "pick pick-main", g.name));
  if (g.variants.length) {
    const list = el("ul", { class: "variant-list" });
    for (const v of g.variants) {
      list.append(el("li", { class: "variant" }, pickEl(v.preset, v.table, v.name, "pick pick-variant",
                                               t("{game}, {variant}", { game: g.name, variant: v.name })),
        el("p", { class: "variant-changes", text: t("Changes: {changes}", { changes: v.changes.join("; ") }) })));
    }
    card.append(el("details", { class: "variants" },
      el("summary", { text: tn("{n} variant", "{n} variants", g.variants.length) }), list));
  }
  return card;
}
function picked() {
  const r = document.querySelector("input[name=game-pick]:checked");
  return r ? { preset: r.value, players: +r.dataset.players, about: r.dataset.about } : null;
}
/** A game or variant chosen: the set-up follows it (its preset, its recommended seat count). */
function onPick(ev) {
  const p = picked();
  if (!p || (ev && ev.target.name !== "game-pick")) return;
  const r = $("preset-" + p.preset);
  if (r) r.checked = true;
  if (ev) { H.S.house = null; resetBuilder(p.preset); }  // not when the lobby opens: the builder starts there
  fillPlayers(p.players);
  showPick();
}
/** A preset chosen in the set-up: the game (or variant) it belongs to becomes "Play now"'s choice too. */
function followPreset(name) {
  const r = $("pick-" + name);
  if (r && !r.checked) { r.checked = true; showPick(); }
}
/** Say under "Play now" what it will make, and mark the chosen game's card. */
function showPick() {
  const p = picked();
  if (!p) return;
  $("play-about").textContent = p.about + " · " + tableText({ players: p.players });
  for (const c of document.querySelectorAll(".game-card")) c.classList.toggle("chosen", !!c.querySelector("input:checked"));
}
async function playNow() {
  const p = picked();
  if (!p) return;
  const name = myName();
  $("play-error").textContent = "";
  $("play-now").disabled = true;
  try {
    const made = await H.api("/api/rooms", { name, preset: p.preset, players: p.players,
                                             seats: Array(p.players - 1).fill("easy") });
    H.enter(made, name);
  } catch (e) { $("play-error").textContent = e.message; }
  $("play-now").disabled = false;
}

// -- two linked tables (the Flurst page) and a record replayed -----------------------------------------------------
async function makeTwoTables(ev) {
  ev.preventDefault();
  const name = myName();
  $("two-error").textContent = "";
  const body = { name, people: +$("two-people").value, turn_seconds: +$("make-timer").value };
  $("two-go").disabled = true;
  try {
    const house = await houseRules();
    if (house) body.house_rules = house.toml; else body.preset = chosenPreset().name;
    H.enter(await H.api("/api/twotables", body), name);
  } catch (e) { $("two-error").textContent = e.message; }
  $("two-go").disabled = false;
}
async function uploadRecord(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const text = await file.text();
  ev.target.value = "";
  $("record-error").textContent = "";
  try {
    const r = await H.api("/api/records", { text });
    $("lobby").hidden = true;  // the replay covers the page: nothing behind it to reach
    openReplay(r, { room: null, me: 0, onClose: () => { H.show("lobby"); $("record-upload").focus(); } });
  } catch (e) { $("record-error").textContent = file.name + ": " + e.message; }
}

/** Open the lobby: fetch the games and presets in the reader's language, draw them, wire the
 * forms.  `host` is { S (the table's state: S.options and S.house are set here), api(path, body),
 * show(page id), status(text), enter(made, name) (sit down at the table made) }. */
export async function lobby(host) {
  H = host;
  const S = H.S;
  S.options = await H.api("/api/options?lang=" + encodeURIComponent(lang()));
  $("game-list").replaceChildren(...S.options.games.map(gameCard));
  fillPresetList();
  $("preset-list").addEventListener("change", () => {
    S.house = null; resetBuilder(chosenPreset().name); fillPlayers(); followPreset(chosenPreset().name);
  });
  $("make-players").addEventListener("change", fillSeats);
  initBuilder(S.options, {
    preset: chosenPreset().name,
    choosePreset: (name) => {
      const r = $("preset-" + name);
      if (r) r.checked = true;
      S.house = null; fillPlayers(); followPreset(name);
    },
    onChange: (rules) => {  // the seats are rebuilt only when the house rules change the player range
      const before = chosenPreset();
      S.house = rules;
      const after = chosenPreset();
      if (before.min_players !== after.min_players || before.max_players !== after.max_players) fillPlayers();
    },
  });
  $("record-upload").addEventListener("change", uploadRecord);
  $("two-form").addEventListener("submit", makeTwoTables);
  fillPlayers();
  $("game-list").addEventListener("change", onPick);
  // the game first chosen is the reader's home game: Skitgubbe in Swedish, Mattis in Norwegian,
  // Koira in Finnish, the Goat Game in English
  const home = { sv: "pagat", nb: "mattis", fi: "koira" }[lang()] || "goat";
  const first = $("pick-" + home) || $("pick-goat") || document.querySelector("input[name=game-pick]");
  if (first) { first.checked = true; onPick(); }
  $("make-name").value = localStorage.getItem("skitgubbe:name") || "";
  $("make-name").placeholder = t("Player");
  $("play-form").addEventListener("submit", (ev) => { ev.preventDefault(); playNow(); });
  $("make-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = myName();
    const seats = [...document.querySelectorAll("#make-seats select")].map((s) => s.value);
    const body = { name, players: +$("make-players").value, seats, turn_seconds: +$("make-timer").value };
    $("make-go").disabled = true;
    try {
      const house = await houseRules();
      if (house) body.house_rules = house.toml; else body.preset = chosenPreset().name;
      H.enter(await H.api("/api/rooms", body), name);
    } catch (e) { $("make-error").textContent = e.message; }
    $("make-go").disabled = false;
  });
  H.show("lobby");
  H.status(t("Pick a game and play now, or open an invitation link."));
}

/** Write the lobby again in the page's language (after the language picker changed it): the games,
 * their pitches and variants, the presets' lines and the seat choices, in that language from the
 * server; the game chosen, the variants open, the preset and the seats stay as they were. */
export async function refreshLobby() {
  if (!H || !H.S.options) return;
  const S = H.S, keep = picked(), preset = chosenPreset().name;
  const seats = [...document.querySelectorAll("#make-seats select")].map((s) => s.value);
  const open = [...document.querySelectorAll(".game-card .variants[open]")].map((v) => v.closest(".game-card").id);
  const fresh = await H.api("/api/options?lang=" + encodeURIComponent(lang()));
  S.options = { ...S.options, ...fresh };
  $("game-list").replaceChildren(...S.options.games.map(gameCard));
  for (const id of open) $(id)?.querySelector(".variants")?.setAttribute("open", "");
  $("preset-list").replaceChildren();
  fillPresetList();
  const r = $("preset-" + preset);
  if (r) r.checked = true;
  const again = keep && $("pick-" + keep.preset);
  if (again) { again.checked = true; showPick(); }
  fillSeats();
  [...document.querySelectorAll("#make-seats select")].forEach((s, k) => { if (seats[k]) s.value = seats[k]; });
  $("make-name").placeholder = t("Player");
  H.status(t("Pick a game and play now, or open an invitation link."));
}

// the language picker (table.js) changed the page's language: write the lobby again in it
document.addEventListener("skitgubbe:language", () => {
  if (!document.getElementById("lobby").hidden) refreshLobby();
});
