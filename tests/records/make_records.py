"""Write the golden records of this folder, deterministically, from the seeds listed below.

Each deal of :data:`DEALS` is dealt from its seed (``deck = deck_from_seed(seed)``) and played to the
end by heuristic bots: the bot at seat s draws its randomness from ``random.Random(seed * 100 + s)``,
and chance (a dreck dealt to several seats) from ``random.Random(seed)``.  Each listed seed is the
first from 0 whose deal shows what the deal should (``--find`` prints them).  For each deal three files
are written:

* ``NAME.sgr``: the game record (docs/record-format.md), as ``skitgubbe.engine.record.dumps(record_of(...))``
  writes it, after a few comment lines naming what the deal shows (``# shows: war, sluff, ...``, the
  event kinds tests/test_golden_records.py checks are still there);
* ``NAME.txt``: the expected narration, one line per event of the deal and then the outcome
  (``helpers.narration_lines``: ``skitgubbe.engine.narration.describe_event`` with the seats named
  "Seat 0".."Seat N-1");
* ``NAME.legal``: before each move, every seat that may act and its legal actions
  (``helpers.legal_lines``), so that a rule allowing or forbidding one more action shows even where
  the moves played stay legal.

Run it only when a change of the rules, the record format or the narration is intended, and read the
diff (``git diff tests/records``) before keeping it::

    .venv/bin/python tests/records/make_records.py          # rewrite every NAME.sgr, .txt and .legal
    .venv/bin/python tests/records/make_records.py --find   # for each deal, the first seed that shows
                                                            # what it should (when a listed seed no
                                                            # longer does)
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/, for helpers

from helpers import legal_lines, narration_lines  # noqa: E402
from skitgubbe.batch.runner import play_out  # noqa: E402
from skitgubbe.bots import make_bot  # noqa: E402
from skitgubbe.engine.actions import CHANCE  # noqa: E402
from skitgubbe.engine.record import dumps, loads, record_of  # noqa: E402
from skitgubbe.engine.rules import Rules  # noqa: E402
from skitgubbe.engine.state import State  # noqa: E402
from skitgubbe.engine.variants import PRESETS  # noqa: E402

REGENERATE = ".venv/bin/python tests/records/make_records.py"


@dataclass(frozen=True)
class Deal:
    """One golden deal: written as ``NAME.sgr`` and ``NAME.txt``.

    ``preset`` and ``options`` (house rules on top of the preset, as in a house-rules file's
    ``[options]``; a record then says ``rules = custom`` and every option); ``shows``: event kinds
    the deal must hold (``"chance"`` for a chance move in the record); ``about``: one line for the
    record's comment."""

    name: str
    preset: str
    players: int
    seed: int
    shows: tuple[str, ...]
    about: str
    dealer: int = 0
    leader: int | None = None
    live: bool = False
    options: dict[str, object] = field(default_factory=dict)

    def rules(self) -> Rules:
        rules = PRESETS[self.preset]
        return rules.with_options(self.options) if self.options else rules


DEALS = [
    Deal("pagat", "pagat", 3, 1, ("bounce", "take-back", "exposed", "pick-up"),
         "pagat.com Skitgubbe: two-card tricks with a bounce (stunsa); phase one ends mid-trick"),
    Deal("myllymatti", "myllymatti", 4, 0, ("bounce",), "Myllymatti, four seats: as pagat", dealer=3),
    Deal("catsatcards", "catsatcards", 3, 1, ("bounce", "trump-drawn"),
         "catsatcards.com: the last stock card is shown when drawn", dealer=1),
    Deal("two-player", "two-player", 2, 0, ("bounce", "reserve-draw"),
         "Two Player Game: the avstickshög drawn from after each kill"),
    Deal("goat", "goat", 6, 0, ("war", "sluff", "dreck", "dreck-dealt", "chance"),
         "the Goat Game, six seats: wars, sluffs, and the dreck shuffled and dealt to several seats"),
    Deal("goat-live", "goat", 4, 0, ("war", "sluff", "dreck"),
         "the Goat Game under the live sluffing protocol, the previous goat (seat 2) leading",
         dealer=1, leader=2, live=True),
    Deal("howell", "howell", 4, 0, ("war", "sluff"), "Howell's Goat Game: aces low in phase one"),
    Deal("mattis", "mattis", 4, 1, ("war", "take-back"), "Mattis: ties replayed, no sluffing"),
    Deal("atlanta", "atlanta", 3, 0, ("war", "sluff", "dreck", "dreck-dealt"),
         "Atlanta: compulsory ties, sluffing losing ranks, the dreck"),
    Deal("helmfrid", "helmfrid", 4, 5, ("war", "sluff", "dreck"),
         "All Players play to Each Trick: one round of sluffing, the shit cards"),
    Deal("mas", "mas", 3, 1, ("store", "exchange"),
         "Mas: three trumps stored, the 2 of trumps exchanged for the turned-up trump"),
    Deal("koira", "koira", 4, 1, ("war", "split"), "Koira: a tied seat without a card: the trick split"),
    Deal("koira-tie-deal", "koira", 4, 1, ("tie-deal", "tie-share", "take-back"),
         "Koira's tie-deal variant (house rule tie_deal = true)",
         options={"name": "koira-tie-deal", "tie_deal": True}),
    Deal("catsatcards-flurst", "catsatcards-flurst", 5, 0, ("war", "sluff", "dreck", "dreck-aside"),
         "catsatcards.com Flurst: uneven dreck set aside with the first trick"),
    Deal("goat-double-deck", "goat", 7, 0, ("war", "sluff", "dreck"),
         "the Goat Game with two packs (examples/double-deck.toml: decks = 2, dreck_below = 12)",
         options={"name": "goat-double-deck", "decks": 2, "dreck_below": 12}),
]


def play(deal: Deal, seed: int) -> State:
    """The deal played to the end from ``seed`` by heuristic bots (see the module docstring)."""
    state = State.new(deal.rules(), deal.players, seed=seed, dealer=deal.dealer, leader=deal.leader,
                      live=deal.live)
    bots = [make_bot("heuristic", random.Random(seed * 100 + s)) for s in range(deal.players)]
    return play_out(state, bots, random.Random(seed))


def shown(state: State) -> set[str]:
    """The event kinds of the deal, and ``"chance"`` if a chance move was made."""
    kinds = {e.kind for e in state.events}
    if any(seat == CHANCE for seat, _ in state.history):
        kinds.add("chance")
    return kinds


def record_text(deal: Deal, state: State) -> str:
    """The text of NAME.sgr: comment lines, then the record as ``dumps`` writes it."""
    head = [f"# Golden record {deal.name}: {deal.about}.",
            f"# shows: {', '.join(deal.shows)}",
            f"# Played by heuristic bots from seed {deal.seed} (tests/records/make_records.py); "
            "checked by tests/test_golden_records.py.",
            f"# Regenerate (only for an intended change): {REGENERATE}"]
    return "\n".join(head) + "\n" + dumps(record_of(state, seed=deal.seed))


def write(deal: Deal) -> None:
    state = play(deal, deal.seed)
    missing = set(deal.shows) - shown(state)
    if missing or state.loser is None:
        raise SystemExit(f"{deal.name}: seed {deal.seed} no longer shows {sorted(missing)} (or has no "
                         f"loser); find another with: {REGENERATE} --find")
    text = record_text(deal, state)
    (HERE / f"{deal.name}.sgr").write_text(text, encoding="utf-8")
    (HERE / f"{deal.name}.txt").write_text("\n".join(narration_lines(state)) + "\n", encoding="utf-8")
    (HERE / f"{deal.name}.legal").write_text("\n".join(legal_lines(loads(text))) + "\n", encoding="utf-8")
    print(f"{deal.name}: seed {deal.seed}, {len(state.history)} moves, loser seat {state.loser}")


def find(deal: Deal, tries: int = 500) -> int | None:
    """The first seed from 0 whose deal shows everything in ``deal.shows`` and has a loser."""
    for seed in range(tries):
        state = play(deal, seed)
        if state.loser is not None and set(deal.shows) <= shown(state):
            return seed
    return None


def main(argv: list[str]) -> None:
    if argv == ["--find"]:
        for deal in DEALS:
            print(f"{deal.name}: seed {find(deal)} (listed: {deal.seed})")
        return
    if argv:
        raise SystemExit(__doc__)
    for deal in DEALS:
        write(deal)


if __name__ == "__main__":
    main(sys.argv[1:])
