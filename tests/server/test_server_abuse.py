"""The hub's bounds on what one client can cost (issue 28): chat lines a seat may send, the bytes of
replays a client is sent, the messages a connection that never reads may hold, refused hellos on one
connection; look-alike display names and invisible characters in chat; one log line per failure.

Each test fails without its bound: it counts what an abuser got, not how long anything took."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from hub_helpers import Clock, out, run  # noqa: E402
from test_server_hub import hello, human_table, move  # noqa: E402

from skitgubbe.server.hub import ERRORS_KEPT, HELLO_REFUSALS, Client, Hub, Limits  # noqa: E402
from skitgubbe.server.protocol import ProtocolError, check_name, name_key, parse_client_message  # noqa: E402
from skitgubbe.server.rooms import RoomError  # noqa: E402


def errors(c: Client) -> list[dict[str, Any]]:
    return [m for m in out(c) if m["type"] == "error"]


# -- chat ------------------------------------------------------------------------------------------


def test_chat_lines_of_one_seat_are_limited_and_come_back_with_time(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "pagat", 3)
        room = hub.rooms[code]
        sent = 0
        refusals = []
        for i in range(50):  # 50 lines at once: the abuser of the report sent 4,480 in 15 s
            await hub.receive(clients[1], json.dumps({"type": "chat", "text": f"line {i}"}))
            refusals += errors(clients[1])
        sent = sum(1 for line in room.chat if line["name"] == "P1")
        assert sent == int(Limits().chat_burst) == 5
        assert len(refusals) == 45 and {r["code"] for r in refusals} == {"rate-limited"}
        assert refusals[0]["retry_after"] >= 1 and "chat lines" in refusals[0]["message"]
        await hub.receive(clients[2], '{"type": "chat", "text": "another seat is not held back"}')
        assert not errors(clients[2]) and room.chat[-1]["name"] == "P2"
        clock.t += 3  # three more lines a second later on average
        for i in range(5):
            await hub.receive(clients[1], json.dumps({"type": "chat", "text": f"later {i}"}))
        assert sum(1 for line in room.chat if line["name"] == "P1") == sent + 3
    run(tmp_path, body)


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\u200b", "\ufeff", "\u200e", "\u2060"])
def test_chat_refuses_invisible_and_direction_changing_characters(char: str) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_client_message(json.dumps({"type": "chat", "text": f"gg{char}wp"}))
    assert e.value.code == "bad-field" and f"U+{ord(char):04X}" in str(e.value)


@pytest.mark.parametrize("text", ["👩\u200d💻 joined", "می\u200cخواهم", "Hej på dig!",
                                  "🏴\U000e0067\U000e0062\U000e007f"])
def test_chat_keeps_the_joiners_and_emoji_tags_that_text_needs(text: str) -> None:
    assert parse_client_message(json.dumps({"type": "chat", "text": text})).fields["text"] == text


# -- names -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Yоu", "YOU", "Ｙｏｕ", "Ѕeat 2", "sреctator"])  # Cyrillic о, Ѕ, р, е
def test_a_look_alike_of_the_tables_own_words_is_refused(name: str) -> None:
    with pytest.raises(ProtocolError) as e:
        check_name(name)
    assert "reads like the table's own words" in str(e.value)


def test_look_alike_names_are_one_name_and_real_letters_stay_apart() -> None:
    assert name_key("Р0") == name_key("P0")  # Cyrillic Р
    assert name_key("Аnn") == name_key("ann")  # Cyrillic А
    assert name_key("Åsa") != name_key("Asa") and name_key("Jürgen") != name_key("Jurgen")
    assert "я" in name_key("Мария") and name_key("Мария") != name_key("Марiя")  # Cyrillic keeps its letters


def test_a_look_alike_of_a_name_at_the_table_is_name_taken(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        a = await hub.create_room("P0", preset="goat", house_rules=None, players=4,
                                  seats=["open", "open", "easy"])
        with pytest.raises(RoomError) as e:
            await hub.join(a["room"], "Р0")  # a Cyrillic Р
        assert e.value.code == "name-taken" and "look-alike" in str(e.value)
        assert (await hub.join(a["room"], "Påvel"))["player"] == 1
    run(tmp_path, body)


# -- hello -----------------------------------------------------------------------------------------


def test_a_connection_that_keeps_guessing_rooms_or_tokens_is_closed(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        a = await hub.create_room("Ann", preset="pagat", house_rules=None, players=3, seats=["easy", "easy"])
        c = Client(rate=1000, burst=1000)
        guesses = [{"room": "AAAAAA", "spectate": True}, {"room": a["room"], "player": 0, "token": "x" * 32},
                   {"room": "BBBBBB", "spectate": True}, {"room": a["room"], "spectate": True}]
        got: list[str | None] = []
        for g in guesses:
            await hub.receive(c, json.dumps({"type": "hello", **g}))
            while not c.outbox.empty():
                got.append(c.take_nowait())
        assert c.dropped and got[-1] is None  # closed after HELLO_REFUSALS refusals...
        codes = [json.loads(t)["code"] for t in got[:-1] if t is not None]
        assert codes == ["no-room", "forbidden", "no-room"][:HELLO_REFUSALS]
        assert c.room is None and not hub.live[a["room"]].clients  # ... and the fourth, right, got nothing
        ok = await hello(hub, a["room"], None, None, spectate=True)
        assert out(ok)[0]["type"] == "sync"  # a connection with fewer refusals is served
    run(tmp_path, body)


# -- replays ---------------------------------------------------------------------------------------


def test_replays_are_limited_in_bytes_per_client(tmp_path: Path) -> None:
    limits = Limits(replay_bytes=1000.0, replay_burst=60_000.0)

    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 3)
        room = hub.rooms[code]
        state = room.state
        while not state.is_over:  # the humans play the deal out: its replay is the whole deal
            seat = state.to_act
            if seat < 0:
                await asyncio.sleep(0.02)  # the driver deals the dreck
                continue
            await move(hub, clients[room.seating[seat]], str(state.legal_actions(seat)[0]))
        spy = [Client(rate=1000, burst=1000, key="198.51.100.7") for _ in range(4)]
        for c in spy:
            await hub.receive(c, json.dumps({"type": "hello", "room": code, "spectate": True}))
            out(c)
        size = len(hub.replay_text(room, None))
        assert size > 20_000  # the deal's whole replay, so the budget below allows only a few
        got = 0
        refused = []
        for i in range(40):  # the report's 40 requests, spread over the abuser's connections
            c = spy[i % 4]
            await hub.receive(c, '{"type": "replay"}')
            for m in out(c):
                if m["type"] == "replay":
                    got += 1
                else:
                    refused.append(m)
        assert got == limits.replay_burst // size and got < 40
        assert {m["code"] for m in refused} == {"rate-limited"}
        assert all(m["retry_after"] >= 1 for m in refused)
        other = Client(rate=1000, burst=1000, key="203.0.113.9")  # another client is not held back
        await hub.receive(other, json.dumps({"type": "hello", "room": code, "spectate": True}))
        await hub.receive(other, '{"type": "replay"}')
        assert [m["type"] for m in out(other)] == ["sync", "replay"]
        clock.t += size / limits.replay_bytes + 1  # the budget comes back with time
        await hub.receive(spy[0], '{"type": "replay"}')
        assert [m["type"] for m in out(spy[0])] == ["replay"]
    run(tmp_path, body, limits=limits)


# -- slow readers -----------------------------------------------------------------------------------


def test_a_connection_that_never_reads_is_dropped_and_holds_a_bounded_queue(tmp_path: Path) -> None:
    limits = Limits(outbox_bytes=20_000)

    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 3)
        room = hub.rooms[code]
        state = room.state
        sleepers = [Client(rate=1000, burst=1000, key=f"192.0.2.{i}", outbox_bytes=limits.outbox_bytes)
                    for i in range(10)]
        for c in sleepers:
            await hub.receive(c, json.dumps({"type": "hello", "room": code, "spectate": True}))
        most = 0
        for _ in range(60):
            seat = state.to_act
            if state.is_over or seat < 0:
                break
            await move(hub, clients[room.seating[seat]], str(state.legal_actions(seat)[0]))
            most = max(most, *(c.queued for c in sleepers))
        assert all(c.dropped for c in sleepers)
        assert most <= limits.outbox_bytes + 10_000  # the bound and one message
        for c in sleepers:  # what is left is the request to close, nothing else
            assert c.outbox.qsize() == 1 and c.take_nowait() is None and c.queued == 0
        assert not any(c.dropped for c in clients)  # the players who read are served as before
    run(tmp_path, body, limits=limits)


# -- logging ---------------------------------------------------------------------------------------


def test_a_storage_failure_is_logged_in_one_line_and_errors_stay_bounded(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from sqlalchemy.exc import OperationalError

    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "pagat", 3)
        room = hub.rooms[code]
        seat = room.state.to_act

        def full_disk(rows: Any) -> None:
            raise OperationalError("INSERT INTO room_log", {}, Exception("database or disk is full"))

        hub.store.write = full_disk  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR, logger="skitgubbe.server.hub"):
            reply = await move(hub, clients[room.seating[seat]], str(room.state.legal_actions(seat)[0]))
        assert reply["code"] == "server"
        lines = [r for r in caplog.records if r.name == "skitgubbe.server.hub"]
        assert len(lines) == 1 and code in lines[0].getMessage() and "disk is full" in lines[0].getMessage()
        assert lines[0].levelno == logging.ERROR and "\n" not in lines[0].getMessage()
        for i in range(ERRORS_KEPT + 50):
            hub.note(f"failure {i}")
        assert len(hub.errors) == ERRORS_KEPT and hub.errors[-1] == f"failure {ERRORS_KEPT + 49}"
    run(tmp_path, body)


def test_a_finished_deals_replay_is_built_off_the_event_loop_once(tmp_path: Path) -> None:
    import threading

    async def body(hub: Hub, clock: Clock) -> None:
        a = await hub.create_room("Ann", preset="pagat", house_rules=None, players=2, seats=["random"])
        room = hub.rooms[a["room"]]
        ann = await hello(hub, a["room"], 0, a["token"])
        await hub.receive(ann, '{"type": "leave"}')  # bots play the deal out
        await asyncio.wait_for(until_over(room), 60)
        release = threading.Event()
        builds = []
        real = room.replay_data

        def slow(seat: int | None) -> dict[str, Any]:
            builds.append(seat)
            release.wait(10)  # a long deal's replay, being built
            return real(seat)

        room.replay_data = slow  # type: ignore[method-assign]
        spies = [await hello(hub, a["room"], None, None, spectate=True) for _ in range(2)]
        asks = [asyncio.ensure_future(hub.receive(c, '{"type": "replay"}')) for c in spies]
        other = Client(rate=1000, burst=1000)
        await hub.receive(other, '{"type": "ping"}')  # the loop answers while the replay is built
        assert [m["type"] for m in out(other)] == ["pong"] and not any(t.done() for t in asks)
        release.set()
        await asyncio.gather(*asks)
        assert builds == [None]  # built once for both
        assert [[m["type"] for m in out(c)][-1] for c in spies] == ["replay", "replay"]
    run(tmp_path, body)


async def until_over(room: Any) -> None:
    while room.state is None or not room.state.is_over:
        await asyncio.sleep(0.01)


def test_hellos_naming_no_room_count_against_the_clients_misses_across_connections(tmp_path: Path) -> None:
    from skitgubbe.server.hub import ClientBuckets

    async def body(hub: Hub, clock: Clock) -> None:
        hub.misses = ClientBuckets(3)  # create_app shares the HTTP routes' (HttpLimits.misses_per_minute)
        a = await hub.create_room("Ann", preset="pagat", house_rules=None, players=3, seats=["easy", "easy"])
        for code in ("AAAAAA", "BBBBBB", "CCCCCC"):  # a new connection for each guess
            c = Client(rate=1000, burst=1000, key="198.51.100.7")
            await hub.receive(c, json.dumps({"type": "hello", "room": code, "spectate": True}))
            assert [m["code"] for m in errors(c)] == ["no-room"]
        late = Client(rate=1000, burst=1000, key="198.51.100.7")
        await hub.receive(late, json.dumps({"type": "hello", "room": a["room"], "spectate": True}))
        refusal = errors(late)
        assert [m["code"] for m in refusal] == ["too-many-misses"] and refusal[0]["retry_after"] >= 1
        assert late.room is None  # even a real code tells this client nothing now
        other = Client(rate=1000, burst=1000, key="203.0.113.9")
        await hub.receive(other, json.dumps({"type": "hello", "room": a["room"], "spectate": True}))
        assert out(other)[0]["type"] == "sync"
    run(tmp_path, body)


def test_the_log_set_up_writes_one_line_a_failure_at_the_level_asked() -> None:
    import io

    from skitgubbe.server import logs

    root = logging.getLogger()
    kept = root.handlers[:]
    level = logging.getLogger("skitgubbe").level
    stream = io.StringIO()
    root.handlers = [logging.StreamHandler(stream)]  # what basicConfig would add, on a buffer
    root.handlers[0].setFormatter(logging.Formatter(logs.FORMAT))
    try:
        logs.configure("warning")
        hub_log = logging.getLogger("skitgubbe.server.hub")
        hub_log.info("a refused move")
        hub_log.warning("a limit")
        logs.configure("info")
        hub_log.info("a refused move, now shown")
        lines = stream.getvalue().splitlines()
        assert len(lines) == 2 and "WARNING skitgubbe.server.hub: a limit" in lines[0]
        assert lines[1].endswith("INFO skitgubbe.server.hub: a refused move, now shown")
        with pytest.raises(ValueError, match="give one of debug, info, warning, error"):
            logs.configure("loud")
    finally:
        root.handlers = kept
        logging.getLogger("skitgubbe").setLevel(level)


def test_the_bots_in_a_settled_trick_s_window_all_answer_after_one_bot_delay(tmp_path: Path) -> None:
    """Every seat with cards is in a settled trick's window now: the bots there answer in one step of
    the driver, one ``bot_delay`` after the window opened, not one delay each (counted in steps,
    not timed)."""
    async def body(hub: Hub, clock: Clock) -> None:
        a = await hub.create_room("Ann", preset="goat", house_rules=None, players=4,
                                  seats=["random", "random", "random"])
        ann = await hello(hub, a["room"], 0, a["token"])
        room = hub.rooms[a["room"]]
        state = room.state
        steps: list[tuple[int, int]] = []  # (trick, bots pending) of each bot step in a settled window
        real = hub.driver.step

        async def step(room_: Any, live: Any, what: str, seat: int) -> None:
            if what == "bot" and room_.is_settled_window():
                steps.append((state.tricks, sum(1 for s in room_.pending_seats() if s != room_.seat_of(0))))
            await real(room_, live, what, seat)

        hub.driver.step = step  # type: ignore[method-assign]
        n = 0
        for _ in range(3000):
            if state.is_over or len(steps) >= 8:
                break
            seat = room.seat_of(0)
            if state.to_act == seat or seat in room.pending_seats():
                n += 1
                move = "pass" if seat in room.pending_seats() else str(state.legal_actions(seat)[0])
                await hub.receive(ann, json.dumps({"type": "act", "n": n, "move": move}))
                out(ann)
            else:
                await asyncio.sleep(0.01)
        tricks = [t for t, _ in steps]
        assert any(k >= 2 for _, k in steps)  # windows where two or three bots were asked
        assert len(tricks) == len(set(tricks))  # one step of the driver for each window
    run(tmp_path, body, bot_delay=0.02)
