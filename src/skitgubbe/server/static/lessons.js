// The lessons of `skitgubbe learn` at the table: the list (GET /api/lessons), opened from How to play
// and from the lobby's "More options"; a chosen lesson (GET /api/lessons/N, a replay with the rule
// told at every step) plays in the replay viewer's lesson mode (replay.js).

import { lang, t } from "./i18n.js";
import { el } from "./render.js";
import { openReplay } from "./replay.js";

const $ = (id) => document.getElementById(id);
let opener = null;  // the button that opened the list: focused again when the lesson ends

async function getJSON(path) {
  const r = await fetch(path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang()));
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.message || t("The server did not answer."));
  return body;
}

async function openList(ev) {
  opener = ev.currentTarget;
  const dlg = $("lessons");
  $("lessons-error").textContent = "";
  if (!dlg.open) dlg.showModal();
  try {
    const { lessons } = await getJSON("/api/lessons");
    $("lessons-list").replaceChildren(...lessons.map((x) => el("li", {},
      el("button", { type: "button", "data-lesson": x.n, onclick: () => start(x.n) }, x.title),
      el("span", { class: "lesson-source", text: x.source }))));
    const first = $("lessons-list").querySelector("button");
    if (first) first.focus();
  } catch (e) { $("lessons-error").textContent = e.message; }
}

async function start(n) {
  let r;
  try { r = await getJSON("/api/lessons/" + n); } catch (e) { $("lessons-error").textContent = e.message; return; }
  $("lessons").close();
  if ($("howto").open) $("howto").close();
  const lobby = $("lobby");
  const lobbyShown = !lobby.hidden;
  lobby.hidden = true;  // the lesson covers the page: nothing behind it to reach
  openReplay(r, { room: null, me: r.human, onClose: () => {
    if (lobbyShown) lobby.hidden = false;
    if (opener && opener.isConnected && !opener.closest("dialog")) opener.focus();
    else if ($("howto-btn")) $("howto-btn").focus();
  } });
}

/** Wire the two "Lessons" buttons (How to play's and the lobby's) and the list's Close. */
export function initLessons() {
  for (const id of ["howto-lessons", "lobby-lessons"]) if ($(id)) $(id).addEventListener("click", openList);
  if ($("lessons-close")) $("lessons-close").addEventListener("click", () => $("lessons").close());
}
