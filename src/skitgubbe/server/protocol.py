"""The websocket protocol: validating what a client sends, serialising what it may see.

Everything a client receives about a deal is built here from a
:class:`~skitgubbe.engine.view.View`: :func:`public_part` from the view of a seat that does
not hold the face-down trump card (the fields every seat's view shares: the
table, counts, piles, the trump once turned, the sluff window) and
:func:`seat_part` from the seat's own view (its hand, its legal moves, the trump
card if that seat may see it).  A spectator gets the public part only.  Cards are
written in action notation (``"7H"``, ``"TD"``); card numbers never appear.

Client messages are JSON objects of at most :data:`MAX_MESSAGE_BYTES` bytes, nested at
most :data:`MAX_JSON_DEPTH` deep, with a ``type`` from :data:`CLIENT_TYPES`;
:func:`parse_client_message` checks every field (:func:`load_json_object` the text itself, for
the HTTP bodies too) and raises :class:`ProtocolError` naming what was wrong and what is allowed.
:func:`check_name` checks display names.

Every text a person reads is written for its reader's language (``hello``'s or ``lang``'s ``lang``,
one of :data:`~skitgubbe.engine.i18n.LANGUAGES`): :func:`narrate` gives the narration as the
engine's messages (through :mod:`skitgubbe.server.words`), which :func:`render_lines` writes per
reader with the seats' names; :func:`reasons` and :func:`public_part` take the language.  Refusals
(:class:`ProtocolError`) stay English: the page translates them by their code.
See docs/server.md for every message.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from confusable_homoglyphs import confusables

from ..engine.actions import Action, Kind
from ..engine.base import PUBLIC, Event, Phase
from ..engine.cards import SUIT_MASKS2, SUITS, card_name, cards_in, in_order, rank_of
from ..engine.i18n import LANGUAGES, Message, render, suit_order_in
from ..engine.phase_two import pick_up_take
from ..engine.rules import FirstPhase, Rules
from ..engine.state import State
from ..engine.view import SPECTATOR, View, event_for
from . import words

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_CHAT_CHARS",
    "MAX_NAME_CHARS",
    "MAX_JSON_DEPTH",
    "MAX_RULES_NAME_CHARS",
    "ERROR_CODES",
    "CLIENT_TYPES",
    "ProtocolError",
    "ClientMessage",
    "parse_client_message",
    "load_json_object",
    "check_name",
    "name_key",
    "cards_list",
    "public_part",
    "seat_part",
    "reasons",
    "table_words",
    "events_part",
    "narrate",
    "render_lines",
    "check_language",
    "dumps",
]

MAX_MESSAGE_BYTES = 2048
"""The largest client message accepted, in bytes (UTF-8)."""

MAX_CHAT_CHARS = 300
"""The longest chat line, in characters."""

MAX_NAME_CHARS = 24
"""The longest display name, in characters."""

MAX_JSON_DEPTH = 8
"""The deepest nesting of JSON arrays and objects accepted in a client message or an HTTP request
body, in levels (``{"type": "ping"}`` is 1; every message and body needs at most 2).  Deeper text is
refused before it is parsed: Python's JSON parser recurses once a level."""

MAX_RULES_NAME_CHARS = 40
"""The longest name of a room's rules (house rules may name them), in characters."""

ERROR_CODES = (
    "malformed", "too-large", "too-deep", "unknown-type", "bad-field", "rate-limited", "no-hello", "no-room",
    "forbidden", "spectator", "not-playing", "left", "replayed", "bad-move", "illegal", "not-lobby",
    "not-over", "bad-request", "server", "bad-rules", "bad-table", "full", "name-taken", "too-many-rooms",
    "server-full", "too-many-connections", "bad-origin", "no-deal", "bad-record",
    "bad-host", "bad-content-type", "too-many-misses", "busy", "corrupt", "no-language",
    "bad-token", "not-invited", "moved", "room-moving",
)
"""Every ``code`` a refusal may carry: in an ``error`` message on the websocket and in an HTTP answer
``{"error": code, "message": ...}`` (docs/server.md says what each means)."""

CLIENT_TYPES = ("hello", "act", "chat", "leave", "reclaim", "start", "again", "replay", "lang", "ping")
"""The ``type`` values a client may send (docs/server.md, "Client messages")."""

_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"room": str, "player": (int, type(None)), "token": (str, type(None)), "spectate": bool,
              "lang": str},
    "act": {"n": int, "move": str},
    "chat": {"text": str},
    "leave": {},
    "reclaim": {},
    "start": {},
    "again": {"roving": bool},
    "replay": {},
    "lang": {"lang": str},
    "ping": {},
}
_REQUIRED = {"hello": ("room",), "act": ("n", "move"), "chat": ("text",), "lang": ("lang",)}


class ProtocolError(ValueError):
    """A client message (or HTTP request body) that cannot be used.  ``code`` is a short
    machine-readable word (``malformed``, ``too-large``, ``too-deep``, ``unknown-type``,
    ``bad-field``); the message says what was wrong and what is allowed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class ClientMessage:
    """One validated client message: ``type`` (one of :data:`CLIENT_TYPES`) and its
    ``fields`` (only the documented keys, each of the documented type)."""

    type: str
    fields: dict[str, Any]

    def get(self, key: str, default: Any = None) -> Any:
        """The value of field ``key``, or ``default`` when the client left it out."""
        return self.fields.get(key, default)


def _type_name(t: type | tuple[type, ...]) -> str:
    ts = t if isinstance(t, tuple) else (t,)
    words = {int: "an integer", str: "a string", bool: "true or false", type(None): "null"}
    return " or ".join(words.get(x, x.__name__) for x in ts)


_JSON_SIGNIFICANT = re.compile(r'[\[\]{}"\\]')


def _too_deep(text: str, limit: int) -> bool:
    """True if the JSON ``text`` nests arrays and objects more than ``limit`` levels deep; brackets
    inside strings do not count.  Linear in the length of ``text``; text that is not JSON may get
    either answer (the parser refuses it)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = False
    skip = -1
    for m in _JSON_SIGNIFICANT.finditer(text):
        i = m.start()
        if i == skip:  # the character after a backslash
            continue
        ch = m.group()
        if in_string:
            if ch == "\\":
                skip = i + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
        # (a backslash outside a string is not JSON: the parser refuses it)
    return False


def _not_json(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large")
    return value


def _is_text(value: str) -> bool:
    """False for a str holding a lone surrogate (from a ``\\ud800`` escape): it cannot be sent as UTF-8."""
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _all_text(value: Any) -> bool:
    if isinstance(value, str):
        return _is_text(value)
    if isinstance(value, list):
        return all(_all_text(v) for v in value)
    if isinstance(value, dict):
        return all(_is_text(k) and _all_text(v) for k, v in value.items())
    return True


def load_json_object(raw: str | bytes, *, max_bytes: int, what: str, example: str) -> dict[str, Any]:
    """Read ``raw`` (UTF-8 bytes, or text) as one JSON object: at most ``max_bytes`` bytes, arrays
    and objects nested at most :data:`MAX_JSON_DEPTH` deep, every text valid Unicode.  ``what``
    names it in errors ("the message", "the request body"); ``example`` is a good one.

    Raises :class:`ProtocolError`: ``too-large`` beyond ``max_bytes`` bytes; ``too-deep`` for
    deeper nesting (checked before parsing); ``malformed`` for bytes that are not UTF-8, text that
    is not JSON (``NaN``, ``Infinity`` and numbers beyond a float's range included) or not an
    object; ``bad-field`` for a field whose text holds a lone surrogate (a ``\\ud800`` escape
    without its pair), which is not text.
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
    if size > max_bytes:
        raise ProtocolError("too-large", f"{what} has {size} bytes: the limit is {max_bytes} bytes")
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(
                "malformed", f"{what} is not UTF-8: send JSON text such as {example}") from None
    else:
        text = raw
    if _too_deep(text, MAX_JSON_DEPTH):
        raise ProtocolError("too-deep", f"{what} nests arrays and objects more than {MAX_JSON_DEPTH} levels "
                            f"deep: send a flat object such as {example}")
    try:
        data = json.loads(text, parse_constant=_not_json, parse_float=_finite)
    except ValueError:  # JSONDecodeError, a constant or number refused above, an integer too long
        raise ProtocolError("malformed", f"{what} is not JSON: send an object such as {example}") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", f"{what} must be a JSON object such as {example}")
    for key, value in data.items():
        if not _is_text(key) or not _all_text(value):
            shown = repr(key) if _is_text(key) else "a field name"
            raise ProtocolError("bad-field", f"{shown:.40} holds a lone surrogate (a \\ud800-\\udfff escape "
                                "without its pair), which is not text")
    return data


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Validate one client message (the text of a websocket frame): the one check of everything a
    client sends before anything acts on it.

    Raises :class:`ProtocolError`: what :func:`load_json_object` raises (``too-large`` beyond
    :data:`MAX_MESSAGE_BYTES`, ``too-deep``, ``malformed``, ``bad-field`` for a lone surrogate);
    ``unknown-type`` for a ``type`` that is not one of :data:`CLIENT_TYPES` (a list or an object
    included); ``bad-field`` for an unknown key, a missing required key or a value of the wrong
    type (booleans are not integers), a negative or huge ``n``, a move that is empty or too long,
    or a chat text that is empty, longer than :data:`MAX_CHAT_CHARS` characters, holds control
    characters or invisible and direction-changing format characters (U+202E, U+2066, U+200B,
    U+FEFF, ...: every Unicode format character but the zero-width joiner and non-joiner and the
    emoji tags), a ``lang`` (of ``hello`` or ``lang``) that is not one of
    :data:`~skitgubbe.engine.i18n.LANGUAGES`.
    """
    data = load_json_object(raw, max_bytes=MAX_MESSAGE_BYTES, what="the message", example='{"type": "ping"}')
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("unknown-type",
                            f"type {kind!r:.40} is not known; types are {', '.join(CLIENT_TYPES)}")
    allowed = _FIELDS[kind]
    fields: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        if key not in allowed:
            keys = ", ".join(allowed) or "none"
            raise ProtocolError("bad-field", f"{kind}: unknown field {key!r:.40}; fields are {keys}")
        want = allowed[key]
        wants = want if isinstance(want, tuple) else (want,)
        if isinstance(value, bool) and bool not in wants or not isinstance(value, wants):
            raise ProtocolError("bad-field", f"{kind}.{key} must be {_type_name(want)}, not {value!r:.40}")
        fields[key] = value
    for key in _REQUIRED.get(kind, ()):
        if key not in fields:
            raise ProtocolError("bad-field", f"{kind}: the field {key!r} is missing")
    if kind == "act":
        if not 0 < fields["n"] < 2**53:
            raise ProtocolError("bad-field", "act.n must be a positive integer, larger for every new move")
        if not fields["move"].strip() or len(fields["move"]) > 100:
            raise ProtocolError("bad-field", "act.move must be a move of 1 to 100 characters, e.g. 'play 7H'")
    if kind == "chat":
        text = " ".join(fields["text"].split())  # one line: newlines and tabs become spaces
        if not text or len(text) > MAX_CHAT_CHARS or any(unicodedata.category(c) == "Cc" for c in text):
            raise ProtocolError("bad-field", f"chat.text must be 1 to {MAX_CHAT_CHARS} characters of text, "
                                "without control characters")
        hidden = next((c for c in text if _invisible(c)), None)
        if hidden is not None:
            raise ProtocolError("bad-field", f"chat.text may not hold invisible or direction-changing "
                                f"characters (it holds U+{ord(hidden):04X} {unicodedata.name(hidden, '')}): "
                                "send plain text")
        fields["text"] = text
    if "lang" in fields:
        fields["lang"] = check_language(fields["lang"], f"{kind}.lang")
    if kind == "hello" and (len(fields["room"]) > 32 or len(fields.get("token") or "") > 100):
        raise ProtocolError("bad-field", "hello.room or hello.token is too long to be real")
    return ClientMessage(kind, fields)


def check_language(lang: object, what: str = "lang") -> str:
    """``lang`` if it is a language the table speaks (one of :data:`~skitgubbe.engine.i18n.LANGUAGES`,
    a language code such as ``"sv"``); ``what`` names the field in the refusal.

    Raises :class:`ProtocolError` (``bad-field``) listing the languages otherwise."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise ProtocolError("bad-field", f"{what} must be one of {', '.join(LANGUAGES)}, not {lang!r:.40}")
    return lang


_RESERVED_NAME = re.compile(r"you|spectators?|(?:seat|bot)(?: ?\d+)?|.*\bbots? ?\d+|.*\(you\).*")
"""Keys (:func:`name_key`) of the names a person may not take: the words the table uses for its own
seats and people ("You", "you", "Seat 2", "spectator", "(you)" after a name) and the label of a seat
a bot keeps ("easy bot 2": :meth:`skitgubbe.server.rooms.Room.slot_name`)."""


_KEPT_FORMAT = frozenset("\u200c\u200d")
"""The invisible format characters a chat line may hold: the zero-width non-joiner and joiner, which
shape Persian and Indic words and join emoji (👩‍💻)."""


def _invisible(c: str) -> bool:
    """True for a format character (Unicode category Cf: the direction overrides and isolates U+202A-E
    and U+2066-9, the zero-width space U+200B, the byte-order mark U+FEFF, ...) other than
    :data:`_KEPT_FORMAT` and the emoji tag characters (U+E0020-E007F, which spell a flag's region)."""
    return (unicodedata.category(c) == "Cf" and c not in _KEPT_FORMAT
            and not 0xE0020 <= ord(c) <= 0xE007F)


@lru_cache(maxsize=4096)
def _latin_lookalike(c: str) -> str:
    """The ASCII character that the non-ASCII character ``c`` is drawn like (Unicode's confusables, by
    the ``confusable_homoglyphs`` package: a Cyrillic ``о`` is ``o``, a Cyrillic ``Р`` is ``P``), or
    ``c`` itself when it has none; an ASCII character is itself."""
    if c.isascii():
        return c
    for found in confusables.is_confusable(c, greedy=True, preferred_aliases=["latin"]) or ():
        for glyph in found["homoglyphs"]:
            if glyph["c"].isascii() and glyph["c"].isprintable():
                return str(glyph["c"])
    return c


def name_key(name: str) -> str:
    """The form in which display names are compared: compatibility-normalised (NFKC: a
    full-width ``Ｙｏｕ`` is ``you``), case-folded, runs of white space folded into one space, and every
    non-ASCII letter that is drawn like an ASCII one replaced by it (:func:`_latin_lookalike`: ``Yоu``
    with a Cyrillic ``о`` is ``you``, ``Р0`` with a Cyrillic ``Р`` is ``p0``), so that nobody can take
    a name that reads as another player's or as the table's own words.  Letters with no ASCII
    look-alike (``å``, ``ü``, ``я``) stay as they are."""
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    if folded.isascii():
        return folded
    return "".join(_latin_lookalike(c) for c in folded).casefold()


def check_name(name: object) -> str:
    """A display name as it is stored and shown: surrounding white space removed and every run of
    white space inside (tabs, no-break spaces) one space; then 1 to :data:`MAX_NAME_CHARS`
    printable characters, not a word the table uses itself (You, Seat 2, spectator) nor a bot's
    label (easy bot 2).  (Bot names and names already at the table are refused by
    :meth:`skitgubbe.server.rooms.Room.prepare_join`.)

    Raises :class:`ProtocolError` (``bad-field``) saying what is allowed otherwise."""
    if not isinstance(name, str):
        raise ProtocolError("bad-field", f"a display name is a text of 1 to {MAX_NAME_CHARS} characters")
    folded = " ".join(name.split())
    if not folded or len(folded) > MAX_NAME_CHARS:
        raise ProtocolError("bad-field", f"a display name is 1 to {MAX_NAME_CHARS} characters, not "
                            f"{len(folded)}")
    if not folded.isprintable():
        raise ProtocolError("bad-field", "a display name may not hold control or invisible characters: use "
                            "letters, digits, spaces and punctuation")
    if _RESERVED_NAME.fullmatch(name_key(folded)):
        raise ProtocolError("bad-field", f"{folded!r} reads like the table's own words (You, Seat 2, "
                            "spectator) or a bot's label (easy bot 2): choose another name")
    return folded


def cards_list(mask: int) -> list[str]:
    """The cards of card set ``mask`` in notation, lowest first: ``["7H", "TD"]``."""
    return list(_cards(mask))


@lru_cache(maxsize=1 << 16)
def _cards(mask: int) -> tuple[str, ...]:
    return tuple(card_name(c) for c in in_order(mask))  # two packs: a twin next to its twin's place


@lru_cache(maxsize=4096)
def _legal_entry(action: Action, lang: str) -> dict[str, str]:
    label = action.label() if lang == "en" else render(words.action_message(action), lang)
    return {"move": str(action), "label": label, "kind": _KIND_WORDS[action.kind]}


def _hand_order(hand: int, trump: int, lang: str = "en") -> list[str]:
    """The hand grouped by suit in the order ``lang``'s players sort them
    (:func:`~skitgubbe.engine.i18n.suit_order_in`: clubs, diamonds, hearts, spades in English), the
    trump suit last, each suit by rank."""
    suits = [s for s in suit_order_in(lang) if s != trump] + ([trump] if trump >= 0 else [])
    out: list[str] = []
    for s in suits:
        out += _cards(hand & SUIT_MASKS2[s])  # both packs
    return out


def public_part(view: View, seq: int, lang: str = "en", names: Sequence[str] | None = None) -> dict[str, Any]:
    """The fields every seat may see, as JSON-ready data.

    ``view`` must be the spectator's view (``view_of(state, SPECTATOR)``, see
    :func:`skitgubbe.server.rooms.public_view`); ``seq`` is the number of actions taken in the
    deal so far.  The texts a person reads (``kill``, ``loser_title``) are in language ``lang``
    (one of :data:`~skitgubbe.engine.i18n.LANGUAGES`; ``names``, the seats' names, fill in any seat
    they name).  Raises ``ValueError`` for any other view: one seat's view may hold cards the
    others have not seen (the face-down trump card, a 3-player-confusion partner hand).
    """
    if view.seat != SPECTATOR:
        raise ValueError(f"public_part needs the spectator's view, not the view of seat {view.seat}")
    one = view.phase == Phase.ONE
    rules = view.rules
    data: dict[str, Any] = {
        "seq": seq,
        "rules": rules.name,
        "players": view.players,
        "dealer": view.dealer,
        "phase": Phase.NAMES.get(view.phase, ""),
        "to_act": view.to_act,
        "hand_sizes": list(view.hand_sizes),
        "piles": [p.bit_count() for p in view.piles],
        "known": [_cards(k) for k in view.known],
        "stock": view.stock_size,
        "trump_suit": SUITS[view.trump_suit] if view.trump_suit >= 0 else None,
        "trump_holder": view.trump_holder,
        "trump_card": card_name(view.trump_card) if view.trump_card >= 0 else None,
        "exposed": card_name(view.exposed_card) if view.exposed_card >= 0 else None,
        "leader": view.leader,
        "rounds": [[[s, card_name(c)] for s, c in rnd] for rnd in view.rounds],
        "round_seats": list(view.round_seats),
        "sluffs": [[s, card_name(c)] for s, c in view.sluffs],
        "winner": view.trick_winner,
        "window": list(view.sluff_window),
        "table": [[s, _cards(p)] for s, p in view.table],
        "kill_at": view.kill_at,
        "kill": _text(words.kill_message(len(view.table), view.kill_at), lang, names) if view.table else "",
        "to_beat": _to_beat(view),
        "pick_up": _cards(pick_up_take([p for _, p in view.table], rules.pick_up)[0]),
        "out": list(view.out_order),
        "loser": view.loser,
        "loser_title": _text(words.loser_message(rules), lang, names),
        "sluffing": rules.sluffing and one,
        "must_match": rules.must_match,
        "first_phase": rules.first_phase.value,
        "reserve": view.reserve_size,
    }
    return data


def _to_beat(view: View) -> list[str]:
    """The cards a seat must beat now, for the page to mark: in phase one the cards heading the
    current round (the led card when tricks are won by beating it, as in Mas; else every card of
    the highest rank so far, aces low under ``aces_low_first``, ranks played by two or more seats
    first under ``ties_beat_unique``), in phase two the top play; else none."""
    rules = view.rules
    if view.phase == Phase.TWO:
        return list(_cards(view.table[-1][1])) if view.table else []
    if view.phase != Phase.ONE or not view.rounds or not view.rounds[-1]:
        return []
    rnd = view.rounds[-1]
    if rules.first_phase is FirstPhase.BEAT:
        return [card_name(rnd[0][1])] if len(rnd) == 1 else []
    ranks = [rank_of(c) for _, c in rnd]

    def strength(rank: int) -> tuple[bool, int]:
        tied = rules.ties_beat_unique and ranks.count(rank) > 1
        return tied, 1 if rank == 14 and rules.aces_low_first else rank

    top = max(strength(r) for r in ranks)
    return [card_name(c) for (_, c), r in zip(rnd, ranks, strict=True) if strength(r) == top]


def seat_part(view: View, lang: str = "en") -> dict[str, Any]:
    """What only ``view.seat`` may see, as JSON-ready data: ``seat``, ``hand`` (cards grouped by
    suit in ``lang``'s order, trump last), ``legal`` (``[{"move": "play 7H", "label": "play 7♥",
    "kind": "play"}, ...]``, the labels in ``lang``) and ``trump_card`` (the trump card when this
    seat may see it)."""
    return {
        "seat": view.seat,
        "hand": _hand_order(view.hand, view.trump_suit, lang),
        "legal": [_legal_entry(a, lang) for a in view.legal],
        "trump_card": card_name(view.trump_card) if view.trump_card >= 0 else None,
    }


_TEN = re.compile(r"(?<![A-Za-z0-9])T(?=[♣♦♥♠]|(?![A-Za-z0-9]))")


def table_words(text: str) -> str:
    """``text`` (the engine's words) as the table writes it: the rank ten as ``10``, in a card
    (``T♦`` -> ``10♦``) and alone (``rank T`` -> ``rank 10``).  Action notation (``play TD``) is not
    touched: only a ``T`` before a suit symbol or standing as a word."""
    return _TEN.sub("10", text)


def reasons(state: State, seat: int, lang: str = "en", names: Sequence[str] | None = None) -> dict[str, str]:
    """Why ``seat`` may or may not make its moves now, in the rules' words, keyed by move in
    notation: for every legal move the engine's :meth:`~skitgubbe.engine.state.State.reason_message`, and
    for every card of the seat's hand that no legal one-card move plays,
    :meth:`~skitgubbe.engine.state.State.explain_message`
    of playing it (of sluffing it, when the rules sluff and it is another seat's turn in phase one).
    Empty outside phase one and two.  The texts speak of the seat's own hand and the table only (the
    leak test holds them to that): the page shows them on hover, long-press and keyboard focus.  They
    are written in language ``lang`` (one of :data:`~skitgubbe.engine.i18n.LANGUAGES`) for the reader
    who holds ``seat``, with the other seats called by ``names`` (a seat's name per seat; None: the
    engine's words); ranks are written as the page writes them (in English :func:`table_words`: 10, not
    T; elsewhere the catalog's card words).  The keys stay in notation."""
    if state.phase not in (Phase.ONE, Phase.TWO):
        return {}
    legal = state.legal_actions(seat)
    out: dict[str, str] = {}
    singles: set[str] = set()
    you = frozenset((seat,))
    for action in legal:
        text = str(action)
        out[text] = _text(words.reason_message(state, action, seat), lang, names, you)
        if action.kind in (Kind.PLAY, Kind.SLUFF) and action.cards.bit_count() == 1:
            singles.add(card_name(action.cards.bit_length() - 1))
    sluff = state.phase == Phase.ONE and state.rules.sluffing and state.to_act != seat
    for c in cards_in(state.hands[seat]):
        name = card_name(c)
        if name in singles:
            continue
        action = Action(Kind.SLUFF if sluff else Kind.PLAY, 1 << c)
        if str(action) not in out:
            out[str(action)] = _text(words.explain_message(state, action, seat), lang, names, you)
    return out


_PLACE = re.compile("\x00([0-9]+)\x01")


def _text(message: Message, lang: str, names: Sequence[str] | None,
          you: frozenset[int] = frozenset()) -> str:
    """``message`` rendered in ``lang`` with the seats called ``names`` (None: the engine's words), as
    the table writes it: in English with :func:`table_words` applied to the engine's words only, so a
    player's name (say "T") is never changed."""
    if lang != "en":
        return render(message, lang, names, you)
    if names is None:
        return table_words(render(message, lang, None, you))
    marks = [f"\x00{i}\x01" for i in range(len(names))]
    text = table_words(render(message, lang, marks, you))
    return _PLACE.sub(lambda m: names[int(m.group(1))], text)


def events_part(events: Sequence[Event], seat: int, *, partner: int = -1) -> list[dict[str, Any]]:
    """``events`` (as :meth:`State.apply <skitgubbe.engine.state.State.apply>` returned them, raw) as
    ``seat`` (or :data:`~skitgubbe.engine.view.SPECTATOR`) may see them at the web table, JSON-ready:
    ``{"kind", "seat", "seats", "cards", "n"}`` with ``cards`` in notation (empty where they are
    hidden from ``seat``: :func:`~skitgubbe.engine.view.event_for`) and ``n`` the number of cards the
    event moved (public: every hand size, pile and the stock are).  ``partner`` is the seat's
    3-player-confusion partner hand (-1: none): at the web table each hand is its own person, so
    the partner's private events are hidden too."""
    out = []
    for ev in events:
        shown = event_for(ev, seat)
        if partner >= 0 and ev.seat == partner and ev.to != PUBLIC:
            shown = ev._replace(cards=0)
        out.append({"kind": ev.kind, "seat": ev.seat, "seats": list(ev.seats),
                    "cards": list(_cards(shown.cards)), "n": ev.cards.bit_count()})
    return out


_KIND_WORDS = {kind: str(Action(kind)) for kind in Kind}
"""The ``kind`` word of a legal move for the client, per action kind: the verb of its notation
(``"play"``, ``"pick"``, ``"store"``, ``"exchange"``, ...), so every kind has one."""


def narrate(events: Sequence[Event], rules: Rules, dreck: int) -> list[Message]:
    """Narration lines for ``events`` (events as a spectator sees them, see
    :class:`~skitgubbe.engine.base.Event`) under ``rules``, as messages each reader renders in their
    language (:func:`render_lines`); ``dreck`` is the card set of the dreck last collected (public).
    Uses :func:`skitgubbe.engine.narration.event_message`; passes are not told (the table shows who is
    still asked to sluff)."""
    lines = []
    for ev in events:
        if ev.kind == "pass":  # (the table shows who is still asked to sluff)
            continue
        line = words.event_message(ev, rules, dreck=dreck)
        if line is not None:
            lines.append(line)
    return lines


def render_lines(lines: Sequence[Message | str], lang: str, names: Sequence[str],
                 you: Collection[int] = ()) -> list[str]:
    """Narration ``lines`` (:func:`narrate`'s messages; a ``str`` is text already written) in language
    ``lang`` with the seats called ``names``, in the third person for every seat (the page shows the
    reader's own name) but the seats ``you`` (the reader's, in the second person: a lesson's learner).
    English is exactly the engine's English sentence."""
    return [render(line, lang, names, you) for line in lines]


def action_text(action: Action) -> str:
    """An action in notation as a client may see it (a chance dreck order is never sent)."""
    return "dreck" if action.kind is Kind.DRECK else str(action)


def dumps(data: dict[str, Any]) -> str:
    """Compact JSON text of a server message (UTF-8 characters kept as they are)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
