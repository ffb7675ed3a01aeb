"""The page in a real browser: headless Chromium (Debian's chromium and chromium-driver, driven by
Selenium) plays whole deals of pagat and goat against bots at desktop (1280x900) and phone (390x844)
size, by the clicks and keys a person uses: cards, "Play", "Done sluffing", "Pick up", Enter on a
focused card, the letter keys.  Along the way it checks what a player must be able to see (the card
to beat and the hand on screen together, the result overlay at the end), runs axe-core (the
``axe-core-python`` package) with no serious or critical violation, and saves screenshots under
``build/screenshots/`` (``$SKITGUBBE_SCREENSHOTS`` to change it; the folder to keep as CI artefacts)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import LiveServer

selenium = pytest.importorskip("selenium")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    ElementClickInterceptedException,
    ElementNotInteractableException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("SKITGUBBE_SCREENSHOTS") or ROOT / "build" / "screenshots")
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install; CI does)")

FLAKY = (StaleElementReferenceException, ElementClickInterceptedException, ElementNotInteractableException)

MOVE_SEEN = 3.0
"""Seconds a deal waits, after a tap, for the move to reach the room's history (or a card to stay
chosen) before it reads the page again.  A tap that shows no move in that time (the history did not
grow, e.g. a card that went stale under the tap) then costs this, not the 10 seconds it once did; the
next look waits for the page to ask again (its buttons are muted while a move is unanswered)."""


def chromium(size: str, *, reduced_motion: bool = False,
             accept_languages: str = "en-GB,en") -> webdriver.Chrome:
    """A headless Chromium at ``size`` whose language setting is ``accept_languages`` (what it sends
    as ``Accept-Language`` and reads as ``navigator.languages``)."""
    width, height = SIZES[size]
    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    opts.add_experimental_option("prefs", {"intl.accept_languages": accept_languages})
    opts.add_argument(f"--lang={accept_languages.split(',')[0]}")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--no-first-run", "--disable-extensions", "--hide-scrollbars",
                f"--window-size={width},{height}"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=str(DRIVER)), options=opts)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": size == "phone"})
    if reduced_motion:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    return driver


@pytest.fixture
def browsers() -> Iterator[list[webdriver.Chrome]]:
    """Browsers a test opens (``chromium``), all closed at its end."""
    opened: list[webdriver.Chrome] = []
    yield opened
    for d in opened:
        d.quit()


def open_page(browsers: list[webdriver.Chrome], server: LiveServer, size: str, path: str = "/", *,
              motion: bool = False, reduced_motion: bool = False) -> webdriver.Chrome:
    d = chromium(size, reduced_motion=reduced_motion)
    browsers.append(d)
    d.get(server.http + "/static/table.css")  # the page's origin, to set its storage first
    if not reduced_motion:
        d.execute_script(f"localStorage.setItem('skitgubbe:motion', '{'on' if motion else 'off'}')")
    d.get(server.http + path)
    return d


def shot(d: webdriver.Chrome, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    d.save_screenshot(str(SHOTS / f"{name}.png"))


def wait(d: webdriver.Chrome, seconds: float = 20) -> WebDriverWait:
    return WebDriverWait(d, seconds, poll_frequency=0.05, ignored_exceptions=FLAKY)


def on_screen(d: webdriver.Chrome, elem: WebElement) -> bool:
    """True if ``elem`` is shown and wholly inside the window."""
    return bool(d.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0"
        " && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1"
        " && getComputedStyle(arguments[0]).visibility !== 'hidden';", elem))


def uncovered(d: webdriver.Chrome, elem: WebElement) -> bool:
    """True if the point in the middle of ``elem``'s left quarter is not under another element
    (a card of the hand is mostly under the next one: its corner is what shows)."""
    return bool(d.execute_script(
        "const e = arguments[0], r = e.getBoundingClientRect();"
        "const hit = document.elementFromPoint(r.left + Math.min(8, r.width / 4), r.top + r.height / 2);"
        "return !!hit && (hit === e || e.contains(hit));", elem))


def status(d: webdriver.Chrome) -> str:
    return str(d.find_element(By.ID, "status").text)


def axe_check(d: webdriver.Chrome, what: str) -> None:
    """axe-core finds no serious or critical accessibility violation on the page as it is now."""
    from axe_core_python.selenium import Axe

    result: dict[str, Any] = Axe().run(d)
    bad = [v for v in result["violations"] if v.get("impact") in ("serious", "critical")]
    assert not bad, f"{what}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}" for v in bad)


def tap(d: webdriver.Chrome, elem: WebElement) -> None:
    """Click where a person would: on a card of the hand, its visible left edge."""
    if "card" in (elem.get_attribute("class") or "").split():
        width = elem.size["width"]
        ActionChains(d).move_to_element_with_offset(elem, -width // 2 + 6, 0).click().perform()
    else:
        elem.click()


def open_setup(d: webdriver.Chrome) -> None:
    """Open the lobby's full set-up ("More options", one step past "Play now") once the lobby is drawn."""
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preset-list input"))
    if not d.find_element(By.ID, "setup").get_attribute("open"):
        summary = d.find_element(By.CSS_SELECTOR, "#setup > summary")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        summary.click()


def make_table(d: webdriver.Chrome, preset: str, players: int, *, name: str = "Ann",
               seats: list[str] | None = None) -> str:
    open_setup(d)
    d.find_element(By.ID, "make-name").clear()
    d.find_element(By.ID, "make-name").send_keys(name)
    choice = d.find_element(By.ID, f"preset-{preset}")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", choice)
    choice.click()
    Select(d.find_element(By.ID, "make-players")).select_by_value(str(players))
    for k, seat in enumerate(seats or [], start=1):
        Select(d.find_element(By.ID, f"seat-{k}")).select_by_value(seat)
    go = d.find_element(By.ID, "make-go")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", go)
    go.click()
    wait(d).until(lambda d: "room=" in d.current_url)
    return d.current_url.split("room=")[1][:6]


BANNER_WATCH = """
window.bannersSeen = []; window.bannersStale = [];
const b = document.getElementById("banner"), trick = document.getElementById("trick");
const check = () => {
  if (!b.classList.contains("show")) return;
  const text = b.textContent, seen = window.bannersSeen;
  if (text !== seen[seen.length - 1]) seen.push(text);
  // a play of this trick, not of the last one (shown small)
  const playing = [...trick.querySelectorAll(".play")].some((p) => !p.closest(".last-trick"));
  if (text.includes("killed the trick") && playing) window.bannersStale.push(text);
};
const all = { attributes: true, childList: true, subtree: true, characterData: true };
new MutationObserver(check).observe(b, all);
new MutationObserver(check).observe(trick, { childList: true, subtree: true });
"""
"""Records what the banner says (``bannersSeen``) and a word about a killed trick still up once the
next play is in the trick (``bannersStale``, issue 29)."""


class Deal:
    """Plays one deal in the page as a person: reads the status line and the hand, clicks."""

    def __init__(self, d: webdriver.Chrome, server: LiveServer, code: str, tag: str) -> None:
        self.d, self.server, self.code, self.tag = d, server, code, tag
        self.moves = self.sluffs = self.keyed = self.together = 0
        self.shots: set[str] = set()
        d.execute_script(BANNER_WATCH)

    def banners(self) -> tuple[list[str], list[str]]:
        """Every banner shown so far, and those about a killed trick still up with a play in the trick."""
        seen, stale = self.d.execute_script("return [window.bannersSeen, window.bannersStale]")
        return list(seen), list(stale)

    @property
    def room(self) -> Any:
        return self.server.hub.rooms[self.code]

    def history(self) -> int:
        state = self.room.state
        return len(state.history) if state is not None else 0

    def turn(self) -> None:
        """Make one move (or one step of choosing a run), as the page offers it."""
        d = self.d
        legal = d.find_elements(By.CSS_SELECTOR, "#hand .card.legal")
        sluff = [b for b in legal if b.find_elements(By.CSS_SELECTOR, ".sluff-mark")]
        done = d.find_elements(By.CSS_SELECTOR, "#moves [data-move='pass']:not([disabled])")
        others = d.find_elements(By.CSS_SELECTOR, "#moves button.move:not([disabled])")
        keyboard = self.moves % 3 == 2
        if sluff and self.sluffs < 3:
            self.sluffs += 1
            tap(d, sluff[0])
        elif done:
            if keyboard:
                ActionChains(d).send_keys("d").perform()
                self.keyed += 1
            else:
                tap(d, done[0])
        elif legal:
            pick = [b for b in legal if "selected" not in (b.get_attribute("class") or "")]
            if not pick:  # every legal card chosen and still no play: start again
                d.find_element(By.CSS_SELECTOR, "#moves [data-move='clear']").click()
                return
            if keyboard:
                pick[0].send_keys(Keys.ENTER)  # Enter on the focused card
                self.keyed += 1
            else:
                tap(d, pick[0])
            play = d.find_elements(By.CSS_SELECTOR, "#moves [data-move='play-selected']:not([disabled])")
            if play:
                play[0].click()
        elif others:
            tap(d, others[-1])  # turn up the stock, pick up
        else:
            return
        self.moves += 1

    def look(self) -> None:
        """What a player must see at every turn: with a card to beat, it and the hand together."""
        d = self.d
        beat = d.find_elements(By.CSS_SELECTOR, "#trick .to-beat .card")
        hand = d.find_elements(By.CSS_SELECTOR, "#hand .card")
        if beat and hand and "Your turn" in status(d):
            assert on_screen(d, beat[-1]), f"{self.tag}: the card to beat is off screen"
            assert on_screen(d, hand[0]) and on_screen(d, hand[-1]), f"{self.tag}: the hand is off screen"
            self.together += 1
            phase = d.find_element(By.ID, "phase-line").text
            if "Phase two" in phase and "phase-two" not in self.shots:
                self.shots.add("phase-two")
                shot(d, f"{self.tag}-phase-two")
        if d.find_elements(By.CSS_SELECTOR, "#moves [data-move='pass']") and "sluff" not in self.shots:
            self.shots.add("sluff")
            shot(d, f"{self.tag}-sluff")

    def ready(self, d: webdriver.Chrome) -> bool:
        """Whether the page asks this person for a move now (the status line says so, and the page
        is neither offline nor waiting for an answer)."""
        return ("Your turn" in status(d) or "Sluff" in status(d)) and not d.find_elements(
            By.CSS_SELECTOR, "body.offline, #moves .muted")

    def play(self, limit: int = 400, *, motion_off_after: int | None = None) -> None:
        """Play until the result overlay shows; ``motion_off_after`` moves, press *Motion* (off)."""
        d = self.d
        for _ in range(limit):
            if motion_off_after is not None and self.moves >= motion_off_after:
                motion_off_after = None
                d.find_element(By.ID, "motion-btn").click()
                assert d.find_element(By.ID, "motion-btn").get_attribute("aria-pressed") == "false"
            if self.room.status == "over" or d.find_element(By.ID, "result").is_displayed():
                break
            try:
                wait(d).until(lambda d: self.room.status == "over" or self.ready(d))
                if self.room.status == "over":
                    break
                self.look()
                before = self.history()
                self.turn()
                wait(d, MOVE_SEEN).until(lambda d, b=before: self.history() > b or self.room.status == "over"
                                  or d.find_elements(By.CSS_SELECTOR, "#hand .card.selected"))
            except FLAKY:
                continue
            except TimeoutException:
                continue
        wait(d).until(lambda d: d.find_element(By.ID, "result").is_displayed())


@pytest.mark.parametrize("preset, size, players", [
    ("pagat", "phone", 3), ("goat", "desktop", 4), ("goat", "phone", 4), ("pagat", "desktop", 2)])
def test_a_whole_deal_by_clicks_and_keys(server: LiveServer, browsers: list[webdriver.Chrome], preset: str,
                                         size: str, players: int) -> None:
    tag = f"{preset}-{size}"
    d = open_page(browsers, server, size, motion=tag == "goat-desktop")  # one deal with its animations
    if preset == "goat" and size == "desktop":
        axe_check(d, "the lobby")
        shot(d, "lobby-desktop")
    code = make_table(d, preset, players, seats=["easy"] * (players - 1))
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    deal = Deal(d, server, code, tag)
    # the hand: words for screen readers, trumps and legality marked
    labels = [b.get_attribute("aria-label") or "" for b in d.find_elements(By.CSS_SELECTOR, "#hand .card")]
    assert labels and all(" of " in x for x in labels)
    if size == "desktop":
        axe_check(d, f"{tag}: the table")
    shot(d, f"{tag}-playing")
    # an illegal card: the engine's reason is shown, nothing is sent
    wait(d).until(lambda d: "Your turn" in status(d) or deal.room.status == "over")
    bad = d.find_elements(By.CSS_SELECTOR, "#hand .card.illegal")
    if bad:
        moves = deal.history()
        tap(d, bad[0])
        rank = bad[0].get_attribute("data-card")[0].replace("T", "10")
        assert d.find_element(By.ID, "hint").text.startswith(rank)  # "10♦: it is ...'s turn"
        assert deal.history() == moves
    deal.play(motion_off_after=15 if tag == "goat-desktop" else None)  # motion for the first 15 moves
    room = deal.room
    seen, stale = deal.banners()
    assert any("Phase two: get rid of your cards" in t for t in seen), seen  # not replaced by the trump
    assert not stale, stale  # a word about a killed trick ends when the next play starts
    assert room.state.is_over and deal.moves > 3 and deal.keyed > 0
    if preset == "goat":
        assert deal.sluffs > 0, "no sluff was made in a goat deal"
    assert deal.together > 0, "the card to beat and the hand were never checked on screen together"
    # the end: the overlay names the loser by the rules' title, with the hand still on screen
    result = d.find_element(By.ID, "result")
    assert on_screen(d, result)
    title = room.state.rules.loser_title
    assert f"the {title}" in d.find_element(By.ID, "result-title").text
    assert f"Times the {title}" in result.text
    if preset == "pagat":
        assert "goat" not in result.text.lower()
    hand = d.find_elements(By.CSS_SELECTOR, "#hand .card")
    if hand:
        assert on_screen(d, hand[0]) and uncovered(d, hand[0])
        hand[0].send_keys("?")  # asking why after the deal: no stale word about a move
        ActionChains(d).move_to_element(hand[-1]).perform()
    # no word about a move is left under the table once the deal is over (issue 17: stale text)
    assert d.find_element(By.ID, "hint").text == "" and d.find_element(By.ID, "error").text == ""
    shot(d, f"{tag}-over")
    if size == "desktop":
        axe_check(d, f"{tag}: the result")
    # the replay: every hand shown, step forward, back and jump
    d.find_element(By.ID, "result-replay").click()
    wait(d).until(lambda d: d.find_element(By.ID, "replay").is_displayed())
    assert len(d.find_elements(By.CSS_SELECTOR, "#replay-table .open-hand")) == players
    d.find_element(By.ID, "rp-next").click()
    d.find_element(By.ID, "rp-next").click()
    assert "move 2 of" in d.find_element(By.ID, "rp-pos").text
    d.find_element(By.ID, "rp-back").click()
    assert "move 1 of" in d.find_element(By.ID, "rp-pos").text
    d.find_element(By.ID, "rp-last").click()
    last = len(room.state.history)
    assert f"move {last} of {last}" in d.find_element(By.ID, "rp-pos").text
    d.find_element(By.ID, "rp-moves").find_element(By.XPATH, "..").click()  # open "All moves"
    d.find_elements(By.CSS_SELECTOR, "#rp-moves button")[5].click()
    assert "move 5 of" in d.find_element(By.ID, "rp-pos").text
    shot(d, f"{tag}-replay")
    if size == "desktop":
        axe_check(d, f"{tag}: the replay")
    d.find_element(By.ID, "replay-close").click()
    errors = [e["message"] for e in d.get_log("browser")
              if e["level"] == "SEVERE" and "favicon.ico" not in e["message"]]  # (the style sheet's tab asks)
    assert not errors, errors  # no script error along the whole deal
    # play again: the loser leads the next deal
    loser = room.state.loser
    d.find_element(By.CSS_SELECTOR, "[data-move='result']").click()
    d.find_element(By.ID, "again").click()
    wait(d).until(lambda d: room.game == 2)
    assert room.state.first_leader == loser


def test_the_waiting_room_names_and_a_bad_link(server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    d = open_page(browsers, server, "phone")
    code = make_table(d, "goat", 3, seats=["open", "medium"])
    wait(d).until(lambda d: d.find_element(By.ID, "waiting").is_displayed())
    waiting = d.find_element(By.ID, "waiting")
    assert "open: waiting for a friend" in waiting.text and "bot: medium (counter)" in waiting.text
    assert "Ann (you)" in waiting.text
    assert code in d.find_element(By.ID, "invite-link").get_attribute("value")
    d.find_element(By.ID, "copy-link").click()
    wait(d).until(lambda d: d.find_element(By.ID, "copy-note").text)
    assert not d.find_element(By.ID, "dock").is_displayed()  # no "your hand" over nothing
    # a player chats in the waiting room (on a phone, the Log button opens the side)
    d.find_element(By.ID, "log-btn").click()
    assert d.find_element(By.ID, "chat-form").is_displayed()
    assert "Spectators" not in d.find_element(By.ID, "side").text
    d.find_element(By.ID, "chat-text").send_keys("hello, Bo")
    d.find_element(By.ID, "chat-text").send_keys(Keys.ENTER)
    wait(d).until(lambda d: "hello, Bo" in d.find_element(By.ID, "chat").text)
    shot(d, "waiting-chat-phone")
    d.find_element(By.ID, "side-close").click()
    axe_check(d, "the waiting room")
    shot(d, "waiting-phone")
    # a friend opens the link: the same name is refused with the server's reason, another is taken
    friend = open_page(browsers, server, "phone", f"/?room={code}")
    wait(friend).until(lambda d: d.find_element(By.ID, "join-name").is_displayed())
    assert "goat" in friend.find_element(By.ID, "join-about").text
    seats = [li.text for li in friend.find_elements(By.CSS_SELECTOR, "#join-seats li")]
    assert seats == ["Ann", "open seat", "medium bot 2"], seats  # not the fill bot's name (issue 29)
    shot(friend, "join-phone")
    friend.find_element(By.ID, "join-name").send_keys("ANN")
    friend.find_element(By.ID, "join-go").click()
    wait(friend).until(lambda d: "already at this table" in d.find_element(By.ID, "join-error").text)
    friend.find_element(By.ID, "join-name").clear()
    friend.find_element(By.ID, "join-name").send_keys("Bo")
    friend.find_element(By.ID, "join-go").click()
    # every open seat is taken: the deal starts for both
    for b in (d, friend):
        wait(b).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    assert "Bo" in d.find_element(By.ID, "seats").text
    assert "hello, Bo" in friend.find_element(By.ID, "chat").get_attribute("textContent")
    for b in (d, friend):  # players, not spectators, once the deal is on
        assert not b.find_elements(By.ID, "chat-note")
    # a room that does not exist says so and leads back
    lost = open_page(browsers, server, "phone", "/?room=ZZZZZZ")
    wait(lost).until(lambda d: d.find_element(By.ID, "missing").is_displayed())
    assert "no table ZZZZZZ" in lost.find_element(By.ID, "missing-text").text
    assert lost.find_element(By.CSS_SELECTOR, "#missing a").get_attribute("href").rstrip("/") == server.http
    # a stale seat token for a room that is gone is dropped with the same page, without retrying
    lost.execute_script("localStorage.setItem('skitgubbe:ZZZZZZ', JSON.stringify({player: 0, token: 'old'}))")
    lost.get(server.http + "/?room=ZZZZZZ")
    wait(lost).until(lambda d: d.find_element(By.ID, "missing").is_displayed())
    assert lost.execute_script("return localStorage.getItem('skitgubbe:ZZZZZZ')") is None


def test_the_banner_keeps_the_news_in_order_and_says_you_in_a_sentence(
        server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    d = open_page(browsers, server, "desktop")
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preset-list input"))
    said = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/static/render.js").then(({ announcement }) => {
          const nameOf = (s) => ["You", "Ann", "Bo"][s];
          done([[2, 0], [0, 1]].map((seats) => announcement([{ kind: "play", seat: seats[0] },
                                                             { kind: "war", seat: -1, seats }], nameOf).lines)
            .concat([announcement([{ kind: "win", seat: 1 }, { kind: "end-one", seat: -1 },
                                   { kind: "trump", seat: -1, seats: [2] }], nameOf).lines,
                     announcement([{ kind: "kill", seat: 2 },
                                   { kind: "dreck-dealt", seat: -1, seats: [1, 0] }], nameOf).lines]));
        });""")
    assert said == [["War! Bo and you play again"], ["War! You and Ann play again"],
                    ["Phase two: get rid of your cards", "Trump: hearts"], ["The dreck goes to Ann and you"]]


def test_spectators_watch_without_a_chat_box(server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    made = server.make_room(preset="pagat", players=3, seats=["open", "easy"])
    d = open_page(browsers, server, "desktop", f"/?room={made['room']}", reduced_motion=True)
    wait(d).until(lambda d: d.find_element(By.ID, "watch-go").is_displayed())
    d.find_element(By.ID, "watch-go").click()
    wait(d).until(lambda d: d.find_element(By.ID, "waiting").is_displayed())
    assert not d.find_element(By.ID, "chat-form").is_displayed()
    assert "Spectators watch" in d.find_element(By.ID, "side").text
    # the system asks for reduced motion: the page starts with its animations off
    assert d.find_element(By.ID, "motion-btn").get_attribute("aria-pressed") == "false"


def test_a_lost_connection_is_shown_and_nothing_is_sent_until_the_table_is_back(
        server: LiveServer, browsers: list[webdriver.Chrome]) -> None:
    d = open_page(browsers, server, "phone")
    code = make_table(d, "pagat", 3, seats=["easy", "easy"])
    deal = Deal(d, server, code, "reconnect")
    wait(d).until(lambda d: "Your turn" in status(d))
    before = deal.history()
    server.stop()
    wait(d).until(lambda d: "Reconnecting" in d.find_element(By.ID, "conn").text)
    assert d.find_elements(By.CSS_SELECTOR, "body.offline")
    card = d.find_elements(By.CSS_SELECTOR, "#hand .card")[0]
    d.execute_script("arguments[0].click()", card)  # even a click that gets through sends nothing
    assert "Not connected" in d.find_element(By.ID, "hint").text
    shot(d, "reconnecting-phone")
    server.start()
    wait(d, 30).until(lambda d: not d.find_element(By.ID, "conn").text and "Your turn" in status(d))
    assert not d.find_elements(By.CSS_SELECTOR, "body.offline")
    assert deal.history() == before
    deal.turn()
    wait(d).until(lambda d: deal.history() > before)
