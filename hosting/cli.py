"""The ``croupier`` command: one console script, one subcommand per job (DESIGN.md "The shape")."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any, NoReturn

from engine.variants import VARIANTS, game_name

Handler = Callable[[argparse.Namespace], int]
LOG_LEVELS = ("debug", "info", "warning", "error")  # as hosting.logging_setup.LEVELS (not imported: keep --help fast)


def phh_games_words() -> str:
    """The games and structures PHH names (engine.variants' phh_codes), in words: what ``--format phh`` keeps.

    >>> phh_games_words()[:70]
    "no-limit and fixed-limit Texas Hold'em, no-limit Short Deck Hold'em, p"
    """
    games = [" and ".join(structure.replace("_", "-") for structure, _ in variant.phh_codes)  # no_limit: no-limit
             + f" {variant.name}" for variant in VARIANTS.values() if variant.phh_codes]
    return ", ".join(games[:-1]) + " and " + games[-1]


def _version() -> str:
    try:
        return metadata.version("croupier")
    except metadata.PackageNotFoundError:
        return "0.1.0 (not installed)"


class OneLineParser(argparse.ArgumentParser):
    """argparse with its errors on one line (``croupier host: argument --port: … (see `croupier host --help`)``),
    exit status 2, instead of the whole usage block above the error. Subcommand parsers inherit it."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def port_number(text: str) -> int:
    """``--port``: a TCP port, 1–65535, or 0 for any free port (the banner shows the one chosen).

    Anything else is refused by the parser, so no room opens on a port other than the one asked for.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number from 1 to 65535, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be from 1 to 65535 (or 0 for any free port), got {value}")
    return value


def _not_built(name: str) -> Handler:
    def handler(arguments: argparse.Namespace) -> int:
        print(f"croupier {name}: not built yet in this version.", file=sys.stderr)
        return 2

    return handler


def _command(name: str) -> Handler:
    """Run ``hosting/commands/<name>.py``'s ``run(arguments) -> int``; a command with no module is not built."""

    def handler(arguments: argparse.Namespace) -> int:
        module_name = f"hosting.commands.{name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            return _not_built(name)(arguments)
        result: int = module.run(arguments)
        return result

    return handler


DATA_HELP = "the room's data directory (default: your user data directory, ~/.local/share/croupier on Linux)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand; each sets ``handler`` in its namespace.

    Every option has a one-line help and every subcommand a one-line summary that fits ``croupier --help``.
    """
    parser = OneLineParser(
        prog="croupier",
        description="A poker room in the terminal. Host a room over SSH, or practise against bots.",
        epilog="Run `croupier COMMAND --help` for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"croupier {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser(
        "play", help="practise now against bots in this terminal (no SSH)",
        description="Start a practice table inside this process: bots of a few styles, you seated, the "
                    "table on screen. Keys: F fold, C check/call, R bet/raise, A all-in, ? help, Ctrl+Q quit.")
    play.add_argument("--game", default="texas_holdem",
                      help=", ".join(f"{game} ({game_name(game)})" for game in VARIANTS) + "; default texas_holdem")
    play.add_argument("--structure", default=None,
                      help="no_limit, pot_limit, half_pot_limit, fixed_limit, spread_limit (default: no_limit "
                           "for hold'em, pot_limit for the Omahas, fixed_limit for the others)")
    play.add_argument("--players", type=int, default=None,
                      help="seats at the table, you included (default 6, or the most the game seats if fewer); "
                           "with --tournament: sng 6 or 9, mtt 10-1000 (default 45)")
    play.add_argument("--tournament", choices=("sng", "spin", "mtt"), default=None,
                      help="practise a tournament against bots: a Sit & Go (sng), a Spin, or a multi-table "
                           "tournament (mtt) with turbo levels")
    play.add_argument("--stakes", default="1/2", metavar="SB/BB", help="small/big blind in chips (default 1/2)")
    play.add_argument("--data", metavar="DIR",
                      help="where play.log and the practice folder go (default: your user data directory)")
    play.add_argument("--log-level", choices=LOG_LEVELS, type=str.lower, default=None,
                      help="log file detail (default info, or $CROUPIER_LOG_LEVEL)")
    play.add_argument("--seed", type=int, default=None, help="seed the bots' choices (the same game every run)")
    play.add_argument("--fast", action="store_true", help="bots act at once, without thinking pauses")
    play.add_argument("--fast-fold", action="store_true",
                      help="a fast-fold pool instead of one table: fold and you are dealt a fresh hand at once")
    play.add_argument("--mixed", choices=("horse", "hose", "eight_game"), default=None,
                      help="a mixed game instead of one: HORSE (limit hold'em, Omaha hi/lo, razz, stud, stud hi/lo), "
                           "HOSE, or the 8-game mix, changing game every orbit (or --every hands)")
    play.add_argument("--every", type=int, default=None, metavar="HANDS",
                      help="with --mixed: hands of each game (default: an orbit, one hand per player)")
    play.set_defaults(handler=_command("play"))

    host = commands.add_parser(
        "host", help="run a room friends join over SSH; prints the line to share",
        description="Open a poker room on this machine: friends join with plain `ssh -p PORT name@host` or "
                    "`croupier join`; their SSH key is their account. Prints the line to share and the host key "
                    "fingerprint; Ctrl+C closes the room.")
    host.add_argument("--port", type=port_number, default=2222,
                      help="TCP port to listen on, 1-65535 (default 2222; 0 picks a free one)")
    host.add_argument("--listen", metavar="ADDRESS", default="",
                      help="the one address to listen on, e.g. 127.0.0.1 or a LAN address (default: all interfaces)")
    host.add_argument("--config", metavar="room.toml",
                      help="room file: name, tables, stakes, access (default: six built-in tables)")
    host.add_argument("--data", metavar="DIR", help=DATA_HELP + "; one room per directory")
    host.add_argument("--log-level", choices=LOG_LEVELS, type=str.lower, default=None,
                      help="host.log detail (default info, or $CROUPIER_LOG_LEVEL)")
    host.set_defaults(handler=_command("host"))

    join = commands.add_parser(
        "join", help="join a room from this terminal: [user@]host[:port]",
        description="Open the table screen here and connect to a room over SSH with your keys from ~/.ssh and "
                    "the SSH agent. On the first visit the room's host key fingerprint is shown to confirm.")
    join.add_argument("address", metavar="[user@]host[:port]",
                      help="the room (port 2222 and your login name unless given), e.g. ana@poker.example:2300")
    join.set_defaults(handler=_command("join"))

    bots = commands.add_parser(
        "bots", help="connect bot players to a room over SSH; one JSON line of results",
        description="Connect N bots (fresh keys) to a room, seat them, play H hands, verify every shuffle, then "
                    "print one JSON line: players, hands, fairness_verified, fairness_failures, p50_ms, p99_ms…")
    bots.add_argument("--connect", metavar="HOST:PORT", required=True, help="the room, e.g. localhost:2222")
    bots.add_argument("--count", type=int, default=4, help="how many bots (at least 2; default 4)")
    bots.add_argument("--hands", type=int, default=100, help="hands to play at each table (default 100)")
    bots.add_argument("--table", metavar="ID",
                      help="sit at this table, or join this fast-fold pool (default: the hold'em tables in order)")
    bots.add_argument("--tournament", metavar="ID",
                      help="register for this tournament and play it to its end (instead of tables; --hands unused)")
    bots.add_argument("--style", choices=("tight", "steady", "loose", "aggressive", "mixed"), default=None,
                      help="play by hand strength and pot odds in this style (default: fast random play)")
    bots.add_argument("--seed", type=int, default=None, help="seed the bots' choices (reproducible play)")
    bots.add_argument("--think", metavar="MIN-MAX", default="0",
                      help="seconds each bot thinks before a move, uniform in MIN-MAX (e.g. 1-4; default 0: at once)")
    bots.add_argument("--password", metavar="TEXT", help="the room password, if the room has one")
    bots.add_argument("--invite", metavar="CODE", help="an invite code, if the room asks new names for one")
    bots.set_defaults(handler=_command("bots"))

    replay = commands.add_parser(
        "replay", help="replay PHH hand records through the engine",
        description="Replay PHH hand records through the engine; one JSON line per hand, then a summary line.")
    replay.add_argument("paths", nargs="+", metavar="FILE_OR_DIR",
                        help="a .phh/.phhs file, or a directory searched for them")
    replay.set_defaults(handler=_command("replay"))

    verify = commands.add_parser(
        "verify", help="re-check the shuffle proofs of exported hand histories",
        description="Check every hand of an exported history against its fairness transcript: seeds, "
                    "commitments and every card shown; a host-blind hand's signed transcript in full (signatures, "
                    "every shuffle and share proof, every card, action and amount). Exit 0 when all check out, "
                    "1 otherwise.")
    verify.add_argument("history", metavar="FILE", help="a file written by `croupier export` (either format), or "
                        "a host-blind hand's signed transcript")
    verify.add_argument("--host-key", metavar="FINGERPRINT", default=None,
                        help="host-blind hands: the room's host key fingerprint (SHA256:…, as `croupier join` and "
                             "known_hosts show it); the transcript must be signed by it")
    verify.set_defaults(handler=_command("verify"))

    export = commands.add_parser(
        "export", help="write hand histories for trackers (PokerStars text or PHH)",
        description="Write the room's finished hands, each with its fairness transcript (for trackers and "
                    "`croupier verify`). Reads the data directory; a running host is fine. PHH names only "
                    f"{phh_games_words()}: --format phh leaves out the hands of other games and structures "
                    "(spread limit, pot-limit hold'em, 5-card Omaha, 5-card draw...) and hands with a dead blind, "
                    "and says at the end how many of each kind; --format pokerstars writes every hand. "
                    "`croupier replay` reads the PHH file back.")
    export.add_argument("--data", metavar="DIR", help=DATA_HELP)
    export.add_argument("--format", choices=("pokerstars", "phh"), default="pokerstars",
                        help="pokerstars: PokerStars-style text, every game (default); phh: PHH, the games it names")
    export.add_argument("--player", metavar="NAME", help="only hands NAME played, as NAME saw them")
    export.add_argument("--since", metavar="DATE", help="only hands started on or after DATE (YYYY-MM-DD[THH:MM], UTC)")
    export.add_argument("--tournament", metavar="ID",
                        help="the tournament's summary instead (places and prizes, as PokerStars writes it), with "
                             "its draws' proofs for `croupier verify`; --player: his copy")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    export.set_defaults(handler=_command("export"))

    audit = commands.add_parser(
        "audit", help="check a room's chips, ledger and shuffle proofs",
        description="Check chip conservation, the ledger and every hand's shuffle proof; one line per finding. "
                    "Read-only: a running host is fine. Exit 0 clean, 1 findings, 2 unreadable.")
    audit.add_argument("--data", metavar="DIR", help=DATA_HELP)
    audit.set_defaults(handler=_command("audit"))

    reports = commands.add_parser(
        "reports", help="list the hands players reported for review",
        description="List the hands players flagged for review (id, time, reporter, hand, reason).")
    reports.add_argument("--data", metavar="DIR", help=DATA_HELP)
    reports.add_argument("--show", metavar="ID", type=int, help="print report ID with its full hand history")
    reports.set_defaults(handler=_command("reports"))

    rake = commands.add_parser(
        "rake", help="list the rake tables and presets a room file can name",
        description="List the rulebooks' rake tables (rake = \"white-label\", \"Caradepoker\": a row per structure "
                    "and stakes) and every named preset with its rate, caps by players dealt in, minimum and "
                    "small-pot rate (R-RAKE-1). Amounts in chips.")
    rake.set_defaults(handler=_command("rake"))

    jackpot = commands.add_parser(
        "jackpot", help="list the jackpot pools; jackpot seed POOL CHIPS adds to one",
        description="List the room's jackpot pools (bad beat per game family, Monte-Carlo, smart) and their chips, "
                    "or `croupier jackpot seed POOL CHIPS` to add chips to one while the room is stopped "
                    "(ledgered as new chips issued into that pool).")
    jackpot.add_argument("--data", metavar="DIR", help=DATA_HELP)
    jackpot_actions = jackpot.add_subparsers(dest="action", metavar="ACTION",
                                             help="seed: add chips to a pool (none: list the pools)")
    seed = jackpot_actions.add_parser("seed", help="add CHIPS to POOL (e.g. bad_beat_holdem 10000)",
                                      description="Add CHIPS new chips to jackpot pool POOL; one ledger row.")
    seed.add_argument("pool", metavar="POOL", help="bad_beat_holdem, bad_beat_omaha, bad_beat_five_card_draw, "
                                                   "monte_carlo_holdem or smart_holdem")
    seed.add_argument("chips", metavar="CHIPS", help="whole chips, more than 0")
    seed.add_argument("--data", metavar="DIR", help=DATA_HELP, default=argparse.SUPPRESS)  # keeps jackpot's --data
    jackpot.set_defaults(handler=_command("jackpot"))
    _add_host_commands(commands)
    return parser


def _add_host_commands(commands: Any) -> None:
    """``croupier ledger`` (the settle-up) and ``croupier admin`` (the host console's command line)."""
    ledger = commands.add_parser(
        "ledger", help="settle up a night: buy-ins, cash-outs, nets, who pays whom",
        description="Each player's buy-ins, top-ups, host adjustments, cash-outs and net over a session of the "
                    "room (from its opening to its close, or a night the host named with `croupier admin "
                    "night`), then who pays whom in the fewest transfers. Read-only: a running room is fine.")
    ledger.add_argument("--data", metavar="DIR", help=DATA_HELP)
    ledger.add_argument("--session", metavar="NAME|NUMBER", help="a session's name or number (default: the latest)")
    ledger.add_argument("--format", choices=("text", "csv"), default="text",
                        help="text (default) or csv: a row per player with net in chips, then the transfers")
    ledger.add_argument("--list", action="store_true", help="list the sessions instead")
    ledger.set_defaults(handler=_command("ledger"))
    from hosting.admin_parser import add_admin  # the admin command's many actions, in their own module

    add_admin(commands, DATA_HELP, _command("admin"))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``croupier`` console script; returns the exit status."""
    parser = build_parser()
    arguments, extras = parser.parse_known_args(argv)
    if extras:  # named by the subcommand that got them: `croupier play: unrecognized arguments: --bogus`
        commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
        commands.choices.get(arguments.command, parser).error(f"unrecognized arguments: {' '.join(extras)}")
    handler: Handler | None = getattr(arguments, "handler", None)
    if handler is None:
        parser.print_help()
        return 0
    return handler(arguments)


if __name__ == "__main__":
    sys.exit(main())
