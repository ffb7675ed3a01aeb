"""The evaluation harness (skitgubbe.batch.evaluate) and ``skitgubbe evaluate``."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from skitgubbe.batch.evaluate import (
    DEAL_SET_VERSION,
    DEFAULT_DEALS,
    LADDER,
    CallableBot,
    agent_bot,
    deal_set,
    deal_set_digest,
    evaluate,
    rating_above,
)
from skitgubbe.bots import make_bot
from skitgubbe.engine.actions import Action
from skitgubbe.engine.variants import PRESETS, find_variant
from skitgubbe.engine.view import View
from skitgubbe.play.cli import main

# The published deal set: the SHA-256 of the first 1,000 decks of every preset.  If this test fails,
# the deals changed: results are no longer comparable with earlier ones.  Do not update the digests;
# make a new DEAL_SET_VERSION instead.
DIGESTS_V1 = {
    "atlanta": "51e72bd872455928580271cb02fcffde0e6033ed69d5fb4b78784c05238f5c55",
    "catsatcards": "b368339bf0685d36cc885cd4c31536391f7bd3934b0a9a105799b3bd3144f1d6",
    "catsatcards-flurst": "18d86193c57ba8c255a7f6ce61cc7863f51415372d0651ed5b92a873ebf3ed95",
    "goat": "4fc60925b54c6e19a1674af36b3b194aabc068030d06795fc03104bc4c9e51b7",
    "helmfrid": "cb20c012690d847cefe48cbf3d4b51c042da04772b087767f280467c182f2b4b",
    "howell": "2feee018a6b426a08b9efdf13c363a8b3f3788023913c1f98abb6259cf187bb5",
    "koira": "5de4fd3777a74b4553fa17368e6aff64457bf1c43135411de867b1fd776c88b9",
    "mas": "16c8699ee6bd267f99d1d78c5346396f811f1a2fb3abcab8d39aadc05a67d010",
    "mattis": "bc065b4617e369addd00145e704d7209ff83d551802d560c4f7d2606e2b1c341",
    "myllymatti": "f65bafd0e6af6fa3db4f74c15f4c0eefd09029894bb8b4a93140efc15fbcd006",
    "pagat": "b538e16ac42acd83dad0555d3e3d54723e84a75b78c4c8ac17b9b03b02429ff1",
    "two-player": "234e3c60af1a8af08c0033075d0cc29a2572f09f53756b5250cbdb3a9d46ad84",
}

PAGAT = find_variant("pagat")
GOAT = find_variant("goat")


def test_the_published_deal_set_never_changes() -> None:
    assert DEAL_SET_VERSION == "evaluate-v1" and DEFAULT_DEALS == 1000
    assert set(DIGESTS_V1) == set(PRESETS)
    for name, rules in PRESETS.items():
        assert deal_set_digest(rules) == DIGESTS_V1[name], name


def test_a_short_run_plays_a_prefix_of_the_set_and_aliases_share_it() -> None:
    full = deal_set(GOAT, 40)
    assert deal_set(GOAT, 7) == full[:7]
    assert deal_set(find_variant("flurst"), 7) == full[:7]
    assert all(sorted(d) == list(range(52)) for d in full)
    assert len(set(full)) == 40
    with pytest.raises(ValueError, match="at least 1"):
        deal_set(GOAT, 0)


class Spy:
    """A bot that records every view it gets and plays the first legal action."""

    def __init__(self) -> None:
        self.name = "spy"
        self.views: list[View] = []

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.views.append(view)
        assert tuple(legal) == view.legal
        return legal[0]


def test_the_agent_plays_every_seat_of_every_deal_and_sees_only_its_views() -> None:
    spy = Spy()
    result = evaluate(spy, GOAT, 4, deals=3, ladder=["random"])
    (rung,) = result.rungs
    assert rung.games + rung.abandoned == 3 * 4
    # the agent's seat is the rotation: every seat of every deal, each a whole deal of decisions
    seats = [v.seat for v in spy.views]
    assert set(seats) == {0, 1, 2, 3}
    assert all(v.to_act == v.seat for v in spy.views)  # asked only when its seat decides
    # a View never holds another seat's hand: every card set in it is the seat's own or public
    for v in spy.views:
        assert v.hand.bit_count() == v.hand_sizes[v.seat]
    assert result.to_dict()["games_per_rung"] == 12


def test_results_are_reproducible_and_the_same_for_any_number_of_processes() -> None:
    def heuristic() -> object:
        return make_bot("heuristic", random.Random(5))

    a = evaluate(heuristic(), PAGAT, 3, deals=4, ladder=["random", "heuristic"])
    b = evaluate(heuristic(), PAGAT, 3, deals=4, ladder=["random", "heuristic"])
    assert a == b and a.to_dict() == b.to_dict()
    assert [r.rung for r in a.rungs] == ["random", "heuristic"]
    # the heuristic bot loses far less than its share against random bots
    assert a.rungs[0].loser_rate < 1 / 3 and a.rungs[0].rating > 0


def test_parallel_blocks_give_the_same_figures_for_a_deterministic_agent() -> None:
    first = evaluate(CallableBot(lambda v, legal: legal[-1], "last"), PAGAT, 3, deals=4, ladder=["random"])
    second = evaluate(_last, PAGAT, 3, deals=4, ladder=["random"], jobs=2)
    assert first.rungs == second.rungs


def _last(view: View, legal: Sequence[Action]) -> Action:
    return legal[-1]


def test_figures_wilson_interval_and_rating() -> None:
    result = evaluate(_last, PAGAT, 3, deals=2, ladder=["heuristic"])
    r = result.rungs[0]
    assert r.games == 6 and 0 <= r.losses <= 6
    assert r.low <= r.loser_rate <= r.high
    assert r.rating_low <= r.rating <= r.rating_high
    assert result.agent == "_last"
    data = result.to_dict()
    assert data["deal_set"] == "evaluate-v1" and data["digest"] == deal_set_digest(PAGAT, 2)
    assert "agent_ms" not in data["rungs"][0]  # type: ignore[index]


def test_rating_above_the_rung() -> None:
    assert rating_above(1 / 3, 3, 100) == pytest.approx(0.0)
    assert rating_above(0.25, 4, 100) == pytest.approx(0.0)
    # ten times less likely to be the loser than a rung seat: +400
    p = 1 / (1 + 2 * 10)  # w_a / (w_a + 2 w_b) with w_b = 10 w_a
    assert rating_above(p, 3, 100) == pytest.approx(400.0)
    assert rating_above(0.1, 3, 100) > rating_above(0.2, 3, 100)
    assert rating_above(0.0, 3, 10) == rating_above(0.05, 3, 10)  # kept 0.5/games from 0
    with pytest.raises(ValueError):
        rating_above(0.5, 1, 10)


def test_agents_and_errors() -> None:
    bot = make_bot("random", random.Random(0))
    assert agent_bot(bot) is bot
    named = agent_bot(bot, name="mine")
    assert named.name == "mine"
    assert agent_bot(_last).name == "_last"
    with pytest.raises(TypeError, match="not an agent.*choose.*callable"):
        agent_bot(42)
    with pytest.raises(TypeError, match="not an agent"):
        evaluate("heuristic", PAGAT, 3, deals=1)  # a name is not an agent object here
    with pytest.raises(ValueError, match="not one of the legal actions"):
        evaluate(lambda v, legal: _illegal(legal), PAGAT, 3, deals=1,
                 ladder=["random"])
    with pytest.raises(ValueError, match="no bot called"):
        evaluate(_last, PAGAT, 3, deals=1, ladder=["nobody"])
    with pytest.raises(ValueError, match="at least one rung"):
        evaluate(_last, PAGAT, 3, deals=1, ladder=[])
    with pytest.raises(ValueError, match="2 to"):
        evaluate(_last, PAGAT, 9, deals=1)
    with pytest.raises(ValueError, match="deals"):
        evaluate(_last, PAGAT, 3, deals=0)
    with pytest.raises(TypeError, match="pickled"):
        evaluate(lambda v, legal: legal[0], PAGAT, 3, deals=2, jobs=2)
    assert LADDER == ("random", "heuristic", "counter", "ismcts-50it")


def _illegal(legal: Sequence[Action]) -> Action:
    for a in (Action.parse("pass"), Action.parse("stock"), Action.parse("pick")):
        if a not in legal:
            return a
    raise AssertionError("no illegal action found")


AGENT_FILE = '''
import random
from skitgubbe.bots import make_bot

def make():
    return make_bot("heuristic", random.Random(3))

def lowest(view, legal):
    return legal[0]
'''


def test_cli_evaluate_loads_an_agent_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "agent.py"
    path.write_text(AGENT_FILE, encoding="utf-8")
    assert main(["evaluate", "--agent", f"{path}:make", "--rules", "pagat", "--players", "3", "--deals", "2",
                 "--ladder", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agent"] == "heuristic" and data["deals"] == 2 and data["games_per_rung"] == 6
    assert [r["rung"] for r in data["rungs"]] == ["random"]
    assert data["digest"] == deal_set_digest(PAGAT, 2)
    assert main(["evaluate", "--agent", f"{path}:lowest", "--players", "3", "--deals", "1",
                 "--ladder", "random,heuristic"]) == 0
    out = capsys.readouterr().out
    assert "agent.py:lowest (callable) on pagat, 3 players: deal set evaluate-v1" in out
    assert "random" in out and "heuristic" in out and "rating" in out


def test_cli_evaluate_a_bot_name_gives_a_reference_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", "--agent", "random", "--rules", "goat", "--players", "4", "--deals", "1",
                 "--ladder", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["agent"] == "random" and data["rungs"][0]["games"] + data["rungs"][0]["abandoned"] == 4


@pytest.mark.parametrize(("spec", "message"), [
    ("no_such_module_xyz:make", "cannot import"),
    ("json:no_such_factory", "has no 'no_such_factory'"),
    ("nobody", "no bot called"),
    ("json:__name__", "not"),
])
def test_cli_evaluate_bad_agents(spec: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["evaluate", "--agent", spec, "--deals", "1"])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err
