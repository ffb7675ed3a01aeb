"""Every golden record (tests/records/) replayed through the compiled engine too (issue 30 item 5).

Each record the compiled engine can play (its rules and seat count, :func:`compiled.unsupported`;
the sequential sluffing protocol; a deal, not a phase-two position) is replayed move by move in
both engines at once: before every move the compiled state's fingerprint (every hand, pile, the
stock, the trick, the seat to act) equals the Python state's, the move is among the compiled
engine's legal actions, and both end with the record's loser.  The records it cannot play are
named with the reason, and there must be at least :data:`AT_LEAST` that it can."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skitgubbe.engine import compiled
from skitgubbe.engine.record import loads
from skitgubbe.engine.state import State

RECORDS = sorted((Path(__file__).resolve().parent / "records").glob("*.sgr"))
AT_LEAST = 10
"""Records the compiled engine must replay (of the 15; the others use a protocol or a deck it
does not play)."""

needs_native = pytest.mark.skipif(not compiled.available() and not os.environ.get("SKITGUBBE_REQUIRE_NATIVE"),
                                  reason="needs the compiled engine (pip install ./native)")


def why_not(path: Path) -> str | None:
    """Why the compiled engine cannot replay the record at ``path``, or None."""
    rec = loads(path.read_text())
    if rec.position is not None:
        return "starts from a phase-two position, not a deal"
    if rec.live or rec.ask_every_seat:
        return "the compiled engine plays the sequential sluffing protocol only"
    return compiled.unsupported(rec.rules, rec.players)


@needs_native
def test_enough_records_replay_compiled() -> None:
    playable = [p.name for p in RECORDS if why_not(p) is None]
    skipped = {p.name: why_not(p) for p in RECORDS if why_not(p) is not None}
    assert len(playable) >= AT_LEAST, f"only {playable} replay compiled; the others: {skipped}"


@needs_native
@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_record_replays_move_by_move_in_the_compiled_engine(path: Path) -> None:
    reason = why_not(path)
    if reason is not None:
        pytest.skip(reason)
    rec = loads(path.read_text())
    py = State.new(rec.rules, rec.players, dealer=rec.dealer, deck=list(rec.deck), leader=rec.leader)
    cs = compiled.CompiledState.new(rec.rules, rec.players, dealer=rec.dealer, deck=list(rec.deck),
                                    leader=rec.leader)
    for i, (seat, action) in enumerate(rec.moves):
        same = cs.fingerprint() == compiled.fingerprint(py)
        assert same, f"{path.name}: the engines differ before move {i + 1}"
        assert cs.to_act == py.to_act == seat, f"{path.name}: move {i + 1} is not the seat to act's"
        if seat >= 0:
            assert action in cs.legal_actions(), f"{path.name}: move {i + 1} ({action}) not legal compiled"
        py.apply(action)
        cs.apply(action)
    assert cs.fingerprint() == compiled.fingerprint(py)
    assert cs.is_over and py.is_over
    assert cs.outcome == py.outcome
    assert rec.loser is None or py.loser == rec.loser
