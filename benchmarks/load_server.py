"""Load benchmark of the online table (a benchmark, not a test): many concurrent 3- and 4-seat tables of
scripted websocket players against one ``skitgubbe serve`` process on loopback (``--seats 4``: only 4-seat
tables, 250 of them for 1,000 connections).

    .venv/bin/python benchmarks/load_server.py --connections 1000 --duration 60

It starts the server (a fresh SQLite file in a temporary directory, ``--bot-workers 1``; or give
``--url`` of a running server and ``--db`` of its database), makes the rooms over HTTP, connects every
seat, and every player answers its turn (and its sluff windows) with a random legal move at once;
when a deal ends the table plays again.  Every move's latency is the time from sending it to its
``ack``, which the server sends only once the move is stored.  At the end every message every seat
received is checked against the deals replayed from the server's database: no card that was hidden
from that seat at that moment may appear in it.

Prints (and with ``--json`` writes) connections, tables, moves/s, latency percentiles (ms), error
messages, leaked cards.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from skitgubbe.engine.cards import card_name, cards_in, parse_card
from skitgubbe.engine.state import State
from skitgubbe.server.rooms import Room, RoomSpec
from skitgubbe.server.store import Store

CARD_RE = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA])([CDHS♣♦♥♠])(?![A-Za-z0-9])")
GAME_SEQ = re.compile(r'"game":(\d+),.*?"public":\{"seq":(\d+)')
SUIT_OF = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
CARD_MASK = {r + s: 1 << parse_card(r + s) for r in "23456789TJQKA" for s in "CDHS"}


def mentioned(text: str) -> int:
    """The card set of every card named in ``text``."""
    m = 0
    for r, s in CARD_RE.findall(text):
        m |= CARD_MASK[r + SUIT_OF.get(s, s)]
    return m


@dataclass
class Seat:
    room: str
    player: int
    token: str
    rng: random.Random
    leader: bool = False  # slot 0 asks for the next deal
    n: int = 0
    outstanding: bool = False
    sent: dict[int, float] = field(default_factory=dict)
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (time acked, seconds)
    errors: list[str] = field(default_factory=list)
    seen: list[tuple[int, int, int]] = field(default_factory=list)  # (game, seq, cards mentioned)
    seat: int = -1
    game: int = 0
    seq: int = 0
    last: dict[str, Any] | None = None
    asked_again: int = 0
    think: float = 0.0  # mean seconds the player pauses before a move (0: answer at once)
    acked: dict[int, float] = field(default_factory=dict)  # n -> when acknowledged (perf_counter)
    worker: str | None = None  # the worker the proxy sent the current connection to
    closes: list[int] = field(default_factory=list)  # close codes of connections lost mid-run
    refused: list[str] = field(default_factory=list)  # hello refusals after a reconnect: a reload needed


async def play(url: str, s: Seat, stop: asyncio.Event, ready: asyncio.Event) -> None:
    """One seat's player; a connection lost mid-run (its worker killed, its table moved: 4001) is
    opened again as the page does (at once, then after 0.25, 0.5, ... s) with the same seat token."""
    retry = 0
    while True:
        try:
            await play_once(url, s, stop, ready)
            return
        except (websockets.ConnectionClosed, OSError, websockets.InvalidHandshake, TimeoutError) as e:
            if not ready.is_set():
                ready.set()  # a client that never got in: counted as a failure, not waited for
                raise
            if stop.is_set():
                return
            code = e.rcvd.code if isinstance(e, websockets.ConnectionClosed) and e.rcvd else 1006
            s.closes.append(code if isinstance(e, websockets.ConnectionClosed) else 0)
            s.outstanding = False  # the move in flight: not acknowledged; the new sync decides again
            s.sent.clear()
            await asyncio.sleep(0 if retry == 0 and code in (4001, 1006) else 0.25 * min(retry, 8))
            retry += 1


async def play_once(url: str, s: Seat, stop: asyncio.Event, ready: asyncio.Event) -> None:
    async with websockets.connect(f"{url}?room={s.room}", max_size=2**22, compression=None,
                                  open_timeout=60, ping_interval=None) as ws:
        s.worker = ws.response.headers.get("X-Skitgubbe-Worker") if ws.response else None
        await ws.send(json.dumps({"type": "hello", "room": s.room, "player": s.player, "token": s.token}))
        reconnected = ready.is_set()
        ready.set()
        async for frame in ws:
            raw = frame if isinstance(frame, str) else frame.decode()
            now = time.perf_counter()
            if (raw.startswith('{"type":"state"') and '"legal":[]' in raw and '"ack":' not in raw
                    and '"status":"playing"' in raw):
                # nothing for this seat to do: only note the move number, for the leak check
                found = GAME_SEQ.search(raw)
                if found:
                    s.game, s.seq = int(found[1]), int(found[2])
                s.seen.append((s.game, s.seq, mentioned(raw)))
                if stop.is_set() and not s.outstanding:
                    return
                continue
            msg = json.loads(raw)
            kind = msg["type"]
            if kind in ("state", "sync"):
                t = msg["table"]
                if t["public"] is not None:
                    s.game, s.seq = t["game"], t["public"]["seq"]
                if msg["me"] is not None:
                    s.seat = msg["me"]["seat"]
                s.last = msg
            if kind != "chat":
                s.seen.append((s.game, s.seq, mentioned(raw)))
            if "ack" in msg:  # the update after a move says it is stored
                if msg["ack"] in s.sent:
                    s.latencies.append((now, now - s.sent.pop(msg["ack"])))
                s.acked[msg["ack"]] = now
                s.outstanding = False
            elif kind == "error" and reconnected and msg["code"] in ("forbidden", "no-room"):
                s.refused.append(msg["code"])
                return
            elif kind == "error":
                s.errors.append(msg["code"] + ": " + msg["message"])
                s.outstanding = False
                await asyncio.sleep(0.2)  # then try again from the latest table
            if stop.is_set():
                if not s.outstanding:
                    return
                continue
            if s.outstanding or s.last is None or kind not in ("state", "sync", "error"):
                continue
            await decide(ws, s, s.last)


async def decide(ws: Any, s: Seat, msg: dict[str, Any]) -> None:
    """Answer the latest table: a random legal move when the seat is to act or asked to sluff."""
    t = msg["table"]
    if t["status"] == "over":
        if s.leader and s.asked_again != t["game"]:
            s.asked_again = t["game"]
            await ws.send(json.dumps({"type": "again"}))
        return
    me, pub = msg["me"], t["public"]
    if me is None or pub is None or not me["legal"]:
        return
    if pub["to_act"] != me["seat"] and me["seat"] not in pub["window"]:
        return
    move = s.rng.choice(me["legal"])["move"]
    if s.think > 0:  # a player's pause before the move: uniform over [0.5, 1.5] x the mean
        await asyncio.sleep(s.think * (0.5 + s.rng.random()))
    s.n = max(s.n + 1, s.player * 10_000_000 + 1)  # unique in the table, to match the database's log
    s.sent[s.n] = time.perf_counter()
    s.outstanding = True
    await ws.send(json.dumps({"type": "act", "n": s.n, "move": move}))


def hidden_masks(state: State) -> list[int]:
    """Per seat, the card set hidden from it now (as tests/server/test_server_game.py defines it)."""
    if state.is_over:
        return [0] * state.players
    common = 0
    for c in state.stock:
        common |= 1 << c
    if state.trump_suit < 0 and state.trump_card >= 0:
        common |= 1 << state.trump_card
    unknown = [h & ~k for h, k in zip(state.hands, state.known, strict=True)]
    out = []
    for seat in range(state.players):
        m = common
        for s in range(state.players):
            if s != seat:
                m |= unknown[s]
        if len(state.needy) > 1:
            m &= ~state.dreck
        if state.rules.exposed_bottom and state.deck:
            m &= ~(1 << state.deck[-1])
        out.append(m)
    return out


def check_leaks(db: str, seats: list[Seat]) -> tuple[int, int]:
    """Replay every stored room and check every recorded message; returns (messages checked, leaks)."""
    store = Store(db)
    hidden: dict[tuple[str, int, int], list[int]] = {}  # (room, game, seq) -> per seat
    seating: dict[tuple[str, int], list[int]] = {}
    for sr in store.load_rooms():
        room = Room(sr.code, RoomSpec.from_json(sr.spec))
        for kind, payload in sr.log:
            room.apply_entry(kind, payload)
            if kind in ("start", "act") and room.state is not None:
                hidden[(sr.code, room.game, room.seq)] = hidden_masks(room.state)
                seating[(sr.code, room.game)] = list(room.seating)
    store.close()
    checked = leaks = 0
    for s in seats:
        for game, seq, cards in s.seen:
            if game == 0:
                continue
            seat = seating[(s.room, game)].index(s.player)
            h = hidden[(s.room, game, seq)][seat]
            checked += 1
            if cards & h:
                leaks += 1
                print(f"LEAK room {s.room} game {game} move {seq} seat {seat}: "
                      + " ".join(card_name(c) for c in cards_in(cards & h)), file=sys.stderr)
    return checked, leaks


def server_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (Linux /proc), 0 without one."""
    if not pid:
        return 0.0
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_waited(pid: int | None) -> float:
    """Seconds the server's threads have spent runnable but waiting for a CPU (Linux schedstat):
    on a busy machine, time the server could not run."""
    if not pid:
        return 0.0
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as f:
            total += int(f.read().split()[1])
    return total / 1e9


joins_retried = [0]
"""Joins answered 404 or 503 and tried again (a room made on one worker, joined through another)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def make_tables(base: str, connections: int, rng: random.Random, table_seats: int = 0) -> list[Seat]:
    """Make tables of ``table_seats`` seats (0: 3 and 4 in turn) until ``connections`` seats exist."""
    seats: list[Seat] = []
    sizes: list[int] = []
    total = 0
    while total < connections:
        k = table_seats or (3 if len(sizes) % 2 == 0 else 4)
        sizes.append(k)
        total += k
    sem = asyncio.Semaphore(32)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async def table(k: int, i: int) -> list[Seat]:
            async with sem:
                r = await http.post("/api/rooms", json={"name": "p0", "preset": "goat" if i % 2 else "pagat",
                                                        "players": k, "seats": ["open"] * (k - 1)})
                r.raise_for_status()
                made = r.json()
                out = [Seat(made["room"], 0, made["token"], random.Random(rng.random()), leader=True)]
                for j in range(1, k):
                    for _ in range(50):  # through a proxy: another worker may not see the new room yet
                        r = await http.post(f"/api/rooms/{made['room']}/join", json={"name": f"p{j}"})
                        if r.status_code not in (404, 503):
                            break
                        joins_retried[0] += 1
                        await asyncio.sleep(0.1)
                    r.raise_for_status()
                    joined = r.json()
                    out.append(Seat(made["room"], joined["player"], joined["token"],
                                    random.Random(rng.random())))
                return out
        for group in await asyncio.gather(*(table(k, i) for i, k in enumerate(sizes))):
            seats += group
    return seats


async def run(args: argparse.Namespace, base: str, ws_url: str) -> dict[str, Any]:
    rng = random.Random(args.seed)
    seats = await make_tables(base, args.connections, rng, args.seats)
    for s in seats:
        s.think = args.think
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in seats]
    tasks = []
    for s, ready in zip(seats, readies, strict=True):
        tasks.append(asyncio.create_task(play(ws_url, s, stop, ready)))
        await asyncio.sleep(0.001)  # do not open a thousand connections in the same instant
    await asyncio.gather(*(r.wait() for r in readies))
    kill: dict[str, Any] = {}

    async def killer() -> None:
        await asyncio.sleep(args.warmup + args.kill_one_at)
        by_worker: dict[str, int] = {}
        for seat in seats:
            if seat.worker:
                by_worker[seat.worker] = by_worker.get(seat.worker, 0) + 1
        name = max(sorted(by_worker), key=lambda w: by_worker[w])
        kill.update(worker=name, at=time.perf_counter(),
                    rooms={seat.room for seat in seats if seat.worker == name})
        os.kill(args.cluster.workers[name].pid, signal.SIGKILL)

    killing = (asyncio.create_task(killer())
               if args.kill_one_at is not None and getattr(args, "cluster", None) is not None else None)
    await asyncio.sleep(args.warmup)
    t0 = time.perf_counter()
    cpu0 = server_cpu(args.server_pid), resource.getrusage(resource.RUSAGE_SELF)
    wait0 = server_waited(args.server_pid)
    await asyncio.sleep(args.duration)
    t1 = time.perf_counter()
    cpu1 = server_cpu(args.server_pid), resource.getrusage(resource.RUSAGE_SELF)
    wait1 = server_waited(args.server_pid)
    stop.set()
    done, pending = await asyncio.wait(tasks, timeout=30)
    failures = [t.exception() for t in done if t.exception() is not None]
    for t in pending:
        t.cancel()
    if killing is not None:
        killing.cancel()
    takeover: dict[str, Any] = {}
    if kill:
        firsts = []
        for room in kill["rooms"]:
            after = [when for seat in seats if seat.room == room
                     for when in seat.acked.values() if when > kill["at"]]
            firsts.append(min(after) - kill["at"] if after else None)
        moved = sorted(f for f in firsts if f is not None)
        takeover = {"worker_killed": kill["worker"], "tables_on_it": len(kill["rooms"]),
                    "tables_moving_again": len(moved),
                    "seconds_kill_to_first_move_p50": round(statistics.median(moved), 2) if moved else None,
                    "seconds_kill_to_first_move_max": round(moved[-1], 2) if moved else None,
                    "connections_lost": sum(1 for seat in seats if seat.closes),
                    "clients_needing_a_reload": sum(1 for seat in seats if seat.refused)}
    lat = sorted(d for s in seats for when, d in s.latencies if t0 <= when <= t1)
    moves = len(lat)
    q = statistics.quantiles(lat, n=100) if len(lat) >= 100 else [float("nan")] * 99
    return {
        "connections": len(seats),
        "tables": len({s.room for s in seats}),
        "seconds": round(t1 - t0, 2),
        "moves": moves,
        "moves_per_second": round(moves / (t1 - t0), 1),
        "latency_ms": {"p50": round(q[49] * 1000, 2), "p90": round(q[89] * 1000, 2),
                       "p99": round(q[98] * 1000, 2), "max": round(max(lat) * 1000, 2) if lat else None},
        "error_messages": sum(len(s.errors) for s in seats),
        "first_errors": [e for s in seats for e in s.errors][:5],
        "client_failures": [repr(f) for f in failures[:5]],
        "deals_finished": sum(max(s.game - 1, 0) for s in seats if s.leader),
        "server_cpu_seconds": round(cpu1[0] - cpu0[0], 2) if args.server_pid else None,
        "server_cpu_ms_per_move": (round((cpu1[0] - cpu0[0]) / moves * 1000, 3)
                                   if args.server_pid and moves else None),
        "server_waited_for_cpu_seconds": round(wait1 - wait0, 2) if args.server_pid else None,
        "load_average": os.getloadavg()[0],
        "client_cpu_seconds": round(cpu1[1].ru_utime + cpu1[1].ru_stime
                                    - cpu0[1].ru_utime - cpu0[1].ru_stime, 2),
        "failover": takeover or None,
        "_seats": seats,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--connections", type=int, default=1000,
                   help="websocket connections (seats); default 1000")
    p.add_argument("--duration", type=float, default=60, help="measured seconds; default 60")
    p.add_argument("--seats", type=int, default=0, choices=(0, 3, 4),
                   help="seats per table: 4 gives 250 four-seat tables for 1,000 connections; "
                        "default 0, 3- and 4-seat tables in turn")
    p.add_argument("--warmup", type=float, default=5, help="seconds of play before measuring; default 5")
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a player pauses before each move (uniform over 0.5-1.5 x this); "
                        "default 0: answer at once, which saturates the server and measures its ceiling")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8000 (default: start one)")
    p.add_argument("--db", help="with --url: the server's database URL, for the leak check")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    p.add_argument("--client-nice", type=int, default=0, metavar="N",
                   help="lower this process's priority by N once the server is up, so that the server "
                   "under test gets the CPU first when both share one machine; default 0")
    p.add_argument("--workers", metavar="N[,N...]",
                   help="through HAProxy: start haproxy and N workers (skitgubbe.server.cluster) on the "
                   "PostgreSQL database --db (a fresh schema per run), once per N given, e.g. 1,2")
    p.add_argument("--through-proxy", action="store_true",
                   help="with --url: it is a proxy in front of workers (the report names their workers)")
    p.add_argument("--kill-one-at", type=float, default=None, metavar="SECONDS",
                   help="with --workers N>1: SIGKILL the worker with the most connections this many "
                   "seconds into the measured run; report the tables taken over, how fast, acknowledged "
                   "moves lost and clients that needed a reload")
    args = p.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.workers:
        return through_proxy(args)
    tmp = None
    server = None
    if args.url:
        base, db = args.url.rstrip("/"), args.db
    else:
        tmp = tempfile.mkdtemp(prefix="skitgubbe-load-")
        db = f"sqlite:///{tmp}/load.db"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([sys.executable, "-m", "skitgubbe.play.cli", "serve", "--db", db,
                                   "--port", str(port),
                                   "--bot-workers", "1", "--bot-delay", "0",
                                   # every simulated client comes from 127.0.0.1: no per-client limits
                                   "--rooms-per-client", "0", "--connections-per-client", "0"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(300):
            try:
                if httpx.get(base + "/api/options", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
    args.server_pid = server.pid if server is not None else None
    if args.client_nice:
        os.nice(args.client_nice)
    ws_url = base.replace("http", "ws", 1) + "/ws"
    # The clients keep every message's card set for the leak check: hundreds of thousands of small
    # objects, whose cyclic garbage collections would stall this process's event loop and show up
    # as server latency.  Nothing here makes reference cycles worth collecting during the run.
    gc.disable()
    try:
        result = asyncio.run(run(args, base, ws_url))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    seats = result.pop("_seats")
    if db:
        checked, leaks = check_leaks(db, seats)
        result["messages_checked"] = checked
        result["leaked_cards"] = leaks
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    result["command"] = " ".join(["python"] + [os.path.relpath(sys.argv[0])] + sys.argv[1:])
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    ok = (result["error_messages"] == 0 and not result["client_failures"]
          and result.get("leaked_cards", 0) == 0)
    return 0 if ok else 1


def lost_acks(db: str, seats: list[Seat]) -> int:
    """Moves a client saw acknowledged that the database's log does not have (must be 0)."""
    store = Store(db)
    try:
        stored = {(r.code, int(p["n"])) for r in store.load_rooms() for kind, p in r.log
                  if kind == "act" and p.get("n")}
    finally:
        store.close()
    return sum(1 for seat in seats for n in seat.acked if (seat.room, n) not in stored)


def schema_url(url: str, schema: str) -> str:
    """``url`` with its own, emptied schema first on the search path (PostgreSQL)."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        conn.execute(sqlalchemy.text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return url + ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"


def through_proxy(args: argparse.Namespace) -> int:
    """``--workers``: a run through HAProxy per worker count, the figures side by side."""
    from skitgubbe.server.cluster import ProxyLimits, start_cluster

    if not args.db or not args.db.startswith("postgresql"):
        print("error: --workers needs --db, a PostgreSQL URL the workers share", file=sys.stderr)
        return 2
    results: dict[str, Any] = {}
    ok = True
    kill_at = args.kill_one_at
    for n in [int(x) for x in args.workers.split(",")]:
        db = schema_url(args.db, f"load_w{n}")
        port = free_port()
        cluster = start_cluster(db, workers=n, port=port, served_by=True, output=subprocess.DEVNULL,
                                limits=ProxyLimits(connections=0, rooms=0),
                                worker_options=["--bot-workers", "1", "--bot-delay", "0",
                                                "--rooms-per-client", "0", "--connections-per-client", "0"])
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if all(httpx.get(f"http://127.0.0.1:{q}/healthz", timeout=1).status_code == 200
                       for q in cluster.ports.values()) and httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        time.sleep(1.5)  # the proxy's checks bring every worker in
        args.cluster, args.server_pid = cluster, None
        args.kill_one_at = kill_at if n > 1 else None
        gc.disable()
        try:
            result = asyncio.run(run(args, base, base.replace("http", "ws", 1) + "/ws"))
        finally:
            cluster.stop()
            gc.enable()
        seats = result.pop("_seats")
        result["workers"] = n
        result["acknowledged_moves_lost"] = lost_acks(db, seats)
        result["messages_checked"], result["leaked_cards"] = check_leaks(db, seats)
        for key in ("server_cpu_seconds", "server_cpu_ms_per_move", "server_waited_for_cpu_seconds"):
            result.pop(key, None)
        result["joins_retried"] = joins_retried[0]
        joins_retried[0] = 0
        results[f"{n}_workers"] = result
        print(json.dumps({f"{n}_workers": result}), file=sys.stderr, flush=True)
        ok = ok and result["leaked_cards"] == 0 and result["acknowledged_moves_lost"] == 0 and (
            not result["failover"] or result["failover"]["clients_needing_a_reload"] == 0)
    results["command"] = " ".join(["python"] + [os.path.relpath(sys.argv[0])] + sys.argv[1:])
    text = json.dumps(results, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
