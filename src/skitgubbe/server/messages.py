"""The messages the server sends to clients, as JSON text (docs/server.md, "The protocol"):
:func:`table_message` (``sync`` and ``state``: the table, a seat's own part, what happened since the
client's last message) and :func:`error_message` (an ``error``).

A broadcast sends one ``state`` to every connection of a room: the parts every reader in one
language shares (the table's head, a seat's own part, the narration lines, the events) are turned
into JSON once per broadcast and kept in ``cache``, and each client's message is joined from those
texts with the few fields that are its own (``lines``, ``events``, ``ack``...).  That join is the one
place JSON is written by concatenation: it writes the same bytes as ``protocol.dumps`` of the whole
dict would (the pieces are ``protocol.dumps`` texts), once per client instead of once per client
and part.  Every other message is a dict given to :meth:`~skitgubbe.server.hub.Client.send`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.view import SPECTATOR, view_of
from . import protocol
from .rooms import Room, public_view

if TYPE_CHECKING:  # (the hub imports this module; a client is only read and updated here)
    from .hub import Client

__all__ = ["table_message", "error_message", "TableFacts"]

TableFacts = tuple[list[int], list[bool], "float | None", "dict[str, Any] | None"]
"""What the hub knows of a room beyond the room itself: connections per player slot, whether each
slot is played by the fill bot for being away, seconds left on the running timer (None: none), and
the two-table session's facts (None outside a session)."""


def error_message(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """An ``error`` message: ``code`` (docs/server.md lists them), ``message`` (English, for logs
    and developers; the page words it by ``code`` in the reader's language) and ``extra`` fields
    (``n``, ``retry_after``, ``said``)."""
    return {"type": "error", "code": code, "message": message, **extra}


def table_message(room: Room, client: Client, *, full: bool, facts: Callable[[], TableFacts],
                  cache: dict[Any, Any] | None = None) -> str:
    """The ``sync`` (``full``) or ``state`` message for ``client``, as JSON text: the table, the
    seat's own part, and the table talk and events (as this seat or a spectator may see them)
    since the client's last message of this deal (all of the deal's in a ``sync``); records on
    ``client`` what it has been sent.  Every text a person reads (narration, reasons, the kill
    count, the loser's title) is in the client's language (``client.lang``), with the seats called
    by their names.  ``facts`` is called (once per language and ``cache``) for what the hub knows of the room
    (:data:`TableFacts`); ``cache`` holds the parts shared by the clients of one broadcast."""
    cache = {} if cache is None else cache
    state = room.state
    seat = room.seat_of(client.slot) if client.slot is not None else None
    lang = client.lang
    if ("names", lang) not in cache:
        cache[("names", lang)] = room.seat_names(lang)
    names: list[str] = cache[("names", lang)]
    head_key = ("head", lang)
    if head_key not in cache:
        connected, away, left, session = facts()
        pub = None
        if state is not None:
            pub = protocol.public_part(public_view(state), room.seq, lang, names)
        cache[head_key] = protocol.dumps({
            "room": room.code, "rules": room.spec.rules.name, "players": room.spec.players,
            "status": room.status, "game": room.game,
            "seats": room.seats_info(connected, away, lang), "timer": left,
            "turn_seconds": room.spec.turn_seconds, "public": pub,
            "session": session,
        })
    key = ("me", seat, lang)
    if key not in cache:
        me = None
        if state is not None and seat is not None:
            me = protocol.seat_part(view_of(state, seat), lang)
            p = room.players[room.seating[seat]]
            me["left"] = p is not None and p.left
            me["why"] = protocol.reasons(state, seat, lang, names)
        cache[key] = protocol.dumps(me) if me is not None else "null"
    if full or client.game_sent != room.game:
        client.lines_sent = client.events_sent = 0
    lines_key = ("lines", lang, client.lines_sent, len(room.narration))
    if lines_key not in cache:
        cache[lines_key] = protocol.render_lines(room.narration[client.lines_sent:], lang, names)
    lines: list[str] = cache[lines_key]
    client.lines_sent = len(room.narration)
    client.game_sent = room.game
    first = client.events_sent
    events: list[dict[str, Any]] = []
    if state is not None:
        ev_key = ("events", seat, first, len(state.events))
        if ev_key not in cache:
            who = SPECTATOR if seat is None else seat
            partner = -1 if seat is None else state.partner(seat)
            cache[ev_key] = protocol.events_part(state.events[first:], who, partner=partner)
        events = cache[ev_key]
        client.events_sent = len(state.events)
    extra: dict[str, Any] = {"lines": lines, "events": events, "events_from": first}
    if client.ack is not None:
        extra["ack"] = client.ack
        client.ack = None
    if full:
        extra.update({"chat": room.chat, "you": {"player": client.slot, "seat": seat,
                                                  "name": room.slot_name(client.slot)
                                                  if client.slot is not None else None}})
    kind = "sync" if full else "state"
    head: str = cache[head_key]
    mine: str = cache[key]
    return '{"type":"' + kind + '","table":' + head + ',"me":' + mine + "," + protocol.dumps(extra)[1:]
