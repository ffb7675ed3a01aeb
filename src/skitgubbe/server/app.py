"""The web application: the page, a small JSON API to make and join rooms, the websocket.

HTTP routes (docs/server.md):

* ``GET /`` the table page; ``GET /static/...`` its script and style, icon (``favicon.svg``) and web
  app manifest (``manifest.webmanifest``): sent with ``Cache-Control: no-cache`` and an ``ETag``
  (:data:`CACHE_CONTROL`), gzipped when the client accepts it (as JSON answers are).
* ``GET /api/options`` presets (with their seat ranges and options), the house-rules builder's fields,
  bot names.
* ``POST /api/rules/check`` build house rules from a preset and changed options (the engine checks
  them; the answer holds their TOML); ``POST /api/rules/read`` read a house-rules TOML file.
* ``POST /api/twotables`` make two linked tables for 10 to 12 people (the Flurst page).
* ``GET /replay/{deal}`` the page with the replay of a finished deal; ``GET /api/deals/{deal}`` that
  replay, from the database; ``POST /api/records`` the replay of an uploaded game record.
* ``GET /api/lessons`` the lessons of ``skitgubbe learn``; ``GET /api/lessons/{n}`` lesson ``n`` as a
  replay with the rule told at each step (:mod:`skitgubbe.server.lessons`).
* ``POST /api/rooms`` make a room; ``GET /api/rooms/{code}`` what the lobby shows;
  ``POST /api/rooms/{code}/join`` take an open seat.
* ``GET /openapi.json`` the OpenAPI schema of these routes, request bodies included.
* ``GET /healthz`` whether the server can serve (its database answers, it holds the database's
  lease): 200 or 503; ``GET /metrics`` its Prometheus metrics (:mod:`skitgubbe.server.metrics`).
  Neither is in the OpenAPI schema (they are for probes and scrapers, not for the page).
* ``WS /ws`` the game: see :mod:`skitgubbe.server.protocol`.

The texts a person reads in a JSON answer (the presets' lines and the bots' labels of
``/api/options``, the seats of ``/api/rooms/{code}``, the narration of a replay) are in the language
the request asks for: ``?lang=sv``, else its ``Accept-Language`` header (:func:`request_language`).
Refusals stay English; the page translates them by their ``code``.

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
import ipaddress
import logging
import math
import mimetypes
import multiprocessing
import os
from collections import Counter
from collections.abc import AsyncIterator, Collection, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect
from starlette.types import Receive, Scope, Send

from ..engine.i18n import LANGUAGES
from ..engine.record import RecordFormatError, loads
from ..engine.variants import PRESETS
from . import houserules, logs
from .botpool import BotPool, watch_parent
from .catalogs import page_catalog
from .howto import glossary, how_to_play, preset_rules, reader_language
from .hub import Client, Hub
from .lessons import lesson_list, lesson_replay
from .limits import ClientBuckets, Limits, RoomMoving, TooManyRooms, client_key
from .metrics import CONTENT_TYPE, Metrics
from .presets import bot_label, describe, lobby_games
from .protocol import MAX_CHAT_CHARS, MAX_NAME_CHARS, ProtocolError, dumps, load_json_object
from .replays import MAX_RECORD_BYTES, record_replay, stored_replay
from .rooms import DIFFICULTIES, RoomError, available_bots
from .store import DEFAULT_DB_URL, Store

log = logging.getLogger(__name__)

__all__ = ["create_app", "serve", "origin_allowed", "host_allowed", "public_origin", "body_limit",
           "Application", "HttpLimits", "STATIC_DIR", "MAX_BODY_BYTES", "CACHE_CONTROL", "GZIP_MIN_BYTES",
           "HEALTH_TIMEOUT"]

STATIC_DIR = Path(str(files("skitgubbe.server") / "static"))
"""Where the page's files are (package data)."""

MAX_BODY_BYTES = 16_384
"""The largest HTTP request body accepted, in bytes."""

CACHE_CONTROL = "no-cache"
"""The ``Cache-Control`` of the page and its files: a browser keeps them but asks again each time,
with the ``ETag`` (``If-None-Match``), and is answered ``304 Not Modified`` (no body) until a new
release changes the file.  The scripts import one another by plain names (``./render.js``), so
names with a version in them would not reach every import: revalidation never serves stale JS."""

GZIP_MIN_BYTES = 500
"""Answers of at least this many bytes (the page's files, JSON) are gzipped for a client that
accepts it (``Accept-Encoding: gzip``), by Starlette's ``GZipMiddleware``; the websocket is not."""

mimetypes.add_type("application/manifest+json", ".webmanifest")  # not in every system's table


class _StaticFiles(StaticFiles):
    """The page's files (:data:`STATIC_DIR`), each answered with :data:`CACHE_CONTROL`."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = CACHE_CONTROL
        return response


HEALTH_TIMEOUT = 2.0
"""Seconds ``GET /healthz`` waits for the database's answer to its trivial query before it says the
database did not answer (503)."""

_STATUS = {"no-room": 404, "no-deal": 404, "full": 409, "name-taken": 409, "too-many-rooms": 429,
           "server": 503, "server-full": 503, "room-moving": 503, "moved": 503}


def _fail(code: str, message: str, status: int = 400, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


def _log_refusal(request: Request | None, status: int, code: str, message: str) -> None:
    """One log line for a refused request: WARNING for a refusal by a limit (413, 429, 503), INFO for
    an ordinary one (a bad body, a room that does not exist)."""
    where = f"{request.method} {request.url.path}" if request is not None else "request"
    client = request.client.host if request is not None and request.client else "?"
    level = logging.WARNING if status in (413, 429, 503) else logging.INFO
    log.log(level, "refused %s from %s: %d %s: %.200s", where, client, status, code, message)


@dataclass(frozen=True)
class HttpLimits:
    """The limits of the costly HTTP routes (docs/server.md, "Limits"); a count of 0 turns it off.

    Attributes:
        replays_per_minute: replays one client (:func:`~skitgubbe.server.hub.client_key`) may ask
            for a minute (``POST /api/records``, ``GET /api/deals/{deal}``), in bursts of as many.
        rules_per_minute: the same for ``POST /api/rules/check`` and ``POST /api/rules/read``.
        misses_per_minute: requests naming a room or deal that does not exist one client may make
            a minute (``GET /api/rooms/{code}``, ``POST /api/rooms/{code}/join``,
            ``GET /api/deals/{deal}``); beyond it, every request naming a room or deal is refused
            until the count has refilled (so guessing codes reveals nothing more).
        replays_at_once: replays built at once, server-wide (each in a worker process, see
            ``replay_workers`` of :func:`create_app`); at least 1.
        replay_wait: seconds a replay request waits for its turn before it is refused (503 ``busy``).
        record_moves: the most moves an uploaded record may have.
        replay_bytes: the largest answer to an uploaded record, in bytes of JSON.
    """

    replays_per_minute: int = 10
    rules_per_minute: int = 120
    misses_per_minute: int = 30
    replays_at_once: int = 1
    replay_wait: float = 2.0
    record_moves: int = 3000
    replay_bytes: int = 4_000_000


class Refused(Exception):
    """A request refused by the transport or a limit: answered ``{"error": code, "message"}`` with
    ``status`` (and ``Retry-After: retry_after`` seconds when given)."""

    def __init__(self, code: str, message: str, status: int, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.retry_after = retry_after


def _replay_answer(kind: str, text: str, deal: str | None, data: dict[str, Any] | None,
                   most_moves: int, most_bytes: int, lang: str = "en") -> tuple[int, str, bytes]:
    """Build a replay in a worker: ``kind`` ``"record"`` (an uploaded record ``text``, at most
    ``most_moves`` moves and an answer of ``most_bytes``; 0: no limit) or ``"deal"`` (stored deal
    ``deal``, its ``data``), its texts in language ``lang``.  Returns ``(status, code, body)``: 200,
    ``""`` and the JSON of the ``replay`` message, or the status, the error code and the JSON refusal
    (never raises for a bad record: exceptions with arguments do not all cross a process boundary)."""
    try:
        if kind == "deal":
            assert deal is not None and data is not None
            message = stored_replay(deal, data, lang)
        else:
            if most_moves:
                try:
                    moves = len(loads(text).moves)
                except RecordFormatError as e:
                    raise RoomError("bad-record", str(e)) from None
                if moves > most_moves:
                    return _refusal(413, "too-large", f"a record may have at most {most_moves} moves; this "
                                    f"one has {moves}")
            message = record_replay(text, lang)
        body = dumps(message).encode("utf-8")
    except RoomError as e:
        return _refusal(_STATUS.get(e.code, 400), e.code, str(e))
    if kind == "record" and most_bytes and len(body) > most_bytes:
        return _refusal(413, "too-large", f"the replay of this record would be {len(body)} bytes; at most "
                        f"{most_bytes} are sent (a record with fewer moves)")
    return 200, "", body


_LANG_QUERY = Query("", description="the language of the texts a person reads (en, sv, nb, "
                    "fi); default: the Accept-Language header's")


def request_language(request: Request, asked: str = "") -> str:
    """The language a request asks for, one of :data:`~skitgubbe.engine.i18n.LANGUAGES`: ``asked``, its
    ``lang`` query parameter (``?lang=sv``; a tag such as ``sv-SE`` is read as its language), else its
    ``Accept-Language`` header (:func:`~skitgubbe.engine.i18n.pick_language`), else English.  A
    ``lang`` the table does not speak is passed over for the header, never refused."""
    return reader_language(asked, request.headers.get("accept-language"))


def _language_headers(response: Response, lang: str) -> None:
    """Say which language an answer is in (``Content-Language``) and that it depends on the
    request's ``Accept-Language`` (``Vary``, for caches)."""
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"


def _refusal(status: int, code: str, message: str) -> tuple[int, str, bytes]:
    return status, code, dumps({"error": code, "message": message}).encode("utf-8")


class _Replays:
    """Where replays are built: ``workers`` processes (``spawn``, started on first use), or one
    thread of this process for ``workers`` 0 (tests); at most ``at_once`` at a time, a request
    waiting ``wait`` seconds for its turn."""

    def __init__(self, workers: int, at_once: int, wait: float) -> None:
        if workers < 0:
            raise ValueError(f"replay_workers must be 0 or more, not {workers}")
        self.workers = workers
        self.wait = wait
        self.slots = asyncio.Semaphore(max(1, at_once))
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skitgubbe-replay")
            else:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=watch_parent, initargs=(os.getpid(),))
        return self._executor

    async def run(self, *args: Any) -> tuple[int, str, bytes]:
        """:func:`_replay_answer` ``(*args)`` in the pool, once a slot is free.  Raises
        :class:`Refused` ``busy`` (503) when none is free within ``wait`` seconds."""
        try:
            await asyncio.wait_for(self.slots.acquire(), self.wait)
        except TimeoutError:
            raise Refused("busy", "the server is building other replays; try again in a moment", 503,
                          max(1, math.ceil(self.wait))) from None
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool(), _replay_answer, *args)
        finally:
            self.slots.release()

    def close(self) -> None:
        """Stop the workers (running replays are abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


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
    seats: list[str] = Field(description="each seat's name: a player's, 'open seat' or a bot's")
    kinds: list[str] = Field(description="what each seat is: 'person', 'open' (to take) or 'bot'")


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
             413: f"a body over {MAX_BODY_BYTES} bytes (or a record too long to replay)",
             415: "a body that is not application/json",
             429: "this client is over a limit (rooms made, costly requests, rooms or deals not found)",
             503: "the server cannot take it now (the database refused it, the server is full or busy)"}
    return {s: {"model": Refusal, "description": words[s]} for s in statuses}


def body_limit(path: str) -> int:
    """The largest request body accepted on ``path``, in bytes: :data:`MAX_BODY_BYTES`, or
    :data:`~skitgubbe.server.replays.MAX_RECORD_BYTES` for an uploaded game record (``/api/records``)."""
    return MAX_RECORD_BYTES if path == "/api/records" else MAX_BODY_BYTES


async def _body(request: Request, model: type[_Body]) -> _Body:
    """The request body as ``model``: read as it streams in, and refused as soon as it passes
    :func:`body_limit` (a larger declared ``Content-Length`` was refused before, by
    :class:`Application`).  An empty body is ``{}``.

    Raises :class:`Refused` ``bad-content-type`` (415) unless the ``Content-Type`` is
    ``application/json`` (so that a cross-site HTML form, which cannot send that type without the
    browser asking the server first, cannot post); :class:`ProtocolError`: ``too-large``; what
    :func:`~skitgubbe.server.protocol.load_json_object` raises (``too-deep``, ``malformed``,
    ``bad-field``); ``bad-field`` for a field the model does not have, a missing one or one of the
    wrong type (the message names it and what it must be); ``ClientDisconnect`` when the client goes
    away before its body is whole."""
    given = request.headers.get("content-type")
    if given is None or given.split(";")[0].strip().lower() != "application/json":
        raise Refused("bad-content-type", f"the request body must be JSON, sent with Content-Type "
                      f"application/json, not {given or 'none'!r:.60}", 415)
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
    public_urls: Sequence[str] = (),
    http_limits: HttpLimits | None = None,
    replay_workers: int = 1,
    store: Store | None = None,
    health_timeout: float = HEALTH_TIMEOUT,
    worker: str | None = None,
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
        public_urls: the addresses people open the site at (``"https://cards.example"``): their
            origins are the server's own and their host names are accepted in the ``Host`` header
            besides IP addresses and ``localhost`` (:func:`host_allowed`).
        http_limits: the limits of the costly HTTP routes (default :class:`HttpLimits`).
        replay_workers: processes that build replays (0: a thread, for tests).
        store: the database already open (its lease taken, :func:`serve`) instead of ``db_url``;
            closed when the application stops, like one it opens itself.
        health_timeout: seconds ``GET /healthz`` waits for the database (:data:`HEALTH_TIMEOUT`).
        worker: this worker's name in the room leases (default ``host:pid``); several workers may
            share one database, each room driven by one of them (docs/server.md, "Running more than
            one server").

    Raises ``ValueError`` for a public URL that is not an ``http``/``https`` URL with a host
    (:func:`public_origin`) or a negative ``replay_workers``.  The hub (``app.state.hub``) is built
    when the application starts, which takes the leases of the stored rooms no other worker drives
    (:meth:`~skitgubbe.server.hub.Hub.load`) and replays them; it raises what
    :class:`~skitgubbe.server.store.Store` raises for a database that cannot be reached.  Stopping
    gives every lease back.
    """
    limits = limits if limits is not None else Limits()
    http = http_limits if http_limits is not None else HttpLimits()
    public = [public_origin(url) for url in public_urls]
    if replay_workers < 0:
        raise ValueError(f"replay_workers must be 0 or more, not {replay_workers}")
    replays_per_client = ClientBuckets(http.replays_per_minute)
    rules_per_client = ClientBuckets(http.rules_per_minute)
    misses = ClientBuckets(http.misses_per_minute)
    replays: list[_Replays] = []  # made on the running loop (its semaphore), in the lifespan
    metrics = Metrics()  # this application's own registry (GET /metrics)
    pinging: list[asyncio.Future[None]] = []  # the health check's query in flight, shared by probes

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = store if store is not None else await asyncio.to_thread(
            lambda: Store(db_url, worker=worker, lease_expiry=limits.lease_expiry,
                          renew_every=limits.renew_every))
        pool = BotPool(bot_workers)
        hub = Hub(db, pool, bot_delay=bot_delay, away_after=away_after, limits=limits, metrics=metrics)
        hub.misses = misses  # a websocket's hello naming no room counts as a miss too
        try:
            await hub.load()
        except BaseException:
            await hub.close()
            pool.close()
            db.close()
            raise
        app.state.hub = hub
        replays.append(_Replays(replay_workers, http.replays_at_once, http.replay_wait))
        try:
            yield
        finally:
            replays.pop().close()
            await hub.close()
            pool.close()
            db.close()

    def key_of(request: Request) -> str:
        return client_key(request.client.host if request.client else None)

    def limit(buckets: ClientBuckets, request: Request, what: str) -> None:
        wait = buckets.wait(key_of(request))
        if wait is not None:
            raise Refused("rate-limited", f"one client may ask for {buckets.per_minute} {what} a minute; "
                          f"try again in {wait} s", 429, wait)

    def before_lookup(request: Request) -> str:
        """The client's key, once it is known not to be over its limit of misses."""
        key = key_of(request)
        wait = misses.wait(key, take=False)
        if wait is not None:
            raise Refused("too-many-misses", f"this client asked for {misses.per_minute} rooms or deals that "
                          f"do not exist within a minute; try again in {wait} s", 429, wait)
        return key

    def replay_response(answer: tuple[int, str, bytes], source: str) -> Response:
        status, code, body = answer
        if status == 200:
            metrics.replay_built(source)
        else:
            metrics.refusal("http", code)
        return Response(body, status_code=status, media_type="application/json")

    app = FastAPI(title="skitgubbe", description="The online table: make and join rooms (the game itself is "
                  "played over the websocket /ws, docs/server.md).", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/openapi.json")
    app.mount("/static", _StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN_BYTES)

    @app.exception_handler(RoomError)
    async def room_error(request: Request, e: RoomError) -> JSONResponse:
        headers = ({"Retry-After": str(e.retry_after)} if isinstance(e, (TooManyRooms, RoomMoving))
                   else None)
        status = _STATUS.get(e.code, 400)
        if e.code in ("no-room", "no-deal"):
            misses.wait(key_of(request))
        metrics.refusal("http", e.code)
        if e.code == "server":  # the database refused it
            log.error("refused %s %s: 503 server: %s", request.method, request.url.path, e, exc_info=e)
        else:
            _log_refusal(request, status, e.code, str(e))
        return _fail(e.code, str(e), status, headers)

    @app.exception_handler(houserules.HouseRulesError)
    async def rules_error(request: Request, e: houserules.HouseRulesError) -> JSONResponse:
        _log_refusal(request, 400, e.code, str(e))
        metrics.refusal("http", e.code)
        return JSONResponse({"error": e.code, "message": str(e), "fields": e.fields}, status_code=400)

    @app.exception_handler(ProtocolError)
    async def protocol_error(request: Request, e: ProtocolError) -> JSONResponse:
        status = 413 if e.code == "too-large" else 400
        _log_refusal(request, status, e.code, str(e))
        metrics.refusal("http", e.code)
        return _fail(e.code, str(e), status)

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Refused) -> JSONResponse:
        _log_refusal(request, e.status, e.code, str(e))
        metrics.refusal("http", e.code)
        headers = {"Retry-After": str(e.retry_after)} if e.retry_after is not None else None
        return _fail(e.code, str(e), e.status, headers)

    @app.exception_handler(ClientDisconnect)
    async def client_gone(request: Request, _e: ClientDisconnect) -> Response:
        log.info("%s %s from %s: the client went away before its body was whole", request.method,
                 request.url.path, request.client.host if request.client else "?")
        return Response(status_code=400)  # nobody reads it

    @app.exception_handler(Exception)
    async def server_error(request: Request, e: Exception) -> JSONResponse:
        # the traceback is logged once, by Application (the server's error middleware raises it again)
        metrics.refusal("http", "server")
        return _fail("server", "the server failed on this request (its log says why); nothing was changed "
                     "that it did not store", 500)

    async def database_answer(db: Store) -> tuple[str, str | None]:
        """``("ok", None)`` when the database answers ``SELECT 1`` within ``health_timeout`` seconds,
        else ``("error" or "timeout", what is wrong)``.  The query runs on a thread; a query still
        running (a database that hangs) is waited for again by the next probe, never run twice."""
        if not pinging or pinging[0].done():
            future = asyncio.ensure_future(asyncio.to_thread(db.ping))
            future.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved: not logged
            pinging[:] = [future]
        try:
            await asyncio.wait_for(asyncio.shield(pinging[0]), health_timeout)
        except TimeoutError:
            return "timeout", f"the database did not answer a trivial query within {health_timeout:g} s"
        except Exception as e:  # whatever the driver raises: the database cannot be used
            text = " | ".join(line.strip() for line in str(e).splitlines() if line.strip())
            return "error", f"the database failed a trivial query: {type(e).__name__}: {text:.300}"
        return "ok", None

    @app.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> JSONResponse:
        """Whether this worker can serve: 200 ``{"status": "ok", "database": "ok", "lease": true,
        "rooms": n}`` (the rooms this worker drives) when its database answers a trivial query and
        the renewals of its room leases are committing,
        else 503 with ``"status": "failing"``, ``"database"`` ``"error"`` or ``"timeout"``, ``"lease"``
        false and ``"problems"``, one sentence each.  No rate limit, no miss counted: for probes."""
        hub: Hub = request.app.state.hub
        database, problem = await database_answer(hub.store)
        problems = [problem] if problem is not None else []
        lease = hub.store.renewing and not hub.renewal_failing
        if not lease:
            problems.append(f"this worker's room leases are not being renewed (the last renewal failed, or "
                            f"none committed for {hub.store.lease_expiry:g} s): other workers take its rooms "
                            "over")
        body: dict[str, Any] = {"status": "failing" if problems else "ok", "database": database,
                                "lease": lease, "rooms": len(hub.rooms)}
        if problems:
            body["problems"] = problems
            log.warning("health check failing: %s", "; ".join(problems))
        return JSONResponse(body, status_code=503 if problems else 200, headers={"Cache-Control": "no-store"})

    @app.get("/metrics", include_in_schema=False)
    async def metrics_text(request: Request) -> Response:
        """The server's metrics in Prometheus's text format (docs/server.md, "Health and metrics")."""
        hub: Hub = request.app.state.hub
        metrics.set_rooms(room.status for room in hub.rooms.values())
        return Response(metrics.exposition(), media_type=CONTENT_TYPE, headers={"Cache-Control": "no-store"})

    @app.get("/", response_class=HTMLResponse)
    async def index() -> FileResponse:
        """The table page."""
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html",
                            headers={"Cache-Control": CACHE_CONTROL})

    @app.get("/replay/{deal}", response_class=HTMLResponse)
    async def replay_page(deal: str) -> FileResponse:
        """The page, opening the replay of finished deal ``deal`` (the page asks ``/api/deals/{deal}``)."""
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html",
                            headers={"Cache-Control": CACHE_CONTROL})

    @app.get("/api/deals/{deal}", responses=_refusals(404, 429, 503))
    async def stored_deal(deal: str, request: Request, lang: str = _LANG_QUERY) -> dict[str, Any]:
        """The replay of finished deal ``deal``, from the database (it outlives its room): the
        ``replay`` message of a finished deal (docs/server.md)."""
        before_lookup(request)
        limit(replays_per_client, request, "replays")
        hub: Hub = request.app.state.hub
        data = await asyncio.to_thread(hub.stored_deal, deal)
        answer = await replays[0].run("deal", "", deal, data, 0, 0, request_language(request, lang))
        return replay_response(answer, "deal")  # type: ignore[return-value]

    @app.post("/api/records", openapi_extra=_request_body(Text), responses=_refusals(400, 413, 415, 429, 503))
    async def record(request: Request, lang: str = _LANG_QUERY) -> dict[str, Any]:
        """The replay of an uploaded game record (docs/record-format.md): the ``replay`` message of a
        finished deal, seats named "Seat 0", "Seat 1", ...; ``bad-record`` names the line at fault."""
        body = await _body(request, Text)
        limit(replays_per_client, request, "replays")
        answer = await replays[0].run("record", body.text, None, None, http.record_moves, http.replay_bytes,
                                      request_language(request, lang))
        if answer[0] != 200:
            _log_refusal(request, answer[0], answer[1], answer[2].decode("utf-8", "replace"))
        return replay_response(answer, "record")  # type: ignore[return-value]

    @app.post("/api/rules/check", openapi_extra=_request_body(HouseRules),
              responses=_refusals(400, 413, 415, 429))
    async def check_rules(request: Request) -> dict[str, Any]:
        """Build house rules from a preset and changed options, as the engine checks them: what the
        builder shows (``toml`` the house-rules file), or ``bad-rules`` with ``fields``, the options
        the engine's message names."""
        body = await _body(request, HouseRules)
        limit(rules_per_client, request, "rule checks")
        return houserules.build(body.preset, body.options).to_json()

    @app.post("/api/rules/read", openapi_extra=_request_body(Text), responses=_refusals(400, 413, 415, 429))
    async def read_rules(request: Request) -> dict[str, Any]:
        """Read a house-rules TOML file for the builder: the same answer as ``/api/rules/check``."""
        body = await _body(request, Text)
        limit(rules_per_client, request, "rule checks")
        return houserules.read(body.text).to_json()

    @app.get("/api/catalog/{lang}", responses=_refusals(404))
    async def catalog(lang: str) -> Response:
        """The message catalog of language ``lang`` (``en``, ``sv``, ``nb``, ``fi``) as the page reads
        it (:func:`~skitgubbe.server.catalogs.page_catalog`); 404 ``no-language`` for another."""
        if lang not in LANGUAGES:
            return _fail("no-language", f"no catalog for {lang[:16]!r}: the languages are "
                         + ", ".join(LANGUAGES), 404)
        return JSONResponse(page_catalog(lang), headers={"Cache-Control": "no-cache"})

    # -- how to play: the table's rules and the glossary, in the reader's language (server/howto.py) --
    @app.get("/api/howto", responses=_refusals(400))
    async def howto_preset(request: Request, preset: str = "pagat", lang: str | None = None) -> Any:
        """How to play preset ``preset`` (:func:`~skitgubbe.server.howto.how_to_play`) in ``lang``, else
        the ``Accept-Language`` header's language; 400 ``bad-rules`` for an unknown name."""
        rules = preset_rules(preset)
        if rules is None:
            return _fail("bad-rules", f"there is no preset {preset[:40]!r}")
        return how_to_play(rules, request_language(request, lang or ""))

    @app.get("/api/rooms/{code}/howto", responses=_refusals(404, 429))
    async def howto_room(code: str, request: Request, lang: str | None = None) -> dict[str, Any]:
        """How to play room ``code``'s own rules (its preset or house rules), as ``/api/howto``."""
        before_lookup(request)
        hub: Hub = request.app.state.hub
        room = await hub.ensure_room(code)  # taken from the worker driving it, if another does
        return how_to_play(room.spec.rules, request_language(request, lang or ""))

    @app.get("/api/glossary")
    async def glossary_words(request: Request, lang: str | None = None) -> dict[str, str]:
        """The game words a player meets and what each means, ``{term: definition}``, both in ``lang``."""
        return glossary(request_language(request, lang or ""))

    # -- the lessons of ``skitgubbe learn`` at the table, as replays (server/lessons.py) --
    @app.get("/api/lessons")
    async def lessons(request: Request, response: Response, lang: str = _LANG_QUERY) -> dict[str, Any]:
        """The lessons, ``{"lessons": [{"n", "title", "source"}]}``
        (:func:`~skitgubbe.server.lessons.lesson_list`), their titles in the language asked for."""
        lang = request_language(request, lang)
        _language_headers(response, lang)
        return lesson_list(lang)

    @app.get("/api/lessons/{n}", responses=_refusals(404))
    async def lesson(n: str, request: Request, response: Response, lang: str = _LANG_QUERY) -> dict[str, Any]:
        """Lesson number ``n`` (1-based) as a replay with the rule told at every step
        (:func:`~skitgubbe.server.lessons.lesson_replay`); 404 ``no-deal`` for a number that is not a
        lesson's."""
        if not (n.isascii() and n.isdigit() and len(n) <= 3):
            raise RoomError("no-deal", f"there is no lesson {n!r:.20}: a lesson is named by its number")
        lang = request_language(request, lang)
        _language_headers(response, lang)
        return lesson_replay(int(n), lang)

    @app.get("/api/options")
    async def options(request: Request, response: Response, lang: str = _LANG_QUERY) -> dict[str, Any]:
        """The lobby's games (:func:`~skitgubbe.server.presets.lobby_games`: names, homes, pitches,
        recommended tables, variants and what each changes), presets with their seat ranges and a
        line about each, bot names (and how the page labels them) and difficulties, the longest
        chat line; person-read text in the language asked for (:func:`request_language`)."""
        lang = request_language(request, lang)
        _language_headers(response, lang)
        bots = available_bots()
        return {
            "lang": lang,
            "games": lobby_games(lang),
            "presets": [{"name": name, "min_players": r.min_players, "max_players": r.max_players,
                         "description": describe(name, r, lang), "loser_title": r.loser_title,
                         "options": r.options()}
                        for name, r in PRESETS.items()],
            "rule_fields": houserules.option_fields(lang),
            "bots": bots,
            "bot_labels": {b: bot_label(b, lang) for b in bots},
            "difficulties": [d for d in DIFFICULTIES if d in bots],
            "max_chat": MAX_CHAT_CHARS,
            "max_name": MAX_NAME_CHARS,
        }

    @app.post("/api/rooms", response_model=SeatToken, openapi_extra=_request_body(NewRoom),
              responses=_refusals(400, 413, 415, 429, 503))
    async def make_room(request: Request) -> dict[str, Any]:
        """Make a room; its maker is player 0."""
        body = await _body(request, NewRoom)
        hub: Hub = request.app.state.hub
        return await hub.create_room(
            body.name, client=key_of(request),
            preset=body.preset, house_rules=body.house_rules, players=body.players, seats=body.seats,
            turn_seconds=body.turn_seconds, sluff_seconds=body.sluff_seconds)

    @app.post("/api/twotables", response_model=TwoTablesMade, openapi_extra=_request_body(NewTwoTables),
              responses=_refusals(400, 413, 415, 429, 503))
    async def make_two_tables(request: Request) -> dict[str, Any]:
        """Make two linked tables (the Flurst page, "Two tables"); the maker is player 0 of the
        winners table.  After each round the winners table's loser and the losers table's first
        player out change tables, and both tables deal again (docs/server.md)."""
        body = await _body(request, NewTwoTables)
        hub: Hub = request.app.state.hub
        return await hub.create_two_tables(
            body.name, client=key_of(request), people=body.people,
            preset=body.preset, house_rules=body.house_rules, turn_seconds=body.turn_seconds)

    @app.get("/api/rooms/{code}", response_model=RoomInfo, responses=_refusals(404, 429))
    async def room_info(code: str, request: Request, response: Response,
                        lang: str = _LANG_QUERY) -> dict[str, Any]:
        """What the lobby shows of room ``code`` (its seats' words in the language asked for)."""
        before_lookup(request)
        hub: Hub = request.app.state.hub
        lang = request_language(request, lang)
        _language_headers(response, lang)
        await hub.ensure_room(code)  # taken from the worker driving it, if another does
        return hub.room_info(code, lang)

    @app.post("/api/rooms/{code}/join", response_model=SeatToken, openapi_extra=_request_body(JoinRoom),
              responses=_refusals(400, 404, 409, 413, 415, 429, 503))
    async def join(code: str, request: Request) -> dict[str, Any]:
        """Take the next open seat of room ``code``."""
        before_lookup(request)
        body = await _body(request, JoinRoom)
        hub: Hub = request.app.state.hub
        return await hub.join(code, body.name)

    return Application(app, rate=rate, burst=burst, limits=limits, allowed_origins=allowed_origins,
                       public_origins=[origin for origin, _ in public],
                       public_hosts=[host for _, host in public], metrics=metrics)


def _origin_key(text: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an ``http``/``https`` origin or URL (lower case, the default port
    written out), or None for anything else (``"null"``, another scheme, no host, a bad port)."""
    try:
        url = urlsplit(text.strip().lower())
        if url.scheme not in ("http", "https") or not url.hostname:
            return None
        return url.scheme, url.hostname, url.port or (443 if url.scheme == "https" else 80)
    except ValueError:  # a port that is not a number, or out of range
        return None


def public_origin(url: str) -> tuple[str, str]:
    """The origin (``"https://cards.example"``) and host name (``"cards.example"``) of ``url``, an
    address the site is opened at (``"https://cards.example/"``; a path is ignored).  Raises
    ``ValueError`` for anything but an ``http``/``https`` URL with a host."""
    key = _origin_key(url)
    if key is None:
        raise ValueError(f"{url[:80]!r} is not an http:// or https:// URL with a host (e.g. https://cards.example)")
    scheme, host, port = key
    shown = f"[{host}]" if ":" in host else host
    default = 443 if scheme == "https" else 80
    return (f"{scheme}://{shown}" if port == default else f"{scheme}://{shown}:{port}"), host


def host_allowed(host: str | None, names: Collection[str] = ()) -> bool:
    """Whether a request's ``Host`` header (``"127.0.0.1:8000"``, ``"cards.example"``) names this
    server: an IP address (a browser sends one only when its page's address was that address, so it
    cannot have been reached by a rebound DNS name), ``localhost``, or one of ``names`` (host names,
    without case).  A request without ``Host`` is let in (no browser sends one); a malformed
    header is refused."""
    if host is None:
        return True
    try:
        name = urlsplit("//" + host.strip().lower()).hostname
        urlsplit("//" + host.strip()).port  # noqa: B018 (raises ValueError for a bad port)
    except ValueError:
        return False
    if not name:
        return False
    if name == "localhost" or name in {n.lower() for n in names}:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def origin_allowed(origin: str, host: str | None, allowed: Sequence[str] = (), public: Sequence[str] = (),
                   names: Collection[str] = ()) -> bool:
    """Whether a page from ``origin`` (a request's ``Origin`` header, ``"https://cards.example"``)
    may open the websocket of a server it reached as ``host`` (the ``Host`` header): when
    ``origin`` is one of ``allowed`` or ``public`` (the server's own public origins; ``"*"`` in
    ``allowed`` allows any), compared as scheme, host and port (80 for ``http``, 443 for ``https``
    when none is written); or when it is the same origin as ``host`` and ``host`` passes
    :func:`host_allowed` with ``names`` (an IP address, ``localhost``, a public host name: never
    a name that only a rebound DNS record points here).  ``"null"`` and anything that is not an
    ``http``/``https`` origin are refused."""
    wanted = _origin_key(origin)
    if "*" in allowed:
        return True
    if wanted is None:
        return False
    if wanted in {_origin_key(a) for a in (*allowed, *public)}:
        return True
    if host is None or not host_allowed(host, names):
        return False
    served = _origin_key(f"{wanted[0]}://{host.strip()}")
    return served == wanted


class Application:
    """The ASGI application: the websocket ``/ws`` is served directly (the game's hot path, without
    the web framework's per-message layers); everything else, lifespan included, by the FastAPI app
    ``api``, except an HTTP request whose declared body is over :data:`MAX_BODY_BYTES`, refused
    with 413 before anything is read.  ``state`` is the FastAPI app's state (``state.hub`` once
    started).

    Every HTTP request and websocket whose ``Host`` header does not name this server
    (:func:`host_allowed` with ``public_hosts``: a DNS-rebinding page's) is refused with 400
    ``bad-host``.  A websocket is refused before its handshake completes (status 403,
    ``bad-origin``) when its ``Origin`` header names another origin than the server's own (its
    ``Host``, ``public_origins``) or one of ``allowed_origins`` (programs that send no ``Origin`` are
    let in; browsers always send it), and (429, ``too-many-connections``) beyond
    ``limits.connections_per_client`` connections of one client
    (:func:`~skitgubbe.server.hub.client_key`).  An exception no handler answered is logged with
    its traceback at ERROR (the client was answered 500 ``server``).  ``metrics``
    (:class:`~skitgubbe.server.metrics.Metrics`, default its own) counts the connections open and
    these refusals.
    """

    def __init__(self, api: FastAPI, *, rate: float, burst: float, limits: Limits | None = None,
                 allowed_origins: Sequence[str] = (), public_origins: Sequence[str] = (),
                 public_hosts: Sequence[str] = (), metrics: Metrics | None = None) -> None:
        self.api = api
        self.metrics = metrics if metrics is not None else Metrics()
        self.rate = rate
        self.burst = burst
        self.limits = limits if limits is not None else Limits()
        self.allowed_origins = tuple(allowed_origins)
        self.public_origins = tuple(public_origins)
        self.public_hosts = frozenset(h.lower() for h in public_hosts)
        self.connections: Counter[str] = Counter()  # open websockets per client key

    def _bad_host(self, host: str | None) -> str:
        return (f"this server does not answer to the host name {(host or '')[:60]!r}: open it by its IP "
                "address, as localhost, or by a name its operator gave with --public-url")

    @property
    def state(self) -> Any:
        """The FastAPI app's ``state``."""
        return self.api.state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            await self._websocket(scope, receive, send)
        elif scope["type"] == "http" and not host_allowed(host := Headers(scope=scope).get("host"),
                                                          self.public_hosts):
            message = self._bad_host(host)
            log.warning("refused %s %s: 400 bad-host: %s", scope.get("method"), scope["path"], message)
            self.metrics.refusal("http", "bad-host")
            await _fail("bad-host", message, 400)(scope, receive, send)
        elif scope["type"] == "http" and _declared_length(scope) > body_limit(scope["path"]):
            limit = body_limit(scope["path"])
            log.warning("refused %s %s: 413 too-large: declared %d bytes", scope.get("method"), scope["path"],
                        _declared_length(scope))
            self.metrics.refusal("http", "too-large")
            refusal = _fail("too-large", f"the request body is limited to {limit} bytes", 413,
                            {"Connection": "close"})
            await refusal(scope, receive, send)
        elif scope["type"] == "http":
            try:
                await self.api(scope, receive, send)
            except Exception:  # answered 500 by the error middleware; logged here once
                log.exception("%s %s failed", scope.get("method"), scope["path"])
        else:
            await self.api(scope, receive, send)

    async def _deny(self, scope: Scope, send: Send, status: int, code: str, message: str) -> None:
        """Refuse a websocket handshake: with an HTTP answer ``{"error", "message"}`` where the server
        can send one (the ASGI websocket denial response), else by closing it (1008)."""
        self.metrics.refusal("http", code)
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
        host = headers.get("host")
        if not host_allowed(host, self.public_hosts):
            log.warning("refused a websocket: 400 bad-host %.60r", host)
            await self._deny(scope, send, 400, "bad-host", self._bad_host(host))
            return
        origin = headers.get("origin")
        if origin is not None and not origin_allowed(origin, host, self.allowed_origins, self.public_origins,
                                                     self.public_hosts):
            log.warning("refused a websocket from origin %.60r: 403 bad-origin", origin)
            await self._deny(scope, send, 403, "bad-origin",
                             f"pages from {origin[:60]!r} may not join this server's tables; open the "
                             "server's own page (or ask its operator to allow your origin)")
            return
        client = scope.get("client")
        key = client_key(client[0] if client else None)
        limit = self.limits.connections_per_client
        if limit and self.connections[key] >= limit:
            log.warning("refused a websocket of %s: 429 too-many-connections (%d open)", key, limit)
            await self._deny(scope, send, 429, "too-many-connections",
                             f"one client may hold {limit} connections at once: close one first")
            return
        self.connections[key] += 1
        self.metrics.connections.inc()
        try:
            await self._serve_websocket(receive, send, key)
        finally:
            self.metrics.connections.dec()
            self.connections[key] -= 1
            if self.connections[key] <= 0:
                del self.connections[key]

    async def _serve_websocket(self, receive: Receive, send: Send, key: str) -> None:
        await send({"type": "websocket.accept"})
        hub: Hub = self.api.state.hub
        client = Client(rate=self.rate, burst=self.burst, key=key, outbox_bytes=self.limits.outbox_bytes)

        async def pump() -> None:
            while True:
                text = await client.take()
                if text is None:  # MOVED (4001, "moved"): reconnect at once, the table lives on elsewhere
                    await send({"type": "websocket.close", "code": client.close_code or 1008,
                                "reason": client.close_reason})
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


def trusted_proxies(addresses: Sequence[str]) -> list[str]:
    """``addresses`` (``"10.0.0.5"``, ``"10.0.0.0/24"``, ``"::1"``) as uvicorn's
    ``forwarded_allow_ips`` takes them.  Raises ``ValueError`` for one that is not an IP address or
    network."""
    out = []
    for text in addresses:
        try:
            out.append(str(ipaddress.ip_network(text.strip(), strict=False)))
        except ValueError:
            raise ValueError(f"{text[:60]!r} is not an IP address or network (e.g. 10.0.0.5 or "
                             "10.0.0.0/24)") from None
    return out


def serve(db_url: str = DEFAULT_DB_URL, *, host: str = "127.0.0.1", port: int = 8000,
          bot_workers: int = 2, bot_delay: float = 0.6, limits: Limits | None = None,
          allowed_origins: Sequence[str] = (), public_urls: Sequence[str] = (),
          trust_proxy: Sequence[str] = (), log_level: str = "info", worker: str | None = None) -> int:
    """Run the server until interrupted (uvicorn) on ``host``:``port``; returns 0.  The log goes to
    standard error from ``log_level`` up (:func:`skitgubbe.server.logs.configure`).

    ``trust_proxy``: the reverse proxies (IP addresses or networks, :func:`trusted_proxies`) whose
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` headers are believed; none by default, whatever
    uvicorn's own default or the ``FORWARDED_ALLOW_IPS`` environment variable say, so that a client
    cannot pass its limits by writing another address into the header.  ``worker``: this worker's
    name in the room leases (default ``host:pid``): several workers may share one database, each room
    driven by one of them at a time (docs/server.md "Running more than one server").  Other
    arguments: see :func:`create_app`.

    Raises ``ValueError`` for a bad ``trust_proxy`` or ``public_urls`` entry, what
    :class:`~skitgubbe.server.store.Store` raises when the database cannot be reached: then nothing
    was started."""
    import uvicorn

    proxies = trusted_proxies(trust_proxy)
    logs.configure(log_level)
    lim = limits if limits is not None else Limits()
    store = Store(db_url, worker=worker, lease_expiry=lim.lease_expiry, renew_every=lim.renew_every)
    try:
        app = create_app(db_url, bot_workers=bot_workers, bot_delay=bot_delay, limits=lim,
                         allowed_origins=allowed_origins, public_urls=public_urls, store=store)
        tune_gc()
        uvicorn.run(app, host=host, port=port, ws_max_size=65_536, ws_per_message_deflate=False,
                    log_level="warning", proxy_headers=bool(proxies), forwarded_allow_ips=proxies)
    finally:
        store.close()  # done already if the app started and stopped: harmless
    return 0
