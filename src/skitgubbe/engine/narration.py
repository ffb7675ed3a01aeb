"""The game's words in plain text: seat names, events told as sentences, the loser's title.

No ``rich`` and no I/O: the terminal (:mod:`skitgubbe.play.terminal`), the lessons
(:mod:`skitgubbe.play.learn`) and the online table (:mod:`skitgubbe.server`) all tell a deal
with these functions, so they say the same thing in the same words.  Every sentence is built
from public information only: an :class:`~skitgubbe.engine.base.Event`
as the engine records it and the seats' names.

Names: the person at the terminal is ``"You"`` (the verbs agree: ``"You play"``, ``"Seat 1
plays"``); under 3-player confusion the person's two hands are ``"You (right hand)"`` and
``"You (left hand)"`` (rulings CF1).
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import Event
from .cards import RANK_CHARS, RANK_MASKS2, SUIT_NAMES, SUIT_SYMBOLS, card_label, in_order
from .rules import EmptyHand, FirstPhase, Rules, StockEnd

__all__ = [
    "hand_word",
    "seat_names",
    "is_you",
    "loser_title",
    "subject",
    "card_list",
    "n_cards",
    "join_words",
    "describe_pass",
    "describe_event",
    "kill_text",
]


def hand_word(seat: int) -> str:
    """Under 3-player confusion, which of its player's hands a seat is: seats 0-2 are the
    right hands, 3-5 the left hands (ruling CF1: A right, B right, C right, A left, ...)."""
    return "right hand" if seat < 3 else "left hand"


def seat_names(players: int, human_seat: int, *, confusion: bool = False) -> list[str]:
    """Narration names: ``"You"`` for ``human_seat``, ``"Seat N"`` for the others.

    With ``confusion`` the person holds ``human_seat`` and its partner hand: they are
    ``"You (right hand)"`` and ``"You (left hand)"`` (:func:`hand_word`)."""
    if confusion:
        mine = (human_seat, (human_seat + 3) % 6)
        return [f"You ({hand_word(s)})" if s in mine else f"Seat {s}" for s in range(players)]
    return ["You" if s == human_seat else f"Seat {s}" for s in range(players)]


def is_you(name: str) -> bool:
    """Whether a seat name is the person's (``"You"``, or one of their two hands)."""
    return name == "You" or name.startswith("You (")


def loser_title(rules: Rules) -> str:
    """What the loser is called, with its article: ``"the goat"``, ``"the skitgubbe"``, ``"the
    mas"`` (the rules' ``loser_title``; docs/rulings.md E17)."""
    return f"the {rules.loser_title}"


def subject(names: Sequence[str], seat: int, third: str, second: str) -> str:
    """``"Seat 1 plays"`` / ``"You play"``: the seat's name with the verb agreeing."""
    name = names[seat]
    return f"{name} {second if is_you(name) else third}"


def card_list(mask: int) -> str:
    """The cards of card set ``mask`` (bitmask, bit i = card i) lowest first, as labels with suit
    symbols: ``"7♥ T♦"``; empty for no card."""
    return " ".join(card_label(c) for c in in_order(mask))


def n_cards(n: int) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{n} card" if n == 1 else f"{n} cards"


def join_words(words: Sequence[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]



# -- narration -----------------------------------------------------------------------------


def describe_pass(names: Sequence[str], seats: Sequence[int]) -> str:
    """One line for seats that passed (closed their sluff window), e.g. ``"Seat 1 and Seat 2 pass"``."""
    if len(seats) == 1:
        return subject(names, seats[0], "passes", "pass") + " (no sluff)"
    return join_words([names[s] for s in seats]) + " pass (no sluff)"


def describe_event(event: Event, names: Sequence[str], rules: Rules, *, dreck: int = 0) -> str | None:
    """One narration line for ``event``, or None for an unknown kind or an event not told (another
    seat's draw).  Give it the event as the reader may see it (:func:`skitgubbe.engine.view.event_for`):
    it tells every card the event holds.

    ``names`` gives each seat's name (see :func:`seat_names`); ``dreck`` is the card set of
    the dreck last collected, used to say how many dreck cards each seat receives (never
    which, when several seats share it).
    """
    k, s, cards = event.kind, event.seat, event.cards

    def who(third: str, second: str) -> str:
        return subject(names, s, third, second)

    if k == "play":
        return who("plays", "play") + " " + card_list(cards)
    if k == "stock":
        return who("turns", "turn") + f" up {card_list(cards)} from the stock and " + (
            "play it" if is_you(names[event.seat]) else "plays it")
    if k == "sluff":
        return who("sluffs", "sluff") + " " + card_list(cards)
    if k == "pass":
        return describe_pass(names, [s])
    if k in ("bounce", "war"):
        tied = join_words([names[x] for x in event.seats])
        word = "Bounce (stunsa)" if k == "bounce" else "War"
        return f"{word}: {tied} tie for the highest card and play again, {names[event.seats[0]]} first"
    if k == "win":
        return who("wins", "win") + f" the trick ({n_cards(cards.bit_count())}: {card_list(cards)})"
    if k == "end-one":
        if rules.first_phase is FirstPhase.BEAT or rules.stock_end in (StockEnd.STOP,
                                                                       StockEnd.STOP_UNLESS_TWO):
            return "End of phase one: the stock is used up"
        if rules.stock_end is StockEnd.SKIP_EMPTY:
            return "End of phase one: every card has been played"
        return "End of phase one: " + who("has", "have") + " no card to play"
    if k == "take-back":
        if event.seats:  # Koira's tie-deal: the tied cards
            return who("takes", "take") + f" back the tied {card_list(cards)}"
        return who("takes", "take") + f" back {card_list(cards)} from the unfinished trick"
    if k == "tie-share":
        return who("gets", "get") + f" {card_list(cards) or 'nothing'} in the pile"
    if k == "exposed":
        return who("shows", "show") + f" the cards left in hand: {card_list(cards)}"
    if k == "trump":
        suit = event.seats[0]
        card = f"the trump card {card_label(cards.bit_length() - 1)}" if cards else "the trump card"
        return (f"Trump revealed: {SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]} ("
                + who("adds", "add") + f" {card} to the hand)")
    if k == "dreck":
        needy = join_words([names[x] for x in event.seats])
        few = "has" if len(event.seats) == 1 and not is_you(names[event.seats[0]]) else "have"
        low = 0
        for r in range(2, rules.dreck_max_rank + 1):
            low |= RANK_MASKS2[r]
        what = f"every {RANK_CHARS[0]} to {RANK_CHARS[rules.dreck_max_rank - 2]}"
        if cards & ~low:
            what += f" and the {card_list(cards & ~low)}"
        return (f"{needy} {few} fewer than {rules.dreck_below} cards: the dreck "
                f"({n_cards(cards.bit_count())}: {what}) is collected from every hand")
    if k == "dreck-dealt":
        total = dreck.bit_count()
        if len(event.seats) == 1:
            n = f" ({n_cards(total)})" if total else ""
            return subject(names, event.seats[0], "receives", "receive") + f" the whole dreck{n}"
        if not total:
            return "The dreck is shuffled and dealt to " + join_words([names[x] for x in event.seats])
        k_ = len(event.seats)
        shares = [f"{names[x]} {n_cards(total // k_ + (1 if i < total % k_ else 0))}"
                  for i, x in enumerate(event.seats)]
        return "The dreck is shuffled and dealt: " + ", ".join(shares)
    if k == "lead":
        return who("leads", "lead") + " " + card_list(cards)
    if k == "beat":
        return who("beats", "beat") + " with " + card_list(cards)
    if k == "pick-up":
        return who("picks", "pick") + f" up {card_list(cards)}"
    if k == "kill":
        return who("kills", "kill") + f" the trick: {n_cards(cards.bit_count())} out of play"
    if k == "three-cards":
        return f"{names[s]}: “three cards”"
    if k == "one-card":
        return f"{names[s]}: “one card”"
    if k == "out":
        return who("is", "are") + " out"
    if k == "loser":
        return who("is", "are") + " " + loser_title(rules)
    if k == "abandoned":
        return "The deal is abandoned at the action limit: nobody loses"
    if k == "blamattis":
        if rules.empty_hand is EmptyHand.LOSES:
            return who("has", "have") + " no cards after phase one (Blåmattis) and loses at once"
        return (who("has", "have") + " no cards after phase one (Blåmattis): at the first turn with cards on "
                "the table, the lowest card must be picked up")
    if k == "trump-drawn":
        suit = event.seats[0]
        return (who("draws", "draw") + f" the last stock card face up: {card_list(cards)}; "
                f"{SUIT_NAMES[suit]} will be trumps")
    if k == "store":
        return who("shows", "show") + f" three trumps, {card_list(cards)}, and " + (
            "store them for phase two and draw a new hand" if is_you(names[s])
            else "stores them for phase two and draws a new hand")
    if k == "exchange":
        two = cards & -cards  # both are trumps, and the 2 is the lowest
        return (who("exchanges", "exchange")
                + f" the {card_list(two)} for the turned-up {card_list(cards ^ two)}")
    if k == "tie-deal":
        tied = join_words([names[x] for x in event.seats])
        return (f"Tie: {tied} take back their tied cards and are dealt the rest of the trick, lowest "
                f"first ({n_cards(cards.bit_count())}); {names[event.seats[0]]} leads")
    if k == "split":
        return ("A tied player has no card left: the trick is shuffled and shared out; "
                + subject(names, s, "gets", "get") + f" {card_list(cards)} in the pile")
    if k == "trick-dealt":
        return ("The unfinished trick is shuffled and dealt round instead of taken back: "
                + subject(names, s, "gets", "get") + f" {card_list(cards) or 'nothing'}")
    if k == "reserve-draw":
        drawn = f" {card_list(cards)}" if cards else " a card"
        return who("draws", "draw") + drawn + " from the avstickshög"
    if k == "draw":
        if not cards:  # another seat's draw: not told (the card count says it)
            return None
        if event.to == -1:  # Mas: the turned-up trump is the last card, drawn face up
            return who("draws", "draw") + f" the last stock card face up: {card_list(cards)}"
        return who("draws", "draw") + f" {card_list(cards)}"
    if k == "trump-aside":
        return who("draws", "draw") + " the last stock card: it stays face down, and its suit will be trump"
    if k == "deal":
        return (who("is", "are") + f" dealt {card_list(cards)}") if cards else None
    if k == "dreck-share":
        if not cards:
            return None
        return who("receives", "receive") + f" {n_cards(cards.bit_count())} of the dreck: {card_list(cards)}"
    if k == "dreck-aside":
        return f"Dreck that does not share out evenly goes with the first trick: {card_list(cards)}"
    if k == "lead-passes":
        return (who("holds", "hold") + " only the highest trump, which may only kill a trick: "
                f"the lead passes to {names[event.seats[0]]}")
    return None


def kill_text(plays: int, kill_at: int) -> str:
    """How close a phase-two trick is to being killed, e.g. ``"2 of 3 plays: the next beat kills"``."""
    left = kill_at - plays
    if left <= 1:
        return f"{plays} of {kill_at} plays: the next beat kills"
    return f"{plays} of {kill_at} plays: {left} more beats kill"
