"""Helpers for the hub tests without HTTP: a test clock, a hub on a throwaway database, reading a
client's queued messages, waiting for a condition."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from skitgubbe.server.botpool import BotPool  # noqa: E402
from skitgubbe.server.hub import Client, Hub  # noqa: E402
from skitgubbe.server.store import Store  # noqa: E402


class Clock:
    """Monotonic seconds that only move when a test sets ``t``."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def run(tmp_path: Path, body: Callable[[Hub, Clock], Awaitable[None]], db: str | None = None,
        **kw: Any) -> None:
    """Run ``body(hub, clock)`` on a hub over an SQLite file in ``tmp_path`` (or ``db``), with bots in
    a thread, no bot delay (unless ``bot_delay`` is given), a 30-second away timer and a seeded
    generator; close everything after."""
    async def main() -> None:
        clock = Clock()
        kw.setdefault("bot_delay", 0.0)
        hub = Hub(Store(db or f"sqlite:///{tmp_path}/hub.db"), BotPool(0), away_after=30.0,
                  rng=random.Random(5), clock=clock, **kw)
        await hub.load()
        try:
            await body(hub, clock)
        finally:
            await hub.close()
            hub.pool.close()
            hub.store.close()
    asyncio.run(main())


def out(c: Client) -> list[dict[str, Any]]:
    """Every message queued for ``c`` so far, parsed (and taken off its queue)."""
    msgs = []
    while not c.outbox.empty():
        raw = c.take_nowait()
        assert raw is not None
        msgs.append(json.loads(raw))
    return msgs


async def until(condition: Callable[[], bool], limit: float = 60.0) -> None:
    """Wait (a safety limit, not a timing assertion) until ``condition()`` holds."""
    for _ in range(int(limit / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition was never reached")
