"""Storage on SQLite and PostgreSQL: rooms and logs round-trip, a failed transaction stores none of its
rows and reports the failure to every caller in it."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy.exc import IntegrityError  # noqa: E402

from skitgubbe.server.store import LogWriter, Store  # noqa: E402


def test_rooms_and_logs_round_trip_in_order(db_url: str) -> None:
    store = Store(db_url)
    assert store.take_new("AAAAAA") and store.take_new("BBBBBB")  # a room's maker takes its lease
    store.write([("room", "AAAAAA", 0, "", {"players": 3}), ("log", "AAAAAA", 0, "join", {"slot": 0})])
    store.write([("room", "BBBBBB", 0, "", {"players": 4})])
    store.write([("log", "AAAAAA", 2, "chat", {"text": "ü ♥"}), ("log", "AAAAAA", 1, "start", {"game": 1})])
    rooms = {r.code: r for r in store.load_rooms()}
    assert set(rooms) == {"AAAAAA", "BBBBBB"} == store.room_codes()
    assert rooms["AAAAAA"].spec == {"players": 3}
    assert rooms["AAAAAA"].log == [("join", {"slot": 0}), ("start", {"game": 1}), ("chat", {"text": "ü ♥"})]
    assert rooms["BBBBBB"].log == []
    store.close()


def test_a_failed_group_commit_stores_nothing_and_tells_every_caller(db_url: str) -> None:
    store = Store(db_url)
    assert store.take_new("CCCCCC")
    store.write([("room", "CCCCCC", 0, "", {}), ("log", "CCCCCC", 0, "join", {})])

    async def go() -> list[BaseException | None]:
        writer = LogWriter(store)
        # entry 0 exists already: whichever transaction holds the duplicate fails as a whole
        results = await asyncio.gather(writer.write([("log", "CCCCCC", 1, "a", {})]),
                                       writer.write([("log", "CCCCCC", 0, "dup", {})]),
                                       return_exceptions=True)
        await asyncio.to_thread(writer.close)
        return [r if isinstance(r, BaseException) else None for r in results]

    results = asyncio.run(go())
    assert isinstance(results[1], IntegrityError)
    log = {r.code: r for r in store.load_rooms()}["CCCCCC"].log
    assert ("dup", {}) not in log and log[0] == ("join", {})
    # a failure is all or nothing: if the first write shared the failed transaction, it is absent too
    assert (results[0] is None) == (("a", {}) in log)
    store.close()
