"""The lobby's house-rules builder and the replays that outlive their table, in a real browser (headless
Chromium, as test_server_browser.py): every option a labelled field with its help, the engine's refusal
shown on the field at fault, the TOML downloaded read back by the engine and uploaded again, a table
made with it; a deal's permanent link and an uploaded record replayed in the stepper.  Screenshots go
to ``build/screenshots/`` (``lobby-builder-desktop.png``, ``...-phone.png``, ``replay-link-*.png``)."""

from __future__ import annotations

import dataclasses
import random
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from server_helpers import LiveServer
from test_server_browser import axe_check, browsers, on_screen, open_page, open_setup, shot, uncovered, wait  # noqa: F401
from test_server_replays import _finished_deal, _record_text

from skitgubbe.engine.actions import Kind
from skitgubbe.engine.record import dumps, record_of
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS, find_variant

FETCH_TEXT = ("const done = arguments[arguments.length - 1];"
              "fetch(arguments[0]).then((r) => r.text()).then(done, (e) => done('failed: ' + e));")


def _click(d: webdriver.Chrome, elem_id: str) -> None:
    """Click an element as a person would after scrolling it to the middle (clear of the sticky header)."""
    elem = d.find_element(By.ID, elem_id)
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", elem)
    elem.click()


def _set(d: webdriver.Chrome, option: str, text: str) -> None:
    box = d.find_element(By.ID, f"opt-{option}")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(text)


# the page's fetch, slowed for the rules check of the goat (the preset chosen when the lobby opens)
SLOW_GOAT_CHECK = """
const real = window.fetch;
window.fetch = (url, init) => {
  const check = String(url).includes("/api/rules/check");
  if (check) window.checksSent = (window.checksSent || 0) + 1;
  const slow = check && String(init.body).includes('"goat"');
  return slow ? new Promise((ok) => setTimeout(ok, 1500)).then(() => real(url, init)) : real(url, init);
};
"""


def test_a_late_answer_for_the_last_preset_does_not_change_the_new_ones_players(
        server: LiveServer, browsers: list[webdriver.Chrome]) -> None:  # noqa: F811
    """Choosing another preset while the rules check of the first is under way: the first's answer,
    when it comes, is dropped, so the players offered stay the new preset's (pagat: 2 to 4)."""
    d = open_page(browsers, server, "desktop", path="/static/table.css")
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SLOW_GOAT_CHECK})
    d.get(server.http + "/")
    wait(d).until(lambda d: d.execute_script("return window.checksSent"))  # the goat's check is under way
    open_setup(d)
    d.find_element(By.ID, "preset-pagat").click()

    def offered() -> list[str | None]:
        return [o.get_attribute("value") for o in Select(d.find_element(By.ID, "make-players")).options]

    assert offered() == ["2", "3", "4"]
    # the goat's answer arrives after 1.5 s; the page has asked about pagat since then
    answered = ("return performance.getEntriesByType('resource')"
                ".filter((e) => e.name.includes('/rules/check')).length")
    wait(d).until(lambda d: d.execute_script(answered) >= 2)
    time.sleep(0.5)  # for the page to act on the answers
    assert offered() == ["2", "3", "4"]
    Select(d.find_element(By.ID, "make-players")).select_by_value("2")


SLOW_CHECKS = """
window.checksSent = 0;
window.checksAnswered = 0;
const real = window.fetch;
window.fetch = async (url, opts) => {
  if (String(url).includes("/api/rules/check")) window.checksSent += 1;
  const answer = await real(url, opts);
  if (String(url).includes("/api/rules/check")) {
    await new Promise((r) => setTimeout(r, 1500));
    setTimeout(() => { window.checksAnswered += 1; }, 300);  // counted once the page has used it
  }
  return answer;
};
"""
"""Answers of ``/api/rules/check`` reach the page 1.5 s late; the checks sent and answered are counted
(``window.checksSent``, ``window.checksAnswered``)."""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_house_rules_builder(server: LiveServer, browsers: list[webdriver.Chrome], size: str,  # noqa: F811
                                 tmp_path: Path) -> None:
    d = open_page(browsers, server, size)
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#house-fields [name]"))
    open_setup(d)
    d.find_element(By.ID, "preset-goat").click()
    d.find_element(By.CSS_SELECTOR, "#house > summary").click()
    fields = d.find_elements(By.CSS_SELECTOR, "#house-fields [name]")
    assert {f.get_attribute("name") for f in fields} == {f.name for f in dataclasses.fields(Rules)}
    for f in fields:  # a label and the help text for each
        fid = f.get_attribute("id")
        assert d.find_element(By.CSS_SELECTOR, f"label[for='{fid}']").text.strip()
        assert d.find_element(By.ID, f.get_attribute("aria-describedby")).text.strip()
    assert d.find_element(By.ID, "opt-dreck_below").get_attribute("value") == "6"  # the goat's own value

    # a value the engine refuses: its message, the field marked, no table made with it
    _set(d, "dreck_below", "999")
    wait(d).until(lambda d: "dreck_below" in d.find_element(By.ID, "house-error").text)
    assert d.find_element(By.ID, "opt-dreck_below").get_attribute("aria-invalid") == "true"
    d.find_element(By.ID, "make-name").send_keys("Ann")
    d.find_element(By.ID, "make-go").click()
    wait(d).until(lambda d: "not allowed" in d.find_element(By.ID, "make-error").text)
    assert "room=" not in d.current_url and not server.hub.rooms

    # fixed by keyboard: the value, then a checkbox with the space bar
    _set(d, "dreck_below", "5")
    box = d.find_element(By.ID, "opt-forced_pickup")
    box.send_keys(Keys.SPACE)
    wait(d).until(lambda d: "2 changes from goat" in d.find_element(By.ID, "house-state").text)
    assert not d.find_element(By.ID, "house-error").text
    assert d.find_element(By.ID, "opt-dreck_below").get_attribute("aria-invalid") is None
    wanted = PRESETS["goat"].replace(name="goat+house", dreck_below=5, forced_pickup=True)
    href = d.find_element(By.ID, "house-download").get_attribute("href")
    text = d.execute_async_script(FETCH_TEXT, href)
    assert parse_rules_file(text) == wanted

    d.execute_script("document.getElementById('house').scrollIntoView(); scrollBy(0, -60)")
    shot(d, f"lobby-builder-{size}")
    axe_check(d, f"{size}: the house-rules builder")

    # a file uploaded back: its preset chosen above, every field filled
    other = tmp_path / "ours.toml"
    other.write_text('preset = "pagat"\nname = "ours"\n[options]\nforced_pickup = true\nmax_players = 3\n',
                     encoding="utf-8")
    d.find_element(By.ID, "house-upload").send_keys(str(other))
    wait(d).until(lambda d: d.find_element(By.ID, "preset-pagat").is_selected())
    wait(d).until(lambda d: "2 changes from pagat" in d.find_element(By.ID, "house-state").text)
    assert d.find_element(By.ID, "opt-name").get_attribute("value") == "ours"
    assert d.find_element(By.ID, "opt-forced_pickup").is_selected()
    players = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#make-players option")]
    assert players == ["2", "3"]  # the house rules' own range
    d.find_element(By.ID, "make-go").click()
    wait(d).until(lambda d: "room=" in d.current_url)
    code = d.current_url.split("room=")[1][:6]
    assert server.hub.rooms[code].spec.rules == parse_rules_file(other.read_text(encoding="utf-8"))

    # a file the engine refuses says why, naming its line
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "goat"\n[options]\nhand_size = 9\n', encoding="utf-8")
    d.get(server.http + "/")
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#house-fields [name]"))
    open_setup(d)
    assert not d.find_element(By.ID, "house-fields").is_displayed()  # closed: hidden from everything
    d.find_element(By.CSS_SELECTOR, "#house > summary").click()
    # ... even when a check of the form is still on its way: its late answer must not clear the refusal
    d.execute_script(SLOW_CHECKS)
    _set(d, "dreck_below", "4")
    wait(d).until(lambda d: d.execute_script("return window.checksSent") >= 1)
    d.find_element(By.ID, "house-upload").send_keys(str(bad))
    wait(d).until(lambda d: "hand_size" in d.find_element(By.ID, "house-error").get_attribute("textContent"))
    wait(d).until(lambda d: d.execute_script("return window.checksAnswered") >= 1)
    assert "hand_size" in d.find_element(By.ID, "house-error").get_attribute("textContent")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_deals_link_and_a_record_file_replay(server: LiveServer, browsers: list[webdriver.Chrome],  # noqa: F811
                                               size: str, tmp_path: Path) -> None:
    _, msg = _finished_deal(server)
    d = open_page(browsers, server, size, f"/replay/{msg['deal']}")
    wait(d).until(lambda d: d.find_element(By.ID, "replay").is_displayed())
    assert len(d.find_elements(By.CSS_SELECTOR, "#replay-table .open-hand")) == 3
    assert d.find_element(By.ID, "replay-link").get_attribute("href").endswith("/replay/" + msg["deal"])
    d.find_element(By.ID, "rp-next").click()
    wait(d).until(lambda d: d.find_element(By.ID, "rp-pos").text.startswith("move 1 of"))
    assert on_screen(d, d.find_element(By.ID, "rp-next"))
    shot(d, f"replay-link-{size}")
    axe_check(d, f"{size}: a deal's permanent link")
    d.find_element(By.ID, "replay-close").click()
    wait(d).until(lambda d: d.find_element(By.ID, "lobby").is_displayed())
    assert d.current_url.rstrip("/") == server.http

    lost = open_page(browsers, server, size, "/replay/0123456789abcdef")
    wait(lost).until(lambda d: d.find_element(By.ID, "missing").is_displayed())
    assert "no finished deal" in lost.find_element(By.ID, "missing-text").text

    # a record file: a malformed one names its line; a good one opens in the stepper
    bad = tmp_path / "bad.txt"
    bad.write_text(_record_text().replace("players = 4", "players = 40"), encoding="utf-8")
    open_setup(d)  # the record box is in the full set-up
    d.find_element(By.ID, "record-upload").send_keys(str(bad))
    wait(d).until(lambda d: "line 3" in d.find_element(By.ID, "record-error").text)
    good = tmp_path / "good.txt"
    good.write_text(_record_text(), encoding="utf-8")
    d.find_element(By.ID, "record-upload").send_keys(str(good))
    wait(d).until(lambda d: d.find_element(By.ID, "replay").is_displayed())
    assert d.find_element(By.ID, "replay-title").text == "Replay of a game record"
    assert not d.find_element(By.ID, "replay-link").is_displayed()
    assert len(d.find_elements(By.CSS_SELECTOR, "#replay-table .open-hand")) == 4
    d.find_element(By.ID, "rp-last").click()
    wait(d).until(lambda d: "is the goat" in d.find_element(By.ID, "rp-line").text)


def _big_hand_record() -> str:
    """A goat record for four in which seat 0 picks up whenever it may (most of the time): it
    ends the deal as the goat holding 34 cards."""
    rng = random.Random(19)
    state = State.new(find_variant("goat"), 4, dealer=0, seed=19)
    while not state.is_over:
        seat = state.to_act if state.to_act >= 0 else -1
        if seat == -1:
            action = state.chance_action(rng)
        else:
            legal = state.legal_actions(seat)
            picks = [a for a in legal if a.kind == Kind.PICK_UP]
            action = picks[0] if seat == 0 and picks and rng.random() < 0.7 else rng.choice(legal)
        state.apply(action, seat)
    assert state.hands[0].bit_count() == 34
    return dumps(record_of(state))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_big_hand_in_the_replay_stays_on_its_table(server: LiveServer, browsers: list[webdriver.Chrome],  # noqa: F811
                                                     size: str, tmp_path: Path) -> None:
    """The replay of a deal whose goat holds 34 cards: every seat's open hand stays inside the
    replay's table, clear of the step buttons and the "All moves" list below it, which opens."""
    record = tmp_path / "big.txt"
    record.write_text(_big_hand_record(), encoding="utf-8")
    d = open_page(browsers, server, size)
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preset-list input"))
    open_setup(d)
    d.find_element(By.ID, "record-upload").send_keys(str(record))
    wait(d).until(lambda d: d.find_element(By.ID, "replay").is_displayed())
    d.find_element(By.ID, "rp-last").click()
    wait(d).until(lambda d: "is the goat" in d.find_element(By.ID, "rp-line").text)
    table = d.find_element(By.ID, "replay-table").rect
    for plate in d.find_elements(By.CSS_SELECTOR, "#replay-table .plate"):
        r = plate.rect
        assert r["y"] + r["height"] <= table["y"] + table["height"] + 1, plate.get_attribute("aria-label")
    moves = d.find_element(By.CSS_SELECTOR, ".rp-moves-box > summary")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", moves)
    assert uncovered(d, moves)
    moves.click()
    d.find_elements(By.CSS_SELECTOR, "#rp-moves button")[3].click()
    assert "move 3 of" in d.find_element(By.ID, "rp-pos").text
    d.find_element(By.ID, "rp-last").click()
    d.execute_script("document.getElementById('replay-table').scrollIntoView()")
    shot(d, f"replay-big-hand-{size}")


def test_two_tables_are_set_up_from_the_lobby(server: LiveServer, browsers: list[webdriver.Chrome]) -> None:  # noqa: F811
    d = open_page(browsers, server, "phone")
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preset-list input"))
    open_setup(d)
    _click(d, "preset-pagat")  # pagat seats at most 4: refused with the reason
    d.find_element(By.ID, "make-name").send_keys("Ann")
    Select(d.find_element(By.ID, "two-people")).select_by_value("11")
    _click(d, "two-go")
    wait(d).until(lambda d: "pagat is for 2 to 4 players" in d.find_element(By.ID, "two-error").text)
    _click(d, "preset-goat")
    _click(d, "two-go")
    wait(d).until(lambda d: d.find_element(By.ID, "waiting").is_displayed())
    (session,) = server.hub.sessions.values()
    winners, losers = session.rooms
    assert session.sizes == (6, 5) and f"room={winners}" in d.current_url
    waiting = d.find_element(By.ID, "waiting").text
    assert "this is the winners table" in waiting and "Ann (you)" in waiting
    assert d.find_element(By.ID, "other-link").get_attribute("value").endswith(f"/?room={losers}")
    assert len(d.find_elements(By.CSS_SELECTOR, "#waiting .wait-seats li")) == 6
    axe_check(d, "two tables: the waiting room")
    shot(d, "two-tables-phone")
    # a friend opens the losers table's link and sits down there
    friend = open_page(browsers, server, "phone", f"/?room={losers}")
    wait(friend).until(lambda d: d.find_element(By.ID, "join-name").is_displayed())
    friend.find_element(By.ID, "join-name").send_keys("ann")  # taken at the other table: refused
    friend.find_element(By.ID, "join-go").click()
    wait(friend).until(lambda d: "other table" in d.find_element(By.ID, "join-error").text)
    friend.find_element(By.ID, "join-name").clear()
    friend.find_element(By.ID, "join-name").send_keys("Bo")
    friend.find_element(By.ID, "join-go").click()
    wait(friend).until(lambda d: "this is the losers table" in d.find_element(By.ID, "waiting").text)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_refusal_is_shown_at_its_field_and_labels_are_players_words(
        server: LiveServer, browsers: list[webdriver.Chrome], size: str) -> None:  # noqa: F811
    """Issue 29: each field is labelled in a player's words (the engine's name shown small beside it),
    and a refused change shows the refusal right under the field it names (the field's description),
    on screen without scrolling, as well as in the summary at the top."""
    d = open_page(browsers, server, size)
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#house-fields [name]"))
    open_setup(d)
    d.find_element(By.ID, "preset-goat").click()
    d.find_element(By.CSS_SELECTOR, "#house > summary").click()
    for f in d.find_elements(By.CSS_SELECTOR, "#house-fields [name]"):
        name = f.get_attribute("name")
        label = d.find_element(By.CSS_SELECTOR, f"label[for='opt-{name}']")
        words = d.execute_script("return arguments[0].firstChild.textContent", label).strip()
        assert words and "_" not in words and words.lower() != name.replace("_", " "), (name, words)
        assert d.find_element(By.CSS_SELECTOR, f"label[for='opt-{name}'] .opt-key").text == name
    assert d.find_element(By.CSS_SELECTOR, "label[for='opt-exposed_bottom']").text.startswith(
        "Show the bottom card of the stock")
    assert not d.find_elements(By.CSS_SELECTOR, ".opt-fault:not([hidden])")  # no refusal on page load

    _set(d, "dreck_below", "999")
    fault = d.find_element(By.ID, "fault-dreck_below")
    wait(d).until(lambda d: "999" in fault.text)
    box = d.find_element(By.ID, "opt-dreck_below")
    assert "dreck_below" in d.find_element(By.ID, "house-error").text  # the summary stays
    assert "fault-dreck_below" in (box.get_attribute("aria-describedby") or "").split()
    wait(d, 5).until(lambda d: on_screen(d, fault) and on_screen(d, box))  # (a smooth scroll may run)
    gap = d.execute_script("const a = arguments[0].getBoundingClientRect();"
                           "return Math.abs(arguments[1].getBoundingClientRect().top - a.bottom);",
                           box, fault)
    assert gap < 200, gap
    shot(d, f"lobby-builder-refusal-{size}")

    _set(d, "dreck_below", "5")  # fixed: the message goes
    wait(d).until(lambda d: not fault.is_displayed())
    assert (box.get_attribute("aria-describedby") or "").split() == ["help-dreck_below"]
