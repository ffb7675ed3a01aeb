"""Replays that outlive their room: finished deals kept in the database under a permanent id, and the
replay of a game-record file a visitor uploads (docs/record-format.md).  No I/O, no HTTP.

Both give the ``replay`` message a room sends for a finished deal
(:meth:`~skitgubbe.server.rooms.Room.replay_data`): ``complete`` true, ``names``, ``hands`` (the
starting hands), ``moves``, ``record`` and ``frames`` (:func:`~skitgubbe.server.rooms.deal_frames`), so
the page steps through them with the same replay stepper.  A finished deal shows every hand to
everyone; nothing of a deal in progress is ever kept here.
"""

from __future__ import annotations

from typing import Any

from ..engine.base import IllegalActionError
from ..engine.i18n import N_, gettext_in
from ..engine.record import RecordFormatError, ReplayError, loads, record_of, replay, start_state
from ..engine.record import dumps as record_dumps
from . import protocol
from .rooms import Room, RoomError, deal_frames

__all__ = ["MAX_RECORD_BYTES", "archive_entry", "stored_replay", "record_replay", "is_deal_id"]

MAX_RECORD_BYTES = 131_072
"""The largest record file accepted for a replay, in bytes of UTF-8 (the longest deal of eight seats
with two packs is about 10 kB)."""


def is_deal_id(text: str) -> bool:
    """True if ``text`` has the form of a deal's id (16 lower-case hex digits,
    :meth:`~skitgubbe.server.rooms.Room.deal_id`)."""
    return len(text) == 16 and all(c in "0123456789abcdef" for c in text)


def archive_entry(room: Room) -> tuple[str, dict[str, Any]]:
    """What is kept of ``room``'s finished deal: its id and ``{"room", "game", "names", "record"}``
    (the record as text).  Raises ``ValueError`` when the room's deal is not over."""
    state = room.state
    if state is None or not state.is_over:
        raise ValueError("only a finished deal is kept")
    return room.deal_id(), {"room": room.code, "game": room.game, "names": room.seat_names(),
                            "record": record_dumps(record_of(state))}


def _message(text: str, names: list[str], *, game: int, deal: str | None, lang: str) -> dict[str, Any]:
    """The replay message of record ``text``, its texts in ``lang`` (raises what :func:`loads` and
    :func:`replay` raise)."""
    record = loads(text)
    final = replay(record)  # every move checked, and the loser it claims
    start = start_state(record)
    hands = [protocol.cards_list(h) for h in start.hands]
    if len(names) != final.players:
        seat = gettext_in(lang, N_("Seat {n}"))
        names = [seat.format(n=s) for s in range(final.players)]
    frames = deal_frames(start, record.moves, names, lang)
    return {"type": "replay", "game": game, "complete": True, "names": names, "hands": hands,
            "moves": [[s, str(a)] for s, a in record.moves], "record": text, "frames": frames,
            "deal": deal, "over": final.is_over}


def stored_replay(deal: str, data: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    """The replay message of the deal ``deal`` stored as ``data`` (:func:`archive_entry`), its texts
    (narration, kill count, loser's title) in language ``lang``.  Only the names and the record are
    stored, never a text, so a deal stored before the table spoke languages replays in any.  Raises
    :class:`~skitgubbe.server.rooms.RoomError` ``corrupt`` if the stored record no longer replays
    (rules changed since it was stored)."""
    try:
        names = [str(n) for n in data["names"]]
        return _message(str(data["record"]), names, game=int(data["game"]), deal=deal, lang=lang)
    except (KeyError, TypeError, ValueError, IllegalActionError) as e:
        raise RoomError("corrupt", f"deal {deal} no longer replays: {e}") from None


def record_replay(text: str | bytes, lang: str = "en") -> dict[str, Any]:
    """The replay message of an uploaded game record ``text`` (docs/record-format.md; seats are named
    "Seat 0", "Seat 1", ... in ``lang``; ``game`` 0 and ``deal`` None: it has no permanent link).

    Raises :class:`~skitgubbe.server.rooms.RoomError` ``bad-record`` with the engine's message,
    which names the line (and field, or move) at fault: a record that does not parse, or a move that
    is not legal where it stands, or a loser that is not the deal's.  Its texts are in ``lang``."""
    if len(text) > MAX_RECORD_BYTES:
        raise RoomError("bad-record", f"a record is at most {MAX_RECORD_BYTES} bytes, not {len(text)}")
    try:
        return _message(text if isinstance(text, str) else _utf8(text), [], game=0, deal=None, lang=lang)
    except (RecordFormatError, ReplayError) as e:
        raise RoomError("bad-record", str(e)) from None


def _utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise RecordFormatError(line, "record", "not UTF-8 text") from None
