"""One server per database (issue 28): the database's lease.  A second server on the same database
refuses to start with a clear message, a server whose lease was taken over can no longer write (no
move, no deletion), an expired lease or one of a dead process on this machine is taken over, a
clean shutdown gives the lease back; on SQLite and PostgreSQL, in one process and as real
`skitgubbe serve` processes."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from hub_helpers import Clock, until
from server_helpers import Player, free_port, play_a_round, serve_process, wait_serving
from sqlalchemy import select, update

from skitgubbe.play import cli
from skitgubbe.server.botpool import BotPool
from skitgubbe.server.hub import Hub
from skitgubbe.server.rooms import RoomError
from skitgubbe.server.store import LEASE_EXPIRY, LeaseHeld, LeaseLost, Store, lease_table, log_table

_OTHER = "elsewhere.example"
_ROOM: dict[str, Any] = {"preset": "goat", "house_rules": None, "players": 3, "seats": ["open", "easy"]}


def _age(store: Store, seconds: float) -> None:
    """Make the stored lease look as if its holder had not renewed it for ``seconds`` more (a paused
    process, a clock jump)."""
    with store.engine.begin() as conn:
        conn.execute(update(lease_table).values(renewed=lease_table.c.renewed - seconds,
                                                started=lease_table.c.started - seconds))


def _plant(store: Store, *, host: str, pid: int, ago: float, pidns: str | None = None) -> None:
    """Store a lease of another server by hand: ``host``, ``pid``, last renewed ``ago`` seconds ago."""
    from skitgubbe.server.store import _pid_namespace

    now = time.time()
    with store.engine.begin() as conn:
        conn.execute(lease_table.delete())
        conn.execute(lease_table.insert(), {"id": 1, "holder": "f" * 32, "host": host, "pid": pid,
                                            "pidns": _pid_namespace() if pidns is None else pidns,
                                            "started": now - ago - 60, "renewed": now - ago})


def _hub(store: Store, clock: Clock | None = None) -> Hub:
    return Hub(store, BotPool(0), bot_delay=0.0, away_after=30.0, rng=random.Random(5),
               clock=clock or Clock())


async def _shut(hub: Hub) -> None:
    await hub.close()
    hub.pool.close()
    hub.store.close()


def test_a_second_hub_on_the_same_database_refuses_to_start(db_url: str) -> None:
    async def go() -> None:
        first = _hub(Store(db_url))
        second = _hub(Store(db_url))
        try:
            await both(first, second)
        finally:
            await _shut(second)
            await _shut(first)

    async def both(first: Hub, second: Hub) -> None:
        await first.load()
        made = await first.create_room("Ann", **_ROOM)
        with pytest.raises(LeaseHeld) as e:
            await second.load()
        text = str(e.value)
        for words in (f"the database {second.store.shown_url} is in use by another skitgubbe server",
                      f"host {socket.gethostname()}", f"pid {os.getpid()}", "since ", "UTC",
                      "stop that server first", "--db", f"expires {LEASE_EXPIRY:g} s"):
            assert words in text, words
        assert e.value.holder.pid == os.getpid() and second.rooms == {}
        assert not second.store.holds_lease
        # the first goes on: a join is stored, the deal starts, its lease is still its own
        room = first.rooms[made["room"]]
        entries = room.entries
        await first.join(made["room"], "Bo")
        await until(lambda: room.status == "playing")
        assert room.entries > entries and {r.code: r for r in first.store.load_rooms()}[room.code].log
        holder = first.store.lease_holder()
        assert holder is not None and holder.holder and first.store.holds_lease and first.errors == []

    asyncio.run(go())


def test_a_store_without_the_lease_writes_nothing(db_url: str) -> None:
    store = Store(db_url)
    with pytest.raises(LeaseLost, match="does not hold the lease .*Store.acquire takes it"):
        store.write([("room", "AAAAAA", 0, "", {})])
    store.acquire()
    store.acquire()  # twice is harmless
    store.write([("room", "AAAAAA", 0, "", {})])
    store.release()
    with pytest.raises(LeaseLost):
        store.write([("room", "BBBBBB", 0, "", {})])
    assert store.room_codes() == {"AAAAAA"} and store.lease_holder() is None
    store.close()
    with pytest.raises(ValueError, match="renew_every must be more than 0 and less than lease_expiry"):
        Store(db_url, renew_every=30.0, lease_expiry=30.0)


def test_a_write_after_the_lease_was_taken_over_is_refused_and_stores_nothing(db_url: str) -> None:
    """A paused server (its lease expired, then taken over) wakes up: no move, no deletion, no new
    room of its gets stored, and the new holder is untouched."""
    async def go() -> None:
        clock = Clock()
        old = _hub(Store(db_url, renew_every=3600.0, lease_expiry=7200.0), clock)  # never renews by itself
        new = Store(db_url)
        try:
            await stale(old, new, clock)
        finally:
            await _shut(old)
            new.close()

    async def stale(old: Hub, new: Store, clock: Clock) -> None:
        await old.load()
        made = await old.create_room("Ann", **_ROOM)
        code = made["room"]
        room = old.rooms[code]
        entries = room.entries
        _age(old.store, LEASE_EXPIRY + 1)
        new.acquire()
        stored = new.load_rooms()
        with pytest.raises(LeaseLost, match="no longer holds the lease"):
            await old.writer.write([("log", code, entries, "chat", {"text": "lost"})])
        with pytest.raises(RoomError) as e:
            await old.join(code, "Bo")
        assert e.value.code == "server" and room.entries == entries
        with pytest.raises(RoomError) as e:
            await old.create_room("Cy", preset="goat", house_rules=None, players=3, seats=["easy", "easy"])
        assert e.value.code == "server"
        clock.t += 10 * 3600  # the stale server's expiry sweep deletes nothing
        assert await old.expire_rooms() == [code]
        assert any("could not be deleted" in err for err in old.errors)
        assert new.load_rooms() == stored and new.room_codes() == {code}
        holder = new.lease_holder()
        assert holder is not None and new.holds_lease and not old.store.holds_lease
        await _shut(old)  # its release leaves the new holder's lease alone
        assert new.lease_holder() == holder
        new.write([("log", code, entries, "chat", {"text": "the new server writes"})])
        with new.engine.connect() as conn:
            assert conn.execute(select(log_table.c.n).where(log_table.c.room == code)).all()[-1] == (entries,)

    asyncio.run(go())


def test_an_expired_lease_can_be_taken_over_and_a_live_one_cannot(db_url: str) -> None:
    store = Store(db_url)
    _plant(store, host=_OTHER, pid=4242, ago=LEASE_EXPIRY - 10)  # another machine, renewed lately
    with pytest.raises(LeaseHeld) as e:
        store.acquire()
    assert f"host {_OTHER}, pid 4242" in str(e.value) and "renewed 20 s ago" in str(e.value)
    assert e.value.holder.host == _OTHER and not store.holds_lease
    _plant(store, host=_OTHER, pid=4242, ago=LEASE_EXPIRY + 1)  # killed there: not renewed since
    store.acquire()
    holder = store.lease_holder()
    assert holder is not None and (holder.host, holder.pid) == (socket.gethostname(), os.getpid())
    store.write([("room", "AAAAAA", 0, "", {})])
    store.close()


def test_a_lease_of_a_dead_process_on_this_machine_is_taken_over_at_once(db_url: str) -> None:
    store = Store(db_url)
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        _plant(store, host=socket.gethostname(), pid=alive.pid, ago=0)
        with pytest.raises(LeaseHeld):
            store.acquire()
        alive.kill()
        time.sleep(0.2)  # killed, not yet reaped by its parent (a zombie): gone all the same
        _plant(store, host=socket.gethostname(), pid=alive.pid, ago=0, pidns="pid:[1]")  # another container's
        with pytest.raises(LeaseHeld):
            store.acquire()
        _plant(store, host=socket.gethostname(), pid=alive.pid, ago=0)
        store.acquire()
        assert store.holds_lease
        store.release()
    finally:
        alive.kill()
        alive.wait()
    _plant(store, host=socket.gethostname(), pid=alive.pid, ago=0)  # reaped
    store.acquire()
    store.close()


def test_a_clean_shutdown_releases_the_lease_so_a_restart_is_immediate(db_url: str) -> None:
    async def go() -> None:
        first = _hub(Store(db_url))
        await first.load()
        made = await first.create_room("Ann", **_ROOM)
        assert first.store.lease_holder() is not None
        await _shut(first)
        again = Store(db_url)
        assert again.lease_holder() is None
        second = _hub(again)
        assert await second.load() == 1 and made["room"] in second.rooms
        await _shut(second)

    asyncio.run(go())


def test_serve_refuses_a_held_database_with_a_message(db_url: str, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # were it to start, it would return at once
    holder = Store(db_url)
    holder.acquire()
    try:
        assert cli.main(["serve", "--db", db_url, "--port", str(free_port()), "--bot-workers", "0"]) == 1
    finally:
        holder.close()
    out = capsys.readouterr().out
    assert "error: not started: the database" in out and f"pid {os.getpid()}" in out, out
    assert cli.main(["serve", "--db", "nonsense://", "--bot-workers", "0"]) == 1
    assert "error: not started: could not open the database nonsense://" in capsys.readouterr().out


def test_a_second_serve_refuses_and_the_first_keeps_every_acknowledged_move(db_url: str) -> None:
    port = free_port()
    base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    first = wait_serving(serve_process(db_url, port), port)
    procs = [first]
    try:
        made = httpx.post(base + "/api/rooms", json={"name": "Ann", "preset": "goat", "players": 3,
                                                    "seats": ["open", "easy"]}).json()
        joined = httpx.post(f"{base}/api/rooms/{made['room']}/join", json={"name": "Bo"}).json()
        seen: dict[str, Any] = {"seq": 0, "acked": {}}

        async def play() -> bytes:
            ps = [Player(ws, made["room"], 0, made["token"], rng=random.Random(1)),
                  Player(ws, made["room"], 1, joined["token"], rng=random.Random(2))]
            for p in ps:
                await p.connect()
            second = serve_process(db_url, free_port())  # started while the first is being played
            procs.append(second)
            deadline = time.monotonic() + 60
            while second.poll() is None or ps[0].last is None or ps[0].last["table"]["public"]["seq"] < 20:
                assert time.monotonic() < deadline, "the second server neither started nor refused"
                if ps[0].last is not None and ps[0].last["table"]["status"] == "over":
                    await asyncio.sleep(0.05)
                    continue
                await play_a_round(ps)
            await asyncio.sleep(0.2)
            for p in ps:
                await p.drain()
                assert p.last is not None
                seen["acked"][p.player] = [m for m in p.received if '"ack":' in m]
                seen["seq"] = max(seen["seq"], p.last["table"]["public"]["seq"])
                await p.close()
            return second.communicate(timeout=30)[0]

        said = asyncio.run(play()).decode()
        assert procs[1].returncode == 1, said
        assert "is in use by another skitgubbe server" in said and f"pid {first.pid}" in said, said
        assert "Traceback" not in said, said
        assert seen["seq"] >= 20 and all(seen["acked"].values())

        first.send_signal(signal.SIGINT)  # a clean shutdown gives the lease back
        first.wait(timeout=30)
        with_store = Store(db_url)
        assert with_store.lease_holder() is None
        with_store.close()

        third = wait_serving(serve_process(db_url, port), port)
        procs.append(third)

        async def after() -> dict[str, Any]:
            p = Player(ws, made["room"], 0, made["token"])
            sync = await p.connect()
            await p.close()
            return sync

        sync = asyncio.run(after())
        assert sync["table"]["public"]["seq"] >= seen["seq"]  # every move anyone was shown is still there
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def test_a_server_killed_mid_deal_is_followed_at_once(tmp_path: Path) -> None:
    """kill -9: no release, but the pid is gone, so the next server on this machine starts at once."""
    db = f"sqlite:///{tmp_path}/kill.db"
    port = free_port()
    proc = wait_serving(serve_process(db, port), port)
    proc.kill()
    proc.wait()
    store = Store(db)
    held = store.lease_holder()
    assert held is not None and held.pid == proc.pid and time.time() - held.renewed < LEASE_EXPIRY
    store.close()
    proc = wait_serving(serve_process(db, port), port)  # not refused (that would end it at once)
    proc.kill()
    proc.wait()
