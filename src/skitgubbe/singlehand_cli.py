"""Single Hand Skitgubbe at the terminal: ``skitgubbe play --rules single-hand`` and
``skitgubbe simulate --rules single-hand``.

Single Hand is its own small game (catsatcards.com, "Single Hand Skitgubbe"; rules in
:mod:`skitgubbe.singlehand`, bots in :mod:`skitgubbe.singlehand_bots`), so it has its own plain
front end here rather than a preset of :class:`~skitgubbe.rules.Rules`.  The rest of the CLI
hands over to it when ``--rules`` names it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

from rich.console import Console

from .base import IllegalActionError
from .singlehand import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    SingleHandState,
    action_label,
    parse_move,
    render_view,
    view_of,
)
from .singlehand_bots import make_bot, play_random_games

__all__ = ["NAME", "ALIASES", "USUAL_PLAYERS", "is_single_hand", "check_table", "play", "simulate"]

NAME = "single-hand"
"""The name ``--rules`` takes for Single Hand Skitgubbe."""
ALIASES = ("single-hand", "singlehand", "single", "single-hand-skitgubbe")
"""Every spelling ``--rules`` accepts for it (case and ``_``/space insensitive)."""
USUAL_PLAYERS = 4
"""The default table (the text allows 3 to 8)."""


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
    ``pick`` or ``chance``; ``q`` quits), the other seats are bots named by ``bot_names`` (repeated
    over the seats).  Returns the exit status: 0 at the end of the deal or on quitting, 2 for a
    bot name Single Hand does not have (the message names the ones it has)."""
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


def simulate(players: int, games: int, bot_names: Sequence[str], seed: int, *, as_json: bool,
             console: Console) -> int:
    """Play ``games`` seeded deals between bots and print the loser rate per seat (or JSON).
    Returns 0, or 2 for a bot name Single Hand does not have."""
    try:
        stats = play_random_games(players, games, seed, bots=list(bot_names))
    except ValueError as e:
        console.print(f"error: {e}")
        return 2
    data = stats.to_dict()
    if as_json:
        print(json.dumps(data, indent=2))
        return 0
    console.print(f"single-hand, {players} players, {games} games, seed {seed}"
                  + (f", {stats.abandoned} abandoned" if stats.abandoned else ""))
    for s in range(players):
        console.print(f"  seat {s} ({stats.bots[s]}): lost {stats.losses[s]} ({stats.loser_rate(s):.1%})")
    console.print(f"mean actions per game {data['mean_actions']:.1f}, longest {stats.longest}")
    return 0
