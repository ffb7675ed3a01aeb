"""The door for bots from outside: a program in any language takes a seat over the websocket.

A registered bot (``skitgubbe bot add NAME``; :class:`~skitgubbe.server.ladder.BotBook`) opens
``/ws`` like the page and says one of

* ``{"type": "hello", "bot_token": T, "room": CODE, "player": P}``: take seat ``P`` of room ``CODE``,
  kept for it by the room's maker (a seat ``"outside:NAME"`` in ``POST /api/rooms``);
* ``{"type": "hello", "bot_token": T, "queue": "ladder"}``: wait in the ladder's queue.

It is answered ``{"type": "seated", "room", "player", "name", "ladder"}`` once it has a seat (at once
for an invitation; for the queue after ``{"type": "queued", "queue": "ladder"}``, when the scheduler
has paired it), then the usual ``sync`` and ``state`` messages; it plays with ``act`` like the page.
After the last deal of a ladder match it is sent ``{"type": "ladder-over", "room", "deals"}``.
Its seat is a player's seat: the turn timer, and the fill bot once it has been away ``away_after``
seconds, play for it as for a person.

:class:`BotDoor` holds the queue and runs the ladder: every :attr:`BotDoor.tick` seconds, while this
worker holds the ladder's lock row (:meth:`~skitgubbe.server.ladder.BotBook.take_lock`), it seats the
queued bots of this worker at tables of :attr:`LadderConfig.players` seats (the rest built-in bots),
and plays a *duplicate match* there: one deck, dealt :attr:`LadderConfig.players` times with the seats
rotated, so each entrant plays each seat's hand of the same deal.  Its deals are rated (and shown on
the board, with their replays) once the match is over; until then nobody may see a replay of them,
which would show the next deals' hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse

from ..engine.cards import card_name
from . import protocol
from .hub import HELLO_REFUSALS
from .ladder import BotBook
from .rooms import Room, RoomError

if TYPE_CHECKING:
    from .hub import Client, Hub

__all__ = ["BotDoor", "LadderConfig", "OUTSIDE_PREFIX", "split_invites"]

log = logging.getLogger(__name__)

OUTSIDE_PREFIX = "outside:"
"""A seat of ``POST /api/rooms`` written ``"outside:NAME"`` is kept for the registered bot NAME."""

_HELLO_FIELDS = {"type": str, "bot_token": str, "room": str, "player": int, "queue": str, "lang": str}


@dataclass(frozen=True)
class LadderConfig:
    """How the ladder deals: ``preset`` (the rules), ``players`` (seats per table, also the deals
    of a match), ``fill`` (the built-in bots that fill seats no queued bot takes, in order),
    ``turn_seconds`` (the turn timer: a bot that does not move in time is played for), ``wait``
    (seconds a queued bot waits for other outside bots before it is seated with built-in ones) and
    ``tick`` (seconds between the scheduler's rounds)."""

    preset: str = "goat"
    players: int = 3
    fill: tuple[str, ...] = ("counter", "heuristic", "medium", "random")
    turn_seconds: float = 10.0
    wait: float = 3.0
    tick: float = 0.5


@dataclass
class _Match:
    room: str
    names: list[str]  # per slot: the entrant's name
    kinds: list[str]  # per slot: "outside" or "builtin"
    clients: list[Client]
    rated: int = 0  # deals of the match finished so far
    may_start: bool = True
    deals: list[str] = field(default_factory=list)
    results: list[tuple[str, list[str], list[str], int]] = field(default_factory=list)  # rated at the end


def split_invites(seats: list[str]) -> tuple[list[str], dict[int, str]]:
    """The seats of a room request with every ``"outside:NAME"`` made ``"open"``, and the kept seats
    (slot -> NAME; seats are slots 1, 2, ...)."""
    out, kept = [], {}
    for i, s in enumerate(seats, start=1):
        if isinstance(s, str) and s.startswith(OUTSIDE_PREFIX):
            kept[i] = s[len(OUTSIDE_PREFIX):]
            out.append("open")
        else:
            out.append(s)
    return out, kept


class BotDoor:
    """Outside bots' hellos, the kept seats, the ladder's queue and scheduler for ``hub``.

    Attach with ``hub.door = door`` (the hub then passes it a bot's ``hello``, asks it which seats
    are kept and lets it plan a ladder room's deals), then :meth:`start` it on the running loop."""

    def __init__(self, hub: Hub, book: BotBook, config: LadderConfig | None = None) -> None:
        self.hub = hub
        self.book = book
        self.config = config or LadderConfig()
        self.kept: dict[str, dict[int, str]] = book.invites()
        self.queue: list[tuple[float, str, Client]] = []
        self.matches: dict[str, _Match] = {}
        self.holder = secrets.token_hex(8)
        self.tokens: dict[tuple[str, int], str] = {}  # (room, slot) -> the seat token a bot was given
        self.task: asyncio.Task[None] | None = None
        self.rounds = 0

    # -- kept seats (POST /api/rooms) --------------------------------------------------------

    async def check_invites(self, kept: dict[int, str]) -> None:
        """Refuse a room whose kept seats (slot -> bot name, :func:`split_invites`) name a bot that
        is not registered, or one bot twice.  Raises :class:`~skitgubbe.server.rooms.RoomError`
        ``bad-table`` naming the seat."""
        seen: set[str] = set()
        for slot, name in kept.items():
            if name.casefold() in seen:
                raise RoomError("bad-table", f"seat {slot}: the bot {name!r:.40} is invited to another seat "
                                "already; a bot takes one seat")
            seen.add(name.casefold())
            if not await asyncio.to_thread(self.book.is_bot, name):
                raise RoomError("bad-table", f"seat {slot}: {name!r:.40} is not a registered outside bot "
                                "(the server's operator registers one with 'skitgubbe bot add NAME')")

    async def keep(self, code: str, kept: dict[int, str]) -> None:
        """Keep the seats ``kept`` (slot -> bot name) of the new room ``code`` for those bots."""
        if kept:
            await asyncio.to_thread(self.book.invite, code, kept)
            self.kept[code] = dict(kept)

    # -- hooks the hub calls ---------------------------------------------------------------

    def reserved(self, code: str) -> set[int]:
        """The slots of room ``code`` kept for invited bots (a friend's join passes them over)."""
        return set(self.kept.get(code, {}))

    def plan_deal(self, room: Room, payload: dict[str, Any]) -> dict[str, Any]:
        """The ``start`` payload of room ``room``'s next deal: unchanged for an ordinary room; for a
        ladder match the match's one deck, the seats rotated by the deals played.

        Raises :class:`~skitgubbe.server.rooms.RoomError` ``forbidden`` when a player asks for a
        ladder room's next deal (the ladder deals them itself) or the match is over."""
        match = self.matches.get(room.code)
        if match is None:
            return payload
        n = room.spec.players
        k = room.game
        if not match.may_start or k >= n:
            raise RoomError("forbidden", "the ladder deals its rooms' deals itself")
        match.may_start = False
        if k > 0 and room.state is not None:  # the deck of the match's first deal, again
            payload = {**payload, "deck": [card_name(c) for c in room.state.deck]}
        return {**payload, "seating": [(s + k) % n for s in range(n)],
                "leader": 0, "dealer": n - 1}

    def check_replay(self, room: Room) -> None:
        """Refuse the replay of a ladder room while its match is dealt: the replay of a finished deal
        shows every hand, which are the hands of the match's next deals.  Raises
        :class:`~skitgubbe.server.rooms.RoomError` ``forbidden`` then."""
        if room.code in self.matches:
            raise RoomError("forbidden", "a ladder match deals one deck several times: its replays are shown "
                            "once the match is over")

    def gone(self, client: Client) -> None:
        """Take ``client`` out of the ladder's queue: its connection has closed."""
        self.queue = [q for q in self.queue if q[2] is not client]

    async def intercept(self, client: Client, raw: str | bytes) -> bool:
        """Handle ``raw`` if it is a bot's ``hello`` (it carries ``bot_token``) from ``client``, which
        has not said hello yet; returns False for every other message (the hub handles it).  A
        refusal is answered with an ``error`` (``bad-field``, ``bad-token``, ``not-invited``, ``full``,
        ``no-room``, ``bad-request``) and changes nothing."""
        if b"bot_token" not in raw if isinstance(raw, bytes) else "bot_token" not in raw:
            return False
        try:
            data = protocol.load_json_object(
                raw, max_bytes=protocol.MAX_MESSAGE_BYTES, what="the message",
                example='{"type": "hello", "bot_token": "...", "queue": "ladder"}')
        except protocol.ProtocolError:
            return False  # the hub refuses it
        if data.get("type") != "hello" or "bot_token" not in data:
            return False
        try:
            await self._hello(client, data)
        except (RoomError, protocol.ProtocolError) as e:
            client.send({"type": "error", "code": e.code, "message": str(e)})
            client.hellos_refused += 1
            log.info("bot hello refused (%s) from %s: %s", e.code, client.key or "an unknown client", e)
            if client.hellos_refused >= HELLO_REFUSALS:
                client.close(f"{client.hellos_refused} hello messages refused", keep=True)
        return True

    async def _hello(self, client: Client, data: dict[str, Any]) -> None:
        for key, value in data.items():
            want = _HELLO_FIELDS.get(key)
            if want is None:
                raise protocol.ProtocolError("bad-field", f"hello: unknown field {key!r:.40}; a bot's hello "
                                             "has bot_token and either room and player, or queue")
            if isinstance(value, bool) or not isinstance(value, want):
                raise protocol.ProtocolError("bad-field", f"hello.{key} must be "
                                             f"{'an integer' if want is int else 'a string'}")
        lang = protocol.check_language(data.get("lang", "en"), "hello.lang")
        if len(data["bot_token"]) > 100:
            raise protocol.ProtocolError("bad-field", "hello.bot_token is too long to be real")
        name = await asyncio.to_thread(self.book.bot_of_token, data["bot_token"])
        if "queue" in data:
            if data["queue"] != "ladder" or "room" in data or "player" in data:
                raise protocol.ProtocolError("bad-field",
                                             "hello.queue must be 'ladder', without room or player")
            playing = next((m for m in self.matches.values() if name in m.names), None)
            if playing is not None and (playing.room, playing.names.index(name)) in self.tokens:
                slot = playing.names.index(name)  # back to its match (a new connection)
                playing.clients.append(client)
                await self.seat(client, playing.room, slot, name, self.tokens[playing.room, slot], lang=lang,
                                ladder=True)
                return
            if any(n == name for _, n, c in self.queue if not c.dropped) or playing is not None:
                raise RoomError("bad-request", f"{name} is already queued or playing on the ladder")
            client.lang = lang
            self.queue.append((self.hub.clock(), name, client))
            client.send({"type": "queued", "queue": "ladder", "name": name})
            return
        if "room" not in data or "player" not in data:
            raise protocol.ProtocolError("bad-field", "a bot's hello names room and player (the seat it was "
                                         "invited to), or queue: 'ladder'")
        code, slot = data["room"][:32], data["player"]
        if self.kept.get(code, {}).get(slot, "").casefold() != name.casefold():
            raise RoomError("not-invited", f"seat {slot} of room {code} is not kept for the bot {name}")
        token = secrets.token_urlsafe(24)
        room = self.hub.rooms.get(code)
        if room is None:
            raise RoomError("no-room", f"there is no room {code}")
        p = room.players[slot] if 0 <= slot < len(room.players) else None
        if p is not None and p.name == name:  # seated before: a reconnection
            if (code, slot) not in self.tokens:
                raise RoomError("bad-request", "this bot has taken that seat already: it comes back with a "
                                "person's hello and the seat token it was sent in 'seated'")
            token = self.tokens[code, slot]
        else:
            await self.hub.join(code, name, slot=slot, token=token)
        await self.seat(client, code, slot, name, token, lang=lang, ladder=False)

    async def seat(self, client: Client, code: str, slot: int, name: str, token: str, *, lang: str,
                   ladder: bool) -> None:
        """Tell ``client`` its seat (``seated``, with the seat ``token`` with which it may come back)
        and say the usual ``hello`` for it."""
        self.tokens[code, slot] = token
        client.send({"type": "seated", "room": code, "player": slot, "name": name, "token": token,
                     "ladder": ladder})
        await self.hub.receive(client, json.dumps({"type": "hello", "room": code, "player": slot,
                                                   "token": token, "lang": lang}))

    # -- the ladder ------------------------------------------------------------------------

    def start(self) -> None:
        """Start the scheduler on the running loop."""
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop the scheduler and give the ladder's lock back."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None
            try:
                await asyncio.to_thread(self.book.release_lock, self.holder)
            except Exception:  # noqa: BLE001
                log.warning("could not give the ladder's lock back", exc_info=True)

    async def _run(self) -> None:
        while True:
            try:
                await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 (the scheduler keeps running)
                log.exception("the ladder's scheduler failed a round")
            await asyncio.sleep(self.config.tick)

    async def step(self) -> None:
        """One round of the scheduler: rate finished deals, deal the next ones, seat the queue."""
        for code in list(self.matches):
            await self._follow(code)
        self.rounds += 1
        if self.rounds % 120 == 0:  # forget the seats of rooms that have expired
            self.tokens = {k: v for k, v in self.tokens.items() if k[0] in self.hub.rooms}
            self.kept = {k: v for k, v in self.kept.items() if k in self.hub.rooms}
        self.queue = [q for q in self.queue if not q[2].dropped and q[2].room is None]
        if not self.queue or not await asyncio.to_thread(self.book.take_lock, self.holder):
            return
        n = self.config.players
        if len(self.queue) < n and self.hub.clock() - self.queue[0][0] < self.config.wait:
            return
        group, self.queue = self.queue[:n], self.queue[n:]
        try:
            await self._begin([(name, client) for _, name, client in group])
        except RoomError as e:  # server-full, or the database refused the room: they wait again
            log.warning("the ladder could not seat %s: %s", ", ".join(q[1] for q in group), e)
            self.queue = [q for q in group if q[2].room is None] + self.queue

    async def _begin(self, group: list[tuple[str, Client]]) -> None:
        cfg = self.config
        fills = [b for b in cfg.fill][: cfg.players - len(group)]
        names = [g[0] for g in group] + fills
        seats = ["open"] * (len(group) - 1) + fills
        made = await self.hub.create_room(names[0], client=None, preset=cfg.preset, house_rules=None,
                                          players=cfg.players, seats=seats, turn_seconds=cfg.turn_seconds)
        code = made["room"]
        match = _Match(code, names, ["outside"] * len(group) + ["builtin"] * len(fills),
                       [c for _, c in group])
        self.matches[code] = match
        tokens = [made["token"]]
        for slot in range(1, len(group)):
            token = secrets.token_urlsafe(24)
            await self.hub.join(code, names[slot], slot=slot, token=token)
            tokens.append(token)
        log.info("ladder room %s: %s", code, ", ".join(names))
        for slot, (name, client) in enumerate(group):
            await self.seat(client, code, slot, name, tokens[slot], lang=client.lang, ladder=True)
        room = self.hub.rooms[code]
        if room.status != "lobby":  # dealt when the room was made: the match's first deal
            match.may_start = False
        else:
            await self.hub.start_next(code)

    async def _follow(self, code: str) -> None:
        match = self.matches[code]
        room = self.hub.rooms.get(code)
        if room is None:
            del self.matches[code]
            return
        state = room.state
        if room.status != "over" or room.game <= match.rated or state is None or state.loser is None:
            return
        names = [match.names[slot] for slot in room.seating]
        kinds = [match.kinds[slot] for slot in room.seating]
        deal = room.deal_id()
        match.results.append((deal, names, kinds, state.loser))
        match.rated = room.game
        match.deals.append(deal)
        if match.rated < room.spec.players:
            match.may_start = True
            await self.hub.start_next(code)
            return
        for result in match.results:  # rated (and shown on the board) only now: one deck, three deals
            await asyncio.to_thread(self.book.record_game, result[0], code, *result[1:])
        for c in match.clients:
            c.send({"type": "ladder-over", "room": code, "deals": match.deals})
        del self.matches[code]



def add_ladder_routes(app: FastAPI) -> None:
    """``GET /ladder`` (the leaderboard page, ``static/ladder.html``) and ``GET /api/ladder`` (its
    data: ``{"players": [LeaderRow...], "queued", "playing", "config"}``) on ``app``, whose
    ``state.door`` is the running :class:`BotDoor`."""
    static = Path(__file__).parent / "static"

    @app.get("/ladder", response_class=HTMLResponse)
    async def ladder_page() -> FileResponse:
        """The ladder's leaderboard page."""
        return FileResponse(static / "ladder.html", media_type="text/html",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/api/ladder")
    async def ladder_data(request: Request) -> dict[str, Any]:
        """The ladder: every entrant, best first, with its rating and latest games (docs/server.md,
        "The ladder")."""
        door: BotDoor = request.app.state.door
        rows = await asyncio.to_thread(door.book.leaderboard)
        cfg = door.config
        return {"players": [r.to_dict() for r in rows], "queued": len(door.queue),
                "playing": len(door.matches),
                "config": {"preset": cfg.preset, "players": cfg.players, "fill": list(cfg.fill),
                           "turn_seconds": cfg.turn_seconds}}
