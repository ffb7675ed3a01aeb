"""Storage: rooms and their append-only log in any SQLAlchemy database, and finished deals.

Five tables: ``rooms`` (code, creation time in seconds since the epoch, the room's spec as
JSON), ``room_log`` (room code, entry number from 0, kind, payload as JSON) and ``deals`` (a
finished deal's id, when it was stored, its record and names as JSON: kept for the replay link
after its room has expired).  A room is rebuilt by replaying its log (:meth:`Store.load_rooms`),
so the log holds everything that changes a room: joins, the start of each deal with its deck,
every action (the chance dreck order included), leaves, reclaims and chat.  A room that has
expired (:meth:`skitgubbe.server.hub.Hub.expire_rooms`) is deleted from both room tables (its
finished deals stay).  ``room_lease`` holds one row per room: the worker driving it (see below).
``room_made`` records which client made which room when, so that the limit of rooms per client
holds across workers.

Several workers per database (docs/server.md, "Running more than one server"): each room has a
lease, and only its holder may write the room's log.  A lease row names its worker, an ``epoch``
(one more at every take-over), when it expires (``expires_at``, seconds since the epoch) and
``wanted_by``, a worker asking for it.  :meth:`Store.take` takes a room's lease (free, expired, or
held by a dead process of this machine), :meth:`Store.want` asks its holder for it,
:meth:`Store.renew` renews all of this worker's leases in one UPDATE and says which were lost and
which are wanted, :meth:`Store.release` gives one back, :meth:`Store.claim_free` takes every room
nobody drives (at start, and by the hub's sweeper).  Every :meth:`Store.write` is *fenced*: in the
same transaction it checks (and renews, locking the rows) the leases of the rooms it writes, at the
epoch this worker took them, and stores nothing of a room whose lease is not this worker's, so a
worker whose lease was taken over can never store a move.  Reading needs no lease.

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
import socket
import threading
import time
from collections.abc import Iterable
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
    func,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy import text as sql_text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

__all__ = ["Store", "StoredRoom", "LogWriter", "DEFAULT_DB_URL", "LEASE_EXPIRY", "LEASE_RENEW_EVERY",
           "create_tables", "SCHEMA_LOCK", "LeaseError", "LeaseHeld", "LeaseLost", "LeaseHolder"]

log = logging.getLogger(__name__)

LEASE_EXPIRY = 5.0
"""Seconds after its last renewal that a worker's lease of a room may be taken over by another worker
(one on this machine may take over at once a lease whose holder process is gone)."""

LEASE_RENEW_EVERY = 1.0
"""Seconds between two renewals of a worker's leases (one UPDATE renews them all)."""

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
    "room_lease",
    _meta,
    Column("code", String(16), primary_key=True),
    Column("worker", String(255), nullable=False),  # "" when free (given back)
    Column("host", String(255), nullable=False),
    Column("pid", Integer, nullable=False),
    Column("pidns", String(64), nullable=False),  # the process id namespace ("" if unknown)
    Column("epoch", Integer, nullable=False),  # one more at each take-over: never repeats for a room
    Column("expires_at", Float, nullable=False),  # seconds since the epoch
    Column("wanted_by", String(255), nullable=True),  # a worker asking for a hand-over
)
made_table = Table(
    "room_made",
    _meta,
    Column("code", String(16), primary_key=True),
    Column("client", String(64), nullable=False, index=True),
    Column("worker", String(255), nullable=False),
    Column("created", Float, nullable=False),  # seconds since the epoch
)


@dataclass(frozen=True)
class LeaseHolder:
    """A room's lease as stored: ``code`` (the room), ``worker`` (its holder's name, ``""`` when
    free), ``host``, ``pid``, ``pidns`` (the holder's host name, process id and process id
    namespace), ``epoch`` (one more at each take-over), ``expires_at`` (seconds since the epoch)
    and ``wanted_by`` (a worker that asked for it, or None)."""

    code: str
    worker: str
    host: str
    pid: int
    pidns: str
    epoch: int
    expires_at: float
    wanted_by: str | None


class LeaseError(SQLAlchemyError):
    """A room's lease is not this worker's: a storage failure (a ``sqlalchemy.exc.SQLAlchemyError``,
    so the hub refuses the change as it does any other)."""


class LeaseHeld(LeaseError):
    """:meth:`Store.take` found the room's lease held by another live worker, ``holder``
    (:class:`LeaseHolder`)."""

    def __init__(self, message: str, holder: LeaseHolder) -> None:
        super().__init__(message)
        self.holder = holder


class LeaseLost(LeaseError):
    """A write for rooms whose leases this worker does not hold (with the epoch it took them at):
    ``rooms``, their codes.  Nothing of them was stored."""

    def __init__(self, message: str, rooms: frozenset[str] = frozenset()) -> None:
        super().__init__(message)
        self.rooms = rooms


SCHEMA_LOCK = 0x736B6974  # "skit": the PostgreSQL advisory lock held while tables are created
"""The key of the transaction-level advisory lock :func:`create_tables` takes on PostgreSQL."""


def create_tables(meta: MetaData, engine: Engine) -> None:
    """Create the tables of ``meta`` that ``engine``'s database lacks.  On PostgreSQL this happens under
    an advisory lock (:data:`SCHEMA_LOCK`), so that workers starting at once on an empty database do
    not race on ``CREATE TABLE`` (one of them would fail on the catalog's unique index); the second
    finds the tables made.  Raises what the database raises."""
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(sql_text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        meta.create_all(conn)


@dataclass(frozen=True)
class StoredRoom:
    """A room as stored: ``code``, ``spec`` (the creation settings) and ``log``, the
    ``(kind, payload)`` entries in order."""

    code: str
    spec: dict[str, Any]
    log: list[tuple[str, dict[str, Any]]]


class Store:
    """A database holding rooms, their logs and their leases; creates its tables if missing.

    ``url`` is any SQLAlchemy URL (``sqlite:///path.db``, ``postgresql+psycopg://user@host/db``).
    SQLite files run in WAL mode (one worker per SQLite file: several work, but SQLite serialises
    their writes).  ``worker`` names this worker in the lease rows (default ``host:pid``, at most
    255 characters).  ``lease_expiry`` and ``renew_every`` (seconds, default :data:`LEASE_EXPIRY`
    and :data:`LEASE_RENEW_EVERY`) are how long a lease lasts without renewal and how often the hub
    renews them (:meth:`renew`); ``renew_every`` must be more than 0 and less than
    ``lease_expiry``, else ``ValueError``.  Raises ``sqlalchemy.exc.ArgumentError`` for a URL that
    is not one and ``sqlalchemy.exc.OperationalError`` when the database cannot be reached.

    The leases this store holds are in :attr:`held` (room code to epoch).  Every method that
    touches the database blocks: call them from a thread (the hub does).
    """

    def __init__(self, url: str, *, worker: str | None = None, lease_expiry: float = LEASE_EXPIRY,
                 renew_every: float = LEASE_RENEW_EVERY) -> None:
        if not 0 < renew_every < lease_expiry:
            raise ValueError(f"the leases must be renewed more often than they expire: renew_every must be "
                             f"more than 0 and less than lease_expiry, not {renew_every} and {lease_expiry}")
        self.url = url
        self.worker = (worker or f"{socket.gethostname()}:{os.getpid()}")[:255]
        self.lease_expiry = lease_expiry
        self.renew_every = renew_every
        self.engine: Engine = create_engine(url, future=True)
        self.postgres = self.engine.dialect.name == "postgresql"
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        create_tables(_meta, self.engine)
        self.held: dict[str, int] = {}  # room code -> epoch of the leases this store holds
        self._tx = threading.Lock()  # one lease-touching transaction of this store at a time (no deadlock)
        self._renewed_at: float | None = None  # monotonic seconds of the last renewal that committed
        self._host = socket.gethostname()
        self._pidns = _pid_namespace()

    @property
    def shown_url(self) -> str:
        """The database URL without its password (for messages)."""
        return make_url(self.url).render_as_string(hide_password=True)

    def ping(self) -> None:
        """Ask the database a trivial query (``SELECT 1``), as a health check
        (``GET /healthz``).  Raises what the database raises (``sqlalchemy.exc.SQLAlchemyError``)
        when it cannot be reached."""
        with self.engine.connect() as conn:
            conn.execute(sql_text("SELECT 1"))

    # -- leases -------------------------------------------------------------------------------

    @property
    def renewing(self) -> bool:
        """Whether this store's last renewal (:meth:`renew`) committed less than ``lease_expiry``
        seconds ago (True before the first: nothing to renew yet)."""
        return self._renewed_at is None or time.monotonic() - self._renewed_at < self.lease_expiry

    def lease_of(self, code: str) -> LeaseHolder | None:
        """Room ``code``'s lease as stored, or None when it has none."""
        with self.engine.connect() as conn:
            return _read_lease(conn, code)

    def _ours(self, now: float, epoch: int) -> dict[str, Any]:
        return {"worker": self.worker, "host": self._host, "pid": os.getpid(), "pidns": self._pidns,
                "epoch": epoch, "expires_at": now + self.lease_expiry, "wanted_by": None}

    def _may_take(self, held: LeaseHolder, now: float) -> bool:
        """Whether another worker's (or a free) lease may be taken now by this store."""
        if held.worker == "":  # given back: free, but kept for its wanter for a while after a hand-over
            return held.wanted_by in (None, self.worker) or held.expires_at < now
        if held.expires_at < now:
            return True
        return (held.host == self._host and held.pidns == self._pidns and held.pid != os.getpid()
                and not _pid_alive(held.pid))

    def take(self, code: str) -> int | None:
        """Take room ``code``'s lease and return its epoch: at once if the room has no lease, if its
        lease is free (given back), has expired, or its holder was a process of this machine (same
        host name and process id namespace) that no longer exists.  Holding it already returns its
        epoch.  Returns None when no room ``code`` is stored.  Raises :class:`LeaseHeld` when another
        live worker holds it (ask for it: :meth:`want`), :class:`LeaseError` when other workers kept
        changing it, what the database raises (``sqlalchemy.exc.SQLAlchemyError``)."""
        for _ in range(5):
            try:
                with self._tx, self.engine.begin() as conn:
                    if not _room_stored(conn, code):
                        return None
                    now = time.time()
                    held = _read_lease(conn, code, lock=self.postgres)
                    if held is None:
                        conn.execute(insert(lease_table), {"code": code, **self._ours(now, 1)})
                        epoch = 1
                    elif held.worker == self.worker and held.epoch == self.held.get(code):
                        return held.epoch
                    elif held.worker != self.worker and not self._may_take(held, now):
                        raise LeaseHeld(f"room {code} is driven by worker {held.worker} (host {held.host}, "
                                        f"pid {held.pid})", held)
                    else:  # compare and set: only if nobody took or renewed it since we read it
                        epoch = held.epoch + 1
                        done = conn.execute(update(lease_table)
                                            .where(lease_table.c.code == code,
                                                   lease_table.c.epoch == held.epoch,
                                                   lease_table.c.worker == held.worker)
                                            .values(**self._ours(now, epoch)))
                        if done.rowcount != 1:
                            continue
                        if held.worker not in ("", self.worker):
                            log.warning("took over the lease of room %s from worker %s (host %s, pid %d)",
                                        code, held.worker, held.host, held.pid)
                    self.held[code] = epoch
                    return epoch
            except IntegrityError:  # another worker inserted the row just now: look again
                continue
        raise LeaseError(f"could not take the lease of room {code}: other workers kept changing it; "
                         "try again")

    def take_new(self, code: str) -> bool:
        """Take the lease of a room about to be made, ``code``: True if taken, False when a room or a
        lease of that code exists already (choose another code).  Raises what the database raises."""
        try:
            with self._tx, self.engine.begin() as conn:
                if _room_stored(conn, code):
                    return False
                if _read_lease(conn, code) is not None:
                    return False
                conn.execute(insert(lease_table), {"code": code, **self._ours(time.time(), 1)})
        except IntegrityError:
            return False
        self.held[code] = 1
        return True

    def want(self, code: str) -> None:
        """Ask the worker holding room ``code``'s lease to hand it over (it does at its next
        :meth:`renew`).  Raises what the database raises."""
        with self._tx, self.engine.begin() as conn:
            conn.execute(update(lease_table)
                         .where(lease_table.c.code == code, lease_table.c.worker != self.worker,
                                lease_table.c.worker != "")
                         .values(wanted_by=self.worker))

    def renew(self) -> tuple[set[str], set[str]]:
        """Renew every lease this store holds, in one UPDATE; returns ``(lost, wanted)``: the rooms
        whose leases are no longer this store's (taken over: forget them, they are dropped from
        :attr:`held`), and the rooms another worker asked for (:meth:`want`: hand them over, then
        :meth:`release`).  Raises what the database raises (then nothing is renewed)."""
        with self._tx:
            mine = dict(self.held)
            with self.engine.begin() as conn:
                rows = conn.execute(update(lease_table).where(lease_table.c.worker == self.worker)
                                    .values(expires_at=time.time() + self.lease_expiry)
                                    .returning(lease_table.c.code, lease_table.c.epoch,
                                               lease_table.c.wanted_by)).all()
            self._renewed_at = time.monotonic()
            found = {code: epoch for code, epoch, _ in rows}
            lost = {code for code, epoch in mine.items()
                    if found.get(code) != epoch and self.held.get(code) == epoch}
            for code in lost:
                del self.held[code]
        wanted = {code for code, _, by in rows if by is not None and by != self.worker}
        if lost:
            log.error("lost the leases of %d rooms to other workers: %s", len(lost), ", ".join(sorted(lost)))
        return lost, wanted

    def release(self, code: str, *, handed_to: str | None = None) -> None:
        """Give room ``code``'s lease back (if this store holds it), so that another worker may take it
        at once.  ``handed_to``: the worker that asked for it, which alone may take it for
        ``lease_expiry`` seconds (a hand-over); else anyone may.  Raises what the database raises (the
        lease then expires)."""
        epoch = self.held.pop(code, None)
        if epoch is None:
            epoch = -1  # not ours as far as we know: give back a row that still names us (a stray)
        now = time.time()
        with self._tx, self.engine.begin() as conn:
            where = [lease_table.c.code == code, lease_table.c.worker == self.worker]
            if epoch >= 0:
                where.append(lease_table.c.epoch == epoch)
            conn.execute(update(lease_table).where(*where)
                         .values(worker="", wanted_by=handed_to,
                                 expires_at=now + self.lease_expiry if handed_to else 0.0))

    def release_all(self) -> None:
        """Give back every lease this store holds (a clean shutdown: other workers take the rooms at
        once).  Raises nothing: a database that cannot be reached is logged (the leases expire)."""
        if not self.held:
            return
        try:
            with self._tx, self.engine.begin() as conn:
                conn.execute(update(lease_table).where(lease_table.c.worker == self.worker)
                             .values(worker="", wanted_by=None, expires_at=0.0))
            self.held.clear()
        except SQLAlchemyError as e:
            log.warning("could not give back the leases of %s (they expire %g s after their last "
                        "renewal): %s", self.shown_url, self.lease_expiry, e)

    def claim_free(self, most: int | None = None) -> dict[str, int]:
        """Take the leases of stored rooms nobody drives: rooms without a lease, free leases, expired
        ones and ones of dead processes of this machine (at most ``most`` rooms, None: all); returns
        the rooms taken with their epochs.  On PostgreSQL the rows are locked ``FOR UPDATE SKIP
        LOCKED``, so that workers sweeping at once each take different rooms.  Raises what the
        database raises."""
        taken: dict[str, int] = {}
        now = time.time()
        c = lease_table.c
        with self._tx, self.engine.begin() as conn:
            orphans = (select(rooms_table.c.code)
                       .where(~select(c.code).where(c.code == rooms_table.c.code).exists())
                       .order_by(rooms_table.c.created))
            if most is not None:
                orphans = orphans.limit(most)
            for (code,) in conn.execute(orphans).all():
                conn.execute(_insert_ignore(self.engine.dialect.name), {"code": code, **self._ours(now, 1)})
                taken[code] = 1
            if self.postgres and taken:  # another worker may have inserted one first: keep ours only
                got = conn.execute(select(c.code, c.epoch).where(c.code.in_(taken), c.worker == self.worker))
                taken = {code: epoch for code, epoch in got}
            left = None if most is None else max(0, most - len(taken))
            cols = (c.code, c.worker, c.host, c.pid, c.pidns, c.epoch, c.expires_at, c.wanted_by)
            query = select(*cols).where(c.worker != self.worker,
                                        (c.expires_at < now) | (c.host == self._host))
            if self.postgres:
                query = query.with_for_update(skip_locked=True)
            if left != 0:
                for row in conn.execute(query).all():
                    held = LeaseHolder(*row)
                    if not self._may_take(held, now):
                        continue
                    done = conn.execute(update(lease_table)
                                        .where(c.code == held.code, c.epoch == held.epoch,
                                               c.worker == held.worker)
                                        .values(**self._ours(now, held.epoch + 1)))
                    if done.rowcount == 1:
                        taken[held.code] = held.epoch + 1
                        if held.worker:
                            log.warning("took over the lease of room %s from worker %s (host %s, pid %d)",
                                        held.code, held.worker, held.host, held.pid)
                        if left is not None and len(taken) >= most:  # type: ignore[operator]
                            break
            self.held.update(taken)
        return taken

    def counts(self, client: str | None, since: float) -> tuple[int, int]:
        """``(rooms, made)``: how many rooms are stored (on every worker), and how many rooms other
        workers made for ``client`` (its key) since ``since`` (seconds since the epoch; 0 for
        ``client`` None).  Raises what the database raises."""
        with self.engine.connect() as conn:
            rooms = conn.execute(select(func.count()).select_from(rooms_table)).scalar_one()
            made = 0
            if client is not None:
                made = conn.execute(select(func.count()).select_from(made_table)
                                    .where(made_table.c.client == client, made_table.c.worker != self.worker,
                                           made_table.c.created > since)).scalar_one()
        return int(rooms), int(made)

    def forget_made(self, before: float) -> None:
        """Delete the record of rooms made before ``before`` (seconds since the epoch)."""
        with self.engine.begin() as conn:
            conn.execute(delete(made_table).where(made_table.c.created < before))

    # -- rooms --------------------------------------------------------------------------------

    def write(self, rows: list[tuple[str, str, int, str, dict[str, Any]]]) -> set[str]:
        """Store ``rows`` in one transaction, fenced: returns the rooms whose rows were *not* stored
        because this store does not hold their leases at the epoch it took them (:attr:`held`); the
        other rows are stored.  Each row is ``(table, room, n, kind, payload)``: ``table`` is
        ``"room"`` (``payload`` the spec; ``n`` and ``kind`` unused), ``"log"``, ``"made"`` (the room
        was made for client ``kind``: counted for the limit of rooms per client), ``"delete"`` (the
        room, its whole log and its lease are deleted, after the other rows; only ``room`` is used),
        or ``"deal"`` (a finished deal kept for its replay link: ``room`` is the deal's id,
        ``payload`` its data; a deal already stored is left as it is, and no lease is needed).  The
        same transaction renews the leases of the rooms written (their rows stay locked until it
        commits, so no other worker takes one in between).  Raises what the database raises
        (``sqlalchemy.exc.SQLAlchemyError``); then nothing of the transaction is stored."""
        involved = {r for t, r, _, _, _ in rows if t != "deal"}
        with self._tx, self.engine.begin() as conn:
            ok: set[str] = set()
            if involved:
                fence = conn.execute(update(lease_table)
                                     .where(lease_table.c.worker == self.worker,
                                            lease_table.c.code.in_(involved))
                                     .values(expires_at=time.time() + self.lease_expiry)
                                     .returning(lease_table.c.code, lease_table.c.epoch)).all()
                ok = {code for code, epoch in fence if self.held.get(code) == epoch}
            lost = involved - ok
            if lost:
                rows = [row for row in rows if row[0] == "deal" or row[1] in ok]
            rooms = [{"code": r, "created": time.time(), "spec": json.dumps(p)} for t, r, _, _, p in rows
                     if t == "room"]
            logs = [{"room": r, "n": n, "kind": k, "payload": json.dumps(p)} for t, r, n, k, p in rows
                    if t == "log"]
            made = [{"code": r, "client": k[:64], "worker": self.worker, "created": time.time()}
                    for t, r, _, k, _ in rows if t == "made"]
            if rooms:
                conn.execute(insert(rooms_table), rooms)
            if made:
                conn.execute(insert(made_table), made)
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
                conn.execute(delete(lease_table).where(lease_table.c.code.in_(gone)))
        for code in gone:
            self.held.pop(code, None)
        for code in lost:
            if code in self.held:
                log.error("room %s: this worker no longer holds its lease; nothing of it was stored", code)
                self.held.pop(code, None)
        return lost

    def load_rooms(self, codes: Iterable[str] | None = None) -> list[StoredRoom]:
        """The stored rooms ``codes`` (None: every one) with their logs in order, oldest room first."""
        wanted = None if codes is None else list(codes)
        if wanted is not None and not wanted:
            return []
        with self.engine.connect() as conn:
            query = select(rooms_table.c.code, rooms_table.c.spec).order_by(rooms_table.c.created)
            if wanted is not None:
                query = query.where(rooms_table.c.code.in_(wanted))
            rooms = {code: StoredRoom(code, json.loads(spec), []) for code, spec in conn.execute(query)}
            entries = select(log_table.c.room, log_table.c.kind, log_table.c.payload)
            if wanted is not None:
                entries = entries.where(log_table.c.room.in_(wanted))
            for room, kind, payload in conn.execute(entries.order_by(log_table.c.room, log_table.c.n)):
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
        """Delete every table and everything in them, the leases included (a worker holding one can
        no longer write), then create them empty (tests, tooling)."""
        _meta.drop_all(self.engine)
        _meta.create_all(self.engine)
        self.held.clear()

    def close(self) -> None:
        """Give back every lease this store holds (:meth:`release_all`), then close the database
        connections."""
        self.release_all()
        self.engine.dispose()


def _room_stored(conn: Connection, code: str) -> bool:
    return conn.execute(select(rooms_table.c.code).where(rooms_table.c.code == code)).first() is not None


def _insert_ignore(dialect: str) -> Any:
    """An INSERT into the lease table that leaves an existing row as it is (PostgreSQL, SQLite)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(lease_table).on_conflict_do_nothing()
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(lease_table).on_conflict_do_nothing()


def _read_lease(conn: Connection, code: str, *, lock: bool = False) -> LeaseHolder | None:
    c = lease_table.c
    query = (select(c.code, c.worker, c.host, c.pid, c.pidns, c.epoch, c.expires_at, c.wanted_by)
             .where(c.code == code))
    if lock:
        query = query.with_for_update()
    row = conn.execute(query).first()
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
        """Store ``rows`` (see :meth:`Store.write`) and return once they are committed.  Raises
        :class:`LeaseLost` when this worker does not hold the lease of a room of ``rows`` (then none
        of ``rows`` is stored), what the database raises."""
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
            lost: set[str] = set()
            try:
                lost = self.store.write(rows)
            except Exception as e:  # reported to every caller of the batch
                error = e
            for waiters, loop in batches:
                if not lost:
                    loop.call_soon_threadsafe(_settle_all, [f for _, f in waiters], error)
                    continue
                fine = [f for rs, f in waiters if not any(r[0] != "deal" and r[1] in lost for r in rs)]
                fenced = [(f, frozenset(r[1] for r in rs if r[0] != "deal" and r[1] in lost))
                          for rs, f in waiters if any(r[0] != "deal" and r[1] in lost for r in rs)]
                loop.call_soon_threadsafe(_settle_all, fine, None)
                for f, rooms in fenced:
                    loop.call_soon_threadsafe(_settle, f, LeaseLost(
                        f"this worker no longer holds the lease of room {', '.join(sorted(rooms))}: nothing "
                        "of it was stored", rooms))

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
