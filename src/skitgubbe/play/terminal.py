"""The terminal game: one human seat against bots, drawn with ``rich``.

:func:`play_game` deals a game and runs it; :class:`Session` is the thin loop
(ask the seat to act, apply, narrate).  Everything shown comes from the
human's :class:`~skitgubbe.engine.view.View` (the table) or from ``state.events``
(public narration), so another seat's unseen cards are never rendered.  The
rendering is done by small pure functions (:func:`render_hand`,
:func:`render_trick`, :func:`render_seats`, :func:`render_moves`,
:func:`render_screen`, :func:`describe_event`) that the tests call directly.

Seats are named ``"You"`` (the human) and ``"Seat N"`` (N the 0-based seat
number used by records and rule explanations); the table adds each bot's kind,
e.g. ``"Seat 2 (random)"``.  Under 3-player confusion (``rules.confusion``) the
person holds two seats, s and s + 3 (rulings CF1, CF2): they are named
``"You (right hand)"`` (seats 0-2) and ``"You (left hand)"`` (seats 3-5), and the
person is asked whenever either hand is to act.

The dealer is seat ``players - 1``, so seat 0 (the dealer's left) leads the
first trick whatever the human's seat.

Every word shown is a message id written in the session's language (``lang``: a code of
:data:`~skitgubbe.engine.i18n.LANGUAGES`; ``skitgubbe play --lang``): the table, the prompt, the
help, card labels (:func:`~skitgubbe.engine.i18n.card_label_in`) and the order of the suits in
the hand (:func:`~skitgubbe.engine.i18n.suit_order_in`).  The narration and the reasons are the
engine's, rendered in that language.  In English the output is what it always was.  Moves are
typed in the notation (``7h``, ``td``, ``pick``) in every language.
"""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Mapping, Sequence
from itertools import cycle, islice
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.rule import Rule
from rich.text import Text

from ..bots import Bot, make_bot
from ..engine.actions import CHANCE, Action, ActionParseError, Kind, parse_action
from ..engine.base import Event, Phase
from ..engine.cards import (
    RANK_MASKS2,
    SUIT_MASKS2,
    SUIT_SYMBOLS,
    CardParseError,
    in_order,
    parse_card,
    rank_of,
    suit_of,
)
from ..engine.i18n import (
    LANGUAGES,
    N_,
    Message,
    Plural,
    Seat,
    Seats,
    card_label_in,
    cards_label_in,
    gettext_in,
    rank_label,
    render,
    suit_name_in,
    suit_order_in,
    translation,
)
from ..engine.narration import (
    action_message,
    describe_event,
    describe_pass,
    describe_pass_message,
    hand_word,
    kill_message,
    kill_text,
    loser_message,
    loser_title,
    seat_names,
)
from ..engine.phase_two import pick_up_take
from ..engine.record import dumps, record_of
from ..engine.rules import FirstPhase, PickUp, Plays, Rules
from ..engine.state import State
from ..engine.view import View, events_for, view_of
from .hint import hints

__all__ = [
    "play_game",
    "Session",
    "seat_names",
    "hand_word",
    "loser_title",
    "describe_event",
    "describe_pass",
    "render_hand",
    "render_trick",
    "render_seats",
    "render_moves",
    "render_help",
    "render_screen",
    "ordered_moves",
    "suit_order",
    "move_prompt",
    "Title",
    "kill_text",
    "pick_up_preview",
    "SCREEN_TITLE",
    "Rows",
    "Grid",
    "action_label",
    "LANGUAGES",
]

ReadLine = Callable[[str], str]

SCREEN_TITLE = N_("Your move")
"""The title of the table drawn whenever the human must decide (tests split the output on it); in
another language it is ``gettext_in(lang, SCREEN_TITLE)``."""

_RED = (1, 2)  # diamonds and hearts


# -- the language, names and small text helpers --------------------------------------------


def _t(lang: str, text: str, /, **fields: object) -> str:
    """Message id ``text`` in language ``lang`` (:func:`gettext_in`), its ``{fields}`` filled in."""
    out = gettext_in(lang, text)
    return out.format(**fields) if fields else out


def _count(lang: str, phrase: Plural, **fields: object) -> str:
    """A counted phrase in ``lang``: the plural form for ``phrase.n``, ``{n}`` and ``fields`` filled in."""
    return translation(lang).ngettext(phrase.one, phrase.many, phrase.n).format(n=phrase.n, **fields)


def _tell(event: Event, names: Sequence[str], rules: Rules, *, dreck: int = 0, lang: str = "en",
          you: frozenset[int] = frozenset()) -> str | None:
    """The engine's narration line for ``event`` in ``lang`` (``you``: the reader's seats); the one
    place the terminal and the lessons ask the engine to tell an event."""
    return describe_event(event, names, rules, dreck=dreck, lang=lang, you=you)


def _tell_passes(names: Sequence[str], seats: Sequence[int], lang: str, you: frozenset[int]) -> str:
    """``"Seat 1 and Seat 2 pass (no sluff)"`` in ``lang``."""
    return render(describe_pass_message(list(seats)), lang, names, you)


def _loser(rules: Rules, lang: str) -> str:
    """What the loser is called in ``lang``, with its article (``"the goat"``)."""
    return render(loser_message(rules), lang)


def _hand_word(seat: int, lang: str) -> str:
    """``"right hand"`` (seats 0-2) or ``"left hand"`` (3-5) in ``lang`` (3-player confusion)."""
    return _t(lang, N_("right hand")) if seat < 3 else _t(lang, N_("left hand"))


def _mine(view: View) -> frozenset[int]:
    """The seats the person at ``view`` holds: its seat, and under confusion the partner hand."""
    return frozenset({view.seat, (view.seat + 3) % 6}) if view.rules.confusion else frozenset({view.seat})


def _view_names(view: View, lang: str = "en") -> list[str]:
    """The default names for a rendering from ``view``: its seat is the person's."""
    return seat_names(view.players, view.seat, confusion=view.rules.confusion, lang=lang)


def _card_text(c: int, lang: str = "en") -> Text:
    return Text(card_label_in(c, lang), style="red" if suit_of(c) in _RED else "")


def _cards_text(mask: int, lang: str = "en") -> Text:
    return Text(" ").join(_card_text(c, lang) for c in in_order(mask))


def _compact(mask: int, lang: str = "en") -> str:
    """Cards grouped by suit with ranks only: ``"♣ 4 9 K · ♥ J Q"`` (the language's suit order)."""
    parts = []
    for s in suit_order_in(lang):
        ranks = [rank_label(rank_of(c), lang) for c in in_order(mask & SUIT_MASKS2[s])]  # both packs
        if ranks:
            parts.append(SUIT_SYMBOLS[s] + " " + " ".join(ranks))
    return " · ".join(parts)


def action_label(action: Action, lang: str = "en") -> str:
    """``action`` as the terminal shows it in ``lang``: :meth:`Action.label` in English
    (``"play 5♦ 6♦"``, ``"pick up"``), the language's words and card labels elsewhere."""
    if lang == "en":
        return action.label()
    return render(action_message(action), lang)


# Other seats' moves are printed in the terminal's own colour (dim grey is hard to read on many
# terminals); only events that change the course of the deal are emphasised.
_EVENT_STYLE = {
    "win": "bold", "trump": "bold magenta", "end-one": "bold", "dreck": "bold", "dreck-dealt": "bold",
    "kill": "bold", "out": "bold green", "loser": "bold red", "bounce": "yellow", "war": "yellow",
    "three-cards": "cyan", "one-card": "cyan", "abandoned": "bold red", "store": "bold magenta",
    "exchange": "bold magenta", "trump-drawn": "bold magenta",
    "tie-deal": "yellow", "tie-share": "yellow", "split": "yellow", "trick-dealt": "bold",
}


# -- the table -----------------------------------------------------------------------------


class Rows:
    """A light two-column layout: each row is a label padded to a common width and a text
    wrapped under itself (cheaper than a rich ``Table``)."""

    def __init__(self, rows: Sequence[tuple[str, Text]], *, indent: int = 2, gap: int = 2) -> None:
        self.rows = list(rows)
        self.indent = indent
        self.gap = gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        left = self.indent + max((len(label) for label, _ in self.rows), default=0) + self.gap
        room = max(options.max_width - left, 20)
        for label, text in self.rows:
            head = " " * self.indent + label.ljust(left - self.indent)
            lines = text.wrap(console, room) if len(text) > room else [text]
            for i, line in enumerate(lines):
                yield Text(head if i == 0 else " " * left) + line


class Grid:
    """Short texts laid out row by row in equal-width columns fitting the console width."""

    def __init__(self, items: Sequence[Text], *, gap: int = 3) -> None:
        self.items = list(items)
        self.gap = gap

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.items:
            return
        cell = max(len(t) for t in self.items) + self.gap
        per_row = max(1, (options.max_width + self.gap) // cell)
        for i in range(0, len(self.items), per_row):
            row = self.items[i:i + per_row]
            line = Text()
            for j, t in enumerate(row):
                line.append_text(t)
                if j < len(row) - 1:
                    line.append(" " * (cell - len(t)))
            yield line


def suit_order(trump_suit: int, lang: str = "en") -> list[int]:
    """The order in which the terminal lists suits, in the hand and in the moves alike: the
    language's order (:func:`suit_order_in`; English clubs, diamonds, hearts, spades), with the
    trump suit (``trump_suit``, -1 while unknown) moved last, where card players usually keep their
    trumps."""
    return [s for s in suit_order_in(lang) if s != trump_suit] + ([trump_suit] if trump_suit >= 0 else [])


def ordered_moves(legal: Sequence[Action], trump_suit: int, lang: str = "en") -> list[Action]:
    """``legal`` in the order the terminal numbers them: the kinds of move in the order the engine
    lists them (plays, then the stock, a pick-up or a pass), and within a kind the cards as the
    hand shows them (:func:`suit_order`: the trump suit last; by rank within a suit; a single card
    before the runs that start with it).  Moves without cards keep their place among their kind."""
    kinds: dict[int, int] = {}
    for a in legal:
        kinds.setdefault(a.kind, len(kinds))
    place = {s: i for i, s in enumerate(suit_order(trump_suit, lang))}

    def key(item: tuple[int, Action]) -> tuple[int, int, int, int, int]:
        i, a = item
        if not a.cards:
            return kinds[a.kind], 0, 0, 0, i
        cards = sorted(in_order(a.cards), key=lambda c: (place[suit_of(c)], rank_of(c)))
        first = cards[0]
        return kinds[a.kind], place[suit_of(first)], rank_of(first), len(cards), i

    return [a for _, a in sorted(enumerate(legal), key=key)]


def render_hand(view: View, *, seat: int | None = None, lang: str = "en") -> Text:
    """The seat's own hand, one line per suit, sorted by rank; the trump suit (once known) is
    marked and listed last (:func:`suit_order`, the order of the moves too).

    Under 3-player confusion the title names the hand (``"Your right hand"``), and ``seat``
    may be the partner hand, drawn from the view's known cards (ruling CF2); the hand of the
    view's seat is marked as the one to act when it is.  ``lang``: the language of the words
    and card labels (and of the suit order)."""
    seat = view.seat if seat is None else seat
    hand = view.hand if seat == view.seat else view.known[seat]
    n = hand.bit_count()
    if view.rules.confusion and seat < 3:
        which = _count(lang, Plural("Your right hand ({n} card):", "Your right hand ({n} cards):", n))
    elif view.rules.confusion:
        which = _count(lang, Plural("Your left hand ({n} card):", "Your left hand ({n} cards):", n))
    else:
        which = _count(lang, Plural("Your hand ({n} card):", "Your hand ({n} cards):", n))
    out = Text(which, style="bold")
    if view.rules.confusion and seat == view.seat and view.to_act == seat:
        out.append("  ◀ " + _t(lang, N_("to act")), style="bold")
    if not hand:
        out.append(" " + _t(lang, N_("none")))
        return out
    width = max(len(suit_name_in(x, lang)) for x in range(4)) + 1
    for s in suit_order(view.trump_suit, lang):
        m = hand & SUIT_MASKS2[s]  # both packs' cards of the suit
        if not m:
            continue
        name = suit_name_in(s, lang)
        out.append(f"\n  {SUIT_SYMBOLS[s]} {name:<{width}} ", style="red" if s in _RED else "")
        out.append_text(_cards_text(m, lang))
        if s == view.trump_suit:
            out.append("   ← " + _t(lang, N_("trump")), style="bold magenta")
    return out


def pick_up_preview(view: View) -> int:
    """The card set the seat would pick up now in phase two (0 if the table is empty)."""
    take, _, _ = pick_up_take([p for _, p in view.table], view.rules.pick_up)
    return take


def _seat_cards(plays: Sequence[tuple[int, int]], names: Sequence[str], lang: str) -> Text:
    """``"Seat 1 7♥ · You 9♦"``: each (seat, card) kept separate."""
    return Text(" · ").join(Text.assemble(names[s] + " ", _card_text(c, lang)) for s, c in plays)


def _render_trick_one(view: View, names: Sequence[str], lang: str) -> Text:
    rounds = [r for r in view.rounds]
    pairs = view.rules.first_phase is FirstPhase.PAIRS
    mine = _mine(view)
    if pairs and view.leader >= 0:
        follower = names[(view.leader + 1) % view.players]
        lead = Message(N_("Trick: {seat} leads to {follower}"),
                       {"seat": Seat(view.leader), "follower": follower},
                       seat=view.leader, you=N_("Trick: {seat} lead to {follower}"))
        head = render(lead, lang, names, mine)
    else:
        head = _t(lang, N_("Trick: led by {seat}"), seat=names[view.leader] if view.leader >= 0 else "?")
    out = Text(head, style="bold")
    if not any(rounds):
        out.append("\n  " + _t(lang, N_("no card played yet")))
    for i, rnd in enumerate(rounds):
        if not rnd:
            continue
        out.append("\n  " + _t(lang, N_("round {n}:"), n=i + 1) + " ")
        out.append_text(_seat_cards(rnd, names, lang))
        last = i == len(rounds) - 1
        if rnd and not last:
            high = max(rank_of(c) for _, c in rnd)
            tied = tuple(s for s, c in rnd if rank_of(c) == high)
            again = (N_("bounce: {seats} play again") if pairs else N_("war: {seats} play again"))
            out.append("   → " + render(Message(again, {"seats": Seats(tied)}), lang, names), style="yellow")
    if view.round_seats:
        out.append("\n  " + _t(lang, N_("still to play this round: {seats}"),
                                 seats=", ".join(names[s] for s in view.round_seats)))
        cur = rounds[-1] if rounds else ()
        if view.rules.must_match and cur:
            high = max(rank_of(c) for _, c in cur)
            out.append("\n  " + _t(lang, N_("highest so far: {rank} (match if you can)"),
                                     rank=rank_label(high, lang)))
            forced = view.hand & RANK_MASKS2[high]
            if view.seat in view.round_seats and forced:
                out.append(_t(lang, N_(": you hold {cards}, so you must match"),
                              cards=cards_label_in(forced, lang)), style="bold")
    if view.sluffs:
        out.append("\n  " + _t(lang, N_("sluffed:")) + " ")
        out.append_text(_seat_cards(view.sluffs, names, lang))
    if view.trick_winner >= 0:
        out.append("\n  " + _t(lang, N_("settled: {seat} takes the trick once the sluffing is done"),
                                 seat=names[view.trick_winner]), style="bold")
    return out


def _render_trick_two(view: View, names: Sequence[str], lang: str) -> Text:
    if not view.table:
        lead = names[view.to_act] if view.to_act >= 0 else "?"
        return Text(_t(lang, N_("Table: empty, {seat} to lead (a trick is killed after {n} plays)"),
                       seat=lead, n=view.kill_at), style="bold")
    kill = render(kill_message(len(view.table), view.kill_at), lang)
    out = Text(_t(lang, N_("Table, bottom first ({kill}):"), kill=kill), style="bold")
    width = max(len(names[s]) for s, _ in view.table)
    led, beat = _t(lang, N_("led")), _t(lang, N_("beat"))
    room = max(len(led), len(beat)) + 1
    for i, (s, p) in enumerate(view.table):
        verb = led if i == 0 else beat
        out.append(f"\n  {i + 1}. {names[s]:<{width}} {verb:<{room}}")
        out.append_text(_cards_text(p, lang))
    top = view.table[-1][1]
    out.append("\n  " + _t(lang, N_("to beat: {card}; picking up takes {cards}"),
                             card=card_label_in(top.bit_length() - 1, lang),
                             cards=cards_label_in(pick_up_preview(view), lang)))
    return out


def render_trick(view: View, names: Sequence[str] | None = None, *, lang: str = "en") -> Text:
    """The current trick.  Phase one: each round on its own line with who played what (a
    bounce/war noted), the seats still due, sluffed cards, the settled winner.  Phase two:
    each play on the table bottom first with its seat, and how many plays kill the trick.
    ``lang``: the language of the words and card labels."""
    names = names if names is not None else _view_names(view, lang)
    if view.phase == Phase.ONE:
        return _render_trick_one(view, names, lang)
    if view.phase == Phase.TWO:
        return _render_trick_two(view, names, lang)
    return Text("")


def render_seats(view: View, labels: Sequence[str], open_hands: Sequence[int] | None = None, *,
                 lang: str = "en") -> Group:
    """Stock size, trump (or who holds the face-down trump card) and one row per seat: hand
    size, pile size in phase one, publicly known cards of the others in phase two.

    ``open_hands`` (one card set per seat) shows every other seat's whole hand: the
    teaching table of ``skitgubbe play --open``.  ``lang``: the language of the words and cards."""
    one = view.phase == Phase.ONE
    head = Text()
    if one:
        n = view.stock_size
        head.append((_count(lang, Plural("Stock: {n} card", "Stock: {n} cards", n)) if n
                     else _t(lang, N_("Stock: empty"))) + "   ")
        if view.exposed_card >= 0:
            under = card_label_in(view.exposed_card, lang)
            head.append(_t(lang, N_("Under the stock: {card}"), card=under) + "   ")
    if view.reserve_size:
        head.append(_count(lang, Plural("Avstickshög: {n} card", "Avstickshög: {n} cards", view.reserve_size))
                    + "   ")
    head.append(_t(lang, N_("Trump:")) + " ")
    if view.trump_suit >= 0:
        s = view.trump_suit
        head.append(f"{SUIT_SYMBOLS[s]} {suit_name_in(s, lang)}", style="bold magenta")
        if view.trump_card >= 0:
            head.append(" " + _t(lang, N_("(the {card})"), card=card_label_in(view.trump_card, lang)))
    elif view.trump_holder >= 0:
        h = view.trump_holder
        holder = Message(N_("not yet known — {seat} holds the face-down trump card"), {"seat": Seat(h)},
                         seat=h, you=N_("not yet known — {seat} hold the face-down trump card"))
        head.append(render(holder, lang, labels, _mine(view)))
    else:
        head.append(_t(lang, N_("not yet known — the last stock card will be set aside face down to "
                                "name it")))
    rows = []
    partner = (view.seat + 3) % 6 if view.rules.confusion else -1  # its hand is drawn under the table
    for s in range(view.players):
        info = Text()
        n = view.hand_sizes[s]
        if not one and n == 0 and s not in view.out_order and view.loser != s:
            info.append(_t(lang, N_("no cards yet (Blåmattis)")), style="yellow")
        elif not one and n == 0:
            info.append(_t(lang, N_("out")), style="green")
        else:
            info.append(_count(lang, Plural("{n} in hand", "{n} in hand", n)))
            if one:
                info.append(" · " + _t(lang, N_("pile {n}"), n=view.piles[s].bit_count()))
                if s == view.trump_holder:
                    info.append(" · " + _t(lang, N_("face-down trump card")))
            elif s not in (view.seat, partner) and view.known[s] and open_hands is None:
                info.append(" · " + _t(lang, N_("known: {cards}"), cards=_compact(view.known[s], lang)))
            if open_hands is not None and s not in (view.seat, partner) and open_hands[s]:
                info.append(" · " + _t(lang, N_("holds: {cards}"), cards=_compact(open_hands[s], lang)))
            if s == view.to_act:
                info.append("  ◀ " + _t(lang, N_("to act")), style="bold")
        rows.append((labels[s], info))
    return Group(head, Rows(rows))


def render_moves(legal: Sequence[Action], *, lang: str = "en") -> Grid:
    """The legal moves numbered from 1 in the order given (the terminal gives
    :func:`ordered_moves`), each with :func:`action_label` in ``lang``, laid out in columns."""
    return Grid([Text(f"{i}) {action_label(a, lang)}") for i, a in enumerate(legal, start=1)])


def move_prompt(legal: Sequence[Action], who: str = "", *, lang: str = "en") -> str:
    """The question asked for a move: ``"Your move [1-4, or e.g. 7h; ? hint, h help, q quit]: "``;
    with a single move, ``"Your move [Enter = pick up; ...]: "`` (``who``: ``", right hand"``
    under 3-player confusion, already in ``lang``).  In every language moves are typed in the
    notation (``7h``, ``td``), and the prompt says so."""
    if len(legal) == 1:
        return _t(lang, N_("Your move{who} [Enter = {move}; ? hint, h help, q quit]: "), who=who,
                  move=action_label(legal[0], lang))
    return _t(lang, N_("Your move{who} [1-{n}, or e.g. 7h; ? hint, h help, q quit]: "), who=who, n=len(legal))


class Title:
    """The screen's title: a rule across the console with the title in it when the title fits,
    else a plain rule with the title under it, wrapped between words (``rich``'s ``Rule`` would
    cut it short with an ellipsis)."""

    def __init__(self, title: str, *, style: str = "cyan") -> None:
        self.title = title
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if cell_len(self.title) + 6 <= options.max_width:
            yield Rule(self.title, style=self.style)
            return
        yield Rule(style=self.style)
        yield Text(self.title, style="bold")


def render_hints(state: State, seat: int, *, lang: str = "en", names: Sequence[str] | None = None) -> str:
    """Every move ``seat`` may make now with why, then the cards it may not play with why not
    (:func:`skitgubbe.play.hint.hints`), in ``lang`` (``names``: the seats' names, default
    :func:`seat_names` with ``seat`` the reader's)."""
    lines = []
    found = hints(state, seat, lang=lang, names=names)
    width = max((len(action_label(h.action, lang)) for h in found), default=0)
    yes, no = _t(lang, N_("yes")), _t(lang, N_("no"))
    room = max(len(yes), len(no))
    for h in found:
        mark = (yes if h.legal else no).ljust(room)
        lines.append(f"  {mark}  {action_label(h.action, lang):<{width}}  {h.reason}")
    if not lines:
        return _t(lang, N_("No move is yours to make now."))
    return "\n".join([_t(lang, N_("Moves, and why:"))] + lines)


def render_help(rules: Rules, *, lang: str = "en") -> str:
    """Short help for the prompt in ``lang``, mentioning the options of ``rules`` that matter.
    Moves are typed in the notation in every language (``7h``, ``play 5d 6d``, ``pick``): the
    help says so."""
    lines = [
        _t(lang, N_("Answer with a move number, or type the move: 7h, play 5d 6d 7d, sluff 7c, stock, pass, "
                    "pick.")),
        _t(lang, N_("Cards are a rank (2-9, T or 10, J, Q, K, A) then a suit (c, d, h, s).")),
        _t(lang, N_("? = the legal moves and why (and why not the others), t = table, q = quit.")),
    ]
    if rules.first_phase is FirstPhase.BEAT:
        lines.append(_t(lang, N_("Phase one (Mas): lead a card; the next player beats it (a higher card of "
                                 "its suit, or a trump) and wins the trick, or picks it up.  Keep three "
                                 "cards "
                                 "by drawing.")))
        if rules.store_three_trumps:
            lines.append("  " + _t(lang, N_("store: with exactly three trumps in hand, store them for phase "
                                            "two, draw anew.")))
        if rules.exchange_two:
            lines.append("  " + _t(lang, N_("exchange: swap the 2 of trumps for the trump turned up under "
                                            "the stock.")))
    elif rules.tie_deal:
        lines.append(_t(lang, N_("Phase one: play a card (or turn up the top stock card); the highest card "
                                 "takes the trick, a tie shares the trick among the tied players.")))
    else:
        lines.append(_t(lang, N_("Phase one: play a card (or turn up the top stock card); the highest card "
                                 "takes the trick, a tie plays again.")))
    if rules.must_match:
        lines.append("  " + _t(lang, N_("Match if you can: holding the rank of the highest card so far, you "
                                        "must play it.")))
    if rules.sluffing:
        lines.append("  " + _t(lang, N_("Sluff: throw in a card of a rank already in the trick (you draw a "
                                        "replacement).")))
    run = _t(lang, N_(" or a run of touching cards")) if rules.plays is Plays.RUN else ""
    take = (_t(lang, N_("the top play")) if rules.pick_up is PickUp.TOP_CARD
            else _t(lang, N_("the lowest run on the table")))
    lines.append(_t(lang, N_("Phase two: lead any card{run}; then beat the top play (higher card of its "
                             "suit, "
                             "or a trump) or pick up {take}.  As many plays as seats kill the trick."),
                    run=run, take=take))
    lines.append(_t(lang, N_("The last seat holding cards is {loser}."), loser=_loser(rules, lang)))
    return "\n".join(lines)


_PHASE_IDS = {Phase.ONE: N_("phase one"), Phase.DRECK: N_("dreck deal"), Phase.TWO: N_("phase two"),
              Phase.OVER: N_("game over")}
"""The phases' names (:attr:`Phase.NAMES`) as message ids."""


def render_screen(view: View, labels: Sequence[str], names: Sequence[str] | None = None,
                  open_hands: Sequence[int] | None = None, *, lang: str = "en") -> Group:
    """The whole table for the seat of ``view`` when it must decide: title, seats/stock/trump,
    the trick, the hand and the numbered legal moves (numbered as :func:`ordered_moves` orders
    them; ``open_hands``: see :func:`render_seats`).

    Under 3-player confusion the title says which hand is to act and both of the person's
    hands are shown, the acting one marked.  ``lang``: the language of every word and card."""
    names = names if names is not None else _view_names(view, lang)
    phase = _t(lang, _PHASE_IDS[view.phase]) if view.phase in _PHASE_IDS else ""
    if view.phase == Phase.ONE and view.sluff_window and view.seat in view.sluff_window:
        what = _t(lang, N_("sluff a card of a rank in the trick, or pass"))
    elif view.phase == Phase.ONE:
        what = _t(lang, N_("play to the trick"))
    elif view.table:
        what = _t(lang, N_("beat it or pick up"))
    else:
        what = _t(lang, N_("lead"))
    who = f", {_hand_word(view.seat, lang)}" if view.rules.confusion else ""
    title = f"{_t(lang, SCREEN_TITLE)}{who} · {view.rules.name} · {phase} · {what}"
    hands = [render_hand(view, lang=lang)]
    if view.rules.confusion:  # both of the person's hands, right hand first (ruling CF1)
        hands = [render_hand(view, seat=s, lang=lang) for s in sorted((view.seat, (view.seat + 3) % 6))]
    return Group(
        Title(title),
        render_seats(view, labels, open_hands, lang=lang),
        render_trick(view, names, lang=lang),
        *hands,
        Text(_t(lang, N_("Moves:")), style="bold"),
        render_moves(ordered_moves(view.legal, view.trump_suit, lang), lang=lang),
    )


# -- the loop ------------------------------------------------------------------------------


class Session:
    """One game in progress in the terminal: a human seat, bots for the other seats.

    Under 3-player confusion the human also holds the partner hand of ``human_seat``
    (``State.partner``) and is asked for both; ``bots`` covers the other four seats.

    ``run()`` plays to the end (or until the human quits) and returns the exit code:
    0 at the end of the game, on ``q`` or on end of input (``EOFError``), 130 on Ctrl-C.
    ``lang`` (a code of :data:`LANGUAGES`) is the language of everything it prints.
    """

    def __init__(
        self,
        state: State,
        *,
        human_seat: int,
        bots: Mapping[int, Bot],
        console: Console,
        read_line: ReadLine,
        rng: random.Random,
        labels: Sequence[str] | None = None,
        open_hands: bool = False,
        lang: str = "en",
    ) -> None:
        self.state = state
        self.lang = lang
        self.open_hands = open_hands
        self.human = human_seat
        partner = state.partner(human_seat)
        self.seats = (human_seat,) if partner < 0 else (human_seat, partner)  # the human's seats
        self.bots = bots
        self.console = console
        self.read_line = read_line
        self.rng = rng
        self.names = seat_names(state.players, human_seat, confusion=state.rules.confusion, lang=lang)
        self.you = frozenset(self.seats)
        self.labels = list(labels) if labels is not None else list(self.names)
        self._passes: list[int] = []
        self._dreck = 0

    # output helpers
    def _say(self, line: str, style: str = "") -> None:
        """One line of narration, wrapped between words to the console's width (unless the
        console is set to soft-wrap, as when it is not a terminal)."""
        self.console.print(Text(line, style=style), highlight=False)

    def _flush_passes(self) -> None:
        if self._passes:
            self._say(_tell_passes(self.names, self._passes, self.lang, self.you))
            self._passes = []

    def run(self) -> int:
        """Play until the game ends or the human quits; return the exit code."""
        state = self.state
        try:
            while not state.is_over:
                seat = state.to_act
                if seat == CHANCE:
                    action = state.chance_action(self.rng)
                elif seat in self.seats:
                    chosen = self._ask(seat)
                    if chosen is None:
                        self._flush_passes()
                        self._say(_t(self.lang, N_("Goodbye: you left the game.")))
                        return 0
                    action = chosen
                else:
                    legal = state.legal_actions(seat)
                    action = self.bots[seat].choose(view_of(state, seat), legal)
                    if action not in legal:
                        raise ValueError(f"bot at seat {seat} chose {action}, which is not legal")
                self._apply(seat, action)
        except KeyboardInterrupt:
            self._say("\n" + _t(self.lang, N_("Interrupted: goodbye.")))
            return 130
        except EOFError:
            self._say("\n" + _t(self.lang, N_("End of input: goodbye.")))
            return 0
        self._flush_passes()
        self._summary()
        return 0

    def _summary(self) -> None:
        state = self.state
        outcome = state.outcome
        if outcome is None:  # pragma: no cover - run() only calls this once the game is over
            return
        lang = self.lang
        if outcome.loser is None:
            self._say(_t(lang, N_("Game over: nobody loses.")), "bold")
        elif state.rules.confusion:  # the player of the losing hand loses (ruling CF2)
            line = _tell(Event("loser", outcome.loser), self.names, state.rules, lang=lang, you=self.you)
            player = state.player_of(outcome.loser)
            if outcome.loser in self.seats:
                self._say(_t(lang, N_("Game over: {line}, so you lose (both hands are yours)."), line=line),
                          "bold red")
            else:
                self._say(_t(lang, N_("Game over: {line}, so player {player} ({right} and {left}) loses; you "
                                      "are safe."), line=line, player=player, right=self.names[player],
                             left=self.names[player + 3]), "bold red")
        else:
            line = _tell(Event("loser", outcome.loser), self.names, state.rules, lang=lang, you=self.you)
            self._say(_t(lang, N_("Game over: {line}."), line=line), "bold red")
        if outcome.out_order:
            order = ", ".join(self.names[s] for s in outcome.out_order)
            self._say(_t(lang, N_("Out, in order: {seats}"), seats=order))

    def _apply(self, seat: int, action: Action) -> None:
        state = self.state
        phase = state.phase
        events = events_for(state.apply(action, seat), self.seats[0])  # (a partner hand sees the same)
        for ev in events:
            if ev.kind == "pass":  # told together with the passes that follow it
                self._passes.append(ev.seat)
                continue
            self._flush_passes()
            if ev.kind == "dreck":
                self._dreck = ev.cards
            line = _tell(ev, self.names, state.rules, dreck=self._dreck, lang=self.lang, you=self.you)
            if line is not None:
                style = _EVENT_STYLE.get(ev.kind, "")
                if ev.kind in ("draw", "trump-aside") and (ev.to == -1 or ev.kind == "trump-aside"):
                    style = "magenta"
                self._say(line, style)
        if state.phase == Phase.TWO and phase != Phase.TWO:
            self._say(_t(self.lang, N_("Phase two: beat it or pick it up.  {seat} to lead; a trick is killed "
                                       "after {n} plays."), seat=self.names[state.to_act], n=state.kill_at),
                      "bold")

    def _ask(self, seat: int) -> Action | None:
        """Show the table to ``seat`` (one of the human's seats) and read until a legal move
        (returned) or quit (None)."""
        self._flush_passes()
        view = view_of(self.state, seat)
        shown = self.state.hands if self.open_hands else None
        lang = self.lang
        self.console.print(render_screen(view, self.labels, self.names, shown, lang=lang))
        who = f", {_hand_word(seat, lang)}" if len(self.seats) > 1 else ""
        prompt = move_prompt(view.legal, who, lang=lang)
        while True:
            text = self.read_line(prompt).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                return None
            if low in ("h", "help"):
                self._say(render_help(self.state.rules, lang=lang))
                continue
            if low in ("?", "hint"):
                self._say(render_hints(self.state, seat, lang=lang, names=self.names))
                continue
            if low in ("t", "table"):
                self.console.print(render_screen(view, self.labels, self.names, shown, lang=lang))
                continue
            action, reason = self.resolve(text, view)
            if action is not None:
                return action
            self._say(_t(lang, N_("Not accepted: {reason}"), reason=reason), "bold red")

    def resolve(self, text: str, view: View) -> tuple[Action | None, str]:
        """Turn the human's answer into one of ``view.legal``, or explain why not.

        Accepts a move number (1..k, as :func:`ordered_moves` numbers the moves on the screen)
        or action notation (:func:`parse_action`); a bare card that may only be sluffed is taken
        as a sluff; with a single legal move, an empty answer (Enter) takes it.  Returns
        ``(action, "")`` or ``(None, reason)``; never changes the state.
        """
        lang = self.lang
        legal = ordered_moves(view.legal, view.trump_suit, lang)
        if not text and len(legal) == 1:
            return legal[0], ""
        if not text:
            return None, _t(lang, N_("type a move number 1-{n}, a move such as 7h, or h for help"),
                            n=len(legal))
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return legal[n - 1], ""
            return None, _t(lang, N_("there is no move {n}: choose a number from 1 to {k}"), n=n,
                            k=len(legal))
        try:
            action = self.state.resolve(view.seat, parse_action(text))  # two packs: the copy held
        except ActionParseError as e:
            return None, str(e) if lang == "en" else _not_a_move(text, lang)
        if action in legal:
            return action, ""
        sluff = self.state.resolve(view.seat, Action(Kind.SLUFF, action.cards))
        if action.kind is Kind.PLAY and sluff in legal and _bare_card(text):
            return sluff, ""
        return None, self._explain(action, view)

    def _explain(self, action: Action, view: View) -> str:
        lang = self.lang
        if action.kind is Kind.DRECK:
            return _t(lang, N_("the dreck is dealt by chance, not by a seat"))
        missing = action.cards & ~view.hand
        partner = self.state.partner(view.seat)
        if missing and partner >= 0 and missing & view.known[partner] == missing:
            n = missing.bit_count()
            cards = cards_label_in(missing, lang)
            if partner < 3:
                return _count(lang, Plural("{cards} is in your right hand; your left hand is to act",
                                           "{cards} are in your right hand; your left hand is to act", n),
                              cards=cards)
            return _count(lang, Plural("{cards} is in your left hand; your right hand is to act",
                                       "{cards} are in your left hand; your right hand is to act", n),
                          cards=cards)
        if missing:
            return _t(lang, N_("you do not hold {cards}"), cards=cards_label_in(missing, lang))
        if (view.phase == Phase.ONE and view.seat in view.sluff_window
                and action.kind in (Kind.PLAY, Kind.STOCK)):
            return _t(lang, N_("the trick waits for sluffs: sluff a card of a rank already in the trick, or "
                               "pass"))
        if lang == "en":
            return self.state.explain(action, view.seat)
        return render(self.state.explain_message(action, view.seat), lang, self.names, self.you)


def _not_a_move(text: str, lang: str) -> str:
    """Why ``text`` is not a move, in ``lang`` (moves are typed in the notation in every language)."""
    return _t(lang, N_("'{text}' is not a move: type a move number, or a move in the notation, e.g. 7h, "
                       "play 5d 6d, sluff 7c, stock, pass, pick (h: help)"), text=text)


def _bare_card(text: str) -> bool:
    try:
        parse_card(text)
    except CardParseError:
        return False
    return True


def play_game(
    rules: Rules,
    players: int,
    *,
    human_seat: int,
    bot_names: Sequence[str],
    seed: int,
    record_dir: Path | None,
    console: Console,
    read_line: ReadLine,
    open_hands: bool = False,
    start: State | None = None,
    lang: str = "en",
) -> int:
    """Play one game in the terminal: the human at ``human_seat``, bots at the other seats.

    Under 3-player confusion (``rules.confusion``, six seats) the human holds ``human_seat``
    and its partner hand ``(human_seat + 3) % 6`` and is asked for both (rulings CF1-CF3).

    Args:
        rules: the ruleset; players: the number of seats.
        human_seat: the human's seat (0-based).
        bot_names: bot names (see :func:`skitgubbe.bots.make_bot`), one per other seat in
            seat order skipping the human's seats; cycled if shorter.
        seed: shuffles the deck (``State.new(seed=seed)``); bots draw from
            ``random.Random(seed * 100 + seat)`` and the dreck shuffle from ``random.Random(seed)``.
        record_dir: if given, the game's record is written there (the directory is created):
            ``f"{rules.name}-{seed}.sgr"`` once the game is over, and
            ``f"{rules.name}-{seed}-unfinished.sgr"`` when the human leaves it (``q``, Ctrl-C or
            end of input), which ``skitgubbe hint`` reads and ``skitgubbe play --from`` plays on.
        console: where everything is printed; read_line: reads one answer (like ``input``).
        open_hands: show every hand face up (a teaching table; the bots play as usual).
        start: play on from this state (a phase-two position, or a record replayed part of
            the way) instead of dealing; ``rules`` and ``players`` must match it.
        lang: the language of everything printed (a code of :data:`LANGUAGES`; an unknown code
            prints English).  Moves are typed in the notation in every language.

    The dealer is seat ``players - 1``, so seat 0 leads the first trick.  The first line names
    the rules, the table and the seed (with how to deal the same cards again).  Returns 0 at the
    end of the game, on ``q`` and on end of input; 130 on Ctrl-C; 2 (after one error line) for a
    bad seat count, human seat or bot name; 1 if the record cannot be written (after a line
    saying why; 130 stays 130).  Nothing is raised for these.
    """
    try:
        if rules.confusion and players != 6:
            raise ValueError(f"3-player confusion is played with 6 seats (two hands for each of three "
                             f"players), not {players}")
        if not 0 <= human_seat < players:
            raise ValueError(f"there is no seat {human_seat}: seats are 0..{players - 1}")
        if not bot_names:
            raise ValueError("give at least one bot name")
        if start is not None and (start.rules != rules or start.players != players):
            raise ValueError("the starting position is for other rules or another number of players")
        state = start if start is not None else State.new(rules, players, seed=seed, dealer=players - 1)
        if state.is_over:
            raise ValueError("the game in that record is already over")
        mine = (human_seat, (human_seat + 3) % 6) if rules.confusion else (human_seat,)
        others = [s for s in range(players) if s not in mine]
        kinds = dict(zip(others, islice(cycle(bot_names), len(others)), strict=True))
        bots = {s: make_bot(k, random.Random(seed * 100 + s)) for s, k in kinds.items()}
    except ValueError as e:
        console.print(Text(f"error: {e}", style="bold red"), soft_wrap=True)  # one line, however long
        return 2
    names = seat_names(players, human_seat, confusion=rules.confusion, lang=lang)
    labels = [names[s] if s in mine else _t(lang, N_("{seat} ({bot})"), seat=names[s], bot=bots[s].name)
              for s in range(players)]
    where = (_t(lang, N_("seat 0 leads")) if start is None
             else _t(lang, N_("seat {seat} to act"), seat=state.to_act))
    again = (_t(lang, N_(" (deal the same cards again with --seed {seed})"), seed=seed) if start is None
             else "")
    loser = _loser(rules, lang)
    if rules.confusion:
        p = human_seat % 3
        who = _t(lang, N_("3-player confusion, 6 seats, seed {seed}{again}.  You are player {player}: seat "
                          "{player} is your right hand and seat {left} your left hand; you see both and play "
                          "each when it is to act; {where}.  The player whose hand is left holding cards is "
                          "{loser}."), seed=seed, again=again, player=p, left=p + 3, where=where, loser=loser)
    else:
        who = _t(lang, N_("{players} players, seed {seed}{again}.  You are seat {seat}; {where}.  The last "
                          "seat holding cards is {loser}."), players=players, seed=seed, again=again,
                 seat=human_seat, where=where, loser=loser)
    console.print(Text(
        f"{rules.name}: {who}"
        + ("  " + _t(lang, N_("All hands are open.")) if open_hands else "")
        + "  " + _t(lang, N_("Type h for help, ? for hints.")),
        style="bold"))
    session = Session(state, human_seat=human_seat, bots=bots, console=console, read_line=read_line,
                      rng=random.Random(seed), labels=labels, open_hands=open_hands, lang=lang)
    code = session.run()
    if record_dir is None:
        return code
    over = state.is_over
    path = Path(record_dir) / (f"{rules.name}-{seed}.sgr" if over else f"{rules.name}-{seed}-unfinished.sgr")
    try:
        text = dumps(record_of(state, seed=seed if start is None else None))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as e:
        console.print(Text(_t(lang, N_("could not write the record to {path}: {error}"), path=path, error=e),
                           style="bold red"))
        return 1 if code == 0 else code
    # (paths and commands are printed unwrapped, so that they can be copied whole)
    if over:
        console.print(Text(_t(lang, N_("Record saved: {path}"), path=path)), highlight=False, soft_wrap=True)
    else:
        quoted = shlex.quote(str(path))
        given = [kinds[s] for s in others]
        period = next(k for k in range(1, len(given) + 1)  # the shortest --bots that cycles to them
                      if all(n == given[i % k] for i, n in enumerate(given)))
        resume = (f"skitgubbe play --from {quoted} --seat {human_seat} --bots {','.join(given[:period])}"
                  + (" --open" if open_hands else "") + (f" --lang {lang}" if lang != "en" else ""))
        for line in (_t(lang, N_("Unfinished game saved: {path}"), path=path), _t(lang, N_("Play on with:")),
                     f"  {resume}", _t(lang, N_("Your moves there, with why:")),
                     f"  skitgubbe hint {quoted}"):
            console.print(Text(line), highlight=False, soft_wrap=True)
    return code
