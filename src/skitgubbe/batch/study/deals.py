"""The studies' one kind of work: seeded deals between bots, each reduced to a small summary.

A :class:`DealTask` is one chunk of deals of one configuration (rules, seats, line-up of bots);
:func:`play_deals` plays it.  Deal ``d`` of a configuration with seed ``S`` and label ``L`` is
shuffled with ``deck_from_seed(f"{S}:{L}:{d}")``, its dealer is ``d % players``, chance (the
dreck) draws from ``random.Random(f"{S}:{L}:{d}:chance")`` and the bot at seat ``i`` from
``random.Random(f"{S}:{L}:{d}:{i}")``.  The line-up is turned round the table by ``shift =
(d + d // players) % players`` (the bot listed first sits at seat ``shift``), so over
``players**2`` deals the first-listed bot meets every dealer at every seat.  A deal's summary
depends only on these, so chunks may run anywhere, in any order.

A task's ``engine`` (``"python"``, the reference, or ``"auto"``) says where its deals are played:
under ``"auto"``, when the compiled engine plays the rules and every bot of the line-up is a plain
name of :data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS`, the deals are played whole in compiled
code (:func:`~skitgubbe.bots.compiled_bots.bot_deals`, the same seeds, the same decisions) and
replayed in a compiled state up to phase two for the hands; every other task steps the Python
engine.  The summaries are the same either way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...bots import HeuristicBot, make_bot
from ...bots.base import Bot
from ...bots.compiled_bots import BotGame, bot_deals, compiled_bots_unsupported
from ...engine.actions import CHANCE, Action
from ...engine.base import Phase
from ...engine.cards import rank_of, suit_of
from ...engine.compiled import CompiledState, action_of
from ...engine.rules import Rules
from ...engine.state import State, deck_from_seed
from ..runner import play_out

__all__ = ["DealTask", "DealSummary", "SeatHand", "play_deals", "build_bot", "LOW_RANK"]

LOW_RANK = 6
"""A *low card* in the studies: a non-trump of rank 6 or below (2 to 6)."""

_TUNABLE = ("trump_power", "pick_penalty", "kill_bonus", "center", "sluff_margin")


def build_bot(spec: str, rng: random.Random) -> Bot:
    """A bot from a study's bot spec: a :func:`~skitgubbe.bots.make_bot` name, or
    ``heuristic/WEIGHT=VALUE`` for a heuristic bot with one tuning weight changed on this
    instance (weights: ``trump_power``, ``pick_penalty``, ``kill_bonus``, ``center``,
    ``sluff_margin``; see :class:`~skitgubbe.bots.HeuristicBot`).  Raises ``ValueError`` for an
    unknown bot, weight or a value that is no number."""
    name, _, setting = spec.partition("/")
    bot = make_bot(name, rng)
    if not setting:
        return bot
    key, _, value = setting.partition("=")
    if not isinstance(bot, HeuristicBot) or key not in _TUNABLE:
        raise ValueError(f"{spec!r}: only a heuristic or counter bot takes a weight, "
                         f"one of {', '.join(_TUNABLE)}")
    try:
        setattr(bot, key, float(value))
    except ValueError:
        raise ValueError(f"{spec!r}: {value!r} is not a number") from None
    return bot


@dataclass(frozen=True)
class SeatHand:
    """One seat's hand when phase two starts (after the trump card and the dreck joined hands):
    ``size`` cards, ``trumps``, ``low`` (non-trumps of rank :data:`LOW_RANK` or below), ``aces``
    and ``kings`` (non-trump), ``trump_top`` (the rank of its best trump, 0 for none)."""

    size: int
    trumps: int
    low: int
    aces: int
    kings: int
    trump_top: int

    @property
    def power(self) -> int:
        """Trumps plus non-trump aces and kings: the Flurst page's "power" cards."""
        return self.trumps + self.aces + self.kings


@dataclass(frozen=True)
class DealSummary:
    """One deal: ``deal`` index, ``dealer``, ``first_leader``, ``shift`` (the seat of the bot
    listed first), ``loser`` (-1 if abandoned), ``actions`` (chance included), ``tricks`` (both
    phases) and ``hands``: each seat's :class:`SeatHand` at the start of phase two (empty if the
    deal never got there)."""

    deal: int
    dealer: int
    first_leader: int
    shift: int
    loser: int
    actions: int
    tricks: int
    hands: tuple[SeatHand, ...]

    @property
    def abandoned(self) -> bool:
        """True if the deal reached the action limit without a loser."""
        return self.loser < 0


@dataclass(frozen=True)
class DealTask:
    """Deals ``start .. start + count - 1`` of the configuration ``label`` under ``rules`` at
    ``players`` seats, the bots of ``lineup`` (bot specs, :func:`build_bot`; repeated over the
    seats if shorter) turned round the table as the module docstring says."""

    rules: Rules
    players: int
    lineup: tuple[str, ...]
    seed: int
    label: str
    start: int
    count: int
    engine: str = "python"


def task_engine(task: DealTask) -> str:
    """Where ``task``'s deals are played: ``"compiled"`` when its ``engine`` is ``"auto"``, the
    compiled engine plays its rules at its seat count and every line-up entry is a compiled bot's
    name (no ``/WEIGHT=VALUE``), else ``"python"``."""
    if task.engine != "auto" or any("/" in b for b in task.lineup):
        return "python"
    plays = compiled_bots_unsupported(task.rules, task.players, task.lineup) is None
    return "compiled" if plays else "python"


def _hand(mask: int, trump: int) -> SeatHand:
    size = trumps = low = aces = kings = top = 0
    while mask:
        bit = mask & -mask
        c = bit.bit_length() - 1
        mask ^= bit
        r, s = rank_of(c), suit_of(c)
        size += 1
        if s == trump:
            trumps += 1
            top = max(top, r)
        elif r <= LOW_RANK:
            low += 1
        elif r == 14:
            aces += 1
        elif r == 13:
            kings += 1
    return SeatHand(size, trumps, low, aces, kings, top)


def play_deals(task: DealTask) -> list[DealSummary]:
    """Play the task's deals (module docstring: seeding) and summarize each, in deal order."""
    if task_engine(task) == "compiled":
        return _play_compiled(task)
    n = task.players
    out: list[DealSummary] = []
    for d in range(task.start, task.start + task.count):
        key = f"{task.seed}:{task.label}:{d}"
        shift = (d + d // n) % n
        deck = deck_from_seed(key, decks=task.rules.decks, pack=task.rules.pack)
        state = State.new(task.rules, n, dealer=d % n, deck=deck)
        first_leader = state.first_leader
        bots = [build_bot(task.lineup[((s - shift) % n) % len(task.lineup)], random.Random(f"{key}:{s}"))
                for s in range(n)]
        box: list[tuple[SeatHand, ...]] = []

        def snap(st: State, seat: int, action: Action, box: list[tuple[SeatHand, ...]] = box) -> None:
            if not box and st.phase == Phase.TWO and st.to_act != CHANCE:
                box.append(tuple(_hand(h, st.trump_suit) for h in st.hands))

        play_out(state, bots, random.Random(f"{key}:chance"), on_step=snap)
        out.append(DealSummary(
            deal=d, dealer=d % n, first_leader=first_leader, shift=shift,
            loser=-1 if state.loser is None else state.loser,
            actions=len(state.history), tricks=state.tricks, hands=box[0] if box else (),
        ))
    return out


def _play_compiled(task: DealTask) -> list[DealSummary]:
    """:func:`play_deals` in compiled code: the deals whole (:func:`bot_deals`, every action
    recorded), then each replayed in a compiled state, the dreck shuffled by the chance generator
    as the Python deal shuffles it, up to the first decision of phase two for the hands."""
    n = task.players
    games: list[BotGame] = []
    meta: list[tuple[int, str, tuple[int, ...], int]] = []
    for d in range(task.start, task.start + task.count):
        key = f"{task.seed}:{task.label}:{d}"
        shift = (d + d // n) % n
        deck = deck_from_seed(key, decks=task.rules.decks, pack=task.rules.pack)
        bots = [task.lineup[((s - shift) % n) % len(task.lineup)] for s in range(n)]
        games.append(BotGame(bots, deck, d % n, [f"{key}:{s}" for s in range(n)], f"{key}:chance"))
        meta.append((d, key, deck, shift))
    played = bot_deals(task.rules, n, games, record=True)
    out: list[DealSummary] = []
    for (d, key, deck, shift), deal in zip(meta, played, strict=True):
        state = CompiledState.new(task.rules, n, dealer=d % n, deck=deck)
        first_leader = State.new(task.rules, n, dealer=d % n, deck=deck).first_leader
        chance = random.Random(f"{key}:chance")
        hands: tuple[SeatHand, ...] = ()
        for code in deal.codes:
            if state.to_act == CHANCE:
                state.apply(state.chance_action(chance))
            else:
                state.apply(action_of(code))
            if state.phase == Phase.TWO and state.to_act != CHANCE:
                core = state.core
                hands = tuple(_hand(h, core.trump_suit) for h in core.hands)
                break
        out.append(DealSummary(
            deal=d, dealer=d % n, first_leader=first_leader, shift=shift,
            loser=-1 if deal.loser is None else deal.loser,
            actions=deal.actions, tricks=deal.tricks, hands=hands,
        ))
    return out
