// The lobby's house-rules builder: every option of the rules as a form field with its help text,
// starting from the preset chosen above it.  Each change is sent to the server, which builds the
// rules with the engine (POST /api/rules/check) and answers with their TOML or the engine's refusal
// naming the options at fault; a TOML file can be downloaded and uploaded back (POST /api/rules/read).

import { lang, t, tn } from "./i18n.js";
import { el } from "./render.js";

const $ = (id) => document.getElementById(id);
const B = { asked: 0, options: null, preset: null, result: null, error: null, busy: null, timer: null, url: null,
            onChange: () => {} };

const words = (name) => name.replace(/_/g, " ");
/** An option's label in the reader's language (its player's words), or its engine name in words. */
const labelOf = (name) => {
  const f = B.options && B.options.rule_fields.find((x) => x.name === name);
  return f && f.label ? f.label : words(name);
};
const presetOptions = () => B.options.presets.find((p) => p.name === B.preset).options;

async function post(path, body) {
  let r;
  try {
    r = await fetch(path + "?lang=" + lang(), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (e) { return { ok: false, data: { message: t("the server cannot be reached: check the connection") } }; }
  let data = {};
  try { data = await r.json(); } catch (e) { /* not JSON */ }
  return { ok: r.ok, data };
}

function field(f) {
  const id = "opt-" + f.name, help = "help-" + f.name;
  let input;
  if (f.kind === "bool") input = el("input", { type: "checkbox", id, name: f.name });
  else if (f.kind === "choice") {
    input = el("select", { id, name: f.name });
    for (const c of f.choices) input.append(el("option", { value: c, text: c }));
  } else if (f.kind === "int") {
    const lows = f.ranges.map((r) => r[0]), highs = f.ranges.map((r) => r[1]);
    input = el("input", { type: "number", id, name: f.name, step: 1, min: Math.min(...lows), max: Math.max(...highs),
                          inputmode: "numeric" });
  } else input = el("input", { type: "text", id, name: f.name, maxlength: f.max_chars, autocomplete: "off",
                               spellcheck: "false", placeholder: f.name === "name" ? t("e.g. our-goat") : null });
  const fault = "fault-" + f.name;
  input.setAttribute("aria-describedby", help);
  input.dataset.help = help;
  input.dataset.fault = fault;
  input.dataset.kind = f.kind;
  input.addEventListener(f.kind === "text" || f.kind === "int" ? "input" : "change", changed);
  // the label in a player's words; the engine's name (what a house-rules file writes) small beside it
  const label = el("label", { for: id, class: "opt-name" }, f.label || words(f.name),
    el("code", { class: "opt-key", text: f.name, "aria-hidden": "true" }));
  const note = el("span", { id: help, class: "opt-help", text: f.help });
  // the engine's refusal, when it names this option, shown right under it (filled by mark())
  const bad = el("span", { id: fault, class: "opt-fault", hidden: true });
  return el("div", { class: "opt opt-" + f.kind, "data-option": f.name },
    ...(f.kind === "bool" ? [input, label] : [label, input]), note, bad);
}

function valueOf(input) {
  if (input.dataset.kind === "bool") return input.checked;
  if (input.dataset.kind === "int") {
    const t = input.value.trim();
    return /^-?[0-9]{1,9}$/.test(t) ? +t : t;   // text the engine refuses, naming the option
  }
  return input.value;
}
function setValue(input, v) {
  if (input.dataset.kind === "bool") input.checked = !!v;
  else input.value = v === null || v === undefined ? "" : String(v);
}
const inputs = () => [...document.querySelectorAll("#house-fields [name]")];

/** The options changed from the preset (and the name, when one is given). */
function changes() {
  const base = presetOptions(), out = {};
  for (const input of inputs()) {
    const name = input.name, v = valueOf(input);
    if (name === "name") { if (String(v).trim()) out.name = String(v).trim(); continue; }
    if (v !== base[name]) out[name] = v;
  }
  return out;
}

/** Mark the options a refusal names: each gets the refusal under it (and its input points at it). */
function mark(fields, why) {
  document.querySelectorAll("#house-fields .opt").forEach((o) => {
    const bad = fields.includes(o.dataset.option);
    o.classList.toggle("bad", bad);
    const input = o.querySelector("[name]"), fault = document.getElementById(input.dataset.fault);
    fault.hidden = !bad;
    fault.textContent = bad ? t("Not allowed: {why}", { why }) : "";
    if (bad) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", input.dataset.fault + " " + input.dataset.help);
    } else {
      input.removeAttribute("aria-invalid");
      input.setAttribute("aria-describedby", input.dataset.help);
    }
  });
}

/** Bring the first field a refusal names into view (and focus it, unless the person is typing in it). */
function showFirstBad(fields) {
  const first = inputs().find((i) => fields.includes(i.name));
  if (!first || $("house-body").hidden) return;
  const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
  first.closest(".opt").scrollIntoView({ block: "center", behavior: reduce ? "auto" : "smooth" });
  // focus moves to it, unless the person is typing in a field (the refusal is read out from the summary)
  const typing = document.activeElement && ["text", "number"].includes(document.activeElement.type);
  if (document.activeElement !== first && !typing) first.focus({ preventScroll: true });
}

function show() {
  const n = B.result ? B.result.changed.length : 0;
  const fields = B.error && B.error.fields && B.error.fields.length ? B.error.fields.map(labelOf).join(", ") : "";
  $("house-error").textContent = !B.error ? ""
    : fields ? t("These rules are not allowed: {why} (see {fields})", { why: B.error.message, fields })
    : t("These rules are not allowed: {why}", { why: B.error.message });
  if (B.error) $("house-state").textContent = "";
  else if (B.result) {
    $("house-state").textContent = n
      ? tn("{n} change from {preset}: {changes}. The table is made with these house rules, called {name}.",
           "{n} changes from {preset}: {changes}. The table is made with these house rules, called {name}.", n,
           { preset: B.preset, changes: B.result.changed.map(labelOf).join(", "), name: B.result.name })
      : t("No change from {preset} yet.", { preset: B.preset });
  }
  const dl = $("house-download");
  if (B.url) URL.revokeObjectURL(B.url);
  B.url = B.result && !B.error ? URL.createObjectURL(new Blob([B.result.toml], { type: "application/toml" })) : null;
  dl.href = B.url || "#";
  dl.setAttribute("aria-disabled", B.url ? "false" : "true");
  dl.download = (B.result ? B.result.name.replace(/[^A-Za-z0-9+._-]/g, "_") : "house-rules") + ".toml";
  mark(B.error && B.error.fields ? B.error.fields : [], B.error ? B.error.message : "");
}

async function check(byPerson) {
  const sent = changes(), asked = B.asked;
  const { ok, data } = await post("/api/rules/check", { preset: B.preset, options: sent });
  // an answer to an older form (another preset chosen, a field changed since) must not undo the newer
  if (asked !== B.asked) return;
  if (ok) {
    B.result = data; B.error = null;
    // the engine may set an option by itself (two packs raise the most players): show what it made
    for (const input of inputs()) if (input.name !== "name" && valueOf(input) !== data.options[input.name]) setValue(input, data.options[input.name]);
  } else { B.error = { message: data.message || t("the server refused these rules"), fields: data.fields || [] }; }
  show();
  if (B.error && byPerson) showFirstBad(B.error.fields);
  B.onChange(active());
}

/** A field changed (``byPerson``: by the person, not by a preset or file filling the form). */
function changed(byPerson = true) {
  clearTimeout(B.timer);
  B.asked += 1;
  const person = byPerson === true || (byPerson instanceof Event && byPerson.isTrusted !== false);
  B.busy = new Promise((resolve) => { B.timer = setTimeout(() => check(person).then(resolve), 250); });
}

/** Forget a check not yet answered (an uploaded file replaces the form): its answer must not undo
 * what the upload shows, a refusal above all. */
function cancelCheck() {
  clearTimeout(B.timer);
  B.asked += 1;
  B.busy = null;
}

/** The house rules to make the table with: null when nothing was changed (play the preset), else
 * ``{toml, min_players, max_players, name}``; throws an Error naming the fault when the engine refused. */
export async function houseRules() {
  if (B.busy) await B.busy;
  if (B.error) throw new Error(t("The house rules are not allowed: {why}", { why: B.error.message }));
  return active();
}
function active() {
  if (!B.result || B.error) return null;
  return B.result.changed.length || B.result.name !== B.preset + "+house" ? B.result : null;
}

/** Fill the form with ``preset``'s values (the preset chosen above the builder). */
export function resetBuilder(preset, values = null, name = "") {
  B.preset = preset;
  const base = values || presetOptions();
  for (const input of inputs()) setValue(input, input.name === "name" ? name : base[input.name]);
  B.result = null; B.error = null;
  $("house-from").textContent = preset;
  changed(false);
}

/** Build the form from ``options`` (the /api/options answer); ``choosePreset(name)`` selects a
 * preset above (for an uploaded file), ``onChange(rules or null)`` is told the rules in force. */
export function initBuilder(options, { preset, choosePreset, onChange }) {
  B.options = options; B.onChange = onChange;
  const box = $("house-fields");
  const groups = new Map();
  for (const f of options.rule_fields) {
    if (!groups.has(f.group)) {
      const fs = el("fieldset", { class: "opt-group" }, el("legend", { text: f.group_label || f.group }));
      groups.set(f.group, fs); box.append(fs);
    }
    groups.get(f.group).append(field(f));
  }
  $("house-reset").addEventListener("click", () => resetBuilder(B.preset));
  // a closed <details> only hides its content from view: hide it from everything (axe, find-in-page)
  $("house").addEventListener("toggle", () => { $("house-body").hidden = !$("house").open; });
  $("house-download").addEventListener("click", (ev) => { if (!B.url) { ev.preventDefault(); show(); } });
  $("house-upload").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const text = await file.text();
    ev.target.value = "";
    cancelCheck();
    const { ok, data } = await post("/api/rules/read", { text });
    if (!ok) {
      B.error = { message: t("{file}: {why}", { file: file.name, why: data.message || t("not house rules") }), fields: data.fields || [] };
      show();
      showFirstBad(B.error.fields);
      return;
    }
    choosePreset(data.preset);
    resetBuilder(data.preset, data.options, data.name);
    $("house").open = true;
  });
  resetBuilder(preset);
}
