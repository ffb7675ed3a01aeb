"""The game-record format: dump, load and replay a deal (docs/record-format.md).

A record is plain text, one ``key = value`` header per line, then ``moves:``
and one move per line as ``<seat> <action>`` in action notation
(:mod:`skitgubbe.engine.actions`); ``#`` starts a comment.  Example::

    skitgubbe-record = 1
    rules = pagat
    players = 3
    dealer = 0
    seed = 42                 # a number or "quoted text"; optional when the deck is given
    deck = 7H 2C ...          # all 52 cards, first dealt first
    moves:
    1 play 7H
    2 stock
    ...
    loser = 2                 # optional: checked when replayed

Errors say where: :class:`RecordFormatError` names the line and field;
:class:`ReplayError` names the move index, line, seat, move and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from .actions import CHANCE, Action, ActionParseError, parse_action
from .cards import (
    SUITS,
    TWIN,
    CardParseError,
    card_name,
    format_cards,
    mask_of,
    parse_cards,
    twins_in_order,
)
from .position import Position, PositionError, check_position
from .rules import NAME_LENGTH, Rules, RulesError, short_repr, whole_number
from .state import IllegalActionError, State, deck_from_seed
from .variants import PRESETS, UnknownVariantError, find_variant

__all__ = [
    "FORMAT_VERSION",
    "SEED_DIGITS",
    "Record",
    "RecordFormatError",
    "ReplayError",
    "record_of",
    "dumps",
    "loads",
    "replay",
    "start_state",
]

FORMAT_VERSION = 1

SEED_DIGITS = 1000
"""The most digits a whole-number seed may have in a record."""


class RecordFormatError(ValueError):
    """A record that cannot be read.  ``line`` (1-based, 0 if the whole record) and
    ``field`` name the place at fault.  The message is one line, ``line N, FIELD: what is
    wrong and what is allowed``; a long or unprintable field name is shown shortened."""

    def __init__(self, line: int, field: str, message: str) -> None:
        where = f"line {line}" if line else "record"
        shown = field if field.isprintable() else repr(field)
        if len(shown) > NAME_LENGTH:
            shown = shown[:NAME_LENGTH] + "…"
        super().__init__(f"{where}, {shown}: {message}")
        self.line = line
        self.field = field


class ReplayError(ValueError):
    """A move that is not legal where it stands.  Attributes: ``index`` (0-based move
    number), ``line`` (1-based line in the text, 0 if unknown), ``seat``, ``action``
    (None when the record's claimed loser is wrong), ``reason``."""

    def __init__(self, index: int, line: int, seat: int, action: Action | None, reason: str) -> None:
        at = f" (line {line})" if line else ""
        if action is None:
            super().__init__(f"after the last move: {reason}")
        else:
            super().__init__(f"move {index + 1}{at}: seat {seat} {action}: {reason}")
        self.index = index
        self.line = line
        self.seat = seat
        self.action = action
        self.reason = reason


@dataclass(frozen=True)
class Record:
    """Everything that determines a deal, plus the result it claims.

    Attributes: ``rules`` (:class:`Rules`; written by preset name), ``players``,
    ``dealer``, ``leader`` (first leader or None for the dealer's left), ``deck``
    (52 cards, first dealt first), ``seed`` (informational: the seed that
    shuffled the deck, or None), ``live`` and ``ask_every_seat`` (the sluffing protocol:
    ``protocol = live``, ``every-seat`` or, both, ``live-every-seat``), ``moves``
    (``(seat, Action)`` in order; seat -1 is chance), ``loser`` (the claimed
    loser, checked on replay, or None), ``move_lines`` (line of each move in
    the text it was loaded from, or empty), ``position`` (the phase-two position the
    moves start from instead of a deal; ``deck`` is then empty).
    """

    rules: Rules
    players: int
    dealer: int
    deck: tuple[int, ...]
    moves: tuple[tuple[int, Action], ...] = ()
    leader: int | None = None
    seed: int | str | None = None
    live: bool = False
    loser: int | None = None
    ask_every_seat: bool = False
    move_lines: tuple[int, ...] = ()
    position: Position | None = None


def record_of(state: State, *, seed: int | str | None = None) -> Record:
    """The record of ``state`` so far (its claimed loser is the state's, if over).

    Raises ``ValueError`` for a state built by :meth:`State.from_phase_two` from hands
    alone when the game was over at once: it has neither a deal nor a position to record.
    """
    if state.position is not None:
        return Record(rules=state.rules, players=state.players, dealer=state.dealer, deck=(),
                      moves=tuple(state.history), loser=state.loser, position=state.position)
    if not state.deck:
        raise ValueError("this state was set up from hands alone: it has no deal or position to record")
    leader = None if state.first_leader == (state.dealer + 1) % state.players else state.first_leader
    return Record(
        rules=state.rules,
        players=state.players,
        dealer=state.dealer,
        deck=state.deck,
        moves=tuple(state.history),
        leader=leader,
        seed=seed,
        live=state.live,
        loser=state.loser,
        ask_every_seat=state.ask_all,
    )


def dumps(record: Record) -> str:
    """The text of ``record``.  Loading it gives back an equal record (``move_lines`` aside)."""
    out = [f"skitgubbe-record = {FORMAT_VERSION}"]
    preset = PRESETS.get(record.rules.name)
    if preset == record.rules:
        out.append(f"rules = {record.rules.name}")
    else:  # house rules: every option written out, so the record stands on its own
        out.append("rules = custom")
        out += [f"rule {k} = {_option_text(v)}" for k, v in record.rules.options().items()]
    out += [f"players = {record.players}", f"dealer = {record.dealer}"]
    if record.leader is not None:
        out.append(f"leader = {record.leader}")
    if record.live:
        out.append("protocol = live-every-seat" if record.ask_every_seat else "protocol = live")
    elif record.ask_every_seat:
        out.append("protocol = every-seat")
    if record.seed is not None:
        seed = record.seed
        out.append(f"seed = {json.dumps(seed)}")
    if record.position is not None:
        out.extend(_dump_position(record.position))
    else:
        out.append("deck = " + " ".join(card_name(c) for c in record.deck))
    out.append("moves:")
    for seat, action in record.moves:
        out.append(f"{'chance' if seat == CHANCE else seat} {action}")
    if record.loser is not None:
        out.append(f"loser = {record.loser}")
    return "\n".join(out) + "\n"


_HEADER_KEYS = ("skitgubbe-record", "rules", "rule OPTION", "players", "dealer", "leader", "protocol", "deck",
                "seed", "start", "hand N", "trump", "to-act", "out-of-play", "table", "kill-at", "out-seats")
_POSITION_KEYS = ("trump", "to-act", "out-of-play", "table", "kill-at", "out-seats")


def _option_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _dump_position(p: Position) -> list[str]:
    out = ["start = phase-two"]
    out += [f"hand {s} = {format_cards(h)}" for s, h in enumerate(p.hands)]
    out.append(f"trump = {SUITS[p.trump_suit]}")
    out.append(f"to-act = {p.to_act}")
    if p.out_of_play:
        out.append(f"out-of-play = {format_cards(p.out_of_play)}")
    if p.table:
        out.append("table = " + " | ".join(f"{s} {format_cards(c)}" for s, c in p.table))
    if p.kill_at is not None:
        out.append(f"kill-at = {p.kill_at}")
    if p.out_order:
        out.append("out-seats = " + " ".join(str(s) for s in p.out_order))
    return out


def _cards_field(text: str, line: int, field: str, used: list[int] | None = None) -> int:
    """The card set written in one field.  With two packs, ``used`` (one int, the cards
    already placed by earlier fields) is given: the first time a name is read it is the first
    pack's copy, the second time the second pack's (the copies are the same card)."""
    try:
        cards = parse_cards(text)
    except CardParseError as e:
        raise RecordFormatError(line, field, str(e)) from None
    if used is None:
        m = mask_of(cards)
        if m.bit_count() != len(cards):
            raise RecordFormatError(line, field, "a card is written twice")
        return m
    m = 0
    for c in cards:
        if not used[0] >> c & 1:
            bit = 1 << c
        elif not used[0] >> (c + TWIN) & 1:
            bit = 1 << (c + TWIN)
        else:
            raise RecordFormatError(line, field,
                                    f"{card_name(c)} is written a third time: two packs hold two")
        m |= bit
        used[0] |= bit
    return m


def _load_position(headers: dict[str, tuple[str, int]], rules: Rules, players: int, dealer: int) -> Position:
    """The position of a ``start = phase-two`` record, checked (errors name line and field)."""
    value, sline = headers["start"]
    if value != "phase-two":
        raise RecordFormatError(sline, "start",
                                f"{short_repr(value)}: the only starting point besides a deal is 'phase-two'")
    for key in ("deck", "seed", "leader"):
        if key in headers:
            raise RecordFormatError(headers[key][1], key,
                                    "a phase-two position has no deal: remove this field")
    for key, (_, line) in headers.items():
        if key.startswith("hand ") and key[5:] not in [str(s) for s in range(players)]:
            raise RecordFormatError(line, key, f"no such seat: hands are 'hand 0' to 'hand {players - 1}'")
    used = [0] if rules.decks == 2 else None  # two packs: which copies earlier fields took
    hands = tuple(_cards_field(*headers[f"hand {s}"], f"hand {s}", used) if f"hand {s}" in headers else 0
                  for s in range(players))
    if "trump" not in headers:
        raise RecordFormatError(0, "trump", "missing: name the trump suit (C, D, H or S)")
    text, tline = headers["trump"]
    suit = SUITS.find(text.strip().upper()) if len(text.strip()) == 1 else -1
    if suit < 0:
        raise RecordFormatError(tline, "trump", f"{short_repr(text)} is not a suit: write C, D, H or S")
    if "to-act" not in headers:
        raise RecordFormatError(0, "to-act", "missing: the seat to lead, or to beat or pick up")
    to_act = _int_field(*headers["to-act"], "to-act", 0, players - 1)
    out_of_play = 0
    rest = False
    if "out-of-play" in headers:
        text, line = headers["out-of-play"]
        rest = text.strip().lower() == "rest"
        out_of_play = 0 if rest else _cards_field(text, line, "out-of-play", used)
    table: list[tuple[int, int]] = []
    if "table" in headers:
        text, line = headers["table"]
        for i, part in enumerate(text.split("|"), start=1):
            seat_text, _, cards_text = part.strip().partition(" ")
            seat = whole_number(seat_text)
            if seat is None or seat < 0:
                raise RecordFormatError(line, "table", f"play {i} must start with its seat number, e.g. "
                                                       f"'0 5D 6D' (seats 0 to {players - 1})")
            table.append((seat, _cards_field(cards_text, line, "table", used)))
    kill_at = _int_field(*headers["kill-at"], "kill-at", 1, players) if "kill-at" in headers else None
    out_order: tuple[int, ...] = ()
    if "out-seats" in headers:
        text, line = headers["out-seats"]
        seats = [whole_number(w) for w in text.split()]
        if not all(s is not None and s >= 0 for s in seats):
            raise RecordFormatError(line, "out-seats", f"list seat numbers separated by spaces (seats 0 to "
                                                       f"{players - 1})")
        out_order = tuple(s for s in seats if s is not None)
    if rest:  # every card not in a hand or on the table
        placed = 0
        for h in hands:
            placed |= h
        for _, c in table:
            placed |= c
        out_of_play = rules.pack & ~placed
    position = Position(hands, suit, to_act, out_of_play=out_of_play, table=tuple(table),
                        kill_at=kill_at, out_order=out_order, dealer=dealer)
    try:
        check_position(position, rules)
    except PositionError as e:
        line = headers[e.field][1] if e.field in headers else 0
        raise RecordFormatError(line, e.field, str(e).split(": ", 1)[1]) from None
    return position


def _int_field(value: str, line: int, field: str, low: int, high: int) -> int:
    """The whole number of a field, in ASCII digits 0-9 (a leading minus allowed), within
    ``low..high``; else RecordFormatError naming the line and field."""
    v = whole_number(value)
    if v is None:
        raise RecordFormatError(line, field, f"{short_repr(value)} is not a whole number: write one from "
                                             f"{low} to {high} in the digits 0-9")
    if not low <= v <= high:
        raise RecordFormatError(line, field, f"{v} is out of range {low}..{high}")
    return v


def _decode(data: bytes) -> str:
    """``data`` as UTF-8 text (a byte order mark skipped), else RecordFormatError naming the line
    (counted as :func:`loads` counts lines) and the field of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        before = data[bom:e.start].decode("utf-8")  # (whole characters: the error is the first fault)
        lines = before.splitlines(keepends=True)
        partial = ""  # the line at fault, up to the bad byte
        if lines and lines[-1].splitlines()[0] == lines[-1]:  # (no line break yet: it is that line)
            partial = lines.pop()
        no = len(lines) + 1
        moves = any(_strip_comment(raw) == "moves:" for raw in lines)
        key, eq, _ = _strip_comment(partial).partition("=")
        field = "moves" if moves else (" ".join(key.lower().split()) if eq else "") or "header"
        raise RecordFormatError(no, field, f"byte 0x{data[e.start]:02x} at column {len(partial) + 1} is not "
                                           "UTF-8: a record is UTF-8 text") from None


def _strip_comment(raw: str) -> str:
    """The line without its comment: from a ``#`` outside double quotes to the end."""
    quoted = escaped = False
    for i, ch in enumerate(raw):
        if escaped:
            escaped = False
        elif ch == "\\" and quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return raw[:i].strip()
    return raw.strip()


def loads(text: str | bytes) -> Record:
    """Read a record: a text, or ``bytes`` of UTF-8 (a leading byte order mark is skipped).

    Raises :class:`RecordFormatError` naming the line and field at fault, in one line: bytes
    that are not UTF-8, an unknown or repeated key, a missing field, a number that is not
    written in the digits 0-9 or is out of range, a seed that is neither a whole number of at
    most :data:`SEED_DIGITS` digits nor a quoted text of Unicode characters, unknown rules or a
    rule value that is not allowed, a seat count the rules do not allow (3-player confusion
    needs six), a bad deck or position, a malformed move or a move by a seat that does not
    exist.
    """
    if isinstance(text, bytes):
        text = _decode(text)
    headers: dict[str, tuple[str, int]] = {}
    moves: list[tuple[int, Action]] = []
    move_lines: list[int] = []
    loser_line: tuple[str, int] | None = None
    in_moves = False
    for no, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw)
        if not line:
            continue
        if not in_moves:
            if line == "moves:":
                in_moves = True
                continue
            key, eq, value = line.partition("=")
            key = " ".join(key.strip().lower().split())
            if not eq or not key:
                raise RecordFormatError(no, key or "header", "expected 'key = value' or 'moves:'")
            if key not in _HEADER_KEYS and not key.startswith(("hand ", "rule ")):
                raise RecordFormatError(no, key, "unknown field; fields are " + ", ".join(_HEADER_KEYS))
            if key in headers:
                raise RecordFormatError(no, key, f"given twice (first on line {headers[key][1]})")
            headers[key] = (value.strip(), no)
            continue
        if line.startswith("loser"):
            key, eq, value = line.partition("=")
            if eq and key.strip() == "loser":
                loser_line = (value.strip(), no)
                continue
        if loser_line is not None:
            raise RecordFormatError(no, "moves", "no move may follow the 'loser' line")
        seat_text, _, action_text = line.partition(" ")
        if seat_text.lower() == "chance":
            seat = CHANCE
        else:
            number = whole_number(seat_text)
            if number is None or number < 0 or seat_text.startswith("-"):
                raise RecordFormatError(
                    no, "moves", f"a move starts with a seat number or 'chance', not {short_repr(seat_text)}"
                )
            seat = number
        try:
            action = parse_action(action_text)
        except ActionParseError as e:
            raise RecordFormatError(no, "moves", str(e)) from None
        moves.append((seat, action))
        move_lines.append(no)
    return _build(headers, moves, move_lines, loser_line)


def _build(
    headers: dict[str, tuple[str, int]],
    moves: list[tuple[int, Action]],
    move_lines: list[int],
    loser_line: tuple[str, int] | None,
) -> Record:
    def need(key: str) -> tuple[str, int]:
        if key not in headers:
            raise RecordFormatError(0, key, "missing")
        return headers[key]

    version, vline = need("skitgubbe-record")
    if version != str(FORMAT_VERSION):
        raise RecordFormatError(
            vline, "skitgubbe-record",
            f"format {short_repr(version)} is not supported; this reads {FORMAT_VERSION}"
        )
    rules_name, rline = need("rules")
    if rules_name == "custom":
        rules = Rules()
    else:
        try:
            if len(rules_name) > NAME_LENGTH:
                raise UnknownVariantError(f"no rules called {short_repr(rules_name)}; presets: "
                                          + ", ".join(sorted(PRESETS)))
            rules = find_variant(rules_name)
        except UnknownVariantError as e:
            message = str(e) + "; or 'custom' with 'rule <option> = value' lines"
            raise RecordFormatError(rline, "rules", message) from None
    fields = rules.options()
    for header, (_, line) in headers.items():
        if header.startswith("rule ") and header[5:] not in fields:
            raise RecordFormatError(line, header, "unknown option; options are " + ", ".join(fields))
    overrides: dict[str, object] = {k[5:]: v for k, (v, _) in headers.items() if k.startswith("rule ")}
    if overrides and rules_name != "custom":
        overrides.setdefault("name", f"{rules.name}+house")
    if overrides:
        try:
            rules = rules.with_options(overrides, where="rule ")
        except RulesError as e:
            key = next((k for k in headers if k.startswith("rule ") and str(e).startswith(k + ":")), None)
            if key is None:  # a combination of options: name the first rule line
                key = next(k for k in headers if k.startswith("rule "))
                raise RecordFormatError(headers[key][1], "rules", str(e)) from None
            raise RecordFormatError(headers[key][1], key, str(e)[len(key) + 2:]) from None
    players = _int_field(*need("players"), "players", rules.min_players, rules.max_players)
    if rules.confusion and players != 6:
        raise RecordFormatError(headers["players"][1], "players",
                                f"3-player confusion is played with 6 seats, not {players} (two hands for "
                                "each of three players): write players = 6")
    if "start" in headers:
        dealer = _int_field(*headers["dealer"], "dealer", 0, players - 1) if "dealer" in headers else 0
        position = _load_position(headers, rules, players, dealer)
        loser = _int_field(loser_line[0], loser_line[1], "loser", 0, players - 1) if loser_line else None
        _check_move_seats(moves, move_lines, players)
        return Record(rules=rules, players=players, dealer=dealer, deck=(), moves=tuple(moves),
                      loser=loser, move_lines=tuple(move_lines), position=position)
    for key in _POSITION_KEYS:
        if key in headers:
            raise RecordFormatError(headers[key][1], key, "belongs to a position: add 'start = phase-two'")
    for key, (_, line) in headers.items():
        if key.startswith("hand "):
            raise RecordFormatError(line, key, "belongs to a position: add 'start = phase-two'")
    dealer = _int_field(*need("dealer"), "dealer", 0, players - 1)
    leader = None
    if "leader" in headers:
        leader = _int_field(*headers["leader"], "leader", 0, players - 1)
    live = every = False
    if "protocol" in headers:
        value, pline = headers["protocol"]
        if value not in ("live", "sequential", "every-seat", "live-every-seat"):
            raise RecordFormatError(pline, "protocol", f"{short_repr(value)}: use 'sequential' (default), "
                                                       "'every-seat', 'live' or 'live-every-seat'")
        live, every = value in ("live", "live-every-seat"), value in ("every-seat", "live-every-seat")
    seed: int | str | None = None
    if "seed" in headers:
        text, sline = headers["seed"]
        seed = _seed(text, sline)
    if "deck" in headers:
        text, dline = headers["deck"]
        try:
            cards = parse_cards(text)
        except CardParseError as e:
            raise RecordFormatError(dline, "deck", str(e)) from None
        if rules.decks == 2:
            deck = _two_pack_deck(cards, dline)
        elif rules.short:
            size, have = rules.pack_size, set(cards)
            if len(cards) != size or len(have) != size or any(not rules.pack >> c & 1 for c in cards):
                listed = format_cards(rules.pack)
                raise RecordFormatError(dline, "deck", f"must list the {size} cards of the short pack "
                                        f"(lowest_rank={rules.lowest_rank}, suits={rules.suits}: {listed}) "
                                        f"once each; got {len(cards)} cards")
            deck = tuple(cards)
        elif len(cards) != 52 or len(set(cards)) != 52:
            missing = 52 - len(set(cards))
            raise RecordFormatError(
                dline, "deck", f"must list all 52 cards once each; got {len(cards)} cards, {missing} missing"
            )
        else:
            deck = tuple(cards)
        if seed is not None and deck != deck_from_seed(seed, decks=rules.decks, pack=rules.pack):
            short = isinstance(seed, str) and len(seed) <= NAME_LENGTH
            shown = json.dumps(seed) if short else short_repr(seed)
            raise RecordFormatError(dline, "deck", f"is not the order that seed = {shown} shuffles")
    elif seed is not None:
        deck = deck_from_seed(seed, decks=rules.decks, pack=rules.pack)
    else:
        raise RecordFormatError(0, "deck", "missing: give 'deck' (all the pack's cards, 52 in a "
                                            "full pack) or 'seed'")
    loser = None
    if loser_line is not None:
        loser = _int_field(loser_line[0], loser_line[1], "loser", 0, players - 1)
    _check_move_seats(moves, move_lines, players)
    return Record(rules=rules, players=players, dealer=dealer, deck=deck, moves=tuple(moves),
                  leader=leader, seed=seed, live=live, loser=loser, move_lines=tuple(move_lines),
                  ask_every_seat=every)


def _seed(text: str, line: int) -> int | str:
    """The seed a ``seed`` field writes: a whole number (ASCII digits, at most
    :data:`SEED_DIGITS`) or a text in JSON string notation ("42" is not the number 42)."""
    if text.startswith('"'):
        try:
            seed = json.loads(text)
        except ValueError:
            seed = None
        if not isinstance(seed, str):
            raise RecordFormatError(line, "seed", f"{short_repr(text)} is not a well-formed quoted text: "
                                                  'write it as in JSON, e.g. "my seed"')
        bad = next((ch for ch in seed if "\ud800" <= ch <= "\udfff"), None)
        if bad is not None:
            raise RecordFormatError(line, "seed", f"a lone surrogate ({ord(bad):#06x}) is not a character: "
                                                  "a text seed holds Unicode characters only")
        return seed
    number = whole_number(text, max_digits=SEED_DIGITS)
    if number is not None:
        return number
    body = text[1:] if text.startswith("-") else text
    if body.isascii() and body.isdigit():  # (only too long)
        raise RecordFormatError(line, "seed", f"a whole number of {len(text.lstrip('-'))} digits: a seed "
                                              f"has at most {SEED_DIGITS} digits (or write a quoted text)")
    raise RecordFormatError(line, "seed", f"{short_repr(text)}: write a whole number or a quoted text")


def _two_pack_deck(cards: list[int], line: int) -> tuple[int, ...]:
    """The deck order of a two-pack record: every card name twice, the first one the first
    pack's copy (:func:`~skitgubbe.engine.cards.twins_in_order`)."""
    counts = [0] * 52
    for c in cards:
        counts[c] += 1
    wrong = [card_name(c) + f" {k} times" for c, k in enumerate(counts) if k != 2]
    if len(cards) != 104 or wrong:
        listed = f"{len(cards)} cards" + (", " + ", ".join(wrong[:4]) if wrong else "")
        raise RecordFormatError(line, "deck",
                                f"two packs: must list all 104 cards, each name twice; got {listed}")
    return twins_in_order(cards)


def _check_move_seats(moves: list[tuple[int, Action]], move_lines: list[int], players: int) -> None:
    for (seat, _), no in zip(moves, move_lines, strict=True):
        if seat != CHANCE and not 0 <= seat < players:
            raise RecordFormatError(no, "moves", f"seat {seat} does not exist: seats are 0..{players - 1}")


def start_state(record: Record) -> State:
    """The state before the record's first move: the deal, or the phase-two position."""
    if record.position is not None:
        return State.from_position(record.rules, record.position)
    return State.new(record.rules, record.players, dealer=record.dealer, deck=record.deck,
                     leader=record.leader, live=record.live, ask_every_seat=record.ask_every_seat)


def replay(record: Record, *, upto: int | None = None) -> State:
    """The state after the record's moves (the first ``upto`` of them if given).

    Raises :class:`ReplayError` at the first illegal move, and also when the record
    claims a loser that differs from the replayed result (index = number of moves).
    """
    state = start_state(record)
    moves: Iterable[tuple[int, Action]] = record.moves if upto is None else record.moves[:upto]
    lines = record.move_lines
    for i, (seat, action) in enumerate(moves):
        try:
            state.apply(action, seat)
        except IllegalActionError as e:
            raise ReplayError(i, lines[i] if i < len(lines) else 0, seat, action, e.reason) from None
    if upto is None and record.loser is not None and state.loser != record.loser:
        got = "the game is not over" if not state.is_over else f"seat {state.loser} loses"
        raise ReplayError(len(record.moves), 0, record.loser, None,
                          f"the record says seat {record.loser} loses, but {got}")
    return state
