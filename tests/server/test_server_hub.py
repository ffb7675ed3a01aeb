"""The hub without HTTP: validation, forged and replayed messages, timers (with a test clock),
leaving and reclaiming a seat, play again with the roving goat, chat, spectators, restart by replay."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from hub_helpers import Clock, out, run, until  # noqa: E402

from skitgubbe.server.hub import Client, Hub, RateLimit  # noqa: E402
from skitgubbe.server.protocol import MAX_MESSAGE_BYTES, ProtocolError, parse_client_message  # noqa: E402
from skitgubbe.server.rooms import RoomError, make_spec  # noqa: E402


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


async def hello(hub: Hub, room: str, player: int | None, token: str | None, **extra: Any) -> Client:
    c = Client(rate=1000, burst=1000)
    msg: dict[str, Any] = {"type": "hello", "room": room, **extra}
    if player is not None:
        msg["player"] = player
    if token is not None:
        msg["token"] = token
    await hub.receive(c, json.dumps(msg))
    return c


def table(msgs: list[dict[str, Any]]) -> dict[str, Any]:
    states = [m for m in msgs if m["type"] in ("sync", "state")]
    assert states, msgs
    return states[-1]


# -- message validation --------------------------------------------------------------------


@pytest.mark.parametrize("raw, code, words", [
    ("{", "malformed", "not JSON"),
    ("[1, 2]", "malformed", "JSON object"),
    ('{"type": "dance"}', "unknown-type", "types are hello"),
    ('{"type": "act", "n": 1}', "bad-field", "'move' is missing"),
    ('{"type": "act", "n": "1", "move": "7H"}', "bad-field", "act.n must be an integer"),
    ('{"type": "act", "n": true, "move": "7H"}', "bad-field", "act.n must be an integer"),
    ('{"type": "act", "n": 0, "move": "7H"}', "bad-field", "positive integer"),
    ('{"type": "act", "n": 1, "move": "7H", "seat": 2}', "bad-field", "unknown field 'seat'"),
    ('{"type": "chat", "text": "   "}', "bad-field", "1 to 300 characters"),
    ('{"type": "hello", "room": "ABC", "player": 1.5}', "bad-field",
     "hello.player must be an integer or null"),
])
def test_malformed_messages_are_refused_with_the_reason(raw: str, code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_client_message(raw)
    assert e.value.code == code and words in str(e.value)


def test_an_oversized_message_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(ProtocolError, match=f"limit is {MAX_MESSAGE_BYTES} bytes") as e:
        parse_client_message('{"type": "chat", "text": "' + "x" * MAX_MESSAGE_BYTES + '"}')
    assert e.value.code == "too-large"


def test_a_good_message_keeps_only_its_fields() -> None:
    m = parse_client_message('{"type": "act", "n": 3, "move": "play 7H"}')
    assert m.type == "act" and m.fields == {"n": 3, "move": "play 7H"}


def test_room_specs_are_checked() -> None:
    with pytest.raises(RoomError, match="no rules called 'nope'"):
        make_spec(preset="nope", house_rules=None, players=3, seats=["easy", "easy"])
    with pytest.raises(RoomError, match="pagat is for 2 to 4 players, not 6"):
        make_spec(preset="pagat", house_rules=None, players=6, seats=["easy"] * 5)
    with pytest.raises(RoomError, match="'genius' is neither 'open' nor a bot"):
        make_spec(preset="pagat", house_rules=None, players=3, seats=["easy", "genius"])
    with pytest.raises(RoomError, match="turn timer is 0"):
        make_spec(preset="pagat", house_rules=None, players=3, seats=["easy", "easy"], turn_seconds=1)
    spec = make_spec(preset=None, house_rules='preset = "goat"\n[options]\ndreck_below = 4\n', players=3,
                     seats=["open", "easy"])
    assert spec.rules.dreck_below == 4 and spec.slots == ("human", "open", "easy")


def test_rate_limit_refuses_a_flood_and_recovers() -> None:
    limit = RateLimit(rate=10, burst=5, tokens=5, stamp=0.0)
    assert [limit.allow(0.0) for _ in range(6)] == [True] * 5 + [False]
    assert limit.allow(0.1)  # one token back after a tenth of a second at 10 a second


def test_flooding_a_connection_gets_rate_limited_errors(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        c = Client(rate=20, burst=40)
        for _ in range(45):
            await hub.receive(c, '{"type": "ping"}')
        msgs = out(c)
        assert sum(m["type"] == "pong" for m in msgs) == 40
        assert sum(m.get("code") == "rate-limited" for m in msgs) == 5
    run(tmp_path, body)


# -- forged, replayed and out-of-turn moves change nothing ------------------------------------


def test_forged_tokens_wrong_rooms_and_out_of_turn_moves_change_nothing(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        a = await hub.create_room("Ann", preset="pagat", house_rules=None, players=3, seats=["open", "open"])
        b = await hub.join(a["room"], "Bo")
        other = await hub.create_room("Cy", preset="goat", house_rules=None, players=3,
                                      seats=["open", "easy"])
        room = hub.rooms[a["room"]]
        # a token for another seat, for another room, none at all
        for player, token, room_code in ((1, a["token"], a["room"]), (0, b["token"], a["room"]),
                                         (0, other["token"], a["room"]), (1, "x" * 30, a["room"])):
            c = await hello(hub, room_code, player, token)
            [err] = out(c)
            assert err["type"] == "error" and err["code"] == "forbidden"
            assert f"not the token of player {player} in room {room_code}" in err["message"]
            assert c.room is None
        no_room = await hello(hub, "ZZZZZZ", 0, a["token"])
        assert out(no_room)[0]["code"] == "no-room"
        before = room.entries
        ann = await hello(hub, a["room"], 0, a["token"])
        bo = await hello(hub, a["room"], 1, b["token"])
        assert out(ann)[0]["you"]["player"] == 0 and out(bo)[0]["you"]["player"] == 1
        # before anyone says hello, a connection may do nothing
        stranger = Client()
        await hub.receive(stranger, '{"type": "act", "n": 1, "move": "pass"}')
        assert out(stranger)[0]["code"] == "no-hello"
        # the room is still in the lobby (seat 2 is open): no deal to act in
        await hub.receive(ann, '{"type": "act", "n": 1, "move": "stock"}')
        assert out(ann)[-1]["code"] == "not-playing"
        await hub.receive(bo, '{"type": "start"}')
        assert out(bo)[-1]["message"] == "only the player who made the room starts it"
        await hub.receive(ann, '{"type": "start"}')
        out(ann), out(bo)
        assert room.status == "playing"
        state = room.state
        to_act = state.to_act
        mover, idle = (ann, bo) if room.seating[to_act] == 0 else (bo, ann)
        if room.seating[to_act] == 2:  # the bot (open seat filled at start) moves first: wait for it
            await until(lambda: room.seating[state.to_act] != 2)
            to_act = state.to_act
            mover, idle = (ann, bo) if room.seating[to_act] == 0 else (bo, ann)
        history = list(state.history)
        hand_sizes = state.hand_sizes()
        entries = room.entries
        idle_seat = room.seat_of(idle.slot)
        for raw, code in [
            ('{"type": "act", "n": 1, "move": "stock"}', "illegal"),
            ('{"type": "act", "n": 2, "move": "play ZZ"}', "bad-move"),
            ('{"type": "act", "n": 3, "move": "dreck 2C"}', "illegal"),
        ]:
            await hub.receive(idle, raw)
            err = out(idle)[-1]
            assert err["type"] == "error" and err["code"] == code, err
        refusal = await _error_of(hub, idle, '{"type": "act", "n": 4, "move": "stock"}')
        assert "turn to play, not yours" in refusal
        assert state.history == history and state.hand_sizes() == hand_sizes and room.entries == entries
        assert idle_seat != state.to_act
        # a move that is legal goes through, and the same message sent again is refused
        move = str(state.legal_actions(state.to_act)[0])
        await hub.receive(mover, json.dumps({"type": "act", "n": 7, "move": move}))
        assert [m["ack"] for m in out(mover) if "ack" in m] == [7]
        assert len(state.history) == len(history) + 1
        count = len(state.history)
        await hub.receive(mover, json.dumps({"type": "act", "n": 7, "move": move}))
        err = out(mover)[-1]
        assert err["code"] == "replayed" and "message 7 was already received" in err["message"]
        assert len(state.history) == count
        # a spectator may not act
        spy = await hello(hub, a["room"], None, None, spectate=True)
        assert table(out(spy))["me"] is None
        await hub.receive(spy, '{"type": "act", "n": 99, "move": "pass"}')
        assert out(spy)[-1]["code"] == "spectator"
        assert before < room.entries
    run(tmp_path, body)


async def _error_of(hub: Hub, c: Client, raw: str) -> str:
    await hub.receive(c, raw)
    return str(out(c)[-1]["message"])


# -- timers, leaving, play again ------------------------------------------------------------


async def human_table(hub: Hub, preset: str = "goat", players: int = 3, **kw: Any
                      ) -> tuple[str, list[Client]]:
    """A room of ``players`` people, all connected, the deal started."""
    a = await hub.create_room("P0", preset=preset, house_rules=None, players=players,
                              seats=["open"] * (players - 1), **kw)
    tokens = [a["token"]] + [(await hub.join(a["room"], f"P{i}"))["token"] for i in range(1, players)]
    clients = [await hello(hub, a["room"], i, t) for i, t in enumerate(tokens)]
    for c, t in zip(clients, tokens, strict=True):
        out(c)
        c.__dict__["token"] = t
    return a["room"], clients


async def move(hub: Hub, c: Client, text: str) -> dict[str, Any]:
    c.__dict__.setdefault("n", 0)
    c.__dict__["n"] += 1
    out(c)
    await hub.receive(c, json.dumps({"type": "act", "n": c.__dict__["n"], "move": text}))
    reply = [m for m in out(c) if m["type"] == "error" or "ack" in m][0]
    return {"type": "ack", "n": reply["ack"]} if "ack" in reply else reply


def test_turn_timer_plays_a_bot_move_for_the_seat(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "pagat", 3, turn_seconds=10)
        room = hub.rooms[code]
        state = room.state
        seat = state.to_act
        msgs = table([json.loads(x) for x in [hub._message(room, hub.live[code], clients[0], full=False)]])
        assert msgs["table"]["timer"] == 10.0
        clock.t += 9
        hub.live[code].changed.set()
        await settle()
        assert len(state.history) == 0  # not yet
        clock.t += 2
        hub.live[code].changed.set()
        await until(lambda: len(state.history) > 0)
        assert len(state.history) == 1 and state.history[0][0] == seat
        assert state.to_act != seat or len(state.history) == 1
    run(tmp_path, body)


def test_a_settled_trick_is_collected_when_the_sluff_timer_runs_out(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 4, sluff_seconds=5)
        room = hub.rooms[code]
        state = room.state
        for _ in range(300):
            if room.is_settled_window():
                break
            seat = state.to_act
            plays = [a for a in state.legal_actions(seat) if str(a).startswith(("play", "stock"))]
            reply = await move(hub, clients[room.seating[seat]], str(plays[0]))
            assert reply["type"] == "ack", reply
        assert room.is_settled_window()
        pending = room.pending_seats()
        tricks = state.tricks
        entries = room.entries
        clock.t += 4
        hub.live[code].changed.set()
        await settle()
        assert room.pending_seats() == pending  # still waiting
        clock.t += 2
        hub.live[code].changed.set()
        await until(lambda: not room.is_settled_window())
        assert state.tricks == tricks + 1
        assert [str(a) for _, a in state.history[-len(pending):]] == ["pass"] * len(pending)
        assert room.entries == entries + len(pending)
    run(tmp_path, body)


def test_done_from_every_pending_seat_collects_the_trick_at_once(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 4)
        room = hub.rooms[code]
        state = room.state
        for _ in range(300):
            if room.is_settled_window():
                break
            seat = state.to_act
            plays = [a for a in state.legal_actions(seat) if str(a).startswith(("play", "stock"))]
            await move(hub, clients[room.seating[seat]], str(plays[0]))
        tricks = state.tricks
        for seat in room.pending_seats():
            assert (await move(hub, clients[room.seating[seat]], "done"))["type"] == "ack"
        assert state.tricks == tricks + 1
    run(tmp_path, body)


def test_a_bot_takes_a_seat_whose_player_left_and_the_player_reclaims_it(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "pagat", 3)
        room = hub.rooms[code]
        state = room.state
        seat = state.to_act
        c = clients[room.seating[seat]]
        await hub.receive(c, '{"type": "leave"}')
        await until(lambda: len(state.history) > 0)  # the bot moves for the seat
        assert state.history[0][0] == seat
        info = json.loads(hub._message(room, hub.live[code], c, full=False))
        assert info["table"]["seats"][seat]["bot"] == "easy" and info["me"]["left"] is True
        err = await move(hub, c, "stock")
        assert err["code"] == "left"
        await hub.receive(c, '{"type": "reclaim"}')
        assert room.players[room.seating[seat]].left is False  # type: ignore[union-attr]
        info = json.loads(hub._message(room, hub.live[code], c, full=False))
        assert info["table"]["seats"][seat]["bot"] is None
    run(tmp_path, body)


def test_a_disconnected_player_is_played_by_a_bot_after_the_grace_and_resumes(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "pagat", 3)
        room = hub.rooms[code]
        state = room.state
        seat = state.to_act
        slot = room.seating[seat]
        hub.disconnect(clients[slot])
        clock.t += 29
        hub.live[code].changed.set()
        await settle()
        assert len(state.history) == 0
        clock.t += 2
        hub.live[code].changed.set()
        await until(lambda: len(state.history) > 0)
        assert state.history[0][0] == seat
        info = json.loads(hub._message(room, hub.live[code], clients[(slot + 1) % 3], full=False))
        assert info["table"]["seats"][seat]["bot"] == "easy" and not info["table"]["seats"][seat]["connected"]
        # coming back (a new connection with the token) gives a full sync of the same seat
        back = await hello(hub, code, slot, clients[slot].__dict__["token"])
        sync = out(back)[0]
        assert sync["type"] == "sync" and sync["you"]["seat"] == seat
        assert len(sync["me"]["hand"]) == 3
        assert sync["table"]["seats"][seat]["bot"] is None and sync["table"]["seats"][seat]["connected"]
        assert sync["lines"] == room.lines
    run(tmp_path, body)


def test_play_again_loser_leads_roving_goat_and_tally(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        a = await hub.create_room("Ann", preset="goat", house_rules=None, players=3, seats=["easy", "easy"])
        c = await hello(hub, a["room"], 0, a["token"])
        room = hub.rooms[a["room"]]
        await hub.receive(c, '{"type": "leave"}')  # the bots play the whole deal
        await until(lambda: room.status == "over", limit=120)
        loser = room.state.loser
        assert loser is not None
        loser_slot = room.seating[loser]
        assert room.tally[loser_slot] == 1 and sum(room.tally) == 1
        await hub.receive(c, '{"type": "again", "roving": true}')
        await hub.receive(c, '{"type": "reclaim"}')
        assert room.game == 2 and room.status == "playing"
        new_seat = room.seat_of(loser_slot)
        assert new_seat == (loser + 1) % 3  # the roving goat moved one seat to the left
        assert room.state.first_leader == new_seat
        msgs = out(c)
        assert any(m["type"] == "state" and m["table"]["game"] == 2 for m in msgs)
        err = await move(hub, c, "again")  # not a move
        assert err["type"] == "error"
        await hub.receive(c, '{"type": "again"}')
        assert out(c)[-1]["code"] == "not-over"
    run(tmp_path, body)


def test_chat_reaches_the_table_and_is_kept(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "pagat", 3)
        spy = await hello(hub, code, None, None, spectate=True)
        out(spy)
        await hub.receive(clients[1], '{"type": "chat", "text": "  good luck  "}')
        for c in clients + [spy]:
            assert {"type": "chat", "name": "P1", "text": "good luck"} in out(c)
        await hub.receive(spy, '{"type": "chat", "text": "hi"}')
        assert out(spy)[-1]["code"] == "spectator"
        late = await hello(hub, code, None, None, spectate=True)
        assert out(late)[0]["chat"] == [{"name": "P1", "text": "good luck"}]
    run(tmp_path, body)


def test_restart_rebuilds_every_room_from_the_log(tmp_path: Path, db_url: str) -> None:
    saved: dict[str, Any] = {}

    async def first(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "goat", 3)
        room = hub.rooms[code]
        state = room.state
        for _ in range(25):
            seat = state.to_act
            legal = state.legal_actions(seat)
            await move(hub, clients[room.seating[seat]], str(legal[-1]))
        await hub.receive(clients[2], '{"type": "chat", "text": "brb"}')
        await hub.receive(clients[1], '{"type": "leave"}')
        await hub.close()  # stop the bots before taking the snapshot
        saved.update(code=code, history=list(state.history), hands=list(state.hands), lines=list(room.lines),
                     last_n=list(room.last_n), entries=room.entries)

    async def second(hub: Hub, clock: Clock) -> None:
        room = hub.rooms[saved["code"]]
        assert room.state.history == saved["history"] and room.state.hands == saved["hands"]
        assert room.lines == saved["lines"] and room.last_n == saved["last_n"]
        assert room.chat == [{"name": "P2", "text": "brb"}] and room.players[1].left  # type: ignore[union-attr]
        assert room.entries == saved["entries"]
        assert not hub.errors

    run(tmp_path, first, db_url)
    run(tmp_path, second, db_url)


def test_a_friend_joining_during_the_deal_takes_the_open_seat_from_its_bot(tmp_path: Path) -> None:
    async def body(hub: Hub, clock: Clock) -> None:
        a = await hub.create_room("Ann", preset="pagat", house_rules=None, players=3, seats=["open", "easy"])
        ann = await hello(hub, a["room"], 0, a["token"])
        room = hub.rooms[a["room"]]
        await hub.receive(ann, '{"type": "start"}')  # the open seat is played by a bot for now
        assert room.status == "playing" and room.bot_for(1) == "easy"
        bo = await hub.join(a["room"], "Bo")
        assert bo["player"] == 1 and room.bot_for(1) is None and room.slot_name(1) == "Bo"
        c = await hello(hub, a["room"], 1, bo["token"])
        sync = out(c)[0]
        assert sync["you"]["seat"] == room.seat_of(1) and sync["me"]["hand"]
        full = await hub.create_room("Cy", preset="pagat", house_rules=None, players=2, seats=["easy"])
        with pytest.raises(RoomError) as e:
            await hub.join(full["room"], "Di")
        assert e.value.code == "full"
    run(tmp_path, body)


def test_a_move_the_database_refuses_is_not_taken(tmp_path: Path) -> None:
    from sqlalchemy.exc import OperationalError

    async def body(hub: Hub, clock: Clock) -> None:
        code, clients = await human_table(hub, "pagat", 3)
        room = hub.rooms[code]
        state = room.state
        seat = state.to_act
        entries = room.entries
        real = hub.store.write

        def full_disk(rows: Any) -> None:
            raise OperationalError("INSERT INTO room_log", {}, Exception("database or disk is full"))

        hub.store.write = full_disk  # type: ignore[method-assign]
        reply = await move(hub, clients[room.seating[seat]], str(state.legal_actions(seat)[0]))
        assert reply["code"] == "server" and "nothing changed" in reply["message"]
        assert state.history == [] and room.entries == entries and hub.errors
        hub.store.write = real  # type: ignore[method-assign]
        reply = await move(hub, clients[room.seating[seat]], str(state.legal_actions(seat)[0]))
        assert reply["type"] == "ack" and len(state.history) == 1
    run(tmp_path, body)


def test_a_double_deck_room_plays_a_whole_deal_and_rebuilds_from_its_log() -> None:
    # two packs through the server's rooms: the deck of 104 cards, moves stored as card names (each
    # name plays the copy the seat holds), and a restart replaying the stored entries to the same deal
    from skitgubbe.server.rooms import Room

    spec = make_spec(preset=None, house_rules='preset = "goat"\n[options]\ndecks = 2\ndreck_below = 12\n',
                     players=5, seats=["open"] * 4)
    room = Room("DD", spec)
    log: list[tuple[str, dict[str, Any]]] = []
    start = room.prepare_start(random.Random(4))
    room.apply_entry("start", start)
    log.append(("start", start))
    state = room.state
    assert state is not None and len(state.deck) == 104 and sorted(state.deck) == list(range(104))
    rng = random.Random(5)
    twins_played = 0
    while room.status == "playing":
        seat = state.to_act
        action = state.chance_action(rng) if seat < 0 else rng.choice(state.legal_actions(seat))
        twins_played += action.cards >= 1 << 52
        payload = room.prepare_bot_act(seat, str(action))
        room.apply_entry("act", payload)
        log.append(("act", payload))
    assert state.is_over and state.loser is not None and twins_played
    again = Room("DD", spec)
    for kind, payload in log:
        again.apply_entry(kind, payload)
    assert again.state is not None
    assert again.state.history == state.history and again.state.outcome == state.outcome
