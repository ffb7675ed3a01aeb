"""A room: one table of friends and bots playing deal after deal.  No I/O, no HTTP.

A room is *event-sourced*: everything that changes it is an entry ``(kind, payload)``
with a JSON payload, applied by :meth:`Room.apply_entry`; the ``prepare_*`` methods
check a request and return the payload without changing anything, so the caller can
store the entry first and apply it after (:mod:`skitgubbe.server.hub`).  Replaying the
stored entries rebuilds the room exactly.

Entry kinds: ``join`` (a friend takes a player slot), ``start`` (a deal begins: its
deck, dealer, first leader, seating and sluffing protocol), ``act`` (a seat's action, the chance dreck
order included), ``leave`` / ``reclaim`` (a bot takes over the seat / hands it back),
``chat``.

Players and seats: a room has as many *player slots* as the table has seats; slot 0
is the creator.  Each deal seats the slots (``seating[seat] = slot``): the identity at
first; with the roving goat the loser changes seat with the player on its left.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import BOT_NAMES, make_bot
from ..engine.actions import Action, ActionParseError, Kind, parse_action
from ..engine.base import Event, IllegalActionError, Phase
from ..engine.cards import card_name, cards_in, parse_cards
from ..engine.i18n import N_, Message, Plural, Seat, gettext_in
from ..engine.record import dumps as record_dumps
from ..engine.record import record_of
from ..engine.rules import Rules, RulesError
from ..engine.rulesfile import RulesFileError, parse_rules_file
from ..engine.state import State, twins_in_order
from ..engine.variants import UnknownVariantError, find_variant
from ..engine.view import SPECTATOR, View, events_for, view_of
from . import protocol
from .presets import DIFFICULTY_WORDS

__all__ = [
    "DIFFICULTIES",
    "CheckedAct",
    "RoomError",
    "RoomSpec",
    "Player",
    "Room",
    "available_bots",
    "make_spec",
    "hash_token",
    "public_view",
    "deal_frames",
]

DIFFICULTIES = ("easy", "medium", "hard")
"""The difficulty names offered for bots, when :func:`~skitgubbe.bots.make_bot` knows them."""


def available_bots() -> list[str]:
    """The bot names a room may use: the difficulties :func:`~skitgubbe.bots.make_bot` accepts,
    then :data:`~skitgubbe.bots.BOT_NAMES`."""
    out = []
    for name in (*DIFFICULTIES, *BOT_NAMES):
        try:
            make_bot(name, random.Random(0))
        except ValueError:
            continue
        if name not in out:
            out.append(name)
    return out


@dataclass(frozen=True)
class CheckedAct:
    """An ``act`` entry checked against its room: ``payload`` (what is stored) and ``action`` (the
    parsed :class:`~skitgubbe.engine.actions.Action`, applied once stored:
    :meth:`Room.apply_entry`)."""

    payload: dict[str, Any]
    action: Action


class RoomError(ValueError):
    """A request a room refuses; nothing changed.  ``code`` is a short word for programs
    (``bad-rules``, ``bad-table``, ``full``, ``name-taken``, ``forbidden``, ``not-playing``,
    ``replayed``, ``bad-move``, ``illegal``, ``left``, ``spectator``, ``corrupt``; the hub adds
    ``too-many-rooms``, ``server-full`` and ``server``); the message says why, in English.
    ``words``: for ``illegal``, the rules' reason as a message, which the hub writes in each
    reader's language with the seats' names (None: only the English message)."""

    def __init__(self, code: str, message: str, *, words: Message | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.words = words


def hash_token(token: str) -> str:
    """The stored form of a seat token (SHA-256, hex): tokens themselves are never stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RoomSpec:
    """How a room was created.

    Attributes:
        rules: the ruleset.  players: seats at the table (within the rules' range).
        slots: per player slot, ``"human"`` (slot 0, the creator), ``"open"`` (for a friend
            to join; a bot plays it until then) or a bot name.
        fill_bot: the bot that plays open, left or timed-out seats.
        turn_seconds: the turn timer in seconds (0: off): when it runs out, ``fill_bot``
            moves for the seat.
        sluff_seconds: how long a settled trick waits for sluffs (seconds) before the seats
            that have not said done pass.
    """

    rules: Rules
    players: int
    slots: tuple[str, ...]
    fill_bot: str = "easy"
    turn_seconds: float = 0.0
    sluff_seconds: float = 8.0

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON-ready data (the rules as every option's value)."""
        return {"rules": self.rules.options(), "players": self.players, "slots": list(self.slots),
                "fill_bot": self.fill_bot, "turn_seconds": self.turn_seconds,
                "sluff_seconds": self.sluff_seconds}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomSpec:
        """The spec :meth:`to_json` wrote.  Raises ``RulesError`` for rules that no longer load."""
        rules = find_variant("pagat").with_options(data["rules"])
        return cls(rules, int(data["players"]), tuple(data["slots"]), str(data["fill_bot"]),
                   float(data["turn_seconds"]), float(data["sluff_seconds"]))


def make_spec(
    *,
    preset: str | None,
    house_rules: str | None,
    players: int,
    seats: list[str],
    turn_seconds: float = 0.0,
    sluff_seconds: float = 8.0,
    fill_bot: str | None = None,
) -> RoomSpec:
    """Check a request for a new room and build its :class:`RoomSpec`.

    Args:
        preset: a preset name or alias (see :data:`~skitgubbe.engine.variants.PRESETS`), or
        house_rules: a house-rules TOML text (:mod:`skitgubbe.engine.rulesfile`); exactly one.
        players: seats, within the rules' range.
        seats: for seats 1..players-1, ``"open"`` or a bot name from :func:`available_bots`.
        turn_seconds: 0 (off) or 5..600 seconds.  sluff_seconds: 1..60 seconds.
        fill_bot: the bot for open, left or timed-out seats (default the first available).

    Raises :class:`RoomError` (``bad-rules`` or ``bad-table``) naming what was wrong: ``bad-table``
    for a seat count the rules cannot be dealt to (:meth:`~skitgubbe.engine.rules.Rules.check_players`:
    outside their range, or 3-player confusion at other than six seats), so that a room that is made
    can always deal; ``bad-rules`` also for rules whose name is longer than
    :data:`~skitgubbe.server.protocol.MAX_RULES_NAME_CHARS` characters or not printable.
    """
    if (preset is None) == (house_rules is None):
        raise RoomError("bad-rules", "give either a preset name or house rules (TOML), not both or neither")
    try:
        rules = find_variant(preset) if preset is not None else parse_rules_file(house_rules or "")
    except (UnknownVariantError, RulesFileError, RulesError) as e:
        raise RoomError("bad-rules", str(e)) from None
    limit = protocol.MAX_RULES_NAME_CHARS
    if len(rules.name) > limit or not rules.name.isprintable():  # shown to every seat, stored with the room
        raise RoomError("bad-rules", f"the rules' name is shown to every seat: at most {limit} printable "
                        f"characters, not {len(rules.name)}")
    try:
        rules.check_players(players)  # the seat range, and what else the deal needs (confusion: six)
    except RulesError as e:
        raise RoomError("bad-table", str(e)) from None
    bots = available_bots()
    if len(seats) != players - 1:
        raise RoomError("bad-table", f"give one choice for each of the other {players - 1} seats, "
                        f"not {len(seats)}")
    for i, s in enumerate(seats, start=1):
        if s != "open" and s not in bots:
            raise RoomError("bad-table",
                            f"seat {i}: {s!r} is neither 'open' nor a bot; bots: {', '.join(bots)}")
    fill = fill_bot if fill_bot is not None else bots[0]
    if fill not in bots:
        raise RoomError("bad-table", f"fill bot {fill!r} is not a bot; bots: {', '.join(bots)}")
    if not (turn_seconds == 0 or 5 <= turn_seconds <= 600):
        raise RoomError("bad-table", f"the turn timer is 0 (off) or 5 to 600 seconds, not {turn_seconds}")
    if not 1 <= sluff_seconds <= 60:
        raise RoomError("bad-table", f"the sluff timer is 1 to 60 seconds, not {sluff_seconds}")
    return RoomSpec(rules, players, ("human", *seats), fill, float(turn_seconds), float(sluff_seconds))


@dataclass
class Player:
    """A friend at the table: display ``name``, the hash of the seat token, and whether the
    player has ``left`` (a bot plays the seat until the player reclaims it)."""

    name: str
    token_hash: str
    left: bool = False


def public_view(state: State) -> View:
    """What every seat may see (the spectator's view, :data:`~skitgubbe.engine.view.SPECTATOR`): the
    table's public part (:func:`protocol.public_part`) and a spectator's replay are read from it.
    Never one seat's view, which may hold more (its own hand, the face-down trump card, a
    3-player-confusion partner hand)."""
    return view_of(state, SPECTATOR)


@dataclass
class Room:
    """One table (see the module docstring).  Build with ``Room(code, spec)``, then apply
    entries.  Attributes (read them; change a room only through entries):

    ``code``; ``spec``; ``players`` (per slot, a :class:`Player` or None while open);
    ``status`` (``"lobby"``, ``"playing"`` or ``"over"``); ``game`` (deals started);
    ``state`` (the current or last deal); ``seating`` (seat -> slot); ``tally`` (losses
    per slot, the running tally of goats); ``last_n`` (per slot, the number of the last
    move message accepted); ``chat`` (``{"name", "text"}`` dicts); ``narration``
    (the narration of the current deal, as messages each client reads in its language:
    :func:`~skitgubbe.server.protocol.render_lines`; :attr:`lines` is it in English); ``entries``
    (entries applied); ``turn_started`` (monotonic seconds when the seat to act began its turn;
    ``window_started`` the same for a settled trick's sluff window).
    """

    code: str
    spec: RoomSpec
    players: list[Player | None] = field(default_factory=list)
    status: str = "lobby"
    game: int = 0
    state: State | None = None
    seating: list[int] = field(default_factory=list)
    tally: list[int] = field(default_factory=list)
    last_n: list[int] = field(default_factory=list)
    chat: list[dict[str, str]] = field(default_factory=list)
    narration: list[Message] = field(default_factory=list)
    entries: int = 0
    dreck: int = 0
    turn_started: float = 0.0
    window_started: float = 0.0
    seed: int | None = None

    def __post_init__(self) -> None:
        n = self.spec.players
        self.players = [None] * n
        self.seating = list(range(n))
        self.tally = [0] * n
        self.last_n = [0] * n

    # -- queries ------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        """Actions taken in the current deal (0 before the first)."""
        return len(self.state.history) if self.state is not None else 0

    def seat_of(self, slot: int) -> int:
        """The seat player ``slot`` has in the current deal."""
        return self.seating.index(slot)

    def bot_for(self, slot: int) -> str | None:
        """The bot that plays for ``slot`` whether or not anyone is connected: the slot's bot,
        or the fill bot for an open slot nobody joined or a player who left; None for a player."""
        kind = self.spec.slots[slot]
        if kind not in ("human", "open"):
            return kind
        p = self.players[slot]
        if p is None or p.left:
            return self.spec.fill_bot
        return None

    def slot_name(self, slot: int, lang: str = "en") -> str:
        """The name shown for ``slot``: the player's name, else e.g. ``"easy bot 2"`` (in ``lang``:
        Swedish ``"lätt bot 2"``; the English name is the one no player may take)."""
        p = self.players[slot]
        if p is not None:
            return p.name
        bot = self.bot_for(slot) or ""
        if lang == "en":
            return f"{bot} bot {slot}"
        shown = gettext_in(lang, DIFFICULTY_WORDS[bot], "bot") if bot in DIFFICULTY_WORDS else bot
        return gettext_in(lang, N_("{bot} bot {n}")).format(bot=shown, n=slot)

    @property
    def lines(self) -> list[str]:
        """The narration of the current deal in English, each seat by its name (what an English
        client reads)."""
        return protocol.render_lines(self.narration, "en", self.seat_names())

    def seat_names(self, lang: str = "en") -> list[str]:
        """The name of each seat of the current deal (a bot's in ``lang``, :meth:`slot_name`)."""
        return [self.slot_name(slot, lang) for slot in self.seating]

    def open_slots(self) -> list[int]:
        """Slots a friend may still join."""
        return [i for i, k in enumerate(self.spec.slots) if k == "open" and self.players[i] is None]

    def find_token(self, slot: int, token: str) -> bool:
        """True if ``token`` is the seat token of player ``slot``."""
        if not 0 <= slot < len(self.players):
            return False
        p = self.players[slot]
        return p is not None and p.token_hash == hash_token(token)

    # -- preparing entries (no change) ---------------------------------------------------

    def prepare_join(self, name: str, token_hash: str, *, creator: bool = False) -> dict[str, Any]:
        """The ``join`` payload for a friend called ``name`` (the creator takes slot 0); ``name`` as
        :func:`~skitgubbe.server.protocol.check_name` returned it.

        Raises :class:`RoomError`: ``full`` when no open slot is left; ``bad-field`` for the name of a
        bot (``easy``, ``heuristic``, any name :func:`~skitgubbe.bots.make_bot` accepts);
        ``name-taken`` for a name a player of this table already has, compared by
        :func:`~skitgubbe.server.protocol.name_key` (case, runs of spaces and look-alike letters do
        not count)."""
        if creator:
            if self.players[0] is not None:
                raise RoomError("full", "the creator has already joined")
            slot = 0
        else:
            free = self.open_slots()
            if not free:
                raise RoomError("full", "every seat of this table is taken: you can watch as a spectator")
            slot = free[0]
        key = protocol.name_key(name)
        is_bot = key in DIFFICULTIES or key in BOT_NAMES
        if not is_bot:
            try:
                make_bot(key, random.Random(0))  # e.g. "ismcts-50ms"
                is_bot = True
            except ValueError:
                pass
        if is_bot:
            raise RoomError("bad-field", f"{name!r} is the name of a bot ({', '.join(available_bots())}): "
                            "choose another name")
        if any(p is not None and protocol.name_key(p.name) == key for p in self.players):
            raise RoomError("name-taken", f"{name!r} is already at this table (names are compared without "
                            "case, extra spaces and look-alike letters): choose another name")
        return {"slot": slot, "name": name, "token_hash": token_hash}

    def prepare_start(self, rng: random.Random, *, roving: bool = False) -> dict[str, Any]:
        """The ``start`` payload of the next deal, shuffled with ``rng``.  After a deal the loser
        leads (with ``roving``, the loser first changes seat with the player on its left).  The deal
        is played under the live protocol with every seat asked (``every_seat``: a settled trick's
        sluff window holds every seat with cards, whether or not it can sluff, docs/sluffing.md), so
        that neither the window nor the moment the trick is collected tells anyone who holds what; a
        ``start`` stored before ``every_seat`` existed replays under the plain live protocol.
        Raises :class:`RoomError` ``not-playing`` while a deal is in progress."""
        if self.status == "playing":
            raise RoomError("not-playing", "a deal is in progress: 'again' is for after it")
        n = self.spec.players
        deck = list(cards_in(self.spec.rules.pack))  # two packs: 104 cards (cards.TWIN); a short pack fewer
        rng.shuffle(deck)
        seating = list(self.seating)
        leader = 0
        state = self.state
        if state is not None and state.loser is not None:
            leader = state.loser
            if roving:
                left = (leader + 1) % n
                seating[leader], seating[left] = seating[left], seating[leader]
                leader = left
        return {"game": self.game + 1, "deck": [card_name(c) for c in deck], "dealer": (leader - 1) % n,
                "leader": leader, "seating": seating, "every_seat": True}

    def prepare_act(self, slot: int, move: str, n: int) -> dict[str, Any]:
        """The ``act`` payload for player ``slot`` making ``move`` (action notation) as its
        message number ``n``: :meth:`check_act`'s payload (raises what it raises)."""
        return self.check_act(slot, move, n).payload

    def check_act(self, slot: int, move: str, n: int) -> CheckedAct:
        """The ``act`` entry for player ``slot`` making ``move`` (action notation) as its message
        number ``n``, checked against the room as it is: its payload (to store) and its parsed
        :class:`~skitgubbe.engine.actions.Action` (to :meth:`apply_entry` once stored, without
        parsing or checking it again).

        Raises :class:`RoomError`: ``not-playing`` outside a deal, ``left`` while a bot has
        the seat, ``replayed`` when ``n`` is not above the last accepted number, ``bad-move``
        for text that is not a move, ``illegal`` (the rules' reason) for a move not legal now.
        """
        state = self.state
        if self.status != "playing" or state is None:
            raise RoomError("not-playing", "no deal is in progress")
        p = self.players[slot]
        if p is None or p.left:
            raise RoomError("left", "you left this seat and a bot plays it: reclaim it first")
        if n <= self.last_n[slot]:
            raise RoomError("replayed", f"move message {n} was already received: number each new move "
                            f"above {self.last_n[slot]}")
        try:
            action = parse_action(move)
        except ActionParseError as e:
            raise RoomError("bad-move", str(e)) from None
        seat = self.seat_of(slot)
        if action.kind is Kind.DRECK:
            raise RoomError("illegal", "the dreck is dealt by chance, not by a seat")
        try:
            state.check(action, seat)
        except IllegalActionError as e:
            raise RoomError("illegal", e.reason, words=e.message) from None
        return CheckedAct({"seat": seat, "move": str(action), "slot": slot, "n": n}, action)

    def prepare_bot_act(self, seat: int, move: str) -> dict[str, Any]:
        """The ``act`` payload of a move chosen by the server (a bot, a timer or chance) for
        ``seat`` (``CHANCE`` for the dreck order): :meth:`check_bot_act`'s payload (raises what it
        raises)."""
        return self.check_bot_act(seat, move).payload

    def check_bot_act(self, seat: int, move: str) -> CheckedAct:
        """The ``act`` entry of a move chosen by the server (a bot, a timer or chance) for ``seat``
        (``CHANCE`` for the dreck order), checked: its payload and its parsed action (see
        :meth:`check_act`).  Raises :class:`RoomError` ``not-playing`` outside a deal, ``illegal``
        for a move not legal now."""
        state = self.state
        if self.status != "playing" or state is None:
            raise RoomError("not-playing", "no deal is in progress")
        action = parse_action(move)
        try:
            state.check(action, seat)
        except IllegalActionError as e:
            raise RoomError("illegal", e.reason) from None
        text = move if action.kind is Kind.DRECK else str(action)
        return CheckedAct({"seat": seat, "move": text, "slot": -1, "n": 0}, action)

    # -- applying entries ----------------------------------------------------------------

    def apply_entry(self, kind: str, payload: dict[str, Any], *, now: float | None = None,
                    action: Action | None = None) -> None:
        """Apply one entry (as stored).  ``now`` is the monotonic time for the timers
        (default ``time.monotonic()``).  ``action``: for an ``act`` entry just made by
        :meth:`check_act` or :meth:`check_bot_act` of this room in this same state, its parsed and
        checked action, which is applied as it is (the payload's move text is neither parsed nor
        checked again); without it (a log being replayed) the move is parsed and checked.
        Raises :class:`RoomError` ``corrupt`` for an entry that does not fit the room (a damaged
        log); the room is then unchanged."""
        t = time.monotonic() if now is None else now
        try:
            if kind == "join":
                self.players[int(payload["slot"])] = Player(str(payload["name"]), str(payload["token_hash"]))
            elif kind == "start":
                self._start(payload, t)
            elif kind == "act":
                self._act(payload, t, action)
            elif kind in ("leave", "reclaim"):
                p = self.players[int(payload["slot"])]
                if p is None:
                    raise ValueError("no player in that slot")
                p.left = kind == "leave"
            elif kind == "chat":
                self.chat.append({"name": str(payload["name"]), "text": str(payload["text"])})
                del self.chat[:-100]
            else:
                raise ValueError(f"unknown entry kind {kind!r}")
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise RoomError("corrupt", f"room {self.code}, entry {self.entries} ({kind}): {e}") from None
        self.entries += 1

    def _start(self, payload: dict[str, Any], t: float) -> None:
        deck = parse_cards(" ".join(payload["deck"]))
        if self.spec.rules.decks == 2:  # each name twice: the first is the first pack's copy
            deck = list(twins_in_order(deck))
        seating = [int(s) for s in payload["seating"]]
        if sorted(seating) != list(range(self.spec.players)):
            raise ValueError("the seating is not one seat per player")
        state = State.new(self.spec.rules, self.spec.players, dealer=int(payload["dealer"]), deck=deck,
                          leader=int(payload["leader"]), live=True,
                          ask_every_seat=bool(payload.get("every_seat", False)))
        self.state = state
        self.seating = seating
        self.game = int(payload["game"])
        self.status = "playing"
        self.dreck = 0
        self.narration = [Message(N_("Deal {game}: {rules}, {players} players; {seat} leads."),
                              {"game": self.game, "rules": self.spec.rules.name,
                               "players": self.spec.players, "seat": Seat(state.to_act)},
                              seat=state.to_act)]
        self.turn_started = self.window_started = t

    def _act(self, payload: dict[str, Any], t: float, checked: Action | None) -> None:
        state = self.state
        if state is None or self.status != "playing":
            raise ValueError("no deal is in progress")
        seat = int(payload["seat"])
        parsed = checked if checked is not None else parse_action(str(payload["move"]))
        action = state.resolve(seat, parsed)  # two packs: the copy held
        slot = int(payload["slot"])
        if checked is None:
            state.check(action, seat)
        before_to_act, before_winner = state.to_act, state.winner if state.phase == Phase.ONE else -1
        phase = state.phase
        events = events_for(state.apply(action, seat, trusted=True), SPECTATOR)  # the lines are public
        if slot >= 0:
            self.last_n[slot] = int(payload["n"])
        if state.to_act != before_to_act or seat == before_to_act:
            self.turn_started = t
        if state.phase == Phase.ONE and state.winner >= 0 and before_winner < 0:
            self.window_started = t
        self._narrate(events, phase)
        if state.is_over:
            self.status = "over"
            if state.loser is not None:
                self.tally[self.seating[state.loser]] += 1

    def _narrate(self, events: tuple[Event, ...], phase: int) -> None:
        state = self.state
        assert state is not None
        for ev in events:
            if ev.kind == "dreck":
                self.dreck = ev.cards
        self.narration += protocol.narrate(events, state.rules, self.dreck)
        if state.phase == Phase.TWO and phase != Phase.TWO:
            self.narration.append(Message(N_("Phase two: {seat} leads; {kill}"),
                                      {"seat": Seat(state.to_act),
                                       "kill": Plural("a trick is killed after {n} play.",
                                                      "a trick is killed after {n} plays.", state.kill_at)},
                                      seat=state.to_act))
        del self.narration[:-400]

    # -- what a client sees ------------------------------------------------------------------

    def seats_info(self, connected: list[int], away: list[bool], lang: str = "en") -> list[dict[str, Any]]:
        """Per seat of the current deal: ``name``, ``bot`` (the bot playing it now, or None),
        ``connected`` (live connections of its player), ``player`` (its slot), ``goats`` (the deals
        it lost: the running tally, whatever the rules call the loser) and ``open`` (a seat kept
        for a friend who has not joined yet)."""
        out = []
        for slot in self.seating:
            bot = self.bot_for(slot) or (self.spec.fill_bot if away[slot] else None)
            out.append({"name": self.slot_name(slot, lang), "bot": bot, "connected": connected[slot] > 0,
                        "player": slot, "goats": self.tally[slot],
                        "open": self.spec.slots[slot] == "open" and self.players[slot] is None})
        return out

    def deal_id(self) -> str:
        """The permanent name of the current (or last) deal: 16 hex digits of the SHA-256 of the room's
        code, the deal's number and its deck, so the same deal always has it (after a restart too) and
        nobody can guess it without the deck.  Its replay is kept under it (``/replay/<id>``,
        :mod:`skitgubbe.server.replays`).  Raises ``ValueError`` before the first deal."""
        if self.state is None:
            raise ValueError("no deal has started")
        deck = " ".join(card_name(c) for c in self.state.deck)
        return hashlib.sha256(f"{self.code}:{self.game}:{deck}".encode()).hexdigest()[:16]

    def replay_data(self, seat: int | None, lang: str = "en") -> dict[str, Any]:
        """The replay of the current (or last) deal.  Once the deal is over: ``complete``
        true, every seat's starting hand (``hands``), every move and the game record
        (``record``, docs/record-format.md), the steps (``frames``, :func:`deal_frames`) and the deal's
        permanent name (``deal``, :meth:`deal_id`).  While it runs: only the public moves from the
        view of ``seat`` (a spectator: any seat's public history), no hands, no record.  The frames'
        texts are in language ``lang`` (one of :data:`~skitgubbe.engine.i18n.LANGUAGES`)."""
        state = self.state
        if state is None:
            return {"type": "replay", "game": 0, "complete": False, "moves": [], "hands": None,
                    "record": None}
        names = self.seat_names()
        if state.is_over:
            start = State.new(state.rules, state.players, dealer=state.dealer, deck=state.deck,
                              leader=state.first_leader, live=True, ask_every_seat=state.ask_all)
            hands = [protocol.cards_list(h) for h in start.hands]
            return {"type": "replay", "game": self.game, "complete": True, "names": names,
                    "hands": hands, "moves": [[s, str(a)] for s, a in state.history],
                    "record": record_dumps(record_of(state)),
                    "frames": deal_frames(start, state.history, names, lang),
                    "deal": self.deal_id()}
        view = view_of(state, seat) if seat is not None else public_view(state)
        return {"type": "replay", "game": self.game, "complete": False, "names": names, "hands": None,
                "moves": [[s, protocol.action_text(a)] for s, a in view.history], "record": None}

    def is_settled_window(self) -> bool:
        """True while a settled phase-one trick waits for sluffs (its sluff window is open)."""
        state = self.state
        return (state is not None and state.phase == Phase.ONE and state.winner >= 0 and state.pending != 0)

    def pending_seats(self) -> list[int]:
        """Seats asked to sluff or pass now (the sluff window)."""
        state = self.state
        if state is None or state.phase != Phase.ONE or not state.pending:
            return []
        return [s for s in range(state.players) if state.pending >> s & 1]


def deal_frames(start: State, history: Sequence[tuple[int, Action]],
                names: list[str], lang: str = "en", you: Collection[int] = ()) -> list[dict[str, Any]]:
    """A deal step by step for the replay, from ``start`` (its first state, which is played on: pass a
    fresh one) through the moves ``history`` (``(seat, action)``; seat ``CHANCE`` for the dreck order):
    per step (the deal, then each move) ``seat`` and ``move`` (None for the deal), ``lines`` (the
    narration of what happened with every card told: only for a deal whose every hand may be shown),
    ``public`` (the table as every seat saw it then, :func:`protocol.public_part`: in the first step
    whole, after it only the fields that changed) and ``hands`` (``{seat: cards}``: every hand in the
    first step, after it the hands that changed).  The texts (``lines``, the public part's ``kill`` and
    ``loser_title``) are in language ``lang`` with the seats called ``names``, the seats ``you`` told in
    the second person (a lesson's learner; none for a replay).  Raises
    ``IllegalActionError`` for a move that is not legal where it stands."""
    frames: list[dict[str, Any]] = []
    dreck = 0
    last_pub: dict[str, Any] = {}
    last_hands: list[list[str] | None] = [None] * start.players

    def frame(seat: int | None, move: str | None, events: tuple[Event, ...]) -> None:
        nonlocal dreck, last_pub
        for ev in events:
            if ev.kind == "dreck":
                dreck = ev.cards
        pub = protocol.public_part(public_view(start), len(start.history), lang, names)
        hands: dict[str, list[str]] = {}
        for s, h in enumerate(start.hands):
            cards = protocol.cards_list(h)
            if cards != last_hands[s]:
                hands[str(s)] = last_hands[s] = cards
        frames.append({"seat": seat, "move": move,
                       "lines": protocol.render_lines(protocol.narrate(events, start.rules, dreck), lang,
                                                      names, you),
                       "public": {k: v for k, v in pub.items() if last_pub.get(k, ...) != v},
                       "hands": hands})
        last_pub = pub

    frame(None, None, ())
    for seat, action in history:
        frame(seat, str(action), start.apply(action, seat))
    return frames
