"""How to play at the table (issue 29, item 2): the rules endpoints, and in a real browser the
"How to play" panel opened during a deal (it shows the table's rules, Esc closes it and the deal is
still there), the glossary's terms explained in the log, and the first-deal coach at your turn,
hidden with one tap on "Hide tips"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_helpers import LiveServer


def test_the_rules_and_the_glossary_over_http(server: LiveServer) -> None:
    goat = httpx.get(server.http + "/api/howto", params={"preset": "flurst", "lang": "en"}).json()
    keys = {line["key"] for s in goat["sections"] for line in s["lines"]}
    assert goat["rules"] == "goat" and "sluffing" in keys and "must_match" in keys
    pagat = httpx.get(server.http + "/api/howto?preset=pagat", headers={"Accept-Language": "sv-SE,sv"}).json()
    assert pagat["lang"] == "sv"
    assert "sluffing" not in {ln["key"] for s in pagat["sections"] for ln in s["lines"]}
    missing = httpx.get(server.http + "/api/howto?preset=nope")
    assert missing.status_code == 400 and missing.json()["error"] == "bad-rules"
    made = server.make_room(preset="goat", players=3, seats=["easy", "easy"])
    room = httpx.get(f"{server.http}/api/rooms/{made['room'].lower()}/howto?lang=fi").json()
    assert room["rules"] == "goat" and room["lang"] == "fi" and len(room["sections"]) == 4
    assert httpx.get(server.http + "/api/rooms/ZZZZZZ/howto").status_code == 404
    words = httpx.get(server.http + "/api/glossary?lang=en").json()
    assert "sluff" in words and "kill" in words and "dreck" in words


def test_the_lessons_over_http(server: LiveServer) -> None:
    listed = httpx.get(server.http + "/api/lessons?lang=fi").json()["lessons"]
    assert listed[0]["n"] == 1 and listed[0]["title"] and "pagat" in listed[0]["source"]
    en = httpx.get(server.http + "/api/lessons/1", params={"lang": "en"})
    assert en.status_code == 200 and en.headers["content-language"] == "en"
    one = en.json()
    assert one["type"] == "replay" and one["title"] == "Beat it or pick it up" and one["human"] == 0
    assert one["frames"][1]["learner"] and one["frames"][1]["expected"] == "play 5C"
    assert one["frames"][1]["why"] == "You lead: any card may be led."
    sv = httpx.get(server.http + "/api/lessons/1", headers={"Accept-Language": "sv"}).json()
    assert sv["title"] != one["title"] and sv["moves"] == one["moves"]
    for bad in ("0", "99", "x", "1.5"):
        refused = httpx.get(server.http + "/api/lessons/" + bad)
        assert refused.status_code == 404 and refused.json()["error"] == "no-deal", bad
        assert "lesson" in refused.json()["message"]


selenium = pytest.importorskip("selenium")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from test_server_browser import (  # noqa: E402
    CHROMIUM,
    DRIVER,
    axe_check,
    make_table,
    open_page,
    shot,
    tap,
    wait,
)

needs_chromium = pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                    reason="needs chromium and chromedriver")


@pytest.fixture
def browsers() -> Iterator[list[Any]]:
    """Browsers a test opens, all closed at its end."""
    opened: list[Any] = []
    yield opened
    for d in opened:
        d.quit()


@needs_chromium
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_how_to_play_during_a_deal_and_the_coach(server: LiveServer, browsers: list[Any], size: str) -> None:
    d = open_page(browsers, server, size)
    code = make_table(d, "goat", 3, seats=["easy", "easy"])
    wait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand button.card"))
    # the coach: on for a newcomer, at your turn
    wait(d, 30).until(lambda d: d.find_element(By.ID, "coach").is_displayed())
    line = d.find_element(By.ID, "coach-line").text
    assert "Phase one" in line and "raised" in line, line
    shot(d, f"howto-coach-{size}")
    # the panel: the table's own rules, over the deal
    d.find_element(By.ID, "howto-btn").click()
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#howto-body .howto-section"))
    panel = d.find_element(By.ID, "howto")
    assert panel.is_displayed() and d.find_element(By.ID, "howto-body").get_attribute("data-rules") == "goat"
    keys = {li.get_attribute("data-key") for li in d.find_elements(By.CSS_SELECTOR, "#howto-body li")}
    assert "sluffing" in keys and "must_match" in keys
    assert len(d.find_elements(By.CSS_SELECTOR, "#howto-body .howto-picture .card")) >= 4
    assert d.find_elements(By.CSS_SELECTOR, "#howto-body abbr.term")  # its words explained too
    shot(d, f"howto-panel-{size}")
    axe_check(d, "the how-to-play panel")
    d.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait(d).until(lambda d: not d.find_element(By.ID, "howto").is_displayed())
    assert f"room={code}" in d.current_url and d.find_element(By.ID, "game").is_displayed()
    assert d.find_elements(By.CSS_SELECTOR, "#hand button.card")  # the deal is still there
    # the glossary in the log: a term with its definition
    wait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#log abbr.term"))
    term = d.find_element(By.CSS_SELECTOR, "#log abbr.term")
    assert ":" in (term.get_attribute("title") or "")
    # "Hide tips": gone, and remembered
    if not d.find_element(By.ID, "coach").is_displayed():
        wait(d, 30).until(lambda d: d.find_element(By.ID, "coach").is_displayed())
    d.find_element(By.ID, "coach-hide").click()
    assert not d.find_element(By.ID, "coach").is_displayed()
    assert d.execute_script("return localStorage.getItem('skitgubbe:coach')") == "off"
    d.refresh()
    wait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand button.card"))
    assert not d.find_element(By.ID, "coach").is_displayed()


@needs_chromium
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_lesson_played_at_the_table(server: LiveServer, browsers: list[Any], size: str) -> None:
    lesson = httpx.get(server.http + "/api/lessons/1?lang=en").json()
    d = open_page(browsers, server, size)
    wait(d).until(lambda d: d.find_element(By.ID, "howto-btn").is_displayed())
    d.find_element(By.ID, "howto-btn").click()
    wait(d).until(lambda d: d.find_element(By.ID, "howto-lessons").is_displayed())
    d.find_element(By.ID, "howto-lessons").click()
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#lessons-list button[data-lesson]"))
    assert len(d.find_elements(By.CSS_SELECTOR, "#lessons-list button")) == 7
    shot(d, f"lesson-list-{size}")
    axe_check(d, "the list of lessons")
    d.find_element(By.CSS_SELECTOR, '#lessons-list button[data-lesson="1"]').click()
    wait(d).until(lambda d: d.find_element(By.ID, "rp-lesson").is_displayed())
    assert "Beat it or pick it up" in d.find_element(By.ID, "replay-title").text
    text = d.find_element(By.ID, "rp-lesson-text").text
    assert "Phase two" in text and "You lead" in text, text  # the intro, then the first step's rule
    assert not d.find_element(By.ID, "rp-next").is_enabled()  # it waits for the learner's tap
    # a wrong card is refused with the rule, then the right one is shown
    mine = '#replay-table .plate[data-seat="0"] '
    wrong = d.find_element(By.CSS_SELECTOR, mine + '.lesson-card[data-card="2D"]')
    tap(d, wrong)
    wait(d).until(lambda d: "Not this one" in d.find_element(By.ID, "rp-lesson-note").text)
    assert "any card may be led" in d.find_element(By.ID, "rp-lesson-note").text
    assert d.find_element(By.CSS_SELECTOR, ".lesson-expected").get_attribute("data-card") == "5C"
    shot(d, f"lesson-wrong-{size}")
    axe_check(d, "a lesson's step")
    play_through(d, lesson)
    assert "so seat 1 leads the next one" in d.find_element(By.ID, "rp-lesson-text").text
    shot(d, f"lesson-end-{size}")
    d.find_element(By.ID, "rp-lesson-back").click()
    wait(d).until(lambda d: not d.find_element(By.ID, "replay").is_displayed())
    assert d.find_element(By.ID, "lobby").is_displayed()
    if size == "phone":
        return
    # the lobby's way in, and a phase-one lesson with a move button (turning up the stock)
    d.find_element(By.CSS_SELECTOR, "#setup > summary").click()
    lobby_button = d.find_element(By.ID, "lobby-lessons")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", lobby_button)
    lobby_button.click()
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#lessons-list button[data-lesson="3"]'))
    d.find_element(By.CSS_SELECTOR, '#lessons-list button[data-lesson="3"]').click()
    wait(d).until(lambda d: d.find_element(By.ID, "rp-lesson").is_displayed())
    play_through(d, httpx.get(server.http + "/api/lessons/3?lang=en").json())
    shot(d, f"lesson-three-end-{size}")


def play_through(d: Any, lesson: dict[str, Any]) -> None:
    """Step lesson ``lesson`` (its replay message) to its end as a person would: Next at the other
    seats' moves (the rule shown first), a tap on the right card or move button at the learner's."""
    k = 0
    while k < len(lesson["frames"]) - 1:
        frame = lesson["frames"][k + 1]
        if frame["learner"]:
            verb, *cards = frame["expected"].split()
            target = (f'#replay-table .lesson-card[data-card="{cards[0]}"]' if cards
                      else f'#rp-lesson-moves button[data-move="{verb}"]')
            tap(d, d.find_element(By.CSS_SELECTOR, target))
        else:
            assert " ".join(frame["why"].split()) in d.find_element(By.ID, "rp-lesson-text").text
            d.find_element(By.ID, "rp-next").click()
        k += 1
        wait(d).until(lambda d, k=k: d.find_element(By.ID, "rp-step").get_attribute("value") == str(k))
    wait(d).until(lambda d: d.find_element(By.ID, "rp-lesson-back").is_displayed())
