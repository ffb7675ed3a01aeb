"""A connection (:class:`Client`) and what a worker keeps per room beside the room itself
(:class:`Live`): the transport-side state the hub, the driver and the messages share."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from . import protocol
from .limits import Limits, RateLimit

__all__ = ["Client", "Live", "LANG_RATE", "LANG_BURST", "MOVED"]

log = logging.getLogger("skitgubbe.server.hub")  # the hub's logger: its lines keep their name

MOVED = 4001
"""The websocket close code of a connection whose room this worker no longer drives (handed over to
another worker, or its lease lost): reconnect at once, the table lives on (close reason ``moved``)."""


LANG_RATE = 0.5
"""``lang`` messages one connection may send, per second on average (each is answered with a whole
``sync``, which can be tens of kB: a flood of them would be a flood of syncs)."""

LANG_BURST = 4.0
"""``lang`` messages one connection may send at once (see :data:`LANG_RATE`)."""


class Client:
    """One connection.  Until its ``hello`` it belongs to no room.  Attributes: ``room``
    (code or None), ``slot`` (player slot, None for a spectator), ``key`` (its :func:`client_key`,
    ``""`` when unknown), ``outbox`` (an ``asyncio.Queue`` of message texts to send; None asks the
    transport to close: take them with :meth:`take` or :meth:`take_nowait`), ``queued`` (bytes of
    text in ``outbox``), ``dropped`` (the connection was closed for reading too slowly: nothing more
    is queued), ``lines_sent`` (narration lines already sent), ``events_sent`` (events of the deal
    already sent), ``limit`` (its :class:`RateLimit`), ``refused`` (messages refused for the rate
    limit), ``hellos_refused`` (``hello`` messages refused), ``lang`` (the language the client reads, one
    of :data:`~skitgubbe.engine.i18n.LANGUAGES`: its ``hello`` or ``lang`` message chose it) and
    ``lang_limit`` (its :class:`RateLimit` of ``lang`` messages)."""

    def __init__(self, *, rate: float = 20.0, burst: float = 40.0, key: str = "",
                 outbox_bytes: int = Limits.outbox_bytes) -> None:
        self.key = key
        self.outbox_bytes = outbox_bytes
        self.queued = 0
        self.dropped = False
        self.hellos_refused = 0
        self.room: str | None = None
        self.slot: int | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.lines_sent = 0
        self.events_sent = 0
        self.game_sent = -1
        self.limit = RateLimit(rate, burst, burst)
        self.refused = 0
        self.ack: int | None = None
        self.lang = "en"
        self.lang_limit = RateLimit(LANG_RATE, LANG_BURST, LANG_BURST)
        self.close_code: int | None = None  # the websocket close code asked for (None: the transport's)
        self.close_reason = ""

    def send(self, data: dict[str, Any] | str) -> None:
        """Queue a message (a dict is written as JSON).  When more than ``outbox_bytes`` bytes are
        already waiting, the connection is dropped instead: the waiting messages are thrown away and
        the transport is asked to close (``dropped``); nothing is queued after that."""
        if self.dropped:
            return
        if self.queued > self.outbox_bytes:
            self.close(f"it left {self.queued} bytes unread")
            return
        text = data if isinstance(data, str) else protocol.dumps(data)
        self.queued += len(text)
        self.outbox.put_nowait(text)

    def close(self, why: str, *, keep: bool = False, code: int | None = None, reason: str = "") -> None:
        """Drop the connection (``why`` is for the log): ask the transport to close it once it has
        sent what waits in ``outbox`` (``keep``), or at once, throwing that away; with websocket close
        ``code`` and ``reason`` when given (:data:`MOVED`).  Nothing is queued,
        and nothing the client sends is heard, after this.  Closing twice is harmless."""
        if self.dropped:
            return
        self.dropped = True
        self.close_code, self.close_reason = code, reason
        log.warning("closing a connection of %s (room %s): %s", self.key or "an unknown client",
                    self.room or "-", why)
        while not keep and not self.outbox.empty():
            self.outbox.get_nowait()
        if not keep:
            self.queued = 0
        self.outbox.put_nowait(None)

    async def take(self) -> str | None:
        """The next message to send, waiting for one; None: close the connection."""
        text = await self.outbox.get()
        if text is not None:
            self.queued -= len(text)
        return text

    def take_nowait(self) -> str | None:
        """The next message to send; raises ``asyncio.QueueEmpty`` when none waits."""
        text = self.outbox.get_nowait()
        if text is not None:
            self.queued -= len(text)
        return text




class Live:
    """What the hub keeps per room beside the room itself (not stored)."""

    def __init__(self, players: int, now: float) -> None:
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.clients: list[Client] = []
        self.connected = [0] * players
        self.gone_since: list[float | None] = [now] * players
        self.chat_limits: list[RateLimit] = []  # per player slot (Limits.chat_rate), made on first use
        self.driver: asyncio.Task[None] | None = None
        self.last_active = now  # the last stored change, connection or disconnection (for expiry)
        self.expired = False  # removed by Hub.expire_rooms: nothing may change it any more
