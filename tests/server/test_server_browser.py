"""A whole deal in real headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium), by clicking and by keyboard, on a phone-sized window, against bots."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from server_helpers import LiveServer

selenium = pytest.importorskip("selenium")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
SHOTS = Path(os.environ["SKITGUBBE_SCREENSHOTS"]) if os.environ.get("SKITGUBBE_SCREENSHOTS") else None

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install; CI does)")


FOCUS_IN_HAND = """const a = document.activeElement;
return !!a && (document.getElementById('hand').contains(a)
               || document.getElementById('moves').contains(a));"""


@pytest.fixture
def browser() -> webdriver.Chrome:
    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=390,844", "--no-first-run", "--disable-extensions"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=opts)
    driver.set_window_size(390, 844)  # a phone
    yield driver
    driver.quit()


def _status(driver: webdriver.Chrome) -> str:
    return str(driver.find_element(By.ID, "status").text)


def test_a_whole_deal_by_clicking_in_chromium(server: LiveServer, browser: webdriver.Chrome) -> None:
    wait = WebDriverWait(browser, 20)
    browser.get(server.http + "/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#make-preset option"))
    browser.find_element(By.ID, "make-name").send_keys("Ann")
    Select(browser.find_element(By.ID, "make-preset")).select_by_value("pagat")
    Select(browser.find_element(By.ID, "make-players")).select_by_value("3")
    browser.find_element(By.ID, "make-go").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand button.card"))
    code = browser.find_element(By.CSS_SELECTOR, "#invite strong").text
    room = server.hub.rooms[code]
    assert "?room=" + code in browser.find_element(By.CSS_SELECTOR, "#invite a").get_attribute("href")
    # cards carry words for screen readers
    hand = browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
    labels = [b.get_attribute("aria-label") for b in hand]
    assert all(" of " in (x or "") for x in labels) and len(labels) == 3
    # an illegal attempt gets the reason from the server and changes nothing
    wait.until(lambda d: room.state.to_act == 0 or room.state.is_over)
    moves_before = len(room.state.history)
    browser.execute_script("document.getElementById('error').textContent = ''")
    bad = [b for b in browser.find_elements(By.CSS_SELECTOR, "#hand button.card")
           if "legal" not in (b.get_attribute("class") or "")]
    if not bad:  # every card is legal now: ask to pick up, which phase one never allows
        browser.execute_script("act('pick')")
    else:
        bad[0].click()
    wait.until(lambda d: d.find_element(By.ID, "error").text)
    assert len(room.state.history) == moves_before
    if SHOTS:
        browser.save_screenshot(str(SHOTS / "playing.png"))
    # play to the end: by click, and every third move by keyboard
    clicks = kept_focus = 0
    deadline = time.monotonic() + 90
    while not _status(browser).startswith("Game over") and time.monotonic() < deadline:
        try:
            buttons = browser.find_elements(By.CSS_SELECTOR, "#hand button.legal, #moves button.move")
            if not buttons or room.state.to_act != 0 and 0 not in room.pending_seats():
                time.sleep(0.02)
                continue
            before = len(room.state.history)
            if clicks % 3 == 2:
                buttons[0].send_keys(Keys.ENTER)
            else:
                buttons[0].click()
            clicks += 1
            WebDriverWait(browser, 10).until(
                lambda d, b=before: len(room.state.history) > b or room.state.is_over)
            if clicks % 3 == 0 and not room.state.is_over:  # that move was made from the keyboard
                time.sleep(0.05)
                kept_focus += bool(browser.execute_script(FOCUS_IN_HAND))
        except (StaleElementReferenceException, WebDriverException):
            time.sleep(0.02)
    assert _status(browser).startswith("Game over"), _status(browser)
    assert room.state.is_over and clicks > 5
    assert kept_focus > 0  # after a keyboard move the focus stays in the hand, for the next one
    # after the deal: the replay has every hand, and "play again" deals again with the loser leading
    browser.find_element(By.ID, "replay-btn").click()
    wait.until(lambda d: "was dealt" in d.find_element(By.ID, "replay").text)
    loser = room.state.loser
    browser.save_screenshot(str(SHOTS / "over.png")) if SHOTS else None
    browser.find_element(By.ID, "again").click()
    wait.until(lambda d: room.game == 2)
    assert room.state.first_leader == loser  # the loser leads the next deal
    # a stale seat token (a room that is gone) is dropped with a clear message, without retrying
    browser.execute_script(
        "localStorage.setItem('skitgubbe:ZZZZZZ', JSON.stringify({player: 0, token: 'old'}))")
    browser.get(server.http + "/?room=ZZZZZZ")
    wait.until(lambda d: "start page" in _status(d))
    assert "there is no room" in browser.find_element(By.ID, "error").text
    assert browser.execute_script("return localStorage.getItem('skitgubbe:ZZZZZZ')") is None
