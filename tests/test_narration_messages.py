"""The narration and the reasons as messages with parameters (issue 29): rendered in English they
are the sentences the engine wrote before, word for word, and rendered in another language they
never fail and never leave a field unfilled.

The English sentences are frozen in ``tests/golden/narration_en.json``, written by the code as it
was before the messages (``python tests/test_narration_messages.py`` writes it again): for seeded
whole deals of every preset (and 3-player confusion, two packs), every event as a seat and as a
spectator read it, and at every decision point the reason of each legal action and the
explanation of a set of illegal ones.  Each group keeps its distinct sentences (to show what
changed) and a hash of the whole sequence (to catch a sentence in the wrong place)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skitgubbe.engine.actions import CHANCE, Action, Kind
from skitgubbe.engine.base import Event, IllegalActionError, Phase
from skitgubbe.engine.i18n import render
from skitgubbe.engine.narration import (
    describe_event,
    describe_pass,
    describe_pass_message,
    event_message,
    holder_kept,
    is_you,
    kill_message,
    kill_text,
    loser_message,
    loser_title,
    seat_names,
)
from skitgubbe.engine.rules import Rules
from skitgubbe.engine.rulesfile import parse_rules_file
from skitgubbe.engine.state import State
from skitgubbe.engine.variants import PRESETS
from skitgubbe.engine.view import SPECTATOR, event_for

GOLDEN = Path(__file__).parent / "golden" / "narration_en.json"
CONFUSION = parse_rules_file('preset = "goat"\n[options]\nconfusion = true\n')
TWO_PACKS = parse_rules_file('preset = "goat"\n[options]\ndecks = 2\ndreck_below = 12\n')
SEEDS = (0, 1)


def tables() -> list[tuple[str, Rules, int]]:
    """Every preset at its fewest seats and at four (or its most), 3-player confusion, two packs."""
    out = []
    for name, rules in sorted(PRESETS.items()):
        counts = sorted({rules.min_players, max(rules.min_players, min(4, rules.max_players))})
        out += [(f"{name}-{n}", rules, n) for n in counts]
    return out + [("confusion-6", CONFUSION, 6), ("two-packs-5", TWO_PACKS, 5)]


TABLES = tables()


def deal_steps(rules: Rules, players: int, seed: int) -> Iterator[State]:
    """The states of a seeded random deal, before each action (the last one: the deal over)."""
    state = State.new(rules, players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        yield state
        seat = state.to_act
        action = state.chance_action(rng) if seat == CHANCE else rng.choice(state.legal_actions(seat))
        state.apply(action, seat)
    yield state


Tell = Callable[[object, list[str], Rules, int], "str | None"]


def narration(rules: Rules, players: int, seed: int, tell: Tell) -> list[str]:
    """Every event of a seeded deal told as seat 0 (named "You"), as seat 1 and as a spectator."""
    *_, final = deal_steps(rules, players, seed)
    readers = [(0, seat_names(players, 0, confusion=rules.confusion)),
               (1, seat_names(players, 1, confusion=rules.confusion)),
               (SPECTATOR, [f"Seat {s}" for s in range(players)])]
    out = []
    dreck = 0
    for ev in final.events:
        if ev.kind == "dreck":
            dreck = ev.cards
        for seat, names in readers:
            out.append(repr(tell(event_for(ev, seat), names, rules, dreck)))
    return out


def candidates(state: State) -> list[tuple[Action, int]]:
    """Actions to ask about at a decision point: each legal one of the seat to act, and as
    illegal ones every kind, each card of every hand played and sluffed (by the seat to act and
    by the next seat), a pair of the seat's own cards, and a few malformed ones."""
    s = state.to_act
    out: list[tuple[Action, int]] = []
    if s == CHANCE:
        return [(a, s) for a in state.legal_actions(s)[:1]] + [(Action(Kind.PLAY, 1), s),
                                                                (Action(Kind.DRECK, 0), 0)]
    other = (s + 1) % state.players
    for seat in (s, other):
        for kind in (Kind.PASS, Kind.PICK_UP, Kind.STOCK, Kind.STORE, Kind.EXCHANGE):
            out.append((Action(kind), seat))
    for h in range(state.players):  # the seat's own cards, and two of each other hand
        held = [c for c in range(state.hands[h].bit_length()) if state.hands[h] >> c & 1]
        for c in (held if h == s else held[:2]):
            out += [(Action(Kind.PLAY, 1 << c), s), (Action(Kind.SLUFF, 1 << c), s)]
        if h == other:
            out += [(Action(Kind.PLAY, 1 << c), other) for c in held[:2]]
    own = state.hands[s]
    if own.bit_count() >= 2:
        low = own & -own
        rest = own ^ low
        out.append((Action(Kind.PLAY, low | (rest & -rest)), s))
        out.append((Action(Kind.PLAY, low | rest), s))
    out += [(Action(Kind.PLAY, 1), 99), (Action(Kind.PLAY, 1), CHANCE)]
    return out


def reasons(rules: Rules, players: int, seed: int,
            reason: Callable[[State, Action, int], str],
            explain: Callable[[State, Action, int], str]) -> list[str]:
    """At every decision point of a seeded deal: the reason of each legal action of the seat to
    act and the explanation of each illegal candidate (:func:`candidates`)."""
    out = []
    for i, state in enumerate(deal_steps(rules, players, seed)):
        if i % 3 and state.phase != Phase.OVER:
            continue
        if state.phase == Phase.OVER:
            out.append(explain(state, Action(Kind.PLAY, 1), 0))
            break
        legal = set(state.legal_actions(state.to_act))
        for a in sorted(legal):
            out.append(reason(state, a, state.to_act))
        for a, seat in candidates(state):
            if (seat == state.to_act and a in legal) or (seat != CHANCE and state.can(a, seat)):
                continue
            if state.phase == Phase.DRECK and seat == CHANCE:
                continue
            out.append(explain(state, a, seat))
    return out


def old_reason(state: State, action: Action, seat: int) -> str:
    return state.reason(action, seat)


def old_explain(state: State, action: Action, seat: int) -> str:
    text = state.explain(action, seat)
    try:
        state.check(action, seat)
    except IllegalActionError as e:
        return f"{text} | {e.reason}"
    return text


KINDS = ("deal", "draw", "play", "stock", "sluff", "pass", "bounce", "war", "win", "end-one", "take-back",
         "tie-share", "exposed", "trump", "trump-drawn", "trump-aside", "store", "exchange", "tie-deal",
         "split", "trick-dealt", "reserve-draw", "dreck-aside", "dreck", "dreck-dealt", "dreck-share",
         "lead", "beat", "pick-up", "kill", "three-cards", "one-card", "out", "loser", "abandoned",
         "blamattis", "lead-passes", "no-such-kind")
"""Every event kind the narration tells (and one it does not know)."""


def synthetic(tell: Tell) -> list[str]:
    """Every event kind, made up, told under every preset's rules to seat 0 ("You") and to seat
    2: the kinds the seeded deals may not reach (a tie-deal, Blåmattis, an abandoned deal)."""
    out = []
    cards = (0, 1 << 5, 1 << 5 | 1 << 18, 1 << 1 | 1 << 14 | 1 << 40 | 1 << 51)
    seat_sets = ((2,), (0,), (1, 2), (0, 1, 3))
    for rules in [*PRESETS.values(), CONFUSION]:
        players = 6 if rules.confusion else 4
        for kind in KINDS:
            for seat in (0, 1):
                for c in cards:
                    for seats in seat_sets:
                        ev = Event(kind, seat, c, seats, -1)
                        for reader in (0, 2):
                            names = seat_names(players, reader, confusion=rules.confusion)
                            for dreck in (0, c | 1 << 7):
                                out.append(repr(tell(ev, names, rules, dreck)))
    return out


def extras() -> list[str]:
    """The small functions' outputs: seat names, loser titles, passes, kill counts."""
    out = []
    for players, human, confusion in ((3, 0, False), (4, 2, False), (6, 0, True), (6, 4, True)):
        out.append(repr(seat_names(players, human, confusion=confusion)))
    for rules in PRESETS.values():
        out.append(loser_title(rules))
    names = seat_names(4, 0)
    for seats in ([0], [1], [1, 2], [0, 1, 3], [2, 3]):
        out.append(describe_pass(names, seats))
    for plays, kill_at in ((0, 3), (1, 3), (2, 3), (3, 3), (1, 4), (2, 5)):
        out.append(kill_text(plays, kill_at))
    return out


CARD = re.compile(r"(10|[2-9TJQKA])[♣♦♥♠]")


def shape(text: str) -> str:
    """``text`` with each card label written ``#`` and each number ``N``: the sentence's shape."""
    return re.sub(r"\d+", "N", CARD.sub("#", text))


def group(texts: list[str]) -> dict[str, object]:
    """A group of sentences as the golden file keeps it: a hash of them all, in order, their
    number and their distinct shapes (:func:`shape`)."""
    return {"sha256": hashlib.sha256("\n".join(texts).encode()).hexdigest(), "n": len(texts),
            "shapes": sorted({shape(t) for t in texts})}


def tell_old(ev: object, names: list[str], rules: Rules, dreck: int) -> str | None:
    return describe_event(ev, names, rules, dreck=dreck)  # type: ignore[arg-type]


def build(tell: Tell, reason: Callable[[State, Action, int], str],
          explain: Callable[[State, Action, int], str], extra: Callable[[], list[str]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, rules, players in TABLES:
        for seed in SEEDS:
            out[f"narration/{name}/{seed}"] = group(narration(rules, players, seed, tell))
            if seed == SEEDS[0]:
                out[f"reasons/{name}/{seed}"] = group(reasons(rules, players, seed, reason, explain))
    out["extras"] = group(extra())
    out["synthetic"] = group(synthetic(tell))
    return out


def write_golden() -> None:
    GOLDEN.parent.mkdir(exist_ok=True)
    data = build(tell_old, old_reason, old_explain, extras)
    GOLDEN.write_text(json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_golden()
    sys.exit(0)


FIELD = re.compile(r"\{[a-z_]+\}")
GOLDEN_DATA: dict[str, dict[str, object]] = (
    json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {})


def assert_as_golden(key: str, texts: list[str]) -> None:
    """``texts`` are exactly the golden group ``key``'s sentences, in order."""
    want = GOLDEN_DATA[key]
    got = group(texts)
    mine, theirs = set(got["shapes"]), set(want["shapes"])  # type: ignore[call-overload]
    assert got["shapes"] == want["shapes"], (key, sorted(mine ^ theirs))
    assert got == want, key


def tell_message(ev: object, names: list[str], rules: Rules, dreck: int) -> str | None:
    """The event's message rendered in English, the reader holding the seats named "You"."""
    message = event_message(holder_kept(ev, len(names)), rules, dreck=dreck)  # type: ignore[arg-type]
    if message is None:
        return None
    return render(message, "en", names, [i for i, n in enumerate(names) if is_you(n)])


def new_reason(state: State, action: Action, seat: int) -> str:
    return render(state.reason_message(action, seat), "en", [f"seat {i}" for i in range(state.players)])


def new_explain(state: State, action: Action, seat: int) -> str:
    text = render(state.explain_message(action, seat), "en", [f"seat {i}" for i in range(state.players)])
    try:
        state.check(action, seat)
    except IllegalActionError as e:
        return f"{text} | {render(e.message, 'en', [f'seat {i}' for i in range(state.players)])}"
    return text


def new_extras() -> list[str]:
    """:func:`extras` through the messages."""
    out = []
    for players, human, confusion in ((3, 0, False), (4, 2, False), (6, 0, True), (6, 4, True)):
        out.append(repr(seat_names(players, human, confusion=confusion, lang="en")))
    for rules in PRESETS.values():
        out.append(render(loser_message(rules)))
    names = seat_names(4, 0)
    for seats in ([0], [1], [1, 2], [0, 1, 3], [2, 3]):
        out.append(render(describe_pass_message(seats), "en", names, [0]))
    for plays, kill_at in ((0, 3), (1, 3), (2, 3), (3, 3), (1, 4), (2, 5)):
        out.append(render(kill_message(plays, kill_at)))
    return out


@pytest.mark.parametrize("name, rules, players", TABLES, ids=[t[0] for t in TABLES])
def test_narration_messages_render_the_english_as_before(name: str, rules: Rules, players: int) -> None:
    for seed in SEEDS:
        assert_as_golden(f"narration/{name}/{seed}", narration(rules, players, seed, tell_message))
        assert_as_golden(f"narration/{name}/{seed}", narration(rules, players, seed, tell_old))


def test_every_event_kind_renders_the_english_as_before() -> None:
    assert_as_golden("synthetic", synthetic(tell_message))
    assert_as_golden("synthetic", synthetic(tell_old))


def test_the_small_functions_say_the_same_as_before() -> None:
    assert_as_golden("extras", extras())
    assert_as_golden("extras", new_extras())


@pytest.mark.parametrize("name, rules, players", TABLES, ids=[t[0] for t in TABLES])
def test_reason_messages_render_the_english_as_before(name: str, rules: Rules, players: int) -> None:
    seed = SEEDS[0]
    assert_as_golden(f"reasons/{name}/{seed}", reasons(rules, players, seed, new_reason, new_explain))
    assert_as_golden(f"reasons/{name}/{seed}", reasons(rules, players, seed, old_reason, old_explain))


OTHER = ("sv", "nb", "fi")


def unfilled(text: str | None) -> bool:
    """Whether a rendered text still has a ``{field}`` in it."""
    return text is not None and FIELD.search(text) is not None


@pytest.mark.parametrize("lang", OTHER)
def test_every_event_renders_in_every_language(lang: str) -> None:
    def tell(ev: object, names: list[str], rules: Rules, dreck: int) -> str | None:
        names = seat_names(len(names), 0, confusion=rules.confusion, lang=lang)
        return describe_event(ev, names, rules, dreck=dreck, lang=lang)  # type: ignore[arg-type]

    texts = synthetic(tell)
    for _name, rules, players in TABLES[::3]:
        texts += narration(rules, players, 0, tell)
    assert texts and not [t for t in texts if unfilled(t)]
    assert "None" in texts  # (a draw not told stays untold)


@pytest.mark.parametrize("lang", OTHER)
def test_every_reason_renders_in_every_language(lang: str) -> None:
    def reason(state: State, action: Action, seat: int) -> str:
        return render(state.reason_message(action, seat), lang, seat_names(state.players, 0, lang=lang))

    def explain(state: State, action: Action, seat: int) -> str:
        return render(state.explain_message(action, seat), lang)

    texts: list[str] = []
    for _name, rules, players in TABLES[::2]:
        texts += reasons(rules, players, 0, reason, explain)
    assert texts and not [t for t in texts if unfilled(t)]


@pytest.mark.parametrize("lang", OTHER)
def test_the_small_messages_render_in_every_language(lang: str) -> None:
    texts = [render(loser_message(r), lang) for r in PRESETS.values()]
    texts += [render(loser_message(PRESETS["goat"].replace(loser_title="åsna")), lang)]
    texts += [render(kill_message(p, k), lang) for p, k in ((1, 3), (2, 3), (1, 5))]
    texts += [render(describe_pass_message(s), lang, seat_names(4, 0, lang=lang), [0])
              for s in ([0], [1], [1, 2])]
    assert not [t for t in texts if unfilled(t)]
    assert render(loser_message(PRESETS["goat"].replace(loser_title="åsna")), lang).endswith("åsna")


def test_a_seat_is_a_parameter_named_by_the_reader() -> None:
    state = State.new(PRESETS["goat"], 4, seed=0)
    other = (state.to_act + 1) % 4
    message = state.explain_message(Action(Kind.PLAY, state.hands[other] & -state.hands[other]), other)
    assert state.to_act in [a.seat for a in message.args.values() if hasattr(a, "seat")]
    names = ["Ann", "Bo", "Cy", "Di"]
    assert names[state.to_act] in render(message, "en", names)
    low = state.hands[other] & -state.hands[other]
    assert f"seat {state.to_act}'s turn" in state.explain(Action(Kind.PLAY, low), other)
    try:
        state.check(Action(Kind.PLAY, 1 << 60), state.to_act)
    except IllegalActionError as e:
        assert e.reason == render(e.message, "en") and "not an action of this deal" in e.reason
    else:  # pragma: no cover
        pytest.fail("an action of no card of the deal is refused")


def test_a_trump_card_set_aside_is_told_as_set_aside() -> None:
    ev = Event("trump", -1, 1 << 20, (1,), -1)
    message = event_message(ev, PRESETS["howell"])
    assert message is not None and render(message, "en") == (
        "Trump revealed: ♦ diamonds (the trump card 9♦ was set aside at the deal)")
    # describe_event says it as it always has (the golden records pin it): the last seat's hand
    assert describe_event(ev, seat_names(4, 0), PRESETS["howell"]) == (
        "Trump revealed: ♦ diamonds (Seat 3 adds the trump card 9♦ to the hand)")


def test_the_reader_is_you_in_every_language() -> None:
    ev = Event("play", 1, 1 << 5)
    rules = PRESETS["goat"]
    assert describe_event(ev, seat_names(4, 1), rules) == "You play 7♣"
    assert describe_event(ev, seat_names(4, 0), rules) == "Seat 1 plays 7♣"
    assert describe_event(ev, ["A", "B", "C", "D"], rules, you=[1]) == "B play 7♣"
    for lang in OTHER:
        assert describe_event(ev, seat_names(4, 1, lang=lang), rules, lang=lang) == render(
            event_message(ev, rules), lang, seat_names(4, 1, lang=lang), [1])  # type: ignore[arg-type]
