"""The live side of the server: rooms in memory, their connections, bots and timers.

:class:`Hub` owns every :class:`~skitgubbe.server.rooms.Room`.  A change to a room
happens under the room's lock in three steps: the room *prepares* the entry (checks
it, changes nothing), the :class:`~skitgubbe.server.store.LogWriter` stores it, then the
room applies it and every connection of the room is sent its update.  So an action is
never acknowledged, nor shown to anyone, before it is stored, and a restart rebuilds
every room from the log (:meth:`Hub.load`).

One *driver* task per room (:mod:`skitgubbe.server.driver`) makes the server's own moves: the
chance dreck order, bots (in the :class:`~skitgubbe.server.botpool.BotPool`), a bot move when the
turn timer runs out, ``pass`` for seats that have not said done when a settled trick's sluff timer runs
out.  A seat whose player has no connection for ``away_after`` seconds is played by the
fill bot until the player is back.

The concerns around it have modules of their own: the limits (:mod:`skitgubbe.server.limits`,
re-exported here), the messages sent (:mod:`skitgubbe.server.messages`), the room's own checks
(:class:`~skitgubbe.server.rooms.Room`: ``check_act`` returns the checked
:class:`~skitgubbe.engine.actions.Action` that :meth:`~skitgubbe.server.rooms.Room.apply_entry`
applies once stored), storage and the room leases (:mod:`skitgubbe.server.store`), the connections
and per-room state (:mod:`skitgubbe.server.live`) and the leases held (:mod:`skitgubbe.server.registry`,
docs/server.md "Inside the server").  The rooms this
worker drives are those whose leases it holds: it takes a room on demand (:meth:`Hub.ensure_room`),
hands one over when another worker asks (:meth:`Hub.hand_over`: its connections are closed with
:data:`MOVED`), drops one whose lease it lost, and sweeps up the rooms nobody drives (docs/server.md,
"Running more than one server").

Connections are :class:`Client` objects: the transport (the websocket endpoint in
:mod:`skitgubbe.server.app`, or a test) feeds :meth:`Hub.receive` with each text frame
and sends what :meth:`Client.outbox` yields.

Abuse limits (:class:`Limits`, docs/server.md "Security"): rooms made per client, the
rooms the server holds, chat lines per seat, the bytes of replays per client, the bytes left
unread per connection, refused hellos per connection and hellos naming no room per client
(:attr:`Hub.misses`), and expiry: a room nobody is connected to is removed from memory
and from the database once it has been idle, or over, for long enough
(:meth:`Hub.expire_rooms`, run every ``Limits.sweep_every`` seconds).  Every failure is logged,
one line each (:mod:`skitgubbe.server.logs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError

from ..engine.actions import Action
from ..engine.i18n import N_, gettext_in, render
from ..engine.rules import RulesError
from ..engine.rulesfile import RulesFileError, parse_rules_file
from ..engine.variants import UnknownVariantError, find_variant
from . import protocol
from .botpool import BotPool
from .driver import Driver
from .limits import ClientBuckets, Limits, RateLimit, RoomMoving, TooManyRequests, TooManyRooms, client_key
from .live import LANG_BURST, LANG_RATE, MOVED, Client, Live
from .messages import TableFacts, error_message, table_message
from .metrics import Metrics
from .protocol import ClientMessage, ProtocolError
from .registry import ROOM_CODE_CHARS, Registry
from .replays import archive_entry, is_deal_id
from .rooms import Room, RoomError, RoomSpec, hash_token, make_spec
from .store import LeaseLost, LogWriter, Store
from .twotables import LOSERS, WINNERS, Result, TwoTables, check_rules, next_seating

__all__ = ["Hub", "Client", "RateLimit", "Limits", "ClientBuckets", "TooManyRooms", "TooManyRequests",
           "client_key", "ROOM_CODE_CHARS", "ERRORS_KEPT", "HELLO_REFUSALS", "MOVED", "RoomMoving"]

log = logging.getLogger(__name__)

ERRORS_KEPT = 200
"""The failures :attr:`Hub.errors` keeps, the latest (every one is also logged)."""

HELLO_REFUSALS = 3
"""Refused ``hello`` messages after which a connection is closed: a room code or seat token is not
guessed on one connection (a new one counts against :attr:`Limits.connections_per_client`)."""

REPLAY_CACHE = 256
"""Replay messages the hub keeps ready, across every room (a finished deal's replay of 8 seats is
about 120 kB; see :meth:`Hub.replay_text`)."""


def _replay_data(room: Room, seat: int | None, lang: str) -> dict[str, Any]:
    """``room.replay_data(seat)`` in ``lang`` (English, the default, asked without it)."""
    return room.replay_data(seat) if lang == "en" else room.replay_data(seat, lang)


class Door(Protocol):
    """What the hub asks of the door for outside bots (:class:`skitgubbe.server.botdoor.BotDoor`,
    attached as :attr:`Hub.door`): the hooks are its five methods."""

    async def intercept(self, client: Client, raw: str | bytes) -> bool:
        """Handle a bot's ``hello`` of ``client`` (True), or leave ``raw`` to the hub (False)."""

    def reserved(self, code: str) -> set[int]:
        """The slots of room ``code`` kept for invited bots."""

    def plan_deal(self, room: Room, payload: dict[str, Any]) -> dict[str, Any]:
        """The ``start`` payload of ``room``'s next deal, given the one the room prepared."""

    def check_replay(self, room: Room) -> None:
        """Raise :class:`RoomError` if ``room``'s replay may not be sent now (a ladder match's deck)."""

    def gone(self, client: Client) -> None:
        """``client``, which said no hello to the hub (a queued bot, say), has disconnected."""


class Hub:
    """Every room of a server (see the module docstring).

    Args:
        store: the database; pool: where bots think.
        bot_delay: seconds a bot waits before moving, so people can follow (0 in tests).
        away_after: seconds without a connection before the fill bot plays a player's seat.
        rng: shuffles decks and the dreck and names rooms and tokens (default: the system's
            secure generator).
        clock: monotonic seconds (tests may replace it).
        limits: rooms per client, the most rooms, expiry (:class:`Limits`).
        metrics: what the hub counts (moves, refusals, storage failures, replays: a
            :class:`~skitgubbe.server.metrics.Metrics`); default: its own, which nobody reads.
    """

    def __init__(
        self,
        store: Store,
        pool: BotPool,
        *,
        bot_delay: float = 0.6,
        away_after: float = 30.0,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
        limits: Limits | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.metrics = metrics if metrics is not None else Metrics()
        self.writer = LogWriter(store)
        self.pool = pool
        self.bot_delay = bot_delay
        self.away_after = away_after
        self.rng = rng if rng is not None else random.SystemRandom()
        self.clock = clock
        self.limits = limits if limits is not None else Limits()
        self.rooms: dict[str, Room] = {}
        self.live: dict[str, Live] = {}
        self._made: dict[str, deque[float]] = {}  # per client key, when its recent rooms were made
        self._creating = 0  # rooms counted against the limits but not stored yet
        self._replays: OrderedDict[tuple[Any, ...], str] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None
        self.closing = False  # set by close(): the driver and the sweepers stop
        self.driver = Driver(self)  # the server's own moves (server/driver.py)
        self.registry = Registry(self)  # the rooms this worker drives, by their leases (server/registry.py)
        self.errors: list[str] = []  # the latest ERRORS_KEPT failures (each also logged), for tests
        self._replay_budget: dict[str, RateLimit] = {}  # per client key (Limits.replay_bytes)
        self.misses = ClientBuckets(0)  # hellos naming no room, per client key (the server's: create_app)
        self._building: dict[tuple[Any, ...], asyncio.Future[dict[str, Any]]] = {}  # replays on a thread
        self.sessions: dict[str, TwoTables] = {}  # two linked tables, by session code
        self.session_of: dict[str, str] = {}  # room code -> session code
        self.door: Door | None = None  # bots from outside (botdoor hook: set by create_app)

    # -- life cycle ---------------------------------------------------------------------

    async def load(self) -> int:
        """Take the leases of every stored room nobody drives
        (:meth:`~skitgubbe.server.store.Store.claim_free`), rebuild those rooms by replaying their
        logs and start their drivers; start renewing this worker's leases every
        ``store.renew_every`` seconds (handing over the rooms other workers ask for), looking for
        rooms nobody drives every :attr:`Limits.lease_sweep_every` seconds and for expired rooms
        every :attr:`Limits.sweep_every` seconds.  Returns the number of rooms held.  A room whose
        log does not replay is skipped and named in ``errors``.  The expiry clocks of the rooms
        loaded start now.  Raises what the database raises (``sqlalchemy.exc.SQLAlchemyError``)."""
        taken = await asyncio.to_thread(self.store.claim_free)
        await self.open_stored(list(taken))
        loop = asyncio.get_running_loop()
        if self._sweeper is None:
            self._sweeper = loop.create_task(self._sweep())
        self.registry.start()
        return len(self.rooms)

    async def open_stored(self, codes: list[str]) -> list[Room]:
        """Rebuild the stored rooms ``codes`` (their leases taken) and start their drivers; a room whose
        log does not replay is noted in ``errors`` and its lease given back."""
        if not codes:
            return []
        stored = await asyncio.to_thread(self.store.load_rooms, codes)
        opened: list[Room] = []
        for sr in stored:
            if sr.code in self.rooms:
                continue
            try:
                room = Room(sr.code, RoomSpec.from_json(sr.spec))
                for kind, payload in sr.log:
                    room.apply_entry(kind, payload)
            except (RoomError, ValueError, KeyError) as e:
                self.note(f"room {sr.code} not loaded: {e}")
                continue
            self._add(room)
            opened.append(room)
        await self._archive([r for r in opened if r.status == "over" and r.state is not None
                             and r.state.is_over])
        return opened

    # -- the rooms this worker drives: leases, hand-overs, take-overs (server/registry.py) -------

    @property
    def renewal_failing(self) -> bool:
        """True while the last renewal of this worker's leases failed (``GET /healthz`` says 503)."""
        return self.registry.renewal_failing

    async def drop_room(self, code: str, why: str) -> None:
        """:meth:`~skitgubbe.server.registry.Registry.drop_room`."""
        await self.registry.drop_room(code, why)

    async def hand_over(self, code: str) -> None:
        """:meth:`~skitgubbe.server.registry.Registry.hand_over`."""
        await self.registry.hand_over(code)

    async def ensure_room(self, code: str) -> Room:
        """:meth:`~skitgubbe.server.registry.Registry.ensure_room`: room ``code``, taken from the
        database (and from the worker driving it) if this worker does not drive it."""
        return await self.registry.ensure_room(code)

    def forget_replays(self, code: str) -> None:
        """Throw away the replay messages kept ready for room ``code`` (it left this worker)."""
        for stale in [k for k in self._replays if k[0] == code]:
            del self._replays[stale]

    def note(self, failure: str, *, trace: bool = False) -> None:
        """Log ``failure`` (one line; with the traceback of the exception being handled when
        ``trace``) and keep it in :attr:`errors`, the latest :data:`ERRORS_KEPT` of them.  A failure
        of several lines (a database's message with its SQL) is written on one, its lines joined by
        `` | ``."""
        failure = " | ".join(part.strip() for part in failure.splitlines() if part.strip())
        log.error("%s", failure, exc_info=trace)
        self.errors.append(failure)
        del self.errors[:-ERRORS_KEPT]

    def _add(self, room: Room) -> None:
        self.rooms[room.code] = room
        live = Live(room.spec.players, self.clock())
        self.live[room.code] = live
        live.driver = asyncio.get_running_loop().create_task(self.driver.drive(room, live))

    async def close(self) -> None:
        """Stop the drivers and the writer (queued writes finish first), then give back every lease
        (:meth:`~skitgubbe.server.store.Store.release_all`: other workers take the rooms at once).
        Closing twice is harmless."""
        if self.closing:
            return
        self.closing = True
        await self.registry.stop()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for live in self.live.values():
            if live.driver is not None:
                live.driver.cancel()
        for live in self.live.values():
            if live.driver is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await live.driver
        await asyncio.to_thread(self.writer.close)
        await asyncio.to_thread(self.store.release_all)

    # -- HTTP-side requests ---------------------------------------------------------------

    def _expired(self, room: Room, live: Live, now: float) -> bool:
        if live.clients:
            return False
        after = self.limits.finished_after if room.status == "over" else self.limits.idle_after
        return now - live.last_active >= after

    async def expire_rooms(self) -> list[str]:
        """Remove every room that has expired: nobody connected to it and nothing happened in it for
        :attr:`Limits.idle_after` seconds (:attr:`Limits.finished_after` once its deal is over).  It
        is gone from memory at once (its driver stopped, later requests get ``no-room``) and deleted
        from the database, so a restart does not replay it.  Returns the codes removed.  A database
        that refuses the deletion is noted in ``errors`` (a restart then loads the room again, and it
        expires again)."""
        now = self.clock()
        gone: list[str] = []
        drivers: list[asyncio.Task[None]] = []
        for code in [c for c, live in self.live.items() if self._expired(self.rooms[c], live, now)]:
            live = self.live[code]
            async with live.lock:
                if live.expired or not self._expired(self.rooms[code], live, self.clock()):
                    continue
                live.expired = True
                del self.rooms[code], self.live[code]
                if live.driver is not None:
                    live.driver.cancel()
                    drivers.append(live.driver)
            gone.append(code)
        for driver in drivers:
            with contextlib.suppress(asyncio.CancelledError):
                await driver
        for stale in [k for k in self._replays if k[0] in gone]:  # a new room may get the code again
            del self._replays[stale]
        window = self.limits.rooms_window
        for client in [k for k, made in self._made.items() if not made or made[-1] <= now - window]:
            del self._made[client]
        if gone:
            try:
                await self.writer.write([("delete", code, 0, "", {}) for code in gone])
            except SQLAlchemyError as e:
                self.metrics.storage_failed()
                self.note(f"rooms {', '.join(gone)} expired but could not be deleted: {e}")
        return gone

    async def _sweep(self) -> None:
        while not self.closing:
            await asyncio.sleep(self.limits.sweep_every)
            try:
                await self.expire_rooms()
                if self.limits.rooms_per_client:
                    await asyncio.to_thread(self.store.forget_made, time.time() - self.limits.rooms_window)
            except Exception as e:  # note it and look again next time
                self.note(f"expiring rooms: {type(e).__name__}: {e}", trace=True)

    def _check_budget(self, client: str | None, rooms: int, *, stored: int | None = None,
                      elsewhere: int = 0) -> deque[float] | None:
        """Raise :class:`RoomError` ``server-full`` or :class:`TooManyRooms` unless ``client`` may
        make ``rooms`` more rooms now (two linked tables are made together or not at all); counts
        nothing.  Returns the client's record of rooms made within the window (None without a
        per-client limit, or for a room the server makes itself, ``client`` None: only the
        server's room limit counts then).  ``stored``: the rooms stored on every worker (default:
        those held here); ``elsewhere``: the rooms other workers made for ``client`` in the window."""
        limits = self.limits
        held = max(len(self.rooms), stored) if stored is not None else len(self.rooms)
        if limits.max_rooms and held + self._creating + rooms > limits.max_rooms:
            raise RoomError("server-full", f"the server holds as many rooms as it may ({limits.max_rooms}): "
                            "try again later")
        if not limits.rooms_per_client or client is None:
            return None
        now = self.clock()
        made = self._made.setdefault(client, deque())
        while made and made[0] <= now - limits.rooms_window:
            made.popleft()
        over = len(made) + elsewhere + rooms - limits.rooms_per_client
        if over > 0:
            wait = (max(1, math.ceil(made[min(over, len(made)) - 1] + limits.rooms_window - now)) if made
                    else max(1, math.ceil(limits.rooms_window)))
            also = ", and two tables are two rooms" if rooms > 1 else ""
            raise TooManyRooms(f"one client may make {limits.rooms_per_client} rooms in "
                               f"{limits.rooms_window:g} seconds{also}: try again in {wait} seconds", wait)
        return made

    def _reserve_room(self, client: str | None) -> deque[float] | None:
        """Count a room about to be made by ``client`` against the limits, at once (so that
        concurrent requests see it), or raise (:meth:`_check_budget`).  Returns the client's
        record, whose last entry is this room's (None as :meth:`_check_budget` says)."""
        made = self._check_budget(client, 1)
        if made is not None:
            made.append(self.clock())
        self._creating += 1
        return made

    async def create_room(self, name: str, *, client: str | None = "", **spec_args: Any) -> dict[str, Any]:
        """Create a room (arguments of :func:`~skitgubbe.server.rooms.make_spec`) with its
        creator ``name`` in slot 0; ``client`` is the maker's :func:`client_key`.  Returns
        ``{"room", "player": 0, "token"}`` once the room is stored.  A table without open seats
        starts its deal at once; if that start cannot be stored, the room is still made (in the
        lobby: its maker may start it).

        Raises :class:`~skitgubbe.server.protocol.ProtocolError` or :class:`RoomError` ``bad-field``
        (a name :func:`~skitgubbe.server.protocol.check_name` or
        :meth:`~skitgubbe.server.rooms.Room.prepare_join` refuses); what ``make_spec`` raises;
        :class:`TooManyRooms` (``too-many-rooms``) beyond :attr:`Limits.rooms_per_client`;
        :class:`RoomError` ``server-full`` when the server holds :attr:`Limits.max_rooms` rooms, and
        ``server`` when the database refuses to store the room (then no room was made, and none is
        counted against the limits)."""
        name = protocol.check_name(name)
        spec = make_spec(**spec_args)
        await self._check_global_budget(client, 1)
        made = self._reserve_room(client)
        stamp = made[-1] if made is not None else 0.0
        code = ""
        try:
            code = await self._claim_code()
            room = Room(code, spec)
            token = secrets.token_urlsafe(24)
            join = room.prepare_join(name, hash_token(token), creator=True)
            rows: list[tuple[str, str, int, str, dict[str, Any]]] = [("room", code, 0, "", spec.to_json())]
            if client is not None:  # a room the server makes itself (the ladder's) counts against no client
                rows.append(("made", code, 0, client, {}))
            rows.append(("log", code, 0, "join", join))
            await self.writer.write(rows)
        except BaseException as e:
            if made is not None and stamp in made:  # not counted after all
                made.remove(stamp)
            if code:
                await self._unclaim(code)
            if isinstance(e, SQLAlchemyError):
                self.metrics.storage_failed()
                self.note(f"room {code}: could not store the new room: {e}")
                raise RoomError("server", "the server could not store the new room: nothing changed, try "
                                "again") from None
            raise
        finally:
            self._creating -= 1
        room.apply_entry("join", join)
        self._add(room)
        if not room.open_slots():
            try:
                await self._start(room, self.live[code], roving=False)
            except RoomError as e:  # the room is stored: its maker gets it, in the lobby
                self.note(f"room {code}: the first deal did not start: {e}")
        return {"room": code, "player": 0, "token": token}

    async def join(self, code: str, name: str, *, slot: int | None = None,
                   token: str | None = None) -> dict[str, Any]:
        """A friend called ``name`` takes the next open slot of room ``code`` that is not kept for an
        invited bot (or the open slot ``slot``: an invited bot's, :mod:`skitgubbe.server.botdoor`);
        returns ``{"room", "player", "token"}`` (``token``, or a new one).  The deal starts once every
        open slot is taken.  Raises :class:`RoomError` ``no-room`` or ``full`` (no open slot left but
        kept ones, or ``slot`` is not open), or ``ProtocolError`` (bad name)."""
        name = protocol.check_name(name)
        room = await self.ensure_room(code)
        live = self.live[room.code]
        async with live.lock:
            token = token or secrets.token_urlsafe(24)
            payload = room.prepare_join(name, hash_token(token))
            payload["slot"] = self._join_slot(room, slot)  # botdoor hook: kept seats
            self._check_session_name(room, name)
            await self.commit(room, "join", payload)
            if room.status == "lobby" and not room.open_slots():
                await self._start_locked(room, live, roving=False)
            self.broadcast(room, live)
        return {"room": room.code, "player": payload["slot"], "token": token}

    def _join_slot(self, room: Room, slot: int | None) -> int:
        """The slot a join takes: ``slot`` if it is open, else the first open slot not kept for an
        invited bot.  Raises :class:`RoomError` ``full`` when there is none."""
        free = room.open_slots()
        if slot is not None:
            if slot not in free:
                raise RoomError("full", f"seat {slot} of room {room.code} is not open")
            return slot
        kept = self.door.reserved(room.code) if self.door is not None else set()
        free = [s for s in free if s not in kept]
        if not free:
            raise RoomError("full", "every seat of this table is taken or kept for an invited bot: you can "
                            "watch as a spectator")
        return free[0]

    async def start_next(self, code: str) -> None:
        """Deal the next deal of room ``code`` (its first, or the next once the last is over), as
        its maker's ``start`` or a player's ``again`` would: for the ladder
        (:mod:`skitgubbe.server.botdoor`).  Raises :class:`RoomError` ``no-room``, ``not-playing``
        (a deal is in progress) or ``server``."""
        room = self._room(code)
        await self._start(room, self.live[room.code], roving=False)

    # -- two linked tables (the Flurst page) ------------------------------------------------

    def _new_code(self) -> str:
        code = "".join(self.rng.choice(ROOM_CODE_CHARS) for _ in range(6))
        while code in self.rooms:
            code = "".join(self.rng.choice(ROOM_CODE_CHARS) for _ in range(6))
        return code

    async def _claim_code(self) -> str:
        """A new room code no worker uses, its lease taken by this worker (the creator drives the room
        it makes).  Raises what the database raises."""
        while True:
            code = self._new_code()
            if await asyncio.to_thread(self.store.take_new, code):
                return code

    async def _unclaim(self, code: str) -> None:
        """Give back the lease of a room that was not made after all (logged if the database fails)."""
        try:
            await asyncio.to_thread(self.store.release, code)
        except SQLAlchemyError as e:
            log.warning("could not give back the lease of room %s, which was not made: %s", code, e)

    async def _check_global_budget(self, client: str | None, rooms: int) -> None:
        """The limits across workers: :attr:`Limits.max_rooms` counts the rooms stored (every
        worker's), :attr:`Limits.rooms_per_client` the rooms other workers made for ``client`` in the
        last :attr:`Limits.rooms_window` seconds with this worker's own.  Raises what
        :meth:`_check_budget` raises, :class:`RoomError` ``server`` when the database fails."""
        limits = self.limits
        if not limits.max_rooms and not limits.rooms_per_client:
            return
        who = client if limits.rooms_per_client else None
        try:
            since = time.time() - limits.rooms_window
            stored, elsewhere = await asyncio.to_thread(self.store.counts, who, since)
        except SQLAlchemyError as e:
            self.metrics.storage_failed()
            self.note(f"could not count the rooms: {e}")
            raise RoomError("server", "the server could not reach its database: try again") from None
        self._check_budget(client, rooms, stored=stored, elsewhere=elsewhere)

    async def create_two_tables(self, name: str, *, people: int, client: str = "", preset: str | None,
                                house_rules: str | None, turn_seconds: float = 0.0,
                                sluff_seconds: float = 8.0) -> dict[str, Any]:
        """Make two linked tables for ``people`` (10 to 12) people (:mod:`skitgubbe.server.twotables`):
        the winners table, whose slot 0 is its maker ``name``, and the losers table, every other seat
        open for a friend.  Returns what :meth:`create_room` returns (the maker's seat) with
        ``session`` (its code) and ``rooms`` (the winners and the losers table's codes).

        Raises :class:`RoomError` ``bad-table`` for a number of people or rules that cannot make two
        tables (the rules' seat range), and what :meth:`create_room` raises."""
        if (preset is None) == (house_rules is None):
            raise RoomError("bad-rules", "give either a preset name or house rules (TOML), not both or "
                            "neither")
        try:
            rules = find_variant(preset) if preset is not None else parse_rules_file(house_rules or "")
        except (UnknownVariantError, RulesFileError, RulesError) as e:
            raise RoomError("bad-rules", str(e)) from None
        try:
            sizes = check_rules(rules, people)
        except ValueError as e:
            raise RoomError("bad-table", str(e)) from None
        await self._check_global_budget(client, 2)  # both tables count against the limits, made together
        made = await self.create_room(name, client=client, preset=preset, house_rules=house_rules,
                                      players=sizes[WINNERS], seats=["open"] * (sizes[WINNERS] - 1),
                                      turn_seconds=turn_seconds, sluff_seconds=sluff_seconds)
        winners = self.rooms[made["room"]]
        spec = RoomSpec(winners.spec.rules, sizes[LOSERS], ("open",) * sizes[LOSERS], winners.spec.fill_bot,
                        winners.spec.turn_seconds, winners.spec.sluff_seconds)
        losers = await self._create_linked(spec, [], client=client)  # the maker's second room
        code = self._new_code()
        session = TwoTables(code, sizes, rounds=[(winners.code, losers.code)])
        self.sessions[code] = session
        self.session_of[winners.code] = self.session_of[losers.code] = code
        self.broadcast(winners, self.live[winners.code])
        return {**made, "session": code, "rooms": [winners.code, losers.code]}

    async def _create_linked(self, spec: RoomSpec, joins: list[dict[str, Any]], *,
                             client: str | None = None) -> Room:
        """Store and open a room of ``spec`` whose players ``joins`` (``join`` payloads) are already
        seated; its deal starts at once when no seat is left open.  The room counts against the
        limits like any other (:meth:`create_room`): against ``client``'s when a client asked for
        it, else against the server's room limit only.  Raises :class:`RoomError` ``server`` when
        the database refuses it, and what :meth:`create_room` raises for the limits."""
        made = self._reserve_room(client)
        stamp = made[-1] if made is not None else 0.0
        code = ""
        try:
            code = await self._claim_code()
            room = Room(code, spec)
            rows: list[tuple[str, str, int, str, dict[str, Any]]] = [("room", code, 0, "", spec.to_json())]
            if client is not None:
                rows.append(("made", code, 0, client, {}))
            rows += [("log", code, n, "join", j) for n, j in enumerate(joins)]
            await self.writer.write(rows)
        except SQLAlchemyError as e:
            if made is not None and stamp in made:  # not counted after all
                made.remove(stamp)
            if code:
                await self._unclaim(code)
            self.metrics.storage_failed()
            self.note(f"room {code}: could not store a linked room: {e}")
            raise RoomError("server", "the server could not store the new table: try again") from None
        finally:
            self._creating -= 1
        for j in joins:
            room.apply_entry("join", j)
        self._add(room)
        if not room.open_slots():
            await self._start(room, self.live[code], roving=False)
        return room

    def _check_session_name(self, room: Room, name: str) -> None:
        """Names are unique across both tables of a session (people change tables)."""
        code = self.session_of.get(room.code)
        if code is None:
            return
        key = protocol.name_key(name)
        for other in self.sessions[code].rooms:
            if other != room.code and other in self.rooms and any(
                    p is not None and protocol.name_key(p.name) == key for p in self.rooms[other].players):
                raise RoomError("name-taken", f"{name!r} is already at the other table (names are compared "
                                "without case, extra spaces and look-alike letters): choose another name")

    async def _round_over(self, session: TwoTables) -> None:
        """Once both tables of the session's round have finished their deal: the winners table's loser
        and the losers table's first player out change places (:func:`~skitgubbe.server.twotables.
        next_seating`), the next round's two rooms are made with everyone seated, and both old rooms
        are told where each player goes."""
        old: list[Room] = []
        results: list[Result] = []
        for code in session.rooms:
            room = self.rooms.get(code)
            if room is None or room.state is None or room.status != "over":
                return  # the other table is still playing (or has expired)
            old.append(room)
            state = room.state
            results.append(Result(None if state.loser is None else room.seating[state.loser],
                                  room.seating[state.out_order[0]] if state.out_order else None))
        seating = next_seating(session.sizes, results[WINNERS], results[LOSERS])
        new: list[Room] = []
        for table, places in enumerate(seating):
            joins = []
            for slot, (ot, os) in enumerate(places):
                p = old[ot].players[os]
                if p is not None:
                    joins.append({"slot": slot, "name": p.name, "token_hash": p.token_hash})
            spec = old[table].spec
            spec = RoomSpec(spec.rules, spec.players, ("open",) * spec.players, spec.fill_bot,
                            spec.turn_seconds, spec.sluff_seconds)
            new.append(await self._create_linked(spec, joins))
            self.session_of[new[-1].code] = session.code
        down, up = results[WINNERS].loser, results[LOSERS].first_out
        move: dict[str, str | None] = {"down": None, "up": None}
        if down is not None and up is not None:
            move = {"down": old[WINNERS].slot_name(down), "up": old[LOSERS].slot_name(up)}
        session.advance((new[WINNERS].code, new[LOSERS].code), seating, move)
        for room in (*old, *new):
            self.broadcast(room, self.live[room.code])

    def room_info(self, code: str, lang: str = "en") -> dict[str, Any]:
        """Public facts about room ``code``: rules, seats, status.  ``seats`` names each seat (``"open
        seat"`` in language ``lang`` for one a friend may still take, though the fill bot plays it
        once the deal starts) and ``kinds`` says what it is: ``"person"``, ``"open"`` or ``"bot"``.
        Raises ``RoomError`` ``no-room``."""
        room = self._room(code)
        free = set(room.open_slots())
        kinds = ["open" if s in free else "person" if room.players[s] is not None else "bot"
                 for s in range(room.spec.players)]
        return {"room": room.code, "rules": room.spec.rules.name, "players": room.spec.players,
                "status": room.status, "open": len(free),
                "seats": [gettext_in(lang, N_("open seat")) if k == "open" else room.slot_name(s, lang)
                          for s, k in enumerate(kinds)],
                "kinds": kinds}

    def _room(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper()) if isinstance(code, str) and len(code) <= 32 else None
        if room is None:
            raise RoomError("no-room", f"there is no room {code!r:.40}")
        return room

    # -- connections ----------------------------------------------------------------------

    async def receive(self, client: Client, raw: str | bytes) -> None:
        """Handle one message from ``client``: rate limit, validation, then the request.
        Every refusal is answered with an ``error`` message and changes nothing; a connection that
        was closed (:meth:`Client.close`) is not heard any more."""
        if client.dropped:
            return
        received = time.perf_counter()
        if not client.limit.allow(self.clock()):
            client.refused += 1
            self.metrics.refusal("websocket", "rate-limited")
            client.send(error_message("rate-limited", "too many messages: slow down (20 a second at most)"))
            if client.refused > 200:
                client.outbox.put_nowait(None)
            return
        if self.door is not None and client.room is None and await self.door.intercept(client, raw):
            return  # botdoor hook: a bot's hello
        try:
            msg = protocol.parse_client_message(raw)
        except ProtocolError as e:
            self.metrics.refusal("websocket", e.code)
            client.send(error_message(e.code, str(e)))
            return
        n = msg.get("n") if msg.type == "act" else None
        try:
            await self._dispatch(client, msg)
            if msg.type == "act":  # its acknowledgement is queued by now (with the update that follows)
                self.metrics.acknowledged(time.perf_counter() - received)
        except (RoomError, ProtocolError) as e:
            self.metrics.refusal("websocket", e.code)
            extra: dict[str, Any] = {"n": n} if n is not None else {}
            if isinstance(e, TooManyRequests):
                extra["retry_after"] = e.retry_after
            words = getattr(e, "words", None)
            if words is not None:  # the rules' reason, in the reader's language with the seats' names
                room = self.rooms.get(client.room or "")
                extra["said"] = render(words, client.lang, room.seat_names(client.lang) if room else None)
            client.send(error_message(e.code, str(e), **extra))
            if msg.type == "hello":
                client.hellos_refused += 1
                log.info("hello refused (%s) from %s: %s", e.code, client.key or "an unknown client", e)
                if client.hellos_refused >= HELLO_REFUSALS:
                    client.close(f"{client.hellos_refused} hello messages refused", keep=True)
        except Exception as e:  # a fault of the server: note it, and say so
            self.metrics.refusal("websocket", "server")
            self.note(f"{msg.type} message in room {client.room or '-'}: {type(e).__name__}: {e}",
                       trace=True)
            client.send(error_message("server", "the server failed on that message; the next update shows "
                                         "the table as it is"))

    async def _dispatch(self, client: Client, msg: ClientMessage) -> None:
        if msg.type == "ping":
            client.send({"type": "pong"})
            return
        if msg.type == "hello":
            await self._hello(client, msg)
            return
        if client.room is None:
            raise RoomError("no-hello", 'say hello first: {"type": "hello", "room": ..., "player": ..., '
                            '"token": ...}')
        room = self.rooms[client.room]
        live = self.live[room.code]
        if msg.type == "lang":
            if not client.lang_limit.allow(self.clock()):
                wait = client.lang_limit.wait()
                raise TooManyRequests(f"the language may be changed {LANG_BURST:g} times at once and once in "
                                      f"{1 / LANG_RATE:g} seconds after that: wait {wait} seconds", wait)
            client.lang = msg.fields["lang"]
            client.send(self._message(room, live, client, full=True))
            return
        if msg.type == "replay":
            if self.door is not None:  # botdoor hook: no replay of a ladder match's deck while it is dealt
                self.door.check_replay(room)
            seat = room.seat_of(client.slot) if client.slot is not None and room.state is not None else None
            text = await self.replay_message(room, seat, client.lang)
            self._spend_replay(client, len(text))
            client.send(text)
            return
        slot = client.slot
        if slot is None:
            raise RoomError("spectator", "spectators watch: they cannot act, chat or start deals")
        async with live.lock:
            if msg.type == "act":
                checked = room.check_act(slot, msg.fields["move"], msg.fields["n"])
                await self.commit(room, "act", checked.payload, action=checked.action)
                self.metrics.moved("player")
                client.ack = msg.fields["n"]  # sent with the update that follows (stored by now)
            elif msg.type == "chat":
                if not live.chat_limits:
                    live.chat_limits = [RateLimit(self.limits.chat_rate, self.limits.chat_burst,
                                                  self.limits.chat_burst, self.clock())
                                        for _ in range(room.spec.players)]
                bucket = live.chat_limits[slot]
                if not bucket.allow(self.clock()):
                    raise TooManyRequests(f"one player may send {self.limits.chat_burst:g} chat lines at "
                                          f"once and {self.limits.chat_rate:g} a second after that: wait "
                                          f"{bucket.wait()} seconds", bucket.wait())
                await self.commit(room, "chat", {"slot": slot, "name": room.slot_name(slot),
                                                  "text": msg.fields["text"]})
                line = protocol.dumps({"type": "chat", "name": room.slot_name(slot),
                                       "text": msg.fields["text"]})
                for c in live.clients:
                    c.send(line)
                return
            elif msg.type in ("leave", "reclaim"):
                p = room.players[slot]
                if p is not None and p.left == (msg.type == "leave"):
                    raise RoomError("bad-request", "you have already left" if p.left else "the seat is yours")
                await self.commit(room, msg.type, {"slot": slot})
            elif msg.type == "start":
                if room.status != "lobby":
                    raise RoomError("not-lobby", "the deal has already started")
                if slot != 0:
                    raise RoomError("forbidden", "only the player who made the room starts it")
                await self._start_locked(room, live, roving=False)
            elif msg.type == "again":
                if room.code in self.session_of:
                    raise RoomError("bad-request", "two tables: the next deal starts by itself, at the table "
                                    "each player moves to, once both tables have finished")
                if room.status != "over":
                    raise RoomError("not-over", "'again' starts the next deal once this one is over")
                await self._start_locked(room, live, roving=bool(msg.get("roving", False)))
            self.broadcast(room, live)

    async def _hello(self, client: Client, msg: ClientMessage) -> None:
        if client.room is not None:
            raise RoomError("bad-request", "this connection has already said hello")
        wait = self.misses.wait(client.key, take=False)
        if wait is not None:
            raise TooManyRequests(f"this client asked for {self.misses.per_minute} rooms or deals that do "
                                  f"not exist within a minute; try again in {wait} s", wait,
                                  code="too-many-misses")
        try:
            room = await self.ensure_room(msg.fields["room"])
        except RoomError as e:
            if e.code == "no-room":
                self.misses.wait(client.key)
            raise
        if client.dropped or client.room is not None:  # closed, or a second hello, while it was taken
            return
        live = self.live[room.code]
        spectate = msg.get("spectate", False)
        slot = msg.get("player")
        if not spectate:
            token = msg.get("token")
            if slot is None or token is None:
                raise RoomError("forbidden", "give your player number and seat token, or spectate")
            if not 0 <= slot < room.spec.players or not room.find_token(slot, token):
                raise RoomError("forbidden", f"that seat token is not the token of player {slot} in "
                                f"room {room.code}")
        client.room = room.code
        client.slot = None if spectate else slot
        client.lang = msg.get("lang", client.lang)
        live.clients.append(client)
        live.last_active = self.clock()
        if client.slot is not None:
            live.connected[client.slot] += 1
            live.gone_since[client.slot] = None
            live.changed.set()
        client.send(self._message(room, live, client, full=True))
        if client.slot is not None:
            self.broadcast(room, live, skip=client)  # the others see the player is back

    def disconnect(self, client: Client) -> None:
        """Forget ``client``: its player's seat is played by the fill bot after ``away_after``
        seconds unless the player comes back."""
        if client.room is None:
            if self.door is not None:  # botdoor hook: a queued bot went away
                self.door.gone(client)
            return
        live = self.live.get(client.room)
        room = self.rooms.get(client.room)
        if live is None or room is None:
            return
        if client in live.clients:
            live.clients.remove(client)
        live.last_active = self.clock()
        if client.slot is not None:
            live.connected[client.slot] -= 1
            if live.connected[client.slot] == 0:
                live.gone_since[client.slot] = self.clock()
            live.changed.set()
            self.broadcast(room, live)
        client.room = None

    # -- changes --------------------------------------------------------------------------

    async def commit(self, room: Room, kind: str, payload: dict[str, Any], *,
                      action: Action | None = None) -> None:
        """Store the entry, then apply it (``action``: an ``act`` entry's checked action,
        :meth:`~skitgubbe.server.rooms.Room.check_act`).  Call with the room's lock held.  Raises
        :class:`RoomError` ``server`` when the database refuses it (nothing changed), ``no-room``
        when the room has just expired."""
        live = self.live.get(room.code)
        if live is None or live.expired or self.rooms.get(room.code) is not room:  # (a code may be reused)
            raise RoomError("no-room", f"room {room.code} has expired")
        try:
            await self.writer.write([("log", room.code, room.entries, kind, payload)])
        except LeaseLost:
            self.metrics.lease_lost()
            self.registry.forget(room.code, "lost its lease: another worker drives it now")
            raise RoomError("moved", "this table has moved to another worker of the server: reconnect "
                            "(nothing changed)") from None
        except SQLAlchemyError as e:
            self.metrics.storage_failed()
            self.note(f"room {room.code}: could not store {kind}: {e}")
            raise RoomError("server", "the server could not store that: nothing changed, try again") from None
        over = room.status == "over"
        room.apply_entry(kind, payload, now=self.clock(), action=action)  # checked under this lock
        live.last_active = self.clock()
        live.changed.set()
        if room.status == "over" and not over:
            await self._archive([room])
            if room.code in self.session_of:
                await self._round_over(self.sessions[self.session_of[room.code]])

    async def _archive(self, rooms: list[Room]) -> None:
        """Keep the finished deals of ``rooms`` for their replay links (:mod:`skitgubbe.server.replays`);
        a deal already kept is left as it is.  A database failure is noted in ``errors``: the deal is
        kept at the next start of the server."""
        rows: list[tuple[str, str, int, str, dict[str, Any]]] = []
        for room in rooms:
            deal, data = archive_entry(room)
            rows.append(("deal", deal, 0, "", data))
        if not rows:
            return
        try:
            await self.writer.write(rows)
        except SQLAlchemyError as e:
            self.metrics.storage_failed()
            self.note(f"could not keep {len(rows)} finished deals: {e}")

    def stored_deal(self, deal: str) -> dict[str, Any]:
        """What the database keeps of finished deal ``deal`` (its id): the data
        :func:`~skitgubbe.server.replays.stored_replay` turns into its replay message.  Raises
        :class:`RoomError` ``no-deal`` when no deal has that id.  Blocking (a database read): call
        it from a thread."""
        data = self.store.load_deal(deal) if is_deal_id(deal) else None
        if data is None:
            raise RoomError("no-deal", f"there is no finished deal {deal!r:.40} on this server")
        return data

    async def _start(self, room: Room, live: Live, *, roving: bool) -> None:
        async with live.lock:
            await self._start_locked(room, live, roving=roving)
            self.broadcast(room, live)

    async def _start_locked(self, room: Room, live: Live, *, roving: bool) -> None:
        payload = room.prepare_start(self.rng, roving=roving)
        if self.door is not None:  # botdoor hook: a ladder room deals its match's deck, seats rotated
            payload = self.door.plan_deal(room, payload)
        await self.commit(room, "start", payload)

    # -- messages ---------------------------------------------------------------------------

    def _message(self, room: Room, live: Live, client: Client, *, full: bool,
                 cache: dict[Any, Any] | None = None) -> str:
        """:func:`~skitgubbe.server.messages.table_message` for ``client`` of ``room``."""
        def facts() -> TableFacts:
            deadline = self.driver.deadline(room, live)
            left = None if deadline is None else max(0.0, deadline - self.clock())
            session = (self.sessions[self.session_of[room.code]].info(room.code)
                       if room.code in self.session_of else None)
            return live.connected, self.driver.away(room, live), left, session

        return table_message(room, client, full=full, facts=facts, cache=cache)

    def _spend_replay(self, client: Client, size: int) -> None:
        """Count a replay answer of ``size`` bytes against its client's budget
        (:attr:`Limits.replay_bytes`), or raise :class:`TooManyRequests` (nothing counted).  Full
        budgets are forgotten as others are made, so the record stays small."""
        limits = self.limits
        now = self.clock()
        bucket = self._replay_budget.get(client.key)
        if bucket is None:
            if len(self._replay_budget) >= 1024:
                for key in [k for k, b in self._replay_budget.items()
                            if b.tokens + (now - b.stamp) * b.rate >= b.burst]:
                    del self._replay_budget[key]
            bucket = self._replay_budget[client.key] = RateLimit(limits.replay_bytes, limits.replay_burst,
                                                                 limits.replay_burst, now)
        if not bucket.allow(now, size):
            wait = bucket.wait(size)
            log.info("replay refused to %s: over its budget of bytes", client.key or "an unknown client")
            raise TooManyRequests(f"replays are limited to {limits.replay_bytes / 1000:g} kB a second for "
                                  f"each client and this one has {size} bytes: try again in {wait} seconds",
                                  wait)

    async def replay_message(self, room: Room, seat: int | None, lang: str = "en") -> str:
        """:meth:`replay_text` (its texts in ``lang``), with the replay of a finished deal built on a
        worker thread the first time (the whole deal step by step: a long two-pack deal of 15,000
        moves takes more than a second, benchmarks/replay_cost.py), so that the other tables do not
        wait for it; requests that come while it is being built wait for the same build."""
        state = room.state
        if state is None or not state.is_over:
            return self.replay_text(room, seat, lang)  # no frames: quick
        key = (room.code, room.game, room.seq, room.status, None, lang)
        text = self._replays.get(key)
        if text is not None:
            self._replays.move_to_end(key)
            return text
        building = self._building.get(key)
        if building is None:
            building = asyncio.ensure_future(asyncio.to_thread(_replay_data, room, seat, lang))
            self._building[key] = building
            building.add_done_callback(lambda _: self._building.pop(key, None))
        data = await asyncio.shield(building)
        if room.state is not state or room.game != key[1]:  # the next deal began while it was built
            return self.replay_text(room, seat, lang)
        text = self._replays.get(key)
        if text is None:
            text = protocol.dumps(data)
            self._remember(key, text)
            self.metrics.replay_built("room")
        return text

    def _remember(self, key: tuple[Any, ...], text: str) -> None:
        self._replays[key] = text
        if len(self._replays) > REPLAY_CACHE:
            self._replays.popitem(last=False)

    def replay_text(self, room: Room, seat: int | None, lang: str = "en") -> str:
        """The ``replay`` message of ``room`` for ``seat`` (None: a spectator) as JSON text, its texts
        in language ``lang`` (:meth:`~skitgubbe.server.rooms.Room.replay_data`), built once for each
        state of the deal and kept for the next requests (at most :data:`REPLAY_CACHE` messages across
        all rooms)."""
        state = room.state
        complete = state is not None and state.is_over
        key = (room.code, room.game, room.seq, room.status, None if complete else seat, lang)
        text = self._replays.get(key)
        if text is None:
            text = protocol.dumps(_replay_data(room, seat, lang))
            self._remember(key, text)
            self.metrics.replay_built("room")
        else:
            self._replays.move_to_end(key)
        return text

    def broadcast(self, room: Room, live: Live, *, skip: Client | None = None) -> None:
        cache: dict[Any, Any] = {}
        for c in live.clients:
            if c is not skip and not c.dropped:
                c.send(self._message(room, live, c, full=False, cache=cache))
