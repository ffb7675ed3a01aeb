"""Determinization: samples agree with everything the seat knows, for every preset; they vary,
are uniform enough, and play on to the end; a State rebuilt from a View alone is the engine's own.

Run: .venv/bin/pytest -q tests/test_determinize.py
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from helpers import state_fields
from skitgubbe import State, find_variant
from skitgubbe.bots.determinize import Determinizer, determinize
from skitgubbe.engine.actions import CHANCE
from skitgubbe.engine.base import Phase
from skitgubbe.engine.cards import FULL_DECK, cards_in
from skitgubbe.engine.position import practice_position
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import History, view_of
from skitgubbe.engine.worlds import RebuildError, unseen_places, world_from_view

TABLES = [(name, n) for name, rules in sorted(PRESETS.items())
          for n in sorted({rules.min_players, min(4, rules.max_players), rules.max_players})]


def points(rules: Rules, players: int, seed: int, count: int, *, live: bool = False) -> Iterator[State]:
    """Copies of a random deal at ``count`` evenly spread moments, and at every dreck deal."""
    rng = random.Random(seed)
    st = State.new(rules, players, dealer=seed % players, seed=seed, live=live)
    actions = []
    while not st.is_over:
        actions.append((st.to_act, st.random_action(rng)))
        st.apply(actions[-1][1], actions[-1][0], trusted=True)
    at = {len(actions) * i // count for i in range(count)}
    st = State.new(rules, players, dealer=seed % players, seed=seed, live=live)
    for i, (seat, action) in enumerate(actions):
        if i in at or st.phase == Phase.DRECK:
            yield st.clone()
        st.apply(action, seat, trusted=True)


def play_to_end(st: State, rng: random.Random) -> None:
    while not st.is_over:
        st.apply(st.random_action(rng), st.to_act, trusted=True)


def placed(st: State) -> list[int]:
    """Every card set in which a card of ``st`` lies: hands, piles, the trick, the table, killed,
    the stock, a trump card lying apart and the dreck waiting to be dealt."""
    out = list(st.hands) + list(st.piles) + [st.trick_cards, st.killed]
    out += [p for p in st.table]
    out += [1 << c for c in st.stock]
    out += [1 << c for c in st.reserve]
    one = st.phase == Phase.ONE or bool(st.chance_seats)  # a chance deal inside phase one (Koira's split)
    if one and st.trump_card >= 0 and not any(h >> st.trump_card & 1 for h in st.hands):
        out.append(1 << st.trump_card)  # drawn face down, or set aside at the deal (Mas: into a hand)
    if st.phase == Phase.DRECK and not st.chance_seats:  # (a split's cards are still the trick's)
        out.append(st.pending_deal())
    return out


def assert_conserved(st: State) -> None:
    sets = placed(st)
    union = 0
    for m in sets:
        assert not union & m, "a card is in two places"
        union |= m
    assert union == FULL_DECK, "a card is missing"


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_samples_agree_with_the_seat_view(name: str, players: int) -> None:
    rules = PRESETS[name]
    phases: Counter[int] = Counter()
    for seed in range(4):
        for st in points(rules, players, seed, 10):
            phases[st.phase] += 1
            for seat in range(players):
                view = view_of(st, seat)
                rng = random.Random(f"{name}{seed}{seat}{len(st.history)}")
                det = Determinizer(st, seat)
                samples = [det.sample(rng) for _ in range(3)]
                for sample in samples:
                    assert view_of(sample, seat) == view  # every field, the seat's legal actions too
                    assert sample.hand_sizes() == st.hand_sizes()
                    assert sample.hands[seat] == st.hands[seat]
                    for s in range(players):
                        assert sample.known[s] & ~sample.hands[s] == 0
                    assert len(sample.stock) == len(st.stock)
                    assert_conserved(sample)
                if seat == max(st.to_act, 0):
                    sample = samples[0]
                    if st.to_act == seat:
                        for a in st.legal_actions(seat):
                            assert sample.can(a, seat)
                    play_to_end(sample, rng)
                    assert sample.is_over
    assert phases[Phase.ONE] and phases[Phase.TWO]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_samples_vary(name: str, players: int) -> None:
    rules = PRESETS[name]
    for st in points(rules, players, 5, 10):
        seat = max(st.to_act, 0)
        places = unseen_places(view_of(st, seat), visible=st.dreck if st.phase == Phase.DRECK else 0)
        nonempty = sum(1 for k in places.seats if k) + bool(places.stock) + places.trump_slot
        if places.hidden.bit_count() < 2 or nonempty < 2:
            continue
        worlds = {(tuple(d.hands), tuple(d.stock), d.trump_card)
                  for d in (determinize(st, seat, random.Random(i)) for i in range(6))}
        assert len(worlds) > 1


def test_a_split_dreck_stays_with_the_needy_seats() -> None:
    """Goat for eight: the dreck always goes to several seats.  The dreck cards a seat has not
    seen stay among the needy seats, each keeping the count of its share it still hides, and the
    sample's dreck order deals each needy seat exactly its sample share."""
    rules = find_variant("goat")
    checked = 0
    for seed in range(4):
        for st in points(rules, 8, seed, 8):
            if st.phase != Phase.TWO or len(st.needy) < 2:
                continue
            dreck = st.dreck
            for seat in (0, 3):
                det = Determinizer(st, seat)
                assert det.shares is not None
                for r in range(3):
                    sample = det.sample(random.Random(r))
                    for s in range(8):
                        hidden = sample.hands[s] & ~sample.known[s]
                        if s == seat:
                            continue
                        if s in det.shares:
                            assert (hidden & dreck).bit_count() == det.shares[s]
                        else:
                            assert not hidden & dreck
                    # the order of the sample's dreck action deals each needy seat its share
                    order = sample.history[sample.dreck_move][1].order
                    assert sorted(order) == sorted(cards_in(dreck))
                    k = len(sample.needy)
                    for i, v in enumerate(sample.needy):
                        share = set(order[i::k])
                        still = {c for c in share if sample.hands[v] >> c & 1}
                        assert {c for c in cards_in(sample.hands[v] & dreck & ~sample.known[v])} <= share
                        assert still <= share
                checked += 1
    assert checked


def frequencies(st: State, seat: int, n: int, seed: int) -> tuple[dict[tuple[int, str], int], Determinizer]:
    det = Determinizer(st, seat)
    rng = random.Random(seed)
    counts: dict[tuple[int, str], int] = Counter()
    for _ in range(n):
        d = det.sample(rng)
        for s in range(st.players):
            if s != seat:
                for c in cards_in(d.hands[s] & ~d.known[s]):
                    counts[(c, f"seat {s}")] += 1
        for c in d.stock:
            counts[(c, "stock")] += 1
        if det.places.trump_slot:
            counts[(d.trump_card, "trump")] += 1
    return counts, det


def test_sampling_is_uniform_in_phase_one() -> None:
    """Each unseen card lands in each unseen place about as often as the place's share of the
    unseen cards (pagat, three seats, the trump card already set aside; goat for four)."""
    n = 3000
    for name, players, drawn in (("pagat", 3, True), ("goat", 4, False)):
        rules = find_variant(name)
        st = next(p for p in points(rules, players, 11, 10_000)
                  if p.phase == Phase.ONE and len(p.history) > 20 and (p.trump_holder >= 0) == drawn)
        seat = st.to_act
        counts, det = frequencies(st, seat, n, seed=1)
        places = det.places
        total = places.hidden.bit_count()
        sizes = {f"seat {s}": k for s, k in enumerate(places.seats) if k}
        sizes["stock"] = places.stock
        if places.trump_slot:
            sizes["trump"] = 1
        for c in cards_in(places.hidden):
            for where, k in sizes.items():
                if k:
                    assert abs(counts[(c, where)] / n - k / total) < 0.04, (name, c, where)


def test_sampling_is_uniform_with_a_split_dreck() -> None:
    """After a split dreck, a hidden dreck card lands in a needy seat in proportion to the share it
    still hides; the other hidden cards fill the remaining places uniformly."""
    rules = find_variant("goat")
    st = next(p for p in points(rules, 8, 2, 10_000) if p.phase == Phase.TWO and len(p.needy) > 1)
    seat = next(s for s in range(8) if s not in st.needy)
    n = 3000
    counts, det = frequencies(st, seat, n, seed=2)
    assert det.shares is not None
    places = det.places
    low = places.hidden & st.dreck
    high = places.hidden & ~st.dreck
    rest = {s: places.seats[s] - det.shares.get(s, 0) for s in range(8) if s != seat}
    for c in cards_in(low):
        for s, k in det.shares.items():
            assert abs(counts[(c, f"seat {s}")] / n - k / low.bit_count()) < 0.05
    for c in cards_in(high):
        for s, k in rest.items():
            assert abs(counts[(c, f"seat {s}")] / n - k / high.bit_count()) < 0.05


def test_the_exposed_bottom_card_and_the_live_protocol() -> None:
    """Rules that show the bottom stock card keep it at the bottom (and in the sample's deck);
    a live-protocol deal is determinized as it is."""
    rules = find_variant("pagat").replace(exposed_bottom=True)
    for st in points(rules, 3, 4, 30):
        seat = max(st.to_act, 0)
        sample = determinize(st, seat, random.Random(0))
        assert view_of(sample, seat) == view_of(st, seat)
        assert sample.deck[-1] == st.deck[-1]
        if st.phase == Phase.ONE and st.stock:
            assert sample.stock[0] == st.stock[0] == st.deck[-1]
        if st.phase == Phase.ONE and st.trump_holder >= 0:
            assert sample.trump_card == st.trump_card
    goat = find_variant("goat")
    for st in points(goat, 4, 6, 10, live=True):
        seat = max(st.to_act, 0)
        sample = determinize(st, seat, random.Random(1))
        assert sample.live and view_of(sample, seat) == view_of(st, seat)
        play_to_end(sample, random.Random(2))


def test_a_written_position() -> None:
    """A phase-two position has no deal behind it: no deck, no history."""
    rules = find_variant("goat")
    pos = practice_position(4, random.Random(3))
    st = State.from_position(rules, pos)
    sample = determinize(st, 0, random.Random(0))
    assert sample.deck == () and sample.position is None
    assert view_of(sample, 0) == view_of(st, 0)
    rebuilt = world_from_view(view_of(st, 0))
    assert view_of(rebuilt, 0) == view_of(st, 0)
    play_to_end(sample, random.Random(1))


def test_errors() -> None:
    st = State.new(find_variant("goat"), 4, seed=1)
    with pytest.raises(ValueError, match="no seat 4"):
        determinize(st, 4, random.Random(0))
    view = view_of(st, 0)
    with pytest.raises(ValueError, match="unseen places"):
        unseen_places(view._replace(hand_sizes=(3, 9, 3, 3)))
    dreck = next(p for seed in range(40) for p in points(find_variant("goat"), 4, seed, 1)
                 if p.phase == Phase.DRECK)
    assert dreck.to_act == CHANCE
    with pytest.raises(ValueError, match="dreck deal"):
        world_from_view(view_of(dreck, 0))
    with pytest.raises(RebuildError, match="current trick"):
        later = st.clone()
        later.apply(later.legal_actions()[0])
        v = view_of(later, 0)
        world_from_view(v._replace(history=History([], 0)))


# -- a State rebuilt from a View ----------------------------------------------------------------

# fields a View does not determine: hidden cards, and what the module docstring says is not rebuilt
HIDDEN = {"hands", "stock", "trump_card", "deck", "events", "tricks", "position", "occasion_hand", "reserve"}
# phase-one bookkeeping left over once phase one is over (phase two never reads it)
STALE = {"leader", "round_seats", "round_pos", "last_winner", "first_leader", "window_start"}


def graft(rebuilt: State, real: State) -> None:
    """Give ``rebuilt`` the real hidden cards (the events too: what the other seats saw happen)."""
    rebuilt.seats.hands = list(real.hands)
    rebuilt.events = list(real.events)
    rebuilt.undealt.stock = list(real.stock)
    rebuilt.undealt.reserve = list(real.reserve)
    rebuilt.undealt.trump_card = real.trump_card
    rebuilt.trick.occasion_hand = real.occasion_hand


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_a_state_rebuilt_from_a_view_is_the_engine_state(name: str, players: int) -> None:
    """Rebuilt from one seat's view: the same view for that seat; the same public fields as the
    real state; with the real hidden cards grafted in, the same game as the real one, move for
    move, in every seat's view."""
    rules = PRESETS[name]
    for seed in range(3):
        for st in points(rules, players, 100 + seed, 10):
            if st.phase not in (Phase.ONE, Phase.TWO):
                continue
            for seat in range(players):
                view = view_of(st, seat)
                rebuilt = world_from_view(view, needy=st.needy)
                assert view_of(rebuilt, seat) == view
                fields, rebuilt_fields = state_fields(st), state_fields(rebuilt)
                assert set(rebuilt_fields) == set(fields)
                skip = HIDDEN | (STALE if st.phase == Phase.TWO else {"window_start"})
                if len(st.needy) < 2:
                    skip |= {"dreck", "dreck_move", "needy"}
                else:
                    skip.add("history")  # the dreck order: hidden, rebuilt consistently (the views agree)
                for key, value in fields.items():
                    if key.rsplit(".", 1)[-1] not in skip:
                        assert rebuilt_fields[key] == value, key
                if st.pending:
                    assert rebuilt.trick.first_pending(rebuilt) == st.trick.first_pending(st)
                if st.occasion == seat:
                    assert rebuilt.trick.sluffable(rebuilt, seat) == st.trick.sluffable(st, seat)
                if seat == max(st.to_act, 0):
                    graft(rebuilt, st)
                    a, b = st.clone(), rebuilt
                    rng_a, rng_b = random.Random(seed), random.Random(seed)
                    for step in range(30):
                        if a.is_over:
                            break
                        assert a.to_act == b.to_act
                        a.apply(a.random_action(rng_a), a.to_act, trusted=True)
                        b.apply(b.random_action(rng_b), b.to_act, trusted=True)
                        if step % 3 == 2 or a.is_over:
                            for s in range(players):
                                assert view_of(a, s) == view_of(b, s)
                    sample = Determinizer(world_from_view(view, needy=st.needy), seat).sample(rng_a)
                    assert view_of(sample, seat) == view
                    play_to_end(sample, rng_a)


def test_a_rebuilt_state_hides_the_dreck_order_without_the_needy_seats() -> None:
    """Without the needy seats (the View does not carry them) the rebuilt state has no share
    constraint, and its history keeps the dreck order hidden as the view does."""
    rules = find_variant("goat")
    st = next(p for p in points(rules, 8, 1, 10_000) if p.phase == Phase.TWO and p.to_act >= 0)
    seat = st.to_act
    view = view_of(st, seat)
    rebuilt = world_from_view(view)
    assert rebuilt.needy == [] and rebuilt.dreck == st.dreck and rebuilt.dreck_move == st.dreck_move
    assert rebuilt.history[rebuilt.dreck_move][1].order == ()
    assert Determinizer(rebuilt, seat).shares is None
    assert view_of(rebuilt, seat) == view
    assert Determinizer(world_from_view(view, needy=st.needy), seat).shares is not None


def test_the_sluffing_occasion_of_the_seat() -> None:
    """Under sluff_once a seat sluffing on an occasion may not sluff the cards it drew meanwhile;
    the rebuilt state reads that from the seat's legal actions."""
    rules = find_variant("helmfrid")
    found = 0
    for seed in range(60):
        for st in points(rules, 4, seed, 10_000):
            if st.phase == Phase.ONE and st.occasion >= 0 and st.occasion == st.to_act:
                seat = st.to_act
                rebuilt = world_from_view(view_of(st, seat))
                assert rebuilt.legal_actions(seat) == st.legal_actions(seat)
                other = (seat + 1) % 4
                sample = determinize(st, other, random.Random(0))
                assert sample.occasion_hand == sample.hands[seat]
                found += 1
        if found > 5:
            break
    assert found
