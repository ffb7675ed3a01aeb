"""The server's abuse limits (docs/server.md, "Security" and "Limits"): token buckets
(:class:`RateLimit`, per client key :class:`ClientBuckets`), the limits themselves (:class:`Limits`),
the key a client is counted under (:func:`client_key`), and the refusals they cause
(:class:`TooManyRequests`, :class:`TooManyRooms`, :class:`RoomMoving`).  The hub
(:mod:`skitgubbe.server.hub`) applies them; the application (:mod:`skitgubbe.server.app`) applies
the per-connection and HTTP ones.  Which limits hold across workers and which per worker: see
docs/server.md, "Running more than one server"."""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from .rooms import RoomError

__all__ = ["RateLimit", "Limits", "ClientBuckets", "TooManyRequests", "TooManyRooms", "RoomMoving",
           "client_key"]


@dataclass
class RateLimit:
    """A token bucket: ``rate`` messages a second on average, bursts of ``burst``."""

    rate: float = 20.0
    burst: float = 40.0
    tokens: float = 40.0
    stamp: float = field(default_factory=time.monotonic)

    def allow(self, now: float | None = None, amount: float = 1.0) -> bool:
        """Take ``amount`` tokens (one message; or bytes, for a budget of bytes); False (and nothing
        taken) when the bucket holds fewer.  An ``amount`` larger than ``burst`` is taken from a full
        bucket, which it empties."""
        t = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + max(0.0, t - self.stamp) * self.rate)
        self.stamp = t
        need = min(amount, self.burst)
        if self.tokens < need:
            return False
        self.tokens -= need
        return True

    def wait(self, amount: float = 1.0) -> int:
        """Whole seconds (at least 1) until ``amount`` tokens (at most ``burst``) are back, as of the
        last :meth:`allow`: what a refusal's ``retry_after`` says."""
        need = min(amount, self.burst) - self.tokens
        return max(1, math.ceil(need / self.rate)) if self.rate > 0 else 3600


@dataclass(frozen=True)
class Limits:
    """The server's abuse limits (docs/server.md, "Security"); 0 turns a count limit off.

    Attributes:
        rooms_per_client: rooms one client (:func:`client_key`) may make in any ``rooms_window``
            seconds.
        rooms_window: seconds (see ``rooms_per_client``).
        connections_per_client: websocket connections one client may hold at once (checked by the
            transport, :mod:`skitgubbe.server.app`).
        max_rooms: the most rooms the server holds at once.
        idle_after: seconds after which a room is removed (memory and database) when nobody is
            connected to it and nothing has happened in it: no stored change, no connection or
            disconnection.
        finished_after: the same, in seconds, for a room whose last deal is over.
        sweep_every: seconds between two looks for rooms to remove.
        chat_rate, chat_burst: chat lines one player may send, per second on average and at once
            (beyond them a line is refused ``rate-limited``): at most 3,600 lines (about 1 MB) an hour
            a seat by default.
        replay_bytes, replay_burst: the bytes of ``replay`` answers one client (:func:`client_key`,
            over all its connections) is sent, per second on average and at once; a replay request
            beyond them is refused ``rate-limited`` with ``retry_after``.  One replay larger than
            ``replay_burst`` is sent when the client's budget is whole.
        outbox_bytes: the bytes of messages waiting to be sent to one connection beyond which a new
            message drops the connection (a reader too slow, or one that never reads; its player
            reconnects and is sent the table afresh): the server never holds more for one
            connection than this and one message.
        renew_every: seconds between two renewals of this worker's room leases (the store's, when
            the application makes it: :class:`~skitgubbe.server.store.Store`).
        lease_expiry: seconds after its last renewal that a room's lease may be taken over by
            another worker (its worker is taken for dead).
        lease_sweep_every: seconds between two looks for rooms nobody drives (their worker died or
            stopped), which this worker then takes over.
        handover_wait: seconds a worker waits for another to hand a room over before it refuses the
            request ``room-moving`` (the client tries again).
    """

    rooms_per_client: int = 20
    rooms_window: float = 600.0
    connections_per_client: int = 32
    max_rooms: int = 10_000
    idle_after: float = 3600.0
    finished_after: float = 900.0
    sweep_every: float = 60.0
    chat_rate: float = 1.0
    chat_burst: float = 5.0
    replay_bytes: float = 128_000.0
    replay_burst: float = 8_000_000.0
    outbox_bytes: int = 2_000_000
    renew_every: float = 1.0
    lease_expiry: float = 5.0
    lease_sweep_every: float = 3.0
    handover_wait: float = 3.0


def client_key(host: str | None) -> str:
    """The key a client's limits are counted under: its IPv4 address; for IPv6 its /64 network (one
    household or machine is given a whole /64), an IPv4-mapped address as IPv4; any other text
    (a test client's name) as it is; ``""`` when the address is unknown."""
    if not host:
        return ""
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.ip_network(f"{addr}/64", strict=False))
    return str(addr)


class ClientBuckets:
    """Token buckets (:class:`~skitgubbe.server.hub.RateLimit`) per client key: ``per_minute`` a
    minute, bursts of as many; at most ``most`` keys are kept (the least recently used are dropped:
    a dropped key starts again with a full bucket).  ``per_minute`` 0: no limit."""

    def __init__(self, per_minute: int, most: int = 10_000) -> None:
        self.per_minute = per_minute
        self.most = most
        self.buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def _bucket(self, key: str) -> RateLimit:
        bucket = self.buckets.get(key)
        if bucket is None:
            n = float(self.per_minute)
            bucket = self.buckets[key] = RateLimit(rate=n / 60.0, burst=n, tokens=n)
            while len(self.buckets) > self.most:
                self.buckets.popitem(last=False)
        self.buckets.move_to_end(key)
        return bucket

    def wait(self, key: str, *, take: bool = True) -> int | None:
        """None if ``key`` may go on (taking a token when ``take``), else the whole seconds until it
        may (and nothing is taken)."""
        if not self.per_minute:
            return None
        bucket = self._bucket(key)
        if take:
            if bucket.allow():
                return None
        else:
            now = time.monotonic()
            if min(bucket.burst, bucket.tokens + max(0.0, now - bucket.stamp) * bucket.rate) >= 1:
                return None
        return max(1, math.ceil((1 - bucket.tokens) / bucket.rate))


class TooManyRequests(RoomError):
    """``rate-limited``: a request beyond a rate (chat lines, the bytes of replays: :class:`Limits`);
    ``too-many-misses``: a ``hello`` from a client over its count of rooms asked for that do not exist
    (:attr:`Hub.misses`); ``retry_after`` is how many seconds until it may be made."""

    def __init__(self, message: str, retry_after: int, *, code: str = "rate-limited") -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


class RoomMoving(RoomError):
    """``room-moving``: the room is driven by another worker that did not hand it over within
    :attr:`Limits.handover_wait` seconds; ``retry_after`` is how many seconds until asking again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("room-moving", message)
        self.retry_after = retry_after


class TooManyRooms(RoomError):
    """``too-many-rooms``: a client made :attr:`Limits.rooms_per_client` rooms in the last
    :attr:`Limits.rooms_window` seconds; ``retry_after`` is how many seconds until it may make one."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("too-many-rooms", message)
        self.retry_after = retry_after
