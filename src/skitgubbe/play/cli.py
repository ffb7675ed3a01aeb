"""The ``skitgubbe`` command: play, simulate, replay, rules, bench.

Run ``skitgubbe COMMAND --help`` for each command's options, ``skitgubbe --version`` for the
package's version.

Output: on a terminal, text is wrapped between words to its width and a table too wide for it
is printed as one block per row; when the output is not a terminal (a pipe, a file) lines are
never wrapped and tables are plain text columns at full width, so nothing is cut.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from .. import __version__
from ..batch.backend import Backend
from ..batch.runner import Game
from ..bots import BOT_NAMES, make_bot
from ..engine.actions import CHANCE
from ..engine.base import Phase
from ..engine.cards import format_cards
from ..engine.i18n import LANGUAGE_NAMES, LANGUAGES, language_from_env
from ..engine.narration import loser_title
from ..engine.record import Record, RecordFormatError, ReplayError, dumps, loads, replay
from ..engine.rules import OPTION_HELP, Rules
from ..engine.rulesfile import RulesFileError, describe_diff, parse_rules_file
from ..engine.state import State
from ..engine.variants import ALIASES, PRESETS, find_variant, usual_players
from ..singlehand import SINGLE_HAND
from ..singlehand import cli as singlehand_cli

__all__ = ["main", "build_parser", "print_table", "DEFAULT_GAMES"]

DEFAULT_GAMES = 100
"""``skitgubbe simulate`` plays this many games when ``--games`` is not given."""


def load_rules(text: str) -> Rules:
    """A preset by name or alias, or house rules from a TOML file (a path ending in ``.toml``
    or an existing file, read as UTF-8).  Raises ``ValueError`` saying what is wrong: a file
    that cannot be read, or the :class:`~skitgubbe.engine.rulesfile.RulesFileError` (one line) of a
    file that is not usable house rules."""
    path = Path(text)
    if text.endswith(".toml") or path.is_file():
        try:
            content = path.read_bytes()
        except OSError as e:
            raise ValueError(f"{text}: cannot read: {e.strerror}") from None
        try:
            return parse_rules_file(content)
        except RulesFileError as e:
            raise ValueError(f"{text}: {e}") from None
    return find_variant(text)


def _rules_arg(text: str) -> Rules | str:
    """A Rules, or :data:`skitgubbe.singlehand.cli.NAME` for Single Hand Skitgubbe (its own game)."""
    if singlehand_cli.is_single_hand(text):
        return singlehand_cli.NAME
    try:
        return load_rules(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


_LANG_ALIASES = {"no": "nb", "nn": "nb"}
"""``--lang`` codes read as a shipped language (Norwegian as bokmål, as the catalogs do)."""

LANG_HELP = ("the language of the game's words: " + ", ".join(f"{c} ({LANGUAGE_NAMES[c]})" for c in LANGUAGES)
             + "; default from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en.  Moves are typed in the "
             "notation (7h, td, pick) in every language.  Only 'play' and 'learn' speak other languages: "
             "the research commands (simulate, tournament, study, bench, ...) stay in English")
"""The help of ``--lang`` (``skitgubbe play`` and ``skitgubbe learn``)."""


def _lang_arg(text: str) -> str:
    """A language code of :data:`LANGUAGES` (case and a region ignored: ``sv_SE`` is ``sv``);
    raises ``argparse.ArgumentTypeError`` listing the languages for any other."""
    code = text.strip().lower().replace("_", "-").split("-")[0]
    code = _LANG_ALIASES.get(code, code)
    if code not in LANGUAGES:
        shipped = ", ".join(f"{c} ({LANGUAGE_NAMES[c]})" for c in LANGUAGES)
        raise argparse.ArgumentTypeError(f"unknown language {text!r}: the languages are {shipped}")
    return code


def _bots_arg(text: str) -> list[str]:
    names = [w.strip() for w in text.split(",") if w.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give bot names separated by commas, e.g. heuristic,random")
    for name in names:
        try:
            make_bot(name, random.Random(0))
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    return names


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``skitgubbe`` command."""
    p = argparse.ArgumentParser(prog="skitgubbe", description="Play and study Skitgubbe.")
    p.add_argument("--version", action="version", version=f"skitgubbe {__version__}",
                   help="print the package's version and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def table_args(q: argparse.ArgumentParser, *, default_bots: str) -> None:
        q.add_argument("--rules", type=_rules_arg, default=find_variant("pagat"),
                       help="preset name (see 'skitgubbe rules list') or a house-rules .toml file; "
                       "default pagat")
        q.add_argument("--rules-file", dest="rules", type=_rules_arg, metavar="FILE",
                       help="house rules: a TOML file naming a preset and the options it changes")
        q.add_argument("--players", type=int, default=None,
                       help="number of seats; default the preset's usual table (3 for most)")
        q.add_argument("--bots", type=_bots_arg, default=_bots_arg(default_bots),
                       help=f"bot names, comma separated, repeated over the seats ({', '.join(BOT_NAMES)});"
                       f" default {default_bots}")
        q.add_argument("--record", type=Path, metavar="DIR", help="write game records to DIR")

    q = sub.add_parser("play", help="play a game in the terminal against bots")
    table_args(q, default_bots="heuristic")
    q.add_argument("--seat", type=int, default=0,
                   help="your seat, 0-based; default 0.  Under 3-player confusion (option confusion, six "
                   "seats, the default table then) you also hold the partner hand, seat + 3 (mod 6)")
    q.add_argument("--seed", type=int, help="seed for the deal and the bots; default: random, printed")
    q.add_argument("--open", action="store_true", help="every hand face up (a teaching table)")
    q.add_argument("--phase", choices=("one", "two"), default="one",
                   help="'two': practise phase two only, all cards dealt evenly (default: a whole game)")
    q.add_argument("--trump", choices=tuple("CDHS"), type=str.upper,
                   help="with --phase two: the trump suit (default: drawn at random)")
    q.add_argument("--from", dest="from_file", type=Path, metavar="FILE",
                   help="play on from a record or a phase-two position (docs/record-format.md)")
    q.add_argument("--lang", type=_lang_arg, metavar="LANG", help=LANG_HELP)

    q = sub.add_parser("hint", help="the legal moves in a recorded position, with why (and why not); "
                       "for a finished deal, who lost")
    q.add_argument("file", type=Path, help="a record file; its moves are replayed first")
    q.add_argument("--seat", type=int, help="whose moves (default: the seat to act)")
    q.add_argument("--json", action="store_true",
                   help="print as JSON: a list of moves, or for a finished deal an object with over, loser, "
                   "abandoned and out_order")

    q = sub.add_parser("learn", help="a short tutorial: worked examples of the rule texts, step by step")
    q.add_argument("--lesson", type=int, help="start at this lesson (see --list)")
    q.add_argument("--list", action="store_true", help="list the lessons")
    q.add_argument("--lang", type=_lang_arg, metavar="LANG", help=LANG_HELP)

    q = sub.add_parser("simulate", help="play many games between bots and count the losers")
    table_args(q, default_bots="random")
    q.add_argument("--games", type=int, default=DEFAULT_GAMES,
                   help=f"number of games; default {DEFAULT_GAMES}")
    q.add_argument("--seed", type=int, default=0, help="seed; the same seed gives the same output")
    q.add_argument("--jobs", type=int, default=None,
                   help="worker processes; default 1 (the results do not depend on it)")
    q.add_argument("--engine", choices=("auto", "python", "compiled"), default="auto",
                   help="auto (the default): the compiled engine when every bot is one it plays (random, "
                        "heuristic) and it plays the rules, else the Python engine; the results are the "
                        "same either way (docs/performance.md)")
    _backend_args(q)
    q.add_argument("--json", action="store_true", help="print the results as JSON")

    q = sub.add_parser("tournament",
                       help="duplicate deals between bots: loser rates, places, speed, ratings")
    table_args(q, default_bots="heuristic,random")
    q.add_argument("--deals", type=int, required=True,
                   help="number of deals; each is played in every seating")
    q.add_argument("--seed", type=int, default=0, help="seed; the same seed gives the same table")
    q.add_argument("--jobs", type=int, default=None,
                   help="worker processes; default all cores (the results do not depend on it)")
    q.add_argument("--checkpoint", type=Path, metavar="FILE",
                   help="keep every finished deal in FILE and, if FILE holds deals of this same "
                        "tournament, play only the missing ones: a stopped run goes on where it was, "
                        "with the same results")
    q.add_argument("--engine", choices=("auto", "python", "compiled"), default="auto",
                   help="auto (the default): the compiled engine when every bot is one it plays (random, "
                        "heuristic) and it plays the rules, else the Python engine; the results are the "
                        "same either way (docs/performance.md)")
    _backend_args(q)
    q.add_argument("--json", action="store_true", help="print the results as JSON")

    _study_parser(sub)
    _evaluate_parser(sub)

    q = sub.add_parser("replay", help="check a game record move by move and show the result")
    q.add_argument("file", type=Path, help="a record file (docs/record-format.md)")
    q.add_argument("--json", action="store_true", help="print the result as JSON")

    q = sub.add_parser("rules", help="list the presets or show one")
    rsub = q.add_subparsers(dest="rules_command", required=True, metavar="list|show")
    rsub.add_parser("list", help="the presets and their aliases")
    show = rsub.add_parser("show", help="every option value of one preset or house-rules file, with its "
                           "meaning; or the rules of single-hand")
    show.add_argument("name", help="preset name or alias, a house-rules .toml file, or single-hand")
    show.add_argument("--json", action="store_true", help="print as JSON")
    diff = rsub.add_parser("diff", help="what differs between two rulesets, option by option")
    diff.add_argument("a", help="preset name or house-rules file")
    diff.add_argument("b", help="preset name or house-rules file")

    q = sub.add_parser("bot", help="register, list or remove the outside bots of a server's database "
                       "(docs/server.md, 'Bots from outside')")
    bsub = q.add_subparsers(dest="bot_command", required=True, metavar="add|list|remove")
    for verb, words in (("add", "register a bot: prints its token, once"), ("list", "the registered bots"),
                        ("remove", "forget a bot: its token stops working (its ladder record stays)")):
        b = bsub.add_parser(verb, help=words)
        if verb != "list":
            b.add_argument("name", help="the bot's name: 2 to 24 ASCII letters, digits, '_' and '-'")
        b.add_argument("--db", default=None, metavar="URL",
                       help="the server's SQLAlchemy database URL (as 'skitgubbe serve --db'); "
                       "default: the SQLite file skitgubbe-server.db here")

    q = sub.add_parser("serve", help="the online table: a web server for friends and bots (extra 'server')")
    q.add_argument("--db", default=None, metavar="URL",
                   help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@host/db; "
                   "default: the SQLite file skitgubbe-server.db here")
    q.add_argument("--worker", default=None, metavar="NAME",
                   help="this worker's name in the room leases (several workers may share one --db, each "
                   "table driven by one of them); default host:pid")
    q.add_argument("--renew-every", type=float, default=None, metavar="SECONDS",
                   help="seconds between renewals of this worker's room leases; default 1")
    q.add_argument("--lease-expiry", type=float, default=None, metavar="SECONDS",
                   help="seconds after their last renewal that another worker takes a worker's tables "
                   "over; default 5")
    q.add_argument("--host", default="127.0.0.1",
                   help="address to listen on; default 127.0.0.1 (this machine only)")
    q.add_argument("--port", type=int, default=8000, help="port; default 8000")
    q.add_argument("--bot-workers", type=int, default=2, help="bot processes; default 2")
    q.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS",
                   help="how long a bot waits before it moves, so people can follow; default 0.6")
    q.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="let pages from ORIGIN (e.g. https://cards.example, as the browser shows it; * for "
                   "any) open the game's websocket, besides the server's own origin; repeat for several "
                   "(behind a proxy that changes the Host header)")
    q.add_argument("--public-url", action="append", default=[], metavar="URL",
                   help="an address people open the site at, e.g. https://cards.example (behind a reverse "
                   "proxy or under a DNS name): its origin is the server's own, its host name answered; "
                   "without it only IP addresses and localhost are; repeat for several")
    q.add_argument("--trust-proxy", action="append", default=[], metavar="ADDRESS",
                   help="believe X-Forwarded-For (the client's address) from this reverse proxy, an IP "
                   "address or network (10.0.0.5, 10.0.0.0/24); repeat for several; default: no proxy is "
                   "trusted (FORWARDED_ALLOW_IPS is ignored)")
    q.add_argument("--log-level", choices=("debug", "info", "warning", "error"), default="info",
                   help="what the log (standard error) says: one line per refused or failed request and "
                   "per storage failure at info, only failures at error; default info")
    q.add_argument("--rooms-per-client", type=int, default=None, metavar="N",
                   help="rooms one client address may make in any 10 minutes; default 20, 0: no limit")
    q.add_argument("--connections-per-client", type=int, default=None, metavar="N",
                   help="websocket connections one client address may hold at once; default 32, 0: no limit")
    q.add_argument("--max-rooms", type=int, default=None, metavar="N",
                   help="the most rooms the server holds at once; default 10000, 0: no limit")
    q.add_argument("--idle-after", type=float, default=None, metavar="SECONDS",
                   help="remove a room nobody is connected to after this long without a change; default 3600")
    q.add_argument("--finished-after", type=float, default=None, metavar="SECONDS",
                   help="the same for a room whose deal is over; default 900")

    q = sub.add_parser("cluster", help="several workers behind HAProxy on one PostgreSQL database, as plain "
                       "processes (extra 'server', Debian package haproxy)")
    q.add_argument("--db", required=True, metavar="URL",
                   help="the workers' shared database, e.g. postgresql+psycopg://skitgubbe:secret@127.0.0.1/skitgubbe")
    q.add_argument("--workers", type=int, default=2, help="worker processes; default 2")
    q.add_argument("--host", default="127.0.0.1",
                   help="address the proxy listens on; default 127.0.0.1 (this machine only)")
    q.add_argument("--port", type=int, default=8000,
                   help="the proxy's port; the workers listen on 127.0.0.1 at the ports above it; "
                   "default 8000")
    q.add_argument("--connections-per-client", type=int, default=64, metavar="N",
                   help="TCP connections one client address may hold at the proxy, over all workers; "
                   "default 64, 0: no limit")
    q.add_argument("--rooms-per-client", type=int, default=20, metavar="N",
                   help="rooms one client address may make in any 10 minutes, over all workers; default 20, "
                   "0: no limit")
    q.add_argument("serve_options", nargs=argparse.REMAINDER, metavar="-- SERVE-OPTIONS",
                   help="after --: options for every worker's skitgubbe serve (--public-url, "
                   "--bot-workers, ...)")

    q = sub.add_parser("bench", help="random-play speed of the engine, every preset at its usual table")
    q.add_argument("--games", type=int, default=None,
                   help="games per round and ruleset; default 500 (50000 with the compiled engine)")
    q.add_argument("--engine", choices=("auto", "python", "compiled"), default="auto",
                   help="the engine to time: the compiled one where it plays the rules (auto, the default), "
                        "the Python engine, or the compiled one only (docs/performance.md)")
    q.add_argument("--rounds", type=int, default=5, help="timed rounds per ruleset; default 5")
    q.add_argument("--json", action="store_true", help="print as JSON")
    _train_selfplay_parser(sub)
    return p


def _check_table(p: argparse.ArgumentParser, rules: Rules, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        p.error(f"--players: {rules.name} is for {rules.min_players} to {rules.max_players} players, "
                f"not {players}")


def _check_play_table(p: argparse.ArgumentParser, rules: Rules, players: int) -> None:
    _check_table(p, rules, players)
    if rules.confusion and players != 6:
        p.error(f"--players: 3-player confusion is played with 6 seats (two hands for each of three "
                f"players), not {players}")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``skitgubbe`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    single = getattr(args, "rules", None) == singlehand_cli.NAME
    if getattr(args, "players", 0) is None:
        args.players = singlehand_cli.USUAL_PLAYERS if single else usual_players(args.rules)
    console = Console(highlight=False)
    console.soft_wrap = not console.is_terminal  # a terminal: wrap between words; a pipe: never wrap
    if single:
        return _single_hand(parser, args, console)
    try:
        if args.command == "play":
            return _play(parser, args, console)
        if args.command == "simulate":
            return _simulate(parser, args, console)
        if args.command == "replay":
            return _replay(args, console)
        if args.command == "tournament":
            return _tournament(parser, args, console)
        if args.command == "study":
            return _study(parser, args, console)
        if args.command == "evaluate":
            return _evaluate(parser, args, console)
        if args.command == "rules":
            return _rules(parser, args, console)
        if args.command == "hint":
            return _hint(args, console)
        if args.command == "serve":
            return _serve(args, console)
        if args.command == "bot":
            return _bot(args, console)
        if args.command == "cluster":
            return _cluster(args, console)
        if args.command == "learn":
            from .learn import run_lessons

            return run_lessons(console=console, read_line=input, first=args.lesson, list_only=args.list,
                               lang=args.lang or language_from_env())
        if args.command == "train-selfplay":
            return _train_selfplay(args)
        return _bench(args, console)
    except KeyboardInterrupt:
        console.print("\ninterrupted: bye")
        return 130


def _load_record(path: Path) -> tuple[Record | None, State | None, str, int]:
    """Read and replay a record: ``(record, state, "", 0)`` or ``(None, None, message, exit code)``:
    2 for a file that cannot be read or a malformed record (its line and field), 1 for an illegal
    move."""
    try:
        text = path.read_bytes()
    except OSError as e:
        return None, None, f"{path}: cannot read: {e.strerror}", 2
    try:
        record = loads(text)
        return record, replay(record), "", 0
    except RecordFormatError as e:
        return None, None, f"{path}: malformed record: {e}", 2
    except ReplayError as e:
        return None, None, f"{path}: {e}", 1


def _play(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console) -> int:
    from ..engine.position import practice_position
    from .terminal import play_game

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    start: State | None = None
    rules, players = args.rules, args.players
    if args.from_file is not None:
        if args.phase == "two" or args.trump:
            parser.error("--from starts where the record stops: it does not go with --phase or --trump")
        _, start, message, code = _load_record(args.from_file)
        if start is None:
            print(message, file=sys.stderr)
            return code
        rules, players = start.rules, start.players
    elif args.phase == "two":
        _check_play_table(parser, rules, players)
        suit = "CDHS".index(args.trump) if args.trump else None
        start = State.from_position(rules, practice_position(players, random.Random(seed), trump_suit=suit,
                                                                       decks=rules.decks))
    elif args.trump:
        parser.error("--trump goes with --phase two (in a whole game the last stock card names the trump)")
    _check_play_table(parser, rules, players)
    if not 0 <= args.seat < players:
        parser.error(f"--seat: seats are 0..{players - 1}")
    return play_game(rules, players, human_seat=args.seat, bot_names=args.bots, seed=seed,
                     record_dir=args.record, console=console, read_line=input,
                     open_hands=args.open, start=start, lang=args.lang or language_from_env())


def _single_hand(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console) -> int:
    """``play`` and ``simulate`` with ``--rules single-hand`` (catsatcards.com, Single Hand Skitgubbe)."""
    problem = singlehand_cli.check_table(args.players)
    if problem:
        parser.error(f"--players: {problem}")
    if args.command == "play":
        if args.open or args.phase != "one" or args.trump or args.from_file or args.record:
            parser.error("single-hand is played whole: --open, --phase, --trump, --from and --record "
                         "are for the Skitgubbe presets")
        if not 0 <= args.seat < args.players:
            parser.error(f"--seat: seats are 0..{args.players - 1}")
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
        return singlehand_cli.play(args.players, human_seat=args.seat, bot_names=args.bots, seed=seed,
                                   console=console, read_line=input)
    if args.command == "simulate":
        if args.record:
            parser.error("--record writes records of the Skitgubbe presets; single-hand has none")
        return _simulate(parser, args, console, game=SINGLE_HAND)
    parser.error(f"{args.command} is for the Skitgubbe presets; for single-hand use play or simulate")
    return 2  # pragma: no cover (parser.error exits)


def _hint(args: argparse.Namespace, console: Console) -> int:
    """``skitgubbe hint FILE``: the moves of the seat to act (or ``--seat``), each with why; for a
    finished deal, that it is over and who lost (exit 0).  Exit 2 for a seat that does not exist
    or a record that cannot be read, 1 for a record with an illegal move."""
    from .hint import hints

    _, state, message, code = _load_record(args.file)
    if state is None:
        print(message, file=sys.stderr)
        return code
    if args.seat is not None and not 0 <= args.seat < state.players:
        print(f"skitgubbe hint: there is no seat {args.seat} to give hints for "
              f"(seats 0..{state.players - 1})", file=sys.stderr)
        return 2
    if state.is_over:
        return _hint_over(state, args.json, console)
    seat = state.to_act if args.seat is None else args.seat
    if seat == CHANCE:
        message = ("nobody is to act: chance deals the dreck next (every seat's cards are dealt by a "
                   "shuffle); give --seat S to see what seat S may do")
        print(json.dumps([]) if args.json else message)
        return 0
    found = hints(state, seat)
    if args.json:
        print(json.dumps([{"move": str(h.action), "legal": h.legal, "reason": h.reason} for h in found],
                         indent=2))
        return 0
    console.print(f"seat {seat}, {Phase.NAMES[state.phase]}:")
    if not found:
        console.print("  nothing to do now: it is not this seat's turn")
    width = max((len(h.action.label()) for h in found), default=0)
    for h in found:
        mark = "yes" if h.legal else "no "
        console.print(f"  {mark}  {h.action.label():<{width}}  {h.reason}", markup=False)
    return 0


def _hint_over(state: State, as_json: bool, console: Console) -> int:
    """What ``hint`` says of a finished deal: over, who lost, the order the seats went out."""
    out = [f"seat {s}" for s in state.out_order]
    if as_json:
        print(json.dumps({"over": True, "loser": state.loser, "abandoned": state.abandoned,
                          "out_order": list(state.out_order)}, indent=2))
        return 0
    if state.loser is None:
        console.print("the deal is over: it was abandoned at the action limit, so nobody lost; "
                      "there are no moves left")
    else:
        console.print(f"the deal is over: seat {state.loser} lost (seat {state.loser} is "
                      f"{loser_title(state.rules)}); there are no moves left")
    if out:
        console.print("out in this order: " + ", ".join(out))
    return 0


def _simulate(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console,
              game: Game | None = None) -> int:
    """``simulate`` for the presets (``args.rules``), or for another ``game`` (Single Hand), whose
    table the caller has checked.  The same tables and JSON for both."""
    from ..batch.simulate import simulate, simulation_engine

    if game is None:
        _check_table(parser, args.rules, args.players)
    if args.games < 1:
        parser.error("--games must be at least 1")
    engine = getattr(args, "engine", "auto")
    try:  # an engine that cannot play the run is refused before --record makes its directory
        simulation_engine(game or args.rules, args.players, args.bots, records=bool(args.record),
                          engine=engine)
    except ValueError as e:
        console.print(f"error: {e}")
        return 2
    keep = None
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)
        counter = iter(range(args.games))

        def keep(record: Record) -> None:
            path = args.record / f"{args.rules.name}-{args.seed}-{next(counter)}.sgr"
            path.write_text(dumps(record), encoding="utf-8")

    err = Console(stderr=True, highlight=False)
    start = time.perf_counter()
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("games", total=args.games)
        backend = _ray_backend(parser, args)
        try:
            result = simulate(game or args.rules, args.players, args.games, args.bots, args.seed,
                              progress=lambda g: bar.advance(task), keep=keep, jobs=args.jobs or 1,
                              backend=backend, engine=engine)
        except ValueError as e:  # a bot name the game does not have (the presets' are checked by
            # argparse), or --engine compiled for a run the compiled engine cannot play
            console.print(f"error: {e}")
            return 2
        finally:
            if backend is not None:
                backend.close()
    seconds = time.perf_counter() - start
    data = result.to_dict()
    if args.json:
        print(json.dumps(data, indent=2))
    else:
        console.print(f"{result.game}, {result.players} players, {result.games} games, "
                      f"seed {result.seed}"
                      + (f", {result.abandoned} abandoned" if result.abandoned else "")
                      + f", {result.engine} engine")
        t = Table(title="loser rate per seat (95% interval)")
        for col in ("seat", "bot", "losses", "rate", "95% interval"):
            t.add_column(col, justify="right")
        for i in range(result.players):
            rate, low, high = result.seat_rate(i)
            t.add_row(str(i), result.bots[i], str(result.losses[i]), f"{rate:.1%}", f"{low:.1%} - {high:.1%}")
        console.print(t)
        t = Table(title="loser rate per bot (95% interval)")
        for col in ("bot", "seat-games", "losses", "rate", "95% interval"):
            t.add_column(col, justify="right")
        for name, (n, k, rate, low, high) in result.bot_rates().items():
            t.add_row(name, str(n), str(k), f"{rate:.1%}", f"{low:.1%} - {high:.1%}")
        console.print(t)
        for p, k in enumerate(result.partner_losses()):  # 3-player confusion: each player's two hands
            console.print(f"player {p} (seats {p} and {p + 3}): lost {k} ({k / result.games:.1%})")
        tricks = f", mean tricks per game {data['mean_tricks']:.1f}" if result.rules is not None else ""
        console.print(f"mean actions per game {data['mean_actions']:.1f}{tricks}, longest {result.longest}")
    err.print(f"{result.games / seconds:.1f} games per second")
    return 0


def _tournament(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console) -> int:
    from ..batch.tournament import entrant_labels, run_tournament

    _check_table(parser, args.rules, args.players)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    keep = None
    if args.record:
        args.record.mkdir(parents=True, exist_ok=True)

        def keep(deal: int, seating: int, record: Record) -> None:
            path = args.record / f"{args.rules.name}-{args.seed}-{deal}-{seating}.sgr"
            path.write_text(dumps(record), encoding="utf-8")

    checkpoint = None
    if args.checkpoint is not None:
        from ..batch.checkpoint import CheckpointError, TournamentCheckpoint

        try:
            checkpoint = TournamentCheckpoint(args.checkpoint, args.rules, args.players,
                                              entrant_labels(args.bots), args.seed)
        except (CheckpointError, OSError) as e:
            parser.error(f"--checkpoint: {e}")
    err = Console(stderr=True, highlight=False)
    with Progress(TextColumn("deals"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("deals", total=args.deals)
        backend = _ray_backend(parser, args)
        try:
            result = run_tournament(args.rules, args.players, args.bots, args.deals, args.seed,
                                    jobs=args.jobs, progress=lambda done: bar.update(task, completed=done),
                                    keep=keep, backend=backend,
                                    resume=checkpoint.deals if checkpoint else (),
                                    on_deal=checkpoint.append if checkpoint else None,
                                    engine=getattr(args, "engine", "auto"))
        except ValueError as e:  # --engine compiled for a run the compiled engine cannot play
            console.print(f"error: {e}")
            return 2
        except KeyboardInterrupt:
            if checkpoint is not None:
                err.print(f"stopped: {len(checkpoint.deals)} of {args.deals} deals are kept in "
                          f"{args.checkpoint}; the same command goes on from there")
            raise
        finally:
            if backend is not None:
                backend.close()
            if checkpoint is not None:
                checkpoint.close()
    timings = result.timings()
    if args.json:
        cpu = round(result.cpu_seconds, 3)
        print(json.dumps({**result.to_dict(), "timings": timings, "cpu_seconds": cpu}, indent=2))
        return 0
    games = len(result.games)
    console.print(f"{args.rules.name}, {args.players} players, {args.deals} deals x {len(result.seatings)} "
                  f"seatings = {games} games, seed {args.seed}, {result.engine} engine, "
                  + (f"{result.cpu_seconds:.1f} CPU seconds" if result.cpu_seconds < 600
                     else f"{result.cpu_seconds / 3600:.2f} CPU hours"))
    columns = ("bot", "seat-games", "losses", "loser rate", "95% interval", "mean place", "rating",
               "ms/move mean", "ms/move median", "ms/move p99")
    rows = []
    for row in result.rows():
        tm = timings[row.bot]
        rows.append((row.bot, str(row.seat_games), str(row.losses), f"{row.loser_rate:.1%}",
                     f"{row.low:.1%} - {row.high:.1%}", f"{row.mean_place:.2f}",
                     f"{row.mu:.1f} ± {row.sigma:.1f}", f"{tm['mean_ms']:.3g}", f"{tm['median_ms']:.3g}",
                     f"{tm['p99_ms']:.3g}"))
    print_table(console, "per bot (loser rate: mean over deals, 95% interval)", columns, rows)
    return 0


def print_table(console: Console, title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], *,
                wrap_last: bool = False) -> None:
    """Print a table so that nothing is cut: when ``console`` is not a terminal, as plain text columns
    at full width (no wrapping); on a terminal, as a ``rich`` table when it fits the width (with
    ``wrap_last`` the last column may wrap between words), else one block per row: the row's first
    cell, then each other cell under its column's name.  Numbers and other cells are right-aligned
    after the first column unless ``wrap_last``."""
    if not console.is_terminal:
        widths = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(columns)]
        console.print(title, markup=False, soft_wrap=True)

        def line(cells: Sequence[str]) -> str:
            parts = [cells[0].ljust(widths[0])]
            for i, cell in enumerate(cells[1:], start=1):
                parts.append(cell.ljust(widths[i]) if wrap_last else cell.rjust(widths[i]))
            return "  ".join(parts).rstrip()

        for cells in (columns, *rows):
            console.print(line(cells), markup=False, soft_wrap=True)
        return
    t = Table(title=title)
    for i, col in enumerate(columns):
        last = i == len(columns) - 1
        t.add_column(col, justify="left" if i == 0 or wrap_last else "right",
                     no_wrap=not (wrap_last and last), overflow="fold" if wrap_last and last else "ellipsis")
    for cells in rows:
        t.add_row(*cells)
    need = Measurement.get(console, console.options.update_width(1 << 20), t)  # unclamped by the width
    if (need.minimum if wrap_last else need.maximum) <= console.width:
        console.print(t)
        return
    console.print(Text(title, style="bold"))
    label = max(len(c) for c in columns[1:])
    for cells in rows:
        console.print(Text(cells[0], style="bold"), markup=False)
        for col, cell in zip(columns[1:], cells[1:], strict=True):
            console.print(Text(f"  {col.ljust(label)}  {cell}"))


def _state_summary(state: State) -> dict[str, object]:
    out: dict[str, object] = {
        "over": state.is_over,
        "moves": len(state.history),
        "phase": Phase.NAMES[state.phase],
    }
    if state.is_over:
        out["loser"] = state.loser
        out["out_order"] = list(state.out_order)
        out["abandoned"] = state.abandoned
        return out
    out["to_act"] = "chance" if state.to_act == CHANCE else state.to_act
    out["hands"] = {str(s): format_cards(h) for s, h in enumerate(state.hands)}
    out["stock"] = len(state.stock)
    if state.trump_suit >= 0:
        out["trump"] = "CDHS"[state.trump_suit]
    if state.phase == Phase.TWO:
        plays = zip(state.table_owners, state.table, strict=True)
        out["table"] = [f"{s}: {format_cards(p)}" for s, p in plays]
        out["kill_at"] = state.kill_at
    elif state.phase == Phase.ONE:
        out["trick"] = [[f"{s}: {format_cards(1 << c)}" for s, c in r] for r in state.rounds]
        out["sluffs"] = [f"{s}: {format_cards(1 << c)}" for s, c in state.sluffs]
    out["legal"] = {("chance" if s == CHANCE else str(s)): [str(a) for a in state.legal_actions(s)]
                    for s in state.acting_seats()}
    out["out_order"] = list(state.out_order)
    return out


def _replay(args: argparse.Namespace, console: Console) -> int:
    try:
        text = args.file.read_bytes()  # (loads reads the UTF-8; a bad byte is a malformed record)
    except OSError as e:
        print(f"{args.file}: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    try:
        record = loads(text)
        state = replay(record)
    except RecordFormatError as e:
        print(f"{args.file}: malformed record: {e}", file=sys.stderr)
        return 2
    except ReplayError as e:
        if args.json:
            print(json.dumps({"error": "illegal move", "index": e.index, "line": e.line, "seat": e.seat,
                              "move": None if e.action is None else str(e.action), "reason": e.reason}))
        else:
            print(f"{args.file}: {e}", file=sys.stderr)
        return 1
    data = _state_summary(state)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    console.print(f"{args.file}: {record.rules.name}, {record.players} players, "
                  f"{len(record.moves)} moves, all legal")
    if state.is_over:
        if state.loser is None:
            console.print("the game was abandoned at the action limit: no loser")
        else:
            console.print(f"loser: seat {state.loser}")
        console.print("out in this order: " + (", ".join(f"seat {s}" for s in state.out_order) or "nobody"))
        return 0
    console.print(f"the game goes on: {data['phase']}, to act: {data['to_act']}")
    for key in ("hands", "trick", "sluffs", "table"):
        if key in data:
            console.print(f"{key}: {data[key]}")
    console.print(f"stock: {data['stock']} cards" + (f", trump {data['trump']}" if "trump" in data else ""))
    legal = data["legal"]
    assert isinstance(legal, dict)
    for seat, moves in legal.items():
        console.print(f"seat {seat} may: " + ", ".join(moves))
    return 0


def _rules(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console) -> int:
    if args.rules_command == "list":
        t = Table(title="presets")
        for col in ("name", "players", "aliases"):
            t.add_column(col)
        for name, rules in PRESETS.items():
            aliases = ", ".join(a for a, target in ALIASES.items() if target == name)
            t.add_row(name, f"{rules.min_players}-{rules.max_players}", aliases)
        t.add_row(singlehand_cli.NAME, "3-8", "its own game: play and simulate only")
        console.print(t)
        return 0
    if args.rules_command == "diff":
        for name in (args.a, args.b):
            if singlehand_cli.is_single_hand(name):
                parser.exit(2, f"skitgubbe rules diff: {name} is its own game, not a set of options, so "
                               "there is nothing to compare; see "
                               f"'skitgubbe rules show {singlehand_cli.NAME}'\n")
        try:
            a, b = load_rules(args.a), load_rules(args.b)
        except ValueError as e:
            parser.exit(2, f"skitgubbe rules diff: {e}\n")
        lines = describe_diff(a, b)
        summary = f"{len(lines)} options differ" if lines else "the same rules"
        console.print(f"{a.name} and {b.name}: {summary}")
        for line in lines:
            console.print("  " + line)
        return 0
    if singlehand_cli.is_single_hand(args.name):  # its own game: its rules in short, no options
        if args.json:
            print(json.dumps(singlehand_cli.rules_summary(), indent=2))
        else:
            print_table(console, f"{singlehand_cli.NAME}: the rules in short", ("rule", "in short"),
                        singlehand_cli.RULES, wrap_last=True)
        return 0
    try:
        rules = load_rules(args.name)
    except ValueError as e:
        parser.exit(2, f"skitgubbe rules show: {e}\n")
    options = rules.options()
    if args.json:
        print(json.dumps(options, indent=2))
        return 0
    rows = [(key, str(value).lower() if isinstance(value, bool) else str(value), OPTION_HELP.get(key, ""))
            for key, value in options.items()]
    print_table(console, f"{rules.name}: every option, with its meaning", ("option", "value", "meaning"),
                rows, wrap_last=True)
    return 0


def _bench(args: argparse.Namespace, console: Console) -> int:
    from ..batch.bench import baseline_shuffles_per_second, bench_random_play, choose_engine
    from ..engine.compiled import UnsupportedError

    if (args.games is not None and args.games < 1) or args.rounds < 1:
        print("skitgubbe bench: --games and --rounds must be at least 1", file=sys.stderr)
        return 2
    tables = [(name, usual_players(preset)) for name, preset in PRESETS.items()]
    if args.engine == "compiled":  # only what the compiled engine plays; none: say why
        tables = [(name, n) for name, n in tables if choose_engine(PRESETS[name], n, "auto") == "compiled"]
        if not tables:
            try:
                choose_engine(PRESETS["pagat"], 3, "compiled")
            except UnsupportedError as e:
                print(f"skitgubbe bench: --engine compiled: {e}", file=sys.stderr)
            return 2
    baseline = baseline_shuffles_per_second()
    rows: list[dict[str, object]] = []
    for name, players in tables:
        engine = choose_engine(PRESETS[name], players, args.engine)
        games = args.games or (50_000 if engine == "compiled" else 500)
        runs = sorted((bench_random_play(find_variant(name), players, games, seed=k, engine=engine)
                       for k in range(args.rounds)), key=lambda r: r.games_per_second)
        best, median = runs[-1], runs[len(runs) // 2]
        rows.append({"rules": name, "players": players, "engine": engine, "games_per_round": games,
                     "rounds": args.rounds,
                     "best_games_per_second": round(best.games_per_second, 1),
                     "median_games_per_second": round(median.games_per_second, 1),
                     "median_actions_per_second": round(median.actions_per_second),
                     "mean_actions_per_game":
                         round(sum(r.actions for r in runs) / (games * args.rounds), 1),
                     "median_games_per_1000_baseline_shuffles":
                         round(1000 * median.games_per_second / baseline, 2)})
    if args.json:
        print(json.dumps({"baseline_shuffles_per_second": round(baseline), "results": rows}, indent=2))
        return 0
    sizes = ", ".join(f"{n} games with the {engine} engine" for engine, n in
                      sorted({(str(r["engine"]), int(str(r["games_per_round"]))) for r in rows}))
    t = Table(title=f"random play, one core, CPU time, {args.rounds} rounds of {sizes}")
    keys = ("rules", "players", "engine", "best_games_per_second", "median_games_per_second",
            "median_actions_per_second", "mean_actions_per_game", "median_games_per_1000_baseline_shuffles")
    for col in ("rules", "players", "engine", "games/s best", "games/s median", "actions/s median",
                "actions/game", "games per 1000 shuffles"):
        t.add_column(col, justify="right")
    for row in rows:
        t.add_row(*(str(row[k]) for k in keys))
    console.print(t)
    console.print(f"baseline: {baseline:,.0f} shuffles of a 52-card list per second on this machine")
    return 0


def _bot(args: argparse.Namespace, console: Console) -> int:
    """``skitgubbe bot add|list|remove``: the outside bots of a server's database (it may be running).
    Returns 0; 1 for a name refused or unknown, or a database that cannot be opened; 2 without the
    'server' extra."""
    try:
        from sqlalchemy import create_engine
        from sqlalchemy.exc import SQLAlchemyError

        from ..server.ladder import BotBook
        from ..server.protocol import ProtocolError
        from ..server.store import DEFAULT_DB_URL
    except ImportError as e:
        console.print(f"error: bots need the 'server' extra (pip install 'skitgubbe[server]'): {e}",
                      markup=False)
        return 2
    try:
        engine = create_engine(args.db or DEFAULT_DB_URL, future=True)
        book = BotBook(engine)
        if args.bot_command == "add":
            token = book.add_bot(args.name)
            console.print(f"bot {args.name} registered; its token (shown only now, keep it secret):",
                          markup=False)
            console.print(token, markup=False)
        elif args.bot_command == "remove":
            if not book.remove_bot(args.name):
                console.print(f"error: no bot called {args.name!r} is registered", markup=False)
                return 1
            console.print(f"bot {args.name} removed", markup=False)
        else:
            bots = book.bots()
            for name, _ in bots:
                console.print(name, markup=False)
            if not bots:
                console.print("no bots are registered", markup=False)
        engine.dispose()
    except ProtocolError as e:
        console.print(f"error: {e}", markup=False)
        return 1
    except SQLAlchemyError as e:
        console.print(f"error: the database {args.db or DEFAULT_DB_URL!r} cannot be used: {e}", markup=False)
        return 1
    return 0


def _serve(args: argparse.Namespace, console: Console) -> int:
    """``skitgubbe serve``: the server is imported only here, so the rest works without the extra.
    Returns 1 (a message, no traceback) when the database cannot be opened."""
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from ..server.app import serve
        from ..server.store import DEFAULT_DB_URL
    except ImportError as e:
        console.print(f"error: the server needs the 'server' extra (pip install 'skitgubbe[server]'): {e}",
                      markup=False)
        return 2
    from ..server.hub import Limits

    given = {"rooms_per_client": args.rooms_per_client,
             "connections_per_client": args.connections_per_client, "max_rooms": args.max_rooms,
             "idle_after": args.idle_after, "finished_after": args.finished_after}
    for key, value in given.items():
        if value is not None and value < 0:
            console.print(f"error: --{key.replace('_', '-')} must be 0 or more, not {value}", markup=False)
            return 2
    leases = {"renew_every": args.renew_every, "lease_expiry": args.lease_expiry}
    limits = Limits(**{k: v for k, v in given.items() if v is not None},
                    **{k: v for k, v in leases.items() if v is not None})
    if not 0 < limits.renew_every < limits.lease_expiry:
        console.print(f"error: --renew-every must be more than 0 and less than --lease-expiry, not "
                      f"{limits.renew_every:g} and {limits.lease_expiry:g}", markup=False)
        return 2
    from ..server.app import public_origin, trusted_proxies

    try:
        trusted_proxies(args.trust_proxy)
    except ValueError as e:
        console.print(f"error: --trust-proxy: {e}", markup=False)
        return 2
    for url in args.public_url:
        try:
            public_origin(url)
        except ValueError as e:
            console.print(f"error: --public-url: {e}", markup=False)
            return 2
    db = args.db or DEFAULT_DB_URL
    console.print(f"skitgubbe server on http://{args.host}:{args.port}/ (database {db.split('@')[-1]}); "
                  "Ctrl-C stops it", markup=False)
    try:
        return serve(db, host=args.host, port=args.port, bot_workers=args.bot_workers,
                     bot_delay=args.bot_delay, limits=limits, allowed_origins=args.allow_origin,
                     public_urls=args.public_url, trust_proxy=args.trust_proxy, log_level=args.log_level,
                     worker=args.worker)
    except SQLAlchemyError as e:
        console.print(f"error: not started: could not open the database {db.split('@')[-1]}: {e}",
                      markup=False)
        return 1


def _cluster(args: argparse.Namespace, console: Console) -> int:
    """``skitgubbe cluster``: HAProxy and ``--workers`` ``skitgubbe serve`` processes until Ctrl-C."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..server.cluster import ProxyLimits, run_cluster

    if args.connections_per_client < 0 or args.rooms_per_client < 0:
        console.print("error: --connections-per-client and --rooms-per-client must be 0 or more",
                      markup=False)
        return 2
    extra = [o for o in args.serve_options if o != "--"]
    limits = ProxyLimits(connections=args.connections_per_client, rooms=args.rooms_per_client)
    console.print(f"skitgubbe: HAProxy on http://{args.host}:{args.port}/ in front of {args.workers} workers "
                  f"(127.0.0.1:{args.port + 1}..{args.port + args.workers}, "
                  f"database {args.db.split('@')[-1]}); "
                  "Ctrl-C stops them all", markup=False)
    try:
        return run_cluster(args.db, workers=args.workers, port=args.port, host=args.host,
                           worker_options=extra, limits=limits)
    except (ValueError, FileNotFoundError) as e:
        console.print(f"error: {e}", markup=False)
        return 2
    except SQLAlchemyError as e:
        console.print(f"error: not started: could not open the database {args.db.split('@')[-1]}: {e}",
                      markup=False)
        return 1


# -- study and the backends (issue 19) -------------------------------------------------------


def _backend_args(q: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--address`` of the commands that run many deals."""
    q.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="where the deals run: local processes (default; --jobs) or a Ray cluster "
                   "(extra 'cluster'); the results do not depend on it")
    q.add_argument("--address", metavar="ADDR", default=None,
                   help="with --backend ray: the head of a running cluster, HOST:PORT or 'auto'; "
                   "default: start Ray on this machine for this run")


def _study_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..batch.study import DEFAULT_DEALS, STUDIES

    q = sub.add_parser("study", help="answer a rule text's claim by simulation: figure, table, answer "
                       "(extra 'study'); 'all' also writes an HTML report")
    q.add_argument("name", choices=(*STUDIES, "all"), metavar="NAME",
                   help=f"a study ({', '.join(STUDIES)}) or 'all'")
    q.add_argument("--out", type=Path, required=True, metavar="DIR", help="write the files into DIR")
    q.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                   help=f"deals per configuration (some studies play 5 times as many); "
                   f"default {DEFAULT_DEALS}")
    q.add_argument("--seed", type=int, default=0, help="seed; the same seed gives the same results")
    q.add_argument("--jobs", type=int, default=None,
                   help="worker processes (local), or CPUs of a Ray started here; default all cores")
    q.add_argument("--engine", choices=("auto", "python"), default="auto",
                   help="auto (the default): a configuration whose bots are all compiled ones (random, "
                        "heuristic) is played by the compiled engine where it plays the rules, the others "
                        "by the Python engine; the results are the same either way (docs/study.md)")
    _backend_args(q)
    q.add_argument("--json", action="store_true", help="print the results as JSON")


def _make_backend(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Backend:
    """The backend the command line asks for; exits with a usage error for a bad combination."""
    from ..batch.backend import make_backend

    if args.address and args.backend != "ray":
        parser.error("--address is for --backend ray")
    if getattr(args, "jobs", None) is not None and args.jobs < 1:
        parser.error("--jobs must be at least 1")
    try:
        return make_backend(args.backend, jobs=getattr(args, "jobs", None), address=args.address)
    except (RuntimeError, ConnectionError) as e:  # Ray not installed; no cluster at --address
        parser.error(str(e))


def _ray_backend(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Backend | None:
    """``simulate`` and ``tournament``: a Ray backend for ``--backend ray``, else None (the
    command's own ``--jobs`` processes)."""
    if args.backend == "local" and not args.address:
        return None
    return _make_backend(parser, args)


def _study(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console) -> int:
    """``study NAME|all``: run the studies, write their files (and the report for 'all')."""
    from ..batch.study import STUDIES, run_study

    if args.deals < 1:
        parser.error("--deals must be at least 1")
    from ..batch.study.report import write_report, write_study

    if importlib.util.find_spec("matplotlib") is None:  # checked before any deal is played
        parser.error("study draws its figures with matplotlib: pip install 'skitgubbe[study]'")
    names = list(STUDIES) if args.name == "all" else [args.name]
    backend = _make_backend(parser, args)
    err = Console(stderr=True, highlight=False)
    results, files = [], {}
    start = time.perf_counter()
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("deals"), TimeRemainingColumn(), console=err, transient=True,
                      disable=not err.is_terminal) as bar:
            for name in names:
                task = bar.add_task(name, total=None)

                def advance(done: int, total: int, task: TaskID = task) -> None:
                    bar.update(task, completed=done, total=total)

                result = run_study(name, backend, deals=args.deals, seed=args.seed, progress=advance,
                                   engine=args.engine)
                results.append(result)
                files[name] = [str(p) for p in write_study(result, args.out)]
    finally:
        backend.close()
    seconds = time.perf_counter() - start
    report = None
    if args.name == "all":
        report = write_report(results, args.out, command=f"skitgubbe study all --deals {args.deals} "
                              f"--seed {args.seed}")
    if args.json:
        print(json.dumps({"studies": [{**r.to_dict(), "files": files[r.name]} for r in results],
                          "report": str(report) if report else None}, indent=2))
    else:
        for r in results:
            console.print(f"[bold]{r.title}[/bold] ({r.name}; {r.source})")
            console.print(r.answer)
            console.print(f"files: {', '.join(files[r.name])}\n")
        if report:
            console.print(f"report: {report}")
    err.print(f"{len(results)} stud{'y' if len(results) == 1 else 'ies'} in {seconds:.0f} s "
              f"({backend.name} backend, engine {args.engine})")
    return 0


# -- skitgubbe evaluate ------------------------------------------------------------------------


def _evaluate_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``evaluate`` subcommand's arguments (see :func:`_evaluate`)."""
    from ..batch.evaluate import DEFAULT_DEALS as EVAL_DEALS
    from ..batch.evaluate import LADDER

    q = sub.add_parser("evaluate", help="rate an agent against the bot ladder on the fixed, versioned deal "
                       "set (docs/research.md, 'Evaluating your agent')")
    from ..adapters.agents import AGENT_KINDS

    q.add_argument("--agent", required=True, metavar="MODULE:FACTORY",
                   help="the agent: MODULE:FACTORY (a module or a .py file, and a function or class "
                   "called with no arguments that returns it, or the agent itself), FILE.py (its name "
                   "'agent'), or a bot name for a reference row")
    q.add_argument("--kind", "--agent-kind", dest="kind", default="auto", choices=AGENT_KINDS,
                   help="what the agent is: a bot, a callable (view, legal) -> Action or view -> Action, "
                   "a policy (observation, action_mask) -> action id, a PettingZoo policy (observation "
                   "dict) -> action id, an OpenSpiel rl agent (step(time_step)) or a list or factory "
                   "player_id -> agent of them, a pyspiel.Bot (or a factory player_id -> pyspiel.Bot); "
                   "default auto (a policy, a PettingZoo callable and a factory are never guessed)")
    q.add_argument("--compact-actions", action="store_true",
                   help="the policy answers indices of the preset's compact action space (an OpenSpiel "
                   "agent: its game was loaded with compact_actions=True)")
    q.add_argument("--use-observation", action="store_true",
                   help="an OpenSpiel agent reads the observation tensor, not the information state "
                   "(rl_environment's use_observation=True)")
    q.add_argument("--auto-forced", action="store_true",
                   help="an OpenSpiel agent is not asked when it has a single legal action "
                   "(auto_forced=True)")
    q.add_argument("--rules", type=_evaluate_rules, default=find_variant("pagat"),
                   help="preset name or a house-rules .toml file; default pagat")
    q.add_argument("--players", type=int, default=None, help="seats; default the preset's usual table")
    q.add_argument("--deals", type=int, default=EVAL_DEALS,
                   help=f"the first DEALS deals of the set, each in every seat; default {EVAL_DEALS}")
    q.add_argument("--ladder", type=_bots_arg, default=list(LADDER),
                   help=f"rungs, comma separated bot names; default {','.join(LADDER)}")
    q.add_argument("--jobs", type=int, default=1,
                   help="processes (the agent is copied into each: it must pickle); default 1")
    q.add_argument("--engine", choices=("auto", "python", "compiled"), default="auto",
                   help="auto (the default): a rung's bots decide in compiled code when the compiled engine "
                        "plays the rules and the bot (random, heuristic), else in Python; the results are "
                        "the same either way (docs/performance.md)")
    q.add_argument("--json", action="store_true", help="print as JSON")
    _backend_args(q)


def _evaluate_rules(text: str) -> Rules:
    try:
        return load_rules(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _load_agent(spec: str) -> object:
    """The agent ``spec`` names: ``MODULE:FACTORY`` (a module name or a ``.py`` path), the object
    called if it is a class or a function of no arguments (else it is the agent itself); a ``.py``
    path alone is ``PATH:agent``; another spec without ``:`` is a bot name.  Raises ``ValueError``
    saying what failed."""
    if ":" not in spec and spec.endswith(".py"):
        spec += ":agent"
    if ":" not in spec:
        return make_bot(spec, random.Random(0))
    module_name, _, attr = spec.rpartition(":")
    import importlib

    try:
        if module_name.endswith(".py"):
            loc = importlib.util.spec_from_file_location(Path(module_name).stem, module_name)
            if loc is None or loc.loader is None:
                raise ImportError(f"cannot load {module_name}")
            module = importlib.util.module_from_spec(loc)
            loc.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except (ImportError, OSError) as e:
        raise ValueError(f"--agent {spec}: cannot import {module_name}: {e}") from None
    if not hasattr(module, attr):
        raise ValueError(f"--agent {spec}: {module_name} has no {attr!r}")
    obj = getattr(module, attr)
    if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "choose") and _takes_no_arguments(obj)):
        obj = obj()
    return obj


def _takes_no_arguments(fn: object) -> bool:
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def _openspiel_game(rules: Rules, players: int, agent: object, kind: str) -> object:
    """The ``python_skitgubbe`` game of ``rules`` for a ``pyspiel.Bot`` agent (its states' ``get_game``),
    else None (also for rules that are not a preset)."""
    pyspiel = sys.modules.get("pyspiel")
    is_bot = pyspiel is not None and isinstance(agent, pyspiel.Bot)
    if not (is_bot or kind == "pyspiel") or rules.name not in PRESETS:
        return None
    import pyspiel as loaded  # type: ignore[import-not-found, import-untyped, unused-ignore]

    from ..adapters import openspiel  # registers python_skitgubbe

    return loaded.load_game(f"{openspiel.GAME_NAME}(rules={rules.name},players={players})")


def _evaluate(parser: argparse.ArgumentParser, args: argparse.Namespace, console: Console) -> int:
    """``skitgubbe evaluate``: :func:`skitgubbe.batch.evaluate.evaluate` of the agent, as a table or JSON."""
    from ..adapters.agents import as_bot
    from ..adapters.encoding import rules_action_ids
    from ..batch.evaluate import evaluate

    _check_table(parser, args.rules, args.players)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    try:
        loaded = _load_agent(args.agent)
        own = getattr(loaded, "name", None)
        compact = args.compact_actions
        agent = as_bot(loaded, kind=args.kind, name=own if isinstance(own, str) else args.agent,
                       action_ids=rules_action_ids(args.rules) if compact else None,
                       game=_openspiel_game(args.rules, args.players, loaded, args.kind),
                       compact_actions=compact, auto_forced=args.auto_forced,
                       observation="observation" if args.use_observation else "info_state")
        check = getattr(agent, "check", None)
        if callable(check):
            check(args.rules, args.players)
    except (ValueError, TypeError, ImportError) as e:
        parser.error(str(e))
    err = Console(stderr=True, highlight=False)
    total = args.deals * len(args.ladder)
    with Progress(TextColumn("deals"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:
        task = bar.add_task("deals", total=total)
        finished: dict[str, int] = {}

        def progress(rung: str, done: int) -> None:
            finished[rung] = done
            bar.update(task, completed=sum(finished.values()))

        backend = _ray_backend(parser, args)
        try:
            result = evaluate(agent, args.rules, args.players, deals=args.deals, ladder=args.ladder,
                              jobs=args.jobs, progress=progress, backend=backend, engine=args.engine)
        except (TypeError, ValueError) as e:  # an agent that cannot be copied; --engine compiled refused
            parser.error(str(e))
        finally:
            if backend is not None:
                backend.close()
    if args.json:
        data = result.to_dict()
        data["agent_ms"] = {r.rung: r.agent_ms for r in result.rungs}
        print(json.dumps(data, indent=2))
        return 0
    console.print(f"{result.agent} ({result.kind}) on {args.rules.name}, {args.players} players: deal set "
                  f"{result.version}, "
                  f"deals 0..{args.deals - 1} in every seat = {args.deals * args.players} games per rung "
                  f"(digest {result.digest[:12]})")
    columns = ("rung", "games", "losses", "loser rate", "95% interval", "rating", "95% interval",
               "agent ms/move", "rung engine")
    rows = [(r.rung, str(r.games), str(r.losses), f"{r.loser_rate:.1%}", f"{r.low:.1%} - {r.high:.1%}",
             f"{r.rating:+.0f}", f"{r.rating_low:+.0f} - {r.rating_high:+.0f}", f"{r.agent_ms:.3g}",
             r.engine)
            for r in result.rungs]
    print_table(console, f"per rung (a fair share of losses is {1 / args.players:.1%}; rating: Elo points "
                "above the rung's bot, 0 = as strong)", columns, rows)
    return 0


# -- skitgubbe train-selfplay ------------------------------------------------------------------


def _train_selfplay_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``train-selfplay`` subcommand's arguments (see :func:`_train_selfplay`)."""
    q = sub.add_parser("train-selfplay", help="train the self-play agent (bot 'selfplay') by deep "
                       "Monte-Carlo on the batch engine (extra 'train'; docs/research.md)")
    q.add_argument("--preset", choices=("pagat", "goat"), default="pagat", help="the game; default pagat")
    q.add_argument("--players", type=int, default=3, help="seats (pagat 2-4, goat 3-8); default 3")
    q.add_argument("--minutes", type=float, default=30.0, help="wall-clock budget in minutes; default 30")
    q.add_argument("--max-updates", type=int, default=None,
                   help="stop after this many training steps (reproducible exactly; default: the budget)")
    q.add_argument("--seed", type=int, default=0, help="seeds the deals, exploration and weights; default 0")
    q.add_argument("--out", required=True, metavar="FILE",
                   help="the weights file (JSON); its models of other presets are kept")
    q.add_argument("--envs", type=int, default=128, help="deals stepped together; default 128")
    q.add_argument("--hidden", default="256,128", help="the two hidden widths; default 256,128")
    q.add_argument("--lr", type=float, default=1e-3, help="Adam's step size; default 0.001")
    q.add_argument("--batch", type=int, default=2048, help="samples a training step; default 2048")
    q.add_argument("--epsilon", default="0.05,0.01",
                   help="exploration rate at the start and the end of the budget; default 0.05,0.01")
    q.add_argument("--sample", type=float, default=0.25,
                   help="the chance that a decision is a training sample; default 0.25")
    q.add_argument("--log-seconds", type=float, default=30.0, help="seconds between progress lines")


def _train_selfplay(args: argparse.Namespace) -> int:
    """``skitgubbe train-selfplay``: :func:`skitgubbe.adapters.selfplay.train`; exit status 2 with a
    message for bad arguments or a missing extra."""
    try:
        hidden = tuple(int(h) for h in args.hidden.split(","))
        eps = tuple(float(e) for e in args.epsilon.split(","))
        if len(hidden) != 2 or len(eps) != 2:
            raise ValueError
    except ValueError:
        print("skitgubbe train-selfplay: --hidden is two integers (256,128) and --epsilon two chances "
              "(0.05,0.01)", file=sys.stderr)
        return 2
    try:
        from ..adapters.selfplay import train

        train(args.preset, args.players, out=args.out, minutes=args.minutes, seed=args.seed,
              n_envs=args.envs, hidden=(hidden[0], hidden[1]), lr=args.lr, batch=args.batch,
              epsilon_start=eps[0], epsilon_end=eps[1], sample_rate=args.sample, max_updates=args.max_updates,
              log_seconds=args.log_seconds, log=lambda line: print(line, flush=True),
              command="skitgubbe " + " ".join(sys.argv[1:]))
    except (ImportError, ValueError) as e:
        print(f"skitgubbe train-selfplay: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
