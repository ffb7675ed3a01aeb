"""The lobby for players (issue 29, item 1), in a real browser (headless Chromium, as
test_server_browser.py): on a 390x844 phone "Play now" is on the first screen and one tap sits you
down against bots at the chosen game's recommended table, the deal under way; on a 1280x900 desktop
the games are listed by their own names, with their variants and what each changes, and the full
set-up is one step further."""

from __future__ import annotations

import httpx
from selenium import webdriver
from selenium.webdriver.common.by import By
from server_helpers import LiveServer
from test_server_browser import axe_check, browsers, open_page, shot, wait  # noqa: F401


def test_one_tap_on_a_phone_sits_you_down_against_bots(server: LiveServer,
                                                        browsers: list[webdriver.Chrome]) -> None:  # noqa: F811
    d = open_page(browsers, server, "phone")
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-list input[name=game-pick]"))
    button = d.find_element(By.ID, "play-now")
    box = d.execute_script("const r = arguments[0].getBoundingClientRect();"
                           "return [r.top, r.bottom, innerHeight, scrollY];", button)
    assert box[3] == 0 and box[0] >= 0 and box[1] <= box[2], box  # on the first screen, nothing scrolled
    assert d.execute_script("const r = arguments[0].getBoundingClientRect();"
                            "return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)"
                            " === arguments[0]", button)  # and nothing covers it
    assert not d.find_element(By.ID, "make-go").is_displayed()  # the full set-up is one step further
    shot(d, "lobby-phone")
    axe_check(d, "phone: the lobby")
    button.click()  # the preselected game, no name typed: the default name
    wait(d).until(lambda d: "room=" in d.current_url)
    code = d.current_url.split("room=")[1][:6]
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    info = httpx.get(f"{server.http}/api/rooms/{code}").json()
    assert info["rules"] == "goat" and info["players"] == 4 and info["status"] == "playing"
    assert info["kinds"] == ["person", "bot", "bot", "bot"] and info["seats"][0] == "Player"


def test_the_desktop_lobby_lists_the_games_by_name(server: LiveServer,
                                                    browsers: list[webdriver.Chrome]) -> None:  # noqa: F811
    d = open_page(browsers, server, "desktop")
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-list .game-card"))
    names = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#game-list .game-name")]
    assert names == ["Skitgubbe", "The Goat Game / Flurst", "Mas", "Mattis and Blåmattis",
                     "Koira and Myllymatti", "Single Hand"]
    lobby = d.find_element(By.ID, "lobby").text
    assert "pagat" not in lobby.split("More options")[0]  # no source names on the first screen
    assert "skitgubbe play --rules single-hand" in d.find_element(By.ID, "game-single-hand").text
    # the variants of a game, with what each changes; choosing one sets the table up for it
    skit = d.find_element(By.ID, "game-skitgubbe")
    skit.find_element(By.CSS_SELECTOR, ".variants > summary").click()
    assert "avstickshög" in skit.find_element(By.CSS_SELECTOR, ".variants").text
    skit.find_element(By.CSS_SELECTOR, "label[for=pick-two-player]").click()
    assert d.find_element(By.ID, "play-about").text == "Skitgubbe, Two players · 2 players: you and 1 bot"
    d.find_element(By.CSS_SELECTOR, "#setup > summary").click()
    assert d.find_element(By.ID, "preset-two-player").is_selected()
    assert d.find_element(By.ID, "make-players").get_attribute("value") == "2"
    # the language picker writes the lobby again: the choices stay
    assert d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import("/static/lobby.js").then((m) => m.refreshLobby())
          .then(() => done(true), (e) => done(String(e)));
    """) is True
    assert d.find_element(By.ID, "pick-two-player").is_selected()
    assert d.find_element(By.ID, "preset-two-player").is_selected()
    assert len(d.find_elements(By.CSS_SELECTOR, "#game-list .game-card")) == 6
    assert len(d.find_elements(By.CSS_SELECTOR, "#preset-list input")) == len(httpx.get(
        server.http + "/api/options").json()["presets"])
    shot(d, "lobby-desktop")
    axe_check(d, "desktop: the lobby with the set-up open")
    # and a preset chosen in the set-up becomes Play now's game
    mas = d.find_element(By.ID, "preset-mas")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", mas)
    mas.click()
    assert d.find_element(By.ID, "pick-mas").is_selected()
    assert d.find_element(By.ID, "play-about").text == "Mas · 3 players: you and 2 bots"
    back = d.find_element(By.CSS_SELECTOR, "label[for=pick-two-player]")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", back)
    back.click()
    d.find_element(By.ID, "make-name").send_keys("Ann")
    d.find_element(By.ID, "play-now").click()
    wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hand .card"))
    code = d.current_url.split("room=")[1][:6]
    info = httpx.get(f"{server.http}/api/rooms/{code}").json()
    assert info["rules"] == "two-player" and info["seats"][0] == "Ann" and info["kinds"] == ["person", "bot"]
