// Motion from the event stream: cards fly from a seat to the trick, from the stock to a hand, from
// the trick to its winner.  Every animation decorates a table that is already drawn in its final
// state, so the page is the same without them: with motion off (the Motion button, or the
// system's prefers-reduced-motion) each function returns at once.

const KEY = "skitgubbe:motion";
const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export const motion = {
  on: (localStorage.getItem(KEY) || (reduced ? "off" : "on")) === "on",
  speed: 1,  // shorter when messages queue up
  set(on) { this.on = on; localStorage.setItem(KEY, on ? "on" : "off"); },
};

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms * motion.speed));

const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];

/** Animate ``elem`` (already at its place) in from ``from`` (a DOMRect). */
export function flyIn(elem, from, { duration = 360, scale = 0.55, delay = 0 } = {}) {
  if (!motion.on || !from || !elem.animate) return Promise.resolve();
  const to = elem.getBoundingClientRect();
  if (!to.width) return Promise.resolve();
  const [fx, fy] = centre(from), [tx, ty] = centre(to);
  const a = elem.animate([
    { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${scale})`, opacity: 0.35 },
    { transform: "none", opacity: 1 },
  ], { duration: duration * motion.speed, delay: delay * motion.speed, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  return a.finished.catch(() => {});
}

/** Copies of ``elems`` (at their places now) fly to ``to`` (a DOMRect) and vanish. */
export function flyAway(elems, to, { duration = 420, fade = false } = {}) {
  if (!motion.on || !elems.length) return Promise.resolve();
  const layer = document.getElementById("flight") || document.body.appendChild(Object.assign(document.createElement("div"), { id: "flight" }));
  const runs = [];
  elems.forEach((e, k) => {
    const r = e.getBoundingClientRect();
    if (!r.width) return;
    const ghost = e.cloneNode(true);
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, { position: "fixed", left: r.left + "px", top: r.top + "px", width: r.width + "px",
                                 height: r.height + "px", margin: "0", zIndex: 50, pointerEvents: "none" });
    layer.append(ghost);
    let frames;
    if (to) {
      const [fx, fy] = centre(r), [tx, ty] = centre(to);
      frames = [{ transform: "none", opacity: 1 }, { transform: `translate(${tx - fx}px, ${ty - fy}px) scale(.35)`, opacity: fade ? 0 : 0.6 }];
    } else {
      frames = [{ transform: "none", opacity: 1 }, { transform: "translateY(-40px) scale(.8) rotate(8deg)", opacity: 0 }];
    }
    const a = ghost.animate(frames, { duration: duration * motion.speed, delay: k * 40 * motion.speed, easing: "ease-in", fill: "forwards" });
    runs.push(a.finished.catch(() => {}).then(() => ghost.remove()));
  });
  return Promise.all(runs);
}

/** Card backs fly from ``from`` to ``to`` (a draw by another seat, a share of the dreck). */
export function backsFly(count, from, to, template) {
  if (!motion.on || !from || !to || !template) return Promise.resolve();
  const layer = document.getElementById("flight") || document.body.appendChild(Object.assign(document.createElement("div"), { id: "flight" }));
  const runs = [];
  for (let k = 0; k < Math.min(count, 6); k++) {
    const ghost = template.cloneNode(true);
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, { position: "fixed", left: from.left + "px", top: from.top + "px", width: from.width + "px",
                                 height: from.height + "px", margin: "0", zIndex: 50, pointerEvents: "none" });
    layer.append(ghost);
    const [fx, fy] = centre(from), [tx, ty] = centre(to);
    const a = ghost.animate([{ transform: "none" }, { transform: `translate(${tx - fx}px, ${ty - fy}px) scale(.5)`, opacity: 0.4 }],
                            { duration: 380 * motion.speed, delay: k * 60 * motion.speed, easing: "ease-in-out", fill: "forwards" });
    runs.push(a.finished.catch(() => {}).then(() => ghost.remove()));
  }
  return Promise.all(runs);
}

/** A short word across the table ("War!", "Trump: hearts"), shown with or without motion: ``lines``
 * (a string or an array of them, each on its own line) for ``ms`` milliseconds, of which the first
 * ``hold`` stay up even when the next play starts (:func:`bannerEnds`). */
let bannerTimer = null, bannerHeld = 0;
const hideBanner = () => { const b = document.getElementById("banner"); if (b) b.classList.remove("show"); };
export function banner(lines, { ms = 1600, hold = 0 } = {}) {
  const b = document.getElementById("banner");
  lines = [].concat(lines).filter(Boolean);
  if (!b || !lines.length) return;
  b.replaceChildren(...lines.map((t) => Object.assign(document.createElement("span"), { className: "banner-line", textContent: t })));
  b.classList.add("show");
  clearTimeout(bannerTimer);
  bannerHeld = Date.now() + hold;
  bannerTimer = setTimeout(hideBanner, ms);
}

/** The next play starts: the word about the last one ends now (or when its ``hold`` is over). */
export function bannerEnds() {
  const left = bannerHeld - Date.now();
  clearTimeout(bannerTimer);
  if (left > 0) bannerTimer = setTimeout(hideBanner, left);
  else hideBanner();
}
