"""Bots from outside and the ladder (docs/server.md, "Bots from outside", "The ladder"): bot accounts,
kept seats, the queue, the reference clients and the protocol's JSON Schema."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jsonschema")
import httpx  # noqa: E402
import jsonschema  # noqa: E402
from server_helpers import LiveServer, websockets  # noqa: E402
from sqlalchemy import create_engine, select  # noqa: E402

from skitgubbe.server.botdoor import LadderConfig  # noqa: E402
from skitgubbe.server.ladder import BotBook, accounts_table  # noqa: E402
from skitgubbe.server.protocol import ProtocolError  # noqa: E402
from skitgubbe.server.rooms import RoomError, hash_token  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())
CLIENT = jsonschema.Draft202012Validator({**SCHEMA, "anyOf": [{"$ref": "#/$defs/client"}]})
SERVER = jsonschema.Draft202012Validator({**SCHEMA, "anyOf": [{"$ref": "#/$defs/server"}]})
LADDER = LadderConfig(players=3, turn_seconds=5.0, wait=0.3, tick=0.05)


@pytest.fixture(params=["sqlite", "postgresql"])
def book(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BotBook]:
    """The bot accounts and ladder on an SQLite file and on PostgreSQL (its ladder tables emptied)."""
    url = (
        f"sqlite:///{tmp_path}/book.db"
        if request.param == "sqlite"
        else str(request.getfixturevalue("pg_url"))
    )
    b = BotBook(create_engine(url))
    b.drop_tables()
    yield b
    b.engine.dispose()


def test_only_the_tokens_hash_is_stored_and_a_bad_token_is_refused(book: BotBook) -> None:
    b = book
    token = b.add_bot("Rando")
    with b.engine.connect() as conn:
        rows = conn.execute(select(accounts_table)).all()
    assert len(rows) == 1 and rows[0].token_hash == hash_token(token) and token not in str(tuple(rows[0]))
    assert b.bot_of_token(token) == "Rando"
    with pytest.raises(RoomError) as e:
        b.bot_of_token(token + "x")
    assert e.value.code == "bad-token" and "skitgubbe bot add" in str(e.value)
    with pytest.raises(ProtocolError, match="already registered"):
        b.add_bot("rando")
    for bad in ("x", "counter", "Easy", "has space", "ümlaut", "a" * 25, "Seat 2"):
        with pytest.raises(ProtocolError):
            b.add_bot(bad)
    assert b.remove_bot("RANDO") and not b.remove_bot("Rando")
    with pytest.raises(RoomError):
        b.bot_of_token(token)


def test_ratings_move_the_right_way_after_a_known_result(book: BotBook) -> None:
    b = book
    b.record_game("00ff", "ROOM", ["A", "B", "counter"], ["outside", "outside", "builtin"], loser=1)
    board = {r.name: r for r in b.leaderboard()}
    assert board["B"].mu < 25 < board["A"].mu and board["A"].mu == board["counter"].mu
    assert board["B"].rank == 3 and (board["B"].games, board["B"].losses) == (1, 1)
    assert board["A"].last == [
        {"deal": "00ff", "replay": "/replay/00ff", "lost": False, "played": board["A"].last[0]["played"]}
    ]
    assert board["counter"].kind == "builtin" and board["A"].sigma < 25 / 3


def test_the_ladder_lock_is_held_by_one_worker(book: BotBook) -> None:
    b = book
    assert b.take_lock("one", now=100.0) and not b.take_lock("two", now=101.0)
    assert b.take_lock("one", now=102.0)  # renewed
    assert b.take_lock("two", now=102.0 + 16)  # expired: taken over
    b.release_lock("two")
    assert b.take_lock("one", now=120.0)


def test_the_cli_registers_lists_and_removes(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.db"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "skitgubbe.play.cli", "bot", *args, "--db", db],
            capture_output=True,
            text=True,
            timeout=60,
        )

    added = run("add", "Rando")
    assert added.returncode == 0, added.stderr
    token = added.stdout.split()[-1]
    assert BotBook(create_engine(db)).bot_of_token(token) == "Rando"
    assert run("add", "rando").returncode == 1 and "already registered" in run("add", "rando").stdout
    assert "Rando" in run("list").stdout
    assert run("remove", "Rando").returncode == 0 and run("remove", "Rando").returncode == 1


@pytest.fixture
def live(tmp_path: Path) -> Any:
    s = LiveServer(f"sqlite:///{tmp_path}/server.db", away_after=0.3, ladder=LADDER).start()
    yield s
    s.stop()


async def scripted_bot(
    url: str, hello: dict[str, Any], seen: list[tuple[str, dict[str, Any]]], *, extras: bool = False
) -> int:
    """A random bot that records every message it sends and receives; plays until its deal (or
    ladder match) is over; with ``extras`` it also pings, chats, sends a bad move and asks a replay."""
    rng = random.Random(1)
    n = moved = 0
    acted = -1
    asked: set[int] = set()

    async def send(ws: Any, msg: dict[str, Any]) -> None:
        seen.append(("client", msg))
        await ws.send(json.dumps(msg))

    async with websockets.connect(url, max_size=2**22) as ws:
        await send(ws, hello)
        if extras:
            await send(ws, {"type": "ping"})
        async for text in ws:
            msg = json.loads(text)
            seen.append(("server", msg))
            if msg["type"] == "error" and msg["code"] in ("bad-token", "not-invited", "bad-field"):
                return moved
            if msg["type"] == "ladder-over":
                return moved
            if msg["type"] in ("sync", "state"):
                table, me = msg["table"], msg["me"]
                if table["status"] == "over":
                    if "queue" not in hello:
                        break
                    if table["game"] not in asked:  # a replay would show the next deals' hands
                        asked.add(table["game"])
                        await send(ws, {"type": "replay"})
                    continue
                seq = table["public"]["seq"]
                if me and me["legal"] and seq != acted:
                    acted = seq
                    n += 1
                    if extras and n == 1:
                        await send(ws, {"type": "chat", "text": "hello from outside"})
                        await send(ws, {"type": "act", "n": 10**6, "move": "play XX"})
                        await send(ws, {"type": "lang", "lang": "sv"})
                        acted = -1
                        continue
                    await send(ws, {"type": "act", "n": n, "move": rng.choice(me["legal"])["move"]})
                    moved += 1
        if extras:
            await send(ws, {"type": "replay"})
            msg = json.loads(await ws.recv())
            seen.append(("server", msg))
            assert msg["type"] == "replay" and msg["deal"]
    return moved


def check_schema(seen: list[tuple[str, dict[str, Any]]]) -> set[str]:
    for side, msg in seen:
        errors = list((CLIENT if side == "client" else SERVER).iter_errors(msg))
        assert not errors, (side, msg.get("type"), [e.message[:300] for e in errors[:3]])
    return {f"{side}:{m['type']}" for side, m in seen}


def wait_over(server: LiveServer, code: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while server.hub.rooms[code].status != "over":
        assert time.monotonic() < deadline, "the deal did not finish"
        time.sleep(0.05)


def test_an_invited_bot_plays_its_seat_and_every_message_fits_the_schema(live: LiveServer) -> None:
    token = live.app.state.door.book.add_bot("Rando")
    r = live.post(
        "/api/rooms", {"name": "Ann", "preset": "goat", "players": 3, "seats": ["outside:Nobody", "open"]}
    )
    assert r.status_code == 400 and "not a registered outside bot" in r.json()["message"]
    room = live.make_room(preset="goat", players=3, seats=["outside:Rando", "counter"])
    code = room["room"]
    assert live.hub.rooms[code].open_slots() == [1]
    r = live.post(f"/api/rooms/{code}/join", {"name": "Bea"})  # a friend may not take the kept seat
    assert r.status_code == 409 and r.json()["error"] == "full"
    seen: list[tuple[str, dict[str, Any]]] = []
    wrong = asyncio.run(
        scripted_bot(live.ws, {"type": "hello", "bot_token": token, "room": code, "player": 2}, seen)
    )
    assert wrong == 0 and seen[-1][1]["code"] == "not-invited"
    bad = asyncio.run(
        scripted_bot(live.ws, {"type": "hello", "bot_token": "nope", "room": code, "player": 1}, seen)
    )
    assert bad == 0 and seen[-1][1]["code"] == "bad-token"
    moved = asyncio.run(
        scripted_bot(
            live.ws, {"type": "hello", "bot_token": token, "room": code, "player": 1}, seen, extras=True
        )
    )
    assert moved > 0 and live.hub.rooms[code].status == "over"
    assert live.hub.rooms[code].players[1].name == "Rando"
    kinds = check_schema(seen)
    assert {
        "client:hello",
        "client:act",
        "client:chat",
        "client:ping",
        "client:lang",
        "client:replay",
        "server:seated",
        "server:sync",
        "server:state",
        "server:error",
        "server:pong",
        "server:chat",
        "server:replay",
    } <= kinds


def test_a_bot_that_goes_away_is_played_for(live: LiveServer) -> None:
    token = live.app.state.door.book.add_bot("Quitter")
    code = live.make_room(preset="goat", players=3, seats=["outside:Quitter", "counter"])["room"]

    async def hello_and_go() -> dict[str, Any]:
        async with websockets.connect(live.ws) as ws:
            await ws.send(json.dumps({"type": "hello", "bot_token": token, "room": code, "player": 1}))
            return dict(json.loads(await ws.recv()))

    first = asyncio.run(hello_and_go())
    assert first["type"] == "seated"
    wait_over(live, code)  # the fill bot played Ann's seat and the bot's, once they were away
    assert live.hub.rooms[code].players[1].name == "Quitter"
    again = asyncio.run(hello_and_go())  # it comes back with its bot token: the same seat
    assert again["type"] == "seated" and again["token"] == first["token"] and again["player"] == 1


def test_queued_bots_play_a_rated_duplicate_match(live: LiveServer) -> None:
    door = live.app.state.door
    tokens = [door.book.add_bot(name) for name in ("Alpha", "Beta")]
    seen: list[tuple[str, dict[str, Any]]] = []

    async def both() -> list[int]:
        return list(
            await asyncio.gather(
                *(
                    scripted_bot(live.ws, {"type": "hello", "bot_token": t, "queue": "ladder"}, seen)
                    for t in tokens
                )
            )
        )

    moved = asyncio.run(asyncio.wait_for(both(), 120))
    assert all(moved)
    check_schema(seen)
    asked = sum(1 for side, m in seen if side == "client" and m["type"] == "replay")
    refused = [m for side, m in seen if m["type"] == "error" and m["code"] == "forbidden"]
    assert asked >= 2 and len(refused) == asked and "once the match is over" in refused[0]["message"]
    assert not any(m["type"] == "replay" for side, m in seen if side == "server")
    seated = [m for side, m in seen if m["type"] == "seated"]
    assert len(seated) == 2 and seated[0]["room"] == seated[1]["room"] and seated[0]["ladder"]
    room = live.hub.rooms[seated[0]["room"]]
    assert room.game == 3 and {p.name for p in room.players if p is not None} == {"Alpha", "Beta"}
    data = httpx.get(live.http + "/api/ladder", timeout=10).json()
    rows = {r["name"]: r for r in data["players"]}
    assert set(rows) == {"Alpha", "Beta", "counter"} and all(r["games"] == 3 for r in rows.values())
    assert sum(r["losses"] for r in rows.values()) == 3
    assert [r["rank"] for r in data["players"]] == [1, 2, 3]
    assert set(data["players"][0]) == {
        "rank",
        "name",
        "kind",
        "mu",
        "sigma",
        "ordinal",
        "games",
        "losses",
        "last",
    }
    deals = {g["deal"] for r in rows.values() for g in r["last"]}
    over = [m for side, m in seen if m["type"] == "ladder-over"]
    assert len(deals) == 3 and set(over[0]["deals"]) == deals
    for deal in deals:  # duplicate: one deck, three seatings; each deal replayable
        assert httpx.get(live.http + f"/api/deals/{deal}", timeout=10).status_code == 200
    page = httpx.get(live.http + "/ladder", timeout=10)
    assert page.status_code == 200 and "ladder.js" in page.text


def reference_client(live: LiveServer, command: list[str], name: str) -> None:
    token = live.app.state.door.book.add_bot(name)
    code = live.make_room(preset="goat", players=3, seats=["counter", f"outside:{name}"])["room"]
    out = subprocess.run(
        [*command, live.ws, "--token", token, "--room", code, "--player", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert int(out.stdout.split("moves sent:")[1]) > 0
    assert live.hub.rooms[code].status == "over" and live.hub.rooms[code].players[2].name == name


def test_the_python_reference_client(live: LiveServer) -> None:
    reference_client(live, [sys.executable, str(ROOT / "examples/bots/random_bot.py")], "PyBot")


@pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not installed (the JavaScript client needs it)"
)
def test_the_javascript_reference_client(live: LiveServer) -> None:
    version = int(
        subprocess.run(["node", "--version"], capture_output=True, text=True)
        .stdout.strip("v\n")
        .split(".")[0]
    )
    flags = ["--experimental-websocket"] if version < 22 else []
    reference_client(live, ["node", *flags, str(ROOT / "examples/bots/random_bot.mjs")], "JsBot")


def test_the_reference_clients_are_short() -> None:
    for name in ("random_bot.py", "random_bot.mjs"):
        assert len((ROOT / "examples/bots" / name).read_text().splitlines()) < 100


def test_a_bot_that_does_not_move_in_time_is_played_for(live: LiveServer) -> None:
    token = live.app.state.door.book.add_bot("Sleeper")
    room = live.make_room(
        preset="goat", players=3, seats=["outside:Sleeper", "counter"], turn_seconds=5, sluff_seconds=1
    )
    code = room["room"]

    async def connected_and_idle() -> list[str]:
        kinds = []
        async with websockets.connect(live.ws) as ws:
            await ws.send(json.dumps({"type": "hello", "bot_token": token, "room": code, "player": 1}))
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
                kinds.append(msg["type"])
                r = live.hub.rooms[code]
                if r.state is not None and any(seat == r.seat_of(1) for seat, _ in r.state.history):
                    return kinds  # the timer played for it, while it was connected and said nothing
        raise AssertionError("nobody played for the idle bot")

    kinds = asyncio.run(connected_and_idle())
    assert kinds[0] == "seated" and live.hub.rooms[code].players[1].name == "Sleeper"


@pytest.mark.skipif(
    shutil.which("node") is None, reason="node is not installed (the JavaScript client needs it)"
)
def test_the_javascript_client_plays_a_rated_ladder_match(live: LiveServer) -> None:
    token = live.app.state.door.book.add_bot("JsLadder")
    major = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip("v\n")
    flags = ["--experimental-websocket"] if int(major.split(".")[0]) < 22 else []
    out = subprocess.run(
        ["node", *flags, str(ROOT / "examples/bots/random_bot.mjs"), live.ws, "--token", token, "--ladder"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and int(out.stdout.split("moves sent:")[1]) > 0, out.stdout + out.stderr
    rows = {r["name"]: r for r in httpx.get(live.http + "/api/ladder", timeout=10).json()["players"]}
    assert rows["JsLadder"]["games"] == 3 and rows["JsLadder"]["kind"] == "outside"
    assert {"counter", "heuristic"} <= set(rows) and len(rows["JsLadder"]["last"]) == 3


def test_a_queued_bot_that_goes_away_leaves_the_queue(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/q.db", ladder=LadderConfig(wait=600.0)).start()
    try:
        door = server.app.state.door
        token = door.book.add_bot("Shy")

        async def queue_and_go() -> dict[str, Any]:
            async with websockets.connect(server.ws) as ws:
                await ws.send(json.dumps({"type": "hello", "bot_token": token, "queue": "ladder"}))
                answer = dict(json.loads(await ws.recv()))
                assert [q[1] for q in door.queue] == ["Shy"]
                return answer

        assert asyncio.run(queue_and_go()) == {"type": "queued", "queue": "ladder", "name": "Shy"}
        deadline = time.monotonic() + 10
        while door.queue:
            assert time.monotonic() < deadline, "the queue kept a bot that went away"
            time.sleep(0.05)
        assert not door.matches
    finally:
        server.stop()


def test_the_schema_names_every_error_code_the_server_sends() -> None:
    """The schema's ``error`` codes are exactly :data:`~skitgubbe.server.protocol.ERROR_CODES`, so
    neither goes stale when a refusal is added."""
    from skitgubbe.server.protocol import ERROR_CODES

    assert set(SCHEMA["$defs"]["server-error"]["properties"]["code"]["enum"]) == set(ERROR_CODES)
