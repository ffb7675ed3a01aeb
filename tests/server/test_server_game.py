"""Whole deals through the real websocket: with bots, and the leak test (every message received by
every seat checked for another seat's hidden cards)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from server_helpers import LiveServer, Player, cards_mentioned, play_until_over

from skitgubbe.cards import card_name, cards_in
from skitgubbe.state import State


def hidden_from(state: State, seat: int) -> set[str]:
    """The cards ``seat`` may not know about now: other seats' cards not publicly known, the
    stock, the face-down trump card; a dreck dealt to several seats was public when collected."""
    if state.is_over:
        return set()
    mask = 0
    for s in range(state.players):
        if s != seat:
            mask |= state.hands[s] & ~state.known[s]
    for c in state.stock:
        mask |= 1 << c
    if state.trump_suit < 0 and state.trump_card >= 0:
        mask |= 1 << state.trump_card
    if len(state.needy) > 1:
        mask &= ~state.dreck
    if state.rules.exposed_bottom and state.deck:
        mask &= ~(1 << state.deck[-1])
    return {card_name(c) for c in cards_in(mask)}


def check_no_leak(room: Any, seats: dict[int, Player]) -> int:
    """Check every message each player received during the deal against the true deal replayed
    move by move; return the number of messages checked."""
    final: State = room.state
    start = State.new(final.rules, final.players, dealer=final.dealer, deck=final.deck,
                      leader=final.first_leader, live=True)
    hidden: list[list[set[str]]] = []  # hidden[seq][seat]
    state = start
    hidden.append([hidden_from(state, s) for s in range(final.players)])
    for seat, action in final.history:
        state.apply(action, seat)
        hidden.append([hidden_from(state, s) for s in range(final.players)])
    checked = 0
    for seat, p in seats.items():
        seq = 0
        for raw in p.received:
            msg = json.loads(raw)
            pub = (msg.get("table") or {}).get("public")
            if pub is not None:
                seq = pub["seq"]
            if msg["type"] == "chat":
                continue  # people's own words
            leaked = cards_mentioned(raw) & hidden[seq][seat]
            assert not leaked, f"seat {seat} was sent {sorted(leaked)} at move {seq}: {raw[:300]}"
            # the structure itself: a seat's own part only
            if msg.get("me") is not None:
                assert msg["me"]["seat"] == seat
            checked += 1
    return checked


def test_a_deal_against_bots_through_the_websocket(db_url: str) -> None:
    server = LiveServer(db_url).start()
    try:
        _deal_against_bots(server)
    finally:
        server.stop()


def _deal_against_bots(server: LiveServer) -> None:
    made = server.make_room(preset="pagat", players=3, seats=["easy", "easy"])

    async def go() -> Player:
        p = Player(server.ws, made["room"], 0, made["token"], rng=random.Random(1))
        first = await p.connect()
        assert first["type"] == "sync" and first["you"] == {"player": 0, "seat": 0, "name": "Ann"}
        assert first["table"]["status"] == "playing"  # no open seat: the deal starts at once
        await play_until_over([p])
        await p.close()
        return p

    p = asyncio.run(go())
    assert p.last is not None
    table = p.last["table"]
    assert table["status"] == "over" and table["public"]["loser"] in (0, 1, 2)
    assert sum(s["goats"] for s in table["seats"]) == 1
    assert any("Trump revealed" in line for raw in p.received for line in json.loads(raw).get("lines", []))
    room = server.hub.rooms[made["room"]]
    assert room.state.is_over and len(room.state.history) == table["public"]["seq"]
    check_no_leak(room, {0: p})


def _play_table(server: LiveServer, preset: str, players: int, seed: int, spectate: bool) -> int:
    made = server.make_room(preset=preset, players=players, seats=["open"] * (players - 1))
    tokens = [(0, made["token"])]
    for i in range(1, players):
        j = server.join(made["room"], f"P{i}")
        tokens.append((j["player"], j["token"]))

    async def go() -> tuple[list[Player], Player | None]:
        ps = [Player(server.ws, made["room"], slot, tok, rng=random.Random(seed * 10 + slot))
              for slot, tok in tokens]
        for p in ps:
            await p.connect()
        watcher = None
        if spectate:
            watcher = Player(server.ws, made["room"], None, None, spectate=True)
            await watcher.connect()
        await play_until_over(ps)
        for p in ps:
            await p.request({"type": "replay"}, "replay")
        if watcher is not None:
            while watcher.last is None or watcher.last["table"]["status"] != "over":
                await watcher.recv()
            await watcher.close()
        for p in ps:
            await p.close()
        return ps, watcher

    ps, watcher = asyncio.run(go())
    room = server.hub.rooms[made["room"]]
    seats = {room.seat_of(p.player): p for p in ps}
    n = check_no_leak(room, seats)
    if watcher is not None:
        # a spectator is checked as a seat that holds nothing: every hand is hidden from it
        final = room.state
        start = State.new(final.rules, final.players, dealer=final.dealer, deck=final.deck,
                          leader=final.first_leader, live=True)
        hidden = [_all_hidden(start)]
        for s, a in final.history:
            start.apply(a, s)
            hidden.append(_all_hidden(start))
        seq = 0
        for raw in watcher.received:
            msg = json.loads(raw)
            assert msg.get("me") is None
            if msg.get("table") and msg["table"].get("public"):
                seq = msg["table"]["public"]["seq"]
            assert not cards_mentioned(raw) & hidden[seq], raw[:300]
            n += 1
    # the replay after the deal has every hand
    last = json.loads(ps[0].received[-1])
    assert last["type"] == "replay" and last["complete"] and len(last["hands"]) == players
    return n


def _all_hidden(state: State) -> set[str]:
    if state.is_over:
        return set()
    out: set[str] = set()
    for s in range(state.players):
        out |= {c for c in hidden_from(state, s)} | {card_name(c) for c in cards_in(state.hands[s]
                                                                                  & ~state.known[s])}
    if len(state.needy) > 1:
        out -= {card_name(c) for c in cards_in(state.dreck)}
    return out


def test_leak_every_message_of_every_seat_in_many_deals(server: LiveServer) -> None:
    checked = 0
    tables = [("goat", 4, 1), ("goat", 3, 2), ("pagat", 3, 3), ("pagat", 4, 4), ("howell", 3, 5),
              ("mattis", 4, 6), ("helmfrid", 3, 7), ("atlanta", 3, 8)]
    for preset, players, seed in tables:
        checked += _play_table(server, preset, players, seed, spectate=seed % 2 == 1)
    assert checked > 1000
