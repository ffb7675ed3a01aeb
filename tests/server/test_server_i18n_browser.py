"""The page in another language, in a real browser (headless Chromium, as test_server_browser.py):
``?lang=sv`` shows the header and the join page in Swedish; on a table, the language picker in the
header switches the page to Swedish at once (the status line, the hand's card labels and corners,
the spoken card names), tells the server (``{"type": "lang"}``) and is remembered for the next visit.

The Swedish words asserted here come from the catalogs (src/skitgubbe/locale/sv), the card words
from those shipped with the i18n foundation, the page's own from the translations of issue 29."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import LiveServer

from skitgubbe.server import protocol

pytest.importorskip("selenium")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from test_server_browser import CHROMIUM, DRIVER, open_page, shot, status, wait  # noqa: E402

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install; CI does)")

SWEDISH_SUITS = ("klöver", "ruter", "hjärter", "spader")
ENGLISH_SUITS = ("clubs", "diamonds", "hearts", "spades")
SWEDISH_RANKS = ("två", "tre", "fyra", "fem", "sex", "sju", "åtta", "nio", "tio",
                 "knekt", "dam", "kung", "ess")


@pytest.fixture
def browsers() -> Iterator[list[webdriver.Chrome]]:
    """Browsers a test opens, all closed at its end."""
    opened: list[webdriver.Chrome] = []
    yield opened
    for d in opened:
        d.quit()


def seated(browsers: list[webdriver.Chrome], server: LiveServer, made: dict[str, Any], path: str, *,
           lang: str | None = None) -> webdriver.Chrome:
    """A browser holding the seat ``made`` (a POST /api/rooms answer), opened at ``path``; ``lang``:
    the language chosen on an earlier visit."""
    d = open_page(browsers, server, "desktop", "/static/table.css")
    seat = json.dumps({"player": made["player"], "token": made["token"]})
    d.execute_script("localStorage.setItem(arguments[0], arguments[1])", f"skitgubbe:{made['room']}", seat)
    if lang:
        d.execute_script("localStorage.setItem('skitgubbe:lang', arguments[0])", lang)
    d.get(server.http + path)
    return d


def hand_labels(d: webdriver.Chrome) -> list[str]:
    return [b.get_attribute("aria-label") or "" for b in d.find_elements(By.CSS_SELECTOR, "#hand .card")]


def corners(d: webdriver.Chrome) -> set[str]:
    """The rank letters drawn on the hand's cards."""
    return set(d.execute_script(
        "return [...document.querySelectorAll('#hand .card svg text')].map((t) => t.textContent.trim())"))


def test_lang_sv_in_the_address_shows_the_header_and_the_join_page_in_swedish(
        server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    made = server.make_room(preset="pagat", players=3, seats=["open", "easy"])
    d = open_page(browsers, server, "desktop", f"/?room={made['room']}&lang=sv")
    wait(d).until(lambda d: d.find_element(By.ID, "join").is_displayed())
    assert d.execute_script("return document.documentElement.lang") == "sv"
    pick = Select(d.find_element(By.ID, "lang-pick"))
    assert pick.first_selected_option.get_attribute("value") == "sv"
    assert [o.text for o in pick.options] == ["English", "Svenska", "Norsk bokmål", "Suomi"]
    assert d.find_element(By.ID, "lang-pick").get_attribute("aria-label") == "Språk"
    assert d.find_element(By.ID, "motion-btn").text == "Rörelse"
    assert d.find_element(By.ID, "join-title").text == f"Gå med vid bord {made['room']}"
    assert d.find_element(By.ID, "join-go").text == "Ta en plats"
    assert d.find_element(By.ID, "watch-go").text == "Bara titta"
    assert "välj ett namn" in status(d)
    assert "1 ledig plats" in d.find_element(By.ID, "join-about").text
    assert d.title == "Skitgubbe: bord på nätet"
    shot(d, "join-sv")


@pytest.mark.parametrize("lang", ["fi", "nb"])
def test_the_header_with_its_picker_fits_a_phone_in_every_language(
        server: LiveServer, browsers: list[webdriver.Chrome], lang: str) -> None:
    made = server.make_room(preset="pagat", players=3, seats=["open", "easy"])
    for path in ("/?lang=" + lang, f"/?room={made['room']}&lang={lang}"):
        d = open_page(browsers, server, "phone", path)
        wait(d).until(lambda d: d.execute_script("return document.documentElement.lang") == lang)
        wait(d).until(lambda d: status(d) and "Loading" not in status(d))
        assert d.execute_script("return document.documentElement.scrollWidth <= innerWidth + 1"), path
        pick = d.find_element(By.ID, "lang-pick")
        assert pick.is_displayed() and d.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return r.right <= innerWidth + 1", pick), path


def test_the_picker_turns_a_table_swedish_and_tells_the_server(
        server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    made = server.make_room(preset="pagat", players=2, seats=["easy"])
    d = seated(browsers, server, made, f"/?room={made['room']}")
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    wait(d).until(lambda d: "Your turn" in status(d) or "to play" in status(d))
    english = hand_labels(d)
    assert english and all(any(f" of {s}" in label for s in ENGLISH_SUITS) for label in english), english
    assert d.find_element(By.ID, "lang-pick").get_attribute("value") == "en"
    # what the page sends the server from now on
    d.execute_script("""
        window.sent = [];
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) {
          window.sent.push(JSON.parse(data));
          return send.call(this, data);
        };""")
    Select(d.find_element(By.ID, "lang-pick")).select_by_value("sv")
    wait(d).until(lambda d: d.execute_script("return document.documentElement.lang") == "sv")
    wait(d).until(lambda d: all(any(s in label for s in SWEDISH_SUITS) for label in hand_labels(d)))
    labels = hand_labels(d)
    assert not any(" of " in label for label in labels), labels
    # each card named as Swedish says it, suit first: "hjärter tio, spelbart"
    for label in labels:
        suit, rank = label.split(",")[0].split()
        assert suit in SWEDISH_SUITS and rank in SWEDISH_RANKS, label
    # a court card's corner in Swedish letters (knekt Kn, dam D, kung K, ess E); never J, Q or A
    assert not corners(d) & {"J", "Q", "A"}, corners(d)
    assert {"type": "lang", "lang": "sv"} in d.execute_script("return window.sent")
    wait(d).until(lambda d: "Din tur" in status(d) or "är på tur" in status(d))
    assert d.find_element(By.ID, "motion-btn").text == "Rörelse"
    trump = d.find_element(By.CSS_SELECTOR, "#piles .trump .pile-label")
    assert trump.get_attribute("textContent") == "trumf"
    shot(d, "table-sv")
    assert d.execute_script("return localStorage.getItem('skitgubbe:lang')") == "sv"


@pytest.mark.skipif("lang" not in protocol.CLIENT_TYPES, reason="needs the server's lang message (issue 29)")
def test_the_language_chosen_is_kept_and_said_in_the_hello(
        server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    made = server.make_room(preset="pagat", players=2, seats=["easy"])
    d = seated(browsers, server, made, f"/?room={made['room']}", lang="sv")  # as the picker left it
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    assert d.execute_script("return document.documentElement.lang") == "sv"
    assert all(any(s in label for s in SWEDISH_SUITS) for label in hand_labels(d))
    wait(d).until(lambda d: "Din tur" in status(d) or "är på tur" in status(d))
