"""Tournament bookkeeping: seatings that play every seat equally, results that do not depend on
the number of processes, finishing places, ratings, intervals, and a sanity benchmark.

Run: cd /work/main && .venv/bin/pytest -q tests/test_tournament.py
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from skitgubbe.batch.tournament import (
    MAX_ORDERS,
    MoveTimes,
    entrant_labels,
    finishing_places,
    mean_interval,
    run_tournament,
    seatings,
)
from skitgubbe.engine.record import Record, replay
from skitgubbe.engine.variants import find_variant

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")


def seat_counts(orders: list[tuple[str, ...]], players: int) -> dict[str, list[int]]:
    counts: dict[str, list[int]] = {}
    for order in orders:
        for seat, b in enumerate(order):
            counts.setdefault(b, [0] * players)[seat] += 1
    return counts


# -- seatings ----------------------------------------------------------------------------


def test_two_bots_at_three_seats_play_every_order_of_both_lineups() -> None:
    assert seatings(["A", "B"], 3) == [
        ("A", "B", "A"), ("A", "A", "B"), ("B", "A", "A"),
        ("B", "A", "B"), ("B", "B", "A"), ("A", "B", "B"),
    ]


def test_three_bots_at_three_seats_play_every_seating_order() -> None:
    orders = seatings(["A", "B", "C"], 3)
    assert sorted(orders) == sorted(itertools.permutations("ABC"))
    assert orders[0] == ("A", "B", "C")


def test_one_bot_fills_every_seat_in_one_seating() -> None:
    assert seatings(["A"], 4) == [("A", "A", "A", "A")]


def test_four_bots_rotate_and_more_bots_than_seats_meet_in_every_combination() -> None:
    assert seatings(["A", "B", "C", "D"], 4) == [
        ("A", "B", "C", "D"), ("B", "C", "D", "A"), ("C", "D", "A", "B"), ("D", "A", "B", "C"),
    ]
    assert sorted(seatings(["A", "B", "C"], 2)) == sorted(itertools.permutations("ABC", 2))
    orders = seatings(list("ABCDE"), 3)  # 10 combinations x 3 rotations
    assert len(orders) == 30
    pairs = Counter(frozenset(p) for o in orders for p in itertools.combinations(o, 2))
    assert len(set(pairs.values())) == 1  # every pair meets equally often


@pytest.mark.parametrize("k", range(1, 7))
@pytest.mark.parametrize("players", range(2, 9))
def test_every_bot_plays_every_seat_equally_often(k: int, players: int) -> None:
    bots = [chr(ord("A") + i) for i in range(k)]
    orders = seatings(bots, players)
    assert len(set(orders)) == len(orders)
    counts = seat_counts(orders, players)
    assert sorted(counts) == bots
    per_seat = {c for row in counts.values() for c in row}
    assert len(per_seat) == 1, counts  # the same number for every bot and every seat
    lineups = {tuple(sorted(o)) for o in orders}
    every_order = sum(len(set(itertools.permutations(lu))) for lu in lineups)
    if k <= 3 and every_order <= MAX_ORDERS:
        assert len(orders) == every_order
    else:  # the cyclic rotations of each lineup
        assert len(orders) <= players * len(lineups)
        assert {o[r:] + o[:r] for o in orders for r in range(players)} == set(orders)


def test_seatings_refuse_repeated_or_missing_entrants() -> None:
    with pytest.raises(ValueError, match="distinct"):
        seatings(["A", "A"], 3)
    with pytest.raises(ValueError, match="at least one"):
        seatings([], 3)


def test_repeated_bot_names_are_separate_entrants() -> None:
    assert entrant_labels([" random", "heuristic", "random"]) == ["random#1", "heuristic", "random#2"]
    assert entrant_labels(["easy"]) == ["easy"]
    with pytest.raises(ValueError, match="at least one"):
        entrant_labels([])
    with pytest.raises(ValueError, match="no bot called"):
        entrant_labels(["nobody"])


@pytest.mark.parametrize("bots", [["heuristic", "random"], ["random", "heuristic", "random"], ["heuristic"]])
def test_a_tournament_plays_every_seat_equally(bots: list[str]) -> None:
    result = run_tournament(PAGAT, 3, bots, 2, 11, jobs=1)
    counts = result.seat_games()
    assert len({c for row in counts.values() for c in row}) == 1
    assert len(result.games) == 2 * len(result.seatings)
    assert [(g.deal, g.seating) for g in result.games] == [
        (d, q) for d in range(2) for q in range(len(result.seatings))
    ]
    for g in result.games:
        assert g.seats == result.seatings[g.seating]


# -- determinism ---------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_table_whatever_the_jobs() -> None:
    one = run_tournament(GOAT, 4, ["heuristic", "random"], 6, 3, jobs=1)
    two = run_tournament(GOAT, 4, ["heuristic", "random"], 6, 3, jobs=2)
    assert one.to_dict() == two.to_dict()
    assert one.games == two.games  # thinking times are not compared
    assert one == two
    other = run_tournament(GOAT, 4, ["heuristic", "random"], 6, 4, jobs=1)
    assert [g.out_order for g in other.games] != [g.out_order for g in one.games]


def test_duplicate_deals_share_the_cards() -> None:
    kept: list[tuple[int, int, Record]] = []
    run_tournament(PAGAT, 3, ["heuristic", "random"], 2, 5, jobs=1,
                   keep=lambda d, q, r: kept.append((d, q, r)))
    assert [(d, q) for d, q, _ in kept] == [(d, q) for d in range(2) for q in range(6)]
    for d, _, record in kept:
        assert record.deck == kept[6 * d][2].deck and record.dealer == d % 3
        assert record.seed == f"5:{d}"
        state = replay(record)  # each record replays to its loser
        assert state.loser == record.loser
    assert kept[0][2].deck != kept[6][2].deck


def test_openskill_ratings_are_deterministic_and_rank_the_stronger_bot_higher() -> None:
    a = run_tournament(PAGAT, 3, ["heuristic", "random"], 8, 1, jobs=1)
    b = run_tournament(PAGAT, 3, ["heuristic", "random"], 8, 1, jobs=1)
    assert a.ratings == b.ratings
    rows = {r.bot: r for r in a.rows()}
    assert rows["heuristic"].mu > 25 > rows["random"].mu
    assert rows["heuristic"].ordinal == pytest.approx(rows["heuristic"].mu - 3 * rows["heuristic"].sigma)
    assert rows["heuristic"].loser_rate < rows["random"].loser_rate
    assert rows["heuristic"].mean_place < rows["random"].mean_place


def test_a_lone_bot_keeps_its_initial_rating_and_loses_one_seat_in_n() -> None:
    result = run_tournament(PAGAT, 3, ["random"], 3, 2, jobs=1)
    (row,) = result.rows()
    assert (row.mu, row.sigma) == pytest.approx((25.0, 25 / 3))
    assert row.loser_rate == pytest.approx(1 / 3) and row.low == row.high == pytest.approx(1 / 3)
    assert row.mean_place == pytest.approx(2.0)


# -- finishing places ----------------------------------------------------------------------


def test_every_game_has_one_loser_and_places_that_are_a_permutation() -> None:
    result = run_tournament(GOAT, 4, ["heuristic", "random", "random"], 2, 9, jobs=1)
    assert len(result.games) == 2 * 36 and result.abandoned == 0
    for g in result.games:
        assert g.loser is not None
        assert sorted(g.places) == [1.0, 2.0, 3.0, 4.0]
        assert g.places[g.loser] == 4.0
        assert sorted([*g.out_order, g.loser]) == list(range(4))
        for place, seat in enumerate(g.out_order, 1):
            assert g.places[seat] == place
        assert g.actions > 0 and sum(g.decisions) <= g.actions
    rows = result.rows()
    assert sum(r.losses for r in rows) == len(result.games)
    assert sum(r.seat_games for r in rows) == 4 * len(result.games)


def test_finishing_places_when_a_deal_ends_early() -> None:
    assert finishing_places(4, 2, [3, 0, 1]) == (2.0, 3.0, 4.0, 1.0)
    assert finishing_places(4, 1, []) == (2.0, 4.0, 2.0, 2.0)  # an empty hand loses: the rest share 1..3
    assert finishing_places(3, None, [1]) == (2.5, 1.0, 2.5)  # abandoned


# -- statistics ----------------------------------------------------------------------------


def test_mean_interval_uses_student_t_over_deals() -> None:
    values = [0.0, 0.5, 0.25, 0.25, 0.5, 0.0, 0.25, 0.75, 0.25, 0.25, 0.0]  # 11 deals: t(0.975, 10)
    mean, low, high = mean_interval(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 10)
    assert mean == pytest.approx(sum(values) / 11)
    assert high - mean == pytest.approx(2.228139 * sd / math.sqrt(11), rel=1e-5)
    assert mean - low == pytest.approx(high - mean)
    assert mean_interval([0.5, 0.5, 0.5]) == (0.5, 0.5, 0.5)
    assert mean_interval([0.5]) == (0.5, 0.0, 1.0)
    assert mean_interval([]) == (0.0, 0.0, 1.0)
    assert mean_interval([0.0, 1.0]) == (0.5, 0.0, 1.0)  # clipped
    t4 = (mean_interval([0.0, 0.5, 0.0, 0.5, 0.25])[2] - 0.25) / (math.sqrt(0.0625) / math.sqrt(5))
    assert t4 == pytest.approx(2.776445)


def test_move_times_quantiles_are_within_a_percent() -> None:
    times = MoveTimes()
    for ms in range(1, 1001):
        times.add(ms / 1000 / 1000)
    assert times.count == 1000
    assert times.quantile_ms(0.5) == pytest.approx(0.5, rel=0.01)
    assert times.quantile_ms(0.99) == pytest.approx(0.99, rel=0.01)
    other = MoveTimes()
    other.add(0.0)
    other.merge(times)
    assert other.count == 1001 and other.quantile_ms(0.0001) == pytest.approx(MoveTimes.FLOOR * 1000)
    assert MoveTimes().to_dict() == {"moves": 0, "mean_ms": 0.0, "median_ms": 0.0, "p99_ms": 0.0}


def test_milliseconds_per_move_exist_and_are_not_negative() -> None:
    result = run_tournament(PAGAT, 3, ["heuristic", "random"], 3, 6, jobs=1)
    timings = result.timings()
    assert set(timings) == {"heuristic", "random"}
    for bot, t in timings.items():
        decisions = sum(d for g in result.games
                        for d, s in zip(g.decisions, g.seats, strict=True) if s == bot)
        assert t["moves"] == decisions > 0
        assert 0.0 <= t["median_ms"] <= t["p99_ms"]
        assert t["mean_ms"] >= 0.0
    assert "median_ms" not in str(result.to_dict())
    assert all(s >= 0.0 for g in result.games for s in g.seconds)


def test_progress_counts_the_finished_deals() -> None:
    seen: list[int] = []
    run_tournament(PAGAT, 2, ["random"], 4, 0, jobs=2, progress=seen.append)
    assert sorted(seen) == [1, 2, 3, 4]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        run_tournament(PAGAT, 5, ["random"], 1, 0)
    with pytest.raises(ValueError, match="deals"):
        run_tournament(PAGAT, 3, ["random"], 0, 0)
    with pytest.raises(ValueError, match="jobs"):
        run_tournament(PAGAT, 3, ["random"], 1, 0, jobs=0)
    with pytest.raises(ValueError, match="no bot called"):
        run_tournament(PAGAT, 3, ["random", "nobody"], 1, 0)


def test_bot_names_with_an_ismcts_budget_and_the_difficulty_names_are_entrants() -> None:
    labels = entrant_labels(["ismcts-5it", "medium", "ismcts-5it"])
    assert labels == ["ismcts-5it#1", "medium", "ismcts-5it#2"]
    result = run_tournament(PAGAT, 3, ["ismcts-5it", "counter", "easy"], 1, 0, jobs=1)
    assert len(result.games) == 6 and all(g.loser is not None for g in result.games)
    timings = result.timings()
    assert timings["ismcts-5it"]["moves"] > 0 and timings["counter"]["moves"] > 0


# -- sanity benchmark ----------------------------------------------------------------------


def test_four_random_bots_each_lose_a_quarter_of_the_time() -> None:
    """Seeded, so never flaky: 150 deals x 4 rotations = 600 games of pagat."""
    result = run_tournament(PAGAT, 4, ["random"] * 4, 150, 0, jobs=1)
    rows = result.rows()
    assert [r.bot for r in rows] == ["random#1", "random#2", "random#3", "random#4"]
    assert sum(r.losses for r in rows) == 600
    for r in rows:
        assert r.deals == 150 and r.seat_games == 600
        assert r.low <= 0.25 <= r.high
        assert abs(r.loser_rate - 0.25) < 0.05
        assert r.high - r.low < 0.1
        assert abs(r.mean_place - 2.5) < 0.15


def test_run_tournament_is_exported_and_takes_a_preset_name() -> None:
    from skitgubbe.batch import run_tournament as exported
    from skitgubbe.engine.variants import PRESETS, UnknownVariantError

    by_name = exported("pagat", 3, ["heuristic", "random"], deals=2, seed=5, jobs=1)
    by_rules = exported(PRESETS["pagat"], 3, ["heuristic", "random"], deals=2, seed=5, jobs=1)
    assert by_name.rules == by_rules.rules == PRESETS["pagat"]
    assert [(g.seats, g.loser) for g in by_name.games] == [(g.seats, g.loser) for g in by_rules.games]
    with pytest.raises(UnknownVariantError, match="no rules called 'nope'; presets: "):
        exported("nope", 3, ["random"], deals=1, seed=1)
