"""The HTTP side: the page and its files, options, making and joining rooms, and clear refusals."""

from __future__ import annotations

import httpx
import pytest
from server_helpers import LiveServer

from skitgubbe.server.rooms import Room, RoomError, RoomSpec, make_spec


def test_the_page_and_its_files_are_served(server: LiveServer) -> None:
    page = httpx.get(server.http + "/")
    assert page.status_code == 200 and "table.js" in page.text and 'lang="en"' in page.text
    for name in ("table.js", "table.css"):
        assert httpx.get(f"{server.http}/static/{name}").status_code == 200
    options = httpx.get(server.http + "/api/options").json()
    assert {p["name"] for p in options["presets"]} >= {"pagat", "goat"}
    assert "easy" in options["bots"] and set(options["difficulties"]) <= set(options["bots"])


def test_the_files_are_gzipped_revalidated_and_the_page_can_be_installed(server: LiveServer) -> None:
    """Issue 29, item 7: light (gzip, Cache-Control with ETag revalidation) and installable (icon and
    web app manifest, linked from the page)."""
    js = httpx.get(f"{server.http}/static/table.js", headers={"Accept-Encoding": "gzip"})
    assert js.status_code == 200 and js.headers["content-encoding"] == "gzip"
    assert int(js.headers["content-length"]) < len(js.content) / 2  # httpx has unzipped it
    assert js.headers["cache-control"] == "no-cache" and js.headers["etag"]
    again = httpx.get(f"{server.http}/static/table.js", headers={"If-None-Match": js.headers["etag"]})
    assert again.status_code == 304 and not again.content  # unchanged: nothing sent again
    plain = httpx.get(f"{server.http}/static/table.js", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == js.content
    options = httpx.get(f"{server.http}/api/options", headers={"Accept-Encoding": "gzip"})
    assert options.headers["content-encoding"] == "gzip"  # JSON answers too
    page = httpx.get(server.http + "/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and page.headers["cache-control"] == "no-cache"
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page.text
    icon = httpx.get(f"{server.http}/static/favicon.svg")
    assert icon.headers["content-type"].startswith("image/svg+xml") and icon.text.startswith("<svg")
    made = httpx.get(f"{server.http}/static/manifest.webmanifest")
    assert made.headers["content-type"].startswith("application/manifest+json")
    manifest = made.json()
    assert manifest["short_name"] == "Skitgubbe" and manifest["name"].startswith("Skitgubbe")
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone" and manifest["theme_color"]
    for icon_entry in manifest["icons"]:
        assert httpx.get(server.http + icon_entry["src"]).status_code == 200


def test_making_and_joining_rooms_and_the_refusals(server: LiveServer) -> None:
    made = server.make_room(preset="goat", players=3, seats=["open", "easy"])
    info = httpx.get(f"{server.http}/api/rooms/{made['room'].lower()}").json()
    assert info == {"room": made["room"], "rules": "goat", "players": 3, "status": "lobby", "open": 1,
                    "seats": ["Ann", "open seat", "easy bot 2"], "kinds": ["person", "open", "bot"]}
    assert server.join(made["room"], "Bo")["player"] == 1
    info = httpx.get(f"{server.http}/api/rooms/{made['room']}").json()
    assert info["seats"] == ["Ann", "Bo", "easy bot 2"] and info["kinds"] == ["person", "person", "bot"]
    full = server.post(f"/api/rooms/{made['room']}/join", {"name": "Cy"})
    assert full.status_code == 409 and full.json()["error"] == "full"
    cases = [
        ("/api/rooms/NOPE12/join", {"name": "Cy"}, 404, "no-room"),
        ("/api/rooms", {"name": "Ann", "preset": "pagat", "players": 9, "seats": []}, 400, "bad-table"),
        ("/api/rooms", {"name": "Ann", "preset": "nope", "players": 3, "seats": []}, 400, "bad-rules"),
        ("/api/rooms", {"name": "", "preset": "pagat", "players": 3, "seats": ["easy", "easy"]}, 400,
         "bad-field"),
        ("/api/rooms", {"name": "Ann", "preset": "pagat", "players": "3", "seats": []}, 400, "bad-field"),
        ("/api/rooms", {"name": "Ann", "preset": "pagat", "players": 3, "seats": [1, 2]}, 400, "bad-field"),
        ("/api/rooms", {"name": "Ann", "house_rules": "preset = [", "players": 3, "seats": ["easy", "easy"]},
         400, "bad-rules"),
    ]
    for path, body, status, code in cases:
        r = server.post(path, body)
        assert (r.status_code, r.json()["error"]) == (status, code), (body, r.text)
        assert r.json()["message"]
    r = httpx.post(server.http + "/api/rooms", content=b"[1]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"] == "malformed"
    r = httpx.post(server.http + "/api/rooms", content=b"{" + b" " * 20_000 + b"}")
    assert r.status_code == 413 and r.json()["error"] == "too-large"


def test_a_damaged_log_entry_is_refused_and_changes_nothing() -> None:
    room = Room("ABCDEF", make_spec(preset="pagat", house_rules=None, players=3, seats=["easy", "easy"]))
    room.apply_entry("join", {"slot": 0, "name": "Ann", "token_hash": "x"})
    for kind, payload in [("act", {"seat": 0, "move": "stock", "slot": 0, "n": 1}),  # no deal yet
                          ("start", {"game": 1, "deck": ["AS"], "dealer": 2, "leader": 0,
                                     "seating": [0, 1, 2]}),
                          ("dance", {})]:
        with pytest.raises(RoomError) as e:
            room.apply_entry(kind, payload)
        assert e.value.code == "corrupt" and "room ABCDEF" in str(e.value)
    assert room.entries == 1 and room.state is None
    spec = RoomSpec.from_json(room.spec.to_json())
    assert spec == room.spec
