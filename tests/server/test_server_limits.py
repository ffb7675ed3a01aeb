"""Issue 28: the transport's and the costly routes' limits (docs/server.md, "Limits" and "The Origin
check"): forwarded addresses believed only from configured proxies, the Host and Origin checks against
configured addresses, JSON bodies only as ``application/json``, bounded replays, room-code guessing,
abandoned bodies, a log line per refusal.

The proxy and disconnect tests run ``skitgubbe serve`` itself (a subprocess), since what they check is
how ``serve`` configures uvicorn."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from server_helpers import LiveServer, free_port, serve_process, wait_serving
from websockets.exceptions import InvalidStatus

from skitgubbe.engine.record import dumps, record_of
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.server import app as app_module
from skitgubbe.server.app import HttpLimits, host_allowed, origin_allowed, public_origin
from skitgubbe.server.protocol import ERROR_CODES

ROOM = {"name": "Ann", "preset": "pagat", "players": 3, "seats": ["easy", "easy"]}
EXAMPLES = Path(__file__).parents[2] / "examples"


def _serve(tmp_path: Path, *options: str,
           env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], str, Path]:
    """``skitgubbe serve`` on a free loopback port with ``options``; its process, base URL and the file
    its stderr goes to."""
    port = free_port()
    err = tmp_path / f"stderr-{port}.txt"
    proc = serve_process(f"sqlite:///{tmp_path}/s{port}.db", port, *options, env=env, output=err.open("wb"))
    return wait_serving(proc, port, err.read_text), f"http://127.0.0.1:{port}", err


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _ws_status(url: str, headers: dict[str, str]) -> int:
    async def go() -> int:
        try:
            ws = await websockets.connect(url, additional_headers=headers)
        except InvalidStatus as e:
            return int(e.response.status_code)
        await asyncio.sleep(0)
        sockets.append(ws)
        return 101

    return asyncio.run_coroutine_threadsafe(go(), loop).result(timeout=20)


loop = asyncio.new_event_loop()
threading.Thread(target=loop.run_forever, daemon=True).start()
sockets: list[Any] = []


def _close_sockets() -> None:
    async def go() -> None:
        for ws in sockets:
            await ws.close()
        sockets.clear()

    asyncio.run_coroutine_threadsafe(go(), loop).result(timeout=20)


# -- 1: X-Forwarded-For ----------------------------------------------------------------------------------


def test_forwarded_for_from_loopback_is_not_believed_unless_the_proxy_is_named(tmp_path: Path) -> None:
    """Rotating X-Forwarded-For from 127.0.0.1 once made 40 websockets against a limit of 32 and rooms
    past the per-client limit; FORWARDED_ALLOW_IPS must not bring it back."""
    proc, base, _ = _serve(tmp_path, "--rooms-per-client", "3", "--connections-per-client", "4",
                           env={"FORWARDED_ALLOW_IPS": "*"})
    try:
        statuses = [httpx.post(base + "/api/rooms", json=ROOM, headers={"X-Forwarded-For": f"203.0.113.{i}"},
                               timeout=10).status_code for i in range(5)]
        assert statuses == [200, 200, 200, 429, 429]
        ws = base.replace("http", "ws") + "/ws"
        opened = [_ws_status(ws, {"X-Forwarded-For": f"198.51.100.{i}"}) for i in range(6)]
        assert opened == [101, 101, 101, 101, 429, 429]
    finally:
        _close_sockets()
        _stop(proc)
    proc, base, _ = _serve(tmp_path, "--rooms-per-client", "3", "--trust-proxy", "127.0.0.1")
    try:
        statuses = [httpx.post(base + "/api/rooms", json=ROOM, headers={"X-Forwarded-For": f"203.0.113.{i}"},
                               timeout=10).status_code for i in range(5)]
        assert statuses == [200] * 5  # five clients behind the proxy
        same = [httpx.post(base + "/api/rooms", json=ROOM, headers={"X-Forwarded-For": "192.0.2.7"},
                           timeout=10).status_code for _ in range(4)]
        assert same == [200, 200, 200, 429]
    finally:
        _stop(proc)


def test_serve_trusts_no_proxy_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda asgi, **kw: seen.update(kw))
    monkeypatch.setattr(app_module, "create_app", lambda *a, **k: object())
    monkeypatch.setattr(app_module, "tune_gc", lambda: None)
    app_module.serve("sqlite://")
    assert (seen["proxy_headers"], seen["forwarded_allow_ips"]) == (False, [])
    app_module.serve("sqlite://", trust_proxy=["10.0.0.5", "10.1.0.0/16"])
    assert (seen["proxy_headers"], seen["forwarded_allow_ips"]) == (True, ["10.0.0.5/32", "10.1.0.0/16"])
    with pytest.raises(ValueError, match="not an IP address"):
        app_module.serve("sqlite://", trust_proxy=["proxy.example"])


# -- 2: Host and Origin ------------------------------------------------------------------------------------


def _raw_handshake(port: int, host: str, origin: str) -> tuple[int, dict[str, Any]]:
    request = (f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: {origin}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(4096)
        status = int(data.split(b" ", 2)[1])
        if status == 101:
            return status, {}
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        while len(body) < length:
            body += s.recv(4096)
        return status, json.loads(body)


def test_dns_rebinding_is_refused_by_the_host_check(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/a.db").start()
    named = LiveServer(f"sqlite:///{tmp_path}/b.db", public_urls=["https://cards.example"]).start()
    try:
        evil = f"rebind.evil.example:{server.port}"
        status, answer = _raw_handshake(server.port, evil, f"http://{evil}")
        assert (status, answer["error"]) == (400, "bad-host")
        r = httpx.get(server.http + "/api/options", headers={"Host": evil})
        assert (r.status_code, r.json()["error"]) == (400, "bad-host")
        assert "--public-url" in r.json()["message"]
        r = httpx.post(server.http + "/api/rooms", json=ROOM, headers={"Host": evil})
        assert r.status_code == 400 and r.json()["error"] == "bad-host"
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
            assert httpx.get(server.http + "/api/options", headers={"Host": host}).status_code == 200
            assert _raw_handshake(server.port, host, f"http://{host}")[0] == 101
        other = f"http://localhost:{server.port}"  # another origin than the Host's
        assert _raw_handshake(server.port, f"127.0.0.1:{server.port}", other)[0] == 403
        # the public name is answered, and its origin is the server's own whatever Host the proxy sends
        assert httpx.get(named.http + "/api/options", headers={"Host": "cards.example"}).status_code == 200
        assert _raw_handshake(named.port, f"127.0.0.1:{named.port}", "https://cards.example")[0] == 101
        assert _raw_handshake(named.port, "cards.example", "https://cards.example:443")[0] == 101
        assert _raw_handshake(named.port, "cards.example", "https://evil.example")[0] == 403
        assert _raw_handshake(named.port, evil, f"http://{evil}")[0] == 400
    finally:
        server.stop()
        named.stop()


def test_host_and_origin_rules() -> None:
    assert host_allowed("127.0.0.1:8000") and host_allowed("[::1]:8000") and host_allowed("192.168.1.5")
    assert host_allowed("LOCALHOST:8000") and host_allowed(None)
    assert not host_allowed("rebind.evil.example") and not host_allowed("localhost.evil.example")
    assert not host_allowed("127.0.0.1:x") and not host_allowed("")
    assert host_allowed("Cards.Example", {"cards.example"})
    assert origin_allowed("http://192.168.1.5:8000", "192.168.1.5:8000")
    assert not origin_allowed("http://evil.example:8000", "evil.example:8000")
    assert origin_allowed("https://cards.example", "127.0.0.1:8000", public=["https://cards.example/"])
    assert origin_allowed("https://friends.example", "127.0.0.1:8000", allowed=["https://friends.example"])
    assert origin_allowed("null", "127.0.0.1:8000", allowed=["*"])
    assert public_origin("HTTPS://Cards.Example:443/play") == ("https://cards.example", "cards.example")
    assert public_origin("http://[::1]:8080") == ("http://[::1]:8080", "::1")
    with pytest.raises(ValueError, match="not an http"):
        public_origin("cards.example")


# -- 3: form posts -----------------------------------------------------------------------------------------


def test_a_json_post_must_say_application_json(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/a.db").start()
    try:
        body = json.dumps(ROOM).encode()
        routes = ["/api/rooms", "/api/rules/check", "/api/rules/read", "/api/records", "/api/twotables",
                  "/api/rooms/ABCDEF/join"]
        for path in routes:
            for headers in ({"Content-Type": "text/plain"},
                            {"Content-Type": "application/x-www-form-urlencoded"},
                            {"Content-Type": "multipart/form-data; boundary=x"}, {}):
                r = httpx.post(server.http + path, content=body, headers=headers)
                answer = r.json()
                assert (r.status_code, answer["error"]) == (415, "bad-content-type"), (path, headers, r.text)
                assert "application/json" in answer["message"]
        r = httpx.post(server.http + "/api/rooms", content=body,
                       headers={"Content-Type": "Application/JSON; charset=utf-8"})
        assert r.status_code == 200, r.text
        assert len(server.hub.rooms) == 1  # only the last one made a room
    finally:
        server.stop()


# -- 4: replays of bounded cost ------------------------------------------------------------------------------


def _record(rules: Any, players: int, seed: int) -> str:
    rng = random.Random(seed)
    state = State.new(rules, players, dealer=0, seed=seed)
    while not state.is_over:
        seat = state.to_act if state.to_act >= 0 else -1
        action = state.chance_action(rng) if seat == -1 else rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
    return dumps(record_of(state))


def test_uploaded_records_are_bounded(tmp_path: Path) -> None:
    """The worst case (random play at 8 seats with two packs, 11,459 moves in 104 kB) is refused
    after parsing; a record within the limits is answered within the answer's limit."""
    worst = _record(parse_rules_file((EXAMPLES / "double-deck.toml").read_text()), 8, 1)
    assert len(worst) <= 131_072
    small = _record(find_variant("goat"), 4, 3)
    moves = small.split("moves:")[1].count("\n") - 2
    defaults = HttpLimits()
    server = LiveServer(f"sqlite:///{tmp_path}/a.db").start()  # the default limits, a worker process
    tight = LiveServer(f"sqlite:///{tmp_path}/b.db", replay_workers=0,
                       http_limits=HttpLimits(record_moves=moves - 5, replays_per_minute=0)).start()
    try:
        r = server.post("/api/records", {"text": worst})
        assert (r.status_code, r.json()["error"]) == (413, "too-large"), r.text[:300]
        assert f"at most {defaults.record_moves} moves" in r.json()["message"]
        r = server.post("/api/records", {"text": small})
        assert r.status_code == 200 and len(r.content) <= defaults.replay_bytes
        assert r.json()["type"] == "replay" and r.headers["content-type"] == "application/json"
        r = server.post("/api/records", {"text": "skitgubbe-record = 1\nnonsense\n"})
        assert (r.status_code, r.json()["error"]) == (400, "bad-record")
        r = tight.post("/api/records", {"text": small})
        assert (r.status_code, r.json()["error"]) == (413, "too-large")
    finally:
        server.stop()
        tight.stop()
    # the answer's size is checked too
    sized = LiveServer(f"sqlite:///{tmp_path}/c.db", replay_workers=0,
                       http_limits=HttpLimits(replay_bytes=10_000)).start()
    try:
        r = sized.post("/api/records", {"text": small})
        assert (r.status_code, r.json()["error"]) == (413, "too-large") and "10000" in r.json()["message"]
    finally:
        sized.stop()


def test_costly_routes_are_limited_per_client_and_replays_one_at_a_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = _record(find_variant("goat"), 3, 4)
    server = LiveServer(f"sqlite:///{tmp_path}/a.db", replay_workers=0,
                        http_limits=HttpLimits(replays_per_minute=2, rules_per_minute=3,
                                               replay_wait=0.3)).start()
    try:
        statuses = [server.post("/api/records", {"text": small}).status_code for _ in range(3)]
        assert statuses == [200, 200, 429]
        r = server.post("/api/records", {"text": small})
        assert r.json()["error"] == "rate-limited" and 1 <= int(r.headers["Retry-After"]) <= 30
        checks = [server.post("/api/rules/check", {"preset": "goat"}) for _ in range(2)]
        checks += [server.post("/api/rules/read", {"text": 'preset = "goat"\n'}) for _ in range(2)]
        assert [c.status_code for c in checks] == [200, 200, 200, 429]
        assert checks[-1].json()["error"] == "rate-limited" and int(checks[-1].headers["Retry-After"]) >= 1
    finally:
        server.stop()

    release = threading.Event()
    real = app_module._replay_answer

    def slow(*args: Any) -> Any:
        release.wait(20)
        return real(*args)

    monkeypatch.setattr(app_module, "_replay_answer", slow)
    server = LiveServer(f"sqlite:///{tmp_path}/b.db", replay_workers=0,
                        http_limits=HttpLimits(replay_wait=0.3)).start()
    try:
        first: list[httpx.Response] = []
        t = threading.Thread(target=lambda: first.append(server.post("/api/records", {"text": small})))
        t.start()
        time.sleep(0.3)
        r = server.post("/api/records", {"text": small})
        assert (r.status_code, r.json()["error"]) == (503, "busy") and r.headers["Retry-After"] == "1"
        release.set()
        t.join(20)
        assert first[0].status_code == 200
    finally:
        release.set()
        server.stop()


# -- 5: room-code guessing ----------------------------------------------------------------------------------


def test_guessing_room_codes_is_limited(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/a.db", http_limits=HttpLimits(misses_per_minute=5)).start()
    try:
        real = server.make_room(**ROOM)["room"]
        assert httpx.get(f"{server.http}/api/rooms/{real}").status_code == 200  # not a miss
        misses = [httpx.get(f"{server.http}/api/rooms/ZZZZZ{i}").status_code for i in range(3)]
        misses.append(httpx.post(f"{server.http}/api/rooms/ZZZZZZ/join", json={"name": "Bo"}).status_code)
        misses.append(httpx.get(f"{server.http}/api/deals/0123456789abcdef").status_code)
        assert misses == [404, 404, 404, 404, 404]
        for url in ("/api/rooms/ZZZZZ9", f"/api/rooms/{real}", "/api/deals/0123456789abcdef"):
            r = httpx.get(server.http + url)
            assert (r.status_code, r.json()["error"]) == (429, "too-many-misses"), url
            assert 1 <= int(r.headers["Retry-After"]) <= 12
        r = httpx.post(f"{server.http}/api/rooms/{real}/join", json={"name": "Bo"})
        assert (r.status_code, r.json()["error"]) == (429, "too-many-misses")
        # another client is not held back
        assert server.hub is not None
    finally:
        server.stop()


# -- 6: a body abandoned half-way ----------------------------------------------------------------------------


def test_a_body_abandoned_half_way_prints_no_traceback(tmp_path: Path) -> None:
    proc, base, err = _serve(tmp_path)
    try:
        port = int(base.rsplit(":", 1)[1])
        for path in ("/api/rooms", "/api/records", "/api/rules/read"):
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                          "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                          '{"name": "'.encode())
                time.sleep(0.2)
        time.sleep(0.5)
        assert httpx.get(base + "/api/options", timeout=10).status_code == 200
    finally:
        _stop(proc)
    text = err.read_text()
    assert "Traceback" not in text and "ClientDisconnect" not in text, text


# -- 7: a log line per refusal -------------------------------------------------------------------------------


def test_every_refusal_is_logged_and_a_server_error_with_its_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    caplog.set_level(logging.INFO, logger="skitgubbe.server.app")
    server = LiveServer(f"sqlite:///{tmp_path}/a.db", limits=app_module.Limits(rooms_per_client=1)).start()
    try:
        httpx.get(server.http + "/api/rooms/NOPE")
        httpx.post(server.http + "/api/rooms", content=b"{}", headers={"Content-Type": "text/plain"})
        server.post("/api/rooms", ROOM)
        server.post("/api/rooms", ROOM)  # over the limit

        def broken(*_a: Any) -> Any:
            raise RuntimeError("the builder broke")

        monkeypatch.setattr(app_module.houserules, "build", broken)
        r = server.post("/api/rules/check", {"preset": "goat"})
        assert (r.status_code, r.json()["error"]) == (500, "server")
    finally:
        server.stop()
    lines = [(rec.levelno, rec.getMessage()) for rec in caplog.records if rec.name == "skitgubbe.server.app"]
    miss = "refused GET /api/rooms/NOPE from 127.0.0.1: 404 no-room: there is no room 'NOPE'"
    assert (logging.INFO, miss) in lines
    assert any(level == logging.INFO and "415 bad-content-type" in m for level, m in lines), lines
    assert any(level == logging.WARNING and "429 too-many-rooms" in m for level, m in lines), lines
    errors = [rec for rec in caplog.records if rec.levelno == logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info and "POST /api/rules/check" in errors[0].getMessage()
    assert all("\n" not in m for _, m in lines)


def test_the_new_codes_are_protocol_codes() -> None:
    for code in ("bad-host", "bad-content-type", "too-many-misses", "busy", "rate-limited", "server"):
        assert code in ERROR_CODES
