"""A tournament's checkpoint: a file that keeps every finished deal, so that a long run that
stops (Ctrl-C, a session or a cluster node that ends, a crash) goes on from where it was.

The file is JSON lines.  Line 1 names the tournament: ``format`` (:data:`FORMAT`), ``version``,
``rules`` (the name) and ``options`` (every option's value), ``players``, ``bots`` (the
entrant labels) and ``seed``.  Each further line is one finished deal
(:meth:`skitgubbe.batch.tournament.DealResult.to_dict`), written in deal order as soon as the
deals before it are done, and flushed.  So the deals in a file are always ``0 .. k-1``.

Running the same tournament again with the same file plays only the deals that are missing
(and more deals than before, if asked: a 100-deal run grows into a 1,000-deal one).  For
entrants given by name the result is the same as an uninterrupted run's, on any backend; the
times and CPU seconds add up over the runs.  A last line cut off in the middle of writing is
dropped; any other damage, or a file of another tournament, is an error that names the line and
the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from ..engine.rules import Rules
from .tournament import DealResult

__all__ = ["FORMAT", "VERSION", "CheckpointError", "TournamentCheckpoint"]

FORMAT = "skitgubbe tournament checkpoint"
"""The ``format`` of a checkpoint's first line."""

VERSION = 1
"""The ``version`` of the layout this module reads and writes."""


class CheckpointError(ValueError):
    """A checkpoint file that cannot be used: damaged, or of another tournament.  The message
    names the file, the line and what is wrong."""


class TournamentCheckpoint:
    """The checkpoint at ``path`` for the tournament of ``rules`` at ``players`` seats between
    the entrants ``bots`` (labels, as :func:`skitgubbe.batch.tournament.entrant_labels` gives
    them) with ``seed``.

    Opening reads the deals already in the file (:attr:`deals`, for ``run_tournament(resume=)``)
    or, for a missing or empty file, writes the first line.  :meth:`append` (for
    ``run_tournament(on_deal=)``) adds a deal.  Use it in a ``with`` block or call :meth:`close`.

    Raises :class:`CheckpointError` if the first line is of another tournament (naming the field
    that differs and both values), if a line is not JSON or not a deal (naming the line and
    field), or if the deals are not ``0 .. k-1`` in order; ``OSError`` if the file cannot be read
    or written.
    """

    def __init__(self, path: str | os.PathLike[str], rules: Rules, players: int, bots: Sequence[str],
                 seed: int) -> None:
        self.path = Path(path)
        self.header: dict[str, object] = {
            "format": FORMAT, "version": VERSION, "rules": rules.name, "options": rules.options(),
            "players": players, "bots": list(bots), "seed": seed,
        }
        self.deals: list[DealResult] = []
        good = self._read() if self.path.exists() else 0
        self._file: IO[str] = self.path.open("r+" if good else "w", encoding="utf-8")
        self._file.seek(good)
        self._file.truncate()  # a last line cut off in the middle of writing
        if not good:
            self._write(self.header)

    def _read(self) -> int:
        """Read the file into :attr:`deals`; the offset after its last whole line (0 if empty)."""
        data = self.path.read_bytes()
        end = 0
        for number, raw in enumerate(data.splitlines(keepends=True), start=1):
            where = f"{self.path} line {number}"
            try:
                line = json.loads(raw)
            except ValueError:
                if not raw.endswith(b"\n") and end + len(raw) == len(data):
                    break  # cut off while being written
                raise CheckpointError(f"{where}: not a line of JSON") from None
            if number == 1:
                self._check_header(line, where)
            else:
                try:
                    deal = DealResult.from_dict(line)
                except ValueError as e:
                    raise CheckpointError(f"{where}: {e}") from None
                if deal.deal != len(self.deals):
                    raise CheckpointError(f"{where}: deal {deal.deal} where deal {len(self.deals)} was "
                                          "expected (deals are written in order)")
                self.deals.append(deal)
            end += len(raw)
        return end

    def _check_header(self, line: object, where: str) -> None:
        if not isinstance(line, dict) or line.get("format") != FORMAT:
            raise CheckpointError(f"{where}: not a tournament checkpoint (its first line has no "
                                  f"'format': {FORMAT!r})")
        for key, value in self.header.items():
            theirs = line.get(key)
            if theirs == value:
                continue
            if key == "options" and isinstance(theirs, dict) and isinstance(value, dict):
                option = next(k for k in sorted({*theirs, *value}) if theirs.get(k) != value.get(k))
                key, theirs, value = f"option {option}", theirs.get(option), value.get(option)
            raise CheckpointError(
                f"{where}: {key} is {theirs!r} in the file but {value!r} in this run; a checkpoint "
                "continues the same tournament only (use another file, or the file's settings)")

    def _write(self, line: object) -> None:
        self._file.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._file.flush()

    def append(self, deal: DealResult) -> None:
        """Write ``deal``, the next deal in order, and flush it to the file.  Raises
        ``ValueError`` for a deal out of order."""
        if deal.deal != len(self.deals):
            raise ValueError(f"deal {deal.deal} given where deal {len(self.deals)} comes next")
        self._write(deal.to_dict())
        self.deals.append(deal)

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> TournamentCheckpoint:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
