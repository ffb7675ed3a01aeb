"""The compiled engine with Python's random numbers (:func:`skitgubbe.engine.compiled.random_bots_deal`,
:func:`~skitgubbe.engine.compiled.random_bots_deals`) against the Python engine.

First the C++ copy of CPython's Mersenne Twister (``skitgubbe_native.PythonRandom``,
native/src/pyrandom.hpp) against ``random.Random`` itself: seeding, a state loaded from
``getstate()``, ``getrandbits``, ``randrange`` (``_randbelow``) and ``shuffle`` give the same numbers
and leave the same state.  Then whole deals: for every preset of
:data:`~skitgubbe.engine.compiled.COMPILED_PRESETS` at each of its seat counts, seeded deals played
in compiled code end exactly as :func:`skitgubbe.batch.runner.play_out` ends them in the Python
engine with a :class:`~skitgubbe.bots.randombot.RandomBot` at every seat and the chance generator
of :func:`skitgubbe.batch.simulate.simulate` (the same loser, actions and tricks), including deals
with a dreck (or Koira split) deal and deals abandoned at a small action limit.

Without the compiled module (``pip install ./native``) these tests skip, unless the environment
variable ``SKITGUBBE_REQUIRE_NATIVE`` is set: then they fail.
"""

from __future__ import annotations

import random
import sys
from hashlib import sha512

import pytest

from helpers import needs_native
from skitgubbe.batch.runner import play_out
from skitgubbe.bots.randombot import RandomBot
from skitgubbe.engine.actions import Kind
from skitgubbe.engine.compiled import (
    COMPILED_PRESETS,
    RandomDeal,
    UnsupportedError,
    random_bots_deal,
    random_bots_deals,
)
from skitgubbe.engine.state import State, deck_from_seed
from skitgubbe.engine.variants import PRESETS

try:
    from skitgubbe_native import PythonRandom
except ImportError:  # the tests below skip (or fail under SKITGUBBE_REQUIRE_NATIVE)
    PythonRandom = None  # type: ignore[assignment,misc]


TABLES = [(preset, players) for preset, (low, high) in COMPILED_PRESETS.items()
          for players in range(low, high + 1)]
DEALS = 16  # per table: 736 Python-engine deals in all, about 6 s of CPU
# presets whose random deals often need a chance action (a dreck deal, or koira's split): each must
# show one in the deals compared (atlanta's dreck is rare in random play: none in 100 deals)
CHANCE_PRESETS = {"goat", "howell", "catsatcards-flurst", "koira", "helmfrid"}


def key(seed: str) -> bytes:
    """The bytes random.Random.seed makes an integer of for a str seed (version 2)."""
    text = seed.encode()
    return text + sha512(text).digest()


def abandoned_of(state: State) -> bool:
    """Whether the (finished) Python deal was abandoned."""
    return state.outcome is not None and state.outcome.abandoned


def python_deal(preset: str, players: int, seed: str, g: int,
                action_limit: int | None = None) -> tuple[tuple[int, int, int], bool, int]:
    """Deal ``g`` of a simulate run with ``seed`` in the Python engine between RandomBots:
    ``((loser or -1, actions, tricks), abandoned, chance actions taken)``."""
    state = State.new(PRESETS[preset], players, dealer=g % players, deck=deck_from_seed(f"{seed}:{g}:deck"),
                      action_limit=action_limit)
    bots = [RandomBot(random.Random(f"{seed}:{g}:{i}")) for i in range(players)]
    play_out(state, bots, random.Random(f"{seed}:{g}:chance"))
    chances = sum(1 for _, a in state.history if a.kind == Kind.DRECK)
    loser = -1 if state.loser is None else state.loser
    return (loser, len(state.history), state.tricks), abandoned_of(state), chances


def test_python_is_one_whose_random_module_is_mirrored() -> None:
    # pyrandom.hpp follows CPython 3.11+ (getrandbits(0) == 0, randrange(n) = _randbelow(n))
    assert sys.version_info >= (3, 11)
    assert random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]


# ---- the Mersenne Twister ----

SEEDS = ["", "a", "0:0:deck", "12345:678:chance", "rök-ö ✓", "x" * 1000]


@needs_native
@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_a_text_gives_pythons_state(seed: str) -> None:
    mt = PythonRandom.from_key(key(seed))
    assert mt.getstate() == list(random.Random(seed).getstate()[1])


@needs_native
@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**64 + 12345, -7, 3**200])
def test_seeding_an_integer_gives_pythons_state(seed: int) -> None:
    n = abs(seed)
    mt = PythonRandom.from_key(n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big"))
    assert mt.getstate() == list(random.Random(seed).getstate()[1])
    # leading zero bytes are not part of the integer
    padded = PythonRandom.from_key(b"\0\0" + n.to_bytes(40, "big"))
    assert padded.getstate() == mt.getstate()


def loaded(rng: random.Random) -> PythonRandom:
    return PythonRandom(list(rng.getstate()[1]))


def advanced_generators() -> list[random.Random]:
    """Generators at various places of their word buffer: fresh (index 624), part way, index 0."""
    out = []
    for i, draws in enumerate([0, 1, 5, 623, 624, 625, 1000, 1871]):
        r = random.Random(f"mt:{i}")
        for _ in range(draws):
            r.getrandbits(32)
        out.append(r)
    zero = random.Random("mt:zero")
    words = list(zero.getstate()[1])
    words[-1] = 0  # index 0: the words are used as they are, with no regeneration first
    zero.setstate((3, tuple(words), None))
    out.append(zero)
    return out


@needs_native
def test_getrandbits_matches_python() -> None:
    for rng in advanced_generators():
        mt = loaded(rng)
        for k in list(range(33)) * 40:
            assert mt.getrandbits(k) == rng.getrandbits(k)
        assert mt.getstate() == list(rng.getstate()[1])


# n = 1 (still draws until a 0), powers of two and their neighbours, and sizes that are not
RANDBELOW_NS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 31, 32, 33, 52, 53, 100, 255, 256, 257, 400, 1000,
                65535, 65536, 65537, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1]


@needs_native
def test_randbelow_matches_randrange() -> None:
    pick = random.Random(99)
    ns = RANDBELOW_NS + [pick.randrange(1, 2**32) for _ in range(40)]
    ns += [pick.randrange(1, 600) for _ in range(40)]
    for rng in advanced_generators():
        mt = loaded(rng)
        for n in ns:
            for _ in range(25):
                assert mt.randbelow(n) == rng.randrange(n), n
        assert mt.getstate() == list(rng.getstate()[1])


@needs_native
def test_shuffle_matches_python() -> None:
    for rng in advanced_generators():
        mt = loaded(rng)
        for size in (0, 1, 2, 3, 7, 20, 52, 100):
            items = list(range(size))
            rng.shuffle(items)
            assert mt.shuffle(list(range(size))) == items
        assert mt.getstate() == list(rng.getstate()[1])


@needs_native
def test_a_bad_state_is_refused() -> None:
    words = list(random.Random(1).getstate()[1])
    with pytest.raises(ValueError, match="625"):
        PythonRandom(words[:-1])
    with pytest.raises(ValueError, match="index"):
        PythonRandom(words[:-1] + [625])


# ---- whole deals against the Python engine ----

@needs_native
def test_deals_equal_the_python_engines_with_random_bots() -> None:
    chance_seen: set[str] = set()
    wrong = []
    for preset, players in TABLES:
        rules = PRESETS[preset]
        seed = f"cr-{preset}-{players}"
        got = random_bots_deals(rules, players, seed, 0, DEALS)
        assert len(got) == DEALS and all(isinstance(d, RandomDeal) for d in got)
        for g, deal in enumerate(got):
            want, abandoned, chances = python_deal(preset, players, seed, g)
            if chances:
                chance_seen.add(preset)
            if (deal.loser, deal.actions, deal.tricks) != want or deal.abandoned != abandoned:
                wrong.append((preset, players, seed, g, want, deal))
    assert not wrong, wrong[:5]
    assert chance_seen >= CHANCE_PRESETS, CHANCE_PRESETS - chance_seen


@needs_native
@pytest.mark.parametrize(("preset", "players"), [("pagat", 3), ("goat", 4), ("koira", 5), ("mas", 2),
                                                 ("helmfrid", 6), ("howell", 3)])
def test_deals_equal_the_python_engines_at_a_small_action_limit(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    seed = "limit"
    abandoned = 0
    for limit in (1, 2, 40, 90):
        got = random_bots_deals(rules, players, seed, 5, 4, action_limit=limit)
        for g, deal in zip(range(5, 9), got, strict=True):
            want, gave_up, _ = python_deal(preset, players, seed, g, action_limit=limit)
            assert ((deal.loser, deal.actions, deal.tricks), deal.abandoned) == (want, gave_up), (limit, g)
            abandoned += deal.abandoned
    assert abandoned > 0


@needs_native
@pytest.mark.parametrize(("preset", "players"), [("pagat", 4), ("goat", 5), ("koira", 3), ("atlanta", 3)])
def test_one_deal_from_generator_states(preset: str, players: int) -> None:
    rules = PRESETS[preset]
    for g in range(6):
        # generators part way through their words, not just fresh ones
        seats = [random.Random(f"s:{g}:{i}") for i in range(players)]
        chance = random.Random(f"s:{g}:chance")
        for i, r in enumerate([*seats, chance]):
            for _ in range(i * 97 + g):
                r.random()
        before = [r.getstate() for r in [*seats, chance]]
        deal = random_bots_deal(rules, players, f"s:{g}:deck", g % players, seats, chance)
        assert [r.getstate() for r in [*seats, chance]] == before  # read, not advanced
        state = State.new(rules, players, dealer=g % players, deck=deck_from_seed(f"s:{g}:deck"))
        play_out(state, [RandomBot(r) for r in seats], chance)
        loser = -1 if state.loser is None else state.loser
        assert deal == RandomDeal(loser, len(state.history), state.tricks, abandoned_of(state))


@needs_native
def test_random_bots_deals_is_simulates_seeding() -> None:
    rules = PRESETS["goat"]
    many = random_bots_deals(rules, 4, 7, 10, 5)
    for g, deal in zip(range(10, 15), many, strict=True):
        seats = [random.Random(f"7:{g}:{i}") for i in range(4)]
        one = random_bots_deal(rules, 4, f"7:{g}:deck", g % 4, seats, random.Random(f"7:{g}:chance"))
        assert one == deal
    assert random_bots_deals(rules, 4, 7, 10, 0) == []


@needs_native
def test_errors() -> None:
    pagat = PRESETS["pagat"]
    rngs = [random.Random(i) for i in range(3)]
    with pytest.raises(UnsupportedError, match="2 to 4"):
        random_bots_deals(pagat, 5, 1, 0, 1)
    with pytest.raises(UnsupportedError, match="4"):
        random_bots_deal(pagat, 5, "d", 0, rngs, random.Random(0))
    with pytest.raises(UnsupportedError, match="forced_pickup=True"):
        random_bots_deals(pagat.replace(forced_pickup=True), 3, 1, 0, 1)
    with pytest.raises(UnsupportedError, match="forced_pickup=True"):
        random_bots_deal(pagat.replace(name="house", forced_pickup=True), 3, "d", 0, rngs, random.Random(0))
    with pytest.raises(ValueError, match="seat generators"):
        random_bots_deal(pagat, 3, "d", 0, rngs[:2], random.Random(0))
    with pytest.raises(ValueError, match="dealer"):
        random_bots_deal(pagat, 3, "d", 3, rngs, random.Random(0))
    with pytest.raises(ValueError, match="action limit"):
        random_bots_deal(pagat, 3, "d", 0, rngs, random.Random(0), action_limit=0)
    with pytest.raises(ValueError, match="action limit"):
        random_bots_deals(pagat, 3, 1, 0, 1, action_limit=0)
    with pytest.raises(ValueError, match="count"):
        random_bots_deals(pagat, 3, 1, 0, -1)
    with pytest.raises(TypeError):
        random_bots_deals(pagat, 3, 1.5, 0, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        random_bots_deal(pagat, 3, None, 0, rngs, random.Random(0))  # type: ignore[arg-type]
