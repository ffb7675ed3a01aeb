"""The server's Prometheus metrics (``GET /metrics``, docs/server.md "Health and metrics").

A :class:`Metrics` holds its own :class:`prometheus_client.CollectorRegistry`, never the library's
global one, so that several applications (or hubs) in one process each count their own.  The hub
(:mod:`skitgubbe.server.hub`) and the application (:mod:`skitgubbe.server.app`) call its counting
methods; a hub built without one makes its own, which nobody reads.  Gauges of what the server holds
(rooms) are set when the metrics are read (:meth:`Metrics.exposition`), so that nothing is counted
on the game's path for them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Gauge, Histogram
from prometheus_client import Counter as PromCounter
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest

__all__ = ["Metrics", "ROOM_STATUSES", "MOVE_KINDS", "LEASE_TAKEOVERS", "LATENCY_BUCKETS", "CONTENT_TYPE"]

ROOM_STATUSES = ("lobby", "playing", "over")
"""The values of the ``status`` label of ``skitgubbe_rooms`` (each is written, 0 when no room has it)."""

MOVE_KINDS = ("player", "bot", "chance", "timeout")
"""The values of the ``kind`` label of ``skitgubbe_moves_stored_total``: a person's ``act`` message, a
bot's move (a bot seat, or a seat the fill bot plays while its player is away), the chance order of the
dreck, a move made because a timer ran out (the turn timer's bot move, the sluff timer's passes)."""

LEASE_TAKEOVERS = ("demand", "handover", "sweep")
"""The values of the ``reason`` label of ``skitgubbe_lease_takeovers_total``."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""The upper bounds of ``skitgubbe_move_seconds``'s buckets, in seconds."""

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :meth:`Metrics.exposition` (Prometheus's text format)."""


class Metrics:
    """The server's metrics, in a registry of their own (``registry``).  Every name, type, label and
    unit is listed in docs/server.md, "Health and metrics"."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.connections = Gauge("skitgubbe_connections", "Websocket connections open (admitted, not yet "
                                 "closed)", registry=r)
        self.rooms_held = Gauge("skitgubbe_rooms_held", "Rooms the server holds in memory", registry=r)
        self.rooms = Gauge("skitgubbe_rooms", "Rooms the server holds, by status", ["status"], registry=r)
        self.moves = PromCounter("skitgubbe_moves_stored", "Moves stored, by who made them", ["kind"],
                                 registry=r)
        self.move_seconds = Histogram("skitgubbe_move_seconds", "Seconds from receiving an act message to "
                                      "queueing its acknowledgement (stored and sent to the table)",
                                      buckets=LATENCY_BUCKETS, registry=r)
        self.refused = PromCounter("skitgubbe_refused", "Requests and messages refused, by error code and "
                                   "by where they came (http, websocket)", ["via", "code"], registry=r)
        self.storage_failures = PromCounter("skitgubbe_storage_failures", "Writes the database refused "
                                            "(nothing was changed)", registry=r)
        self.replays = PromCounter("skitgubbe_replays_built", "Replays built, by source: room (a table's, "
                                   "asked over the websocket), deal (a stored deal), record (an uploaded "
                                   "record)", ["source"], registry=r)
        self.leases_taken = PromCounter("skitgubbe_lease_takeovers", "Room leases this worker took from the "
                                        "database for a room it did not drive, by why: demand (a client "
                                        "asked, nobody drove it), handover (another worker handed it over), "
                                        "sweep (its worker had stopped renewing)", ["reason"], registry=r)
        self.handovers = PromCounter("skitgubbe_handovers", "Rooms this worker handed over to another, by "
                                     "why: wanted (another worker asked for it)", ["reason"], registry=r)
        self.lease_losses = PromCounter("skitgubbe_lease_losses", "Room leases this worker found taken over "
                                        "by another (its rooms dropped, their writes refused)", registry=r)
        for kind in MOVE_KINDS:
            self.moves.labels(kind)
        for reason in LEASE_TAKEOVERS:
            self.leases_taken.labels(reason)
        self.handovers.labels("wanted")
        for source in ("room", "deal", "record"):
            self.replays.labels(source)

    def moved(self, kind: str, count: int = 1) -> None:
        """Count ``count`` moves stored, made by ``kind`` (one of :data:`MOVE_KINDS`)."""
        self.moves.labels(kind).inc(count)

    def acknowledged(self, seconds: float) -> None:
        """Observe a move's latency: ``seconds`` from its ``act`` message to its acknowledgement."""
        self.move_seconds.observe(seconds)

    def refusal(self, via: str, code: str) -> None:
        """Count a refusal with error ``code`` (``"rate-limited"``...) of a request ``via`` ``"http"``
        or ``"websocket"`` (a websocket refused at its handshake is ``"http"``)."""
        self.refused.labels(via, code).inc()

    def lease_taken(self, reason: str) -> None:
        """Count a room lease taken over, for ``reason`` (one of :data:`LEASE_TAKEOVERS`)."""
        self.leases_taken.labels(reason).inc()

    def handed_over(self, reason: str) -> None:
        """Count a room handed over to another worker, for ``reason`` (``"wanted"``)."""
        self.handovers.labels(reason).inc()

    def lease_lost(self) -> None:
        """Count a room lease found lost to another worker."""
        self.lease_losses.inc()

    def storage_failed(self) -> None:
        """Count a write the database refused."""
        self.storage_failures.inc()

    def replay_built(self, source: str) -> None:
        """Count a replay built from ``source``: ``"room"``, ``"deal"`` or ``"record"``."""
        self.replays.labels(source).inc()

    def set_rooms(self, statuses: Iterable[str]) -> None:
        """Set the room gauges from the status of each room held (``"lobby"``, ``"playing"``,
        ``"over"``)."""
        counts = Counter(statuses)
        self.rooms_held.set(sum(counts.values()))
        for status in {*ROOM_STATUSES, *counts}:
            self.rooms.labels(status).set(counts.get(status, 0))

    def exposition(self) -> bytes:
        """Every metric in Prometheus's text format (:data:`CONTENT_TYPE`), UTF-8."""
        return generate_latest(self.registry)
