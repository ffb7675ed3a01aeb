"""A newcomer's first deal in each shipped language (issue 29, "Done when"), in a real browser.

A browser set to Swedish (Norwegian, Finnish, English) at phone (390x844) and desktop (1280x900)
size opens the site, taps *Play now* once and sits down against bots; reads *How to play* without
leaving the table; sees at each of its first ten decisions a coach line and the reasons in its
language; plays the deal to its end by taps alone; and starts another.  What the page says is
compared with the catalogs (``skitgubbe.server.catalogs.page_catalog``): the words must be the
language's, not English.  axe-core finds no serious or critical violation, and the screenshots
(``lang-LANG-SIZE-*.png``) are those docs/server.md shows.

The deal is played without reading any English word: whose turn it is comes from the page's
``my-turn`` class and the enabled move buttons, cards from ``data-card``."""

from __future__ import annotations

import re

import pytest
from selenium import webdriver  # noqa: E402  (test_server_browser skips the module without selenium)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from server_helpers import LiveServer
from test_server_browser import SHOTS, Deal, axe_check, browsers, chromium, shot, tap, wait  # noqa: F401

from skitgubbe.engine.i18n import LANGUAGES
from skitgubbe.server.catalogs import page_catalog

ACCEPT = {"en": "en-GB,en", "sv": "sv-SE,sv", "nb": "nb-NO,nb,no", "fi": "fi-FI,fi"}
"""The browser's language setting per shipped language (``intl.accept_languages``)."""

def word(lang: str, msgid: str) -> str:
    """``msgid`` in ``lang`` as the page's catalog writes it (English: the id itself)."""
    found = page_catalog(lang)["messages"].get(msgid, msgid)
    return found if isinstance(found, str) else found[0]


def browser_in(lang: str, size: str, opened: list[webdriver.Chrome], server: LiveServer) -> webdriver.Chrome:
    """A browser whose language setting is ``lang``'s, at ``size``, on the lobby."""
    d = chromium(size, accept_languages=ACCEPT[lang])
    opened.append(d)
    d.get(server.http + "/static/table.css")
    d.execute_script("localStorage.setItem('skitgubbe:motion', 'off')")
    d.get(server.http + "/")
    return d


def my_turn(d: webdriver.Chrome) -> bool:
    return bool(d.execute_script("return document.body.classList.contains('my-turn')"))


class Newcomer(Deal):
    """Plays a deal by taps only, as a person who reads the page's language: whose turn it is from
    the page's ``my-turn`` class, not from English words."""

    def __init__(self, d: webdriver.Chrome, server: LiveServer, code: str, lang: str) -> None:
        super().__init__(d, server, code, f"lang-{lang}")
        self.lang = lang
        self.coached: list[str] = []

    def ready(self, d: webdriver.Chrome) -> bool:
        return my_turn(d) and not d.find_elements(By.CSS_SELECTOR, "body.offline, #moves .muted")

    def turn(self) -> None:
        """One decision: a raised card (a sluff or a play), else *Done sluffing*, else the last
        enabled move button (turn up, pick up); chosen cards of a run are played or cleared."""
        d = self.d
        legal = d.find_elements(By.CSS_SELECTOR, "#hand .card.legal:not(.selected)")
        done = d.find_elements(By.CSS_SELECTOR, "#moves [data-move='pass']:not([disabled])")
        others = d.find_elements(By.CSS_SELECTOR, "#moves button.move:not([disabled])")
        play = d.find_elements(By.CSS_SELECTOR, "#moves [data-move='play-selected']:not([disabled])")
        if play:
            play[0].click()
        elif legal and not (done and self.moves % 2):
            tap(d, legal[0])
        elif done:
            tap(d, done[0])
        elif others:
            tap(d, others[-1])
        elif d.find_elements(By.CSS_SELECTOR, "#hand .card.selected"):
            d.find_element(By.CSS_SELECTOR, "#moves [data-move='clear']").click()
        self.moves += 1

    def look(self) -> None:
        """At each of the first ten decisions: what the coach says."""
        if len(self.coached) >= 10:
            return
        lines = self.d.find_elements(By.ID, "coach-line")
        if lines and lines[0].is_displayed() and lines[0].text.strip():
            self.coached.append(lines[0].text.strip())


ENGLISH = re.compile(r"\b(Your turn|the trick|Play now|How to play|phase two|Phase two)\b")
"""English words that must not be on a page shown in another language."""


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_newcomers_first_deal_in_their_language(server: LiveServer, browsers: list[webdriver.Chrome],  # noqa: F811
                                                    lang: str, size: str) -> None:
    tag = f"lang-{lang}-{size}"
    d = browser_in(lang, size, browsers, server)
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-list .game-card"))
    assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == lang
    button = d.find_element(By.ID, "play-now")
    assert button.text.strip() == word(lang, "Play now"), button.text
    if lang != "en":
        assert button.text.strip() != "Play now"
        assert not ENGLISH.search(d.find_element(By.ID, "lobby").text)
    if size == "phone":  # one tap, on the first screen
        top, bottom, height = d.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom, innerHeight];", button)
        assert top >= 0 and bottom <= height
    shot(d, f"{tag}-lobby")
    button.click()
    wait(d).until(lambda d: "room=" in d.current_url)
    code = d.current_url.split("room=")[1][:6]
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    deal = Newcomer(d, server, code, lang)
    # the hand's cards are named in the language (a screen reader's words)
    hand = d.find_elements(By.CSS_SELECTOR, "#hand .card")
    labels = " ".join(b.get_attribute("aria-label") or "" for b in hand)
    suits = {"en": ("hearts", "spades", "clubs", "diamonds"), "sv": ("hjärter", "spader", "klöver", "ruter"),
             "nb": ("hjerter", "spar", "kløver", "ruter"), "fi": ("hertta", "pata", "risti", "ruutu")}[lang]
    assert any(s in labels for s in suits), labels
    # How to play, without leaving the deal
    d.find_element(By.ID, "howto-btn").click()
    wait(d).until(lambda d: d.find_element(By.ID, "howto").is_displayed()
                  and d.find_elements(By.CSS_SELECTOR, "#howto-body .card"))
    rules_text = d.find_element(By.ID, "howto-body").text
    assert d.find_element(By.ID, "howto-title").text == word(lang, "How to play")
    if lang != "en":
        assert not ENGLISH.search(rules_text), rules_text[:300]
    shot(d, f"{tag}-howto")
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(d).until(lambda d: not d.find_element(By.ID, "howto").is_displayed())
    assert d.find_elements(By.CSS_SELECTOR, "#hand .card")  # still at the table
    if size == "desktop":
        axe_check(d, f"{tag}: the table")
    shot(d, f"{tag}-playing")
    deal.play()
    # the first ten decisions were each explained by the coach, in the language
    assert len(deal.coached) >= min(10, deal.moves) > 0, deal.coached
    if lang != "en":
        assert not any(ENGLISH.search(line) for line in deal.coached), deal.coached
    # the end, in the language: the result names the loser by the rules' title
    room = deal.room
    assert room.state.is_over
    result = d.find_element(By.ID, "result")
    if lang != "en":
        assert not ENGLISH.search(result.text), result.text
    shot(d, f"{tag}-over")
    if size == "desktop":
        axe_check(d, f"{tag}: the result")
    # and another deal
    d.find_element(By.CSS_SELECTOR, "[data-move='result']").click()
    d.find_element(By.ID, "again").click()
    wait(d).until(lambda d: room.game == 2)
    errors = [e["message"] for e in d.get_log("browser")
              if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]
    assert not errors, errors
    assert (SHOTS / f"{tag}-over.png").exists()
