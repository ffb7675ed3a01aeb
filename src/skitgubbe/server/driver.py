"""The driver: the moves a worker makes itself at its tables (docs/server.md, "Bots and timers").

One :class:`Driver` per hub runs one task per room (:meth:`Driver.drive`), which plans the room's
next server move (:meth:`Driver.plan`) and makes it when it is due (:meth:`Driver.step`): the chance
dreck order, a bot's move (after ``bot_delay`` seconds), a bot move for a seat whose turn timer ran
out, ``pass`` for the seats that have not said done when a settled trick's sluff timer runs out, and
the fill bot for a seat whose player has been away for ``away_after`` seconds.  A change to the room
wakes the task (``Live.changed``), which plans again.  Every move goes through the hub
(:meth:`DriverHost.commit`, then :meth:`DriverHost.broadcast`), stored before it is shown.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any, Protocol

from sqlalchemy.exc import SQLAlchemyError

from ..engine.actions import CHANCE, Action
from ..engine.view import view_of
from .botpool import BotPool
from .live import Live
from .metrics import Metrics
from .rooms import Room, RoomError

__all__ = ["Driver", "DriverHost"]


class DriverHost(Protocol):
    """What the driver needs of its hub (:class:`~skitgubbe.server.hub.Hub`)."""

    clock: Callable[[], float]
    bot_delay: float
    away_after: float
    pool: BotPool
    rng: random.Random
    metrics: Metrics

    @property
    def closing(self) -> bool:
        """True once the hub is closing: the driver stops."""
        ...

    async def commit(self, room: Room, kind: str, payload: dict[str, Any], *,
                     action: Action | None = None) -> None:
        """Store the entry, then apply it (the room's lock held)."""
        ...

    def broadcast(self, room: Room, live: Live) -> None:
        """Send every connection of the room its update."""
        ...

    def note(self, failure: str, *, trace: bool = False) -> None:
        """Log a failure and keep it."""
        ...


class Driver:
    """The server's own moves at the rooms of ``hub`` (a :class:`DriverHost`): see the module."""

    def __init__(self, hub: DriverHost) -> None:
        self.hub = hub

    def away(self, room: Room, live: Live) -> list[bool]:
        """Per player slot: whether the fill bot plays it now (no bot of its own, and its player
        has had no connection for ``away_after`` seconds)."""
        now = self.hub.clock()
        out = []
        for slot in range(room.spec.players):
            since = live.gone_since[slot]
            gone = since is not None and now - since >= self.hub.away_after
            out.append(room.bot_for(slot) is None and gone)
        return out

    def bot_of_seat(self, room: Room, live: Live, seat: int, away: list[bool]) -> str | None:
        """The name of the bot that plays ``seat`` now (``away`` from :meth:`away`), or None for a
        person."""
        slot = room.seating[seat]
        return room.bot_for(slot) or (room.spec.fill_bot if away[slot] else None)

    def deadline(self, room: Room, live: Live) -> float | None:
        """Monotonic time when a timer of the room runs out, or None."""
        state = room.state
        if room.status != "playing" or state is None:
            return None
        if room.is_settled_window():
            return room.window_started + room.spec.sluff_seconds
        if room.spec.turn_seconds and state.to_act >= 0:
            return room.turn_started + room.spec.turn_seconds
        return None


    def plan(self, room: Room, live: Live) -> tuple[float, str, int] | None:
        """What the driver does next: ``(monotonic time, what, seat)`` with ``what`` one of
        ``chance``, ``bot``, ``timeout``, ``sluff-timeout``, ``away``; or None (wait)."""
        state = room.state
        if room.status != "playing" or state is None or state.is_over:
            return None
        now = self.hub.clock()
        if state.to_act == CHANCE:
            return now, "chance", CHANCE
        away = self.away(room, live)
        seats = ([state.to_act] if state.to_act >= 0 else []) + room.pending_seats()
        for seat in seats:
            if self.bot_of_seat(room, live, seat, away) is not None:
                return now + self.hub.bot_delay, "bot", seat
        deadline = self.deadline(room, live)
        if room.is_settled_window():
            assert deadline is not None
            return deadline, "sluff-timeout", -1
        plans = []
        if deadline is not None:
            plans.append((deadline, "timeout", state.to_act))
        for seat in seats:
            since = live.gone_since[room.seating[seat]]
            if since is not None:
                plans.append((since + self.hub.away_after, "away", seat))
        return min(plans) if plans else None

    async def drive(self, room: Room, live: Live) -> None:
        """The room's task: plan, wait until the plan is due or the room changes, make the move;
        until the hub closes.  A bot's or the database's failure is noted and retried after 1 s."""
        while not self.hub.closing:
            live.changed.clear()
            plan = self.plan(room, live)
            if plan is None:
                await live.changed.wait()
                continue
            at, what, seat = plan
            wait = at - self.hub.clock()
            if wait > 0:
                try:
                    async with asyncio.timeout(wait):  # (wait_for may swallow a cancel in 3.11)
                        await live.changed.wait()
                    continue  # something changed: plan again
                except TimeoutError:
                    pass
            if live.changed.is_set():
                continue
            try:
                await self.step(room, live, what, seat)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a bot or storage failure: note it, retry after a pause
                self.hub.note(f"room {room.code}: {what} for seat {seat}: {type(e).__name__}: {e}",
                           trace=not isinstance(e, (SQLAlchemyError, RoomError)))
                await asyncio.sleep(1.0)

    async def bots_in_window(self, room: Room, live: Live) -> None:
        """Every bot seat in a settled trick's sluff window makes its moves, one after the other (a
        bot that sluffs is asked again), after the one ``bot_delay`` the driver waited: under the
        every-seat protocol each seat with cards is in the window, so bots waiting a delay each would
        hold up every trick."""
        while room.is_settled_window():
            state = room.state
            assert state is not None
            away = self.away(room, live)
            bots = [s for s in room.pending_seats() if self.bot_of_seat(room, live, s, away) is not None]
            if not bots:
                return
            seat = bots[0]
            name = self.bot_of_seat(room, live, seat, away) or room.spec.fill_bot
            key = (room.game, room.seq)
            action = await self.hub.pool.choose(name, self.hub.rng.randrange(2**31), view_of(state, seat),
                                            state.legal_actions(seat))
            async with live.lock:
                if (room.game, room.seq) != key or room.status != "playing":
                    return  # the table moved on while the bot was thinking
                checked = room.check_bot_act(seat, str(action))
                await self.hub.commit(room, "act", checked.payload, action=checked.action)
                self.hub.metrics.moved("bot")
                self.hub.broadcast(room, live)

    async def step(self, room: Room, live: Live, what: str, seat: int) -> None:
        """Make the planned move ``what`` (:meth:`plan`) for ``seat``; nothing if the table moved on
        meanwhile.  Raises what :meth:`DriverHost.commit` raises."""
        state = room.state
        assert state is not None
        key = (room.game, room.seq)
        moves: list[tuple[int, str]] = []
        if what == "bot" and room.is_settled_window():
            await self.bots_in_window(room, live)
            return
        if what == "chance":
            moves = [(CHANCE, str(state.chance_action(self.hub.rng)))]
        elif what in ("bot", "timeout"):
            away = self.away(room, live)
            name = self.bot_of_seat(room, live, seat, away) or room.spec.fill_bot
            view = view_of(state, seat)
            legal = state.legal_actions(seat)
            action = await self.hub.pool.choose(name, self.hub.rng.randrange(2**31), view, legal)
            moves = [(seat, str(action))]
        elif what == "sluff-timeout":
            moves = [(s, "pass") for s in room.pending_seats()]
        else:  # away: nothing to do but plan again with the seat now played by a bot
            live.changed.set()
            self.hub.broadcast(room, live)
            return
        async with live.lock:
            if (room.game, room.seq) != key or room.status != "playing":
                return  # the table moved on while the bot was thinking
            for s, move in moves:
                if room.state is None or room.state.is_over:
                    break
                checked = room.check_bot_act(s, move)
                await self.hub.commit(room, "act", checked.payload, action=checked.action)
                kind = "bot" if what == "bot" else "chance" if what == "chance" else "timeout"
                self.hub.metrics.moved(kind)
            self.hub.broadcast(room, live)
