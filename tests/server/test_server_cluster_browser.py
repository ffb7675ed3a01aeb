"""A real browser through the topology (HAProxy, two workers, PostgreSQL): headless Chromium makes a
two-seat pagat table against a bot through the proxy and plays; mid-deal the worker driving the table
is killed with SIGKILL.  The deal goes on in the same page, never reloaded (it reconnects through the
proxy to the other worker, which takes the table over), and every move the page saw acknowledged is
in the database's log.  Skipped when haproxy, chromium or chromium-driver is missing (CI installs
them)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium.webdriver.common.by import By  # noqa: E402  (test_server_browser skips without it)
from test_server_browser import FLAKY, Deal, chromium, make_table, shot, status, wait
from test_server_cluster import Topology, bring_up, schema_url, stored_moves

WATCH = """
window.__acked = [];
window.__loads = Number(sessionStorage.getItem("loads") || 0) + 1;
sessionStorage.setItem("loads", String(window.__loads));
window.__sockets = 0;
const Real = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const ws = protocols ? new Real(url, protocols) : new Real(url);
  window.__sockets += 1;
  ws.addEventListener("message", (e) => {
    try { const m = JSON.parse(e.data); if (m.ack != null) window.__acked.push(m.ack); }
    catch (err) { /* not JSON */ }
  });
  return ws;
};
window.WebSocket.prototype = Real.prototype;
"""
"""Run before each document: counts the page's loads in this tab, its websockets, and the acks it saw."""


@pytest.fixture
def topology(pg_url: str, tmp_path: Path) -> Iterator[Topology]:
    top = bring_up(schema_url(pg_url, "cluster_browser"), tmp_path, 2)
    yield top
    top.cluster.stop(grace=10)


def test_a_deal_in_the_browser_goes_on_when_its_worker_is_killed(topology: Topology) -> None:
    d = chromium("desktop")
    try:
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        d.get(topology.http + "/static/table.css")
        d.execute_script("localStorage.setItem('skitgubbe:motion', 'off')")
        d.get(topology.http + "/")
        code = make_table(d, "pagat", 2, seats=["easy"])
        deal = Deal(d, None, code, "cluster")  # type: ignore[arg-type]  (only the page is read)
        wait(d, 30).until(lambda d: "Your turn" in status(d) or "Sluff" in status(d))
        loads = d.execute_script("return window.__loads")
        killed: str | None = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if d.find_element(By.ID, "result").is_displayed():
                break
            if killed is None and len(d.execute_script("return window.__acked")) >= 4:
                killed = httpx.get(f"{topology.http}/api/rooms/{code}").headers["x-skitgubbe-worker"]
                os.kill(topology.cluster.workers[killed].pid, signal.SIGKILL)
                shot(d, "cluster-killed")
            try:
                if deal.ready(d):
                    deal.turn()
                    time.sleep(0.1)
                else:
                    time.sleep(0.05)
            except FLAKY:
                continue
        assert killed is not None, "the deal ended before the page saw four acknowledged moves"
        assert d.find_element(By.ID, "result").is_displayed(), ("the deal did not end", topology.said())
        shot(d, "cluster-result")
        assert d.execute_script("return window.__loads") == loads  # the same page, never reloaded
        assert d.execute_script("return window.__sockets") >= 2  # it reconnected
        acked = {int(n) for n in d.execute_script("return window.__acked")}
        stored = stored_moves(topology.db, code)
        assert acked and acked <= stored, f"acknowledged but not stored: {sorted(acked - stored)}"
        survivor = next(n for n in topology.cluster.workers if n != killed)
        assert httpx.get(f"{topology.http}/api/rooms/{code}").headers["x-skitgubbe-worker"] == survivor
    finally:
        d.quit()
