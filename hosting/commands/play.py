"""``croupier play``: practise at once — a room inside this process, one table of bots, you seated, the TUI open.

No SSH and no network: the app talks to the room through :class:`tui.connection.LocalConnection`, and every
hand still goes through the real table runner (commit–reveal shuffle, checked by your client). Bots play with
the styles of :mod:`hosting.strategy`. Bad options, or no terminal on stdin/stdout, give one line and exit
status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.events import HoleCardsDealt
from engine.table_events import PlayerSatOut
from engine.variants import VARIANTS, ForcedBetKind
from hosting.config import TableConfig
from hosting.practice_room import PRACTICE_FOLDER

if TYPE_CHECKING:  # imported when used: `croupier --help` stays fast
    from hosting.room import Room
    from hosting.tournament_bots import TournamentBot
    from hosting.tournament_config import TournamentConfig
    from tui.app import CroupierApp
    from tui.connection import LocalConnection

TABLE_ID = "practice"
PLAYER_NAME = "you"
BOT_NAMES = ("Ana", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Hugo", "Irene", "Jonas", "Kira", "Luca",
             "Marta", "Nico", "Olga", "Pablo", "Quinn", "Rosa", "Sven", "Tina", "Umberto", "Vera", "Walter", "Xenia",
             "Yusuf", "Zoe", "Amir", "Bea", "Cyril", "Dora")
"""Practice bots' names: a fast-fold pool of ten seats holds 29 bots, each with a name of his own (never
``Hugo`` and ``Hugo16`` at one table)."""
DEFAULT_STAKES = {"fixed_limit": (1, 2)}  # every structure: 1/2 unless said otherwise


class PlayError(ValueError):
    """An option ``croupier play`` cannot use; the message is one line for the player."""


def parse_stakes(text: str) -> tuple[int, int]:
    """``"1/2"`` (or ``"1-2"``) → ``(1, 2)``: small blind, big blind in chips.

    >>> parse_stakes("5/10")
    (5, 10)
    """
    match = re.fullmatch(r"\s*(\d{1,9})\s*[/-]\s*(\d{1,9})\s*", text)
    if match is None:
        raise PlayError(f"--stakes expects SMALL/BIG blinds in chips, e.g. 1/2, got {text!r}")
    small, big = int(match[1]), int(match[2])
    if small < 1 or big < small:
        raise PlayError(f"--stakes {text}: the small blind must be at least 1 and at most the big blind")
    return small, big




DEFAULT_PLAYERS = 6
POOL_BOTS_PER_SEAT = 3
"""``croupier play --fast-fold``: the pool holds three players a seat (you and the bots), so a fold finds a
fresh table at once most of the time."""


def check_mixed(mix: str, every: int | None, players: int | None, stakes: str) -> TableConfig:
    """The practice table of a mixed game (``--mixed horse``, R-MIX-1): every game fixed limit at ``stakes``
    (stud games: the room's ante and bring-in for that small bet), each for ``every`` hands or an orbit.
    :class:`PlayError` (one line) names the problem."""
    from hosting.config import ConfigError, parse_room
    from hosting.mixed_config import MIX_NAMES, MIXES

    if mix not in MIXES:
        raise PlayError(f"unknown mix {mix!r}; choose one of: {', '.join(MIXES)}")
    small, big = parse_stakes(stakes)
    most = min(10, *(VARIANTS[game].max_players for game, _ in MIXES[mix]))
    players = min(DEFAULT_PLAYERS, most) if players is None else players
    if not 2 <= players <= most:
        raise PlayError(f"--players must be between 2 and {most} for {MIX_NAMES[mix]}, got {players}")
    if every is not None and not 1 <= every <= 1000:
        raise PlayError(f"--every: hands of each game from 1 to 1000, got {every}")
    room_file = (f'[[tables]]\nid = "{TABLE_ID}"\nname = "{MIX_NAMES[mix]} {small}/{big} practice"\n'
                 f'games = "{mix}"\nstakes = [{small}, {big}]\nseats = {players}\nevery = '
                 + (str(every) if every is not None else '"orbit"')
                 + f'\nbuy_in = [{40 * big}, {100 * big}]\nrake = "none"\n'
                 "clock = { action_seconds = 60, time_bank_seconds = 60 }\n")
    try:
        (table,) = parse_room(room_file, "croupier play").tables
    except ConfigError as problem:
        raise PlayError(str(problem).removeprefix("croupier play: ").removeprefix("tables[0].")) from None
    return table


def check_options(game: str, structure: str | None, players: int | None, stakes: str,
                  fast_fold: bool = False) -> TableConfig:
    """Validate the options and build the practice table (no rake; buy-in 40–100 big blinds). ``players``
    ``None``: :data:`DEFAULT_PLAYERS`, or fewer where the game seats fewer (32-card draw: 5). ``fast_fold``: a
    fast-fold pool (R-FAST-1) of that game instead, ``players`` seats per hand (blind games only).

    Stud games get an ante of a fifth of the big blind (at least 1) and a bring-in of half of it (at least the
    ante). :class:`PlayError` (one line) names the problem, including a game the room cannot seat yet.
    """
    from hosting.config import STRUCTURE_IDS, ConfigError, parse_room

    if game not in VARIANTS:
        raise PlayError(f"unknown game {game!r}; choose one of: {', '.join(VARIANTS)}")
    variant = VARIANTS[game]
    structure = structure or variant.default_structure
    if structure not in STRUCTURE_IDS:
        raise PlayError(f"unknown structure {structure!r}; choose one of: {', '.join(STRUCTURE_IDS)}")
    small, big = parse_stakes(stakes)
    most = min(10, variant.max_players)
    players = min(DEFAULT_PLAYERS, most) if players is None else players
    if not 2 <= players <= most:
        raise PlayError(f"--players must be between 2 and {most} for {variant.name}, got {players}")
    forced = ""
    if variant.forced_bets is ForcedBetKind.ANTE_BRING_IN:
        ante = max(1, big // 5)
        forced = f"ante = {ante}\nbring_in = {max(ante, big // 2)}\n"
    kind = "pools" if fast_fold else "tables"
    room_file = (f'[[{kind}]]\nid = "{TABLE_ID}"\nname = "{variant.name} {small}/{big} practice"\n'
                 f'game = "{game}"\nstructure = "{structure}"\nstakes = [{small}, {big}]\nseats = {players}\n'
                 f'buy_in = [{40 * big}, {100 * big}]\nrake = "none"\n{forced}'
                 "clock = { action_seconds = 60, time_bank_seconds = 60 }\n")
    # the room file reader knows what the room can deal in this version: ask it
    try:
        room = parse_room(room_file, "croupier play")
        (table,) = tuple(pool.table for pool in room.pools) if fast_fold else room.tables
    except ConfigError as problem:
        text = str(problem).removeprefix("croupier play: ")
        if fast_fold and text.startswith("pools[0].game"):
            raise PlayError(f"--fast-fold pools deal blind games; {variant.name} is not one") from None
        if text.startswith("tables[0].game"):
            raise PlayError(f"{variant.name} cannot be seated at a table in this version yet "
                            "(the engine plays it; the room does not deal it yet)") from None
        raise PlayError(text.removeprefix("tables[0].").removeprefix("pools[0].")) from None
    return table


class PracticeBot:
    """An in-process bot at the practice table: a style, a seeded RNG, a short human-like pause per move.
    Broke, it buys in again for ``buy_in`` and sits back in (a busted bot never sits out for ever)."""

    def __init__(self, connection: LocalConnection, style_name: str, rng: random.Random, think: tuple[float, float],
                 game: str, buy_in: int) -> None:
        from hosting.strategy import STYLES, Tracker

        self.connection = connection
        self.buy_in = buy_in
        self.rebuys = 0
        self.style = STYLES[style_name]
        self.rng = rng
        self.think = think
        self.seats: dict[str, int] = {}
        self.tracker = Tracker(self.seats.get, lambda table: game)
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        from hosting.strategy import decide
        from tui.connection import ConnectionLost

        with contextlib.suppress(ConnectionLost, asyncio.CancelledError):
            while True:
                message = await self.connection.receive()
                kind = message.get("type")
                if kind == "event":
                    event = message["event"]
                    if isinstance(event, HoleCardsDealt):
                        self.seats[message["table"]] = event.seat  # only our own reach us
                    self.tracker.on_event(message["table"], event)
                    if (isinstance(event, PlayerSatOut) and event.reason == "no_chips"
                            and event.player == self.connection.name):
                        await self.rebuy(str(message["table"]))
                elif kind == "pool" and not message.get("stack"):  # broke in a fast-fold pool: buy in again
                    await self.rebuy(str(message["pool"]))
                elif kind == "action_request" and message.get("seat") is not None:
                    self.seats[message["table"]] = int(message["seat"])
                    move = decide(message["legal"], self.tracker.view(message["table"]), self.style, self.rng)
                    await asyncio.sleep(self.rng.uniform(*self.think))
                    await self.connection.send("action", table=message["table"], hand=message["hand"], **move)

    async def rebuy(self, table: str) -> None:
        """Busted (the room sat us out without chips): buy in again and sit back in for the next hands."""
        await asyncio.sleep(self.rng.uniform(*self.think))
        await self.connection.send("top_up", table=table, amount=self.buy_in)
        await self.connection.send("sit_out", table=table, on=False)
        self.rebuys += 1


def build_room(table: TableConfig, data_dir: Path, pause_between_hands: float = 1.5,
               showdown_pause: float = 3.0, fast_fold: bool = False) -> Room:
    """The in-process room with the practice table (:func:`hosting.practice_room.practice_room`); with
    ``fast_fold`` the table's game is a fast-fold pool instead."""
    from hosting.config import PoolConfig, RoomConfig
    from hosting.practice_room import practice_room

    config = RoomConfig(name="practice room", tables=(), pools=(PoolConfig(table, fill_seconds=1.0),)) \
        if fast_fold else RoomConfig(name="practice room", tables=(table,))
    return practice_room(config, data_dir, pause_between_hands, showdown_pause)


def bot_name(index: int) -> str:
    """The practice bot number ``index``'s name: distinct first names, then ``Bot31``, ``Bot32``….

    >>> bot_name(0), bot_name(16), bot_name(30)
    ('Ana', 'Quinn', 'Bot31')
    """
    return BOT_NAMES[index] if index < len(BOT_NAMES) else f"Bot{index + 1}"


async def seat_bots(room: Room, table: TableConfig, seed: int | None,
                    think: tuple[float, float], count: int | None = None) -> list[PracticeBot]:
    """Seat ``count`` bots (default ``players - 1``) of mixed styles, each bought in for the maximum."""
    from hosting.strategy import STYLES
    from tui.connection import LocalConnection

    rng = random.Random(seed)
    styles = list(STYLES)
    bots = []
    for index in range(table.seats - 1 if count is None else count):
        name = bot_name(index)
        connection = await LocalConnection.attach(room, name)
        await connection.send("sit", table=TABLE_ID, buy_in=table.max_buy_in)
        bot = PracticeBot(connection, styles[index % len(styles)], random.Random(rng.random()), think, table.game,
                          table.max_buy_in)
        bot.task = asyncio.get_running_loop().create_task(bot.run())
        bots.append(bot)
    return bots


def run(arguments: argparse.Namespace) -> int:
    from hosting.practice_tournament import PracticeTournamentError, practice_config

    table: TableConfig | TournamentConfig
    try:
        if getattr(arguments, "tournament", None) and getattr(arguments, "fast_fold", False):
            raise PlayError("--tournament or --fast-fold, not both")
        mix = getattr(arguments, "mixed", None)
        if mix and (getattr(arguments, "tournament", None) or getattr(arguments, "fast_fold", False)):
            raise PlayError("--mixed is a table of its own: not with --tournament or --fast-fold")
        if getattr(arguments, "every", None) is not None and not mix:
            raise PlayError("--every goes with --mixed (hands of each game)")
        if getattr(arguments, "tournament", None):
            table = practice_config(arguments.tournament, arguments.players)
        elif mix:
            table = check_mixed(mix, arguments.every, arguments.players, arguments.stakes)
        else:
            table = check_options(arguments.game, arguments.structure, arguments.players, arguments.stakes,
                                  getattr(arguments, "fast_fold", False))
    except (PlayError, PracticeTournamentError) as problem:
        print(f"croupier play: {problem}", file=sys.stderr)
        return 2
    from hosting import datadir
    from hosting.logging_setup import level_from

    try:
        level_from(arguments.log_level)  # a bad CROUPIER_LOG_LEVEL: one line, not a traceback
    except ValueError as problem:
        print(f"croupier play: {problem}", file=sys.stderr)
        return 2
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # the table screen needs a terminal to draw on and read keys from: say so rather than start blind
        print("croupier play: needs a terminal; run it in a terminal window", file=sys.stderr)
        return 2
    data_dir = Path(arguments.data).expanduser() if arguments.data else datadir.default_data_dir()
    practice_dir = data_dir / PRACTICE_FOLDER
    try:
        # two practice rooms on one folder would share (and clobber) its accounts file and logs
        datadir.claim(datadir.prepare(datadir.prepare(data_dir) / PRACTICE_FOLDER))
    except datadir.DataDirInUse as problem:
        print(f"croupier play: {problem}", file=sys.stderr)
        return 2
    except OSError as problem:
        print(f"croupier play: cannot use the data directory {data_dir}: {problem.strerror or problem}",
              file=sys.stderr)
        return 2
    try:
        return _play(arguments, table, data_dir)
    finally:
        datadir.release(practice_dir)


def _play(arguments: argparse.Namespace, table: TableConfig | TournamentConfig, data_dir: Path) -> int:
    """Open the app on the practice room (the data directory is prepared and claimed)."""
    from hosting.logging_setup import setup_logging

    try:
        log_path = setup_logging(data_dir, "play", arguments.log_level)
    except OSError as problem:
        print(f"croupier play: cannot use the data directory {data_dir}: {problem.strerror or problem}",
              file=sys.stderr)
        return 2
    if isinstance(table, TableConfig):
        app = practice_app(table, data_dir, seed=arguments.seed, fast=arguments.fast,
                           log_path=log_path.with_name("play-tui.log"),
                           fast_fold=getattr(arguments, "fast_fold", False))
    else:
        app = practice_tournament_app(table, data_dir, seed=arguments.seed, fast=arguments.fast,
                                      log_path=log_path.with_name("play-tui.log"))
    app.run()
    if app.farewell():  # your result at each table, and the night (tui.results)
        print(app.farewell())
    return app.return_code or 0


def practice_app(table: TableConfig, data_dir: Path, *, seed: int | None, fast: bool,
                 log_path: Path | None = None, state: dict[str, Any] | None = None,
                 fast_fold: bool = False) -> CroupierApp:
    """The app of ``croupier play``: the room, its bots and the player's seat start on its first connect.
    ``state`` (tests): gets the ``room`` and the ``bots`` once started. ``fast_fold``: the player and
    :data:`POOL_BOTS_PER_SEAT` bots a seat (less one) join a fast-fold pool instead (R-FAST-1)."""
    import asyncssh

    from tui.app import CroupierApp
    from tui.connection import LocalConnection

    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    state = {} if state is None else state
    think = (0.0, 0.0) if fast else (0.4, 1.2)

    async def connect() -> LocalConnection:
        # the room lives in the app's event loop: started on the first connect, reused on a reconnect
        if "room" not in state:
            room = build_room(table, data_dir, *((0.3, 1.5) if fast else (1.5, 3.0)), fast_fold=fast_fold)
            room.start()
            state["room"] = room
            count = POOL_BOTS_PER_SEAT * table.seats - 1 if fast_fold else None
            state["bots"] = await seat_bots(room, table, seed, think, count)
        connection = await LocalConnection.attach(state["room"], PLAYER_NAME, key)
        if "seated" not in state:
            await connection.send("sit", table=TABLE_ID, buy_in=table.max_buy_in)
            state["seated"] = True
        return connection

    from tui import presets
    from tui.notes import FILE_NAME, PlayerNotes

    notes = PlayerNotes(data_dir / FILE_NAME)  # the player's notes on the bots, kept from one practice to the next
    sizes = presets.BetPresets(data_dir / presets.FILE_NAME)  # beside the notes
    return CroupierApp(connect, start_table=None if fast_fold else TABLE_ID, log_path=log_path, notes=notes,
                       bet_presets=sizes)


async def register_bots(room: Room, config: TournamentConfig, count: int, seed: int | None,
                        think: tuple[float, float]) -> list[TournamentBot]:
    """``count`` bots of mixed styles, each registered for the tournament and playing it (its task started)."""
    from hosting.strategy import STYLES
    from hosting.tournament_bots import TournamentBot
    from tui.connection import LocalConnection

    rng = random.Random(seed)
    styles = list(STYLES.values())
    bots = []
    for index in range(count):
        connection = await LocalConnection.attach(room, f"bot{index + 1}")
        bot = TournamentBot(connection.name, connection, connection.receive, config.id,
                            style=styles[index % len(styles)], rng=random.Random(rng.random()), think=think)
        await bot.register()
        bot.task = asyncio.get_running_loop().create_task(bot.play())
        bots.append(bot)
    return bots


def practice_tournament_app(config: TournamentConfig, data_dir: Path, *, seed: int | None, fast: bool,
                            log_path: Path | None = None, state: dict[str, Any] | None = None) -> CroupierApp:
    """The app of ``croupier play --tournament``: on its first connect the room with the practice tournament
    starts, the bots register, then you do (a Sit & Go starts when the last seat registers: yours).
    ``state`` (tests): gets the ``room`` and the ``bots`` once started."""
    import asyncssh

    from hosting.config import RoomConfig
    from hosting.practice_room import practice_room
    from hosting.practice_tournament import practice_players
    from tui.app import CroupierApp
    from tui.connection import LocalConnection

    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    state = {} if state is None else state
    think = (0.0, 0.0) if fast else (0.4, 1.2)
    size = config.settings.sit_and_go_size or practice_players("mtt", None)

    async def connect() -> LocalConnection:
        if "room" not in state:
            room = practice_room(RoomConfig(name="practice room", tables=(), tournaments=(config,)), data_dir,
                                 *((0.3, 1.5) if fast else (1.5, 3.0)))
            room.start()
            state["room"] = room
            state["bots"] = await register_bots(room, config, size - 1, seed, think)
        connection = await LocalConnection.attach(state["room"], PLAYER_NAME, key)
        if "registered" not in state:
            await connection.send("tournament", action="register", tournament=config.id)
            state["registered"] = True
        return connection

    return CroupierApp(connect, log_path=log_path)
