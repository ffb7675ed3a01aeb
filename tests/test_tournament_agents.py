"""run_tournament with agent objects as entrants (bots and callables), beside bot names."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from skitgubbe.batch.tournament import entrant_labels, run_tournament
from skitgubbe.bots import make_bot
from skitgubbe.engine.actions import Action
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import View

PAGAT = find_variant("pagat")


def test_agent_objects_play_with_bot_names() -> None:
    seats: list[int] = []

    def first(view: View, legal: Sequence[Action]) -> Action:
        seats.append(view.seat)
        return legal[0]

    counter = make_bot("counter", random.Random(0))
    result = run_tournament(PAGAT, 3, [counter, "random", first], 2, 7, jobs=2)
    assert result.bots == ["counter", "random", "first"]
    rows = {r.bot: r for r in result.rows()}
    assert set(rows) == {"counter", "random", "first"}
    assert set(seats) == {0, 1, 2}  # the callable played every seat
    finished = len(result.games) - result.abandoned
    assert sum(r.seat_games for r in rows.values()) == 3 * finished
    # bot names are still reproduced from the seed
    again = run_tournament(PAGAT, 3, ["heuristic", "random"], 2, 7)
    assert again.games == run_tournament(PAGAT, 3, ["heuristic", "random"], 2, 7, jobs=1).games


def test_entrant_labels_for_objects_and_errors() -> None:
    a, b = make_bot("random", random.Random(0)), make_bot("random", random.Random(1))
    assert entrant_labels([a, b, "heuristic"]) == ["random#1", "random#2", "heuristic"]
    with pytest.raises(TypeError, match="not an agent"):
        run_tournament(PAGAT, 3, [3, "random"], 1, 0)
    with pytest.raises(ValueError, match="no bot called"):
        run_tournament(PAGAT, 3, ["nobody", "random"], 1, 0)
