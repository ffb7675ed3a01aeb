"""The records of outside bots and the ladder: bot accounts, seat invitations, ratings and games.

Tables of their own (a separate ``MetaData``, created on the :class:`~skitgubbe.server.store.Store`'s
engine, so they live in the same SQLite file or PostgreSQL database as the rooms):

* ``bot_accounts``: a registered bot's ``name`` (its key, :func:`bot_key`, is the primary key) and the
  SHA-256 of its token (:func:`~skitgubbe.server.rooms.hash_token`); the token itself is never stored.
* ``bot_invites``: a seat of a room kept for a registered bot (``room``, ``slot``, ``bot``).
* ``ladder_ratings``: per entrant (an outside bot or a built-in one, ``kind``), its openskill rating
  (``mu``, ``sigma``), ``games`` and ``losses``.
* ``ladder_games``: one row per rated deal: the deal's id (``/replay/{deal}``), the room, the names in
  seat order and the loser's name.
* ``ladder_lock``: one row, the lease of the worker that runs the ladder's scheduler (``holder``,
  ``expires`` in seconds since the epoch): with several workers on one database the ladder is run
  by one of them at a time.

Ratings: openskill's Plackett-Luce model (mu 25, sigma 25/3, as ``skitgubbe tournament``), each deal
one match of single-player teams ranked loser last and every other seat tied first (Skitgubbe has one
loser, and the record keeps no finishing order).  ``ordinal`` is mu - 3 sigma.
No I/O but the database; every method is synchronous (call it from a thread in the server).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Column, Float, Integer, MetaData, String, Table, Text, delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import protocol
from .rooms import RoomError, available_bots, hash_token
from .store import create_tables

__all__ = ["BOT_NAME_RE", "BotBook", "bot_key", "check_bot_name", "LeaderRow", "LOCK_EXPIRY"]

BOT_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{1,23}")
"""What a bot account's name may be: 2 to 24 ASCII letters, digits, ``_`` and ``-``, a letter first."""

LOCK_EXPIRY = 15.0
"""Seconds after its last renewal that the ladder's lock row may be taken by another worker."""

_meta = MetaData()
accounts_table = Table(
    "bot_accounts", _meta,
    Column("key", String(32), primary_key=True),
    Column("name", String(32), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", Float, nullable=False),
)
invites_table = Table(
    "bot_invites", _meta,
    Column("room", String(16), primary_key=True),
    Column("slot", Integer, primary_key=True, autoincrement=False),
    Column("bot", String(32), nullable=False),
)
ratings_table = Table(
    "ladder_ratings", _meta,
    Column("name", String(32), primary_key=True),
    Column("kind", String(16), nullable=False),  # "outside" or "builtin"
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("losses", Integer, nullable=False),
)
games_table = Table(
    "ladder_games", _meta,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("deal", String(32), nullable=False),
    Column("room", String(16), nullable=False),
    Column("names", Text, nullable=False),  # JSON: the entrants' names in seat order
    Column("loser", String(32), nullable=False),
    Column("played", Float, nullable=False),
)
lock_table = Table(
    "ladder_lock", _meta,
    Column("id", Integer, primary_key=True, autoincrement=False),  # always 1
    Column("holder", String(64), nullable=False),
    Column("expires", Float, nullable=False),
)


def bot_key(name: str) -> str:
    """The form in which bot names are compared: case-folded (``Rando`` and ``rando`` are one bot)."""
    return name.casefold()


def check_bot_name(name: object) -> str:
    """``name`` if it may name a bot account: :data:`BOT_NAME_RE`, a display name
    (:func:`~skitgubbe.server.protocol.check_name`) and not the name of a built-in bot.

    Raises :class:`~skitgubbe.server.protocol.ProtocolError` ``bad-field`` saying what is allowed."""
    if not isinstance(name, str) or not BOT_NAME_RE.fullmatch(name):
        raise protocol.ProtocolError("bad-field", f"a bot's name is 2 to 24 ASCII letters, digits, '_' and "
                                     f"'-', a letter first, not {name!r:.40}")
    protocol.check_name(name)
    if name.casefold() in available_bots() or re.match(r"(?i)(easy|medium|hard|ismcts)", name):
        raise protocol.ProtocolError("bad-field", f"{name!r} is the name of a built-in bot "
                                     f"({', '.join(available_bots())}): choose another name")
    return name


@dataclass(frozen=True)
class LeaderRow:
    """One line of the leaderboard: ``rank`` (1 first), ``name``, ``kind`` (``outside`` or
    ``builtin``), ``mu``, ``sigma``, ``ordinal`` (mu - 3 sigma), ``games``, ``losses`` and ``last``:
    its latest games, newest first, each ``{"deal", "replay", "lost", "played"}`` (``replay`` the
    path of the replay page, ``played`` seconds since the epoch)."""

    rank: int
    name: str
    kind: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    losses: int
    last: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return dict(self.__dict__)


class BotBook:
    """The bot accounts, invitations and the ladder's records in the database of ``engine``
    (a SQLAlchemy engine: the server's :attr:`~skitgubbe.server.store.Store.engine`); creates its
    tables if they are missing."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(_meta, engine)  # (under the store's lock on PostgreSQL: workers may start at once)
        self.model = PlackettLuce()

    def drop_tables(self) -> None:
        """Drop and create again this module's tables (tests: an empty ladder; the rooms stay)."""
        _meta.drop_all(self.engine)
        _meta.create_all(self.engine)

    # -- accounts --------------------------------------------------------------------------

    def add_bot(self, name: str) -> str:
        """Register the bot ``name``; returns its token (shown once: only its hash is stored).

        Raises :class:`~skitgubbe.server.protocol.ProtocolError` ``bad-field`` for a name
        :func:`check_bot_name` refuses and ``name-taken`` for a name already registered (compared
        without case)."""
        name = check_bot_name(name)
        token = "sgb_" + secrets.token_urlsafe(24)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(accounts_table).values(key=bot_key(name), name=name,
                                                           token_hash=hash_token(token), created=time.time()))
        except IntegrityError:
            raise protocol.ProtocolError("name-taken", f"a bot called {name!r} is already registered "
                                         "(names are compared without case): choose another name") from None
        return token

    def remove_bot(self, name: str) -> bool:
        """Forget the bot ``name`` (its token stops working; its ladder rating and games stay).
        Returns False if no such bot was registered."""
        with self.engine.begin() as conn:
            gone = conn.execute(delete(accounts_table).where(accounts_table.c.key == bot_key(name))).rowcount
        return bool(gone)

    def bots(self) -> list[tuple[str, float]]:
        """Every registered bot: ``(name, registered)`` (seconds since the epoch), by name."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(accounts_table.c.name, accounts_table.c.created)
                                .order_by(accounts_table.c.key)).all()
        return [(str(r[0]), float(r[1])) for r in rows]

    def is_bot(self, name: str) -> bool:
        """True if ``name`` is a registered bot."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_table.c.key)
                               .where(accounts_table.c.key == bot_key(name))).first()
        return row is not None

    def bot_of_token(self, token: str) -> str:
        """The name of the bot whose token is ``token``.

        Raises :class:`~skitgubbe.server.rooms.RoomError` ``bad-token`` when it is no registered
        bot's token."""
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts_table.c.name)
                               .where(accounts_table.c.token_hash == hash_token(token))).first()
        if row is None:
            raise RoomError("bad-token", "that bot_token is not the token of a registered bot: the server's "
                            "operator registers one with 'skitgubbe bot add NAME', which prints its token")
        return str(row[0])

    # -- invitations -----------------------------------------------------------------------

    def invite(self, room: str, slots: dict[int, str]) -> None:
        """Keep the seats ``slots`` (slot -> bot name) of room ``room`` for those bots."""
        if not slots:
            return
        with self.engine.begin() as conn:
            conn.execute(insert(invites_table),
                         [{"room": room, "slot": s, "bot": b} for s, b in slots.items()])

    def invites(self) -> dict[str, dict[int, str]]:
        """Every kept seat: room -> {slot: bot name}."""
        out: dict[str, dict[int, str]] = {}
        with self.engine.connect() as conn:
            for room, slot, bot in conn.execute(select(invites_table)).all():
                out.setdefault(str(room), {})[int(slot)] = str(bot)
        return out

    # -- the ladder ------------------------------------------------------------------------

    def take_lock(self, holder: str, now: float | None = None) -> bool:
        """Take or renew the ladder's lock row for ``holder`` (a random id per worker) for
        :data:`LOCK_EXPIRY` seconds; True if ``holder`` holds it now.  One compare-and-set
        ``UPDATE`` (or the first ``INSERT``), so two workers never both hold it."""
        t = time.time() if now is None else now
        with self.engine.begin() as conn:
            done = conn.execute(update(lock_table).where(lock_table.c.id == 1)
                                .where((lock_table.c.holder == holder) | (lock_table.c.expires < t))
                                .values(holder=holder, expires=t + LOCK_EXPIRY)).rowcount
            if done:
                return True
            if conn.execute(select(lock_table.c.id)).first() is not None:
                return False
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(lock_table).values(id=1, holder=holder, expires=t + LOCK_EXPIRY))
        except IntegrityError:
            return False
        return True

    def release_lock(self, holder: str) -> None:
        """Give the ladder's lock back, if ``holder`` holds it."""
        with self.engine.begin() as conn:
            conn.execute(update(lock_table).where(lock_table.c.holder == holder).values(expires=0.0))

    def record_game(self, deal: str, room: str, names: list[str], kinds: list[str], loser: int) -> None:
        """Rate one finished deal: ``names`` (and ``kinds``, ``outside`` or ``builtin``) of the entrants
        in seat order, ``loser`` the losing seat.  Entrants not yet rated start at openskill's
        defaults.  One transaction (the rows read ``FOR UPDATE`` where the database has it), so two
        writers cannot lose an update.  Raises ``ValueError`` for a loser that is not a seat or a name
        twice at one table."""
        if not 0 <= loser < len(names) or len(set(names)) != len(names):
            raise ValueError(f"a ladder deal needs distinct entrants and a loser among them: {names}, "
                             f"{loser}")
        with self.engine.begin() as conn:
            query = select(ratings_table).where(ratings_table.c.name.in_(names))
            if self.engine.dialect.name != "sqlite":
                query = query.with_for_update()
            have = {r.name: r for r in conn.execute(query).all()}
            teams = []
            for name in names:
                row = have.get(name)
                teams.append([self.model.rating(mu=row.mu, sigma=row.sigma, name=name) if row is not None
                              else self.model.rating(name=name)])
            ranks: list[float] = [2.0 if seat == loser else 1.0 for seat in range(len(names))]
            rated = self.model.rate(teams, ranks=ranks)
            for seat, (name, kind) in enumerate(zip(names, kinds, strict=True)):
                r = rated[seat][0]
                lost = int(seat == loser)
                if name in have:
                    conn.execute(update(ratings_table).where(ratings_table.c.name == name).values(
                        mu=r.mu, sigma=r.sigma, games=ratings_table.c.games + 1,
                        losses=ratings_table.c.losses + lost))
                else:
                    conn.execute(insert(ratings_table).values(name=name, kind=kind, mu=r.mu, sigma=r.sigma,
                                                              games=1, losses=lost))
            conn.execute(insert(games_table).values(deal=deal, room=room, names=json.dumps(names),
                                                    loser=names[loser], played=time.time()))

    def leaderboard(self, *, last: int = 5, games: int = 2000) -> list[LeaderRow]:
        """The ladder, best first (by ordinal), each entrant with its ``last`` latest games (read from
        the latest ``games`` rated deals)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings_table)).all()
            recent = conn.execute(select(games_table).order_by(games_table.c.id.desc()).limit(games)).all()
        latest: dict[str, list[dict[str, Any]]] = {}
        for g in recent:
            for name in json.loads(g.names):
                mine = latest.setdefault(name, [])
                if len(mine) < last:
                    mine.append({"deal": g.deal, "replay": f"/replay/{g.deal}", "lost": g.loser == name,
                                 "played": g.played})
        ordered = sorted(rows, key=lambda r: (-(r.mu - 3 * r.sigma), r.name))
        return [LeaderRow(i + 1, r.name, r.kind, round(r.mu, 3), round(r.sigma, 3),
                          round(r.mu - 3 * r.sigma, 3), r.games, r.losses, latest.get(r.name, []))
                for i, r in enumerate(ordered)]
