"""The room's TOML configuration (``croupier host --config room.toml``) and the default room.

A room file looks like this (every key optional except each table's ``game``, ``structure`` and ``stakes``)::

    [room]
    name = "Friday night"
    password = "swordfish"              # every login must send it (protocol "auth")
    invite_codes = ["FRIDAY-7"]         # a new name needs one of these to register its key
    allow = ["bruno",                   # only these names may log in; a name given with the line of his
        {name = "ana", key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIN5e0ueWTsxlxcVcFZwdqzrMkZc6rp2Q6aMNshsGJ25o"}]
                                        #   ~/.ssh/id_ed25519.pub as its key is kept for that key (pinned)
    connections_per_minute = 20         # logins per client address (only logins that succeed count)
    names_per_key = 3                   # names one SSH key may register
    max_pending_logins = 100            # connections not logged in yet, in all (older idle ones are dropped)
    pending_logins_per_address = 10     # … from one address (an IPv6 /64)
    logins_per_address = 64             # logged-in connections one address may hold at once
    registrations_per_address = 20      # new names one address (an IPv6 /64) may register an hour
    registrations_per_invite = 50       # new names one invite code may register an hour
    trusted_addresses = ["127.0.0.1"]   # addresses or networks (192.168.1.0/24) the per-address login and
                                        #   registration limits above leave out: your own bots, a club's
                                        #   known NAT (each name's own budgets still apply). Default: none
    login_seconds = 10                  # time to finish the SSH login
    gate_seconds = 120                  # time a login has to hold its name (pass the password/invite):
                                        #   a login that holds none by then is closed
    hosts = ["ana"]                     # names with the Host screen (Ctrl+O in the TUI, `croupier admin`)
    approve_seats = true                # a sit waits for a host to approve it (with a stack) or deny it
    ready_screens = 2                   # plain-ssh screens started ahead of players (lobby at once), 0..64
    max_player_screens = 200            # plain-ssh screens (one TUI process each) at once; default: sized to
                                        #   this machine's memory (a quarter of it at 30 MiB a screen)

    [[tables]]
    id = "nl-1-2"                       # default: t1, t2, … in file order
    name = "Hold'em 1/2 NL"
    game = "texas_holdem"               # engine.variants ids
    structure = "no_limit"              # fixed_limit, pot_limit, half_pot_limit, no_limit, spread_limit
    stakes = [1, 2]                     # small blind, big blind, in chips
    seats = 6                           # 2..10 (the game's maximum), or a room preset: "caradepoker" (Omaha 9)
    buy_in = [40, 200]                  # minimum, maximum chips (R-BUYIN-1)
    rake = "white-label"                # a rake table or preset name (`croupier rake` lists them), or "none"
    clock = { action_seconds = 20, time_bank_seconds = 60 }   # also disconnection_bank_seconds = 60 and
                                        #   seat_hold_seconds = 300 (an away or sat-out player's seat is kept)
                                        #   and, draw games, draw_seconds (default 30, 2-7 24; R-DRAW-1)
    straddle = true                     # blind games: straddles allowed (R-BLIND-2)
    manual_showdown = true              # each player shows or mucks at showdown, on the action clock (R-SHOW-1);
                                        #   default false: every hand is turned up (auto-muck still mucks losers)
    run_it_twice = true                 # home-game options (docs/rules-home.md), all off by default; Hold'em and
    rabbit_hunt = true                  #   Omaha tables: R-HOME-1 run it twice, R-HOME-2 rabbit hunt,
    bomb_pot_every = 10                 #   R-HOME-3 every 10th hand a bomb pot: everyone antes bomb_pot_ante,
    bomb_pot_ante = 4                   #   no preflop betting; Hold'em only: R-HOME-4 the 7-2 game, a bounty
    seven_deuce_bounty = 5              #   of 5 chips from each player dealt in

    [[tables]]
    game = "texas_holdem"               # host-blind dealing (fairness v2): the players' own clients shuffle
    structure = "no_limit"              #   and open the cards, so the host never sees a hole card; only
    stakes = [1, 2]                     #   `croupier join` players can sit. Hold'em or Omaha, no/pot/fixed limit,
    dealing = "host-blind"              #   no rake, ante, straddle, jackpot or home-game option; every
                                        #   player shows or mucks by choice. Default: "commit-reveal"

    [[tables]]
    game = "seven_card_stud"            # stud games: ante and bring-in instead of blinds (R-STUD-1);
    structure = "fixed_limit"           #   stakes' big blind is the small bet
    stakes = [2, 4]
    ante = 1
    bring_in = 2

    [[tables]]
    game = "texas_holdem"
    structure = "spread_limit"
    stakes = [1, 2]
    spread = [4, 8, 8]                  # spread limit a-b-c maxima (R-BET-SL); default 2/4/4 big blinds

    [[tables]]
    game = "omaha"                      # hold'em, Omaha (all kinds) and 5-card draw tables can have one:
    structure = "pot_limit"             #   a bad-beat jackpot (R-JACK-1) fed by share_percent of the rake
    stakes = [1, 2]                     #   (1-100, default 5), won only when the big blind is at least
    rake = "white-label"                #   minimum_big_blind (default 0); needs a rake; absent: no jackpot;
    jackpot = { share_percent = 5, minimum_big_blind = 2 }   # hold'em also qualifying_hand = "four_tens"
                                        #   (default "four_queens": the lowest quads that qualify), and
                                        #   kind = "monte_carlo" with hands = ["four of a kind", ...] (the
                                        #   winner's shown hand) or kind = "smart" with hours = [20, 21, 22]
                                        #   (a bad beat live in those local hours); R-JACK-2

    [[pools]]                           # a fast-fold pool (R-FAST-1): players join the pool, not a table;
    id = "zoom"                         #   who folds is dealt a fresh hand at once at another of its tables
    game = "texas_holdem"               #   (zoom.1, zoom.2, …), with new opponents. Blind games; the keys
    structure = "no_limit"              #   of a table but ante, bring_in and straddle. seats: per hand.
    stakes = [1, 2]
    seats = 6
    fill_seconds = 2                    # the first player waiting holds out this long for a full table
                                        # dealing = "host-blind": each hand shuffled by its group, as at a
                                        #   host-blind table (no rake then)

A bad file raises :class:`ConfigError` whose message is one line naming the file, the key and the problem:
``room.toml: tables[2].stakes: expected [small_blind, big_blind] as positive integers, got [1]``.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine import rake
from engine.home import NO_HOME_OPTIONS, HomeOptions, check_home_options
from engine.jackpot import DEFAULT_QUALIFYING_QUADS, JACKPOT_GAMES, MONTE_CARLO_CATEGORIES, QUALIFYING_QUADS
from engine.structures import StructureKind
from engine.text import clean_text
from engine.variants import VARIANTS, ForcedBetKind, preset_seats
from hosting.config_reader import ConfigError as ConfigError  # raised here; callers import it from here
from hosting.config_reader import Reader
from hosting.host_blind_games import DEALINGS, HOST_BLIND, WHAT, check_host_blind_game
from hosting.mixed_config import MixedConfig, read_mixed
from hosting.tournament_config import TournamentConfig, read_tournaments

_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}\Z")
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,23}\Z")
STRUCTURE_IDS: Final = tuple(kind.value for kind in StructureKind)
JACKPOT_KINDS: Final = ("bad_beat", "monte_carlo", "smart")
CLOCK_KEYS: Final = ("action_seconds", "time_bank_seconds", "disconnection_bank_seconds", "seat_hold_seconds",
                     "draw_seconds")


def normalize_key(public_key: str) -> str:
    """``"type base64 [comment]"`` → ``"type base64"``; ``ValueError`` if it is not that shape."""
    parts = public_key.split()
    if len(parts) < 2 or not parts[0].isascii() or not re.fullmatch(r"[A-Za-z0-9+/=]+", parts[1]):
        raise ValueError("expected an OpenSSH public key such as 'ssh-ed25519 AAAA…'")
    return f"{parts[0]} {parts[1]}"


@dataclass(frozen=True)
class JackpotConfig:
    """A table's bad-beat jackpot (R-JACK-1): ``share_percent`` of each eligible hand's rake feeds the pool of
    the table's game family, and the table's hands can win it only when its big blind is at least
    ``minimum_big_blind`` chips (and it is not heads-up)."""

    share_percent: int = 5
    minimum_big_blind: int = 0
    qualifying_hand: str = DEFAULT_QUALIFYING_QUADS
    """Hold'em: the lowest four of a kind (a pocket pair, both cards playing) that qualifies, a name of
    :data:`engine.jackpot.QUALIFYING_QUADS` (R-JACK-1 decision: "four_queens", or the "four_tens" preset)."""
    kind: str = "bad_beat"
    """One of :data:`JACKPOT_KINDS`: ``"bad_beat"`` (R-JACK-1), or Hold'em's ``"monte_carlo"`` (the main pot's
    winner shows one of ``hands``) and ``"smart"`` (a bad beat live only in ``hours``, the room's local hours
    0-23), R-JACK-2. One pool per kind (bad beat: per game family)."""
    hands: tuple[str, ...] = ()
    hours: tuple[int, ...] = ()


@dataclass(frozen=True)
class TableConfig:
    """One cash table of the room (R-LOBBY-1 columns come from here). Chips are integers."""

    id: str
    name: str
    game: str
    structure: str
    small_blind: int
    big_blind: int
    seats: int = 6
    min_buy_in: int = 0
    max_buy_in: int = 0
    rake: str = "none"
    clock: Mapping[str, float] = field(default_factory=lambda: {"action_seconds": 20.0, "time_bank_seconds": 60.0})
    ante: int = 0
    bring_in: int = 0
    """Stud games (R-STUD-1): the bring-in in chips (> 0); they post ``ante`` and a bring-in, no blinds."""
    straddle: bool = False
    """Straddles allowed (R-BLIND-2; blind games only)."""
    spread: tuple[int, int, int] | None = None
    """Spread limit ``a-b-c`` maxima in chips (R-BET-SL); default 2/4/4 big blinds."""
    jackpot: JackpotConfig | None = None
    """The bad-beat jackpot (R-JACK-1); ``None``: this table has none."""
    manual_showdown: bool = False
    """Players show or muck at showdown when asked, on the action clock (R-SHOW-1); False: every hand is shown."""
    home: HomeOptions = NO_HOME_OPTIONS
    """Home-game options (R-HOME-1..4, docs/rules-home.md): run it twice, rabbit hunt, bomb pots, the 7-2 game."""
    dealing: str = "commit-reveal"
    """How the deck is dealt: ``"commit-reveal"`` (fairness v1: the host deals from the players' revealed seeds)
    or ``"host-blind"`` (fairness v2: the players' clients shuffle and open the cards; the host sees none)."""

    @property
    def host_blind(self) -> bool:
        return self.dealing == HOST_BLIND
    mixed: MixedConfig | None = None
    """A mixed table's games and rotation (R-MIX-1..4, :mod:`hosting.mixed_config`); ``game``, ``structure`` and
    the stakes above are then the game being dealt (the first at the start)."""

    def describe(self) -> str:
        """Short text for the lobby, e.g. ``"texas_holdem no_limit 1/2"``."""
        return f"{self.game} {self.structure} {self.small_blind}/{self.big_blind}"


@dataclass(frozen=True)
class AccessConfig:
    """Who may come in: optional password, invite codes (for new names), allow-list (with pinned keys), logins
    per address, names per key, and the bounds on connections still logging in."""

    password: str | None = None
    invite_codes: frozenset[str] = frozenset()
    allow: frozenset[str] | None = None
    connections_per_minute: int = 20
    pinned_keys: Mapping[str, str] = field(default_factory=dict)
    """Allow-list names kept for one key (``"ssh-ed25519 AAAA…"``, comment dropped): no other key may take them."""
    names_per_key: int = 3
    max_pending_logins: int = 100
    pending_logins_per_address: int = 10
    logins_per_address: int = 64
    """Logged-in connections one address (an IPv6 /64) may hold at once: ``connections_per_minute`` alone let
    one address pile up logins without end (20 a minute, each a descriptor and its channels)."""
    registrations_per_address: int = 20
    """New names one address (an IPv6 /64) may register an hour (a burst of as many, then one every 3600/N s):
    each new name is a balance and rows in the store; with only ``connections_per_minute`` one address registered
    20 a minute."""
    registrations_per_invite: int = 50
    """New names one invite code may register an hour, from any addresses (a code passed beyond its friends)."""
    trusted_addresses: tuple[str, ...] = ()
    """Networks (``"127.0.0.1/32"``, ``"192.168.1.0/24"``) whose logins ``connections_per_minute``,
    ``logins_per_address`` and ``registrations_per_address`` do not count: the host's own bots or a club's NAT.
    Everyone else keeps the room's limits; every name keeps its budgets."""
    login_seconds: float = 10.0
    gate_seconds: float = 120.0
    """Seconds an SSH login has to hold its name (every gate passed); a login holding none then is closed, so
    logins kept open by someone without the password hold no descriptor, channel or player screen for long."""


@dataclass(frozen=True)
class PoolConfig:
    """A fast-fold pool (R-FAST-1): players join the pool, and each hand is dealt at one of its tables to a
    fresh group. ``table`` holds the game, stakes, seats per hand, buy-ins, rake, clock and jackpot, read as a
    table's; its id is the pool's, and the pool's tables are ``<id>.1``, ``<id>.2``, …. ``fill_seconds``: how
    long the first player waiting holds out for a full table before a short-handed hand is dealt."""

    table: TableConfig
    fill_seconds: float = 2.0

    @property
    def id(self) -> str:
        return self.table.id

    def table_id(self, number: int) -> str:
        """The id of the pool's table ``number`` (1, 2, …)."""
        return f"{self.table.id}.{number}"


@dataclass(frozen=True)
class RoomConfig:
    name: str
    tables: tuple[TableConfig, ...]
    access: AccessConfig = AccessConfig()
    pools: tuple[PoolConfig, ...] = ()
    """Fast-fold pools (``[[pools]]``, R-FAST-1)."""
    tournaments: tuple[TournamentConfig, ...] = ()
    """Tournaments (``[[tournaments]]``, issue 18: :mod:`hosting.tournament_config`)."""
    ready_screens: int = 2
    """Plain-ssh player screens started ahead of their players (each about 15–25 MiB): they see the lobby at
    once. 0 starts each screen when its player arrives."""
    hosts: frozenset[str] = frozenset()
    """Names with the host console (hosting.admin), besides the room's owner playing under his login name."""
    approve_seats: bool = False
    """A sit is a request the host approves (with a stack) or denies (hosting.admin)."""
    max_player_screens: int | None = None
    """Plain-ssh sessions served at once (each runs a TUI process on the host); one more is refused with a
    line saying so. ``None``: :func:`default_player_screens`."""

    @property
    def player_screens(self) -> int:
        return self.max_player_screens if self.max_player_screens is not None else default_player_screens()


SCREEN_MEMORY = 30 * 1024 * 1024
"""What one served TUI may use on the host, with margin (forked from the warm fork server: 15–25 MiB)."""


def default_player_screens() -> int:
    """A quarter of this machine's memory at :data:`SCREEN_MEMORY` a screen, from 4 to 1000 (64 if unknown)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 64
    return max(4, min(1000, memory // 4 // SCREEN_MEMORY))


def _table(id: str, name: str, game: str, structure: str, blinds: tuple[int, int], seats: int,
           rake_name: str) -> TableConfig:
    small_blind, big_blind = blinds
    return TableConfig(id, name, game, structure, small_blind, big_blind, seats,
                       min_buy_in=40 * big_blind, max_buy_in=100 * big_blind, rake=rake_name)


def default_room() -> RoomConfig:
    """The room ``croupier host`` runs with no config: hold'em and Omaha at several stakes, play chips."""
    tables = (
        _table("holdem-1-2", "Hold'em 1/2 NL", "texas_holdem", "no_limit", (1, 2), 6, "white-label"),
        _table("holdem-5-10", "Hold'em 5/10 NL", "texas_holdem", "no_limit", (5, 10), 9, "white-label"),
        _table("holdem-25-50", "Hold'em 25/50 NL", "texas_holdem", "no_limit", (25, 50), 6, "white-label"),
        _table("omaha-1-2", "Omaha 1/2 PL", "omaha", "pot_limit", (1, 2), 6, "white-label"),
        _table("omaha-5-10", "Omaha 5/10 PL", "omaha", "pot_limit", (5, 10), 6, "white-label"),
        _table("omaha8-2-4", "Omaha Hi/Lo 2/4 PL", "omaha_hi_lo", "pot_limit", (2, 4), 6, "white-label"),
    )
    return RoomConfig(name="croupier room", tables=tables)


# --- reading a file ----------------------------------------------------------------------------------------


def _rake_names() -> tuple[str, ...]:
    return ("none", *rake.TABLES, *rake.PRESETS)


TABLE_KEYS: Final = ("id", "name", "game", "structure", "stakes", "seats", "buy_in", "rake", "clock", "ante",
                      "bring_in", "straddle", "spread", "jackpot", "manual_showdown", "run_it_twice", "rabbit_hunt",
                      "bomb_pot_every", "bomb_pot_ante", "seven_deuce_bounty", "dealing", "games", "every",
                      "choice", "choice_seconds")
MIXED_ONLY_KEYS: Final = ("every", "choice", "choice_seconds")
POOL_KEYS: Final = ("id", "name", "game", "structure", "stakes", "seats", "buy_in", "rake", "clock", "spread",
                     "jackpot", "manual_showdown", "fill_seconds", "dealing")
_POOL_ID = re.compile(r"[A-Za-z0-9_-]{1,28}\Z")  # its tables add ".1", ".2", …: still a table id


def _read_table(source: str, index: int, data: Any, *, kind: str = "tables") -> TableConfig:
    path = f"{kind}[{index}]"
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: {path}: expected a table ([[{kind}]]), got {data!r}")
    reader = Reader(source, data, path)
    reader.check_keys(POOL_KEYS if kind == "pools" else TABLE_KEYS)
    if kind == "pools":
        table_id = reader.text("id", f"p{index + 1}", _POOL_ID, "an id of 1-28 letters, digits, _ -")
    else:
        table_id = reader.text("id", f"t{index + 1}", _ID, "an id of 1-32 letters, digits, _ . -")
    small_blind, big_blind = reader.pair("stakes", "small_blind, big_blind")
    if small_blind > big_blind:
        raise reader.fail("stakes", f"the small blind ({small_blind}) is larger than the big blind ({big_blind})")
    if "games" in data:
        return _read_mixed_table(source, reader, table_id, (small_blind, big_blind))
    for key in MIXED_ONLY_KEYS:
        if key in data:
            raise reader.fail(key, "only a mixed table (games = …) has it")
    game = reader.choice("game", tuple(sorted(VARIANTS)))
    structure = reader.choice("structure", STRUCTURE_IDS)
    seats = _read_seats(reader, game)
    min_buy_in, max_buy_in = reader.pair("buy_in", "minimum, maximum", (40 * big_blind, 100 * big_blind))
    if min_buy_in > max_buy_in:
        raise reader.fail("buy_in", f"the minimum ({min_buy_in}) is above the maximum ({max_buy_in})")
    if min_buy_in < big_blind:
        raise reader.fail("buy_in", f"the minimum ({min_buy_in}) is below the big blind ({big_blind})")
    rake_name = reader.choice("rake", _rake_names(), "none")
    clock = _read_clock(source, f"{path}.clock", data.get("clock", {}))
    assert table_id is not None  # it has a default
    # shown in every player's lobby and the host's banner: no escape sequence, even from the host's own file
    name = clean_text(reader.text("name", f"{VARIANTS[game].name} {small_blind}/{big_blind}") or "") or table_id
    ante, bring_in, straddle, spread = _read_forced_bets(reader, game, structure, big_blind)
    jackpot = _read_jackpot(source, f"{path}.jackpot", data["jackpot"], game, rake_name) \
        if "jackpot" in data else None
    manual_showdown = data.get("manual_showdown", False)
    if not isinstance(manual_showdown, bool):
        raise reader.fail("manual_showdown", f"expected true or false, got {manual_showdown!r}")
    dealing = reader.choice("dealing", DEALINGS, "commit-reveal")
    if dealing == HOST_BLIND:
        _check_host_blind(reader, game, structure)
        manual_showdown = True  # a hand opens only by its owner's choice
    return TableConfig(table_id, name, game, structure, small_blind, big_blind, seats, min_buy_in, max_buy_in,
                       rake_name, clock, ante, bring_in, straddle, spread, jackpot, manual_showdown,
                       _read_home(reader, game), dealing)


def _check_host_blind(reader: Reader, game: str, structure: str) -> None:
    """What a host-blind table can deal today: hold'em or Omaha (no, pot or fixed limit), blinds only, no rake,
    and no option whose cards or chips the players' own check of the hand does not cover yet."""
    check_host_blind_game(reader, game, structure)
    data = reader.data
    if data.get("manual_showdown") is False:
        raise reader.fail("manual_showdown", "a host-blind table shows hands by choice only: leave it out")
    for key in ("ante", "straddle", "jackpot", *HOME_KEYS):
        if data.get(key) not in (None, False, 0):
            raise reader.fail(key, "not at a host-blind table (the players' check of the hand does not cover it)")
    if data.get("rake", "none") != "none":
        raise reader.fail("rake", "a host-blind table takes no rake for now (rake = \"none\")")


def _read_mixed_table(source: str, reader: Reader, table_id: str | None, stakes: tuple[int, int]) -> TableConfig:
    """A mixed table (R-MIX-1..4): its ``games`` instead of ``game`` and ``structure``; the first game is dealt
    first. Seats up to the smallest maximum of its games; no spread limit, no jackpot (one game's pool)."""
    if "dealing" in reader.data:
        raise reader.fail("dealing", f"{WHAT}, not a mixed table")
    for key in ("game", "structure", "spread", "jackpot"):
        if key in reader.data:
            raise reader.fail(key, f"a mixed table has no {key}" if key in ("spread", "jackpot") else
                              f"a mixed table lists its games (each with its structure) in games = …, not {key}")
    mixed = read_mixed(reader, stakes)
    first = mixed.games[0]
    most = min(10, *(VARIANTS[game.game].max_players for game in mixed.games))
    seats = reader.integer("seats", min(6, most), 2, most)
    big_blind = stakes[1]
    min_buy_in, max_buy_in = reader.pair("buy_in", "minimum, maximum", (40 * big_blind, 100 * big_blind))
    if not big_blind <= min_buy_in <= max_buy_in:
        raise reader.fail("buy_in", f"expected the big blind ({big_blind}) <= minimum <= maximum, got "
                                    f"{[min_buy_in, max_buy_in]}")
    rake_name = reader.choice("rake", _rake_names(), "none")
    clock = _read_clock(source, f"{reader.path}.clock", reader.data.get("clock", {}))
    straddle = reader.data.get("straddle", False)
    manual_showdown = reader.data.get("manual_showdown", False)
    for key, value in (("straddle", straddle), ("manual_showdown", manual_showdown)):
        if not isinstance(value, bool):
            raise reader.fail(key, f"expected true or false, got {value!r}")
    mixed = dataclasses.replace(mixed, straddle=straddle)
    home = _read_home(reader, first.game, mixed)
    assert table_id is not None  # it has a default
    name = clean_text(reader.text("name", f"{mixed.name} {stakes[0]}/{stakes[1]}") or "") or table_id
    return TableConfig(table_id, name, first.game, first.structure, first.small_blind, first.big_blind, seats,
                       min_buy_in, max_buy_in, rake_name, clock, first.ante, first.bring_in,
                       straddle and not first.stud, None, None, manual_showdown, home, mixed=mixed)


HOME_KEYS: Final = ("run_it_twice", "rabbit_hunt", "bomb_pot_every", "bomb_pot_ante", "seven_deuce_bounty")
"""A table's home-game option keys (:class:`engine.home.HomeOptions` fields of the same names)."""


def _read_home(reader: Reader, game: str, mixed: MixedConfig | None = None) -> HomeOptions:
    """The home-game options (R-HOME-1..4), each off unless set; a game an option does not suit is refused (a
    mixed table: an option no game of it suits; each game is dealt with those that suit it)."""
    flags: dict[str, bool] = {}
    for key in ("run_it_twice", "rabbit_hunt"):
        value = reader.data.get(key, False)
        if not isinstance(value, bool):
            raise reader.fail(key, f"expected true or false, got {value!r}")
        flags[key] = value
    options = HomeOptions(flags["run_it_twice"], flags["rabbit_hunt"],
                          reader.integer("bomb_pot_every", 0, 0, 1000), reader.integer("bomb_pot_ante", 0, 0, 10**9),
                          reader.integer("seven_deuce_bounty", 0, 0, 10**9))
    problems = [check_home_options(options, each.game) for each in mixed.games] if mixed is not None \
        else [check_home_options(options, game)]
    problem = None if mixed is not None and None in problems else problems[0]
    if problem is not None:
        key, _, reason = problem.partition(": ")
        raise reader.fail(key, reason)
    return options


def _read_pool(source: str, index: int, data: Any) -> PoolConfig:
    """``[[pools]]``: a table's keys (no straddle, no stud: the pool moves the blinds, R-FAST-1) and
    ``fill_seconds`` (0-60, default 2)."""
    reader = Reader(source, data if isinstance(data, dict) else {}, f"pools[{index}]")
    game = data.get("game") if isinstance(data, dict) else None
    if game in VARIANTS and VARIANTS[game].forced_bets is not ForcedBetKind.BLINDS:
        raise reader.fail("game", f"{game} is not a blind game: a pool moves the blinds with its players")
    table = _read_table(source, index, data, kind="pools")
    fill = data.get("fill_seconds", 2.0)
    if not isinstance(fill, int | float) or isinstance(fill, bool) or not 0 <= fill <= 60:
        raise reader.fail("fill_seconds", f"expected seconds from 0 to 60, got {fill!r}")
    return PoolConfig(table, float(fill))


def _read_seats(reader: Reader, game: str) -> int:
    """``seats = 9`` (2 up to the game's maximum, 10 at most) or a room preset's count: ``seats = "caradepoker"``
    seats Omaha 9 (engine.variants.ROOM_SEAT_PRESETS)."""
    value = reader.data.get("seats")
    if isinstance(value, str):
        try:
            return preset_seats(value, game)
        except KeyError as error:
            raise reader.fail("seats", str(error.args[0])) from None
    return reader.integer("seats", 6, 2, min(10, VARIANTS[game].max_players))


def _read_jackpot(source: str, path: str, data: Any, game: str, rake_name: str) -> JackpotConfig:
    """``jackpot = { share_percent = 5, minimum_big_blind = 2 }`` (R-JACK-1): only games with a bad-beat
    jackpot, only at a raked table (the rake funds the pool, and a table that never pays in must not win)."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: {path}: expected {{ share_percent = 5, minimum_big_blind = 2 }}, got {data!r}")
    if game not in JACKPOT_GAMES:
        raise ConfigError(f"{source}: {path}: {game} has no bad-beat jackpot (R-JACK-1: hold'em, Omaha and "
                          "5-card draw tables only)")
    if rake_name == "none":
        raise ConfigError(f"{source}: {path}: a jackpot is funded by the rake: set the table's rake too")
    reader = Reader(source, data, path)
    reader.check_keys(("share_percent", "minimum_big_blind", "qualifying_hand", "kind", "hands", "hours"))
    kind = reader.choice("kind", JACKPOT_KINDS, "bad_beat")
    if kind != "bad_beat" and JACKPOT_GAMES[game] != "holdem":
        raise reader.fail("kind", f"{kind} jackpots are for Hold'em tables only (R-JACK-2)")
    if "qualifying_hand" in data and (JACKPOT_GAMES[game] != "holdem" or kind == "monte_carlo"):
        raise reader.fail("qualifying_hand", "only Hold'em bad-beat and smart jackpots choose it (Omaha: a "
                                             "straight flush 6-10, 5-card draw: four aces; R-JACK-1)")
    return JackpotConfig(share_percent=reader.integer("share_percent", 5, 1, 100),
                         minimum_big_blind=reader.integer("minimum_big_blind", 0, 0, 10**12),
                         qualifying_hand=reader.choice("qualifying_hand", tuple(QUALIFYING_QUADS),
                                                       DEFAULT_QUALIFYING_QUADS),
                         kind=kind, hands=_read_jackpot_hands(reader, kind), hours=_read_jackpot_hours(reader, kind))


def _read_jackpot_hands(reader: Reader, kind: str) -> tuple[str, ...]:
    """``hands = ["four of a kind", "straight flush", "royal flush"]``: a Monte-Carlo jackpot's winning hands."""
    if kind != "monte_carlo":
        if "hands" in reader.data:
            raise reader.fail("hands", "only a monte_carlo jackpot lists winning hands")
        return ()
    value = reader.data.get("hands")
    if not isinstance(value, list) or not value or not all(item in MONTE_CARLO_CATEGORIES for item in value):
        raise reader.fail("hands", f"expected a list of some of: {', '.join(MONTE_CARLO_CATEGORIES)}, got {value!r}")
    return tuple(category for category in MONTE_CARLO_CATEGORIES if category in value)


def _read_jackpot_hours(reader: Reader, kind: str) -> tuple[int, ...]:
    """``hours = [20, 21, 22, 23]``: the room's local hours (0-23) a smart jackpot is live."""
    if kind != "smart":
        if "hours" in reader.data:
            raise reader.fail("hours", "only a smart jackpot has hours")
        return ()
    value = reader.data.get("hours")
    if not isinstance(value, list) or not value or not all(
            isinstance(hour, int) and not isinstance(hour, bool) and 0 <= hour <= 23 for hour in value):
        raise reader.fail("hours", f"expected a list of hours from 0 to 23, got {value!r}")
    return tuple(sorted(set(value)))


def _read_forced_bets(reader: Reader, game: str, structure: str,
                      big_blind: int) -> tuple[int, int, bool, tuple[int, int, int] | None]:
    """``ante``, ``bring_in`` (stud games, R-STUD-1: required there, refused elsewhere), ``straddle``
    (blind games, R-BLIND-2) and ``spread = [a, b, c]`` (spread limit only, R-BET-SL)."""
    stud = VARIANTS[game].forced_bets is ForcedBetKind.ANTE_BRING_IN
    ante = reader.integer("ante", 0, 0, big_blind)
    if stud and "bring_in" not in reader.data:
        raise reader.fail("bring_in", f"{game} needs a bring-in (chips, about 2 x the ante) (R-STUD-1)")
    if not stud and "bring_in" in reader.data:
        raise reader.fail("bring_in", f"{game} uses blinds, not a bring-in")
    bring_in = reader.integer("bring_in", 0, 1, big_blind) if stud else 0
    straddle = reader.data.get("straddle", False)
    if not isinstance(straddle, bool):
        raise reader.fail("straddle", f"expected true or false, got {straddle!r}")
    if straddle and stud:
        raise reader.fail("straddle", f"{game} has no blinds to straddle")
    spread: tuple[int, int, int] | None = None
    if "spread" in reader.data:
        value = reader.data["spread"]
        if structure != "spread_limit":
            raise reader.fail("spread", "only a spread_limit table takes spread = [a, b, c]")
        if (not isinstance(value, list) or len(value) != 3
                or not all(isinstance(item, int) and not isinstance(item, bool) and item >= big_blind
                           for item in value) or not value[0] <= value[1] <= value[2]):
            raise reader.fail("spread", f"expected [a, b, c], integers >= the big blind ({big_blind}) with "
                              f"a <= b <= c, got {value!r}")
        spread = (value[0], value[1], value[2])
    return ante, bring_in, straddle, spread


def _read_clock(source: str, path: str, data: Any) -> dict[str, float]:
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: {path}: expected a table of seconds, got {data!r}")
    reader = Reader(source, data, path)
    reader.check_keys(CLOCK_KEYS)
    clock = {"action_seconds": 20.0, "time_bank_seconds": 60.0, "disconnection_bank_seconds": 60.0}
    for key, value in data.items():
        if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 3600:
            raise reader.fail(key, f"expected seconds from 0 to 3600, got {value!r}")
        clock[key] = float(value)
    return clock


def _read_allow(reader: Reader) -> tuple[frozenset[str] | None, dict[str, str]]:
    """``allow = ["bruno", {name = "ana", key = "ssh-ed25519 AAAA…"}]``: the names, and the keys pinned."""
    value = reader.data.get("allow")
    if value is None:
        return None, {}
    if not isinstance(value, list):
        raise reader.fail("allow", f"expected a list of names or {{name = …, key = …}}, got {value!r}")
    names: set[str] = set()
    pinned: dict[str, str] = {}
    for index, item in enumerate(value):
        where = f"allow[{index}]"
        if isinstance(item, dict):
            entry = Reader(reader.source, item, f"{reader.path}.{where}")
            entry.check_keys(("name", "key"))
            name = entry.text("name", what="a player name")
            key = entry.text("key", what="an OpenSSH public key such as 'ssh-ed25519 AAAA…'")
            if name is None or key is None:
                raise entry.fail("name" if name is None else "key", "missing")
            try:
                pinned[name] = normalize_key(key)
            except ValueError:
                raise entry.fail("key", f"expected an OpenSSH public key such as 'ssh-ed25519 AAAA…', "
                                 f"got {key[:40]!r}") from None
        elif isinstance(item, str):
            name = item
        else:
            raise reader.fail(where, f"expected a name or {{name = …, key = …}}, got {item!r}")
        if not _NAME.match(name):
            raise reader.fail(where, f"{name!r} is not a player name (1-24 of A-Z a-z 0-9 _ . -)")
        names.add(name)
    return frozenset(names), pinned


def _read_networks(reader: Reader, key: str) -> tuple[str, ...]:
    """A list of addresses or networks (``"127.0.0.1"``, ``"192.168.1.0/24"``, ``"2001:db8::/48"``), each as
    its network's text."""
    networks: list[str] = []
    for index, text in enumerate(reader.texts(key) or ()):
        try:
            networks.append(str(ipaddress.ip_network(text.strip(), strict=False)))
        except ValueError:
            raise reader.fail(f"{key}[{index}]", f"expected an address or a network such as '192.168.1.0/24', "
                              f"got {text[:40]!r}") from None
    return tuple(networks)


def _read_access(reader: Reader) -> AccessConfig:
    allow, pinned = _read_allow(reader)
    return AccessConfig(
        password=reader.text("password"),
        invite_codes=frozenset(reader.texts("invite_codes") or ()),
        allow=allow,
        connections_per_minute=reader.integer("connections_per_minute", 20, 1, 10_000),
        pinned_keys=pinned,
        names_per_key=reader.integer("names_per_key", 3, 1, 1000),
        max_pending_logins=reader.integer("max_pending_logins", 100, 1, 10_000),
        pending_logins_per_address=reader.integer("pending_logins_per_address", 10, 1, 10_000),
        logins_per_address=reader.integer("logins_per_address", 64, 1, 100_000),
        registrations_per_address=reader.integer("registrations_per_address", 20, 1, 100_000),
        registrations_per_invite=reader.integer("registrations_per_invite", 50, 1, 100_000),
        trusted_addresses=_read_networks(reader, "trusted_addresses"),
        login_seconds=float(reader.integer("login_seconds", 10, 1, 600)),
        gate_seconds=float(reader.integer("gate_seconds", 120, 5, 3600)),
    )


def parse_room(text: str, source: str = "room.toml") -> RoomConfig:
    """Read a room from TOML text; :class:`ConfigError` (one line) on any problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise ConfigError(f"{source}: not valid TOML: {problem}") from None
    top = Reader(source, data, "")
    top.check_keys(("room", "tables", "pools", "tournaments"))
    room_data = data.get("room", {})
    if not isinstance(room_data, dict):
        raise top.fail("room", "expected a table ([room])")
    room = Reader(source, room_data, "room")
    room.check_keys(("name", "password", "invite_codes", "allow", "connections_per_minute", "ready_screens",
                     "max_player_screens", "names_per_key", "max_pending_logins", "pending_logins_per_address",
                     "logins_per_address", "registrations_per_address", "registrations_per_invite", "trusted_addresses",
                     "login_seconds", "gate_seconds", "hosts", "approve_seats"))
    hosts, approve_seats = _read_hosting(room)
    tables_data = data.get("tables")
    if tables_data is None:
        tables = default_room().tables
    elif not isinstance(tables_data, list) or not tables_data:
        raise top.fail("tables", "expected one or more [[tables]]")
    else:
        tables = tuple(_read_table(source, index, item) for index, item in enumerate(tables_data))
    seen: set[str] = set()
    for index, table in enumerate(tables):
        if table.id in seen:
            raise ConfigError(f"{source}: tables[{index}].id: {table.id!r} is used by an earlier table")
        seen.add(table.id)
    pools = _read_pools(top, data.get("pools"), seen)
    tournaments = read_tournaments(source, data.get("tournaments"), seen | {pool.id for pool in pools})
    return RoomConfig(name=clean_text(room.text("name", "croupier room") or "") or "croupier room", tables=tables,
                      access=_read_access(room), ready_screens=room.integer("ready_screens", 2, 0, 64),
                      max_player_screens=room.integer("max_player_screens", 1, 1, 10_000)
                      if "max_player_screens" in room_data else None, pools=pools, hosts=hosts,
                      approve_seats=approve_seats, tournaments=tournaments)


def _read_pools(top: Reader, pools_data: Any, table_ids: set[str]) -> tuple[PoolConfig, ...]:
    """``[[pools]]`` (none by default), each id unused by a table or an earlier pool, nor a prefix of one."""
    if pools_data is None:
        return ()
    if not isinstance(pools_data, list) or not pools_data:
        raise top.fail("pools", "expected one or more [[pools]]")
    pools = tuple(_read_pool(top.source, index, item) for index, item in enumerate(pools_data))
    seen: set[str] = set()
    for index, pool in enumerate(pools):
        clash = next((table for table in sorted(table_ids) if table == pool.id or table.startswith(pool.id + ".")),
                     None)
        if clash is not None:
            raise ConfigError(f"{top.source}: pools[{index}].id: {pool.id!r} clashes with table {clash!r} "
                              f"(the pool's tables are {pool.id}.1, {pool.id}.2, …)")
        if pool.id in seen:
            raise ConfigError(f"{top.source}: pools[{index}].id: {pool.id!r} is used by an earlier pool")
        seen.add(pool.id)
    return pools


def _read_hosting(room: Reader) -> tuple[frozenset[str], bool]:
    """``hosts = ["ana"]`` (player names) and ``approve_seats = true`` (hosting.admin)."""
    hosts = room.texts("hosts") or []
    for name in hosts:
        if not NAME_PATTERN.match(name):
            raise room.fail("hosts", f"{name[:30]!r} is not a player name (1-24 of A-Z a-z 0-9 _ . -)")
    approve_seats = room.data.get("approve_seats", False)
    if not isinstance(approve_seats, bool):
        raise room.fail("approve_seats", f"expected true or false, got {approve_seats!r}")
    return frozenset(hosts), approve_seats


NAME_PATTERN: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,23}\Z")
"""A player name (hosting.identity.check_name): here so the room file can check its names."""


def load_room(path: str | Path) -> RoomConfig:
    """Read the room file at ``path``; :class:`ConfigError` names the file on any problem."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as problem:
        raise ConfigError(f"{file}: cannot read: {problem}") from None
    return parse_room(text, source=str(file))
