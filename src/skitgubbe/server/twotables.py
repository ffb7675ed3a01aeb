"""Two linked tables for 10 to 12 people: the session logic (no I/O, no HTTP).

The Flurst page ("Two tables") describes it: the people split into a *winners table* and a *losers
table*, each table plays one deal at the same time, and then the loser of the winners table moves
down to the losers table while the first player out at the losers table moves up; then both tables
deal again.  Here each round is a pair of rooms (:class:`~skitgubbe.server.rooms.Room`); the two who
change tables take each other's place (player slot), everyone else keeps theirs, so both tables keep
their size.  :class:`TwoTables` holds a session; :func:`next_seating` is the move between rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.rules import Rules

__all__ = ["WINNERS", "LOSERS", "TABLE_NAMES", "MIN_PEOPLE", "MAX_PEOPLE", "Place", "Result", "TwoTables",
           "table_sizes", "check_rules", "next_seating"]

WINNERS, LOSERS = 0, 1
"""The tables' indices: the winners table and the losers table."""

TABLE_NAMES = ("winners table", "losers table")

MIN_PEOPLE, MAX_PEOPLE = 10, 12
"""How many people two tables are for (the Flurst page: ten to twelve)."""

Place = tuple[int, int]
"""A place at the two tables: ``(table, player slot)``, ``table`` being :data:`WINNERS` or :data:`LOSERS`."""


@dataclass(frozen=True)
class Result:
    """What a finished deal of one table says for the move: its loser's and its first player out's
    player slots (None when the deal named none, e.g. it was abandoned)."""

    loser: int | None
    first_out: int | None


def table_sizes(people: int) -> tuple[int, int]:
    """Seats at the winners and at the losers table for ``people`` (10 to 12): 5 and 5, 6 and 5, or 6
    and 6.  Raises ``ValueError`` for another number."""
    if not MIN_PEOPLE <= people <= MAX_PEOPLE:
        raise ValueError(f"two tables are for {MIN_PEOPLE} to {MAX_PEOPLE} people, not {people}")
    return (people + 1) // 2, people // 2


def check_rules(rules: Rules, people: int) -> tuple[int, int]:
    """The table sizes (:func:`table_sizes`) if ``rules`` can seat both tables; else ``ValueError``
    naming what does not fit (the rules' seat range, or 3-player confusion, which has six seats for
    three people)."""
    sizes = table_sizes(people)
    if rules.confusion:
        raise ValueError("3-player confusion seats three people at six hands: it cannot make two tables")
    low, high = min(sizes), max(sizes)
    for size in sizes:
        try:
            rules.check_players(size)
        except ValueError:
            raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players; two "
                             f"tables of {people} people need tables of {low} and {high}") from None
    return sizes


def next_seating(sizes: tuple[int, int], winners: Result,
                 losers: Result) -> tuple[list[Place], list[Place]]:
    """Where each player slot of the next round's two tables comes from: per table, per slot, the
    :data:`Place` it had in this round.  The winners table's loser and the losers table's first player
    out change places (the Flurst page, "Two tables"); when either deal named nobody, nobody moves.
    Raises ``ValueError`` for a slot a table does not have."""
    out: tuple[list[Place], list[Place]] = ([(WINNERS, s) for s in range(sizes[WINNERS])],
                                            [(LOSERS, s) for s in range(sizes[LOSERS])])
    down, up = winners.loser, losers.first_out
    if down is None or up is None:
        return out
    if not 0 <= down < sizes[WINNERS] or not 0 <= up < sizes[LOSERS]:
        raise ValueError(f"no such slots: {down} at the winners table, {up} at the losers table")
    out[WINNERS][down] = (LOSERS, up)
    out[LOSERS][up] = (WINNERS, down)
    return out


@dataclass
class TwoTables:
    """One session of two tables.

    Attributes: ``code`` (the session's name), ``sizes`` (seats at the winners and the losers
    table), ``rounds`` (per round, the room codes of the winners and the losers table, the latest
    last), ``moves`` (per finished round, ``{"down": name, "up": name}``, names None when nobody
    moved), ``next`` (for the latest round once both its deals are over: per table, per slot, the
    ``(room code, slot)`` that place has in the next round).
    """

    code: str
    sizes: tuple[int, int]
    rounds: list[tuple[str, str]] = field(default_factory=list)
    moves: list[dict[str, str | None]] = field(default_factory=list)
    next: list[list[tuple[str, int, int]]] | None = None

    @property
    def rooms(self) -> tuple[str, str]:
        """The rooms of the current round: the winners table's and the losers table's."""
        return self.rounds[-1]

    def table_of(self, room: str) -> int | None:
        """:data:`WINNERS` or :data:`LOSERS` for a room of the current round, else None."""
        return self.rooms.index(room) if room in self.rooms else None

    def advance(self, new_rooms: tuple[str, str], seating: tuple[list[Place], list[Place]],
                move: dict[str, str | None]) -> None:
        """Record the next round: its rooms, ``seating`` (:func:`next_seating`) and who moved; sets
        :attr:`next` for the round that ended."""
        dest: list[list[tuple[str, int, int]]] = [[("", 0, 0)] * self.sizes[WINNERS],
                                                   [("", 0, 0)] * self.sizes[LOSERS]]
        for table, places in enumerate(seating):
            for slot, (old_table, old_slot) in enumerate(places):
                dest[old_table][old_slot] = (new_rooms[table], slot, table)
        self.next = dest
        self.moves.append(move)
        self.rounds.append(new_rooms)

    def info(self, room: str) -> dict[str, Any]:
        """What every seat of ``room`` is told about the session (public: room codes, names, no
        card): ``code``, ``round`` (from 1), ``table`` (``"winners table"`` or ``"losers table"``),
        ``rooms`` (the two codes of the room's round), ``moves`` (who moved after each round so far)
        and ``next`` (once the room's round is over: per player slot of ``room``, ``{"room",
        "player", "table"}`` where that player sits in the next round; else None)."""
        for k, pair in enumerate(self.rounds):
            if room in pair:
                table = pair.index(room)
                nxt = None
                if k == len(self.rounds) - 2 and self.next is not None:
                    nxt = [{"room": code, "player": slot, "table": TABLE_NAMES[t]}
                           for code, slot, t in self.next[table]]
                return {"code": self.code, "round": k + 1, "table": TABLE_NAMES[table], "rooms": list(pair),
                        "moves": self.moves, "next": nxt}
        raise ValueError(f"room {room} is not one of this session's")
