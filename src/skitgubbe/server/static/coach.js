// The "first deal" coach: at each of your turns one line saying what you are trying to do now and
// why the raised cards (the ones you may play) are raised.  On for a newcomer (no choice kept yet),
// off with one tap on "Hide tips" (kept in localStorage; the "How to play" panel turns it on again).
// The line is built from the phase, the table (public state) and the reasons the server sends with
// your moves (`why`, already in your language): no hidden card is read.
//   updateCoach(S)   after each render of the table (S: table.js's state: {table, me})
//   coachOn(), setCoach(on)

import { cardsText, tidy } from "./cards.js";
import { t, tn } from "./i18n.js";
import { explainTerms } from "./howto.js";

const KEY = "skitgubbe:coach";
let lastS = null;

/** Whether the tips are shown: true unless the reader turned them off. */
export function coachOn() {
  try { return localStorage.getItem(KEY) !== "off"; } catch (e) { return true; }
}

/** Turn the tips on or off, and remember it. */
export function setCoach(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
  if (lastS) updateCoach(lastS);
}

function box() {
  let b = document.getElementById("coach");
  if (b) return b;
  b = document.createElement("div");
  b.id = "coach";
  b.className = "coach";
  b.setAttribute("role", "note");
  b.setAttribute("aria-label", t("Tip"));
  const line = document.createElement("p");
  line.id = "coach-line";
  const hide = document.createElement("button");
  hide.type = "button";
  hide.id = "coach-hide";
  hide.className = "tool";
  hide.textContent = t("Hide tips");
  hide.addEventListener("click", () => {
    setCoach(false);
    document.getElementById("hand")?.focus();
  });
  b.append(line, hide);
  b.hidden = true;
  const hint = document.getElementById("hint");
  if (hint) hint.before(b);
  else document.body.append(b);
  return b;
}

/** What the reader is trying to do now, as one sentence (or "" when it is not their turn). */
export function aimLine(S) {
  const p = S.table && S.table.public, me = S.me;
  if (!p || !me || me.left || S.table.status !== "playing") return "";
  const seat = me.seat;
  const legal = me.legal || [];
  const inWindow = (p.window || []).includes(seat);
  const canPlay = legal.some((m) => m.kind !== "sluff" && m.kind !== "pass");
  if (inWindow && !canPlay) {
    return legal.some((m) => m.kind === "sluff")
      ? t("You may sluff a raised card: its rank is already in the trick; you get rid of it and draw a new one. Or say you are done.")
      : t("Nothing to sluff now: say you are done.");
  }
  if (p.to_act !== seat) return "";
  if (p.phase === "phase two") {
    if (!p.table.length) return t("Phase two: get rid of your cards. You lead: low cards are the hardest to get rid of later.");
    return t("Phase two: beat {cards} with a raised card, or pick up.", { cards: cardsText(p.to_beat) });
  }
  if (p.first_phase === "beat") return t("Phase one: beat the led card to win the trick, or pick it up.");
  const lead = !(p.rounds || []).some((r) => r.length);
  if (lead) return t("Phase one: you lead. The highest card takes the trick; the cards you take are your hand in phase two.");
  return t("Phase one: take the trick with a higher card, or give a low card you will not miss.");
}

/** Why the raised cards are raised: how many of your cards may be played and the server's reason. */
export function raisedLine(S) {
  const me = S.me;
  if (!me) return "";
  const why = me.why || {};
  const singles = new Set();
  let reason = "";
  for (const m of me.legal || []) {
    const [verb, ...cards] = m.move.split(" ");
    if (verb !== "play" && verb !== "sluff") continue;
    for (const c of cards) singles.add(c);
    if (!reason && why[m.move]) reason = why[m.move];
  }
  const hand = (me.hand || []).length;
  if (!singles.size) return "";
  if (!reason) return "";
  reason = tidy(reason);
  if (singles.size >= hand) return t("Every card is raised. Why: {reason}.", { reason });
  return tn("{n} card is raised. Why: {reason}.", "{n} cards are raised. Why: {reason}.", singles.size, { reason });
}

/** Show (or hide) the coach line for table state `S`; call after each render. */
export function updateCoach(S) {
  lastS = S;
  const b = box();
  const aim = coachOn() ? aimLine(S) : "";
  if (!aim) { b.hidden = true; return; }
  const raised = raisedLine(S);
  const line = document.getElementById("coach-line");
  line.textContent = raised ? aim + " " + raised : aim;
  explainTerms(line, { once: true });
  b.hidden = false;
}
