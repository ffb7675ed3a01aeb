"""Bots think in worker processes, so a slow bot never stalls the server's event loop.

A bot is built fresh for every move by :func:`skitgubbe.bots.make_bot` (``engine="auto"``) from its name
and a seed, and is given only the seat's :class:`~skitgubbe.engine.view.View` and legal
actions, as everywhere else in the project.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from ..bots import make_bot
from ..engine.actions import Action
from ..engine.view import View

__all__ = ["BotPool", "choose_move"]


def choose_move(name: str, seed: int, view: View, legal: Sequence[Action]) -> Action:
    """The move bot ``name`` (a :func:`~skitgubbe.bots.make_bot` name) chooses for ``view.seat``
    out of ``legal`` (non-empty), its randomness seeded by ``seed``.  Raises ``ValueError`` for
    an unknown bot or a bot that answers with a move outside ``legal``.  A bot of
    :data:`~skitgubbe.bots.compiled_bots.COMPILED_BOTS` decides in compiled code where the compiled
    engine plays the rules (``make_bot(..., engine="auto")``: the same decisions)."""
    bot = make_bot(name, random.Random(seed), engine="auto")
    action = bot.choose(view, list(legal))
    if action not in legal:
        raise ValueError(f"bot {name} chose {action}, which is not legal")
    return action


def watch_parent(parent: int) -> None:
    """In a worker: exit as soon as the server process that started it is gone (killed, say),
    so that no orphaned worker lingers."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="skitgubbe-parent-watch", daemon=True).start()


class BotPool:
    """A pool of ``workers`` bot processes (started on first use with the ``spawn`` method);
    ``workers=0`` runs bots on one thread of this process instead (for small tests)."""

    def __init__(self, workers: int = 2) -> None:
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        self.workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.workers == 0:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skitgubbe-bot")
            else:
                ctx = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                                     initializer=watch_parent, initargs=(os.getpid(),))
        return self._executor

    async def choose(self, name: str, seed: int, view: View, legal: Sequence[Action]) -> Action:
        """:func:`choose_move` run in the pool; raises what it raises."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), choose_move, name, seed, view, tuple(legal))

    def close(self) -> None:
        """Stop the workers (running moves are abandoned)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
