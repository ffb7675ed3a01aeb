"""Single Hand Skitgubbe at the terminal: ``skitgubbe play --rules single-hand`` and
``skitgubbe simulate --rules single-hand``.

Single Hand is its own small game (catsatcards.com, "Single Hand Skitgubbe"; rules in
:mod:`skitgubbe.singlehand`, bots in :mod:`skitgubbe.singlehand_bots`), so it has its own plain
front end here rather than a preset of :class:`~skitgubbe.engine.rules.Rules`.  The rest of the CLI
hands over to it when ``--rules`` names it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rich.console import Console

from ..engine.base import IllegalActionError
from .bots import make_bot
from .game import (
    DEFAULT_ACTION_LIMIT,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SOURCE,
    SingleHandState,
    action_label,
    parse_move,
    render_view,
    view_of,
)

__all__ = ["NAME", "ALIASES", "USUAL_PLAYERS", "RULES", "is_single_hand", "check_table", "rules_summary",
           "play"]

NAME = "single-hand"
"""The name ``--rules`` takes for Single Hand Skitgubbe."""
ALIASES = ("single-hand", "singlehand", "single", "single-hand-skitgubbe")
"""Every spelling ``--rules`` accepts for it (case and ``_``/space insensitive)."""
USUAL_PLAYERS = 4
"""The default table (the text allows 3 to 8)."""


RULES: tuple[tuple[str, str], ...] = (
    ("game", f"Single Hand Skitgubbe ({SOURCE}): one phase, no tricks and no trump; its own game, so it "
             "has no options to set"),
    ("players", f"{MIN_PLAYERS} to {MAX_PLAYERS} seats (usually {USUAL_PLAYERS}), one 52-card pack"),
    ("ranks", "the 2 is highest, then 3, 4 ... Q, K, and the ace lowest; the 10 keeps its place between the "
              "9 and the jack; suits never matter (S1)"),
    ("deal", f"{HAND_SIZE} cards each, one at a time from the dealer's left; the next card, turned face up, "
             "starts the play pile (a 10 there is set aside, S3, S4); the dealer's left plays first"),
    ("a turn", "cover the top card of the pile with one or more cards of one rank that rank equal or higher; "
               "holding such a card you must play (S2, S5)"),
    ("drawing", f"after playing, draw from the stock back up to {HAND_SIZE} cards while it lasts (S6)"),
    ("the 10", "goes on any card and clears the pile; the pile also clears when its top four cards are of "
               "one rank; the seat that cleared it starts a new pile (S7, S8, S9)"),
    ("no card to play", "pick up the whole pile (the next seat starts a new one), or take a chance: turn the "
                        "top stock card onto the pile, and if it does not cover, pick up the pile with it "
                        "(S10, S11)"),
    ("empty stock", "nobody draws or takes a chance; a seat left with no cards goes out and is safe "
                    "(S12, S13)"),
    ("loser", "the last seat holding cards is the skitgubbe (S14)"),
    ("action limit", f"a deal still going after {DEFAULT_ACTION_LIMIT:,} actions is abandoned with no loser "
                     "(S15)"),
    ("more", "docs/presets/single-hand.md; the rulings S1 to S16 (in brackets above) are in docs/rulings.md"),
)
"""Single Hand's rules in short, in our own words, for ``skitgubbe rules show single-hand``: (what, rule)."""


def rules_summary() -> dict[str, object]:
    """Single Hand's rules as data, for ``skitgubbe rules show single-hand --json``: the name, the
    source, the table sizes, the hand size, the action limit and :data:`RULES`."""
    return {"name": NAME, "source": SOURCE, "min_players": MIN_PLAYERS, "max_players": MAX_PLAYERS,
            "usual_players": USUAL_PLAYERS, "hand_size": HAND_SIZE, "action_limit": DEFAULT_ACTION_LIMIT,
            "rules": dict(RULES)}


def is_single_hand(text: str) -> bool:
    """True if ``text`` names Single Hand Skitgubbe (see :data:`ALIASES`)."""
    return text.strip().lower().replace("_", "-").replace(" ", "-") in ALIASES


def check_table(players: int) -> str | None:
    """None if ``players`` seats can play Single Hand, else the reason (3 to 8 seats)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return f"single-hand is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
    return None


def play(players: int, *, human_seat: int, bot_names: Sequence[str], seed: int, console: Console,
         read_line: Callable[[str], str]) -> int:
    """Play one deal at the terminal: ``human_seat`` types moves (a number, cards such as ``7h 7s``,
    ``pick`` or ``chance``; Enter when there is a single move; ``q`` quits), the other seats are
    bots named by ``bot_names`` (repeated over the seats).  Returns the exit status: 0 at the end of
    the deal or on quitting, 2 for a bot name Single Hand does not have (the message names the ones
    it has)."""
    others = [s for s in range(players) if s != human_seat]
    try:
        bots = {s: make_bot(bot_names[i % len(bot_names)], random.Random(f"{seed}:{s}"))
                for i, s in enumerate(others)}
    except ValueError as e:
        console.print(f"error: {e}")
        return 2
    state = SingleHandState.new(players, seed=seed, dealer=(human_seat - 1) % players)
    names = ["You" if s == human_seat else f"Seat {s} ({bots[s].name})" for s in range(players)]
    console.print(f"single-hand, {players} players, seed {seed} (replay this deal with --seed {seed})")
    while not state.is_over:
        seat = state.to_act
        view = view_of(state, seat)
        if seat != human_seat:
            action = bots[seat].choose(view, view.legal)
            console.print(f"{names[seat]}: {action_label(action)}", markup=False)
            state.apply(action, seat, trusted=True)
            continue
        console.print(render_view(view, names), markup=False, highlight=False)
        try:
            if len(view.legal) == 1:  # never "[1-1"
                only = action_label(view.legal[0])
                text = read_line(f"Your move [Enter = {only}; q quits]: ").strip() or "1"
            else:
                text = read_line(f"Your move [1-{len(view.legal)}, cards, pick, chance; q quits]: ").strip()
        except EOFError:
            text = "q"
        if text.lower() in ("q", "quit"):
            console.print("Goodbye: you left the game.")
            return 0
        try:
            action = view.legal[int(text) - 1] if text.isdigit() else parse_move(text)
            state.apply(action, seat)
        except (IndexError, ValueError) as e:
            reason = e.reason if isinstance(e, IllegalActionError) else str(e) or "no such move number"
            console.print(f"Not allowed: {reason}", markup=False)
    outcome = state.outcome
    assert outcome is not None
    if outcome.loser is None:
        console.print("The deal was abandoned at the action limit: nobody loses.")
    else:
        verb = "are" if outcome.loser == human_seat else "is"
        console.print(f"{names[outcome.loser]} {verb} the skitgubbe.")
    return 0
