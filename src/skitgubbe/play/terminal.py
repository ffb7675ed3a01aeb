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
    RANK_CHARS,
    RANK_MASKS2,
    SUIT_MASKS2,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    CardParseError,
    card_label,
    in_order,
    parse_card,
    rank_of,
    suit_of,
)
from ..engine.narration import (
    card_list,
    describe_event,
    describe_pass,
    hand_word,
    is_you,
    join_words,
    kill_text,
    loser_title,
    n_cards,
    seat_names,
    subject,
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
]

ReadLine = Callable[[str], str]

SCREEN_TITLE = "Your move"
"""The title of the table drawn whenever the human must decide (tests split the output on it)."""

_RED = (1, 2)  # diamonds and hearts


# -- names and small text helpers ----------------------------------------------------------


def _view_names(view: View) -> list[str]:
    """The default names for a rendering from ``view``: its seat is the person's."""
    return seat_names(view.players, view.seat, confusion=view.rules.confusion)


def _card_text(c: int) -> Text:
    return Text(card_label(c), style="red" if suit_of(c) in _RED else "")


def _cards_text(mask: int) -> Text:
    return Text(" ").join(_card_text(c) for c in in_order(mask))


def _compact(mask: int) -> str:
    """Cards grouped by suit with ranks only: ``"♣ 4 9 K · ♥ J Q"``."""
    parts = []
    for s in range(4):
        ranks = [RANK_CHARS[rank_of(c) - 2] for c in in_order(mask & SUIT_MASKS2[s])]  # both packs
        if ranks:
            parts.append(SUIT_SYMBOLS[s] + " " + " ".join(ranks))
    return " · ".join(parts)


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


def suit_order(trump_suit: int) -> list[int]:
    """The order in which the terminal lists suits, in the hand and in the moves alike: clubs,
    diamonds, hearts, spades, with the trump suit (``trump_suit``, -1 while unknown) moved last,
    where card players usually keep their trumps."""
    return [s for s in range(4) if s != trump_suit] + ([trump_suit] if trump_suit >= 0 else [])


def ordered_moves(legal: Sequence[Action], trump_suit: int) -> list[Action]:
    """``legal`` in the order the terminal numbers them: the kinds of move in the order the engine
    lists them (plays, then the stock, a pick-up or a pass), and within a kind the cards as the
    hand shows them (:func:`suit_order`: the trump suit last; by rank within a suit; a single card
    before the runs that start with it).  Moves without cards keep their place among their kind."""
    kinds: dict[int, int] = {}
    for a in legal:
        kinds.setdefault(a.kind, len(kinds))
    place = {s: i for i, s in enumerate(suit_order(trump_suit))}

    def key(item: tuple[int, Action]) -> tuple[int, int, int, int, int]:
        i, a = item
        if not a.cards:
            return kinds[a.kind], 0, 0, 0, i
        cards = sorted(in_order(a.cards), key=lambda c: (place[suit_of(c)], rank_of(c)))
        first = cards[0]
        return kinds[a.kind], place[suit_of(first)], rank_of(first), len(cards), i

    return [a for _, a in sorted(enumerate(legal), key=key)]


def render_hand(view: View, *, seat: int | None = None) -> Text:
    """The seat's own hand, one line per suit, sorted by rank; the trump suit (once known) is
    marked and listed last (:func:`suit_order`, the order of the moves too).

    Under 3-player confusion the title names the hand (``"Your right hand"``), and ``seat``
    may be the partner hand, drawn from the view's known cards (ruling CF2); the hand of the
    view's seat is marked as the one to act when it is."""
    seat = view.seat if seat is None else seat
    hand = view.hand if seat == view.seat else view.known[seat]
    which = f"Your {hand_word(seat)}" if view.rules.confusion else "Your hand"
    out = Text(f"{which} ({n_cards(hand.bit_count())}):", style="bold")
    if view.rules.confusion and seat == view.seat and view.to_act == seat:
        out.append("  ◀ to act", style="bold")
    if not hand:
        out.append(" none")
        return out
    for s in suit_order(view.trump_suit):
        m = hand & SUIT_MASKS2[s]  # both packs' cards of the suit
        if not m:
            continue
        out.append(f"\n  {SUIT_SYMBOLS[s]} {SUIT_NAMES[s]:<9} ", style="red" if s in _RED else "")
        out.append_text(_cards_text(m))
        if s == view.trump_suit:
            out.append("   ← trump", style="bold magenta")
    return out


def pick_up_preview(view: View) -> int:
    """The card set the seat would pick up now in phase two (0 if the table is empty)."""
    take, _, _ = pick_up_take([p for _, p in view.table], view.rules.pick_up)
    return take


def _seat_cards(plays: Sequence[tuple[int, int]], names: Sequence[str]) -> Text:
    """``"Seat 1 7♥ · You 9♦"``: each (seat, card) kept separate."""
    return Text(" · ").join(Text.assemble(names[s] + " ", _card_text(c)) for s, c in plays)


def _render_trick_one(view: View, names: Sequence[str]) -> Text:
    rounds = [r for r in view.rounds]
    pairs = view.rules.first_phase is FirstPhase.PAIRS
    leader = names[view.leader] if view.leader >= 0 else "?"
    if pairs and view.leader >= 0:
        follower = names[(view.leader + 1) % view.players]
        head = "Trick: " + subject(names, view.leader, "leads", "lead") + f" to {follower}"
    else:
        head = f"Trick: led by {leader}"
    out = Text(head, style="bold")
    if not any(rounds):
        out.append("\n  no card played yet")
    for i, rnd in enumerate(rounds):
        if not rnd:
            continue
        out.append(f"\n  round {i + 1}: ")
        out.append_text(_seat_cards(rnd, names))
        last = i == len(rounds) - 1
        if rnd and not last:
            high = max(rank_of(c) for _, c in rnd)
            tied = [names[s] for s, c in rnd if rank_of(c) == high]
            word = "bounce" if pairs else "war"
            out.append(f"   → {word}: {join_words(tied)} play again", style="yellow")
    if view.round_seats:
        out.append("\n  still to play this round: " + ", ".join(names[s] for s in view.round_seats))
        cur = rounds[-1] if rounds else ()
        if view.rules.must_match and cur:
            high = max(rank_of(c) for _, c in cur)
            out.append(f"\n  highest so far: {RANK_CHARS[high - 2]} (match if you can)")
            forced = view.hand & RANK_MASKS2[high]
            if view.seat in view.round_seats and forced:
                out.append(f": you hold {card_list(forced)}, so you must match", style="bold")
    if view.sluffs:
        out.append("\n  sluffed: ")
        out.append_text(_seat_cards(view.sluffs, names))
    if view.trick_winner >= 0:
        out.append(f"\n  settled: {names[view.trick_winner]} takes the trick once the sluffing is done",
                   style="bold")
    return out


def _render_trick_two(view: View, names: Sequence[str]) -> Text:
    if not view.table:
        lead = names[view.to_act] if view.to_act >= 0 else "?"
        return Text(f"Table: empty, {lead} to lead (a trick is killed after {view.kill_at} plays)",
                    style="bold")
    out = Text(f"Table, bottom first ({kill_text(len(view.table), view.kill_at)}):", style="bold")
    width = max(len(names[s]) for s, _ in view.table)
    for i, (s, p) in enumerate(view.table):
        verb = "led" if i == 0 else "beat"
        out.append(f"\n  {i + 1}. {names[s]:<{width}} {verb:<5}")
        out.append_text(_cards_text(p))
    top = view.table[-1][1]
    out.append(f"\n  to beat: {card_label(top.bit_length() - 1)}; "
               f"picking up takes {card_list(pick_up_preview(view))}")
    return out


def render_trick(view: View, names: Sequence[str] | None = None) -> Text:
    """The current trick.  Phase one: each round on its own line with who played what (a
    bounce/war noted), the seats still due, sluffed cards, the settled winner.  Phase two:
    each play on the table bottom first with its seat, and how many plays kill the trick."""
    names = names if names is not None else _view_names(view)
    if view.phase == Phase.ONE:
        return _render_trick_one(view, names)
    if view.phase == Phase.TWO:
        return _render_trick_two(view, names)
    return Text("")


def render_seats(view: View, labels: Sequence[str], open_hands: Sequence[int] | None = None) -> Group:
    """Stock size, trump (or who holds the face-down trump card) and one row per seat: hand
    size, pile size in phase one, publicly known cards of the others in phase two.

    ``open_hands`` (one card set per seat) shows every other seat's whole hand: the
    teaching table of ``skitgubbe play --open``."""
    one = view.phase == Phase.ONE
    head = Text()
    if one:
        head.append(f"Stock: {n_cards(view.stock_size) if view.stock_size else 'empty'}   ")
        if view.exposed_card >= 0:
            head.append(f"Under the stock: {card_label(view.exposed_card)}   ")
    if view.reserve_size:
        head.append(f"Avstickshög: {n_cards(view.reserve_size)}   ")
    head.append("Trump: ")
    if view.trump_suit >= 0:
        s = view.trump_suit
        head.append(f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}", style="bold magenta")
        if view.trump_card >= 0:
            head.append(f" (the {card_label(view.trump_card)})")
    elif view.trump_holder >= 0:
        holds = "hold" if is_you(labels[view.trump_holder]) else "holds"
        head.append(f"not yet known — {labels[view.trump_holder]} {holds} the face-down trump card")
    else:
        head.append("not yet known — the last stock card will be set aside face down to name it")
    rows = []
    partner = (view.seat + 3) % 6 if view.rules.confusion else -1  # its hand is drawn under the table
    for s in range(view.players):
        info = Text()
        n = view.hand_sizes[s]
        if not one and n == 0 and s not in view.out_order and view.loser != s:
            info.append("no cards yet (Blåmattis)", style="yellow")
        elif not one and n == 0:
            info.append("out", style="green")
        else:
            info.append(f"{n} in hand")
            if one:
                info.append(f" · pile {view.piles[s].bit_count()}")
                if s == view.trump_holder:
                    info.append(" · face-down trump card")
            elif s not in (view.seat, partner) and view.known[s] and open_hands is None:
                info.append(f" · known: {_compact(view.known[s])}")
            if open_hands is not None and s not in (view.seat, partner) and open_hands[s]:
                info.append(f" · holds: {_compact(open_hands[s])}")
            if s == view.to_act:
                info.append("  ◀ to act", style="bold")
        rows.append((labels[s], info))
    return Group(head, Rows(rows))


def render_moves(legal: Sequence[Action]) -> Grid:
    """The legal moves numbered from 1 in the order given (the terminal gives
    :func:`ordered_moves`), each with :meth:`Action.label`, laid out in columns."""
    return Grid([Text(f"{i}) {a.label()}") for i, a in enumerate(legal, start=1)])


def move_prompt(legal: Sequence[Action], who: str = "") -> str:
    """The question asked for a move: ``"Your move [1-4, or e.g. 7h; ? hint, h help, q quit]: "``;
    with a single move, ``"Your move [Enter = pick up; ...]: "`` (``who``: ``", right hand"``
    under 3-player confusion)."""
    if len(legal) == 1:
        return f"Your move{who} [Enter = {legal[0].label()}; ? hint, h help, q quit]: "
    return f"Your move{who} [1-{len(legal)}, or e.g. 7h; ? hint, h help, q quit]: "


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


def render_hints(state: State, seat: int) -> str:
    """Every move ``seat`` may make now with why, then the cards it may not play with why not
    (:func:`skitgubbe.play.hint.hints`)."""
    lines = []
    found = hints(state, seat)
    width = max((len(h.action.label()) for h in found), default=0)
    for h in found:
        mark = "yes" if h.legal else "no "
        lines.append(f"  {mark}  {h.action.label():<{width}}  {h.reason}")
    return "\n".join(["Moves, and why:"] + lines) if lines else "No move is yours to make now."


def render_help(rules: Rules) -> str:
    """Short help for the prompt, mentioning the options of ``rules`` that matter."""
    lines = [
        "Answer with a move number, or type the move: 7h, play 5d 6d 7d, sluff 7c, stock, pass, pick.",
        "Cards are a rank (2-9, T or 10, J, Q, K, A) then a suit (c, d, h, s).",
        "? = the legal moves and why (and why not the others), t = table, q = quit.",
    ]
    if rules.first_phase is FirstPhase.BEAT:
        lines.append("Phase one (Mas): lead a card; the next player beats it (a higher card of its suit, or a"
                     " trump) and wins the trick, or picks it up.  Keep three cards by drawing.")
        if rules.store_three_trumps:
            lines.append("  store: with exactly three trumps in hand, store them for phase two, draw anew.")
        if rules.exchange_two:
            lines.append("  exchange: swap the 2 of trumps for the trump turned up under the stock.")
    else:
        tie = " a tie shares the trick among the tied players." if rules.tie_deal else " a tie plays again."
        lines.append("Phase one: play a card (or turn up the top stock card); the highest card takes the "
                     "trick," + tie)
    if rules.must_match:
        lines.append("  Match if you can: holding the rank of the highest card so far, you must play it.")
    if rules.sluffing:
        lines.append("  Sluff: throw in a card of a rank already in the trick (you draw a replacement).")
    run = " or a run of touching cards" if rules.plays is Plays.RUN else ""
    take = "the top play" if rules.pick_up is PickUp.TOP_CARD else "the lowest run on the table"
    lines.append(
        f"Phase two: lead any card{run}; then beat the top play (higher card of its suit, or a trump)"
        f" or pick up {take}.  As many plays as seats kill the trick."
    )
    lines.append(f"The last seat holding cards is {loser_title(rules)}.")
    return "\n".join(lines)


def render_screen(view: View, labels: Sequence[str], names: Sequence[str] | None = None,
                  open_hands: Sequence[int] | None = None) -> Group:
    """The whole table for the seat of ``view`` when it must decide: title, seats/stock/trump,
    the trick, the hand and the numbered legal moves (numbered as :func:`ordered_moves` orders
    them; ``open_hands``: see :func:`render_seats`).

    Under 3-player confusion the title says which hand is to act and both of the person's
    hands are shown, the acting one marked."""
    names = names if names is not None else _view_names(view)
    phase = Phase.NAMES.get(view.phase, "")
    if view.phase == Phase.ONE and view.sluff_window and view.seat in view.sluff_window:
        what = "sluff a card of a rank in the trick, or pass"
    elif view.phase == Phase.ONE:
        what = "play to the trick"
    elif view.table:
        what = "beat it or pick up"
    else:
        what = "lead"
    who = f", {hand_word(view.seat)}" if view.rules.confusion else ""
    title = f"{SCREEN_TITLE}{who} · {view.rules.name} · {phase} · {what}"
    hands = [render_hand(view)]
    if view.rules.confusion:  # both of the person's hands, right hand first (ruling CF1)
        hands = [render_hand(view, seat=s) for s in sorted((view.seat, (view.seat + 3) % 6))]
    return Group(
        Title(title),
        render_seats(view, labels, open_hands),
        render_trick(view, names),
        *hands,
        Text("Moves:", style="bold"),
        render_moves(ordered_moves(view.legal, view.trump_suit)),
    )


# -- the loop ------------------------------------------------------------------------------


class Session:
    """One game in progress in the terminal: a human seat, bots for the other seats.

    Under 3-player confusion the human also holds the partner hand of ``human_seat``
    (``State.partner``) and is asked for both; ``bots`` covers the other four seats.

    ``run()`` plays to the end (or until the human quits) and returns the exit code:
    0 at the end of the game, on ``q`` or on end of input (``EOFError``), 130 on Ctrl-C.
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
    ) -> None:
        self.state = state
        self.open_hands = open_hands
        self.human = human_seat
        partner = state.partner(human_seat)
        self.seats = (human_seat,) if partner < 0 else (human_seat, partner)  # the human's seats
        self.bots = bots
        self.console = console
        self.read_line = read_line
        self.rng = rng
        self.names = seat_names(state.players, human_seat, confusion=state.rules.confusion)
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
            self._say(describe_pass(self.names, self._passes))
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
                        self._say("Goodbye: you left the game.")
                        return 0
                    action = chosen
                else:
                    legal = state.legal_actions(seat)
                    action = self.bots[seat].choose(view_of(state, seat), legal)
                    if action not in legal:
                        raise ValueError(f"bot at seat {seat} chose {action}, which is not legal")
                self._apply(seat, action)
        except KeyboardInterrupt:
            self._say("\nInterrupted: goodbye.")
            return 130
        except EOFError:
            self._say("\nEnd of input: goodbye.")
            return 0
        self._flush_passes()
        self._summary()
        return 0

    def _summary(self) -> None:
        state = self.state
        outcome = state.outcome
        if outcome is None:  # pragma: no cover - run() only calls this once the game is over
            return
        if outcome.loser is None:
            self._say("Game over: nobody loses.", "bold")
        elif state.rules.confusion:  # the player of the losing hand loses (ruling CF2)
            line = describe_event(Event("loser", outcome.loser), self.names, state.rules)
            player = state.player_of(outcome.loser)
            if outcome.loser in self.seats:
                self._say(f"Game over: {line}, so you lose (both hands are yours).", "bold red")
            else:
                self._say(f"Game over: {line}, so player {player} (Seat {player} and Seat {player + 3}) "
                          f"loses; you are safe.", "bold red")
        else:
            line = describe_event(Event("loser", outcome.loser), self.names, state.rules)
            self._say(f"Game over: {line}.", "bold red")
        if outcome.out_order:
            self._say("Out, in order: " + ", ".join(self.names[s] for s in outcome.out_order))

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
            line = describe_event(ev, self.names, state.rules, dreck=self._dreck)
            if line is not None:
                style = _EVENT_STYLE.get(ev.kind, "")
                if ev.kind in ("draw", "trump-aside") and (ev.to == -1 or ev.kind == "trump-aside"):
                    style = "magenta"
                self._say(line, style)
        if state.phase == Phase.TWO and phase != Phase.TWO:
            self._say(f"Phase two: beat it or pick it up.  {self.names[state.to_act]} to lead; "
                      f"a trick is killed after {state.kill_at} plays.", "bold")

    def _ask(self, seat: int) -> Action | None:
        """Show the table to ``seat`` (one of the human's seats) and read until a legal move
        (returned) or quit (None)."""
        self._flush_passes()
        view = view_of(self.state, seat)
        shown = self.state.hands if self.open_hands else None
        self.console.print(render_screen(view, self.labels, self.names, shown))
        who = f", {hand_word(seat)}" if len(self.seats) > 1 else ""
        prompt = move_prompt(view.legal, who)
        while True:
            text = self.read_line(prompt).strip()
            low = text.lower()
            if low in ("q", "quit", "exit"):
                return None
            if low in ("h", "help"):
                self._say(render_help(self.state.rules))
                continue
            if low in ("?", "hint"):
                self._say(render_hints(self.state, seat))
                continue
            if low in ("t", "table"):
                self.console.print(render_screen(view, self.labels, self.names, shown))
                continue
            action, reason = self.resolve(text, view)
            if action is not None:
                return action
            self._say(f"Not accepted: {reason}", "bold red")

    def resolve(self, text: str, view: View) -> tuple[Action | None, str]:
        """Turn the human's answer into one of ``view.legal``, or explain why not.

        Accepts a move number (1..k, as :func:`ordered_moves` numbers the moves on the screen)
        or action notation (:func:`parse_action`); a bare card that may only be sluffed is taken
        as a sluff; with a single legal move, an empty answer (Enter) takes it.  Returns
        ``(action, "")`` or ``(None, reason)``; never changes the state.
        """
        legal = ordered_moves(view.legal, view.trump_suit)
        if not text and len(legal) == 1:
            return legal[0], ""
        if not text:
            return None, f"type a move number 1-{len(legal)}, a move such as 7h, or h for help"
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return legal[n - 1], ""
            return None, f"there is no move {n}: choose a number from 1 to {len(legal)}"
        try:
            action = self.state.resolve(view.seat, parse_action(text))  # two packs: the copy held
        except ActionParseError as e:
            return None, str(e)
        if action in legal:
            return action, ""
        sluff = self.state.resolve(view.seat, Action(Kind.SLUFF, action.cards))
        if action.kind is Kind.PLAY and sluff in legal and _bare_card(text):
            return sluff, ""
        return None, self._explain(action, view)

    def _explain(self, action: Action, view: View) -> str:
        if action.kind is Kind.DRECK:
            return "the dreck is dealt by chance, not by a seat"
        missing = action.cards & ~view.hand
        partner = self.state.partner(view.seat)
        if missing and partner >= 0 and missing & view.known[partner] == missing:
            verb = "is" if missing.bit_count() == 1 else "are"
            return (f"{card_list(missing)} {verb} in your {hand_word(partner)}; your {hand_word(view.seat)} "
                    "is to act")
        if missing:
            return f"you do not hold {card_list(missing)}"
        if (view.phase == Phase.ONE and view.seat in view.sluff_window
                and action.kind in (Kind.PLAY, Kind.STOCK)):
            return "the trick waits for sluffs: sluff a card of a rank already in the trick, or pass"
        return self.state.explain(action, view.seat)


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
    names = seat_names(players, human_seat, confusion=rules.confusion)
    labels = [names[s] if s in mine else f"Seat {s} ({bots[s].name})" for s in range(players)]
    where = "seat 0 leads" if start is None else f"seat {state.to_act} to act"
    again = f" (deal the same cards again with --seed {seed})" if start is None else ""
    if rules.confusion:
        p = human_seat % 3
        who = (f"3-player confusion, 6 seats, seed {seed}{again}.  You are player {p}: seat {p} is your "
               f"right hand and seat {p + 3} your left hand; you see both and play each when it is to act; "
               f"{where}.  The player whose hand is left holding cards is {loser_title(rules)}.")
    else:
        who = (f"{players} players, seed {seed}{again}.  You are seat {human_seat}; "
               f"{where}.  The last seat holding cards is {loser_title(rules)}.")
    console.print(Text(
        f"{rules.name}: {who}"
        + ("  All hands are open." if open_hands else "") + "  Type h for help, ? for hints.",
        style="bold"))
    session = Session(state, human_seat=human_seat, bots=bots, console=console, read_line=read_line,
                      rng=random.Random(seed), labels=labels, open_hands=open_hands)
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
        console.print(Text(f"could not write the record to {path}: {e}", style="bold red"))
        return 1 if code == 0 else code
    # (paths and commands are printed unwrapped, so that they can be copied whole)
    if over:
        console.print(Text(f"Record saved: {path}"), highlight=False, soft_wrap=True)
    else:
        quoted = shlex.quote(str(path))
        given = [kinds[s] for s in others]
        period = next(k for k in range(1, len(given) + 1)  # the shortest --bots that cycles to them
                      if all(n == given[i % k] for i, n in enumerate(given)))
        resume = (f"skitgubbe play --from {quoted} --seat {human_seat} --bots {','.join(given[:period])}"
                  + (" --open" if open_hands else ""))
        for line in (f"Unfinished game saved: {path}", "Play on with:", f"  {resume}",
                     "Your moves there, with why:", f"  skitgubbe hint {quoted}"):
            console.print(Text(line), highlight=False, soft_wrap=True)
    return code
