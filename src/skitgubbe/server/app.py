"""The web application: the page, a small JSON API to make and join rooms, the websocket.

HTTP routes (docs/server.md):

* ``GET /`` the table page; ``GET /static/...`` its script and style.
* ``GET /api/options`` presets (with their seat ranges and options), the house-rules builder's fields,
  bot names.
* ``POST /api/rules/check`` build house rules from a preset and changed options (the engine checks
  them; the answer holds their TOML); ``POST /api/rules/read`` read a house-rules TOML file.
* ``POST /api/twotables`` make two linked tables for 10 to 12 people (the Flurst page).
* ``GET /replay/{deal}`` the page with the replay of a finished deal; ``GET /api/deals/{deal}`` that
  replay, from the database; ``POST /api/records`` the replay of an uploaded game record.
* ``POST /api/rooms`` make a room; ``GET /api/rooms/{code}`` what the lobby shows;
  ``POST /api/rooms/{code}/join`` take an open seat.
* ``GET /openapi.json`` the OpenAPI schema of these routes, request bodies included.
* ``WS /ws`` the game: see :mod:`skitgubbe.server.protocol`.

Bad requests are answered ``{"error": code, "message": text}`` with status 400 (404 for
a room or deal that does not exist, 409 for a full table or a name already at it, 413 for an
oversized body, 429 for a client over its limit of rooms, 503 when the server cannot
take the room now).  A body is refused as soon as it is known to be too large: on its
declared ``Content-Length`` before anything is read, or as it streams in.  Websocket
connections are refused (before the handshake completes) from a page of another origin
and beyond a client's limit of connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

from ..engine.variants import PRESETS
from . import houserules
from .botpool import BotPool
from .hub import Client, Hub, Limits, TooManyRooms, client_key
from .presets import bot_label, describe
from .protocol import MAX_CHAT_CHARS, MAX_NAME_CHARS, ProtocolError, dumps, load_json_object
from .replays import MAX_RECORD_BYTES, record_replay
from .rooms import DIFFICULTIES, RoomError, available_bots
from .store import DEFAULT_DB_URL, Store

__all__ = ["create_app", "serve", "origin_allowed", "body_limit", "Application", "STATIC_DIR",
           "MAX_BODY_BYTES"]

STATIC_DIR = Path(str(files("skitgubbe.server") / "static"))
"""Where the page's files are (package data)."""

MAX_BODY_BYTES = 16_384
"""The largest HTTP request body accepted, in bytes."""

_STATUS = {"no-room": 404, "no-deal": 404, "full": 409, "name-taken": 409, "too-many-rooms": 429,
           "server": 503, "server-full": 503}


def _fail(code: str, message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


# -- request and answer bodies (validated by pydantic, published in /openapi.json) ---------------------


class NewRoom(BaseModel):
    """The body of ``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [
        {"name": "Ann", "preset": "goat", "players": 4, "seats": ["open", "easy", "random"],
         "turn_seconds": 30},
        {"name": "Bo", "house_rules": 'preset = "pagat"\n[options]\nforced_pickup = true\n', "players": 3,
         "seats": ["open", "open"]},
    ]})
    name: str = Field(description=f"the maker's display name, 1 to {MAX_NAME_CHARS} characters")
    preset: str | None = Field(None, description="a preset's name or alias; give this or house_rules")
    house_rules: str | None = Field(None, description="house rules, the TOML of a house-rules file")
    players: int = Field(3, description="seats at the table, within the rules' range")
    seats: list[str] = Field(default_factory=list,
                             description="for seats 1 to players-1: 'open' (for a friend) or a bot's name")
    turn_seconds: float = Field(0, description="the turn timer: 0 (off) or 5 to 600 seconds")
    sluff_seconds: float = Field(8, description="how long a settled trick waits for sluffs: 1 to 60 seconds")


class JoinRoom(BaseModel):
    """The body of ``POST /api/rooms/{code}/join``."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [{"name": "Cy"}]})
    name: str = Field(description=f"your display name, 1 to {MAX_NAME_CHARS} characters")


class NewTwoTables(BaseModel):
    """The body of ``POST /api/twotables``: two linked tables for 10 to 12 people (the Flurst page)."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [
        {"name": "Ann", "preset": "goat", "people": 11}]})
    name: str = Field(description=f"the maker's display name, 1 to {MAX_NAME_CHARS} characters")
    preset: str | None = Field(None, description="a preset's name or alias; give this or house_rules")
    house_rules: str | None = Field(None, description="house rules, the TOML of a house-rules file")
    people: int = Field(10, description="10 to 12: the winners and the losers table get 5 or 6 seats each")
    turn_seconds: float = Field(0, description="the turn timer: 0 (off) or 5 to 600 seconds")


class HouseRules(BaseModel):
    """The body of ``POST /api/rules/check``: house rules as the builder's form holds them."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [
        {"preset": "goat", "options": {"dreck_below": 5, "pick_up": "top-card", "name": "our-goat"}}]})
    preset: str = Field(description="the preset the rules start from (a name or alias)")
    options: dict[str, bool | int | str] = Field(
        default_factory=dict, description="the options changed, {option: value}; 'name' names the rules")


class Text(BaseModel):
    """The body of ``POST /api/rules/read`` (a house-rules TOML file) and ``POST /api/records`` (a game
    record, docs/record-format.md)."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [
        {"text": 'preset = "goat"\n[options]\ndreck_below = 5\n'}]})
    text: str = Field(description="the file's text")


class SeatToken(BaseModel):
    """A place at a table: the room's code, the player number and its seat token (shown once)."""

    room: str
    player: int
    token: str


class TwoTablesMade(SeatToken):
    """Two linked tables made: the maker's seat at the winners table, the ``session`` code and both
    ``rooms`` (the winners table's, then the losers table's)."""

    session: str
    rooms: list[str]


class RoomInfo(BaseModel):
    """What the lobby shows of a room."""

    room: str
    rules: str
    players: int
    status: str
    open: int
    seats: list[str]


class Refusal(BaseModel):
    """A refused request: ``error`` a code of :data:`skitgubbe.server.protocol.ERROR_CODES`,
    ``message`` what was wrong and what is allowed."""

    error: str
    message: str


_Body = TypeVar("_Body", bound=BaseModel)


def _request_body(model: type[BaseModel]) -> dict[str, Any]:
    """``openapi_extra`` publishing ``model`` as the JSON body of a route that reads its body itself."""
    return {"requestBody": {"required": True,
                            "content": {"application/json": {"schema": model.model_json_schema()}}}}


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    words = {400: "a bad request", 404: "no such room (or deal)",
             409: "the table is full, or the name is taken",
             413: f"a body over {MAX_BODY_BYTES} bytes", 429: "this client made too many rooms lately",
             503: "the server cannot take it now (the database refused it, or the server is full)"}
    return {s: {"model": Refusal, "description": words[s]} for s in statuses}


def body_limit(path: str) -> int:
    """The largest request body accepted on ``path``, in bytes: :data:`MAX_BODY_BYTES`, or
    :data:`~skitgubbe.server.replays.MAX_RECORD_BYTES` for an uploaded game record (``/api/records``)."""
    return MAX_RECORD_BYTES if path == "/api/records" else MAX_BODY_BYTES


async def _body(request: Request, model: type[_Body]) -> _Body:
    """The request body as ``model``: read as it streams in, and refused as soon as it passes
    :func:`body_limit` (a larger declared ``Content-Length`` was refused before, by
    :class:`Application`).  An empty body is ``{}``.

    Raises :class:`ProtocolError`: ``too-large``; what :func:`~skitgubbe.server.protocol.load_json_object`
    raises (``too-deep``, ``malformed``, ``bad-field``); ``bad-field`` for a field the model does not
    have, a missing one or one of the wrong type (the message names it and what it must be)."""
    raw = bytearray()
    limit = body_limit(request.url.path)
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise ProtocolError("too-large", f"the request body is limited to {limit} bytes")
    data = load_json_object(bytes(raw) or b"{}", max_bytes=limit, what="the request body",
                            example='{"name": "Ann"}')
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or "the body"
        if first["type"] == "extra_forbidden":
            raise ProtocolError("bad-field", f"unknown field {where!r:.40}; fields are "
                                f"{', '.join(model.model_fields)}") from None
        raise ProtocolError("bad-field", f"{where:.40}: {first['msg']}") from None


def create_app(
    db_url: str = DEFAULT_DB_URL,
    *,
    bot_workers: int = 2,
    bot_delay: float = 0.6,
    away_after: float = 30.0,
    rate: float = 20.0,
    burst: float = 40.0,
    limits: Limits | None = None,
    allowed_origins: Sequence[str] = (),
    store: Store | None = None,
) -> Application:
    """The ASGI application of ``skitgubbe serve`` (see :class:`Application`).

    Args:
        db_url: SQLAlchemy URL of the database (created tables if missing).
        bot_workers: bot processes (0: a thread, for tests).
        bot_delay: seconds a bot waits before it moves.
        away_after: seconds without a connection before a bot plays a player's seat.
        rate, burst: per-connection rate limit, messages a second and burst size.
        limits: rooms and connections per client, the most rooms, room expiry (default
            :class:`~skitgubbe.server.hub.Limits`).
        allowed_origins: origins (``"https://cards.example"``, or ``"*"`` for any) whose pages may
            open the websocket besides the server's own origin (:func:`origin_allowed`).
        store: the database already open (its lease taken, :func:`serve`) instead of ``db_url``;
            closed when the application stops, like one it opens itself.

    The hub (``app.state.hub``) is built when the application starts, which takes the database's
    lease (one server per database, :meth:`~skitgubbe.server.store.Store.acquire`) and replays
    every stored room; it raises what :class:`~skitgubbe.server.store.Store` raises for a database
    that cannot be reached, and :class:`~skitgubbe.server.store.LeaseHeld` when another server
    holds the database.  Stopping releases the lease.
    """
    limits = limits if limits is not None else Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = store if store is not None else await asyncio.to_thread(Store, db_url)
        pool = BotPool(bot_workers)
        hub = Hub(db, pool, bot_delay=bot_delay, away_after=away_after, limits=limits)
        try:
            await hub.load()
        except BaseException:
            await hub.close()
            pool.close()
            db.close()
            raise
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.close()
            pool.close()
            db.close()

    app = FastAPI(title="skitgubbe", description="The online table: make and join rooms (the game itself is "
                  "played over the websocket /ws, docs/server.md).", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/openapi.json")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.exception_handler(RoomError)
    async def room_error(_request: Request, e: RoomError) -> JSONResponse:
        headers = {"Retry-After": str(e.retry_after)} if isinstance(e, TooManyRooms) else None
        return _fail(e.code, str(e), _STATUS.get(e.code, 400), headers)

    @app.exception_handler(houserules.HouseRulesError)
    async def rules_error(_request: Request, e: houserules.HouseRulesError) -> JSONResponse:
        return JSONResponse({"error": e.code, "message": str(e), "fields": e.fields}, status_code=400)

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, e: ProtocolError) -> JSONResponse:
        return _fail(e.code, str(e), 413 if e.code == "too-large" else 400)

    @app.get("/", response_class=HTMLResponse)
    async def index() -> FileResponse:
        """The table page."""
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    @app.get("/replay/{deal}", response_class=HTMLResponse)
    async def replay_page(deal: str) -> FileResponse:
        """The page, opening the replay of finished deal ``deal`` (the page asks ``/api/deals/{deal}``)."""
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    @app.get("/api/deals/{deal}", responses=_refusals(404))
    async def stored_deal(deal: str, request: Request) -> dict[str, Any]:
        """The replay of finished deal ``deal``, from the database (it outlives its room): the
        ``replay`` message of a finished deal (docs/server.md)."""
        hub: Hub = request.app.state.hub
        return await asyncio.to_thread(hub.stored_deal, deal)

    @app.post("/api/records", openapi_extra=_request_body(Text), responses=_refusals(400, 413))
    async def record(request: Request) -> dict[str, Any]:
        """The replay of an uploaded game record (docs/record-format.md): the ``replay`` message of a
        finished deal, seats named "Seat 0", "Seat 1", ...; ``bad-record`` names the line at fault."""
        body = await _body(request, Text)
        return await asyncio.to_thread(record_replay, body.text)

    @app.post("/api/rules/check", openapi_extra=_request_body(HouseRules), responses=_refusals(400, 413))
    async def check_rules(request: Request) -> dict[str, Any]:
        """Build house rules from a preset and changed options, as the engine checks them: what the
        builder shows (``toml`` the house-rules file), or ``bad-rules`` with ``fields``, the options
        the engine's message names."""
        body = await _body(request, HouseRules)
        return houserules.build(body.preset, body.options).to_json()

    @app.post("/api/rules/read", openapi_extra=_request_body(Text), responses=_refusals(400, 413))
    async def read_rules(request: Request) -> dict[str, Any]:
        """Read a house-rules TOML file for the builder: the same answer as ``/api/rules/check``."""
        body = await _body(request, Text)
        return houserules.read(body.text).to_json()

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        """Presets with their seat ranges and a line about each, bot names (and how the page labels
        them) and difficulties, the longest chat line."""
        bots = available_bots()
        return {
            "presets": [{"name": name, "min_players": r.min_players, "max_players": r.max_players,
                         "description": describe(name, r), "loser_title": r.loser_title,
                         "options": r.options()}
                        for name, r in PRESETS.items()],
            "rule_fields": houserules.option_fields(),
            "bots": bots,
            "bot_labels": {b: bot_label(b) for b in bots},
            "difficulties": [d for d in DIFFICULTIES if d in bots],
            "max_chat": MAX_CHAT_CHARS,
            "max_name": MAX_NAME_CHARS,
        }

    @app.post("/api/rooms", response_model=SeatToken, openapi_extra=_request_body(NewRoom),
              responses=_refusals(400, 413, 429, 503))
    async def make_room(request: Request) -> dict[str, Any]:
        """Make a room; its maker is player 0."""
        body = await _body(request, NewRoom)
        hub: Hub = request.app.state.hub
        return await hub.create_room(
            body.name, client=client_key(request.client.host if request.client else None),
            preset=body.preset, house_rules=body.house_rules, players=body.players, seats=body.seats,
            turn_seconds=body.turn_seconds, sluff_seconds=body.sluff_seconds)

    @app.post("/api/twotables", response_model=TwoTablesMade, openapi_extra=_request_body(NewTwoTables),
              responses=_refusals(400, 413, 429, 503))
    async def make_two_tables(request: Request) -> dict[str, Any]:
        """Make two linked tables (the Flurst page, "Two tables"); the maker is player 0 of the
        winners table.  After each round the winners table's loser and the losers table's first
        player out change tables, and both tables deal again (docs/server.md)."""
        body = await _body(request, NewTwoTables)
        hub: Hub = request.app.state.hub
        return await hub.create_two_tables(
            body.name, client=client_key(request.client.host if request.client else None), people=body.people,
            preset=body.preset, house_rules=body.house_rules, turn_seconds=body.turn_seconds)

    @app.get("/api/rooms/{code}", response_model=RoomInfo, responses=_refusals(404))
    async def room_info(code: str, request: Request) -> dict[str, Any]:
        """What the lobby shows of room ``code``."""
        hub: Hub = request.app.state.hub
        return hub.room_info(code)

    @app.post("/api/rooms/{code}/join", response_model=SeatToken, openapi_extra=_request_body(JoinRoom),
              responses=_refusals(400, 404, 409, 413, 503))
    async def join(code: str, request: Request) -> dict[str, Any]:
        """Take the next open seat of room ``code``."""
        body = await _body(request, JoinRoom)
        hub: Hub = request.app.state.hub
        return await hub.join(code, body.name)

    return Application(app, rate=rate, burst=burst, limits=limits, allowed_origins=allowed_origins)


def origin_allowed(origin: str, host: str | None, allowed: Sequence[str] = ()) -> bool:
    """Whether a page from ``origin`` (a request's ``Origin`` header, ``"https://cards.example"``)
    may open the websocket of a server it reached as ``host`` (the ``Host`` header): when
    ``origin`` is one of ``allowed`` (``scheme://host[:port]``, compared without case; ``"*"``
    allows any), or is the same origin: its host and port are the ``Host`` header's, a missing
    port being 80 for ``http`` and 443 for ``https``.  ``"null"`` and anything that is not an
    ``http``/``https`` origin are refused."""
    wanted = origin.strip().lower().rstrip("/")
    if "*" in allowed or wanted in {a.strip().lower().rstrip("/") for a in allowed}:
        return True
    if host is None:
        return False
    try:
        page = urlsplit(wanted)
        if page.scheme not in ("http", "https") or not page.hostname:
            return False
        default = 443 if page.scheme == "https" else 80
        served = urlsplit("//" + host.strip().lower())
        return (page.hostname, page.port or default) == (served.hostname, served.port or default)
    except ValueError:  # a port that is not a number
        return False


class Application:
    """The ASGI application: the websocket ``/ws`` is served directly (the game's hot path, without
    the web framework's per-message layers); everything else, lifespan included, by the FastAPI app
    ``api``, except an HTTP request whose declared body is over :data:`MAX_BODY_BYTES`, refused
    with 413 before anything is read.  ``state`` is the FastAPI app's state (``state.hub`` once
    started).

    A websocket is refused before its handshake completes (status 403, ``bad-origin``) when its
    ``Origin`` header names another origin than the server's or one of ``allowed_origins``
    (programs that send no ``Origin`` are let in; browsers always send it), and (429,
    ``too-many-connections``) beyond ``limits.connections_per_client`` connections of one client
    (:func:`~skitgubbe.server.hub.client_key`).
    """

    def __init__(self, api: FastAPI, *, rate: float, burst: float, limits: Limits | None = None,
                 allowed_origins: Sequence[str] = ()) -> None:
        self.api = api
        self.rate = rate
        self.burst = burst
        self.limits = limits if limits is not None else Limits()
        self.allowed_origins = tuple(allowed_origins)
        self.connections: Counter[str] = Counter()  # open websockets per client key

    @property
    def state(self) -> Any:
        """The FastAPI app's ``state``."""
        return self.api.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            await self._websocket(scope, receive, send)
        elif scope["type"] == "http" and _declared_length(scope) > body_limit(scope["path"]):
            limit = body_limit(scope["path"])
            refusal = _fail("too-large", f"the request body is limited to {limit} bytes", 413,
                            {"Connection": "close"})
            await refusal(scope, receive, send)
        else:
            await self.api(scope, receive, send)

    async def _deny(self, scope: Scope, send: Send, status: int, code: str, message: str) -> None:
        """Refuse a websocket handshake: with an HTTP answer ``{"error", "message"}`` where the server
        can send one (the ASGI websocket denial response), else by closing it (1008)."""
        if "websocket.http.response" in (scope.get("extensions") or {}):
            body = dumps({"error": code, "message": message}).encode("utf-8")
            await send({"type": "websocket.http.response.start", "status": status,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (await receive())["type"] != "websocket.connect":
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is not None and not origin_allowed(origin, headers.get("host"), self.allowed_origins):
            await self._deny(scope, send, 403, "bad-origin",
                             f"pages from {origin[:60]!r} may not join this server's tables; open the "
                             "server's own page (or ask its operator to allow your origin)")
            return
        client = scope.get("client")
        key = client_key(client[0] if client else None)
        limit = self.limits.connections_per_client
        if limit and self.connections[key] >= limit:
            await self._deny(scope, send, 429, "too-many-connections",
                             f"one client may hold {limit} connections at once: close one first")
            return
        self.connections[key] += 1
        try:
            await self._serve_websocket(receive, send)
        finally:
            self.connections[key] -= 1
            if self.connections[key] <= 0:
                del self.connections[key]

    async def _serve_websocket(self, receive: Receive, send: Send) -> None:
        await send({"type": "websocket.accept"})
        hub: Hub = self.api.state.hub
        client = Client(rate=self.rate, burst=self.burst)

        async def pump() -> None:
            while True:
                text = await client.outbox.get()
                if text is None:
                    await send({"type": "websocket.close", "code": 1008})
                    return
                await send({"type": "websocket.send", "text": text})

        sender = asyncio.create_task(pump())
        try:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await hub.receive(client, raw)
                if sender.done():
                    break
        except OSError:  # the connection went away while sending
            pass
        finally:
            hub.disconnect(client)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender


def _declared_length(scope: Scope) -> int:
    """The ``Content-Length`` an HTTP request declares, in bytes (0 when it declares none: a chunked
    body is counted as it is read)."""
    for name, value in scope.get("headers") or ():
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:  # the server refuses such a request itself
                return 0
    return 0


GC_THRESHOLDS = (50_000, 20, 10)
"""The server's cyclic garbage collector thresholds (generation 0, 1, 2; see :func:`gc.set_threshold`)."""


def tune_gc() -> None:
    """Make the cyclic garbage collector run rarely, so it does not stall the event loop.

    A server with hundreds of live tables holds a large graph of objects; with Python's default
    thresholds a full collection ran every few seconds under load and paused every connection for
    200-400 ms (the 99th-percentile move latency of the load benchmark, docs/server.md "Load").
    Objects made before serving (modules, the app) are frozen out of collection, and
    :data:`GC_THRESHOLDS` collects the young generation every 50,000 net allocations instead of
    700.  Reference counting still frees all acyclic garbage at once.
    """
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve(db_url: str = DEFAULT_DB_URL, *, host: str = "127.0.0.1", port: int = 8000,
          bot_workers: int = 2, bot_delay: float = 0.6, limits: Limits | None = None,
          allowed_origins: Sequence[str] = ()) -> int:
    """Run the server until interrupted (uvicorn) on ``host``:``port``; returns 0.  Other
    arguments: see :func:`create_app`.  The database's lease is taken before the server starts and
    released when it stops (one server per database, docs/server.md "Running more than one
    server"): raises :class:`~skitgubbe.server.store.LeaseHeld` when another server holds it, what
    :class:`~skitgubbe.server.store.Store` raises when the database cannot be reached; then
    nothing was started."""
    import uvicorn

    store = Store(db_url)
    try:
        store.acquire()
        app = create_app(db_url, bot_workers=bot_workers, bot_delay=bot_delay, limits=limits,
                         allowed_origins=allowed_origins, store=store)
        tune_gc()
        uvicorn.run(app, host=host, port=port, ws_max_size=65_536, ws_per_message_deflate=False,
                    log_level="warning")
    finally:
        store.close()  # done already if the app started and stopped: harmless
    return 0
