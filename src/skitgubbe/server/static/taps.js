// What a tap on a card of your hand does, one rule a player can predict (issue 29): a tap plays the
// card at once (in phase two also a card that could start a run); with the "Run" toggle on, taps
// choose several cards, played together by "Play run".  A card that is playable only together with
// others (no play of it alone) switches the toggle on and is chosen.  Nothing here touches the page.

import { cardsText } from "./cards.js";
import { t } from "./i18n.js";

/** Per card of the hand (``"7H"``), from the seat's legal moves (``["play 7H", "play 7H 8H", "pick"]``):
 * ``{single, multi}``: ``single`` its one-card move ("play 7H", or "sluff 7H" when it is not
 * ``myTurn``), ``multi`` true when the card is part of a legal play of several cards. */
export function cardOptions(legal, myTurn = true) {
  const out = {};
  for (const move of legal) {
    const [verb, ...cards] = move.split(" ");
    if (verb !== "play" && verb !== "sluff") continue;
    if (cards.length === 1) {
      const o = (out[cards[0]] = out[cards[0]] || {});
      if (!o.single || (myTurn ? verb === "play" : verb === "sluff")) o.single = move;
    } else for (const c of cards) (out[c] = out[c] || {}).multi = true;
  }
  return out;
}

/** The legal play of exactly the cards ``selected`` (an array of cards), or null. */
export function playOf(legal, selected) {
  if (!selected.length) return null;
  const want = [...selected].sort().join(" ");
  return legal.find((move) => {
    const [verb, ...cards] = move.split(" ");
    return verb === "play" && cards.length === selected.length && [...cards].sort().join(" ") === want;
  }) || null;
}

/** What a tap on ``card`` does, given the legal moves (strings) and ``{runMode, selected}``:
 * ``{act: move}`` (send it now), ``{select: card}`` (choose or unchoose it for a run; with
 * ``run: true`` when the tap itself turns the Run toggle on) or ``{refuse: true}`` (not playable). */
export function tapOutcome(card, legal, { runMode = false, selected = [], myTurn = true } = {}) {
  const o = cardOptions(legal, myTurn)[card] || {};
  if (runMode || selected.length) {
    if (o.multi || selected.includes(card)) return { select: card };
    return o.single ? { act: o.single } : { refuse: true };
  }
  if (o.single) return { act: o.single };
  if (o.multi) return { select: card, run: true };
  return { refuse: true };
}

/** The longest legal play of several cards (its cards), or [] when there is none. */
export function longestRun(legal) {
  let best = [];
  for (const move of legal) {
    const [verb, ...cards] = move.split(" ");
    if (verb === "play" && cards.length > best.length) best = cards;
  }
  return best.length > 1 ? best : [];
}

/** Why "Play run" cannot be pressed now, in words for the button's title and the hint line ("" when
 * the cards ``selected`` make a legal play, or when there is no play of several cards). */
export function runWhy(legal, selected) {
  const run = longestRun(legal);
  if (!run.length || playOf(legal, selected)) return "";
  if (!selected.length) return t("Pick the cards of a run, then Play run: {cards}", { cards: cardsText(run) });
  return t("{chosen} is not a play you may make now: for example {cards}", { chosen: cardsText(selected), cards: cardsText(run) });
}
