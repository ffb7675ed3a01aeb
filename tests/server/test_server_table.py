"""What the page is sent to draw a card table (issue 17): the events since a client's last message,
the engine's reasons for each move, the card to beat, open seats, the lobby's descriptions and bot
labels, and the replay's steps.  (That none of it leaks a hidden card: test_server_leak.py.)"""

from __future__ import annotations

import asyncio
import random
import re

import httpx
from server_helpers import LiveServer, Player

from skitgubbe.engine.actions import Action
from skitgubbe.engine.cards import card_name, rank_of
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS, find_variant
from skitgubbe.server import protocol
from skitgubbe.server.presets import describe
from skitgubbe.server.rooms import Room, make_spec, public_view


def test_the_lobby_describes_each_preset_from_its_rules_and_names_bots_as_the_cli(server: LiveServer) -> None:
    options = httpx.get(server.http + "/api/options", timeout=10).json()
    by_name = {p["name"]: p for p in options["presets"]}
    assert set(by_name) == set(PRESETS)
    assert "two-card tricks" in by_name["pagat"]["description"]
    assert "sluffing" not in by_name["pagat"]["description"]
    goat = ("everyone plays to each trick", "match if you can", "sluffing", "the dreck", "runs in phase two")
    for what in goat:
        assert what in by_name["goat"]["description"]
    assert by_name["pagat"]["loser_title"] == "skitgubbe" and by_name["goat"]["loser_title"] == "goat"
    labels = options["bot_labels"]
    assert labels["easy"] == "easy (heuristic)" and labels["medium"] == "medium (counter)"
    assert labels["hard"].startswith("hard (ismcts")
    assert labels["random"] == "random"


def test_a_description_follows_the_options() -> None:
    rules = find_variant("mattis").replace(name="custom", must_match=True, plays=find_variant("pagat").plays)
    assert describe("custom", rules) == ("everyone plays to each trick, match if you can, single cards in "
                                         "phase two, Blåmattis")


def test_messages_carry_the_events_since_the_last_one_as_the_seat_may_see_them(server: LiveServer) -> None:
    server.hub.rng = random.Random(5)
    made = server.make_room(preset="pagat", players=3, seats=["open", "open"])
    seats = [(0, made["token"])] + [(j["player"], j["token"]) for j in
                                    (server.join(made["room"], name) for name in ("Bo", "Cy"))]

    async def go() -> tuple[dict, dict, dict]:
        ps = [Player(server.ws, made["room"], slot, tok) for slot, tok in seats]
        first = await ps[0].connect()
        watcher = Player(server.ws, made["room"], None, None, spectate=True)
        seen = await watcher.connect()
        leader = first["table"]["public"]["to_act"]
        p = ps[leader]
        sync = await p.connect() if leader else first
        move = sync["me"]["legal"][0]["move"]
        await p.act(move)
        while "ack" not in (update := await p.recv()):
            pass
        for q in [*ps, watcher]:
            await q.close()
        return sync, update, seen

    sync, update, seen = asyncio.run(go())
    room = server.hub.rooms[made["room"]]
    me = sync["me"]["seat"]
    deals = [e for e in sync["events"] if e["kind"] == "deal"]
    assert sync["events_from"] == 0 and len(deals) == 3
    for e in deals:  # your own hand face up, the others' as a count
        mine = sorted(sync["me"]["hand"]) if e["seat"] == me else []
        assert e["n"] == 3 and sorted(e["cards"]) == mine
    assert all(e["cards"] == [] for e in seen["events"] if e["kind"] == "deal")  # the spectator sees no hand
    assert update["events_from"] == len(sync["events"])
    kinds = [e["kind"] for e in update["events"]]
    assert kinds[0] == "play" and update["events"][0]["cards"] == [update_move(update, sync)]
    draws = [e for e in update["events"] if e["kind"] == "draw"]
    assert draws and all(len(e["cards"]) == (1 if e["seat"] == me else 0) and e["n"] == 1 for e in draws)
    assert room.state is not None


def update_move(update: dict, sync: dict) -> str:
    """The card of the first play in ``update`` (it was one of ``sync``'s legal moves)."""
    card = update["events"][0]["cards"][0]
    assert any(m["move"] == f"play {card}" for m in sync["me"]["legal"])
    return str(card)


def test_every_legal_move_and_every_card_has_the_engines_reason() -> None:
    rules = find_variant("goat")
    state = State.new(rules, 4, seed=11, live=True)
    rng = random.Random(2)
    checked = 0
    while not state.is_over and checked < 60:
        for seat in range(4):
            why = protocol.reasons(state, seat)
            legal = state.legal_actions(seat)
            for action in legal:
                assert why[str(action)] == protocol.table_words(state.reason(action, seat))
            for c in protocol.cards_list(state.hands[seat]):
                assert any(k.split(" ")[1:] == [c] for k in why), f"no reason for {c}"
            checked += 1
        if state.to_act == -1:
            state.apply(state.chance_action(rng), -1)
            continue
        seat = state.to_act if state.to_act >= 0 else next(s for s in range(4) if state.pending >> s & 1)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    # an illegal card out of turn is explained as a sluff where the rules sluff
    assert checked >= 60


def test_reasons_write_the_ten_as_the_page_does_and_keep_the_notation() -> None:
    """Issue 29: "a card of rank T is already in the trick" where the page shows 10."""
    assert protocol.table_words("a card of rank T is already in the trick") == \
        "a card of rank 10 is already in the trick"
    assert protocol.table_words("TD beats the T♦, not J♠ (play TD)") == "TD beats the 10♦, not J♠ (play TD)"
    rng = random.Random(5)
    tens = notation = 0
    for seed in range(6):
        state = State.new(find_variant("goat"), 4, seed=seed, live=True)
        while not state.is_over and len(state.history) < 150:
            for seat in range(4):
                for move, text in protocol.reasons(state, seat).items():
                    assert not re.search(r"(?<![A-Za-z0-9])T([♣♦♥♠]|(?![A-Za-z0-9]))", text), (move, text)
                    tens += "10" in text
                    notation += bool(re.search(r"\bT[CDHS]\b", move))  # "play TD": the key is notation
            if state.to_act == -1:
                state.apply(state.chance_action(rng), -1)
                continue
            seat = state.to_act if state.to_act >= 0 else next(s for s in range(4) if state.pending >> s & 1)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert tens > 0 and notation > 0  # the tens were spoken of, as 10, and moved as TC, TD...


def test_the_card_to_beat_is_the_highest_of_the_round_then_the_top_play() -> None:
    rules = find_variant("goat")
    state = State.new(rules, 4, seed=3, live=True)
    rng = random.Random(1)
    while state.phase == 1:
        pub = protocol.public_part(public_view(state), len(state.history))
        rnd = state.rounds[-1] if state.rounds else ()
        if rnd:
            top = max(rank_of(c) for _, c in rnd)
            assert set(pub["to_beat"]) == {card_name(c) for _, c in rnd if rank_of(c) == top}
        seat = state.to_act if state.to_act >= 0 else next(s for s in range(4) if state.pending >> s & 1)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    while state.phase != 3 and not state.is_over:
        state.apply(state.chance_action(rng), -1)
    seat = state.to_act
    state.apply(rng.choice([a for a in state.legal_actions(seat) if a != Action.parse("pick")]), seat)
    pub = protocol.public_part(public_view(state), len(state.history))
    assert pub["to_beat"] == protocol.cards_list(state.table[-1])


def test_open_seats_are_marked_and_the_replay_has_every_step() -> None:
    spec = make_spec(preset="pagat", house_rules=None, players=3, seats=["open", "easy"])
    room = Room("OP", spec)
    info = room.seats_info([0, 0, 0], [False] * 3)
    assert [s["open"] for s in info] == [False, True, False]
    room.apply_entry("start", room.prepare_start(random.Random(4)))
    state = room.state
    assert state is not None
    rng = random.Random(4)
    while not state.is_over:
        seat = state.to_act if state.to_act >= 0 else -1
        action = state.chance_action(rng) if seat == -1 else rng.choice(state.legal_actions(seat))
        room.apply_entry("act", room.prepare_bot_act(seat, str(action)))
    replay = room.replay_data(None)
    frames = replay["frames"]
    assert len(frames) == len(replay["moves"]) + 1 and frames[0]["move"] is None
    hands: dict[str, list[str]] = {}
    pub: dict = {}
    for f in frames:
        hands.update(f["hands"])
        pub.update(f["public"])
    assert [hands[str(s)] for s in range(3)] == [protocol.cards_list(h) for h in state.hands]
    assert pub["loser"] == state.loser and pub["phase"] == "game over"
    assert [frames[0]["hands"][str(s)] for s in range(3)] == replay["hands"]
