"""The server's log: one line per refused or failed request and per storage failure, on standard error.

Every module of :mod:`skitgubbe.server` logs through ``logging.getLogger(__name__)`` (loggers under
``skitgubbe.server``); :func:`configure` is what ``skitgubbe serve`` calls before it starts, so that a
program embedding the server (or a test) keeps its own logging set-up.  What is logged at which level
(docs/server.md, "The log"):

* ``ERROR``: a failure of the server: a database that refuses a write or a read, a room that does
  not load, a fault while handling a message or request (with its traceback);
* ``WARNING``: a request refused by a limit (rooms, connections, rates, sizes), a connection closed
  for reading too slowly or for guessing;
* ``INFO``: every other refused request (a bad move, a malformed message or body, a client that went
  away mid-request).
"""

from __future__ import annotations

import logging
import sys

__all__ = ["LEVELS", "FORMAT", "configure"]

LEVELS = ("debug", "info", "warning", "error")
"""The levels ``skitgubbe serve --log-level`` accepts, most to least said."""

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
"""One log line: time, level, logger (``skitgubbe.server.hub``...) and the message."""


def configure(level: str = "info") -> None:
    """Log the server's lines at ``level`` and above (one of :data:`LEVELS`) to standard error, one a
    line in :data:`FORMAT`: a handler on the root logger unless the program already has one
    (:func:`logging.basicConfig`), and the level on the ``skitgubbe`` logger.  Calling it again
    changes the level.  Raises ``ValueError`` for a level that is not one of :data:`LEVELS`."""
    if level not in LEVELS:
        raise ValueError(f"log level {level!r}: give one of {', '.join(LEVELS)}")
    logging.basicConfig(format=FORMAT, stream=sys.stderr)
    logging.getLogger("skitgubbe").setLevel(level.upper())
