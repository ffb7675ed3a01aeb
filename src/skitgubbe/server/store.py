"""Storage: rooms and their append-only log in any SQLAlchemy database, and finished deals.

Three tables: ``rooms`` (code, creation time in seconds since the epoch, the room's spec as
JSON), ``room_log`` (room code, entry number from 0, kind, payload as JSON) and ``deals`` (a
finished deal's id, when it was stored, its record and names as JSON: kept for the replay link
after its room has expired).  A room is rebuilt by replaying its log (:meth:`Store.load_rooms`),
so the log holds everything that changes a room: joins, the start of each deal with its deck,
every action (the chance dreck order included), leaves, reclaims and chat.  A room that has
expired (:meth:`skitgubbe.server.hub.Hub.expire_rooms`) is deleted from both room tables (its
finished deals stay).

:class:`LogWriter` runs the writes on one background thread, several rows per
transaction ("group commit"); :meth:`LogWriter.write` returns only once the
transaction holding its rows has committed, so the caller acknowledges nothing
that is not stored.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
)
from sqlalchemy.engine import Engine

__all__ = ["Store", "StoredRoom", "LogWriter", "DEFAULT_DB_URL"]

DEFAULT_DB_URL = "sqlite:///skitgubbe-server.db"
"""The database ``skitgubbe serve`` uses without ``--db``: a SQLite file in the working directory."""

_meta = MetaData()
rooms_table = Table(
    "rooms",
    _meta,
    Column("code", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("spec", Text, nullable=False),
)
log_table = Table(
    "room_log",
    _meta,
    Column("room", String(16), primary_key=True),
    Column("n", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("payload", Text, nullable=False),
)
deals_table = Table(
    "deals",
    _meta,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("data", Text, nullable=False),
)


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: ``code``, ``spec`` (the creation settings) and ``log``, the
    ``(kind, payload)`` entries in order."""

    code: str
    spec: dict[str, Any]
    log: list[tuple[str, dict[str, Any]]]


class Store:
    """A database holding rooms and their logs; creates its tables if missing.

    ``url`` is any SQLAlchemy URL (``sqlite:///path.db``, ``postgresql+psycopg://user@host/db``).
    SQLite files run in WAL mode.  Raises ``sqlalchemy.exc.ArgumentError`` for a URL that is
    not one and ``sqlalchemy.exc.OperationalError`` when the database cannot be reached.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        _meta.create_all(self.engine)

    def write(self, rows: list[tuple[str, str, int, str, dict[str, Any]]]) -> None:
        """Store ``rows`` in one transaction.  Each row is ``(table, room, n, kind, payload)``:
        ``table`` is ``"room"`` (``payload`` the spec; ``n`` and ``kind`` unused), ``"log"``, or
        ``"delete"`` (the room and its whole log are deleted, after the other rows; only ``room``
        is used), or ``"deal"`` (a finished deal kept for its replay link: ``room`` is the deal's id,
        ``payload`` its data; a deal already stored is left as it is).  Raises what the database
        raises (``sqlalchemy.exc.SQLAlchemyError``); then nothing of the transaction is stored."""
        with self.engine.begin() as conn:
            rooms = [{"code": r, "created": time.time(), "spec": json.dumps(p)} for t, r, _, _, p in rows
                     if t == "room"]
            logs = [{"room": r, "n": n, "kind": k, "payload": json.dumps(p)} for t, r, n, k, p in rows
                    if t == "log"]
            if rooms:
                conn.execute(insert(rooms_table), rooms)
            if logs:
                conn.execute(insert(log_table), logs)
            deals = {r: p for t, r, _, _, p in rows if t == "deal"}
            if deals:
                known = select(deals_table.c.id).where(deals_table.c.id.in_(deals))
                have = {i for (i,) in conn.execute(known)}
                new = [{"id": i, "created": time.time(), "data": json.dumps(p)} for i, p in deals.items()
                       if i not in have]
                if new:
                    conn.execute(insert(deals_table), new)
            gone = [r for t, r, _, _, _ in rows if t == "delete"]
            if gone:
                conn.execute(delete(log_table).where(log_table.c.room.in_(gone)))
                conn.execute(delete(rooms_table).where(rooms_table.c.code.in_(gone)))

    def load_rooms(self) -> list[StoredRoom]:
        """Every stored room with its log in order, oldest room first."""
        with self.engine.connect() as conn:
            specs = conn.execute(select(rooms_table.c.code, rooms_table.c.spec)
                                 .order_by(rooms_table.c.created))
            rooms = {code: StoredRoom(code, json.loads(spec), []) for code, spec in specs}
            entries = conn.execute(select(log_table.c.room, log_table.c.kind, log_table.c.payload)
                                   .order_by(log_table.c.room, log_table.c.n))
            for room, kind, payload in entries:
                if room in rooms:
                    rooms[room].log.append((kind, json.loads(payload)))
        return list(rooms.values())

    def load_deal(self, deal: str) -> dict[str, Any] | None:
        """The data stored for finished deal ``deal`` (its id), or None if there is none."""
        with self.engine.connect() as conn:
            row = conn.execute(select(deals_table.c.data).where(deals_table.c.id == deal)).first()
        return None if row is None else dict(json.loads(row[0]))

    def room_codes(self) -> set[str]:
        """The codes of every stored room."""
        with self.engine.connect() as conn:
            return {c for (c,) in conn.execute(select(rooms_table.c.code))}

    def drop_tables(self) -> None:
        """Delete both tables and everything in them, then create them empty (tests, tooling)."""
        _meta.drop_all(self.engine)
        _meta.create_all(self.engine)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")  # a commit survives the process being killed
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


_Row = tuple[str, str, int, str, dict[str, Any]]


_Waiter = tuple[list[_Row], "asyncio.Future[None]"]
_Batch = tuple[list[_Waiter], asyncio.AbstractEventLoop]


class LogWriter:
    """Writes rows to a :class:`Store` on one thread, grouping the rows of many callers
    into one transaction (at most ``batch`` rows).

    :meth:`write` is awaited from the event loop; it raises what the database raised if
    the transaction failed (then none of its rows is stored).  The writes asked for during
    one turn of the event loop are handed to the thread together, and their callers are
    woken together, so that the thread and the loop change hands once per group.
    """

    def __init__(self, store: Store, *, batch: int = 500) -> None:
        self.store = store
        self.batch = batch
        self._queue: queue.SimpleQueue[_Batch | None] = queue.SimpleQueue()
        self._pending: list[_Waiter] = []
        self._thread = threading.Thread(target=self._run, name="skitgubbe-log-writer", daemon=True)
        self._thread.start()

    async def write(self, rows: list[_Row]) -> None:
        """Store ``rows`` (see :meth:`Store.write`) and return once they are committed."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._hand_over, loop)
        self._pending.append((rows, fut))
        await fut

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        waiters, self._pending = self._pending, []
        self._queue.put((waiters, loop))

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batches = [item]
            n = sum(len(rows) for rows, _ in item[0])
            while n < self.batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._queue.put(None)
                    break
                batches.append(more)
                n += sum(len(rows) for rows, _ in more[0])
            rows = [r for waiters, _ in batches for rs, _ in waiters for r in rs]
            error: BaseException | None = None
            try:
                self.store.write(rows)
            except Exception as e:  # reported to every caller of the batch
                error = e
            for waiters, loop in batches:
                loop.call_soon_threadsafe(_settle_all, [f for _, f in waiters], error)

    def close(self) -> None:
        """Finish the queued writes and stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=10)


def _settle_all(futs: list[asyncio.Future[None]], error: BaseException | None) -> None:
    for fut in futs:
        _settle(fut, error)


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)
