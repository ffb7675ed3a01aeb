"""The topology as plain processes (``skitgubbe.server.cluster.start_cluster``, behind ``skitgubbe
cluster``): HAProxy in front of two ``skitgubbe serve --worker`` processes on one PostgreSQL
database.  It comes up and answers ``/healthz`` through the proxy; a deal is played through it; and
the worker holding a table is killed with SIGKILL mid-deal: the same clients, with the same seat
tokens, reconnect through the proxy to the other worker, which takes the table over, the deal ends,
and every move a client saw acknowledged is in the database.  Skipped only when Debian's haproxy is
not installed (CI installs it); PostgreSQL comes from the ``pg_url`` fixture."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
import websockets
from server_helpers import free_port

from skitgubbe.server.cluster import Cluster, ProxyLimits, start_cluster
from skitgubbe.server.store import Store

pytestmark = pytest.mark.skipif(shutil.which("haproxy") is None,
                                reason="needs Debian's haproxy (apt-get install haproxy; CI does)")



def schema_url(pg_url: str, schema: str) -> str:
    """``pg_url`` with its own, emptied schema ``schema`` first on the search path."""
    engine = sqlalchemy.create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        conn.execute(sqlalchemy.text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return pg_url + ("&" if "?" in pg_url else "?") + f"options=-csearch_path%3D{schema}"


def free_ports(n: int) -> int:
    """A port P with P..P+n all free on 127.0.0.1 (for the proxy and its workers)."""
    for _ in range(50):
        base = free_port()
        try:
            for k in range(1, n + 1):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", base + k))
            return base
        except OSError:
            continue
    raise RuntimeError("no free run of ports")


@dataclass
class Topology:
    cluster: Cluster
    db: str
    port: int
    log: Path

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def said(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def bring_up(db: str, tmp_path: Path, workers: int) -> Topology:
    port = free_ports(workers)
    log = tmp_path / "cluster.log"
    options = ["--bot-workers", "1", "--bot-delay", "0", "--connections-per-client", "0",
               "--renew-every", "0.5", "--lease-expiry", "2"]
    with log.open("wb") as out:
        cluster = start_cluster(db, workers=workers, port=port, worker_options=options,
                                limits=ProxyLimits(connections=0, rooms=0), output=out.fileno(),
                                served_by=True)
    top = Topology(cluster, db, port, log)
    deadline = time.monotonic() + 45
    while time.monotonic() < deadline:
        try:
            if all(httpx.get(f"http://127.0.0.1:{p}/healthz", timeout=2).status_code == 200
                   for p in cluster.ports.values()):
                seen = {httpx.get(top.http + "/api/options").headers.get("x-skitgubbe-worker")
                        for _ in range(2 * workers)}
                if seen == set(cluster.workers):
                    return top
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    cluster.stop(grace=2)
    raise RuntimeError("the topology did not come up:\n" + top.said())


@pytest.fixture
def topology(pg_url: str, tmp_path: Path) -> Iterator[Topology]:
    top = bring_up(schema_url(pg_url, "cluster_test"), tmp_path, 2)
    yield top
    top.cluster.stop(grace=10)


def test_the_topology_comes_up_and_answers_health_through_the_proxy(topology: Topology) -> None:
    answer = httpx.get(topology.http + "/healthz")
    assert answer.status_code == 200 and answer.json()["database"] == "ok"
    assert answer.headers["x-skitgubbe-worker"] in topology.cluster.workers
    made = httpx.post(topology.http + "/api/rooms", json={"preset": "pagat", "players": 2, "name": "Ann",
                                                          "seats": ["easy"]})
    assert made.status_code == 200, made.text
    code = made.json()["room"]
    # the room is known through the proxy, whichever worker answers
    assert httpx.get(f"{topology.http}/api/rooms/{code}").status_code == 200


@dataclass
class Client:
    """A seat's program as the page behaves: one seat token for the whole test; when the connection
    closes (4001: the table moved; 1006 or a refused handshake: its worker died) it connects again
    through the proxy at once, then after 0.25, 0.5, ... s, and sends the move it was waiting for
    again after the new sync (the server refuses a repeat)."""

    url: str
    room: str
    player: int
    token: str
    rng: random.Random
    acked: dict[int, float] = field(default_factory=dict)  # n → when (monotonic seconds)
    sent: dict[int, str] = field(default_factory=dict)
    closes: list[int | None] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    syncs: int = 0
    over: bool = False
    last: dict[str, Any] | None = None
    trace: list[Any] = field(default_factory=list)

    async def run(self, limit: float = 45) -> None:
        deadline = time.monotonic() + limit
        pending: int | None = None
        retry = 0
        while not self.over and time.monotonic() < deadline:
            try:
                async with websockets.connect(f"{self.url}?room={self.room}", open_timeout=5,
                                              max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "hello", "room": self.room, "player": self.player,
                                              "token": self.token}))
                    while True:
                        raw = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
                        msg = json.loads(raw)
                        self.trace.append((msg["type"], msg.get("code"), msg.get("ack"), msg.get("n"),
                                           pending,
                                           (msg.get("table") or {}).get("status")))
                        if msg["type"] == "sync":
                            self.syncs += 1
                            retry = 0
                            if pending is not None:
                                await ws.send(json.dumps({"type": "act", "n": pending,
                                                          "move": self.sent[pending]}))
                        if msg["type"] in ("sync", "state"):
                            self.last = msg
                            if msg.get("ack") is not None:
                                self.acked[msg["ack"]] = time.monotonic()
                                if msg["ack"] == pending:
                                    pending = None
                        if msg["type"] == "error" and msg["code"] == "rate-limited" and pending is not None:
                            await asyncio.sleep(float(msg.get("retry_after") or 0.5))
                            await ws.send(json.dumps({"type": "act", "n": pending,
                                                      "move": self.sent[pending]}))
                            continue
                        if msg["type"] == "error":
                            if msg.get("n") is not None and msg["n"] == pending:
                                if msg["code"] == "replayed":  # it was stored before the break
                                    self.acked[pending] = time.monotonic()
                                pending = None
                            if msg["code"] not in ("replayed", "illegal", "rate-limited", "not-your-turn"):
                                self.refusals.append(msg["code"])
                        if self.last is not None and self.last["table"]["status"] == "over":
                            self.over = True
                            return
                        if pending is None and self.last is not None and msg["type"] in ("sync", "state",
                                                                                         "error"):
                            move = self.choose()
                            if move is not None:
                                await asyncio.sleep(0.05)  # a brisk player, within the message rate
                                pending = self.player * 1_000_000 + len(self.sent) + 1
                                self.sent[pending] = move
                                await ws.send(json.dumps({"type": "act", "n": pending, "move": move}))
                self.closes.append(ws.close_code)
            except websockets.ConnectionClosed as e:
                self.closes.append(e.rcvd.code if e.rcvd else 1006)
            except (OSError, websockets.InvalidHandshake, TimeoutError):
                self.closes.append(None)  # the proxy had no live worker for the room yet
            code = self.closes[-1]
            await asyncio.sleep(0 if retry == 0 and code in (4001, 1006) else 0.25 * min(retry + 1, 8))
            retry += 1

    def choose(self) -> str | None:
        last = self.last
        if last is None or last["me"] is None or last["table"]["status"] != "playing":
            return None
        me, pub = last["me"], last["table"]["public"]
        legal = [m["move"] for m in me["legal"]]
        if legal and (pub["to_act"] == me["seat"] or me["seat"] in pub["window"]):
            return str(self.rng.choice(legal))
        return None


def stored_moves(db: str, code: str) -> set[int]:
    """The ``n`` of every move of a person stored for room ``code``."""
    store = Store(db)
    try:
        room = next(r for r in store.load_rooms() if r.code == code)
    finally:
        store.close()
    return {int(p["n"]) for kind, p in room.log if kind == "act" and p.get("n")}


def test_killing_the_worker_of_a_table_mid_deal_loses_no_acknowledged_move(topology: Topology) -> None:
    made = httpx.post(topology.http + "/api/rooms",
                      json={"preset": "pagat", "players": 2, "name": "Ann", "seats": ["open"]}).json()
    code = made["room"]
    joined = httpx.post(f"{topology.http}/api/rooms/{code}/join", json={"name": "Bo"}).json()
    clients = [Client(topology.ws, code, 0, made["token"], random.Random(1)),
               Client(topology.ws, code, 1, joined["token"], random.Random(2))]
    killed: dict[str, Any] = {}

    async def killer() -> None:
        deadline = time.monotonic() + 30
        while sum(len(c.acked) for c in clients) < 12:
            if time.monotonic() > deadline or all(c.over for c in clients):
                return
            await asyncio.sleep(0.01)
        owner = httpx.get(f"{topology.http}/api/rooms/{code}").headers["x-skitgubbe-worker"]
        killed.update(name=owner, at=time.monotonic(), acked=sum(len(c.acked) for c in clients))
        os.kill(topology.cluster.workers[owner].pid, signal.SIGKILL)

    async def go() -> None:
        await asyncio.gather(killer(), *(c.run() for c in clients))

    asyncio.run(go())
    assert killed, "the deal ended before a dozen moves"
    assert all(c.over for c in clients), ("the deal did not go on after the kill",
                                          [c.trace[-6:] for c in clients], topology.said())
    after = [t for c in clients for t in c.acked.values() if t > killed["at"]]
    assert after, "no move was acknowledged after the kill"
    stored = stored_moves(topology.db, code)
    acked = {n for c in clients for n in c.acked}
    assert acked <= stored, f"acknowledged but not stored: {sorted(acked - stored)}"
    for c in clients:
        assert c.refusals == [], c.refusals  # never forbidden or no-room: the seat token still good
        assert c.syncs >= 2 and c.closes  # it did reconnect, with the same token, in the same run
    survivor = next(n for n in topology.cluster.workers if n != killed["name"])
    assert httpx.get(f"{topology.http}/api/rooms/{code}").headers["x-skitgubbe-worker"] == survivor


@pytest.mark.skipif(shutil.which("node") is None,
                    reason="node is not installed (the JavaScript client needs it)")
def test_a_javascript_bot_plays_a_rated_ladder_match_through_the_proxy(topology: Topology) -> None:
    """The issue's "an outside bot written in another language plays a rated ladder game", on the
    whole topology: a bot registered with ``skitgubbe bot add`` on the shared database queues through
    the proxy with the JavaScript reference client, is seated with built-in bots, plays its 3-deal
    match to the end, and the board (read through the proxy, from either worker) rates it."""
    import subprocess
    import sys

    added = subprocess.run([sys.executable, "-m", "skitgubbe.play.cli", "bot", "add", "JsProxy",
                            "--db", topology.db], capture_output=True, text=True, timeout=60)
    assert added.returncode == 0, added.stdout + added.stderr
    token = next(w for w in added.stdout.split() if len(w) >= 24)  # the token, printed once
    major = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip("v\n")
    flags = ["--experimental-websocket"] if int(major.split(".")[0]) < 22 else []
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(["node", *flags, str(root / "examples/bots/random_bot.mjs"), topology.ws,
                          "--token", token, "--ladder"], capture_output=True, text=True, timeout=240)
    assert out.returncode == 0 and int(out.stdout.split("moves sent:")[1]) > 0, \
        out.stdout + out.stderr + topology.said()
    for _ in range(2 * len(topology.cluster.workers)):  # every worker reads the same board
        rows = {r["name"]: r for r in httpx.get(topology.http + "/api/ladder", timeout=10).json()["players"]}
        assert rows["JsProxy"]["games"] == 3 and rows["JsProxy"]["kind"] == "outside"
