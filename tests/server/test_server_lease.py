"""Several workers on one database (issue 31): a lease per room.  Workers share the database, each
room is driven by one of them at a time: a client on another worker gets the room handed over (the
old worker's connections closed 4001 "moved"), a dead worker's live tables are swept up within
seconds, a write by a worker that lost a room's lease stores nothing, the limit of rooms per client
holds across workers, and two real ``skitgubbe serve`` processes share one database.  On SQLite and
on PostgreSQL (each test in a schema of its own, so that tests running at once do not collide)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from hub_helpers import until
from server_helpers import Player, free_port, serve_process, wait_serving
from sqlalchemy import create_engine, select, text, update

from skitgubbe.server.botpool import BotPool
from skitgubbe.server.hub import MOVED, Client, Hub, Limits, TooManyRooms
from skitgubbe.server.rooms import RoomError
from skitgubbe.server.store import LeaseHeld, LeaseLost, LogWriter, Store, lease_table, log_table

_BOTS: dict[str, Any] = {"preset": "goat", "house_rules": None, "players": 3, "seats": ["easy", "easy"]}
_OPEN: dict[str, Any] = {"preset": "goat", "house_rules": None, "players": 3, "seats": ["open", "easy"]}
_FAST = {"renew_every": 0.2, "lease_expiry": 2.5}  # expiry well above renewal: a loaded machine renews late


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database for this test alone: an SQLite file, or a fresh schema of the PostgreSQL database
    of $SKITGUBBE_TEST_PG (dropped after)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/shared.db"
        return
    base = os.environ.get("SKITGUBBE_TEST_PG")
    if not base:
        pytest.skip("SKITGUBBE_TEST_PG is not set (CI sets it)")
    schema = "lease_" + secrets.token_hex(6)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def _hub(db: str, worker: str, *, limits: Limits | None = None, away_after: float = 30.0) -> Hub:
    lim = limits or Limits(lease_sweep_every=0.3, handover_wait=5.0)
    return Hub(Store(db, worker=worker, **_FAST), BotPool(0), bot_delay=0.0, away_after=away_after,
               rng=random.Random(worker), limits=lim)


async def _shut(*hubs: Hub) -> None:
    for hub in hubs:
        await hub.close()
        hub.pool.close()
        hub.store.close()


def _log(store: Store, code: str) -> list[int]:
    with store.engine.connect() as conn:
        return [n for (n,) in conn.execute(select(log_table.c.n).where(log_table.c.room == code)
                                           .order_by(log_table.c.n))]


def _age(store: Store, code: str) -> None:
    """Make room ``code``'s lease look expired (its worker paused, or gone without a word)."""
    with store.engine.begin() as conn:
        conn.execute(update(lease_table).where(lease_table.c.code == code).values(expires_at=time.time() - 1))


async def _hello(hub: Hub, code: str, player: int | None = None, token: str | None = None) -> Client:
    c = Client()
    msg: dict[str, Any] = {"type": "hello", "room": code}
    msg.update({"player": player, "token": token} if token else {"spectate": True})
    await hub.receive(c, json.dumps(msg))
    return c


def _seq(hub: Hub, code: str) -> int:
    room = hub.rooms.get(code)
    return -1 if room is None else room.entries


def test_a_second_worker_shares_the_database_and_each_room_is_driven_by_one(shared_db: str) -> None:
    async def go() -> None:
        a, b = _hub(shared_db, "a"), _hub(shared_db, "b")
        try:
            await a.load()
            made = await a.create_room("Ann", **_OPEN)
            assert await b.load() == 0  # started while a drives the room: b takes none of a's rooms
            code = made["room"]
            assert a.store.lease_of(code).worker == "a"  # type: ignore[union-attr]
            with pytest.raises(LeaseHeld):
                await asyncio.to_thread(b.store.take, code)
            other = await b.create_room("Bo", **_OPEN)  # b makes and drives its own
            assert other["room"] in b.rooms and other["room"] not in a.rooms
        finally:
            await _shut(a, b)

    asyncio.run(go())


def test_a_client_on_another_worker_gets_the_room_handed_over_and_the_deal_goes_on(shared_db: str) -> None:
    """(a) The hand-over: a's clients are closed 4001 "moved", b loads the room and drives it on, and
    every stored entry is in the log once, in order, with nothing lost."""
    async def go() -> None:
        a = _hub(shared_db, "a", away_after=0.0)  # nobody connected: the fill bot plays Ann's seat too
        b = _hub(shared_db, "b", away_after=0.0)
        try:
            await a.load()
            await b.load()
            code = (await a.create_room("Ann", **_BOTS))["room"]
            watcher = await _hello(a, code)
            await until(lambda: _seq(a, code) > 10)
            seen = await _hello(b, code)  # b asks a for the room, a hands it over at its next renewal
            assert code in b.rooms and code not in a.rooms
            assert watcher.dropped and watcher.close_code == MOVED and watcher.close_reason == "moved"
            first = [json.loads(m) for m in _texts(seen)]
            assert first[0]["type"] == "sync", first
            at = _seq(b, code)
            await until(lambda: _seq(b, code) > at + 10 or b.rooms[code].status == "over")
            assert b.metrics.leases_taken.labels("handover")._value.get() == 1
            assert a.metrics.handovers.labels("wanted")._value.get() == 1
            async with b.live[code].lock:  # (no change half made meanwhile)
                stored = await asyncio.to_thread(_log, b.store, code)
                assert stored == list(range(b.rooms[code].entries))  # once each, none missing
        finally:
            await _shut(a, b)

    asyncio.run(go())


def _texts(c: Client) -> list[str]:
    out = []
    while not c.outbox.empty():
        t = c.take_nowait()
        if t is not None:
            out.append(t)
    return out


def test_a_dead_workers_live_bot_table_is_swept_up_and_keeps_moving(shared_db: str) -> None:
    """(b) a stops renewing without giving anything back (its tasks cancelled, as if it hung or died
    on another machine): b's sweeper takes its bot table once the lease expires, and it moves on."""
    async def go() -> None:
        a = _hub(shared_db, "a", away_after=0.0)
        b = _hub(shared_db, "b", away_after=0.0)
        try:
            await a.load()
            await b.load()
            code = (await a.create_room("Ann", **_BOTS))["room"]
            await until(lambda: _seq(a, code) > 5)
            await _die(a)
            dead_at = time.monotonic()
            await until(lambda: code in b.rooms, limit=30)
            took = time.monotonic() - dead_at
            at = _seq(b, code)
            await until(lambda: _seq(b, code) > at + 5 or b.rooms[code].status == "over")
            assert b.metrics.leases_taken.labels("sweep")._value.get() >= 1
            print(f"swept up after {took:.1f} s (lease expiry 1 s, sweep every 0.3 s)")
        finally:
            await _shut(b)
            a.pool.close()
            a.store.engine.dispose()

    asyncio.run(go())


async def _die(hub: Hub) -> None:
    """Stop every task of ``hub`` without giving its leases back."""
    hub.closing = True  # noqa: SLF001 (a test's hand on the hub's life)
    tasks = [t for t in (hub.registry.renewer, hub.registry.sweeper, hub._sweeper) if t is not None]  # noqa: SLF001
    tasks += [live.driver for live in hub.live.values() if live.driver is not None]
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.to_thread(hub.writer.close)


def test_a_write_after_the_lease_was_taken_over_stores_nothing_and_the_room_is_dropped(
        shared_db: str) -> None:
    """(c) Fencing: a (paused past its expiry) writes after b took the room over: LeaseLost, nothing
    stored, and a drops the room (its clients closed 4001)."""
    async def go() -> None:
        a, b = _hub(shared_db, "a"), _hub(shared_db, "b")
        try:
            await a.load()
            await b.load()
            made = await a.create_room("Ann", **_OPEN)
            code = made["room"]
            ann = await _hello(a, code, 0, made["token"])
            before = await asyncio.to_thread(_log, a.store, code)
            _age(a.store, code)
            assert await asyncio.to_thread(b.store.take, code) == 2  # one more epoch
            writer = LogWriter(a.store)
            with pytest.raises(LeaseLost):
                await writer.write([("log", code, len(before), "chat", {"slot": 0, "text": "stale"})])
            await asyncio.to_thread(writer.close)
            with pytest.raises(RoomError) as e:
                await a.join(code, "Bo")
            assert e.value.code == "moved"
            assert code not in a.rooms and ann.close_code == MOVED
            assert await asyncio.to_thread(_log, a.store, code) == before  # nothing of a's was stored
            assert a.metrics.lease_losses._value.get() == 1
        finally:
            await _shut(a, b)

    asyncio.run(go())


def test_the_rooms_per_client_limit_is_counted_across_workers(shared_db: str) -> None:
    """(d) Two rooms a client in the window, wherever made: the third is refused on either worker."""
    async def go() -> None:
        limits = Limits(rooms_per_client=2, rooms_window=600, max_rooms=3)
        a, b = _hub(shared_db, "a", limits=limits), _hub(shared_db, "b", limits=limits)
        try:
            await a.load()
            await b.load()
            await a.create_room("Ann", client="10.0.0.1", **_OPEN)
            await b.create_room("Ann", client="10.0.0.1", **_OPEN)
            for hub in (a, b):
                with pytest.raises(TooManyRooms):
                    await hub.create_room("Ann", client="10.0.0.1", **_OPEN)
            await a.create_room("Bo", client="10.0.0.2", **_OPEN)  # another client: the third room
            with pytest.raises(RoomError) as e:  # the total counts every worker's rooms
                await b.create_room("Cy", client="10.0.0.3", **_OPEN)
            assert e.value.code == "server-full"
        finally:
            await _shut(a, b)

    asyncio.run(go())


def test_leases_of_dead_processes_and_expired_ones_are_taken_and_live_ones_are_not(shared_db: str) -> None:
    import socket

    from skitgubbe.server.store import _pid_namespace

    a, b = Store(shared_db, worker="a", **_FAST), Store(shared_db, worker="b", **_FAST)
    try:
        for code in ("LIVEAA", "DEADAA", "OLDAAA"):
            assert a.take_new(code)
            a.write([("room", code, 0, "", {})])
        with a.engine.begin() as conn:  # DEADAA: its holder was a process of this machine, now gone
            conn.execute(update(lease_table).where(lease_table.c.code == "DEADAA")
                         .values(worker="gone", host=socket.gethostname(), pidns=_pid_namespace(),
                                 pid=2**22 + 7))
        _age(a, "OLDAAA")
        with pytest.raises(LeaseHeld):
            b.take("LIVEAA")
        assert b.take("DEADAA") == 2 and b.take("OLDAAA") == 2
        assert b.take("NONEAA") is None  # no such room
        assert a.renew()[0] == {"DEADAA", "OLDAAA"}  # a learns it lost those it thought it held
        a.release_all()  # a clean stop: every lease given back, taken at once by the next worker
        assert b.claim_free() == {"LIVEAA": 2}
    finally:
        a.close()
        b.close()


def test_two_serve_processes_share_one_database_and_hand_tables_over(shared_db: str) -> None:
    """(e) Two real workers on one database both start and serve; a client of the second for a room
    of the first gets it handed over (the first's connection closed 4001) through ``/ws?room=``;
    kill -9 of the first, and its other table is taken up by the second."""
    ports = [free_port(), free_port()]
    opts = ("--renew-every", "0.3", "--lease-expiry", "2")
    procs = [wait_serving(serve_process(shared_db, port, "--worker", f"w{i}", *opts), port)
             for i, port in enumerate(ports)]
    try:
        base = [f"http://127.0.0.1:{p}" for p in ports]
        for b in base:
            assert httpx.get(b + "/healthz", timeout=10).status_code == 200
        made = httpx.post(base[0] + "/api/rooms", json={"name": "Ann", **_OPEN}, timeout=10).json()
        code = made["room"]
        left = httpx.post(base[0] + "/api/rooms", json={"name": "Cy", **_BOTS}, timeout=10).json()["room"]

        async def play() -> None:
            on_first = Player(f"ws://127.0.0.1:{ports[0]}/ws?room={code}", code, 0, made["token"])
            await on_first.connect()
            on_second = Player(f"ws://127.0.0.1:{ports[1]}/ws?room={code}", code, 0, made["token"])
            sync = await on_second.connect()  # the second asks, the first hands it over
            assert sync["type"] == "sync" and sync["table"]["room"] == code, sync
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await on_first.recv(timeout=10)
            assert on_first.ws.close_code == MOVED and on_first.ws.close_reason == "moved"
            info = httpx.get(f"{base[1]}/api/rooms/{code}", timeout=10).json()
            assert info["room"] == code
            await on_second.close()

        asyncio.run(play())
        procs[0].kill()  # no goodbye: its pid is gone, so the second takes its tables at its next sweep
        procs[0].wait()
        deadline = time.monotonic() + 30
        while True:
            r = httpx.get(f"{base[1]}/api/rooms/{left}", timeout=10)
            if r.status_code == 200:
                break
            assert time.monotonic() < deadline, r.text
            time.sleep(0.2)
        look = Store(shared_db)
        assert look.lease_of(left).worker == "w1"  # type: ignore[union-attr]
        look.close()
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def test_workers_starting_at_once_on_an_empty_database_all_start(shared_db: str) -> None:
    """Six stores (with the ladder's tables) opened at the same moment on an empty database: every one
    starts and finds the tables (on PostgreSQL they would race on ``CREATE TABLE`` without the
    store's advisory lock, and some would fail on the catalog's unique index)."""
    if shared_db.startswith("sqlite"):
        pytest.skip("several workers share a PostgreSQL database; an SQLite file serves one (docs/server.md)")
    import threading

    from skitgubbe.server.ladder import BotBook

    start = threading.Barrier(6)
    failures: list[str] = []
    stores: list[Store] = []

    def open_one(i: int) -> None:
        start.wait()
        try:
            store = Store(shared_db, worker=f"w{i}", **_FAST)
            BotBook(store.engine)
            stores.append(store)
        except Exception as e:  # noqa: BLE001 (the test reports every failure)
            failures.append(f"w{i}: {type(e).__name__}: {e}"[:300])

    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert failures == []
        assert len(stores) == 6
        with stores[0].engine.connect() as conn:
            assert conn.execute(select(lease_table.c.code)).all() == []  # the tables are there, empty
    finally:
        for store in stores:
            store.close()


def test_a_room_taken_while_this_worker_s_sweeper_opens_it_is_found(shared_db: str) -> None:
    """A client's request and this worker's own sweeper open the same free room at the same moment
    (a room handed over, or made on another worker and given back): the request gets the room
    whichever of the two rebuilds it first, never ``no-room`` (the 404 the load benchmark saw)."""
    async def go() -> None:
        a, b = _hub(shared_db, "a"), _hub(shared_db, "b")
        try:
            await a.load()
            await b.load()
            for _ in range(8):
                code = (await a.create_room("Ann", **_OPEN))["room"]
                await a.drop_room(code, "test")  # a gives the room back: its lease is free
                await asyncio.to_thread(a.store.release, code)
                await asyncio.to_thread(b.store.claim_free)  # b's sweeper takes the lease ...
                room, _ = await asyncio.gather(b.ensure_room(code), b.open_stored([code]))
                assert room is b.rooms[code]  # ... and the request finds the room either way
        finally:
            await _shut(a, b)

    asyncio.run(go())
