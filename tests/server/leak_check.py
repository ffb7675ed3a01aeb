"""The hidden-card check of the server tests: every message a seat or a spectator received during a
deal, held against the true deal replayed move by move.

Two checks per message:

* **names**: no card the receiver may not know about is named anywhere in the message text
  (``"7H"``, ``"7♥"`` or ``"10♥"``), whatever field it hides in;
* **structure**: the table's public part equals what the engine builds from the spectator's view
  (:data:`~skitgubbe.engine.view.SPECTATOR`) at that move, and the receiver's own part equals what it
  builds from that seat's view (its ``why``, the reasons for its moves, what the engine says for
  that seat); the ``events`` of a message are the deal's events since the receiver's previous
  message, exactly as :func:`~skitgubbe.engine.view.events_for` gives them to that seat or the spectator
  (a 3-player-confusion partner's private events hidden too), and no event is skipped or sent
  twice; so no field carries more than the receiver may see.

With two packs a card name stands for two copies: a name counts as hidden only while every copy
of it is hidden from the receiver.
"""

from __future__ import annotations

import json
from typing import Any

from server_helpers import Player, cards_mentioned

from skitgubbe.engine.cards import card_name, cards_in
from skitgubbe.engine.state import State
from skitgubbe.engine.view import SPECTATOR, view_of
from skitgubbe.server import protocol


def hidden_mask(state: State, seat: int) -> int:
    """The cards ``seat`` (or :data:`SPECTATOR`) may not know about now, as a card set: other
    seats' cards not publicly known (under 3-player confusion too: at the web table every hand is
    its own person), the stock, the face-down trump card.  A dreck dealt to several seats was
    public when collected; the card face up under the stock is public."""
    if state.is_over:
        return 0
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
    if state.exposed_card >= 0:  # face up under the stock (Mas: the turned-up trump, or the 2 exchanged)
        mask &= ~(1 << state.exposed_card)
    return mask


def hidden_names(state: State, seat: int) -> set[str]:
    """The card names ``seat`` (or :data:`SPECTATOR`) may not see named: those of hidden cards
    whose every copy is hidden."""
    hidden = hidden_mask(state, seat)
    every = (1 << len(state.deck)) - 1
    seen = {card_name(c) for c in cards_in(every & ~hidden)}
    return {card_name(c) for c in cards_in(hidden)} - seen


def replayed(final: State) -> list[State]:
    """The deal's state after each number of actions, 0 to all (clones)."""
    state = State.new(final.rules, final.players, dealer=final.dealer, deck=final.deck,
                      leader=final.first_leader, live=True, ask_every_seat=final.ask_all)
    states = [state.clone()]
    for seat, action in final.history:
        state.apply(action, seat)
        states.append(state.clone())
    return states


def check_messages(room: Any, receivers: dict[int, Player]) -> int:
    """Check every message each receiver got during the room's last deal: ``receivers`` maps a
    seat, or :data:`SPECTATOR`, to the scripted player or spectator.  Returns the number of
    messages checked; fails naming the receiver, the move number and the message."""
    states = replayed(room.state)
    checked = 0
    for seat, p in receivers.items():
        seq = 0
        game = None
        sent = 0  # events of the deal this receiver was sent so far
        partner = room.state.partner(seat) if seat != SPECTATOR else -1
        for raw in p.received:
            msg = json.loads(raw)
            table = msg.get("table") or {}
            pub = table.get("public")
            if pub is not None:
                seq = pub["seq"]
            if msg["type"] == "chat":
                continue  # people's own words
            state = states[seq]
            who = "the spectator" if seat == SPECTATOR else f"seat {seat}"
            leaked = cards_mentioned(raw) & hidden_names(state, seat)
            assert not leaked, f"{who} was sent {sorted(leaked)} at move {seq}: {raw[:300]}"
            if pub is not None:
                want = json.loads(protocol.dumps(protocol.public_part(view_of(state, SPECTATOR), seq)))
                assert pub == want, f"{who}: the public part at move {seq} is not the spectator's view"
            me = msg.get("me")
            if seat == SPECTATOR:
                assert me is None, f"the spectator was sent a seat's own part: {raw[:300]}"
            elif me is not None:
                want = json.loads(protocol.dumps(protocol.seat_part(view_of(state, seat))))
                assert {k: v for k, v in me.items() if k not in ("left", "why")} == want, \
                    f"{who}: its own part at move {seq} is not its view"
                why = protocol.reasons(state, seat, "en", room.seat_names())  # the seats by their names
                assert me["why"] == why, f"{who}: its reasons at move {seq}"
            if "events" in msg and pub is not None:
                if msg["type"] == "sync" or game != table["game"]:
                    sent = 0
                game = table["game"]
                assert msg["events_from"] == sent, f"{who}: events from {msg['events_from']}, not {sent}"
                want_events = protocol.events_part(state.events[sent:], seat, partner=partner)
                assert msg["events"] == json.loads(protocol.dumps({"e": want_events}))["e"], \
                    f"{who}: the events at move {seq} are not the events as it may see them"
                sent = len(state.events)
            checked += 1
    return checked
