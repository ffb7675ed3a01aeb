"""The engine's messages the online table sends, in one place: narration, reasons, the kill count and
the loser's title as :class:`~skitgubbe.engine.i18n.Message` values, which each client reads rendered
in its own language (:func:`~skitgubbe.engine.i18n.render`).

This is the only module of :mod:`skitgubbe.server` that imports the engine's message builders
(:mod:`skitgubbe.engine.narration` and :class:`~skitgubbe.engine.state.State`'s ``reason_message`` and
``explain_message``).
"""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.i18n import Message
from ..engine.narration import (
    action_message,
    describe_pass_message,
    event_message,
    kill_message,
    loser_message,
)
from ..engine.state import State

__all__ = ["action_message", "event_message", "describe_pass_message", "kill_message", "loser_message",
           "reason_message", "explain_message"]


def reason_message(state: State, action: Action, seat: int) -> Message:
    """Why ``seat`` may take legal ``action`` now (:meth:`State.reason_message
    <skitgubbe.engine.state.State.reason_message>`); raises what it raises."""
    return state.reason_message(action, seat)


def explain_message(state: State, action: Action, seat: int) -> Message:
    """Why ``seat`` may not take ``action`` now (:meth:`State.explain_message
    <skitgubbe.engine.state.State.explain_message>`)."""
    return state.explain_message(action, seat)
