"""Cost of record uploads (a benchmark, not a test; issue 28): the CPU and answer size of the worst-case
record, and the websocket ping latency while 4 clients upload it in a loop.

    PYTHONPATH=src .venv/bin/python benchmarks/upload_cost.py --seconds 10

The worst-case record is random play of the Goat Game with two packs at 8 seats
(examples/double-deck.toml, seed 1): 11,459 moves in 104,692 bytes, under the 128 KiB upload limit.
``--moves N`` cuts it to its first N moves (a record that stops mid-deal replays too).  Prints:

* the in-process cost of building its replay (``record_replay`` and its JSON): CPU seconds, bytes;
* against a ``skitgubbe serve`` process on 127.0.0.1 (a fresh SQLite file): the ping round trip on a
  websocket (mean, p99, max in ms), alone and then while ``--uploaders`` clients post the record in a
  loop, each from its own loopback address (127.0.0.2, ...) so that the per-client limit of replays
  is not what holds them back; the statuses the uploads got and the server's CPU seconds (its
  workers included).

Measured on a 2-CPU machine, ``--seconds 10`` (pings every 60 ms):

=====================  =============================  ==============================================
                       before (no limits)             after
=====================  =============================  ==============================================
worst case (11,459     1.1-1.5 s CPU, 8,760,460 bytes  413 ``too-large`` (90 bytes), parse only
moves, 104,692 bytes)
ping, 4 uploaders      mean 72 ms, p99 348, max 356   mean 1.2 ms, p99 5.5, max 10.8
3,000 moves (29 kB,    --                             200, 2,411,992 bytes, 0.3-0.5 s CPU in the
the most accepted)                                    worker; ping mean 1.5 ms, p99 6.8, max 9.0
ping alone             mean 0.8-1.0 ms                mean 0.8 ms
=====================  =============================  ==============================================

(before: ``PYTHONPATH`` pointing at the source before issue 28's limits.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import websockets

from skitgubbe.engine.record import dumps, record_of
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.server.replays import record_replay

ROOT = Path(__file__).resolve().parents[1]


def worst_record(moves: int | None = None) -> str:
    """The record of random play at 8 seats with two packs (seed 1), cut to ``moves`` moves if given."""
    rules = parse_rules_file((ROOT / "examples" / "double-deck.toml").read_text())
    rng = random.Random(1)
    state = State.new(rules, 8, dealer=0, seed=1)
    while not state.is_over and (moves is None or len(state.history) < moves):
        seat = state.to_act if state.to_act >= 0 else -1
        action = state.chance_action(rng) if seat == -1 else rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
    return dumps(record_of(state))


def in_process(text: str) -> tuple[float, int]:
    t = time.process_time()
    body = json.dumps(record_replay(text), separators=(",", ":")).encode()
    return time.process_time() - t, len(body)


async def pinger(url: str, until: float) -> list[float]:
    out = []
    async with websockets.connect(url, max_size=2**20) as ws:
        while time.monotonic() < until:
            t = time.perf_counter()
            await ws.send('{"type": "ping"}')
            await ws.recv()
            out.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.06)  # under the 20 messages a second of a connection
    return out


async def uploader(base: str, text: str, address: str, until: float, statuses: Counter[int]) -> None:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(transport=transport, timeout=60) as client:
        while time.monotonic() < until:
            r = await client.post(base + "/api/records", json={"text": text})
            statuses[r.status_code] += 1
            if r.status_code == 503:
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
            elif r.status_code != 200:
                await asyncio.sleep(0.05)


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"{len(ms)} pings, mean {statistics.mean(ms):.2f} ms, p99 {ms[int(len(ms) * 0.99) - 1]:.2f} ms, "
            f"max {ms[-1]:.2f} ms")


def cpu_of(pid: int) -> float:
    """CPU seconds of process ``pid`` and its live children (the bot and replay workers), Linux only."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return own + sum(cpu_of(int(c)) for c in children)


async def against_server(base: str, text: str, seconds: float, uploaders: int, pid: int) -> None:
    ws = base.replace("http", "ws") + "/ws"
    alone = await pinger(ws, time.monotonic() + min(3.0, seconds))
    print("ping alone:          ", summary(alone))
    statuses: Counter[int] = Counter()
    cpu = cpu_of(pid)
    until = time.monotonic() + seconds
    jobs = [uploader(base, text, f"127.0.0.{i + 2}", until, statuses) for i in range(uploaders)]
    results = await asyncio.gather(pinger(ws, until), *jobs)
    print(f"ping with {uploaders} uploaders:", summary(results[0]))
    print("upload statuses:", dict(statuses), f"server CPU {cpu_of(pid) - cpu:.1f} s in {seconds:g} s")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=10.0, help="how long the uploaders run; default 10")
    p.add_argument("--uploaders", type=int, default=4, help="parallel uploaders; default 4")
    p.add_argument("--moves", type=int, default=None, help="cut the record to its first N moves")
    p.add_argument("--port", type=int, default=8765)
    args = p.parse_args()
    text = worst_record(args.moves)
    moves = text.split("moves:")[1].count("\n")
    cpu, size = in_process(text)
    print(f"record: {len(text)} bytes, about {moves} moves; its replay in process: {cpu:.2f} s CPU, "
          f"{size} bytes of JSON")
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "skitgubbe.play.cli", "serve", "--db",
                                 f"sqlite:///{tmp}/s.db", "--port", str(args.port), "--bot-workers", "1"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{args.port}"
            for _ in range(300):
                try:
                    if httpx.get(base + "/api/options", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            r = httpx.post(base + "/api/records", json={"text": text}, timeout=60)
            print(f"one upload: {r.status_code}, {len(r.content)} bytes", r.json().get("error", ""))
            asyncio.run(against_server(base, text, args.seconds, args.uploaders, proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
