"""Chance as engine steps (skitgubbe.engine.chance): the explicit-chance deal against the default one."""

from __future__ import annotations

import math
import random

import pytest

from skitgubbe.bots import make_bot
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.chance import ChanceState, DeckChance
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import view_of

CASES = [(name, n) for name, rules in sorted(PRESETS.items()) if rules.decks == 1
         for n in range(rules.min_players, rules.max_players + 1)]


def _bots(n: int, seed: int, name: str) -> list:
    return [make_bot(name, random.Random(seed * 100 + s)) for s in range(n)]


def _default(rules, n: int, seed: int, bot: str):
    deck = deck_from_seed(seed)
    dealer = seed % n
    st = State.new(rules, n, dealer=dealer, deck=deck)
    bots, crng = _bots(n, seed, bot), random.Random(seed + 7)
    while not st.is_over:
        s = st.to_act
        if s == CHANCE:
            st.apply(st.chance_action(crng), CHANCE)
        else:
            v = view_of(st, s)
            st.apply(bots[s].choose(v, v.legal), s)
    return st


def _explicit(rules, n: int, seed: int, bot: str) -> ChanceState:
    deck = deck_from_seed(seed)
    cs = ChanceState.new(rules, n, dealer=seed % n)
    follow = DeckChance(deck, random.Random(seed + 7))
    bots = _bots(n, seed, bot)
    while not cs.is_over:
        if cs.is_chance:
            outcomes = cs.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            card = follow.outcome(cs)
            assert card in {c for c, _ in outcomes}
            cs.apply(card)
        else:
            s = cs.to_act
            v = cs.view(s)
            assert v == view_of(cs.engine, s)
            cs.apply(bots[s].choose(v, v.legal), s)
    return cs


@pytest.mark.parametrize(("name", "n"), CASES)
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_following_the_deck_replays_the_default_deal(name: str, n: int, bot: str) -> None:
    """For seeded deals of every preset and seat count, explicit chance that follows the deck gives
    the same actions, events and outcome as the self-dealing engine played by the same seeded bots."""
    rules = PRESETS[name]
    for seed in range(3):
        default = _default(rules, n, seed, bot)
        cs = _explicit(rules, n, seed, bot)
        e = cs.engine
        assert e is not None
        assert e.history == default.history, (name, n, seed)
        assert e.events == default.events, (name, n, seed)
        assert e.outcome == default.outcome


def test_random_chance_plays_to_the_end_and_outcomes_sum_to_one() -> None:
    """Uniformly random chance outcomes and moves: every node's probabilities sum to 1, the engine's
    parts stay consistent, and the seats' views never show another seat's dealt card."""
    for name in ("pagat", "goat", "mas", "koira", "two-player", "catsatcards-flurst"):
        rules = PRESETS[name]
        rng = random.Random(3)
        for n in (rules.min_players, rules.max_players):
            cs = ChanceState.new(rules, n)
            steps = 0
            while not cs.is_over and steps < 5000:
                if cs.is_chance:
                    outcomes = cs.chance_outcomes()
                    assert math.isclose(sum(p for _, p in outcomes), 1.0)
                    slot = cs.slot()
                    assert slot.kind
                    cs.apply(rng.choice(outcomes)[0])
                else:
                    cs.apply(rng.choice(cs.legal_actions()))
                if cs.engine is not None:
                    cs.engine.check_parts()
                steps += 1


def test_chance_refuses_a_card_that_is_not_an_outcome() -> None:
    cs = ChanceState.new(PRESETS["pagat"], 3)
    cs.apply(5)
    with pytest.raises(ValueError, match="not a chance outcome"):
        cs.apply(5)
    assert len(cs.history) == 1
    assert cs.legal_actions() == [c for c in range(52) if c != 5]
    with pytest.raises(ValueError, match="one pack"):
        ChanceState.new(PRESETS["pagat"].replace(decks=2), 3)


@pytest.mark.parametrize(("name", "n"), [(name, n) for name, n in CASES if n in (2, 3, 4)])
def test_a_world_looks_the_same_to_the_seat(name: str, n: int) -> None:
    """At random nodes (chance nodes too), the world of world_history replays to a state whose view
    for the seat is the same as the real one's, and its history keeps every card the seat saw."""
    rules = PRESETS[name]
    rng = random.Random(11)
    cs = ChanceState.new(rules, n, ask_every_seat=True)
    checked = 0
    while not cs.is_over:
        if rng.random() < 0.08:
            seat = rng.randrange(n)
            values = cs.world_history(seat, rng)
            world = ChanceState.replay(rules, n, values, trusted=True, ask_every_seat=True)
            assert world.view(seat) == cs.view(seat)
            for en, v in zip(cs.history, values, strict=True):
                if en.slot is not None and en.slot.seen_by(seat):
                    assert v == en.card
            if world.engine is not None:
                world.engine.check_parts()
            checked += 1
        if cs.is_chance:
            cs.apply(rng.choice(cs.chance_outcomes())[0])
        else:
            cs.apply(rng.choice(cs.legal_actions()))
    assert checked > 5


def test_the_example_in_the_api_docs_runs() -> None:
    """docs/api.md, "Chance as engine steps": its example runs as written."""
    import contextlib
    import io
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Chance as engine steps"):doc.index("## Worlds one seat")]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code.group(1), "docs/api.md", "exec"), {})  # noqa: S102
    assert out.getvalue().startswith("Outcome(loser=")


def test_a_seat_cannot_act_while_chance_deals() -> None:
    from skitgubbe.engine.actions import Action, Kind
    from skitgubbe.engine.state import IllegalActionError

    cs = ChanceState.new(PRESETS["pagat"], 3)
    with pytest.raises(IllegalActionError, match="chance is to act"):
        cs.apply(Action(Kind.PASS, 0, ()), 0)
    with pytest.raises(ValueError, match="give a card number"):
        cs.apply(Action(Kind.PASS, 0, ()))
    assert cs.history == [] and cs.is_chance
