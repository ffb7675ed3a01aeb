"""Duplicate-deal tournaments between bots (no I/O; the command line formats the results).

**Entrants.**  ``bot_names`` lists the entrants in order (see :func:`entrant_labels`).  A
name given once is one entrant called by that name; a name given more than once gives that
many separate entrants of the same bot, labelled ``name#1``, ``name#2``, ... (so
``random,random,random,random`` is four random entrants, each with its own row).  An entrant
may also be an *agent object*: a bot (``name``, ``choose(view, legal)``) or a callable
``(view, legal) -> Action`` (:func:`skitgubbe.batch.evaluate.agent_bot`; a ``pyspiel.Bot`` or a
policy through :func:`skitgubbe.adapters.agents.as_bot` first).  It is labelled by its name and
used as it is, in this process (the deals are then played one after the other, whatever
``jobs`` says), at every seat the seating gives it; its randomness is its own, so only entrants
given by name are reproduced from the seed.

**Seatings** (:func:`seatings`).  Every deal is played once per seating, and a deal's
seatings make every entrant play every seat equally often (and all entrants play equally
many seat-games).  With ``k`` entrants and ``n`` seats:

* the *lineups*: if ``k <= n``, the entrants repeated cyclically over the seats starting
  from each entrant in turn (``k=2, n=3``: ``A B A`` and ``B A B``; when ``k`` divides
  ``n`` these coincide up to order); if ``k > n``, every combination of ``n`` entrants
  (in the order given), so that every pair of entrants meets equally often;
* the seatings of each lineup: every distinct seating order (every permutation) when
  ``k <= 3`` and the deal then has at most :data:`MAX_ORDERS` seatings; otherwise (four or
  more entrants, or three entrants at seven or eight seats) the ``n`` cyclic rotations.
  Seatings that coincide are played once.

Examples: 2 entrants at 3 seats: 6 seatings (``ABA AAB BAA BAB BBA ABB``); 3 at 3: 6;
1 at any: 1; 4 at 4: 4 rotations; 3 at 2 seats: 6 (``AB BA BC CB CA AC``).

**Seeding.**  Deal ``d`` of a tournament with seed ``S`` uses the deck
``deck_from_seed(f"{S}:{d}")`` with dealer ``d % players`` for all of its seatings; in
seating ``q`` the bot at seat ``i`` draws from ``random.Random(f"{S}:{d}:{q}:{i}")``, and
chance (the dreck shuffle) from a fresh ``random.Random(f"{S}:{d}:chance")`` in every
seating.  Deals are independent, so they are played in parallel processes and gathered in
order: the results are the same for any number of processes.

**Engines.**  When every entrant is a bot the compiled engine plays
(:data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS`: ``random`` and ``heuristic``), given by name,
the rules are rules it plays at ``players`` seats (:func:`skitgubbe.engine.compiled.unsupported`) and
no records are kept, the deals are played by the compiled engine and bots
(:func:`~skitgubbe.bots.compiled_bots.bot_deals`: ``engine="auto"``, the default, or
``"compiled"``), with the same seeds, the same random numbers and the same decisions as the
Python bots on the Python engine (``engine="python"``, the reference), so the results are the
same (tests/test_compiled_bots.py); :func:`tournament_engine` says which engine a run uses.

**Results.**  Finishing place: 1 = first seat out ... ``players`` = the loser; seats with
no cards at the start of phase two are out first; seats neither out nor the loser when a
deal ends early (``empty_hand = loses``) share the places between.  Abandoned deals (the
action limit) count in ``abandoned`` and nowhere else.

* Loser rate with a 95% interval computed over deals (the deal is the cluster: the seatings
  of one deal share its cards, so its games are not independent): for each deal, the
  entrant's losses / its seat-games in that deal; the rate is the mean of these per-deal
  rates over the deals, the interval mean +- t(0.975, D-1) * sd / sqrt(D) over the D deals,
  clipped to 0..1 (0..1 when D < 2).  A bot in two seats of a game has two seat-games.
* Mean finishing place over the entrant's seat-games.
* Rating: openskill's Plackett-Luce model (default mu 25, sigma 25/3), every game in the
  order (deal, seating); each entrant in a game is one team ranked by its mean finishing
  place there (so with one seat each, the finishing order; equal means tie).
* Milliseconds per move (``time.perf_counter`` around each ``choose``), kept as a histogram
  with bins 1% wide (:class:`MoveTimes`): median and 99th percentile.  On the compiled engine
  each seat's moves in a game are timed together in C++ and each counts as their mean (so the
  median and 99th percentile are over those per-game means).  Times are
  measurements: :meth:`TournamentResult.timings` gives them apart from
  :meth:`TournamentResult.to_dict`, and they take no part in comparing results.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import signal
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TypeVar

from openskill.models import PlackettLuce

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.compiled_bots import BotGame, bot_deals, compiled_bots_unsupported, compiled_deck
from ..engine.actions import Action
from ..engine.compiled import UnsupportedError
from ..engine.record import Record, record_of
from ..engine.rules import Rules
from ..engine.state import State, deck_from_seed
from ..engine.variants import find_variant
from ..engine.view import View
from .backend import Backend
from .bench import ENGINES
from .evaluate import agent_bot
from .runner import play_out

__all__ = [
    "MAX_ORDERS",
    "BotRow",
    "DealResult",
    "GameResult",
    "MoveTimes",
    "TournamentResult",
    "entrant_labels",
    "finishing_places",
    "mean_interval",
    "run_tournament",
    "seatings",
    "tournament_engine",
]

MAX_ORDERS = 120
"""Most seatings per deal for which every seating order is played (else cyclic rotations)."""

Keep = Callable[[int, int, Record], None]
"""Receives ``(deal, seating, record)`` for every game, in the order (deal, seating)."""


# -- seats -------------------------------------------------------------------------------


def entrant_labels(bot_names: Sequence[str | object]) -> list[str]:
    """The entrants' labels: each name stripped (an agent object's name); a name given more
    than once becomes ``name#1``, ``name#2``, ... in order.  Raises ``ValueError`` for no
    names or a name that is no bot, and ``TypeError`` for an entrant that is neither a bot
    name nor an agent object (a bot or a callable ``(view, legal) -> Action``)."""
    names = [n.strip() if isinstance(n, str) else agent_bot(n).name for n in bot_names]
    if not names:
        raise ValueError("give at least one bot name")
    for n, given in zip(names, bot_names, strict=True):
        if isinstance(given, str):
            make_bot(n, random.Random(0))  # raises ValueError naming the known bots
    counts = Counter(names)
    seen: Counter[str] = Counter()
    labels = []
    for n in names:
        seen[n] += 1
        labels.append(f"{n}#{seen[n]}" if counts[n] > 1 else n)
    return labels


def _bot_name(label: str) -> str:
    """The bot name of an entrant label (``random#2`` -> ``random``)."""
    return label.rsplit("#", 1)[0] if "#" in label else label


def seatings(entrants: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seatings of one deal: per seating, the entrant at each seat (see the module
    docstring).  Raises ``ValueError`` for no entrants, repeated entrants or ``players < 1``."""
    k, n = len(entrants), players
    if k == 0:
        raise ValueError("give at least one entrant")
    if len(set(entrants)) != k:
        raise ValueError(f"entrants must be distinct: {list(entrants)}")
    if n < 1:
        raise ValueError(f"players must be at least 1, not {n}")
    if k <= n:
        lineups = [tuple(entrants[(j + i) % k] for i in range(n)) for j in range(k)]
    else:
        lineups = list(itertools.combinations(entrants, n))
    if k <= 3:
        orders = {p: None for lineup in lineups for p in itertools.permutations(lineup)}
        if len(orders) <= MAX_ORDERS:
            return list(orders)
    rotations = {tuple(lu[(i + r) % n] for i in range(n)): None for lu in lineups for r in range(n)}
    return list(rotations)


def finishing_places(players: int, loser: int | None, out_order: Sequence[int]) -> tuple[float, ...]:
    """Each seat's finishing place: the ``i``-th seat out has place ``i`` (1-based), the loser
    ``players``; seats neither out nor the loser share (as their mean) the places left."""
    places = [0.0] * players
    for i, s in enumerate(out_order):
        places[s] = float(i + 1)
    free = list(range(len(out_order) + 1, players + (0 if loser is not None else 1)))
    rest = [s for s in range(players) if s != loser and s not in out_order]
    for s in rest:
        places[s] = sum(free) / len(free)
    if loser is not None:
        places[loser] = float(players)
    return tuple(places)


# -- statistics --------------------------------------------------------------------------

_T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157)
_Z975 = 1.959963984540054


def _t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom: a table up to 9,
    then the Cornish-Fisher expansion in 1/df (error below 1e-5)."""
    if df <= len(_T975):
        return _T975[df - 1]
    z, v = _Z975, float(df)
    return (z + (z**3 + z) / (4 * v) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4))


def mean_interval(values: Sequence[float], low: float = 0.0, high: float = 1.0) -> tuple[float, float, float]:
    """``(mean, lower, upper)``: the mean of ``values`` with its 95% t interval, clipped to
    ``low..high``.  Fewer than two values give the whole range as the interval."""
    if not values:
        return 0.0, low, high
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, low, high
    half = _t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, max(low, mean - half), min(high, mean + half)


@dataclass
class MoveTimes:
    """The move times of one entrant as a histogram: bin 0 holds times up to
    :attr:`FLOOR` seconds, bin ``b >= 1`` times in ``FLOOR * RATIO**(b-1) .. FLOOR * RATIO**b``,
    so a quantile is exact to half a percent.  ``total`` is the exact sum in seconds."""

    bins: dict[int, int] = field(default_factory=dict)
    count: int = 0
    total: float = 0.0

    FLOOR = 1e-7
    RATIO = 1.01

    def add(self, seconds: float) -> None:
        """Count one move that took ``seconds``."""
        b = 0 if seconds <= self.FLOOR else 1 + int(math.log(seconds / self.FLOOR) / math.log(self.RATIO))
        self.bins[b] = self.bins.get(b, 0) + 1
        self.count += 1
        self.total += seconds

    def add_moves(self, seconds: float, count: int) -> None:
        """Count ``count`` moves that took ``seconds`` each (the compiled engine's per-game mean)."""
        if count < 1:
            return
        b = 0 if seconds <= self.FLOOR else 1 + int(math.log(seconds / self.FLOOR) / math.log(self.RATIO))
        self.bins[b] = self.bins.get(b, 0) + count
        self.count += count
        self.total += seconds * count

    def merge(self, other: MoveTimes) -> None:
        """Add ``other``'s moves to these."""
        for b, c in other.bins.items():
            self.bins[b] = self.bins.get(b, 0) + c
        self.count += other.count
        self.total += other.total

    def quantile_ms(self, q: float) -> float:
        """The ``q`` quantile (0 < q <= 1, nearest rank) in milliseconds; 0.0 with no moves."""
        if not self.count:
            return 0.0
        rank = max(1, math.ceil(q * self.count))
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen >= rank:
                break
        seconds = self.FLOOR if b == 0 else self.FLOOR * self.RATIO ** (b - 0.5)
        return seconds * 1000.0

    def to_dict(self) -> dict[str, float | int]:
        """``moves``, ``mean_ms``, ``median_ms``, ``p99_ms``."""
        return {
            "moves": self.count,
            "mean_ms": self.total * 1000.0 / self.count if self.count else 0.0,
            "median_ms": self.quantile_ms(0.5),
            "p99_ms": self.quantile_ms(0.99),
        }


# -- playing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One game: deal ``deal`` played in seating ``seating``.

    ``seats``: the entrant at each seat; ``loser``: the losing seat (None if abandoned);
    ``out_order``: seats in the order they went out; ``places``: each seat's finishing place
    (:func:`finishing_places`); ``actions``: actions in the game (chance included);
    ``decisions``: each seat's bot decisions; ``seconds``: each seat's total thinking time
    (a measurement: not compared).
    """

    deal: int
    seating: int
    seats: tuple[str, ...]
    loser: int | None
    out_order: tuple[int, ...]
    places: tuple[float, ...]
    actions: int
    decisions: tuple[int, ...]
    seconds: tuple[float, ...] = field(compare=False)

    @property
    def abandoned(self) -> bool:
        """True if the game reached the action limit without a loser."""
        return self.loser is None


@dataclass(frozen=True)
class _DealTask:
    rules: Rules
    players: int
    seed: int
    deal: int
    seatings: tuple[tuple[str, ...], ...]
    records: bool
    agents: tuple[tuple[str, Bot], ...] = ()
    engine: str = "python"


@dataclass
class DealResult:
    """One deal played in every seating: its ``games`` in seating order, each entrant's move
    ``times`` over them, the ``cpu_seconds`` the deal took (CPU time of the thread that played
    it: a measurement), and its game ``records`` (empty unless records were asked for).

    :meth:`to_dict` and :meth:`from_dict` carry it, without the records, through JSON (a
    checkpoint file, :mod:`skitgubbe.batch.checkpoint`) and back unchanged."""

    deal: int
    games: list[GameResult]
    times: dict[str, MoveTimes]
    records: list[Record]
    cpu_seconds: float = 0.0

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON: ``deal``, ``games`` (each game's fields), ``times`` (entrant ->
        histogram bins, count and total seconds) and ``cpu_seconds``; not the records."""
        return {
            "deal": self.deal,
            "games": [{
                "seating": g.seating, "seats": list(g.seats), "loser": g.loser,
                "out_order": list(g.out_order), "places": list(g.places), "actions": g.actions,
                "decisions": list(g.decisions), "seconds": list(g.seconds),
            } for g in self.games],
            "times": {b: {"bins": {str(k): c for k, c in sorted(t.bins.items())}, "count": t.count,
                          "total": t.total} for b, t in self.times.items()},
            "cpu_seconds": self.cpu_seconds,
        }

    @classmethod
    def from_dict(cls, data: object) -> DealResult:
        """The deal :meth:`to_dict` gave ``data`` for.  Raises ``ValueError`` naming the field
        that is missing or holds the wrong kind of value."""
        deal = _field(data, "deal", int, "")
        games = []
        for i, g in enumerate(_field(data, "games", list, "")):
            at = f"games[{i}]."
            seats = _field(g, "seats", list, at)
            if not all(isinstance(b, str) for b in seats):
                raise ValueError(f"{at}seats: {seats!r} is not a list of entrant names")
            loser = _field(g, "loser", object, at)
            if loser is not None and type(loser) is not int:
                raise ValueError(f"{at}loser: {loser!r} is neither a seat nor null")
            games.append(GameResult(
                deal=deal, seating=_field(g, "seating", int, at), seats=tuple(seats), loser=loser,
                out_order=_numbers(g, "out_order", int, at), places=_numbers(g, "places", float, at),
                actions=_field(g, "actions", int, at), decisions=_numbers(g, "decisions", int, at),
                seconds=_numbers(g, "seconds", float, at),
            ))
        times = {}
        for b, t in _field(data, "times", dict, "").items():
            at = f"times[{b!r}]."
            bins = _field(t, "bins", dict, at)
            if not all(isinstance(k, str) and k.isdigit() and type(c) is int for k, c in bins.items()):
                raise ValueError(f"{at}bins: {bins!r} is not a map of bin numbers to counts")
            times[str(b)] = MoveTimes({int(k): c for k, c in bins.items()}, _field(t, "count", int, at),
                                      _field(t, "total", float, at))
        return cls(deal, games, times, [], _field(data, "cpu_seconds", float, ""))


F = TypeVar("F")
_KINDS: dict[type, str] = {int: "a whole number", float: "a number", list: "a list", dict: "a map"}


def _as(value: object, kind: type[F], where: str) -> F:
    """``value`` if it is a ``kind`` (an int counts as a float, a bool as neither number), else
    ``ValueError`` naming ``where``."""
    if kind is float and type(value) is int:
        value = float(value)
    if (isinstance(value, bool) and kind is not object) or not isinstance(value, kind):
        raise ValueError(f"{where}: {value!r} is not {_KINDS.get(kind, kind.__name__)}")
    return value


def _field(data: object, key: str, kind: type[F], where: str) -> F:
    """``data[key]`` if ``data`` is a dict holding a ``kind`` there (:func:`_as`), else
    ``ValueError`` naming ``where + key``."""
    if not isinstance(data, dict) or key not in data:
        raise ValueError(f"{where}{key}: missing")
    return _as(data[key], kind, f"{where}{key}")


def _numbers(data: object, key: str, kind: type[F], where: str) -> tuple[F, ...]:
    """``data[key]`` as a tuple of ``kind`` (int or float; :func:`_as`), else ``ValueError``
    naming ``where + key`` and the position in the list."""
    return tuple(_as(value, kind, f"{where}{key}[{i}]")
                 for i, value in enumerate(_field(data, key, list, where)))


class _TimedBot:
    """A bot whose every ``choose`` is timed into ``times`` and the seat's tally."""

    def __init__(self, bot: Bot, times: MoveTimes) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        took = time.perf_counter() - start
        self.times.add(took)
        self.decisions += 1
        self.seconds += took
        return action


def _play_deal(task: _DealTask) -> DealResult:
    """Play one deal in each of its seatings (module docstring: seeding)."""
    started = time.thread_time()
    seed, deal, n = task.seed, task.deal, task.players
    deck_seed = f"{seed}:{deal}"
    times: dict[str, MoveTimes] = {}
    games: list[GameResult] = []
    records: list[Record] = []
    agents = dict(task.agents)
    if task.engine == "compiled":  # every seating in one call to the compiled bots
        deck = compiled_deck(deck_seed)  # (= deck_from_seed: the compiled engine plays one full pack)
        plays = [BotGame([_bot_name(label) for label in seating], deck, deal % n,
                         [f"{seed}:{deal}:{q}:{i}" for i in range(n)], f"{seed}:{deal}:chance")
                 for q, seating in enumerate(task.seatings)]
        for q, (seating, got) in enumerate(zip(task.seatings, bot_deals(task.rules, n, plays), strict=True)):
            for label, k, secs in zip(seating, got.decisions, got.seconds, strict=True):
                times.setdefault(label, MoveTimes()).add_moves(secs / k if k else 0.0, k)
            games.append(GameResult(deal=deal, seating=q, seats=seating, loser=got.loser,
                                    out_order=got.out_order,
                                    places=finishing_places(n, got.loser, got.out_order),
                                    actions=got.actions, decisions=got.decisions, seconds=got.seconds))
        return DealResult(deal, games, times, records, time.thread_time() - started)
    deck = deck_from_seed(deck_seed, decks=task.rules.decks, pack=task.rules.pack)
    for q, seating in enumerate(task.seatings):
        state = State.new(task.rules, n, dealer=deal % n, deck=deck)
        bots = [
            _TimedBot(agents[label] if label in agents
                      else make_bot(_bot_name(label), random.Random(f"{seed}:{deal}:{q}:{i}")),
                      times.setdefault(label, MoveTimes()))
            for i, label in enumerate(seating)
        ]
        play_out(state, bots, random.Random(f"{seed}:{deal}:chance"))
        games.append(GameResult(
            deal=deal,
            seating=q,
            seats=seating,
            loser=state.loser,
            out_order=tuple(state.out_order),
            places=finishing_places(n, state.loser, state.out_order),
            actions=len(state.history),
            decisions=tuple(b.decisions for b in bots),
            seconds=tuple(b.seconds for b in bots),
        ))
        if task.records:
            records.append(record_of(state, seed=deck_seed))
    return DealResult(deal, games, times, records, time.thread_time() - started)


def _ignore_interrupt() -> None:  # pragma: no cover - runs in worker processes
    """Worker initializer: Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- results -----------------------------------------------------------------------------


@dataclass(frozen=True)
class BotRow:
    """One entrant's line of the table (see the module docstring for each figure).

    ``seat_games``/``losses``: over finished games; ``deals``: deals in the interval;
    ``loser_rate``, ``low``, ``high``: mean per-deal loser rate and its 95% interval;
    ``mean_place``; ``mu``, ``sigma``, ``ordinal`` (mu - 3 sigma): the openskill rating.
    """

    bot: str
    seat_games: int
    losses: int
    deals: int
    loser_rate: float
    low: float
    high: float
    mean_place: float
    mu: float
    sigma: float
    ordinal: float

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON."""
        return dict(self.__dict__)


@dataclass
class TournamentResult:
    """Everything :func:`run_tournament` found.

    ``engine``: the engine that played the deals, ``"python"`` or ``"compiled"``; ``bots``: the
    entrant labels; ``seatings``: the seatings of every deal; ``games``: every
    game in the order (deal, seating); ``ratings``: entrant -> (mu, sigma); ``move_times``:
    entrant -> :class:`MoveTimes`; ``cpu_seconds``: CPU seconds the deals took, summed over
    them (resumed deals included; :class:`DealResult`).  The last two are measurements: not
    compared, not in :meth:`to_dict`.
    """

    rules: Rules
    players: int
    bots: list[str]
    seed: int
    deals: int
    seatings: list[tuple[str, ...]]
    games: list[GameResult]
    ratings: dict[str, tuple[float, float]]
    move_times: dict[str, MoveTimes] = field(compare=False, default_factory=dict)
    cpu_seconds: float = field(compare=False, default=0.0)
    engine: str = field(compare=False, default="python")

    @property
    def abandoned(self) -> int:
        """Games that reached the action limit (no loser)."""
        return sum(1 for g in self.games if g.loser is None)

    def seat_games(self) -> dict[str, list[int]]:
        """Entrant -> games played at each seat (all games, abandoned ones too)."""
        out = {b: [0] * self.players for b in self.bots}
        for g in self.games:
            for seat, b in enumerate(g.seats):
                out[b][seat] += 1
        return out

    def rows(self) -> list[BotRow]:
        """The table: one :class:`BotRow` per entrant, in the order given."""
        per_deal: dict[str, dict[int, list[int]]] = {b: {} for b in self.bots}  # deal -> [losses, seat-games]
        places: dict[str, list[float]] = {b: [] for b in self.bots}
        for g in self.games:
            if g.loser is None:
                continue
            for seat, b in enumerate(g.seats):
                tally = per_deal[b].setdefault(g.deal, [0, 0])
                tally[0] += seat == g.loser
                tally[1] += 1
                places[b].append(g.places[seat])
        rows = []
        for b in self.bots:
            rates = [k / m for k, m in per_deal[b].values()]
            rate, low, high = mean_interval(rates)
            mu, sigma = self.ratings[b]
            rows.append(BotRow(
                bot=b,
                seat_games=sum(m for _, m in per_deal[b].values()),
                losses=sum(k for k, _ in per_deal[b].values()),
                deals=len(rates),
                loser_rate=rate,
                low=low,
                high=high,
                mean_place=statistics.fmean(places[b]) if places[b] else 0.0,
                mu=mu,
                sigma=sigma,
                ordinal=mu - 3 * sigma,
            ))
        return rows

    def to_dict(self) -> dict[str, object]:
        """Plain data for JSON output, without timings: equal seeds give equal dicts
        whatever the number of processes (and, but for the ``engine`` field, whatever the engine)."""
        games = len(self.games)
        return {
            "engine": self.engine,
            "rules": self.rules.name,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "deals": self.deals,
            "seatings": [list(s) for s in self.seatings],
            "games": games,
            "abandoned": self.abandoned,
            "mean_actions": sum(g.actions for g in self.games) / games if games else 0.0,
            "interval": "95%, Student t over deals",
            "table": [r.to_dict() for r in self.rows()],
        }

    def timings(self) -> dict[str, dict[str, float | int]]:
        """Entrant -> ``moves``, ``mean_ms``, ``median_ms``, ``p99_ms`` (measurements)."""
        return {b: self.move_times.get(b, MoveTimes()).to_dict() for b in self.bots}


def _rate(bots: Sequence[str], games: Sequence[GameResult]) -> dict[str, tuple[float, float]]:
    """Openskill Plackett-Luce ratings over ``games`` in order (module docstring)."""
    model = PlackettLuce()
    ratings = {b: model.rating(name=b) for b in bots}
    for g in games:
        if g.loser is None:
            continue
        present = [b for b in bots if b in g.seats]
        if len(present) < 2:
            continue
        ranks = [statistics.fmean(p for p, s in zip(g.places, g.seats, strict=True) if s == b)
                 for b in present]
        rated = model.rate([[ratings[b]] for b in present], ranks=ranks)
        for b, team in zip(present, rated, strict=True):
            ratings[b] = team[0]
    return {b: (r.mu, r.sigma) for b, r in ratings.items()}


def tournament_engine(rules: Rules, players: int, bot_names: Sequence[str | object], *,
                      records: bool = False, engine: str = "auto") -> str:
    """The engine :func:`run_tournament` plays with: ``"compiled"`` or ``"python"``.

    ``engine``: one of :data:`~skitgubbe.batch.bench.ENGINES`.  ``"python"`` is always the Python
    engine; ``"auto"`` is the compiled engine when it can play the run (every entrant a bot of
    :data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS` given by name, ``rules`` rules it plays at
    ``players`` seats, no ``records`` kept), else the Python engine; ``"compiled"`` is the compiled
    engine or an error.  Raises ``ValueError`` for another ``engine`` value, and
    :class:`~skitgubbe.engine.compiled.UnsupportedError` (a ``ValueError``) for ``"compiled"`` when the
    compiled engine cannot play the run, saying why."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(ENGINES)}, not {engine!r}")
    if engine == "python":
        return "python"
    names = [n for n in bot_names if isinstance(n, str)]
    if len(names) < len(bot_names):
        reason: str | None = "the compiled engine plays bots given by name, not agent objects"
    elif records:
        reason = "records are written by the Python engine: leave out --record to use the compiled engine"
    else:
        reason = compiled_bots_unsupported(rules, players, names)
    if reason is None:
        return "compiled"
    if engine == "compiled":
        raise UnsupportedError(reason)
    return "python"


def run_tournament(
    rules: Rules | str,
    players: int,
    bot_names: Sequence[str | object],
    deals: int,
    seed: int,
    *,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    keep: Keep | None = None,
    backend: Backend | None = None,
    resume: Iterable[DealResult] = (),
    on_deal: Callable[[DealResult], None] | None = None,
    engine: str = "auto",
) -> TournamentResult:
    """Play ``deals`` duplicate deals between the bots ``bot_names`` (bot names or agent
    objects) at ``players`` seats (the module docstring says how seats are filled and seeded)
    and gather the results.

    ``jobs``: worker processes (default ``os.cpu_count()``); 1 plays in this process.  The
    result is the same for any ``jobs``.  ``progress(done)`` is called after each finished
    deal with the number of deals finished so far; ``keep(deal, seating, record)`` receives
    every game's record in the order (deal, seating).  ``backend``: where the deals are played
    instead (:mod:`skitgubbe.batch.backend`, such as a Ray cluster; not with agent objects, which
    play in this process); the result is the same.

    ``resume``: deals already played by this same tournament (same rules, seats, entrants and
    seed), say read back from a checkpoint (:mod:`skitgubbe.batch.checkpoint`); they are not
    played again, and deals beyond ``deals`` are ignored.  ``on_deal(result)`` receives every
    newly played deal, in deal order, after its records were kept.  For entrants given by name
    the result is the same as an uninterrupted run's.

    ``rules``: the rules, or a preset's name (``"pagat"``; :func:`~skitgubbe.engine.variants.find_variant`).

    ``engine``: ``"auto"``, ``"python"`` or ``"compiled"`` (:func:`tournament_engine`; the module
    docstring, "Engines").  The result does not depend on the engine but for its ``engine`` field and
    the move times.

    Raises :class:`~skitgubbe.engine.variants.UnknownVariantError` (a ``ValueError``) for a preset
    name that does not exist, ``ValueError`` for a player count outside the rules, ``deals < 1``,
    ``jobs < 1``, an unknown bot, an unknown ``engine``, ``engine="compiled"`` for a run the compiled
    engine cannot play (:class:`~skitgubbe.engine.compiled.UnsupportedError`), or a deal to resume
    from given twice or played in other seatings, and ``TypeError`` for an entrant that is neither a
    bot name nor an agent object.
    """
    if isinstance(rules, str):
        rules = find_variant(rules)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {players}"
        )
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    labels = entrant_labels(bot_names)
    orders = seatings(labels, players)
    agents = tuple((label, agent_bot(given)) for label, given in zip(labels, bot_names, strict=True)
                   if not isinstance(given, str))
    if agents:
        jobs = 1  # agent objects are used as they are, in this process
    used = tournament_engine(rules, players, bot_names, records=keep is not None, engine=engine)
    done: dict[int, DealResult] = {}
    for result in resume:
        if not 0 <= result.deal < deals:
            continue  # a longer run's deal: not in this one
        if result.deal in done:
            raise ValueError(f"deal {result.deal} is given twice to resume from")
        if [g.seats for g in result.games] != orders:
            raise ValueError(f"deal {result.deal} to resume from was not played in this tournament's "
                             "seatings (other entrants or seats)")
        done[result.deal] = result
    resumed = set(done)
    tasks = [_DealTask(rules, players, seed, d, tuple(orders), keep is not None, agents, used)
             for d in range(deals) if d not in resumed]
    next_kept = 0
    if progress is not None and done:
        progress(len(done))

    def collect(result: DealResult) -> None:
        nonlocal next_kept
        done[result.deal] = result
        if progress is not None:
            progress(len(done))
        while next_kept in done:  # in deal order
            if next_kept not in resumed:
                finished = done[next_kept]
                if keep is not None:
                    for q, record in enumerate(finished.records):
                        keep(next_kept, q, record)
                    finished.records.clear()
                if on_deal is not None:
                    on_deal(finished)
            next_kept += 1

    if not tasks:
        pass  # every deal resumed
    elif backend is not None and not agents:
        backend.map(_play_deal, tasks, lambda i, result: collect(result))
    elif jobs == 1 or len(tasks) == 1:
        for task in tasks:
            collect(_play_deal(task))
    else:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), initializer=_ignore_interrupt)
        futures: list[Future[DealResult]] = []
        try:
            futures = [pool.submit(_play_deal, task) for task in tasks]
            for future in as_completed(futures):
                collect(future.result())
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    games = [g for d in range(deals) for g in done[d].games]
    times = {b: MoveTimes() for b in labels}
    for d in range(deals):
        for b, t in done[d].times.items():
            times[b].merge(t)
    return TournamentResult(
        rules=rules,
        players=players,
        bots=labels,
        seed=seed,
        deals=deals,
        seatings=orders,
        games=games,
        ratings=_rate(labels, games),
        move_times=times,
        cpu_seconds=sum(done[d].cpu_seconds for d in range(deals)),
        engine=used,
    )
