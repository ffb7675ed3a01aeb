"""Messages in the reader's language: gettext catalogs, messages with parameters, card words.

Everything a person reads goes through one gettext domain, ``skitgubbe``, whose catalogs live
in the package (``skitgubbe/locale/LANG/LC_MESSAGES/skitgubbe.mo``; the sources are the ``.po``
files beside them, extracted and compiled with Babel: ``make catalogs``, docs/translating.md).
Only the standard library's :mod:`gettext` is used here, so the engine keeps no dependency.

The engine does not build English sentences: it builds :class:`Message` values, a message id
(the English text with ``{name}`` fields) and its parameters, and a reader renders them in a
language with :func:`render`.  A parameter is a plain ``str`` or ``int``, or one of the typed
values below, which are written in the reader's language when the message is rendered:

- :class:`Seat` (a seat's name), :class:`Seats` (names joined with "and"),
- :class:`Cards` (a card set as labels), :class:`Suit` (a suit's name), :class:`Rank`,
- :class:`Plural` (``"1 card"`` / ``"3 cards"``: gettext's plural forms),
- another :class:`Message`.

A message told of a seat (``Message.seat``) may have a second form for the reader's own seat,
``you``: ``"{seat} plays {cards}"`` / ``"You play {cards}"``.  Both are message ids.

Mark a message id in the source with :func:`N_` (gettext's ``gettext_noop``) so that Babel
extracts it; :class:`Plural`'s two ids are extracted as one plural entry.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Union

from .cards import RANK_CHARS, SUIT_NAMES, SUIT_SYMBOLS, in_order, rank_of, suit_of

__all__ = [
    "DOMAIN",
    "LOCALE_DIR",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "NC_",
    "Message",
    "Seat",
    "Seats",
    "Cards",
    "Suit",
    "Rank",
    "Plural",
    "Arg",
    "translation",
    "pick_language",
    "language_from_env",
    "gettext_in",
    "render",
    "rank_label",
    "card_label_in",
    "cards_label_in",
    "suit_name_in",
    "suit_order_in",
    "join_in",
]

DOMAIN = "skitgubbe"
"""The one gettext domain of every message of the project."""

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogs are: ``LOCALE_DIR / LANG / "LC_MESSAGES" / "skitgubbe.mo"``."""

LANGUAGES = ("en", "sv", "nb", "fi")
"""The languages shipped, as language codes; English is the source language (no catalog)."""

LANGUAGE_NAMES = {"en": "English", "sv": "Svenska", "nb": "Norsk bokmål", "fi": "Suomi"}
"""Each shipped language's name in itself, for a language picker."""

_ALIASES = {"no": "nb", "nn": "nb", "se": "sv"}
"""Language codes read as a shipped one: Norwegian without a written standard, and nynorsk,
read as bokmål (the nearest catalog we ship); ``se`` as a frequent misspelling of Swedish."""


def N_(text: str) -> str:
    """Mark ``text`` as a message id for extraction and return it unchanged (gettext's
    ``gettext_noop``): it is translated when a :class:`Message` holding it is rendered."""
    return text


def NC_(context: str, text: str) -> str:
    """Mark ``text`` with gettext context ``context`` for extraction (like :func:`N_`); returns
    ``text``.  Translate it with :func:`gettext_in` and the same context."""
    return text


_CARD_WORDS = (
    # TRANSLATORS: a card's rank as printed in its corner; English notation writes T for ten
    NC_("card rank", "2"), NC_("card rank", "3"), NC_("card rank", "4"), NC_("card rank", "5"),
    NC_("card rank", "6"), NC_("card rank", "7"), NC_("card rank", "8"), NC_("card rank", "9"),
    NC_("card rank", "T"), NC_("card rank", "J"), NC_("card rank", "Q"), NC_("card rank", "K"),
    NC_("card rank", "A"),
    NC_("suit", "clubs"), NC_("suit", "diamonds"), NC_("suit", "hearts"), NC_("suit", "spades"),
    # TRANSLATORS: the order of the suits in a sorted hand, as the four symbols
    NC_("suit order", "♣♦♥♠"),
    N_("{first} and {last}"),
    N_("Seat {n}"),
)
"""The catalog's card words, marked for extraction (used through :func:`rank_label`,
:func:`suit_name_in`, :func:`suit_order_in`, :func:`join_in` and seat names)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat (0-based index into the names a message is rendered with)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Seats:
    """Several seats, written as names joined with the language's "and" (``"A, B and C"``)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Cards:
    """A card set (bitmask, bit i = card i), written lowest first as labels (``"7♥ 10♦"``);
    ``empty`` is the message id written for no card (default: nothing)."""

    cards: int
    empty: str = ""


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit (0..3 = clubs, diamonds, hearts, spades), written as its name in the language."""

    suit: int


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank (2..14, 14 = ace), written as its label in the language (``"10"``, ``"Kn"``)."""

    rank: int


@dataclass(frozen=True, slots=True)
class Plural:
    """A counted phrase: message ids ``one`` and ``many`` with a ``{n}`` field, chosen by the
    language's plural rule for ``n`` (gettext's ``ngettext``)."""

    one: str
    many: str
    n: int


Arg = Union[str, int, Seat, Seats, Cards, Suit, Rank, Plural, "Message"]
"""A message parameter."""


@dataclass(frozen=True, slots=True)
class Message:
    """A sentence to be written in the reader's language: message id ``text`` (English, with
    ``{name}`` fields) and its parameters ``args`` (name -> :data:`Arg`).

    ``seat`` is the seat the sentence is about (-1: none); when the reader holds that seat and
    ``you`` is set, ``you`` (the second-person form, same fields) is written instead.
    ``str(message)`` is the English text with the seats named ``"Seat N"``."""

    text: str
    args: Mapping[str, Arg] = field(default_factory=dict)
    seat: int = -1
    you: str = ""

    def __str__(self) -> str:
        return render(self)

    def __hash__(self) -> int:
        return hash((self.text, tuple(sorted(self.args.items(), key=lambda kv: kv[0])), self.seat, self.you))


@cache
def translation(lang: str) -> gettext.NullTranslations:
    """The catalog of language code ``lang`` (one of :data:`LANGUAGES`, or any code: an unknown
    one, and English, give the message ids themselves).  Cached per language."""
    lang = _ALIASES.get(lang, lang)
    if lang == "en" or lang not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


_TAG = re.compile(r"^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)*$")


def _language_of(tag: str) -> str | None:
    m = _TAG.match(tag.strip().split(".")[0].split("@")[0])
    if not m:
        return None
    code = m.group(1).lower()
    code = _ALIASES.get(code, code)
    return code if code in LANGUAGES else None


def pick_language(accept: str | None, default: str = "en") -> str:
    """The shipped language a reader asks for: ``accept`` is an HTTP ``Accept-Language`` value
    (``"sv-SE,sv;q=0.9,en;q=0.8"``) or a list of tags; the first shipped language by quality
    (then by order) wins, else ``default``.  Norwegian (``no``, ``nn``, ``nb-NO``) is bokmål.
    Malformed parts are skipped, never an error."""
    if not accept:
        return default
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            k, _, v = p.strip().partition("=")
            if k == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        code = _language_of(tag)
        if code is not None and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else default


def language_from_env(environ: Mapping[str, str] | None = None, default: str = "en") -> str:
    """The terminal's language, as gettext reads it: ``LANGUAGE`` (a ``:`` list), then
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; the first shipped one, else ``default``
    (``C`` and ``POSIX`` are English)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for tag in value.split(":"):
            if tag in ("C", "POSIX") or tag.startswith("C."):
                return "en"
            code = _language_of(tag)
            if code is not None:
                return code
        if var != "LANGUAGE":
            return default
    return default


def gettext_in(lang: str, text: str, context: str = "") -> str:
    """Message id ``text`` (with ``context``: gettext's ``pgettext``) in language ``lang``."""
    t = translation(lang)
    return t.pgettext(context, text) if context else t.gettext(text)


def rank_label(rank: int, lang: str = "en") -> str:
    """The index of rank ``rank`` (2..14) in ``lang``: ``"T"``/``"J"``... in English notation,
    the language's card words elsewhere (Swedish ``"10"``, ``"Kn"``, ``"D"``, ``"K"``, ``"E"``)."""
    return gettext_in(lang, RANK_CHARS[rank - 2], "card rank")


def card_label_in(c: int, lang: str = "en") -> str:
    """Card ``c`` as a label in ``lang``: rank index and suit symbol (``"T♦"``, Swedish ``"10♦"``)."""
    return rank_label(rank_of(c), lang) + SUIT_SYMBOLS[suit_of(c)]


def cards_label_in(mask: int, lang: str = "en") -> str:
    """The cards of card set ``mask`` (bitmask, bit i = card i), lowest first, as labels joined
    by spaces; empty for no card."""
    return " ".join(card_label_in(c, lang) for c in in_order(mask))


def suit_name_in(suit: int, lang: str = "en") -> str:
    """Suit ``suit``'s name (0..3 = clubs, diamonds, hearts, spades) in ``lang``."""
    return gettext_in(lang, SUIT_NAMES[suit], "suit")


def suit_order_in(lang: str = "en") -> tuple[int, ...]:
    """The order in which ``lang``'s players sort suits in a hand, as suit numbers (0..3 =
    clubs, diamonds, hearts, spades).  The catalog gives it as the four suit symbols in order
    (message ``"♣♦♥♠"``, context ``"suit order"``); a catalog that does not give a permutation
    of the four falls back to English's."""
    text = gettext_in(lang, "".join(SUIT_SYMBOLS), "suit order")
    order = tuple(SUIT_SYMBOLS.index(ch) for ch in text if ch in SUIT_SYMBOLS)
    return order if sorted(order) == [0, 1, 2, 3] else (0, 1, 2, 3)


def join_in(words: Sequence[str], lang: str = "en") -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"`` in ``lang``."""
    if len(words) <= 1:
        return "".join(words)
    return gettext_in(lang, "{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _seat_name(seat: int, names: Sequence[str] | None, lang: str) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return gettext_in(lang, "Seat {n}").format(n=seat)


def _arg(value: Arg, lang: str, names: Sequence[str] | None, you: frozenset[int]) -> str:
    if isinstance(value, Message):
        return render(value, lang, names, you)
    if isinstance(value, Seat):
        return _seat_name(value.seat, names, lang)
    if isinstance(value, Seats):
        return join_in([_seat_name(s, names, lang) for s in value.seats], lang)
    if isinstance(value, Cards):
        if not value.cards and value.empty:
            return gettext_in(lang, value.empty)
        return cards_label_in(value.cards, lang)
    if isinstance(value, Suit):
        return suit_name_in(value.suit, lang)
    if isinstance(value, Rank):
        return rank_label(value.rank, lang)
    if isinstance(value, Plural):
        return translation(lang).ngettext(value.one, value.many, value.n).format(n=value.n)
    return str(value)


def render(message: Message | str, lang: str = "en", names: Sequence[str] | None = None,
           you: Iterable[int] = ()) -> str:
    """``message`` written in language ``lang``: its id translated, every field filled in.

    ``names`` gives each seat's name (default ``"Seat N"`` in ``lang``); ``you`` are the seats the
    reader holds: a message about one of them (``message.seat``) takes its ``you`` form.  A plain
    ``str`` is returned as it is (text already written).  A translation whose fields do not match
    the message id's falls back to the English id rather than fail (the catalog test catches it)."""
    if isinstance(message, str):
        return message
    mine = you if isinstance(you, frozenset) else frozenset(you)
    text = message.you if message.you and message.seat in mine else message.text
    args = {k: _arg(v, lang, names, mine) for k, v in message.args.items()}
    try:
        return gettext_in(lang, text).format(**args)
    except (KeyError, IndexError, ValueError):
        return text.format(**args)
