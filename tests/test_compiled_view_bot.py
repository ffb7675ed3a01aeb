"""The compiled bot that decides from a View (:class:`skitgubbe.bots.compiled_bots.CompiledBot`)
against the Python bots, deal for deal.

For every preset of :data:`~skitgubbe.engine.compiled.COMPILED_PRESETS` at each of its seat counts,
seeded deals are played twice on the Python engine with :func:`~skitgubbe.batch.runner.play_out`:
once by Python bots only, once with seat ``q`` (the deal's number modulo the seats) played by the
compiled-from-view bot of the same name drawing from a ``random.Random`` seeded the same way.
The histories must be equal action for action, and so must each seat's generator state at the end
(the compiled bot hands its generator's state back after every decision).

Without the compiled module these tests skip, unless ``SKITGUBBE_REQUIRE_NATIVE`` is set: then they fail.
"""

from __future__ import annotations

import random

import pytest

from helpers import needs_native
from skitgubbe.batch.runner import play_out
from skitgubbe.bots import make_bot
from skitgubbe.bots.compiled_bots import COMPILED_BOTS, CompiledBot
from skitgubbe.bots.heuristic import HeuristicBot
from skitgubbe.engine.compiled import COMPILED_PRESETS
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS

TABLES = [(preset, players) for preset, (low, high) in COMPILED_PRESETS.items()
          for players in range(low, high + 1)]
DEALS = 2  # per table and bot


def play(preset: str, players: int, deal: int, bot: str, compiled_seat: int | None) -> tuple[list, list]:
    """The history of one seeded deal with ``bot`` at every seat (at ``compiled_seat`` the compiled
    one, None for none) and each seat's generator state at the end."""
    seed = f"view:{preset}:{players}:{deal}"
    state = State.new(PRESETS[preset], players, dealer=deal % players, deck=deck_from_seed(seed))
    rngs = [random.Random(f"{seed}:{i}") for i in range(players)]
    bots = [CompiledBot(bot, r) if i == compiled_seat else make_bot(bot, r) for i, r in enumerate(rngs)]
    play_out(state, bots, random.Random(f"{seed}:chance"))
    return list(state.history), [r.getstate() for r in rngs]


@needs_native
@pytest.mark.parametrize("bot", COMPILED_BOTS)
@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_compiled_view_bot_plays_as_the_python_bot(preset: str, players: int, bot: str) -> None:
    for deal in range(DEALS):
        seat = deal % players
        python = play(preset, players, deal, bot, None)
        compiled = play(preset, players, deal, bot, seat)
        assert compiled[0] == python[0], f"{preset} {players} seats, deal {deal}, compiled seat {seat}"
        assert compiled[1] == python[1]


@needs_native
def test_compiled_view_bot_takes_the_weights_it_is_given() -> None:
    bot = CompiledBot("easy", random.Random(1), weights={"hold": 2.5})
    assert bot.name == "heuristic"
    assert bot.weights[2:4] == [HeuristicBot.pwin_exp, 2.5]


def test_compiled_view_bot_refuses_other_bots_and_weights() -> None:
    with pytest.raises(ValueError, match="no compiled bot called 'ismcts'"):
        CompiledBot("ismcts", random.Random(1))
    with pytest.raises(ValueError, match="unknown heuristic weights nerve"):
        CompiledBot("heuristic", random.Random(1), weights={"nerve": 1.0})


@needs_native
def test_make_bot_engines() -> None:
    assert type(make_bot("heuristic", random.Random(1), engine="compiled")).__name__ == "CompiledBot"
    assert type(make_bot("heuristic", random.Random(1), engine="auto")).__name__ == "HeuristicBot"
    assert type(make_bot("counter", random.Random(1), engine="compiled")).__name__ == (
        "CompiledBot" if "counter" in COMPILED_BOTS else "CounterBot")
    with pytest.raises(ValueError, match="engine must be"):
        make_bot("heuristic", random.Random(1), engine="fast")


@needs_native
def test_evaluate_is_the_same_on_both_engines() -> None:
    from skitgubbe.batch.evaluate import evaluate

    agent = make_bot("heuristic", random.Random(5))
    python = evaluate(agent, PRESETS["pagat"], 3, deals=2, ladder=["heuristic"], engine="python")
    agent = make_bot("heuristic", random.Random(5))
    compiled = evaluate(agent, PRESETS["pagat"], 3, deals=2, ladder=["heuristic"], engine="compiled")
    assert compiled.rungs[0].engine == "compiled" and python.rungs[0].engine == "python"
    assert compiled == python
