"""Running it like a service (issue 31, item 1): ``GET /healthz`` (200 while the database answers and
the lease is held, 503 saying what is wrong otherwise), ``GET /metrics`` (Prometheus's text format,
the metrics docs/server.md lists, counting moves, refusals, storage failures and replays), and the
container files (``Dockerfile``, ``compose.yaml``) as far as they can be checked without building
them."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("prometheus_client")

import httpx  # noqa: E402
from prometheus_client.parser import text_string_to_metric_families  # noqa: E402
from server_helpers import LiveServer, Player  # noqa: E402
from sqlalchemy import update  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from skitgubbe.engine.record import dumps, record_of  # noqa: E402
from skitgubbe.engine.state import State  # noqa: E402
from skitgubbe.engine.variants import find_variant  # noqa: E402
from skitgubbe.server.app import HttpLimits, create_app  # noqa: E402
from skitgubbe.server.metrics import Metrics  # noqa: E402
from skitgubbe.server.store import Store, lease_table  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    """Every sample of a Prometheus text exposition: ``(name, labels) -> value``."""
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def scrape(server: LiveServer) -> Samples:
    r = httpx.get(server.http + "/metrics", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain"), r.text
    return samples(r.text)


def documented_metrics() -> set[str]:
    """The metric names docs/server.md's "Health and metrics" section lists in its table."""
    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    section = text.split("## Health and metrics", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(skitgubbe_[a-z_]+)`", section, flags=re.MULTILINE))


# -- /healthz ---------------------------------------------------------------------------------


def test_healthz_is_ok_on_a_running_server_and_is_no_miss(tmp_path: Path) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/server.db",
                        http_limits=HttpLimits(misses_per_minute=2)).start()
    try:
        for _ in range(5):  # probes are never counted as misses (nor limited)
            r = httpx.get(server.http + "/healthz", timeout=10)
            assert r.status_code == 200, r.text
            assert r.json() == {"status": "ok", "database": "ok", "lease": True, "rooms": 0}
        assert httpx.get(server.http + "/api/rooms/NOPE12").status_code == 404  # not 429 too-many-misses
    finally:
        server.stop()


def test_healthz_is_503_when_the_database_fails_or_hangs(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    server = LiveServer(f"sqlite:///{tmp_path}/server.db", health_timeout=0.3).start()
    try:
        store = server.hub.store

        def broken() -> None:
            raise OperationalError("SELECT 1", {}, Exception("could not connect to server: refused"))

        monkeypatch.setattr(store, "ping", broken)
        r = httpx.get(server.http + "/healthz", timeout=10)
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["status"] == "failing" and body["database"] == "error" and body["lease"] is True
        assert "could not connect" in body["problems"][0]

        monkeypatch.setattr(store, "ping", lambda: time.sleep(1.0))  # a database that does not answer
        started = time.monotonic()
        r = httpx.get(server.http + "/healthz", timeout=10)
        assert r.status_code == 503 and r.json()["database"] == "timeout", r.text
        assert time.monotonic() - started < 0.9  # the probe is answered on time, not when the query ends
        monkeypatch.undo()
        time.sleep(0.8)  # the hung query ends; the next probe asks again
        assert httpx.get(server.http + "/healthz", timeout=10).status_code == 200
    finally:
        server.stop()


def test_healthz_is_503_while_the_leases_are_not_renewed_and_a_lost_lease_refuses_writes(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another worker takes a room over (this one was paused past its lease's expiry): this worker's
    next write to that room is refused and stores nothing; while this worker's renewals fail, the
    health check says so (SQLite and PostgreSQL)."""
    db = db_url
    server = LiveServer(db, store=Store(db, worker="a", renew_every=0.2, lease_expiry=60.0)).start()
    other = Store(db, worker="b")
    try:
        assert httpx.get(server.http + "/healthz", timeout=10).status_code == 200
        code = server.post("/api/rooms", {"name": "Ann", "preset": "goat", "players": 3,
                                          "seats": ["open", "easy"]}).json()["room"]
        def down() -> Any:
            raise OperationalError("renew", {}, Exception("down"))

        server.hub.store.renew = down
        with other.engine.begin() as conn:  # the lease looks expired to the other worker
            conn.execute(update(lease_table).values(expires_at=time.time() - 1))
        assert other.take(code) == 2
        r = server.post(f"/api/rooms/{code}/join", {"name": "Bo"})
        assert r.status_code == 503 and r.json()["error"] == "moved", r.text
        assert code not in server.hub.rooms
        time.sleep(0.6)  # a renewal or two fail
        r = httpx.get(server.http + "/healthz", timeout=10)
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["lease"] is False and body["database"] == "ok" and body["status"] == "failing"
        assert any("lease" in p for p in body["problems"])
        found = scrape(server)
        assert value(found, "skitgubbe_lease_losses_total") == 1
        assert value(found, "skitgubbe_refused_total", via="http", code="moved") == 1
        assert [k for k, _ in other.load_rooms([code])[0].log] == ["join"]  # Bo's join was not stored
    finally:
        server.stop()
        other.close()


# -- /metrics ---------------------------------------------------------------------------------


async def _play_one_move_and_be_refused(server: LiveServer, made: dict[str, Any]) -> str:
    """Connect as ``made``'s player, make one legal move (waiting for its ``ack``), send a move that
    is not legal and a message that is not JSON; returns the error code of the refused move."""
    p = Player(server.ws, made["room"], made["player"], made["token"])
    await p.connect()
    try:
        deadline = time.monotonic() + 30
        while True:  # the bots and the chance order move until it is this seat's turn
            t = p.last["table"] if p.last else None
            me = p.last["me"] if p.last else None
            if (t is not None and me is not None and t["status"] == "playing" and me["legal"]
                    and t["public"]["to_act"] == me["seat"]):
                break
            assert time.monotonic() < deadline, "never this seat's turn"
            await p.recv()
        await p.act(p.last["me"]["legal"][0]["move"])  # type: ignore[index]
        while "ack" not in (msg := await p.recv()):
            assert msg["type"] != "error", msg
        await p.send({"type": "act", "n": 999, "move": "not-a-move"})
        while (msg := await p.recv())["type"] != "error":
            pass
        refused = str(msg["code"])
        await p.ws.send("this is not JSON")
        while (msg := await p.recv())["type"] != "error":
            pass
        assert msg["code"] == "malformed", msg
        found = scrape(server)
        assert value(found, "skitgubbe_connections") == 1  # this player's, still open
        return refused
    finally:
        await p.close()


def test_metrics_has_the_documented_names_and_counts_moves_and_refusals(server: LiveServer) -> None:
    text = httpx.get(server.http + "/metrics", timeout=10).text
    families = text_string_to_metric_families(text)
    exposed = {f.name + ("_total" if f.type == "counter" else "") for f in families
               if not f.name.endswith("_created")}  # (a counter's creation time, read as a gauge of its own)
    assert documented_metrics() == exposed  # each metric documented, each documented metric there
    before = samples(text)
    assert value(before, "skitgubbe_rooms_held") == 0
    assert value(before, "skitgubbe_moves_stored_total", kind="player") == 0

    made = server.make_room(preset="pagat", players=3, seats=["easy", "easy"])  # dealt at once
    refused = asyncio.run(_play_one_move_and_be_refused(server, made))
    assert server.post("/api/rooms/NOPE12/join", {"name": "Bo"}).status_code == 404

    found = scrape(server)
    assert value(found, "skitgubbe_moves_stored_total", kind="player") >= 1
    assert value(found, "skitgubbe_moves_stored_total", kind="bot") >= 1
    assert value(found, "skitgubbe_move_seconds_count") >= 1
    assert value(found, "skitgubbe_move_seconds_sum") > 0
    assert value(found, "skitgubbe_refused_total", via="websocket", code=refused) == 1
    assert value(found, "skitgubbe_refused_total", via="websocket", code="malformed") == 1
    assert value(found, "skitgubbe_refused_total", via="http", code="no-room") == 1
    assert value(found, "skitgubbe_rooms_held") == 1
    assert value(found, "skitgubbe_rooms", status="playing") == 1
    assert value(found, "skitgubbe_rooms", status="lobby") == 0
    assert value(found, "skitgubbe_connections") == 0  # closed by now
    assert value(found, "skitgubbe_storage_failures_total") == 0


def test_metrics_count_replays_built(tmp_path: Path) -> None:
    rng = random.Random(3)
    state = State.new(find_variant("goat"), 4, dealer=0, seed=3)
    while not state.is_over:
        seat = state.to_act if state.to_act >= 0 else -1
        state.apply(state.chance_action(rng) if seat == -1 else rng.choice(state.legal_actions(seat)), seat)
    server = LiveServer(f"sqlite:///{tmp_path}/server.db", replay_workers=0).start()
    try:
        assert server.post("/api/records", {"text": dumps(record_of(state))}).status_code == 200
        r = server.post("/api/records", {"text": "skitgubbe-record = 1\nnonsense\n"})
        assert r.status_code == 400
        found = scrape(server)
        assert value(found, "skitgubbe_replays_built_total", source="record") == 1
        assert value(found, "skitgubbe_replays_built_total", source="deal") == 0
        assert value(found, "skitgubbe_refused_total", via="http", code=r.json()["error"]) == 1
    finally:
        server.stop()


def test_two_apps_in_one_process_count_apart(tmp_path: Path) -> None:
    """Each app has a registry of its own (two on the global one would collide at the second's
    start, and count each other's moves)."""
    one, two = Metrics(), Metrics()
    one.moved("player")
    assert b'skitgubbe_moves_stored_total{kind="player"} 1.0' in one.exposition()
    assert b'skitgubbe_moves_stored_total{kind="player"} 0.0' in two.exposition()
    create_app(f"sqlite:///{tmp_path}/a.db")
    create_app(f"sqlite:///{tmp_path}/b.db")


# -- the container files ------------------------------------------------------------------------


def test_the_dockerfile_runs_as_a_user_and_checks_a_route_the_app_has() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    kept = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    lines = [line.strip() for line in kept.replace("\\\n", " ").splitlines() if line.strip()]
    users = [line.split()[1] for line in lines if line.upper().startswith("USER ")]
    assert users and users[-1] not in ("root", "0") and not users[-1].startswith("0:"), users
    checks = [line for line in lines if line.upper().startswith("HEALTHCHECK ")]
    assert len(checks) == 1, checks
    paths = re.findall(r"https?://[^/\s'\"]+(/[A-Za-z0-9_/-]*)", checks[0])
    assert paths == ["/healthz"], checks
    app = create_app("sqlite://")
    assert "/healthz" in {getattr(route, "path", None) for route in app.api.routes}
    assert any(line.upper() == "EXPOSE 8000" for line in lines)
    cmd = next(line for line in lines if line.upper().startswith("CMD "))
    assert json.loads(cmd[4:])[:4] == ["skitgubbe", "serve", "--host", "0.0.0.0"], cmd


def test_compose_yaml_names_postgresql_two_workers_and_the_proxy() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"db", "worker1", "worker2", "proxy"}
    assert services["db"]["image"].startswith("postgres:")
    proxy = services["proxy"]
    assert proxy["image"].startswith("haproxy:2.6")
    assert "./deploy:/usr/local/etc/haproxy:ro" in proxy["volumes"]
    address = proxy["networks"]["internal"]["ipv4_address"]
    cfg = (ROOT / "deploy" / "haproxy.cfg").read_text()
    for k in (1, 2):
        server = services[f"worker{k}"]
        assert server["build"] == "."
        command = server["command"]
        assert command[:4] == ["skitgubbe", "serve", "--worker", f"w{k}"], command
        db = command[command.index("--db") + 1]
        assert db.startswith("postgresql+psycopg://") and "@db/" in db, db
        assert command[command.index("--trust-proxy") + 1] == address
        port = command[command.index("--port") + 1]
        assert f"server w{k} worker{k}:{port}" in cfg  # the proxy's configuration names it
        assert server["depends_on"]["db"]["condition"] == "service_healthy"
