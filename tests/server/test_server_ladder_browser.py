"""The ladder's leaderboard page (/ladder) in headless Chromium, at phone and desktop size."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import LiveServer

pytest.importorskip("selenium")

from selenium.webdriver.common.by import By  # noqa: E402
from test_server_browser import CHROMIUM, DRIVER, axe_check, chromium, shot, wait  # noqa: E402

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (apt-get install; CI does)",
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    s = LiveServer(f"sqlite:///{tmp_path}/server.db").start()
    yield s
    s.stop()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_leaderboard_shows_every_entrant_with_links_to_its_games(server: LiveServer, size: str) -> None:
    book = server.app.state.door.book
    book.record_game(
        "0123456789abcdef",
        "ROOM01",
        ["Rando", "counter", "heuristic"],
        ["outside", "builtin", "builtin"],
        loser=0,
    )
    d = chromium(size)
    try:
        d.get(server.http + "/ladder")
        wait(d).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board tbody tr")) == 3)
        rows = d.find_elements(By.CSS_SELECTOR, "#board tbody tr")
        assert rows[-1].find_elements(By.TAG_NAME, "td")[1].text == "Rando"  # the loser is last
        assert "(built-in)" in rows[0].text
        link = rows[-1].find_element(By.CSS_SELECTOR, ".games a")
        assert link.get_attribute("href").endswith(
            "/replay/0123456789abcdef"
        ) and "lost" in link.get_attribute("class")
        assert d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        assert "duplicate matches" in d.find_element(By.ID, "ladder-about").text
        axe_check(d, f"the ladder ({size})")
        shot(d, f"ladder-{size}")
    finally:
        d.quit()
