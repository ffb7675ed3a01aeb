"""Two worlds that differ only in cards one seat has not seen: the server must tell that seat, and a
spectator, exactly the same things at the same moments (issue 28, item 1).

World A is a seeded deal; world B is the same deal with two cards swapped that seat 0 has not seen
(in other hands or in the stock).  Every seat is a person, so only the moves below and chance act;
the same moves are made in both worlds, chosen at random among those that name neither swapped card,
until either card can be seen by seat 0.  Up to then, every message seat 0 and a spectator receive
(each read in English and in Swedish) must be the same text, and the server's own next step (who it
waits for, a timer, a bot or chance move, and when) the same plan.  Under the plain live protocol,
where a settled trick's sluff window lists only the seats that can sluff, the same comparison finds
differences: the test shows the check can fail."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from hub_helpers import Clock, out, run, until  # noqa: E402
from leak_check import hidden_mask  # noqa: E402
from test_server_hub import hello  # noqa: E402

from skitgubbe.engine.actions import CHANCE, parse_action  # noqa: E402
from skitgubbe.engine.cards import card_name  # noqa: E402
from skitgubbe.engine.variants import PRESETS  # noqa: E402
from skitgubbe.server.hub import Hub  # noqa: E402
from skitgubbe.server.rooms import Room  # noqa: E402

SLUFFING = sorted(name for name, rules in PRESETS.items() if rules.sluffing)


def two_decks(rules_name: str, players: int, seed: int) -> tuple[list[int], list[int], tuple[int, int]]:
    """A seeded deck, the same deck with two cards swapped that seat 0 is not dealt (with the dealer
    ``players - 1``, seat 0 is dealt the deck's cards 0, ``players``, ``2 * players``, ...), and the
    two cards."""
    rules = PRESETS[rules_name]
    rng = random.Random(seed)
    deck = list(range(52 * rules.decks))
    rng.shuffle(deck)
    dealt = players * rules.hand_size
    unseen = [i for i in range(len(deck)) if not (i < dealt and i % players == 0)]
    i, j = rng.sample(unseen, 2)
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    return deck, other, (deck[i], deck[j])


async def play_world(hub: Hub, clock: Clock, rules_name: str, players: int, deck: list[int],
                     moves: list[tuple[int, str]] | None, every_seat: bool, swapped: tuple[int, int],
                     seed: int) -> dict[str, Any]:
    """Seat a table of people, deal ``deck``, make ``moves`` (None: choose them at random, seeded)
    while both swapped cards stay unseen by seat 0; return the moves made and, after each, what seat 0
    and the spectator were sent and the hub's plan."""
    a = await hub.create_room("P0", preset=rules_name, house_rules=None, players=players,
                              seats=["open"] * (players - 1))
    code = a["room"]
    tokens = [a["token"]] + [(await hub.join(code, f"P{i}"))["token"] for i in range(1, players)]
    room: Room = hub.rooms[code]
    live = hub.live[code]
    async with live.lock:  # the table filled and dealt a shuffled deck: deal this one instead
        room.status = "over"
        payload = room.prepare_start(random.Random(0))
        payload.update(deck=[card_name(c) for c in deck], dealer=players - 1, leader=0)
        if not every_seat:
            payload.pop("every_seat")
        await hub.commit(room, "start", payload)
    clients = [await hello(hub, code, i, t) for i, t in enumerate(tokens)]
    watcher = await hello(hub, code, None, None, spectate=True)
    # the same seat and a spectator reading Swedish: its card words and names must leak nothing either
    swedish = [await hello(hub, code, 0, tokens[0], lang="sv"),
               await hello(hub, code, None, None, spectate=True, lang="sv")]
    state = room.state
    rng = random.Random(seed)
    made: list[tuple[int, str]] = []
    seen: list[Any] = []
    n = [0] * players

    def still_hidden() -> bool:
        hidden = hidden_mask(state, 0)
        return all(hidden >> c & 1 for c in swapped) and not state.is_over

    def snapshot() -> None:
        plan = hub.driver.plan(room, live)
        seen.append({"seat 0": [m for m in out(clients[0])], "spectator": out(watcher), "plan": plan,
                     "seat 0 in Swedish": out(swedish[0]), "spectator in Swedish": out(swedish[1])})
        for c in clients[1:]:
            out(c)

    snapshot()
    step = 0
    while still_hidden() and step < 400:
        if state.to_act == CHANCE:
            await until(lambda: state.to_act != CHANCE)
            if not still_hidden():
                break
            snapshot()
            continue
        if moves is None:
            choices = [(s, a) for s in state.acting_seats() for a in state.legal_actions(s)
                       if not any(a.cards >> c & 1 for c in swapped)]
            if not choices:
                break
            seat, action = rng.choice(choices)
            move = (seat, str(action))
        else:
            if step >= len(moves):
                break
            move = moves[step]
        seat, text = move
        if not state.can(parse_action(text), seat):
            break  # (world B only: the pair ends where a move of A cannot be made)
        n[seat] += 1
        act = {"type": "act", "n": n[seat], "move": text}
        await hub.receive(clients[room.seating[seat]], json.dumps(act))
        made.append(move)
        step += 1
        if not still_hidden():
            break
        snapshot()
    return {"moves": made, "seen": seen, "windows": sum(1 for s in seen if s["plan"] and
                                                       s["plan"][1] == "sluff-timeout")}


def compare(tmp_path: Path, rules_name: str, players: int, seed: int, every_seat: bool) -> tuple[int, int]:
    """Play both worlds; returns (snapshots compared, snapshots that differ)."""
    deck_a, deck_b, swapped = two_decks(rules_name, players, seed)
    got: dict[str, Any] = {}

    def world(name: str, deck: list[int], moves: list[tuple[int, str]] | None) -> None:
        async def body(hub: Hub, clock: Clock) -> None:
            got[name] = await play_world(hub, clock, rules_name, players, deck, moves, every_seat, swapped,
                                         seed)
        run(tmp_path / name, body)

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    world("a", deck_a, None)
    world("b", deck_b, got["a"]["moves"])
    a, b = got["a"]["seen"], got["b"]["seen"]
    k = min(len(a), len(b))
    differ = sum(1 for i in range(k) if a[i] != b[i])
    return k, differ


CASES = [(name, players, seed) for name in SLUFFING
         for players in sorted({PRESETS[name].min_players, min(PRESETS[name].max_players, 5)})
         for seed in range(3)]


@pytest.mark.parametrize("rules_name, players, seed", CASES)
def test_seat_0_and_a_spectator_are_told_the_same_in_both_worlds(tmp_path: Path, rules_name: str,
                                                                 players: int, seed: int) -> None:
    compared, differ = compare(tmp_path, rules_name, players, seed, every_seat=True)
    assert compared > 1 and differ == 0


def test_under_the_plain_live_protocol_the_window_tells_who_can_sluff(tmp_path: Path) -> None:
    """The check above can fail: the old protocol's window differs between the worlds."""
    differ = 0
    for i, (rules_name, players, seed) in enumerate(CASES):
        case = tmp_path / str(i)
        case.mkdir()
        differ += compare(case, rules_name, players, seed, every_seat=False)[1]
        if differ:
            break
    assert differ > 0


def test_every_settled_trick_waits_for_every_seat_with_cards(tmp_path: Path) -> None:
    """Whether anyone can sluff or not, the settled trick's window names every seat holding cards."""
    async def body(hub: Hub, clock: Clock) -> None:
        deck, _, swapped = two_decks("goat", 3, 0)
        seen = await play_world(hub, clock, "goat", 3, deck, None, True, swapped, 0)
        assert seen["windows"] > 0
        room = next(iter(hub.rooms.values()))
        state = room.state
        await asyncio.sleep(0)
        if room.is_settled_window():
            holding = [s for s in range(state.players) if state.hands[s]]
            assert room.pending_seats() == holding
    run(tmp_path, body)

