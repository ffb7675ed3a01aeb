"""Hints: every move a seat may make now with a one-line reason in the rules' words, and
why the other cards in its hand may not be played.  No I/O.

Rule sources as in :mod:`skitgubbe.phase_one` and :mod:`skitgubbe.phase_two`.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action, Kind
from .base import Phase
from .cards import SUIT_NAMES, TWIN, card_label, cards_in, fold, format_cards, rank_of
from .phase_two import pick_up_take
from .rules import FirstPhase
from .state import State

__all__ = ["Hint", "hints"]


class Hint(NamedTuple):
    """One move: ``action``, whether it is ``legal`` now, and the ``reason`` (one line)."""

    action: Action
    legal: bool
    reason: str


def _labels(mask: int) -> str:
    return format_cards(mask, unicode=True)


def _one_legal(state: State, seat: int, action: Action) -> str:
    kind = action.kind
    if kind == Kind.STOCK:
        return (f"turn up the top stock card and play it ({len(state.stock)} cards in the stock; "
                "the last one cannot be turned up)")
    if kind == Kind.SLUFF:
        c = action.cards.bit_length() - 1
        return f"a card of rank {card_label(c)[:-1]} is already in the trick: sluff it and draw a replacement"
    if kind == Kind.PASS:
        return "say you are done sluffing for now"
    c = action.cards.bit_length() - 1
    r = rank_of(c)
    high = state.round_high
    if state.rules.must_match and high and r == high:
        return f"you must match the highest card of this round: {card_label(c)} makes a tie (a war)"
    if not high:
        return "you lead: any card may be led, suits do not matter in phase one"
    pairs = state.rules.first_phase is FirstPhase.PAIRS
    if r > high:
        if pairs or state.round_pos == len(state.round_seats) - 1:
            return f"{card_label(c)} is higher than everything in this round: you would take the trick"
        return f"{card_label(c)} is the highest card so far in this round"
    if r == high:
        tie = "bounce" if pairs else "war"
        return f"{card_label(c)} ties the highest card: a {tie}, the tied seats play again"
    return f"{card_label(c)} is lower than the highest card so far: any card may be played in phase one"


def _two_legal(state: State, seat: int, action: Action) -> str:
    if action.kind == Kind.PICK_UP:
        take, _, _ = pick_up_take(state.table, state.rules.pick_up)
        return f"instead of beating you may always pick up: you would take {_labels(take)}"
    cards = action.cards
    what = _labels(cards)
    kill = ""
    if state.table and len(state.table) + 1 >= state.kill_at:
        kill = f"; it is play {state.kill_at} of {state.kill_at}: it kills the trick"
    out = "; it is your last card: you go out" if cards == state.hands[seat] else ""
    if not state.table:
        return f"you lead: any card{' or run' if cards.bit_count() > 1 else ''} may be led ({what}){out}"
    top = fold(state.table[-1])  # two packs: card kinds
    th = top.bit_length() - 1
    low = (fold(cards) & -fold(cards)).bit_length() - 1
    if low // 13 == th // 13:
        how = f"{what} beats the {card_label(th)}: a higher {SUIT_NAMES[th // 13][:-1]}"
    else:
        how = f"{what} is a trump: it beats any {SUIT_NAMES[th // 13][:-1]}"
    return how + kill + out


def hints(state: State, seat: int | None = None) -> list[Hint]:
    """The moves of ``seat`` (default: the seat to act) now: every legal action with why it
    is allowed, then every card of the hand that may not be played (as a PLAY), and the
    stock or a pick-up where they are not allowed, with why not.  Empty once the game is
    over or when chance is to act.  Raises ``ValueError`` for a seat that does not exist."""
    s = state.to_act if seat is None else seat
    if s < 0 or state.phase not in (Phase.ONE, Phase.TWO):
        return []
    legal = state.legal_actions(s)
    explain_legal = _one_legal if state.phase == Phase.ONE else _two_legal
    out = [Hint(a, True, explain_legal(state, s, a)) for a in legal]
    if s != state.to_act or state.pending >> s & 1:
        return out  # out of turn, or in a sluff window: nothing else is on offer now
    played = 0
    for a in legal:
        if a.kind == Kind.PLAY:
            played |= a.cards
    kinds = fold(played)  # two packs: a card whose twin is on offer is on offer too
    for c in cards_in(state.hands[s] & ~(kinds | kinds << TWIN)):
        action = Action(Kind.PLAY, 1 << c)
        out.append(Hint(action, False, state.explain(action, s)))
    if state.phase == Phase.ONE and Action(Kind.STOCK) not in legal and not state.pending:
        out.append(Hint(Action(Kind.STOCK), False, state.explain(Action(Kind.STOCK), s)))
    return out
