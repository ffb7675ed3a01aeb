"""The game's words in plain text: seat names, events told as sentences, the loser's title.

No ``rich`` and no I/O: the terminal (:mod:`skitgubbe.play.terminal`), the lessons
(:mod:`skitgubbe.play.learn`) and the online table (:mod:`skitgubbe.server`) all tell a deal
with these functions, so they say the same thing in the same words.  Every sentence is built
from public information only: an :class:`~skitgubbe.engine.base.Event`
as the engine records it and the seats' names.

Names: the person at the terminal is ``"You"`` (the verbs agree: ``"You play"``, ``"Seat 1
plays"``); under 3-player confusion the person's two hands are ``"You (right hand)"`` and
``"You (left hand)"`` (rulings CF1).

Every sentence is a :class:`~skitgubbe.engine.i18n.Message` first (:func:`event_message`,
:func:`describe_pass_message`, :func:`kill_message`, :func:`loser_message`), written in the
reader's language by :func:`~skitgubbe.engine.i18n.render`; the ``str`` functions
(:func:`describe_event`, :func:`kill_text`, ...) render them.  A message about a seat has the
seat as its ``seat`` and, where the verb changes for the reader ("You play" / "Seat 1 plays"),
a second-person ``you`` form.  The ``you`` form names the seat too (``"{seat} play {cards}"``):
the reader's own seat is to be named as :func:`seat_names` names it (``"You"``, ``"You (right
hand)"``), in the reader's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import Action, Kind
from .base import Event
from .cards import RANK_MASKS2, SUIT_SYMBOLS, card_label, in_order
from .i18n import N_, Arg, Cards, Message, Plural, Rank, Seat, Seats, Suit, gettext_in, join_in, render
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
    "event_message",
    "describe_pass_message",
    "kill_message",
    "loser_message",
    "cards_count",
    "holder_kept",
    "action_message",
]


def hand_word(seat: int) -> str:
    """Under 3-player confusion, which of its player's hands a seat is: seats 0-2 are the
    right hands, 3-5 the left hands (ruling CF1: A right, B right, C right, A left, ...)."""
    return "right hand" if seat < 3 else "left hand"


_YOU = N_("You")
_YOU_HAND = (N_("You (right hand)"), N_("You (left hand)"))


def seat_names(players: int, human_seat: int, *, confusion: bool = False, lang: str = "en") -> list[str]:
    """Narration names in language ``lang``: ``"You"`` for ``human_seat``, ``"Seat N"`` for the
    others (``players`` names, one per seat).

    With ``confusion`` the person holds ``human_seat`` and its partner hand: they are
    ``"You (right hand)"`` and ``"You (left hand)"`` (:func:`hand_word`)."""
    other = gettext_in(lang, N_("Seat {n}"))
    if confusion:
        mine = (human_seat, (human_seat + 3) % 6)
        return [gettext_in(lang, _YOU_HAND[0 if s < 3 else 1]) if s in mine else other.format(n=s)
                for s in range(players)]
    you = gettext_in(lang, _YOU)
    return [you if s == human_seat else other.format(n=s) for s in range(players)]


def is_you(name: str, lang: str = "en") -> bool:
    """Whether a seat name is the person's (``"You"``, or one of their two hands), as
    :func:`seat_names` writes it in English or in ``lang``."""
    if name == "You" or name.startswith("You ("):
        return True
    if lang == "en":
        return False
    return name in (gettext_in(lang, _YOU), *(gettext_in(lang, h) for h in _YOU_HAND))


_LOSER_TITLES = {
    "skitgubbe": N_("the skitgubbe"),
    "goat": N_("the goat"),
    "mas": N_("the mas"),
    "mattis": N_("the mattis"),
    "myllymatti": N_("the myllymatti"),
    "koira": N_("the koira"),
}
"""The loser titles of the presets (engine/variants.py), each with its article, translatable."""


def loser_message(rules: Rules) -> Message:
    """What the loser is called, with its article, as a message: ``"the goat"``, ``"the
    skitgubbe"``, ``"the mas"`` (the rules' ``loser_title``; docs/rulings.md E17).  A title of
    no preset (a rules file's own) is kept as it is: ``"the {title}"``."""
    known = _LOSER_TITLES.get(rules.loser_title)
    if known is not None:
        return Message(known)
    return Message(N_("the {title}"), {"title": rules.loser_title})


def loser_title(rules: Rules) -> str:
    """What the loser is called, with its article, in English: ``"the goat"``, ``"the
    skitgubbe"``, ``"the mas"`` (:func:`loser_message`)."""
    return str(loser_message(rules))


def subject(names: Sequence[str], seat: int, third: str, second: str) -> str:
    """``"Seat 1 plays"`` / ``"You play"``: the seat's name with the verb agreeing (English)."""
    name = names[seat]
    return f"{name} {second if is_you(name) else third}"


def card_list(mask: int) -> str:
    """The cards of card set ``mask`` (bitmask, bit i = card i) lowest first, as labels with suit
    symbols: ``"7♥ T♦"``; empty for no card."""
    return " ".join(card_label(c) for c in in_order(mask))


def cards_count(n: int) -> Plural:
    """``"1 card"``, ``"3 cards"`` as a counted phrase (:class:`~skitgubbe.engine.i18n.Plural`)."""
    return Plural("{n} card", "{n} cards", n)


def n_cards(n: int) -> str:
    """``"1 card"``, ``"3 cards"`` (English; :func:`cards_count` as a message parameter)."""
    return render(Message("{n}", {"n": cards_count(n)}))


def join_words(words: Sequence[str], lang: str = "en") -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"`` (:func:`~skitgubbe.engine.i18n.join_in`)."""
    return join_in(words, lang)


# -- narration -----------------------------------------------------------------------------


def describe_pass_message(seats: Sequence[int]) -> Message:
    """Seats that passed (closed their sluff window), e.g. ``"Seat 1 and Seat 2 pass (no sluff)"``;
    ``seats`` is a non-empty list of seat numbers."""
    if len(seats) == 1:
        # TRANSLATORS: the second-person forms ("{seat} pass", "{seat} play", ...) are said of the
        # reader: {seat} is then "You" (or "You (right hand)" when one person holds two hands)
        return Message(N_("{seat} passes (no sluff)"), {"seat": Seat(seats[0])}, seat=seats[0],
                       you=N_("{seat} pass (no sluff)"))
    return Message(N_("{seats} pass (no sluff)"), {"seats": Seats(tuple(seats))})


def describe_pass(names: Sequence[str], seats: Sequence[int]) -> str:
    """One line for seats that passed (closed their sluff window), e.g. ``"Seat 1 and Seat 2 pass"``."""
    return _render(describe_pass_message(seats), names, "en", None)


def _said(s: int, third: str, second: str, **args: Arg) -> Message:
    """A sentence about seat ``s`` (field ``{seat}``), with its second-person form."""
    full: dict[str, Arg] = {"seat": Seat(s)}
    full.update(args)
    return Message(third, full, seat=s, you=second)


def _dreck_shares(total: int, seats: Sequence[int]) -> Message:
    """``"Seat 1 3 cards, Seat 2 2 cards"``: each needy seat's share of ``total`` dreck cards
    (a list joined with commas; each share is a message)."""
    k = len(seats)
    args: dict[str, Arg] = {}
    for i, x in enumerate(seats):
        args[f"share{i}"] = Message(N_("{seat} {count}"), {
            "seat": Seat(x), "count": cards_count(total // k + (1 if i < total % k else 0))})
    return Message(", ".join(f"{{share{i}}}" for i in range(k)), args)


def event_message(event: Event, rules: Rules, *, dreck: int = 0) -> Message | None:
    """``event`` as a message, or None for an unknown kind or an event not told (another seat's
    draw).  Give it the event as the reader may see it (:func:`skitgubbe.engine.view.event_for`):
    it tells every card the event holds.

    Seats are :class:`~skitgubbe.engine.i18n.Seat` / :class:`~skitgubbe.engine.i18n.Seats`
    parameters (named when the message is rendered); the seat the sentence is about is the
    message's ``seat``, with a second-person ``you`` form where the verb changes.  ``dreck`` is
    the card set of the dreck last collected, used to say how many dreck cards each seat
    receives (never which, when several seats share it)."""
    k, s, cards = event.kind, event.seat, event.cards
    shown = Cards(cards)

    if k == "play":
        return _said(s, N_("{seat} plays {cards}"), N_("{seat} play {cards}"), cards=shown)
    if k == "stock":
        return _said(s, N_("{seat} turns up {cards} from the stock and plays it"),
                     N_("{seat} turn up {cards} from the stock and play it"), cards=shown)
    if k == "sluff":
        return _said(s, N_("{seat} sluffs {cards}"), N_("{seat} sluff {cards}"), cards=shown)
    if k == "pass":
        return describe_pass_message([s])
    if k in ("bounce", "war"):
        text = (N_("Bounce (stunsa): {seats} tie for the highest card and play again, {first} first")
                if k == "bounce" else
                N_("War: {seats} tie for the highest card and play again, {first} first"))
        return Message(text, {"seats": Seats(event.seats), "first": Seat(event.seats[0])})
    if k == "win":
        return _said(s, N_("{seat} wins the trick ({count}: {cards})"),
                     N_("{seat} win the trick ({count}: {cards})"),
                     count=cards_count(cards.bit_count()), cards=shown)
    if k == "end-one":
        if rules.first_phase is FirstPhase.BEAT or rules.stock_end in (StockEnd.STOP,
                                                                       StockEnd.STOP_UNLESS_TWO):
            return Message(N_("End of phase one: the stock is used up"))
        if rules.stock_end is StockEnd.SKIP_EMPTY:
            return Message(N_("End of phase one: every card has been played"))
        return _said(s, N_("End of phase one: {seat} has no card to play"),
                     N_("End of phase one: {seat} have no card to play"))
    if k == "take-back":
        if event.seats:  # Koira's tie-deal: the tied cards
            return _said(s, N_("{seat} takes back the tied {cards}"), N_("{seat} take back the tied {cards}"),
                         cards=shown)
        return _said(s, N_("{seat} takes back {cards} from the unfinished trick"),
                     N_("{seat} take back {cards} from the unfinished trick"), cards=shown)
    if k == "tie-share":
        return _said(s, N_("{seat} gets {cards} in the pile"), N_("{seat} get {cards} in the pile"),
                     cards=Cards(cards, N_("nothing")))
    if k == "exposed":
        return _said(s, N_("{seat} shows the cards left in hand: {cards}"),
                     N_("{seat} show the cards left in hand: {cards}"), cards=shown)
    if k == "trump":
        suit = event.seats[0]
        if s < 0:  # set aside at the deal (bottom_aside): nobody holds it
            return Message(N_("Trump revealed: {symbol} {suit} (the trump card {card} was set aside at the "
                              "deal)"),
                           {"symbol": SUIT_SYMBOLS[suit], "suit": Suit(suit),
                            "card": Cards(cards & -cards, N_("face down"))})
        if cards:
            return _said(s, N_("Trump revealed: {symbol} {suit} ({seat} adds the trump card {card} to the "
                               "hand)"),
                         N_("Trump revealed: {symbol} {suit} ({seat} add the trump card {card} to the hand)"),
                         symbol=SUIT_SYMBOLS[suit], suit=Suit(suit),
                         card=Cards(1 << (cards.bit_length() - 1)))
        return _said(s, N_("Trump revealed: {symbol} {suit} ({seat} adds the trump card to the hand)"),
                     N_("Trump revealed: {symbol} {suit} ({seat} add the trump card to the hand)"),
                     symbol=SUIT_SYMBOLS[suit], suit=Suit(suit))
    if k == "dreck":
        low = 0
        for r in range(2, rules.dreck_max_rank + 1):
            low |= RANK_MASKS2[r]
        if cards & ~low:
            what = Message(N_("every {low} to {high} and the {cards}"),
                           {"low": Rank(2), "high": Rank(rules.dreck_max_rank), "cards": Cards(cards & ~low)})
        else:
            what = Message(N_("every {low} to {high}"), {"low": Rank(2), "high": Rank(rules.dreck_max_rank)})
        args: dict[str, Arg] = {"seats": Seats(event.seats), "n": rules.dreck_below,
                                "count": cards_count(cards.bit_count()), "what": what}
        if len(event.seats) == 1:
            return Message(
                N_("{seats} has fewer than {n} cards: the dreck ({count}: {what}) is collected from every "
                   "hand"),
                args, seat=event.seats[0],
                you=N_("{seats} have fewer than {n} cards: the dreck ({count}: {what}) is collected from "
                       "every hand"))
        return Message(
            N_("{seats} have fewer than {n} cards: the dreck ({count}: {what}) is collected from every "
               "hand"), args)
    if k == "dreck-dealt":
        total = dreck.bit_count()
        if len(event.seats) == 1:
            if total:
                return _said(event.seats[0], N_("{seat} receives the whole dreck ({count})"),
                             N_("{seat} receive the whole dreck ({count})"), count=cards_count(total))
            return _said(event.seats[0], N_("{seat} receives the whole dreck"),
                         N_("{seat} receive the whole dreck"))
        if not total:
            return Message(N_("The dreck is shuffled and dealt to {seats}"), {"seats": Seats(event.seats)})
        return Message(N_("The dreck is shuffled and dealt: {shares}"),
                       {"shares": _dreck_shares(total, event.seats)})
    if k == "lead":
        return _said(s, N_("{seat} leads {cards}"), N_("{seat} lead {cards}"), cards=shown)
    if k == "beat":
        return _said(s, N_("{seat} beats with {cards}"), N_("{seat} beat with {cards}"), cards=shown)
    if k == "pick-up":
        return _said(s, N_("{seat} picks up {cards}"), N_("{seat} pick up {cards}"), cards=shown)
    if k == "kill":
        return _said(s, N_("{seat} kills the trick: {count} out of play"),
                     N_("{seat} kill the trick: {count} out of play"), count=cards_count(cards.bit_count()))
    if k == "three-cards":
        return Message(N_("{seat}: “three cards”"), {"seat": Seat(s)}, seat=s)
    if k == "one-card":
        return Message(N_("{seat}: “one card”"), {"seat": Seat(s)}, seat=s)
    if k == "out":
        return _said(s, N_("{seat} is out"), N_("{seat} are out"))
    if k == "loser":
        return _said(s, N_("{seat} is {title}"), N_("{seat} are {title}"), title=loser_message(rules))
    if k == "abandoned":
        return Message(N_("The deal is abandoned at the action limit: nobody loses"))
    if k == "blamattis":
        if rules.empty_hand is EmptyHand.LOSES:
            return _said(s, N_("{seat} has no cards after phase one (Blåmattis) and loses at once"),
                         N_("{seat} have no cards after phase one (Blåmattis) and loses at once"))
        return _said(s, N_("{seat} has no cards after phase one (Blåmattis): at the first turn with cards on "
                           "the table, the lowest card must be picked up"),
                     N_("{seat} have no cards after phase one (Blåmattis): at the first turn with cards on "
                        "the table, the lowest card must be picked up"))
    if k == "trump-drawn":
        return _said(s, N_("{seat} draws the last stock card face up: {cards}; {suit} will be trumps"),
                     N_("{seat} draw the last stock card face up: {cards}; {suit} will be trumps"),
                     cards=shown, suit=Suit(event.seats[0]))
    if k == "store":
        return _said(s, N_("{seat} shows three trumps, {cards}, and stores them for phase two and draws a "
                           "new hand"),
                     N_("{seat} show three trumps, {cards}, and store them for phase two and draw a new "
                        "hand"),
                     cards=shown)
    if k == "exchange":
        two = cards & -cards  # both are trumps, and the 2 is the lowest
        return _said(s, N_("{seat} exchanges the {two} for the turned-up {card}"),
                     N_("{seat} exchange the {two} for the turned-up {card}"),
                     two=Cards(two), card=Cards(cards ^ two))
    if k == "tie-deal":
        return Message(N_("Tie: {seats} take back their tied cards and are dealt the rest of the trick, "
                          "lowest first ({count}); {first} leads"),
                       {"seats": Seats(event.seats), "count": cards_count(cards.bit_count()),
                        "first": Seat(event.seats[0])})
    if k == "split":
        return _said(s, N_("A tied player has no card left: the trick is shuffled and shared out; "
                           "{seat} gets {cards} in the pile"),
                     N_("A tied player has no card left: the trick is shuffled and shared out; "
                        "{seat} get {cards} in the pile"), cards=shown)
    if k == "trick-dealt":
        return _said(s, N_("The unfinished trick is shuffled and dealt round instead of taken back: "
                           "{seat} gets {cards}"),
                     N_("The unfinished trick is shuffled and dealt round instead of taken back: "
                        "{seat} get {cards}"), cards=Cards(cards, N_("nothing")))
    if k == "reserve-draw":
        if cards:
            return _said(s, N_("{seat} draws {cards} from the avstickshög"),
                         N_("{seat} draw {cards} from the avstickshög"), cards=shown)
        return _said(s, N_("{seat} draws a card from the avstickshög"),
                     N_("{seat} draw a card from the avstickshög"))
    if k == "draw":
        if not cards:  # another seat's draw: not told (the card count says it)
            return None
        if event.to == -1:  # Mas: the turned-up trump is the last card, drawn face up
            return _said(s, N_("{seat} draws the last stock card face up: {cards}"),
                         N_("{seat} draw the last stock card face up: {cards}"), cards=shown)
        return _said(s, N_("{seat} draws {cards}"), N_("{seat} draw {cards}"), cards=shown)
    if k == "trump-aside":
        return _said(s, N_("{seat} draws the last stock card: it stays face down, and its suit will be "
                           "trump"),
                     N_("{seat} draw the last stock card: it stays face down, and its suit will be trump"))
    if k == "deal":
        if not cards:
            return None
        return _said(s, N_("{seat} is dealt {cards}"), N_("{seat} are dealt {cards}"), cards=shown)
    if k == "dreck-share":
        if not cards:
            return None
        return _said(s, N_("{seat} receives {count} of the dreck: {cards}"),
                     N_("{seat} receive {count} of the dreck: {cards}"),
                     count=cards_count(cards.bit_count()), cards=shown)
    if k == "dreck-aside":
        return Message(N_("Dreck that does not share out evenly goes with the first trick: {cards}"),
                       {"cards": shown})
    if k == "lead-passes":
        return _said(s, N_("{seat} holds only the highest trump, which may only kill a trick: "
                           "the lead passes to {next}"),
                     N_("{seat} hold only the highest trump, which may only kill a trick: "
                        "the lead passes to {next}"), next=Seat(event.seats[0]))
    return None


def _render(message: Message, names: Sequence[str], lang: str, you: Iterable[int] | None) -> str:
    if you is None:
        you = [i for i, name in enumerate(names) if is_you(name, lang)]
    return render(message, lang, names, you)


def describe_event(event: Event, names: Sequence[str], rules: Rules, *, dreck: int = 0, lang: str = "en",
                   you: Iterable[int] | None = None) -> str | None:
    """One narration line for ``event`` in language ``lang``, or None for an unknown kind or an
    event not told (another seat's draw): :func:`event_message` rendered.  Give it the event as
    the reader may see it (:func:`skitgubbe.engine.view.event_for`): it tells every card the
    event holds.

    ``names`` gives each seat's name (see :func:`seat_names`); ``you`` are the seats the reader
    holds (their sentences take the second-person form); when None, the seats whose name is the
    reader's (:func:`is_you`).  ``dreck`` is the card set of the dreck last collected, used to say
    how many dreck cards each seat receives (never which, when several seats share it).
    """
    message = event_message(holder_kept(event, len(names)), rules, dreck=dreck)
    if message is None:
        return None
    return _render(message, names, lang, you)


def holder_kept(event: Event, players: int) -> Event:
    """``event`` as :func:`describe_event` has always told it: a trump card set aside at the deal
    (a ``trump`` event of seat -1) told as added to the last seat's hand (seat -1 read as a
    Python index).  The golden records pin that sentence; :func:`event_message` of the event
    itself says that the card was set aside.  Every other event is returned as it is."""
    if event.kind == "trump" and event.seat < 0 and players:
        return event._replace(seat=players + event.seat)
    return event


def kill_message(plays: int, kill_at: int) -> Message:
    """How close a phase-two trick is to being killed, e.g. ``"2 of 3 plays: the next beat kills"``
    (``plays`` cards on the table of the ``kill_at`` that kill it)."""
    left = kill_at - plays
    if left <= 1:
        return Message(N_("{plays} of {kill_at} plays: the next beat kills"),
                       {"plays": plays, "kill_at": kill_at})
    return Message(N_("{plays} of {kill_at} plays: {left} more beats kill"),
                   {"plays": plays, "kill_at": kill_at, "left": left})


def kill_text(plays: int, kill_at: int) -> str:
    """How close a phase-two trick is to being killed, e.g. ``"2 of 3 plays: the next beat kills"``
    (English; :func:`kill_message`)."""
    return str(kill_message(plays, kill_at))


_VERB_IDS = {
    Kind.PLAY: N_("play {cards}"),
    Kind.SLUFF: N_("sluff {cards}"),
    Kind.DRECK: N_("dreck {cards}"),
}
_PLAIN_IDS = {
    Kind.PICK_UP: N_("pick up"),
    Kind.STOCK: N_("turn up the top stock card"),
    Kind.PASS: N_("pass (done sluffing)"),
    Kind.STORE: N_("store three trumps"),
    Kind.EXCHANGE: N_("exchange the 2 of trumps for the turned-up trump"),
}


def action_message(action: Action) -> Message:
    """A move as a button or a list of moves names it: ``"play 5♦ 6♦"``, ``"pick up"``.  Its
    English rendering is :meth:`Action.label <skitgubbe.engine.actions.Action.label>`'s text."""
    if action.kind in _PLAIN_IDS:
        return Message(_PLAIN_IDS[action.kind])
    return Message(_VERB_IDS[action.kind], {"cards": Cards(action.cards)})
