"""The engine's messages the online table sends, in one place: narration, reasons, the kill count and
the loser's title as :class:`~skitgubbe.engine.i18n.Message` values, which each client reads rendered
in its own language (:func:`~skitgubbe.engine.i18n.render`).

This is the only module of :mod:`skitgubbe.server` that imports the engine's message builders
(:mod:`skitgubbe.engine.narration` and :class:`~skitgubbe.engine.state.State`'s ``reason_message`` and
``explain_message``).

FALLBACK: while the engine's message builders are not merged (issue 29), :data:`FALLBACK` is True
and each builder here wraps the engine's English sentence as a message that is not translated (its
seat names are still filled in per reader, so English is what it was).  Delete the fallback once
``narration.event_message`` exists.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.base import Event
from ..engine.i18n import Message, Seat
from ..engine.rules import Rules
from ..engine.state import State

__all__ = ["FALLBACK", "event_message", "describe_pass_message", "kill_message", "loser_message",
           "reason_message", "explain_message"]

try:
    from ..engine.narration import (  # type: ignore[attr-defined,unused-ignore]
        describe_pass_message,
        event_message,
        kill_message,
        loser_message,
    )
    FALLBACK = False
except ImportError:  # the engine's messages are not merged yet: see the module docstring
    FALLBACK = True
    from ..engine import narration as _narration

    _SEATS = 16
    _NAMES = [f"{{s{i}}}" for i in range(_SEATS)]
    _ARGS = {f"s{i}": Seat(i) for i in range(_SEATS)}

    def _wrap(line: str, seat: int = -1) -> Message:
        text = line.replace("{", "{{").replace("}", "}}")
        for i in range(_SEATS):
            text = text.replace(f"{{{{s{i}}}}}", f"{{s{i}}}")
        return Message(text, {k: v for k, v in _ARGS.items() if "{" + k + "}" in text}, seat=seat)

    def event_message(event: Event, rules: Rules, *, dreck: int = 0) -> Message | None:  # type: ignore[misc,unused-ignore]
        """(Fallback) the English narration of ``event``, its seats filled in when rendered."""
        line = _narration.describe_event(event, _NAMES, rules, dreck=dreck)
        return None if line is None else _wrap(line, event.seat)

    def describe_pass_message(seats: Sequence[int]) -> Message:  # type: ignore[misc,unused-ignore]
        """(Fallback) seats that passed, in English."""
        return _wrap(_narration.describe_pass(_NAMES, list(seats)))

    def kill_message(plays: int, kill_at: int) -> Message:  # type: ignore[misc,unused-ignore]
        """(Fallback) how close a phase-two trick is to being killed, in English."""
        return _wrap(_narration.kill_text(plays, kill_at))

    def loser_message(rules: Rules) -> Message:  # type: ignore[misc,unused-ignore]
        """(Fallback) the loser's title with its article, in English."""
        return _wrap(_narration.loser_title(rules))


def reason_message(state: State, action: Action, seat: int) -> Message:
    """Why ``seat`` may take legal ``action`` now (:meth:`State.reason_message
    <skitgubbe.engine.state.State.reason_message>`); raises what it raises."""
    build = getattr(state, "reason_message", None)
    if build is None:  # FALLBACK: the engine's English line
        return Message(_escape(state.reason(action, seat)))
    message: Message = build(action, seat)
    return message


def explain_message(state: State, action: Action, seat: int) -> Message:
    """Why ``seat`` may not take ``action`` now (:meth:`State.explain_message
    <skitgubbe.engine.state.State.explain_message>`)."""
    build = getattr(state, "explain_message", None)
    if build is None:  # FALLBACK: the engine's English line
        return Message(_escape(state.explain(action, seat)))
    message: Message = build(action, seat)
    return message


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")
