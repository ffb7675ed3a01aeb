"""The rooms one worker drives, by their leases in the database (docs/server.md, "Running more than
one server").

A worker drives the rooms whose leases it holds (:class:`~skitgubbe.server.store.Store`): it renews
them every ``store.renew_every`` seconds (:meth:`Registry.renew_leases`), and at that renewal drops
the rooms whose leases were lost and hands over those another worker asked for
(:meth:`Registry.hand_over`: the room's connections are closed with
:data:`~skitgubbe.server.live.MOVED`, their clients reconnect to the new worker).  It takes a room on
demand (:meth:`Registry.ensure_room`: a hello or an HTTP request naming it) and every
:attr:`~skitgubbe.server.limits.Limits.lease_sweep_every` seconds takes the rooms nobody drives (a dead
worker's: :meth:`Registry.sweep_leases`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from typing import Protocol

from sqlalchemy.exc import SQLAlchemyError

from .limits import Limits, RoomMoving
from .live import MOVED, Live
from .metrics import Metrics
from .rooms import Room, RoomError
from .store import LeaseError, LeaseHeld, Store

__all__ = ["Registry", "RegistryHost", "ROOM_CODE_CHARS"]

log = logging.getLogger("skitgubbe.server.hub")  # the hub's logger: its lines keep their name

ROOM_CODE_CHARS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes are 6 of these (no 0/O, 1/I/L)."""


class RegistryHost(Protocol):
    """What the registry needs of its hub (:class:`~skitgubbe.server.hub.Hub`)."""

    rooms: dict[str, Room]
    live: dict[str, Live]
    store: Store
    limits: Limits
    metrics: Metrics

    @property
    def closing(self) -> bool:
        """True once the hub is closing."""
        ...

    def note(self, failure: str, *, trace: bool = False) -> None:
        """Log a failure and keep it."""
        ...

    async def open_stored(self, codes: list[str]) -> list[Room]:
        """Rebuild the stored rooms ``codes`` (their leases taken) and start their drivers."""
        ...

    def forget_replays(self, code: str) -> None:
        """Throw away what the hub keeps ready for room ``code``."""
        ...


class Registry:
    """The leases of the rooms ``hub`` (a :class:`RegistryHost`) drives: see the module."""

    def __init__(self, hub: RegistryHost) -> None:
        self.hub = hub
        self.taking: dict[str, asyncio.Future[Room | None]] = {}  # rooms being taken from other workers
        self.renewal_failing = False  # the last renewal of the leases failed (GET /healthz)
        self.renewer: asyncio.Task[None] | None = None
        self.sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start renewing the leases and sweeping for rooms nobody drives (once; in a running loop)."""
        loop = asyncio.get_running_loop()
        if self.renewer is None:
            self.renewer = loop.create_task(self.renew_leases())
        if self.sweeper is None:
            self.sweeper = loop.create_task(self.sweep_leases())

    async def stop(self) -> None:
        """Stop renewing and sweeping (the leases stay until the store gives them back)."""
        for task in (self.renewer, self.sweeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def renew_leases(self) -> None:
        """Every ``store.renew_every`` seconds: renew this worker's leases, drop the rooms whose leases
        were lost, hand over the rooms other workers asked for."""
        while not self.hub.closing:
            await asyncio.sleep(self.hub.store.renew_every)
            try:
                lost, wanted = await asyncio.to_thread(self.hub.store.renew)
            except Exception as e:  # the database: try again next time (healthz says so meanwhile)
                self.renewal_failing = True
                self.hub.note(f"could not renew this worker's room leases: {type(e).__name__}: {e}")
                continue
            self.renewal_failing = False
            for code in lost:
                self.hub.metrics.lease_lost()
                await self.drop_room(code, "lost")
            for code in wanted:
                try:
                    await self.hand_over(code)
                except Exception as e:
                    self.hub.note(f"room {code}: hand-over failed: {type(e).__name__}: {e}", trace=True)

    async def sweep_leases(self) -> None:
        """Every :attr:`Limits.lease_sweep_every` seconds: take over the rooms nobody drives (their
        worker died: a bot table keeps moving within seconds)."""
        while not self.hub.closing:
            await asyncio.sleep(self.hub.limits.lease_sweep_every)
            try:
                taken = await asyncio.to_thread(self.hub.store.claim_free, 200)
                taken = {c: e for c, e in taken.items() if c not in self.hub.rooms}
                opened = await self.hub.open_stored(list(taken))
                for room in opened:
                    self.hub.metrics.lease_taken("sweep")
                    log.info("took over room %s (its worker stopped driving it)", room.code)
            except Exception as e:  # note it and look again next time
                self.hub.note(f"taking over rooms: {type(e).__name__}: {e}", trace=True)

    def forget(self, code: str, why: str) -> None:
        """Drop room ``code`` from this worker at once (the caller holds its lock, or knows nobody
        does): nothing may change it here any more, its driver stops, its connections are closed
        with :data:`MOVED` (their clients reconnect and find it on its new worker)."""
        room = self.hub.rooms.pop(code, None)
        live = self.hub.live.pop(code, None)
        if live is None or room is None:
            return
        live.expired = True
        if live.driver is not None and live.driver is not asyncio.current_task():
            live.driver.cancel()
        for client in list(live.clients):
            client.close(f"room {code} {why}", keep=True, code=MOVED, reason="moved")
            client.room = None
        live.clients.clear()
        self.hub.forget_replays(code)

    async def drop_room(self, code: str, why: str) -> None:
        """Drop room ``code`` from this worker (its lease is no longer ours: ``why`` is for the log),
        once the change being made to it is done; see :meth:`forget`."""
        live = self.hub.live.get(code)
        if live is None:
            return
        async with live.lock:
            self.forget(code, why)
        log.warning("room %s dropped from this worker: %s", code, why)

    async def hand_over(self, code: str) -> None:
        """Another worker asked for room ``code``: finish the change being made to it (its lock), drop
        it here (:meth:`forget`: its clients are closed with :data:`MOVED`) and give its lease back
        to that worker.  A room not held here has its stray lease given back too."""
        live = self.hub.live.get(code)
        held = self.hub.store.lease_of
        if live is not None:
            async with live.lock:
                self.forget(code, "handed over to another worker")
        lease = await asyncio.to_thread(held, code)
        await asyncio.to_thread(self.hub.store.release, code,
                                handed_to=lease.wanted_by if lease is not None else None)
        if live is not None:
            self.hub.metrics.handed_over("wanted")
            log.info("room %s handed over to worker %s", code, lease.wanted_by if lease else "?")

    async def ensure_room(self, code: str) -> Room:
        """Room ``code`` (any case, spaces around it), taken from the database if this worker does not
        drive it: at once if nobody drives it, else asked for (``wanted_by``) and waited for while
        its worker hands it over (at most :attr:`Limits.handover_wait` seconds).  Raises
        :class:`RoomError` ``no-room`` when no such room is stored, :class:`RoomMoving` when its
        worker did not hand it over in time, :class:`RoomError` ``server`` when the database
        fails."""
        key = code.strip().upper() if isinstance(code, str) and len(code) <= 32 else ""
        room = self.hub.rooms.get(key)
        if room is not None:
            return room
        if not key or any(ch not in ROOM_CODE_CHARS for ch in key) or self.hub.closing:
            raise RoomError("no-room", f"there is no room {code!r:.40}")
        taking = self.taking.get(key)
        if taking is None:
            taking = asyncio.ensure_future(self.take_room(key))
            self.taking[key] = taking
            taking.add_done_callback(lambda _: self.taking.pop(key, None))
        got = await asyncio.shield(taking)
        if got is None:
            raise RoomError("no-room", f"there is no room {code!r:.40}")
        return got

    async def take_room(self, code: str) -> Room | None:
        """Take room ``code`` (a valid code) for this worker: its lease, asked for from the worker
        holding it if need be, then the room rebuilt from the log; None when no such room is stored or
        its log does not replay.  Raises what :meth:`ensure_room` raises."""
        wait = self.hub.limits.handover_wait
        deadline = time.monotonic() + wait
        asked = False
        try:
            while True:
                try:
                    epoch = await asyncio.to_thread(self.hub.store.take, code)
                except LeaseHeld:
                    if time.monotonic() >= deadline:
                        retry = max(1, math.ceil(self.hub.store.renew_every))
                        raise RoomMoving(f"room {code} is being moved from another worker of this server: "
                                         f"try again in {retry} s", retry) from None
                    if not asked:
                        await asyncio.to_thread(self.hub.store.want, code)
                        asked = True
                    await asyncio.sleep(min(0.1, self.hub.store.renew_every / 4))
                    continue
                if epoch is None:
                    return None
                if code in self.hub.rooms:
                    return self.hub.rooms[code]
                opened = await self.hub.open_stored([code])
                if not opened and code in self.hub.rooms:  # this worker's sweeper opened it meanwhile
                    return self.hub.rooms[code]
                if not opened:  # it does not replay (noted): give it back
                    await asyncio.to_thread(self.hub.store.release, code)
                    return None
                self.hub.metrics.lease_taken("handover" if asked else "demand")
                return opened[0]
        except LeaseError as e:
            raise RoomMoving(f"room {code} is being moved between workers of this server: try again in 1 s "
                             f"({e})", 1) from None
        except SQLAlchemyError as e:
            self.hub.metrics.storage_failed()
            self.hub.note(f"room {code}: could not take its lease: {e}")
            raise RoomError("server", "the server could not reach its database: try again") from None
