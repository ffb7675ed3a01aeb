"""Storage: rooms and their append-only log in any SQLAlchemy database, and finished deals.

Four tables: ``rooms`` (code, creation time in seconds since the epoch, the room's spec as
JSON), ``room_log`` (room code, entry number from 0, kind, payload as JSON) and ``deals`` (a
finished deal's id, when it was stored, its record and names as JSON: kept for the replay link
after its room has expired).  A room is rebuilt by replaying its log (:meth:`Store.load_rooms`),
so the log holds everything that changes a room: joins, the start of each deal with its deck,
every action (the chance dreck order included), leaves, reclaims and chat.  A room that has
expired (:meth:`skitgubbe.server.hub.Hub.expire_rooms`) is deleted from both room tables (its
finished deals stay).  The fourth, ``server_lease``, has at most one row: the server that may
write (see below).

One server per database (docs/server.md, "Running more than one server"): only the holder of
the database's lease may write.  :meth:`Store.acquire` takes it (or raises :class:`LeaseHeld`
naming the server that has it), a thread renews it every ``renew_every`` seconds, and
:meth:`Store.release` (or :meth:`Store.close`) gives it back.  A lease not renewed for
``lease_expiry`` seconds, or held by a process of this machine that no longer exists (a
``kill -9``), may be taken over.  Every :meth:`Store.write` renews the lease in its own
transaction and stores nothing if this store no longer holds it (:class:`LeaseLost`), so a
server whose lease was taken over can never write a move or delete a room.  Reading needs no
lease.

:class:`LogWriter` runs the writes on one background thread, several rows per
transaction ("group commit"); :meth:`LogWriter.write` returns only once the
transaction holding its rows has committed, so the caller acknowledges nothing
that is not stored.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import secrets
import socket
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
    make_url,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

__all__ = ["Store", "StoredRoom", "LogWriter", "DEFAULT_DB_URL", "LEASE_EXPIRY", "LEASE_RENEW_EVERY",
           "LeaseError", "LeaseHeld", "LeaseLost", "LeaseHolder"]

log = logging.getLogger(__name__)

LEASE_EXPIRY = 30.0
"""Seconds after its last renewal that a server's lease of a database may be taken over by another
server (one on this machine may take over at once a lease whose holder process is gone)."""

LEASE_RENEW_EVERY = 5.0
"""Seconds between renewals of a held lease (a write renews it too, so an idle server only)."""

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
lease_table = Table(
    "server_lease",
    _meta,
    Column("id", Integer, primary_key=True, autoincrement=False),  # always 1: one row at most
    Column("holder", String(64), nullable=False),  # random, per Store.acquire
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("pidns", String(64), nullable=False),  # the process id namespace ("" if unknown)
    Column("started", Float, nullable=False),  # seconds since the epoch
    Column("renewed", Float, nullable=False),
)
_LEASE = 1


@dataclass(frozen=True)
class LeaseHolder:
    """The server holding a database's lease as stored: ``holder`` (its random id), ``host`` (its
    host name), ``pid``, ``pidns`` (its process id namespace, "" if unknown), ``started`` and
    ``renewed`` (seconds since the epoch)."""

    holder: str
    host: str
    pid: int
    pidns: str
    started: float
    renewed: float


class LeaseError(SQLAlchemyError):
    """The server lease of a database is not this store's: a storage failure (a
    ``sqlalchemy.exc.SQLAlchemyError``, so the hub refuses the change as it does any other)."""


class LeaseHeld(LeaseError):
    """:meth:`Store.acquire` found the lease held by another live server, ``holder``
    (:class:`LeaseHolder`); the message says which database, who, since when, and what to do."""

    def __init__(self, message: str, holder: LeaseHolder) -> None:
        super().__init__(message)
        self.holder = holder


class LeaseLost(LeaseError):
    """A write by a store that does not hold the lease (never took it, released it, or another
    server has taken it over): nothing of the transaction was stored."""


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
    SQLite files run in WAL mode.  Making a store takes no lease: reading needs none, writing
    (:meth:`write`) needs the one :meth:`acquire` takes (:meth:`skitgubbe.server.hub.Hub.load`
    takes it if the store does not hold it yet).  ``lease_expiry`` and ``renew_every`` (seconds,
    default :data:`LEASE_EXPIRY` and :data:`LEASE_RENEW_EVERY`) are how long this store's lease
    lasts without renewal and how often it is renewed; ``renew_every`` must be more than 0 and
    less than ``lease_expiry``, else ``ValueError``.  Raises ``sqlalchemy.exc.ArgumentError`` for a
    URL that is not one and ``sqlalchemy.exc.OperationalError`` when the database cannot be
    reached.
    """

    def __init__(self, url: str, *, lease_expiry: float = LEASE_EXPIRY,
                 renew_every: float = LEASE_RENEW_EVERY) -> None:
        if not 0 < renew_every < lease_expiry:
            raise ValueError(f"the lease must be renewed more often than it expires: renew_every must be "
                             f"more than 0 and less than lease_expiry, not {renew_every} and {lease_expiry}")
        self.url = url
        self.lease_expiry = lease_expiry
        self.renew_every = renew_every
        self.engine: Engine = create_engine(url, future=True)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        _meta.create_all(self.engine)
        self._holder: str | None = None  # this store's lease id while it holds (or believes it holds) it
        self._lost = False
        self._renewed_at = 0.0  # monotonic seconds of the last renewal that committed
        self._stop_renewing = threading.Event()
        self._renewer: threading.Thread | None = None

    # -- the lease --------------------------------------------------------------------------

    @property
    def shown_url(self) -> str:
        """The database URL without its password (for messages)."""
        return make_url(self.url).render_as_string(hide_password=True)

    @property
    def holds_lease(self) -> bool:
        """Whether this store took the lease and has neither released it nor seen it taken over
        (a write may still find it lost: the database decides, :class:`LeaseLost`)."""
        return self._holder is not None and not self._lost

    def lease_holder(self) -> LeaseHolder | None:
        """The lease as stored (:class:`LeaseHolder`), or None when no server holds it.  Raises what
        the database raises (``sqlalchemy.exc.SQLAlchemyError``) when it cannot be read."""
        with self.engine.connect() as conn:
            return _read_lease(conn)

    def ping(self) -> None:
        """Ask the database a trivial query (``SELECT 1``), as a health check
        (``GET /healthz``).  Blocking: call it from a thread.  Raises what the database raises
        (``sqlalchemy.exc.SQLAlchemyError``) when it cannot be reached."""
        with self.engine.connect() as conn:
            conn.execute(sql_text("SELECT 1"))

    def acquire(self) -> None:
        """Take the database's lease, so that this store may write, and start renewing it every
        :attr:`renew_every` seconds on a background thread.  The lease is taken if nobody holds it,
        if its holder has not renewed it for :attr:`lease_expiry` seconds, or if its holder was a
        process of this machine (same host name and process id namespace) that no longer exists.
        Holding it already is harmless.  Raises :class:`LeaseHeld` when another server holds it (the
        message names the database, the holder's host and pid, since when, and what to do), what the
        database raises (``sqlalchemy.exc.SQLAlchemyError``) when it cannot be reached."""
        if self.holds_lease:
            return
        me = secrets.token_hex(16)
        for _ in range(5):  # another server may take or renew it between our read and our write
            try:
                if self._take(me):
                    break
            except IntegrityError:  # another server inserted the row just now: look again
                continue
        else:
            raise LeaseError(f"could not take the server lease of {self.shown_url}: other servers kept "
                             "changing it; try again")
        self._holder, self._lost = me, False
        self._renewed_at = time.monotonic()
        self._stop_renewing = threading.Event()
        self._renewer = threading.Thread(target=self._renew_loop, args=(me, self._stop_renewing),
                                         name="skitgubbe-lease", daemon=True)
        self._renewer.start()

    def _take(self, me: str) -> bool:
        """One attempt at taking the lease for holder id ``me``: True if taken, False if it changed
        under us (look again); raises :class:`LeaseHeld`, ``IntegrityError`` (a race: look again)."""
        now = time.time()
        ours = {"holder": me, "host": socket.gethostname(), "pid": os.getpid(), "pidns": _pid_namespace(),
                "started": now, "renewed": now}
        with self.engine.begin() as conn:
            held = _read_lease(conn)
            if held is None:
                conn.execute(insert(lease_table), {"id": _LEASE, **ours})
                return True
            if not self._may_take_over(held, now):
                raise LeaseHeld(self._held_message(held, now), held)
            # compare and set: only if nobody renewed or took it since we read it
            taken = conn.execute(update(lease_table)
                                 .where(lease_table.c.id == _LEASE, lease_table.c.holder == held.holder,
                                        lease_table.c.renewed == held.renewed)
                                 .values(**ours))
            if taken.rowcount != 1:
                return False
        log.warning("took over the server lease of %s from host %s, pid %d (last renewed %.0f s ago)",
                    self.shown_url, held.host, held.pid, now - held.renewed)
        return True

    def _may_take_over(self, held: LeaseHolder, now: float) -> bool:
        if now - held.renewed >= self.lease_expiry:
            return True
        return (held.host == socket.gethostname() and held.pidns == _pid_namespace()
                and held.pid != os.getpid() and not _pid_alive(held.pid))

    def _held_message(self, held: LeaseHolder, now: float) -> str:
        since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(held.started))
        ago = max(0.0, now - held.renewed)
        return (f"the database {self.shown_url} is in use by another skitgubbe server (host {held.host}, "
                f"pid {held.pid}, since {since}, its lease renewed {ago:.0f} s ago). Only one server may use "
                "a database at a time: stop that server first, or give this one another database (--db). "
                "If that server is gone without stopping (killed on another machine), its lease expires "
                f"{self.lease_expiry:g} s after its last renewal: start again then.")

    def release(self) -> None:
        """Stop renewing the lease and give it back (if another server has not taken it over), so
        that the next server may start at once.  Releasing a lease not held is harmless.  Raises
        nothing: a database that cannot be reached is logged (the lease then expires)."""
        me = self._holder
        self._stop_renewing.set()
        if self._renewer is not None and self._renewer is not threading.current_thread():
            self._renewer.join(timeout=10)
        self._renewer = None
        self._holder = None
        if me is None:
            return
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(lease_table)
                             .where(lease_table.c.id == _LEASE, lease_table.c.holder == me))
        except SQLAlchemyError as e:
            log.warning("could not release the server lease of %s (it expires %g s after its last "
                        "renewal): %s", self.shown_url, self.lease_expiry, e)

    def _renew(self, conn: Connection, me: str) -> None:
        """Renew this store's lease inside ``conn``'s transaction; raises :class:`LeaseLost` if it
        is not this store's."""
        renewed = conn.execute(update(lease_table)
                               .where(lease_table.c.id == _LEASE, lease_table.c.holder == me)
                               .values(renewed=time.time()))
        if renewed.rowcount != 1:
            now_held = self._holder_text()
            if not self._lost:
                self._lost = True
                self._stop_renewing.set()
                log.error("this server has lost the lease of the database %s (held now: %s): it can no "
                          "longer store anything, so every change is refused; stop this server",
                          self.shown_url, now_held)
            raise LeaseLost(f"this server no longer holds the lease of the database {self.shown_url} "
                            f"(held now: {now_held}); nothing was stored")

    def _holder_text(self) -> str:
        try:
            held = self.lease_holder()
        except SQLAlchemyError:
            return "unknown"
        return "none" if held is None else f"host {held.host}, pid {held.pid}"

    def _renew_loop(self, me: str, stop: threading.Event) -> None:
        while not stop.wait(self.renew_every / 4):
            if time.monotonic() - self._renewed_at < self.renew_every:
                continue  # a write renewed it lately
            try:
                with self.engine.begin() as conn:
                    self._renew(conn, me)
                self._renewed_at = time.monotonic()
            except LeaseLost:
                return
            except SQLAlchemyError as e:
                log.warning("could not renew the server lease of %s (trying again; it expires %g s after "
                            "its last renewal): %s", self.shown_url, self.lease_expiry, e)

    # -- rooms --------------------------------------------------------------------------------

    def write(self, rows: list[tuple[str, str, int, str, dict[str, Any]]]) -> None:
        """Store ``rows`` in one transaction.  Each row is ``(table, room, n, kind, payload)``:
        ``table`` is ``"room"`` (``payload`` the spec; ``n`` and ``kind`` unused), ``"log"``, or
        ``"delete"`` (the room and its whole log are deleted, after the other rows; only ``room``
        is used), or ``"deal"`` (a finished deal kept for its replay link: ``room`` is the deal's id,
        ``payload`` its data; a deal already stored is left as it is).  The same transaction renews
        this store's lease.  Raises :class:`LeaseLost` when this store does not hold the database's
        lease (see :meth:`acquire`), what the database raises (``sqlalchemy.exc.SQLAlchemyError``);
        then nothing of the transaction is stored."""
        me = self._holder
        if me is None:
            raise LeaseLost(f"this store does not hold the lease of the database {self.shown_url} "
                            "(Store.acquire takes it); nothing was stored")
        with self.engine.begin() as conn:
            self._renew(conn, me)  # first: the rest of the transaction waits for the lease row
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
        self._renewed_at = time.monotonic()

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
        """Delete every table and everything in them, the lease included (a server holding it can no
        longer write), then create them empty (tests, tooling)."""
        _meta.drop_all(self.engine)
        _meta.create_all(self.engine)

    def close(self) -> None:
        """Release the lease if this store holds it (:meth:`release`), then the database
        connections."""
        self.release()
        self.engine.dispose()


def _read_lease(conn: Connection) -> LeaseHolder | None:
    c = lease_table.c
    row = conn.execute(select(c.holder, c.host, c.pid, c.pidns, c.started, c.renewed)
                       .where(c.id == _LEASE)).first()
    return None if row is None else LeaseHolder(*row)


def _pid_namespace() -> str:
    """This process's process id namespace (Linux: ``pid:[4026531836]``), "" where unknown: a pid
    means the same process only within one namespace (containers have their own)."""
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` of this machine may still be running (True when it cannot be told)."""
    if os.name != "posix" or pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists
        return True
    try:  # a killed process not yet reaped by its parent (a zombie) is gone too
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


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
