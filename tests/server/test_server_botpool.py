"""Bots think in a worker process: the move comes back legal, and a bad bot name is an error."""

from __future__ import annotations

import asyncio

import pytest

from skitgubbe.engine.state import State
from skitgubbe.engine.variants import find_variant
from skitgubbe.engine.view import view_of
from skitgubbe.server.botpool import BotPool, choose_move


def test_a_bot_in_a_worker_process_returns_a_legal_move() -> None:
    state = State.new(find_variant("goat"), 4, seed=11, live=True)
    seat = state.to_act
    legal = state.legal_actions(seat)
    pool = BotPool(1)

    async def go() -> object:
        return await pool.choose("easy", 3, view_of(state, seat), legal)

    try:
        assert asyncio.run(go()) in legal
    finally:
        pool.close()


def test_unknown_bots_and_bad_pool_sizes_are_refused() -> None:
    state = State.new(find_variant("pagat"), 3, seed=1)
    with pytest.raises(ValueError, match="no bot called 'genius'"):
        choose_move("genius", 1, view_of(state, state.to_act), state.legal_actions())
    with pytest.raises(ValueError, match="workers must be 0 or more"):
        BotPool(-1)
