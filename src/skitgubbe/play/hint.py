"""Hints: every move a seat may make now with a one-line reason in the rules' words, and
why the other cards in its hand may not be played.  No I/O.

The reasons are the engine's own (:meth:`State.reason <skitgubbe.engine.state.State.reason>` for a legal
move, :meth:`State.explain <skitgubbe.engine.state.State.explain>` for an illegal one): this module
only gathers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..engine.actions import Action, Kind
from ..engine.base import Phase
from ..engine.cards import TWIN, cards_in, fold
from ..engine.i18n import render
from ..engine.state import State

__all__ = ["Hint", "hints"]


class Hint(NamedTuple):
    """One move: ``action``, whether it is ``legal`` now, and the ``reason`` (one line)."""

    action: Action
    legal: bool
    reason: str


def hints(state: State, seat: int | None = None, *, lang: str = "en",
          names: Sequence[str] | None = None) -> list[Hint]:
    """The moves of ``seat`` (default: the seat to act) now: every legal action with why it
    is allowed, then every card of the hand that may not be played (as a PLAY), and the
    stock or a pick-up where they are not allowed, with why not.  Empty once the game is
    over or when chance is to act.  Raises ``ValueError`` for a seat that does not exist.

    The reasons are in language ``lang`` (the engine's :meth:`State.reason_message` and
    :meth:`State.explain_message` rendered, seats named by ``names``, default ``"Seat N"``,
    ``seat`` being the reader's); in English they are :meth:`State.reason`'s and
    :meth:`State.explain`'s text, whatever ``names``."""
    s = state.to_act if seat is None else seat
    if s < 0 or state.phase not in (Phase.ONE, Phase.TWO):
        return []

    def reason(action: Action) -> str:
        if lang == "en":
            return state.reason(action, s)
        return render(state.reason_message(action, s), lang, names, (s,))

    def explain(action: Action) -> str:
        if lang == "en":
            return state.explain(action, s)
        return render(state.explain_message(action, s), lang, names, (s,))

    legal = state.legal_actions(s)
    out = [Hint(a, True, reason(a)) for a in legal]
    if s != state.to_act or state.pending >> s & 1:
        return out  # out of turn, or in a sluff window: nothing else is on offer now
    played = 0
    for a in legal:
        if a.kind == Kind.PLAY:
            played |= a.cards
    kinds = fold(played)  # two packs: a card whose twin is on offer is on offer too
    for c in cards_in(state.hands[s] & ~(kinds | kinds << TWIN)):
        action = Action(Kind.PLAY, 1 << c)
        out.append(Hint(action, False, explain(action)))
    if state.phase == Phase.ONE and Action(Kind.STOCK) not in legal and not state.pending:
        out.append(Hint(Action(Kind.STOCK), False, explain(Action(Kind.STOCK))))
    return out
