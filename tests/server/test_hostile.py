"""Hostile input (issue 14): each defect found by probing the online table, pinned by a test, and
property-based fuzzing of the client-message parser and the HTTP bodies.

The property of every fuzz test: a documented refusal (``protocol.ERROR_CODES``, the HTTP status of
docs/server.md) or a valid result, never another exception, never a 500, never a dropped connection.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("websockets")

import httpx  # noqa: E402
import websockets  # noqa: E402
from hub_helpers import Clock, out, run, until  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from server_helpers import LiveServer, Player  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402
from websockets.exceptions import InvalidStatus  # noqa: E402

from skitgubbe.server import protocol  # noqa: E402
from skitgubbe.server.app import MAX_BODY_BYTES, create_app  # noqa: E402
from skitgubbe.server.botpool import BotPool  # noqa: E402
from skitgubbe.server.hub import Client, Hub, Limits, client_key  # noqa: E402
from skitgubbe.server.protocol import (  # noqa: E402
    CLIENT_TYPES,
    ERROR_CODES,
    MAX_CHAT_CHARS,
    MAX_JSON_DEPTH,
    MAX_MESSAGE_BYTES,
    MAX_NAME_CHARS,
    ClientMessage,
    ProtocolError,
    parse_client_message,
)
from skitgubbe.server.rooms import Room, RoomError  # noqa: E402
from skitgubbe.server.store import Store  # noqa: E402

JSON = {"content-type": "application/json"}
JSON_HEADER = [(b"content-type", b"application/json")]
HTTP_REFUSALS = {400, 404, 409, 413, 429, 503}
"""The statuses docs/server.md documents for a refused request."""


# -- helpers for the hub without HTTP --------------------------------------------------------


async def say_hello(hub: Hub, made: dict[str, Any]) -> Client:
    c = Client(rate=1000, burst=1000)
    await hub.receive(c, json.dumps({"type": "hello", "room": made["room"], "player": made["player"],
                                     "token": made["token"]}))
    assert out(c)[0]["type"] == "sync"
    return c


PAGAT3 = {"preset": "pagat", "house_rules": None, "players": 3}


# -- 3: websocket messages that dropped the connection ------------------------------------------


HOSTILE_MESSAGES = [
    ("[" * 1000 + "]" * 1000, "too-deep"),  # 2,000 bytes: RecursionError in the JSON parser
    ('{"type": "chat", "text": ' + "[" * 900 + "]" * 900 + "}", "too-deep"),
    ('{"type": []}', "unknown-type"),  # TypeError: unhashable
    ('{"type": {"a": 1}}', "unknown-type"),
    ('{"type": "chat", "text": "\\ud800 hi"}', "bad-field"),  # a lone surrogate: sending it back fails
    ('{"type": "act", "n": 1, "move": "\\udfff"}', "bad-field"),
    ('{"type": "ping", "\\ud800": 1}', "bad-field"),
    ('{"type": "act", "n": NaN, "move": "pass"}', "malformed"),  # not JSON: NaN is Python's extension
]


@pytest.mark.parametrize("raw, code", HOSTILE_MESSAGES)
def test_hostile_messages_are_refused_by_the_parser_with_a_documented_code(raw: str, code: str) -> None:
    assert len(raw.encode()) <= MAX_MESSAGE_BYTES
    with pytest.raises(ProtocolError) as e:
        parse_client_message(raw)
    assert e.value.code == code and code in ERROR_CODES
    assert len(str(e.value)) < 300  # says what is allowed, without echoing the whole message
    if code == "too-deep":
        assert f"{MAX_JSON_DEPTH} levels" in str(e.value)


def test_hostile_websocket_messages_get_an_error_and_the_connection_stays(server: LiveServer) -> None:
    made = server.make_room(preset="pagat", players=3, seats=["open", "easy"])

    async def main() -> None:
        p = Player(server.ws, made["room"], 0, made["token"])
        assert (await p.connect())["type"] == "sync"
        for raw, code in HOSTILE_MESSAGES:
            await p.ws.send(raw)
            msg = await p.recv(timeout=10)
            assert (msg["type"], msg["code"]) == ("error", code), raw[:40]
        await p.send({"type": "chat", "text": "still here"})
        while (msg := await p.recv(timeout=10))["type"] != "chat":
            pass
        assert msg["text"] == "still here"
        await p.send({"type": "ping"})
        while (msg := await p.recv(timeout=10))["type"] != "pong":
            pass
        await p.close()
    asyncio.run(main())
    assert server.hub.errors == []
    assert all("\ud800" not in line["text"] for line in server.hub.rooms[made["room"]].chat)


# -- 4: HTTP bodies and the texts a room stores -----------------------------------------------------


def test_a_deeply_nested_http_body_is_refused_with_400(server: LiveServer) -> None:
    deep = b"[" * 8000 + b"]" * 8000  # 16,000 bytes: under the size limit
    assert len(deep) <= MAX_BODY_BYTES
    made = server.make_room(preset="pagat", players=3, seats=["open", "easy"])
    for path in ("/api/rooms", f"/api/rooms/{made['room']}/join"):
        for body in (deep, b'{"name": ' + b"[" * 5000 + b"]" * 5000 + b"}"):
            r = httpx.post(server.http + path, content=body, headers=JSON)
            assert r.status_code == 400, (path, r.text)
            assert r.json()["error"] == "too-deep" and f"{MAX_JSON_DEPTH} levels" in r.json()["message"]


def test_no_path_stores_a_long_text(server: LiveServer) -> None:
    long = "x" * 16_000
    made = server.make_room(preset="pagat", players=3, seats=["open", "easy"])
    cases = [
        ("/api/rooms", {"name": long, "preset": "pagat", "players": 3, "seats": ["open", "easy"]},
         "bad-field", f"1 to {MAX_NAME_CHARS} characters"),
        (f"/api/rooms/{made['room']}/join", {"name": long}, "bad-field", f"1 to {MAX_NAME_CHARS} characters"),
        ("/api/rooms", {"name": "Ann", "players": 3, "seats": ["open", "easy"],
                        "house_rules": f'preset = "pagat"\nname = "{"n" * 15_000}"\n'}, "bad-rules", "name"),
        ("/api/rooms", {"name": "Ann", "players": 3, "seats": ["open", "easy"],
                        "house_rules": 'preset = "pagat"\nname = "' + "n" * 41 + '"\n'}, "bad-rules", "40"),
        ("/api/rooms", {"name": "Ann", "preset": "pagat", "players": 3, "seats": ["open", "easy"],
                        "colour": "red"}, "bad-field", "colour"),
    ]
    for path, body, code, words in cases:
        r = server.post(path, body)
        assert r.status_code == 400 and r.json()["error"] == code, (str(body)[:60], r.text[:200])
        assert words in r.json()["message"] and len(r.json()["message"]) < 400
    assert server.hub.room_info(made["room"])["seats"] == ["Ann", "open seat", "easy bot 2"]
    for room in server.hub.rooms.values():
        assert all(p is None or len(p.name) <= MAX_NAME_CHARS for p in room.players)
        assert len(room.spec.rules.name) <= 40

    async def chat() -> None:
        p = Player(server.ws, made["room"], 0, made["token"])
        await p.connect()
        for text in ("y" * (MAX_CHAT_CHARS + 1), "\x00\x07 bell"):
            await p.send({"type": "chat", "text": text})
            msg = await p.recv(timeout=10)
            assert (msg["type"], msg["code"]) == ("error", "bad-field")
            assert f"1 to {MAX_CHAT_CHARS} characters" in msg["message"]
        await p.close()
    asyncio.run(chat())
    assert server.hub.rooms[made["room"]].chat == []


def test_the_house_rules_name_is_capped_when_the_room_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's own cap, whatever the house-rules reader lets through."""
    import dataclasses

    from skitgubbe.engine.variants import find_variant
    from skitgubbe.server import rooms

    for name in ("n" * 16_000, "n" * (protocol.MAX_RULES_NAME_CHARS + 1), "bell\x07"):
        ruled = dataclasses.replace(find_variant("pagat"), name=name)
        monkeypatch.setattr(rooms, "parse_rules_file", lambda text, ruled=ruled: ruled)
        with pytest.raises(RoomError) as e:
            rooms.make_spec(preset=None, house_rules="(any)", players=3, seats=["open", "easy"])
        assert e.value.code == "bad-rules" and f"at most {protocol.MAX_RULES_NAME_CHARS}" in str(e.value)


# -- 7: oversized bodies are refused before they are read ---------------------------------------------


def _asgi_post(body_chunks: int, chunk: int,
               headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[str, Any], int]:
    """POST /api/rooms straight to the ASGI app with a body of ``body_chunks`` chunks; returns the
    status, the JSON answer and how many body bytes the app pulled."""
    app = create_app("sqlite://", bot_workers=0)  # never started: a refusal needs no hub
    pulled = 0
    sent: list[dict[str, Any]] = []
    left = body_chunks

    async def receive() -> dict[str, Any]:
        nonlocal pulled, left
        if left == 0:
            return {"type": "http.disconnect"}
        left -= 1
        pulled += chunk
        return {"type": "http.request", "body": b" " * chunk, "more_body": left > 0}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/rooms", "raw_path": b"/api/rooms", "query_string": b"",
             "root_path": "", "headers": [(b"host", b"127.0.0.1:8000"), *headers],
             "client": ("10.0.0.9", 5000),
             "server": ("testserver", 80)}
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), pulled


def test_a_body_declared_too_large_is_refused_without_reading_it() -> None:
    status, answer, pulled = _asgi_post(64, 65_536, [(b"content-length", str(64 * 2**20).encode()),
                                                     (b"content-type", b"application/json")])
    assert (status, answer["error"]) == (413, "too-large") and str(MAX_BODY_BYTES) in answer["message"]
    assert pulled == 0


def test_a_chunked_body_is_read_only_up_to_the_limit() -> None:
    status, answer, pulled = _asgi_post(64, 65_536, [(b"transfer-encoding", b"chunked"), *JSON_HEADER])
    assert (status, answer["error"]) == (413, "too-large")
    assert pulled <= MAX_BODY_BYTES + 65_536  # one chunk past the limit at most, not 4 MiB
    # a chunked body under the limit is read whole (and then refused for what it says)
    status, answer, pulled = _asgi_post(3, 1000, [(b"transfer-encoding", b"chunked"), *JSON_HEADER])
    assert (status, answer["error"], pulled) == (400, "malformed", 3000)


# -- 8: abuse limits ------------------------------------------------------------------------------------


def test_rooms_made_by_one_client_are_limited(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/s.db", limits=Limits(rooms_per_client=3)).start()
    try:
        for _ in range(3):
            server.make_room(preset="pagat", players=3, seats=["open", "easy"])
        r = server.post("/api/rooms", {"name": "Ann", "preset": "pagat", "players": 3,
                                       "seats": ["open", "easy"]})
        assert r.status_code == 429 and r.json()["error"] == "too-many-rooms", r.text
        assert "3 rooms" in r.json()["message"] and "Retry-After" in r.headers
        assert len(server.hub.rooms) == 3
    finally:
        server.stop()


def test_the_room_limit_is_per_client_and_per_window(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        for _ in range(2):
            await hub.create_room("Ann", client="10.0.0.1", seats=["open", "easy"], **PAGAT3)
        with pytest.raises(RoomError) as e:
            await hub.create_room("Ann", client="10.0.0.1", seats=["open", "easy"], **PAGAT3)
        assert e.value.code == "too-many-rooms"
        await hub.create_room("Bo", client="10.0.0.2", seats=["open", "easy"], **PAGAT3)  # another client
        at_once = [hub.create_room("Di", client="10.0.0.4", seats=["open", "easy"], **PAGAT3)
                   for _ in range(6)]
        many = await asyncio.gather(*at_once, return_exceptions=True)
        refused = [r for r in many if not isinstance(r, dict)]
        assert len(refused) == 4
        assert all(isinstance(r, RoomError) and r.code == "too-many-rooms" for r in refused)
        # an IPv6 client is one /64: its other addresses share its limit
        assert client_key("2001:db8::1") == client_key("2001:db8::ffff:1") != client_key("2001:db8:0:1::1")
        clock.t += 601  # the window has passed
        await hub.create_room("Ann", client="10.0.0.1", seats=["open", "easy"], **PAGAT3)
        assert len(hub.rooms) == 6
        with pytest.raises(RoomError) as e:  # the server's own ceiling
            await hub.create_room("Cy", client="10.0.0.3", seats=["open", "easy"], **PAGAT3)
        assert e.value.code == "server-full"
    run(tmp_path, body, limits=Limits(rooms_per_client=2, rooms_window=600, max_rooms=6))


def test_two_linked_tables_are_two_rooms_against_the_limits(tmp_path: Path) -> None:
    goat = {"people": 10, "preset": "goat", "house_rules": None}

    async def body(hub: Hub, clock: Clock) -> None:
        for _ in range(2):
            await hub.create_room("Ann", client="10.0.0.1", seats=["open", "easy"], **PAGAT3)
        with pytest.raises(RoomError) as e:  # one room left of three: two tables do not fit
            await hub.create_two_tables("Ann", client="10.0.0.1", **goat)
        assert e.value.code == "too-many-rooms" and "two tables are two rooms" in str(e.value)
        assert len(hub.rooms) == 2  # nothing was made
        made = await hub.create_two_tables("Bo", client="10.0.0.2", **goat)
        assert len(made["rooms"]) == 2 and len(hub.rooms) == 4
        with pytest.raises(RoomError) as e:  # both tables counted for Bo's client: one room left
            await hub.create_two_tables("Bo", client="10.0.0.2", **goat)
        assert e.value.code == "too-many-rooms"
        await hub.create_room("Cy", client="10.0.0.3", seats=["open", "easy"], **PAGAT3)
        with pytest.raises(RoomError) as e:  # the server's ceiling counts both tables too
            await hub.create_two_tables("Cy", client="10.0.0.3", **goat)
        assert e.value.code == "server-full" and len(hub.rooms) == 5
    run(tmp_path, body, limits=Limits(rooms_per_client=3, rooms_window=600, max_rooms=6))


def test_connections_of_one_client_are_limited(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/s.db", limits=Limits(connections_per_client=2)).start()

    async def main() -> None:
        a = await websockets.connect(server.ws)
        b = await websockets.connect(server.ws)
        with pytest.raises(InvalidStatus) as e:
            await websockets.connect(server.ws)
        assert e.value.response.status_code == 429
        assert json.loads(e.value.response.body)["error"] == "too-many-connections"
        await a.close()
        await asyncio.sleep(0.2)  # (the server notices the close; not a timing assertion)
        for _ in range(50):
            try:
                c = await websockets.connect(server.ws)
                break
            except InvalidStatus:
                await asyncio.sleep(0.1)
        await c.send('{"type": "ping"}')
        assert json.loads(await c.recv()) == {"type": "pong"}
        await b.close()
        await c.close()
    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_finished_and_idle_rooms_expire_from_memory_and_the_database(tmp_path: Path, db_url: str) -> None:
    limits = Limits(idle_after=3600, finished_after=900)
    codes: dict[str, str] = {}

    async def body(hub: Hub, clock: Clock) -> None:
        idle = await hub.create_room("Ann", seats=["open", "easy"], **PAGAT3)
        kept = await hub.create_room("Bo", seats=["open", "easy"], **PAGAT3)
        over = await hub.create_room("Cy", seats=["random", "random"], fill_bot="random", **PAGAT3)
        codes.update(idle=idle["room"], kept=kept["room"], over=over["room"])
        watcher = await say_hello(hub, kept)  # stays connected: its room is kept
        player = await say_hello(hub, over)
        await hub.receive(player, '{"type": "leave"}')  # the fill bot plays the deal to its end
        await until(lambda: hub.rooms[over["room"]].status == "over")
        hub.disconnect(player)
        assert await hub.expire_rooms() == []
        clock.t += 901
        assert await hub.expire_rooms() == [over["room"]]
        assert over["room"] not in hub.rooms and over["room"] not in hub.store.room_codes()
        clock.t += 3600
        assert await hub.expire_rooms() == [idle["room"]]
        assert set(hub.rooms) == {kept["room"]} == hub.store.room_codes()
        with pytest.raises(RoomError) as e:
            await hub.join(idle["room"], "Di")
        assert e.value.code == "no-room"
        await hub.receive(watcher, '{"type": "ping"}')  # the kept room's connection was never touched
        assert out(watcher) == [{"type": "pong"}]
        hub.disconnect(watcher)
        assert hub.errors == []
    run(tmp_path, body, db=db_url, limits=limits)

    async def reload() -> None:  # a restart replays only the room that was kept
        hub = Hub(Store(db_url), BotPool(0), limits=limits)
        assert await hub.load() == 1 and set(hub.rooms) == {codes["kept"]}
        await hub.close()
        hub.pool.close()
        hub.store.close()
    asyncio.run(reload())


def test_the_replay_is_cached_until_the_deal_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int | None] = []
    real = Room.replay_data

    def counting(self: Room, seat: int | None) -> dict[str, Any]:
        built.append(seat)
        return real(self, seat)

    monkeypatch.setattr(Room, "replay_data", counting)

    async def body(hub: Hub, clock: Clock) -> None:
        made = await hub.create_room("Ann", seats=["random", "random"], fill_bot="random", **PAGAT3)
        c = await say_hello(hub, made)
        await hub.receive(c, '{"type": "leave"}')
        room = hub.rooms[made["room"]]
        await until(lambda: room.status == "over")
        out(c)
        for _ in range(5):
            await hub.receive(c, '{"type": "replay"}')
        replays = [m for m in out(c) if m["type"] == "replay"]
        assert len(replays) == 5 and all(r == replays[0] for r in replays) and replays[0]["complete"]
        assert len(built) == 1
        await hub.receive(c, '{"type": "again"}')  # a new deal: the replay is built again
        await hub.receive(c, '{"type": "replay"}')
        assert len(built) == 2 and [m for m in out(c) if m["type"] == "replay"][-1]["game"] == 2
    run(tmp_path, body)


def test_websockets_from_another_origin_are_refused(tmp_path: Path) -> None:
    def origin_of(s: LiveServer) -> str:
        return f"http://127.0.0.1:{s.port}"

    async def status(url: str, origin: str | None) -> int:
        headers = {"Origin": origin} if origin is not None else {}
        try:
            ws = await websockets.connect(url, additional_headers=headers)
        except InvalidStatus as e:
            assert json.loads(e.response.body)["error"] == "bad-origin"
            return int(e.response.status_code)
        await ws.send('{"type": "ping"}')
        assert json.loads(await ws.recv()) == {"type": "pong"}
        await ws.close()
        return 101

    same = LiveServer(f"sqlite:///{tmp_path}/a.db").start()
    proxied = LiveServer(f"sqlite:///{tmp_path}/b.db", allowed_origins=["https://cards.example"]).start()
    try:
        assert asyncio.run(status(same.ws, None)) == 101  # programs send no Origin
        assert asyncio.run(status(same.ws, origin_of(same))) == 101  # the page itself
        assert asyncio.run(status(same.ws, "https://evil.example")) == 403
        assert asyncio.run(status(same.ws, "null")) == 403
        assert asyncio.run(status(same.ws, f"http://localhost:{same.port}")) == 403  # another host name
        assert asyncio.run(status(proxied.ws, "https://cards.example")) == 101
        assert asyncio.run(status(proxied.ws, "https://evil.example")) == 403
    finally:
        same.stop()
        proxied.stop()


# -- 9: names that impersonate --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["You", "you", " YOU ", "Ｙｏｕ", "Seat 2", "seat  3", "spectator",
                                  "Spectators", "easy bot 2", "Easy Bot 1", "random bot 0", "easy",
                                  "Heuristic", "hard", "ismcts", "ismcts-50ms", "Bo (you)", "bot 3"])
def test_names_that_read_as_the_interface_or_a_bot_are_refused(tmp_path: Path, name: str) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        with pytest.raises((ProtocolError, RoomError)) as e:
            await hub.create_room(name, seats=["open", "easy"], **PAGAT3)
        assert e.value.code == "bad-field" and "choose another name" in str(e.value)
        made = await hub.create_room("Ann", seats=["open", "easy"], **PAGAT3)
        with pytest.raises((ProtocolError, RoomError)) as e:
            await hub.join(made["room"], name)
        assert e.value.code == "bad-field" and "choose another name" in str(e.value)
    run(tmp_path, body)


def test_a_name_already_at_the_table_is_refused_and_spaces_are_folded(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        made = await hub.create_room("Ann \u00a0 Marie", seats=["open", "open", "open"], preset="goat",
                                     house_rules=None, players=4)
        room = hub.rooms[made["room"]]
        assert room.slot_name(0) == "Ann Marie"
        for twin in ("ann marie", " ANN\tMARIE ", "Ann Marie"):
            with pytest.raises(RoomError) as e:
                await hub.join(made["room"], twin)
            assert e.value.code == "name-taken" and "choose another name" in str(e.value)
        await hub.join(made["room"], "Bo")
        with pytest.raises(RoomError):
            await hub.join(made["room"], "BO")
        await hub.join(made["room"], "Ann")  # another name
        assert [p.name for p in room.players if p] == ["Ann Marie", "Bo", "Ann"]
    run(tmp_path, body)


def test_name_refusals_are_answered_with_400_or_409(server: LiveServer) -> None:
    r = server.post("/api/rooms", {"name": "You", "preset": "pagat", "players": 3, "seats": ["open", "easy"]})
    assert r.status_code == 400 and r.json()["error"] == "bad-field"
    made = server.make_room(preset="pagat", players=3, seats=["open", "easy"])
    r = server.post(f"/api/rooms/{made['room']}/join", {"name": "ann"})
    assert r.status_code == 409 and r.json()["error"] == "name-taken"


# -- 10: making a room while the database refuses writes ------------------------------------------------


def test_making_a_room_the_database_refuses_answers_503_server(server: LiveServer,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(rows: Any) -> None:
        raise OperationalError("INSERT INTO rooms", {}, Exception("database or disk is full"))

    monkeypatch.setattr(server.hub.store, "write", full_disk)
    body = {"name": "Ann", "preset": "pagat", "players": 3, "seats": ["open", "easy"]}
    r = server.post("/api/rooms", body)
    assert r.status_code == 503 and r.json()["error"] == "server", r.text
    assert "nothing changed" in r.json()["message"] and server.hub.rooms == {}
    r = server.post("/api/rooms", {**body, "seats": ["easy", "easy"]})  # the deal would start at once
    assert r.status_code == 503 and r.json()["error"] == "server" and server.hub.rooms == {}
    monkeypatch.undo()
    assert server.make_room(**body)["player"] == 0


# -- the documentation names every code ----------------------------------------------------------------


def test_every_error_code_is_documented() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    for code in ERROR_CODES:
        assert f"`{code}`" in doc, code


# -- property-based fuzzing ------------------------------------------------------------------------------


_scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                     st.floats(allow_nan=False), st.text(max_size=40))
_json = st.recursive(_scalars,
                     lambda inner: st.one_of(st.lists(inner, max_size=4),
                                             st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                     max_leaves=12)
_KEYS = ["type", "room", "player", "token", "spectate", "n", "move", "text", "roving"]
_messages = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300),
    _json.map(json.dumps),
    st.builds(lambda t, rest: json.dumps({"type": t, **rest}),
              st.one_of(st.sampled_from(CLIENT_TYPES), _json),
              st.dictionaries(st.sampled_from(_KEYS), _json, max_size=4)),
    st.builds(lambda k, o, c: o * k + '"x"' + c * k, st.integers(0, 1200), st.sampled_from(["[", '{"a":']),
              st.sampled_from(["]", "}"])),
    st.builds(lambda t, s: json.dumps({"type": t, "text": s, "move": s}), st.sampled_from(["chat", "act"]),
              st.text(alphabet=st.characters(codec=None), max_size=20)),
)


@settings(max_examples=1500, deadline=None)
@given(raw=_messages)
def test_fuzz_the_client_message_parser(raw: str | bytes) -> None:
    try:
        msg = parse_client_message(raw)
    except ProtocolError as e:
        assert e.code in ERROR_CODES and str(e)
        return
    assert isinstance(msg, ClientMessage) and msg.type in CLIENT_TYPES
    protocol.dumps({"type": msg.type, **msg.fields}).encode("utf-8")  # anything kept can be sent back


_tricky_text = st.text(alphabet='[]{}"\\ab\u00e9', max_size=8)


def _wrap(levels: list[bool], key: str, leaf: Any) -> Any:
    for as_list in levels:
        leaf = [leaf, key] if as_list else {key: leaf}
    return leaf


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=500, deadline=None)
@given(value=st.builds(_wrap, st.lists(st.booleans(), max_size=12), _tricky_text,
                       st.one_of(_tricky_text, st.integers(), st.none())))
def test_the_depth_check_agrees_with_the_json_parser(value: Any) -> None:
    """Brackets inside strings (escaped quotes and backslashes too) do not count; real nesting does."""
    data = {"v": value}
    try:
        loaded = protocol.load_json_object(json.dumps(data), max_bytes=10**6, what="x", example="{}")
    except ProtocolError as e:
        assert e.code == "too-deep" and _depth(data) > MAX_JSON_DEPTH
    else:
        assert loaded == data and _depth(data) <= MAX_JSON_DEPTH


_NAMES = st.one_of(st.text(max_size=30), st.sampled_from(["Ann", "you", "easy bot 1", "Seat 1", "x" * 30]))
_room_bodies = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(_NAMES, _json),
        "preset": st.one_of(st.sampled_from(["pagat", "goat", "mattis", "nope"]), _json),
        "house_rules": st.one_of(st.sampled_from(['preset = "goat"\n[options]\ndreck_below = 5\n',
                                                  'preset = "pagat"\nname = "x"\n', "preset = [", ""]),
                                 st.text(max_size=60), _json),
        "players": st.one_of(st.integers(-3, 12), _json),
        "seats": st.one_of(st.lists(st.sampled_from(["open", "easy", "random", "nope"]), max_size=9), _json),
        "turn_seconds": st.one_of(st.sampled_from([0, 5, 30, 600, 601]), st.floats(), _json),
        "sluff_seconds": st.one_of(st.sampled_from([1, 8, 60, 61]), st.floats(), _json),
        "extra": _json,
    },
)
_near_valid = st.builds(  # a good body with some fields replaced: reaches the rules, the limits, the store
    lambda change: {"name": "Ann", "preset": "goat", "players": 4, "seats": ["open", "easy", "random"],
                    **change},
    _room_bodies)
_bodies = st.one_of(
    _room_bodies.map(lambda d: json.dumps(d).encode()),
    _near_valid.map(lambda d: json.dumps(d).encode()),
    _json.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    st.builds(lambda k: b"[" * k + b"]" * k, st.integers(0, 8000)),
    st.builds(lambda k: b'{"name": ' + b"[" * k + b"]" * k + b"}", st.integers(0, 8000)),
)


def test_fuzz_the_http_bodies(tmp_path: Path) -> None:
    """Through a real server (uvicorn's HTTP parsing included)."""
    server = LiveServer(f"sqlite:///{tmp_path}/fuzz.db", away_after=3600.0,
                        limits=Limits(rooms_per_client=10**6, max_rooms=10**6)).start()
    with httpx.Client(base_url=server.http, timeout=30) as client:
        made = client.post("/api/rooms", json={"name": "Ann", "preset": "goat", "players": 8,
                                               "seats": ["open"] * 7}).json()

        @settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(body=_bodies, path=st.sampled_from(["/api/rooms", f"/api/rooms/{made['room']}/join",
                                                   "/api/rooms/NOPE99/join"]))
        def check(body: bytes, path: str) -> None:
            r = client.post(path, content=body, headers=JSON)
            answer = r.json()
            if r.status_code == 200:
                assert set(answer) == {"room", "player", "token"}
                return
            assert r.status_code in HTTP_REFUSALS, (r.status_code, r.text)
            assert answer["error"] in ERROR_CODES and answer["message"], answer

        try:
            check()
        finally:
            server.stop()
        assert server.hub.errors == []
