"""HAProxy in front of workers (``skitgubbe.server.cluster``, ``deploy/haproxy.cfg``): the
configuration is valid and the deployed file is the generated one; with two stand-in workers (small
HTTP servers that say who they are), a room's requests all reach one worker, requests naming no room
go round-robin, a client cannot choose its worker, the client's address is forwarded, a dead worker's
rooms move to a live one, and the limits per client address hold at the proxy.  Skipped only when
Debian's haproxy is not installed (CI installs it)."""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from server_helpers import free_port

from skitgubbe.server.cluster import ROOM_HEADER, ProxyLimits, haproxy_config, rate_limited_file

HAPROXY = shutil.which("haproxy")
ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE_WORKERS = [("w1", "worker1:8000"), ("w2", "worker2:8000")]
COMPOSE_ERRORS = "/usr/local/etc/haproxy"

needs_haproxy = pytest.mark.skipif(HAPROXY is None,
                                   reason="needs Debian's haproxy (apt-get install haproxy; CI does)")


def test_the_deployed_configuration_is_the_generated_one() -> None:
    assert (DEPLOY / "haproxy.cfg").read_text() == haproxy_config(COMPOSE_WORKERS, errors_dir=COMPOSE_ERRORS)
    assert (DEPLOY / "429.http").read_bytes().decode() == rate_limited_file()
    head, body = rate_limited_file().split("\r\n\r\n")
    assert head.startswith("HTTP/1.1 429 ") and f"Content-Length: {len(body.encode())}" in head
    assert json.loads(body)["error"] == "rate-limited"


def test_a_config_needs_workers_with_plain_names() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        haproxy_config([])
    with pytest.raises(ValueError, match="letters, digits"):
        haproxy_config([("w 1", "127.0.0.1:1")])


@needs_haproxy
def test_haproxy_accepts_the_deployed_configuration(tmp_path: Path) -> None:
    text = (DEPLOY / "haproxy.cfg").read_text().replace(COMPOSE_ERRORS, str(DEPLOY))
    (tmp_path / "haproxy.cfg").write_text(text)
    done = subprocess.run([str(HAPROXY), "-c", "-f", str(tmp_path / "haproxy.cfg")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


class Stub:
    """A stand-in worker: answers every GET and POST with its name, the path, and the headers the
    proxy sent (``/healthz`` 200 while ``healthy``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.healthy = True
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def answer(self) -> None:
                if self.path == "/healthz" and not stub.healthy:
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                body = json.dumps({"worker": stub.name, "path": self.path,
                                   "room": self.headers.get(ROOM_HEADER),
                                   "forwarded": self.headers.get("X-Forwarded-For")}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = answer

            def log_message(self, *args: object) -> None:
                pass

        class Quiet(ThreadingHTTPServer):
            def handle_error(self, request: object, client_address: object) -> None:
                pass  # the proxy's checks and the limit test drop connections on purpose

        self.server = Quiet(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[str, list[Stub]]]:
    """HAProxy with the generated configuration in front of two stubs; its URL and the stubs."""
    if HAPROXY is None:
        pytest.skip("needs Debian's haproxy (apt-get install haproxy; CI does)")
    stubs = [Stub("w1"), Stub("w2")]
    port = free_port()
    (tmp_path / "429.http").write_text(rate_limited_file())
    (tmp_path / "haproxy.cfg").write_text(haproxy_config(
        [(s.name, f"127.0.0.1:{s.port}") for s in stubs], bind=f"127.0.0.1:{port}",
        limits=ProxyLimits(connections=6, rooms=3), errors_dir=str(tmp_path)))
    proc = subprocess.Popen([HAPROXY, "-db", "-f", str(tmp_path / "haproxy.cfg")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if len({httpx.get(url + "/healthz").json()["worker"] for _ in range(4)}) == 2:
                break
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("haproxy did not bring both stubs in: " + proc.communicate()[0].decode())  # killed
    yield url, stubs
    proc.terminate()
    proc.wait(5)
    for s in stubs:
        s.server.shutdown()


def worker_of(url: str, path: str, **headers: str) -> str:
    return str(httpx.get(url + path, headers=headers).json()["worker"])


def test_a_room_is_routed_to_one_worker_by_its_code(proxied: tuple[str, list[Stub]]) -> None:
    url, _ = proxied
    codes = [f"R{n:05d}" for n in range(24)]
    chosen = {}
    for code in codes:
        ways = {worker_of(url, f"/ws?room={code}"), worker_of(url, f"/api/rooms/{code}"),
                worker_of(url, f"/api/rooms/{code}/howto"),
                worker_of(url, f"/ws?lang=sv&room={code.lower()}"),
                worker_of(url, f"/api/rooms/{code}", **{ROOM_HEADER: "SOMETHING-ELSE"})}
        assert len(ways) == 1, (code, ways)  # every way of naming the room, in either case, one worker
        chosen[code] = ways.pop()
    assert set(chosen.values()) == {"w1", "w2"}  # the rooms are spread over both
    seen = httpx.get(url + "/api/rooms/ABCDEF", headers={ROOM_HEADER: "X"}).json()
    assert seen["room"] == "ABCDEF" and seen["forwarded"] == "127.0.0.1"


def test_requests_naming_no_room_go_round_robin(proxied: tuple[str, list[Stub]]) -> None:
    url, _ = proxied
    answers = [httpx.get(url + path).json() for path in ("/", "/api/options", "/ws", "/api/rooms/") * 2]
    assert {a["worker"] for a in answers} == {"w1", "w2"}
    assert all(a["room"] is None for a in answers)


def test_a_dead_workers_rooms_move_to_a_live_one_and_come_back(proxied: tuple[str, list[Stub]]) -> None:
    url, stubs = proxied
    codes = [f"D{n:05d}" for n in range(16)]
    before = {c: worker_of(url, f"/ws?room={c}") for c in codes}
    stubs[0].healthy = False
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(worker_of(url, f"/ws?room={c}") == "w1" for c in codes):
        time.sleep(0.2)
    during = {c: worker_of(url, f"/ws?room={c}") for c in codes}
    assert set(during.values()) == {"w2"}
    assert all(during[c] == "w2" for c in codes if before[c] == "w2")  # w2's own rooms stayed
    stubs[0].healthy = True
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and {c: worker_of(url, f"/ws?room={c}") for c in codes} != before:
        time.sleep(0.2)
    assert {c: worker_of(url, f"/ws?room={c}") for c in codes} == before  # consistent: the same again


def test_connections_per_client_address_are_limited_at_the_proxy(proxied: tuple[str, list[Stub]]) -> None:
    url, _ = proxied
    host, port = url.removeprefix("http://").split(":")
    held = []
    try:
        for _ in range(6):
            s = socket.create_connection((host, int(port)))
            held.append(s)
        time.sleep(0.2)
        answer = httpx.get(url + "/api/options")  # the seventh connection
        assert answer.status_code == 429
        assert answer.json()["error"] == "rate-limited"
    finally:
        for s in held:
            s.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and httpx.get(url + "/api/options").status_code == 429:
        time.sleep(0.1)
    assert httpx.get(url + "/api/options").status_code == 200  # closed ones no longer count


def test_rooms_made_per_client_address_are_limited_over_all_workers(proxied: tuple[str, list[Stub]]) -> None:
    url, _ = proxied
    made = [httpx.post(url + "/api/rooms", json={}) for _ in range(3)]
    assert all(r.status_code == 200 for r in made)
    assert {r.json()["worker"] for r in made} == {"w1", "w2"}  # round-robin, counted together
    refused = httpx.post(url + "/api/rooms", json={})
    assert refused.status_code == 429 and refused.json()["error"] == "rate-limited"
    assert httpx.get(url + "/api/rooms/ABCDEF").status_code == 200  # other requests are not counted


def test_tls_at_the_proxy_with_a_redirect_and_hsts(tmp_path: Path) -> None:
    if HAPROXY is None or shutil.which("openssl") is None:
        pytest.skip("needs Debian's haproxy and openssl")
    key, crt, pem = tmp_path / "key.pem", tmp_path / "crt.pem", tmp_path / "site.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key),
                    "-out", str(crt)],
                   check=True, capture_output=True)
    pem.write_bytes(crt.read_bytes() + key.read_bytes())
    stub = Stub("w1")
    plain, secure = free_port(), free_port()
    (tmp_path / "429.http").write_text(rate_limited_file())
    (tmp_path / "haproxy.cfg").write_text(haproxy_config(
        [("w1", f"127.0.0.1:{stub.port}")], bind=f"127.0.0.1:{plain}", errors_dir=str(tmp_path),
        tls=(f"127.0.0.1:{secure}", str(pem))))
    proc = subprocess.Popen([HAPROXY, "-db", "-f", str(tmp_path / "haproxy.cfg")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                answer = httpx.get(f"https://127.0.0.1:{secure}/ws?room=abcdef",
                                   verify=ssl.create_default_context(cafile=str(crt)))
                if answer.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        else:
            proc.kill()
            pytest.fail("haproxy did not answer over TLS: " + proc.communicate()[0].decode())
        assert answer.json() == {"worker": "w1", "path": "/ws?room=abcdef", "room": "ABCDEF",
                                 "forwarded": "127.0.0.1"}
        assert answer.headers["strict-transport-security"] == "max-age=31536000"
        moved = httpx.get(f"http://127.0.0.1:{plain}/api/options")
        assert moved.status_code == 301 and moved.headers["location"].startswith("https://127.0.0.1")
        assert "strict-transport-security" not in moved.headers  # only over TLS
    finally:
        proc.terminate()
        proc.wait(5)
        stub.server.shutdown()


def test_the_ladder_s_queue_is_routed_to_one_worker(proxied: tuple[str, list[Stub]]) -> None:
    """Every bot joining the ladder's queue (``/ws?queue=ladder``) reaches the same worker, which pairs
    them (docs/server.md, "The ladder"); another ``queue`` value names no room."""
    url, _ = proxied
    answers = [httpx.get(url + "/ws?queue=ladder").json() for _ in range(8)]
    assert len({a["worker"] for a in answers}) == 1
    assert {a["room"] for a in answers} == {"LADDER"}
    others = [httpx.get(url + "/ws?queue=other").json() for _ in range(4)]
    assert {a["worker"] for a in others} == {"w1", "w2"} and {a["room"] for a in others} == {None}
