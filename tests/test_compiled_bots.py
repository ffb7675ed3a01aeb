"""The compiled bots (:func:`skitgubbe.bots.compiled_bots.bot_deals`, native/src/bots.hpp) against the
Python bots on the Python engine, action for action.

For every preset of :data:`~skitgubbe.engine.compiled.COMPILED_PRESETS` at each of its seat counts,
seeded deals (the tournament's seeding: deck ``deck_from_seed(f"{S}:{d}")``, seat ``i`` seeded
``f"{S}:{d}:{q}:{i}"``, chance ``f"{S}:{d}:chance"``) are played by heuristic bots at every seat and
by heuristic and random bots mixed; every action of the compiled deal must be the Python deal's
(``play_out`` with :class:`~skitgubbe.bots.heuristic.HeuristicBot` and
:class:`~skitgubbe.bots.randombot.RandomBot`), and the loser, out order, action count and each seat's
decisions too.  Then rules drawn near the presets (:func:`~skitgubbe.engine.compiled.draw_rules`: the
run-time policy), and a tournament played on both engines with equal results.

Without the compiled module these tests skip, unless ``SKITGUBBE_REQUIRE_NATIVE`` is set: then they fail.
"""

from __future__ import annotations

import random

import pytest

from helpers import needs_native
from skitgubbe.batch.runner import play_out
from skitgubbe.batch.tournament import run_tournament, tournament_engine
from skitgubbe.bots import make_bot
from skitgubbe.bots.compiled_bots import (
    BotGame,
    bot_deals,
    compiled_bot_kind,
    compiled_bots_unsupported,
    compiled_deck,
)
from skitgubbe.engine.actions import CHANCE, Kind
from skitgubbe.engine.compiled import COMPILED_PRESETS, UnsupportedError, draw_rules, unsupported
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS

TABLES = [(preset, players) for preset, (low, high) in COMPILED_PRESETS.items()
          for players in range(low, high + 1)]
DEALS = 4  # per table and lineup: about 10 s of CPU in all


def lineups(players: int) -> list[list[str]]:
    """Heuristic bots at every seat, and heuristic and random bots alternating."""
    return [["heuristic"] * players, [("heuristic", "random")[i % 2] for i in range(players)]]


def python_deal(rules: Rules, game: BotGame) -> tuple[State, list[int], list[int]]:
    """The Python engine's deal of ``game``: the state, every action's code (a chance action as
    ``DRECK << 56 | cards``) and each seat's decisions."""
    state = State.new(rules, len(game.bots), dealer=game.dealer, deck=game.deck)
    bots = [make_bot(b, random.Random(s)) for b, s in zip(game.bots, game.seat_seeds, strict=True)]
    play_out(state, bots, random.Random(game.chance_seed))
    codes = [(Kind.DRECK << 56 | a.cards) if s == CHANCE else (a.kind << 56 | a.cards)
             for s, a in state.history]
    decisions = [sum(1 for s, _ in state.history if s == seat) for seat in range(len(game.bots))]
    return state, codes, decisions


def check(rules: Rules, players: int, seed: str, deals: int) -> int:
    """Compare ``deals`` deals per lineup; returns how many heuristic decisions were compared."""
    compared = 0
    for bots in lineups(players):
        games = [BotGame(bots, deck_from_seed(f"{seed}:{d}"), d % players,
                         [f"{seed}:{d}:0:{i}" for i in range(players)], f"{seed}:{d}:chance")
                 for d in range(deals)]
        for game, got in zip(games, bot_deals(rules, players, games, record=True), strict=True):
            state, codes, decisions = python_deal(rules, game)
            first = next((i for i, (a, b) in enumerate(zip(got.codes, codes, strict=False)) if a != b), None)
            assert first is None and len(got.codes) == len(codes), (
                f"{rules.name} {players} seats {bots} deck {game.deck[:3]}...: action {first} differs")
            assert got.loser == state.loser
            assert got.out_order == tuple(state.out_order)
            assert got.actions == len(state.history)
            assert got.tricks == state.tricks
            assert list(got.decisions) == decisions
            compared += sum(d for d, b in zip(decisions, bots, strict=True) if b == "heuristic")
    return compared


@needs_native
@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_preset_deals_equal_python(preset: str, players: int) -> None:
    assert check(PRESETS[preset], players, f"bots-{preset}", DEALS) > 0


@needs_native
@pytest.mark.parametrize("draw", range(12))
def test_drawn_rules_equal_python(draw: int) -> None:
    rng = random.Random(f"bots-rules-{draw}")
    base = PRESETS[rng.choice(sorted(COMPILED_PRESETS))]
    rules = draw_rules(rng, base)
    players = rng.randint(rules.min_players, min(rules.max_players, 8))
    reason = unsupported(rules, players)
    if reason is not None:
        pytest.skip(reason)
    assert check(rules, players, f"bots-rules-{draw}", 2) > 0


def test_bot_kinds() -> None:
    assert compiled_bot_kind("random") == 0
    assert compiled_bot_kind(" Heuristic ") == 1
    assert compiled_bot_kind("easy") == 1
    assert compiled_bot_kind("counter") is None


@needs_native
def test_refusals() -> None:
    reason = compiled_bots_unsupported(PRESETS["pagat"], 3, ["heuristic", "counter"])
    assert reason is not None and "counter" in reason
    game = BotGame(["heuristic", "counter", "random"], list(range(52)), 0, ["a", "b", "c"], "x")
    with pytest.raises(UnsupportedError, match="counter"):
        bot_deals(PRESETS["pagat"], 3, [game])
    with pytest.raises(ValueError, match="one bot and one seed per seat"):
        bot_deals(PRESETS["pagat"], 3, [game._replace(bots=["random"] * 2)])
    with pytest.raises(ValueError, match="52 cards"):
        bot_deals(PRESETS["pagat"], 3, [game._replace(bots=["random"] * 3, deck=[0] * 52)])
    with pytest.raises(ValueError, match="dealer"):
        bot_deals(PRESETS["pagat"], 3, [game._replace(bots=["random"] * 3, dealer=3)])


@needs_native
def test_two_packs_are_refused_with_the_reason() -> None:
    # Howell's double deck at 7 and 8 seats: the bots' card sets are 64 bits, so neither the
    # check nor a deal plays them, and both say why (two packs), not which bot.
    double = PRESETS["howell"].with_options({"decks": 2})
    for players in (7, 8):
        reason = compiled_bots_unsupported(double, players, ["random"] * players)
        assert reason is not None and "two packs" in reason
        game = BotGame(["random"] * players, deck_from_seed(1, decks=2), 0,
                       [str(i) for i in range(players)], "c")
        with pytest.raises(UnsupportedError, match="two packs"):
            bot_deals(double, players, [game])


@needs_native
def test_abandoned_at_a_small_limit() -> None:
    game = BotGame(["heuristic"] * 3, deck_from_seed("lim"), 0, ["l0", "l1", "l2"], "lc")
    [got] = bot_deals(PRESETS["pagat"], 3, [game], action_limit=10)
    assert got.abandoned and got.loser is None and got.actions == 10


@needs_native
def test_compiled_deck_is_deck_from_seed() -> None:
    for seed in ("0:0", "5:17", "x" * 300, "ä:3"):
        assert compiled_deck(seed) == deck_from_seed(seed)


@needs_native
@pytest.mark.parametrize(("preset", "players", "bots"), [("pagat", 3, ["heuristic", "random"]),
                                                         ("goat", 4, ["heuristic", "random", "easy"])])
def test_tournament_equal_on_both_engines(preset: str, players: int, bots: list[str]) -> None:
    compiled = run_tournament(preset, players, bots, 6, 11, jobs=1, engine="compiled")
    python = run_tournament(preset, players, bots, 6, 11, jobs=1, engine="python")
    assert (compiled.engine, python.engine) == ("compiled", "python")
    one, two = compiled.to_dict(), python.to_dict()
    assert (one.pop("engine"), two.pop("engine")) == ("compiled", "python")
    assert one == two
    assert compiled.games == python.games
    counts = {b: t.count for b, t in compiled.move_times.items()}
    assert counts == {b: t.count for b, t in python.move_times.items()}


@needs_native
def test_tournament_engine_choice() -> None:
    pagat = PRESETS["pagat"]
    assert tournament_engine(pagat, 3, ["heuristic", "random"]) == "compiled"
    assert tournament_engine(pagat, 3, ["heuristic", "random"], engine="python") == "python"
    assert tournament_engine(pagat, 3, ["heuristic", "counter"]) == "python"
    assert tournament_engine(pagat, 3, ["heuristic"], records=True) == "python"
    assert tournament_engine(PRESETS["goat"].replace(restaurant=True), 4, ["heuristic"]) == "python"
    with pytest.raises(UnsupportedError, match="counter"):
        tournament_engine(pagat, 3, ["heuristic", "counter"], engine="compiled")
    with pytest.raises(ValueError, match="engine must be one of"):
        tournament_engine(pagat, 3, ["heuristic"], engine="fast")
