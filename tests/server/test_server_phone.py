"""The table on a phone (390x844) and motion that never hides the news, in headless Chromium (issue 29):
cards big enough to read, no empty felt between the trick and the hand, names never clipped, a long
hand that stays legible, one tap rule for runs said on screen, a status line that changes when the
card lands, and flying cards that pass under the status line and the card to beat."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import LiveServer
from test_server_browser import MOVE_SEEN, Deal, chromium, make_table, open_page, shot, status, wait

selenium = pytest.importorskip("selenium")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


@pytest.fixture
def browsers() -> Iterator[list[webdriver.Chrome]]:
    """Browsers a test opens (``open_page``), all closed at its end."""
    assert chromium  # (the browser tests' own helpers: skipped with them when there is no Chromium)
    opened: list[webdriver.Chrome] = []
    yield opened
    for d in opened:
        d.quit()

GEOMETRY = """
const r = (e) => e.getBoundingClientRect();
const hand = [...document.querySelectorAll('#hand .card')].map((c) => r(c).width);
const trick = [...document.querySelectorAll('#trick .play .card')].map((c) => r(c).width);
const dock = r(document.getElementById('dock'));
const blocks = [...document.querySelectorAll('#seats, #piles, #phase-line, #trick, #ticker')]
  .filter((e) => r(e).height > 0).map((e) => [r(e).top, r(e).bottom]).sort((a, b) => a[0] - b[0]);
let gap = 0, bottom = blocks.length ? blocks[0][1] : 0;
for (const [t, b] of blocks) { gap = Math.max(gap, t - bottom); bottom = Math.max(bottom, b); }
const felt = r(document.getElementById('felt'));
const clipped = [...document.querySelectorAll('#seats .pname')]
  .filter((p) => p.scrollWidth > p.clientWidth + 1).map((p) => p.textContent);
const outside = [...document.querySelectorAll('#seats .plate')].filter((p) => r(p).left < felt.left
  || r(p).right > felt.right).map((p) => p.textContent);
return {hand, trick, gap, deadBelow: Math.min(dock.top, felt.bottom) - bottom, clipped, outside,
        names: [...document.querySelectorAll('#seats .pname')].map((p) => p.textContent)};
"""
"""The sizes a player reads at a phone's table: the hand's and the trick's card widths (px), the largest
empty gap between the felt's parts and the empty felt left above the hand, names clipped, plates
outside the felt."""


def geometry(d: webdriver.Chrome) -> dict[str, Any]:
    return dict(d.execute_script(GEOMETRY))


def test_a_phone_table_reads_from_arms_length(server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    d = open_page(browsers, server, "phone")
    make_table(d, "pagat", 3, seats=["easy", "easy"])
    wait(d).until(lambda d: "Your turn" in status(d))
    # the bots have played to the trick: the cards on it are read from arm's length
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#trick .play .card") or geometry(d)["hand"])
    g = geometry(d)
    shot(d, "phone-table")
    assert g["hand"] and min(g["hand"]) >= 70, g
    assert not g["trick"] or min(g["trick"]) >= 56, g
    assert g["names"] and not g["clipped"], g  # "easy bot 1" whole, not "asy bot 1"
    assert not g["outside"], g
    assert g["gap"] < 90 and g["deadBelow"] < 120, g  # no dead felt between the trick and the hand


LONG_HAND = """
const hand = document.getElementById('hand');
const cards = [...hand.querySelectorAll('.card')];
const ranks = '23456789TJQKA', suits = 'CDHS';
let k = 0;
while (hand.querySelectorAll('.card').length < 24) {
  const c = cards[k % cards.length].cloneNode(true);
  c.dataset.card = ranks[k % 13] + suits[(k / 13 | 0) % 4];
  c.className = c.className.replace(/\\b(legal|illegal)\\b/, k % 3 ? 'illegal' : 'legal');
  hand.append(c); k++;
}
window.dispatchEvent(new Event('resize'));
"""

LONG_HAND_LOOK = """
const cards = [...document.querySelectorAll('#hand .card')];
const hand = document.getElementById('hand').getBoundingClientRect();
const out = cards.map((c, k) => {
  const r = c.getBoundingClientRect(), next = cards[k + 1] && cards[k + 1].getBoundingClientRect();
  // the part of the card's top left corner (its rank) not under the next card
  const sameRow = next && cards[k + 1].style.getPropertyValue('--row') === c.style.getPropertyValue('--row');
  const shown = sameRow ? next.left - r.left : r.width;
  const s = getComputedStyle(c);
  return {legal: c.classList.contains('legal'), top: r.top, row: c.style.getPropertyValue('--row'), shown,
          width: r.width, filter: s.filter,
          outline: getComputedStyle(c.querySelector('.svg-card')).outlineStyle};
});
return {cards: out, handTop: hand.top, handBottom: hand.bottom};
"""


def test_a_long_hand_on_a_phone_stays_legible(server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    d = open_page(browsers, server, "phone")
    make_table(d, "goat", 3, seats=["easy", "easy"])
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    d.execute_script("window.stopHand = true")
    d.execute_script(LONG_HAND)
    time.sleep(0.3)
    look = d.execute_script(LONG_HAND_LOOK)
    shot(d, "phone-long-hand")
    cards = look["cards"]
    assert len(cards) == 24
    assert min(c["width"] for c in cards) >= 70
    assert min(c["shown"] for c in cards) >= 24, [c["shown"] for c in cards]  # each rank can be read
    legal = [c for c in cards if c["legal"]]
    dimmed = [c for c in cards if not c["legal"]]
    assert all("grayscale" in c["filter"] for c in dimmed), dimmed[0]
    assert all("grayscale" not in c["filter"] for c in legal), legal[0]
    assert all(c["outline"] != "none" for c in legal)  # playable: raised with an outline
    for row in {c["row"] for c in cards}:  # playable cards stand higher than the dimmed ones of their row
        high = max(c["top"] for c in legal if c["row"] == row)
        assert high <= min(c["top"] for c in dimmed if c["row"] == row) - 10


TAP_RULE = """
const done = arguments[arguments.length - 1];
import('/static/taps.js').then(({ tapOutcome, runWhy }) => {
  const legal = ['play 7H', 'play 8H', 'play 7H 8H', 'play 7H 8H 9H', 'play 9H', 'play 3C', 'pick'];
  done([
    tapOutcome('7H', legal, { runMode: false, selected: [] }),
    tapOutcome('3C', legal, { runMode: false, selected: [] }),
    tapOutcome('7H', legal, { runMode: true, selected: [] }),
    tapOutcome('8H', legal, { runMode: true, selected: ['7H'] }),
    tapOutcome('5S', legal, { runMode: false, selected: [] }),
    runWhy(legal, []), runWhy(legal, ['7H', '3C']), runWhy(legal, ['7H', '8H']),
  ]);
});
"""


def test_one_tap_rule_for_runs(server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    """A tap plays one card at once, also a card that could start a run; the Run toggle chooses several;
    the greyed Play says which cards make a play."""
    d = open_page(browsers, server, "desktop")
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preset-list input"))
    said = d.execute_async_script(TAP_RULE)
    assert said[0] == {"act": "play 7H"}  # not "selected": the same rule as every other card
    assert said[1] == {"act": "play 3C"}
    assert said[2] == {"select": "7H"}
    assert said[3] == {"select": "8H"}
    assert said[4] == {"refuse": True}
    assert said[5] == "Pick the cards of a run, then Play run: 7♥ 8♥ 9♥"
    assert "not a play" in said[6]
    assert said[7] == ""


WATCH_MOTION = """
window.newsEarly = []; window.covered = [];
const st = document.getElementById('status');
const moving = () => document.getAnimations().filter((a) => a.playState === 'running' && a.effect
  && a.effect.target && a.effect.target.closest && a.effect.target.closest('#trick')
  && a.effect.target.classList.contains('play'));
new MutationObserver(() => { if (moving().length) window.newsEarly.push(st.textContent); })
  .observe(st, { childList: true, characterData: true, subtree: true });
const look = () => {
  for (const e of [st, ...document.querySelectorAll('#trick .to-beat .tag')]) {
    const r = e.getBoundingClientRect();
    const own = e.closest('.play');
    if (!r.width || (own && own.getAnimations().length)) continue;  // (a badge in flight itself)
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit && !(hit === e || e.contains(hit))) {
      const c = hit.closest('#flight, #trick .play');
      if (c && !c.contains(e)) window.covered.push((e.id || e.textContent) + ' under '
                                                   + (c.id || c.dataset.key));
    }
  }
  requestAnimationFrame(look);
};
requestAnimationFrame(look);
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_news_shows_when_the_card_lands_and_is_never_covered(
        server: LiveServer, browsers: list[webdriver.Chrome], size: str) -> None:
    d = open_page(browsers, server, size, motion=True)
    code = make_table(d, "goat", 4, seats=["easy"] * 3)
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    d.execute_script(WATCH_MOTION)
    deal = Deal(d, server, code, f"motion-{size}")
    for _ in range(25):  # some turns of phase one and the news of each
        if deal.room.status == "over":
            break
        try:
            wait(d).until(lambda d: deal.room.status == "over" or (
                ("Your turn" in status(d) or "Sluff" in status(d))
                and not d.find_elements(By.CSS_SELECTOR, "body.offline, #moves .muted")))
            before = deal.history()
            deal.turn()
            wait(d, MOVE_SEEN).until(lambda d, b=before: deal.history() > b or deal.room.status == "over"
                              or d.find_elements(By.CSS_SELECTOR, "#hand .card.selected"))
        except Exception:  # a stale element or a slow bot: look again
            continue
    early, covered = d.execute_script("return [window.newsEarly, window.covered]")
    assert not early, early  # the status line said the next turn while the card was still flying
    assert not covered, covered


NAMES_SEEN = """
// each seat's name: the point just inside its first letter is the name itself, not the rim or the felt
return [...document.querySelectorAll('#seats .pname')].filter((p) => {
  const r = p.getBoundingClientRect();
  const range = document.createRange(); range.selectNodeContents(p);
  const text = range.getBoundingClientRect();
  const hit = document.elementFromPoint(text.left + 2, text.top + text.height / 2);
  return !(hit && (hit === p || p.contains(hit))) || p.scrollWidth > p.clientWidth + 1;
}).map((p) => p.textContent);
"""


@pytest.mark.parametrize("players", [4, 6])
def test_seat_plates_stay_off_the_rim(server: LiveServer, browsers: list[webdriver.Chrome],
                                      players: int) -> None:
    d = open_page(browsers, server, "desktop")
    make_table(d, "goat", players, seats=["easy"] * (players - 1))
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    time.sleep(0.5)
    # plates grow with what the seat shows (known cards, the tally, a long state): here by 170 px
    d.execute_script("document.querySelectorAll('#seats .plate').forEach((p) => p.append("
                     "Object.assign(document.createElement('div'), {style: 'height: 170px'})))")
    shot(d, f"desktop-table-{players}")
    cut = d.execute_script(NAMES_SEEN)
    assert not cut, cut  # not "asy bot 1"
