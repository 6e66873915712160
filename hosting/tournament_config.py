"""``[[tournaments]]`` in room.toml (issue 18): every setting of the director (:class:`TournamentSettings`), read
with one-line errors naming the key, as for tables.

    [[tournaments]]
    id = "sunday"                       # default: tourney1, tourney2, … in file order
    name = "Sunday 100"
    type = "scheduled"                  # sit_and_go, scheduled, heads_up, shootout, spin, fifty50,
                                        #   double_or_nothing (R-TOUR-1)
    game = "texas_holdem"               # engine.variants ids; structure as for tables
    structure = "no_limit"
    buy_in = 100                        # to the prize pool; fee to the house; knockout to the bounties
    fee = 10
    knockout = 0                        # > 0: a knockout tournament; progressive = true: PKO
    progressive = false
    starting_chips = 10000
    levels = "regular"                  # turbo (3 min), regular (10 min), deep (20 min, 200 big blinds), or
                                        #   a list: [{small_blind = 10, big_blind = 20, ante = 0,
                                        #   big_blind_ante = 0, minutes = 10}, …]
    level_minutes = 10                  # a preset's level length (default: the preset's)
    break_every = 6                     # a break after every 6 levels (0: none), of break_minutes
    break_minutes = 5
    late_registration_minutes = 30      # 0: none; re_entries = 1 allows one re-entry during it
    re_entries = 0
    entries_per_player = 1
    rebuys = { minutes = 60, threshold = 10000, chips = 10000, price = 100, fee = 10, max = 3 }
    add_on = { chips = 10000, price = 100, fee = 10, minutes = 5 }   # at the end of the rebuy period
    guarantee = 5000                    # the house tops the pool up to this
    freeroll_pool = 0                   # a freeroll's house-funded pool (buy_in = fee = 0)
    payouts = "default"                 # default (~15% paid), winner_takes_all, tickets (satellite:
                                        #   ticket_value, ticket_to), or a table of percentages [50, 30, 20]
    seats = 9                           # per table (heads_up 2, spin 3)
    start = 2026-12-06T20:00:00Z        # a scheduled start (TOML date-time); min_players, max_players
    sit_and_go_size = 6                 # a Sit & Go starts when this many registered
    recurring = true                    # Sit & Go: a new one opens when one fills
    password = "secret"                 # a private tournament
    spin_multipliers = [{ multiplier = 2, chances = 750000, percentages = [100] }, …]
    deals = true                        # final-table deals allowed (equal, chips, ICM, chip-chop)
    hand_for_hand = true
    time_limit_minutes = 0              # > 0: prizes by chip count when time is up
    cancel_refund = "chips"             # the host's cancel: the pool left split by chips or "equal"
    dealing = "host-blind"              # the players' own clients shuffle and deal every hand (fairness v2):
                                        #   texas_holdem or omaha, no/pot/fixed limit; only `croupier join` players
                                        #   and bots can register; default "commit-reveal"
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Final

from engine.structures import StructureKind
from engine.tournament.bounties import BountySettings
from engine.tournament.formats import SPIN_DRAW_RANGE, Format, SpinRow
from engine.tournament.levels import Level, Stage, turbo_schedule, with_breaks
from engine.tournament.money import EntryPrice
from engine.tournament.settings import MAX_PLAYERS, AddOn, PayoutKind, Rebuys, TournamentSettings
from engine.variants import VARIANTS, ForcedBetKind
from hosting.config_reader import ConfigError, Reader
from hosting.host_blind_games import DEALINGS, HOST_BLIND, check_host_blind_game

_ID = re.compile(r"[A-Za-z0-9_-]{1,24}\Z")  # no dot: a tournament's tables are <id>.1, <id>.2, …
BIG: Final = 10**12
TOURNAMENT_KEYS: Final = (
    "id", "name", "type", "game", "structure", "buy_in", "fee", "knockout", "progressive", "starting_chips",
    "levels", "level_minutes", "break_every", "break_minutes", "late_registration_minutes", "re_entries",
    "entries_per_player", "rebuys", "add_on", "guarantee", "freeroll_pool", "payouts", "ticket_value", "ticket_to",
    "seats", "start", "sit_and_go_size", "min_players", "max_players", "recurring", "password", "spin_multipliers",
    "deals", "hand_for_hand", "time_limit_minutes", "cancel_refund", "dealing",
)
PRESETS: Final = {"turbo": (3.0, 50), "regular": (10.0, 100), "deep": (20.0, 200)}
"""A named level preset: minutes per level and the starting stack in big blinds of the first level."""
CANCEL_REFUNDS: Final = ("chips", "equal")


@dataclass(frozen=True)
class TournamentConfig:
    """One ``[[tournaments]]`` entry: the director's settings and what the room does around them."""

    settings: TournamentSettings
    name: str
    recurring: bool = False
    cancel_refund: str = "chips"
    """How the host's cancel splits the pool left (:meth:`engine.tournament.director.Tournament.cancel_running`).
    RULES.md and the seeds are silent; ``chips`` is the default, as online rooms' cancellation policies pay."""
    dealing: str = "commit-reveal"
    """``"host-blind"``: every hand is dealt by the players' own clients (fairness v2), as at a host-blind table."""

    @property
    def host_blind(self) -> bool:
        return self.dealing == HOST_BLIND

    @property
    def id(self) -> str:
        return self.settings.tournament_id

    def numbered(self, number: int) -> TournamentConfig:
        """The ``number``-th copy of a recurring Sit & Go (``<id>-<number>``; the first keeps its id)."""
        if number <= 1:
            return self
        return replace(self, settings=replace(self.settings, tournament_id=f"{self.id}-{number}"))


def read_tournaments(source: str, data: Any, taken: set[str]) -> tuple[TournamentConfig, ...]:
    """``[[tournaments]]`` (none by default), each id unused by a table, a pool or an earlier tournament."""
    if data is None:
        return ()
    if not isinstance(data, list) or not data:
        raise ConfigError(f"{source}: tournaments: expected one or more [[tournaments]]")
    tournaments = []
    seen = set(taken)
    for index, item in enumerate(data):
        tournament = read_tournament(source, index, item)
        if tournament.id in seen or any(name.startswith(tournament.id + ".") for name in seen):
            raise ConfigError(f"{source}: tournaments[{index}].id: {tournament.id!r} is used by a table, pool or "
                              f"an earlier tournament")
        seen.add(tournament.id)
        tournaments.append(tournament)
    return tuple(tournaments)


def read_tournament(source: str, index: int, data: Any) -> TournamentConfig:
    """One ``[[tournaments]]`` table; :class:`ConfigError` naming the key on any problem."""
    reader = Reader(source, data if isinstance(data, dict) else {}, f"tournaments[{index}]")
    if not isinstance(data, dict):
        raise reader.fail("", "expected a table ([[tournaments]])")
    reader.check_keys(TOURNAMENT_KEYS)
    dealing = reader.choice("dealing", DEALINGS, "commit-reveal")
    tournament_id = reader.text("id", f"tourney{index + 1}", _ID, "an id (1-24 of A-Z a-z 0-9 _ -)") or ""
    kind = Format(reader.choice("type", tuple(item.value for item in Format), "sit_and_go"))
    game = reader.choice("game", tuple(VARIANTS), "texas_holdem")
    variant = VARIANTS[game]
    structure = StructureKind(reader.choice("structure", tuple(item.value for item in StructureKind), "no_limit"))
    price = EntryPrice(reader.integer("buy_in", 100, 0, BIG), reader.integer("fee", 0, 0, BIG),
                       reader.integer("knockout", 0, 0, BIG))
    starting = reader.integer("starting_chips", 10_000 if kind is not Format.SPIN else 500, 1, BIG)
    if dealing == HOST_BLIND:
        check_host_blind_game(reader, game, structure.value)
    stud = variant.forced_bets is ForcedBetKind.ANTE_BRING_IN
    schedule = _read_levels(reader, starting, stud)
    seats_default = {Format.HEADS_UP: 2, Format.SPIN: 3}.get(kind, min(9, variant.max_players))
    sit_and_go = _sit_and_go_size(reader, kind, seats_default)
    start = _read_start(reader) if kind is Format.SCHEDULED else None
    if start is None and kind is Format.SCHEDULED:
        raise reader.fail("start", "a scheduled tournament needs its start (a TOML date-time)")
    late_minutes = reader.integer("late_registration_minutes", 0, 0, 24 * 60)
    fields: dict[str, Any] = dict(
        tournament_id=tournament_id, format=kind, variant=variant, structure=structure,
        seats_per_table=reader.integer("seats", seats_default, 2, min(10, variant.max_players)), price=price,
        starting_stack=starting, schedule=schedule,
        min_players=reader.integer("min_players", 2, 2, MAX_PLAYERS),
        max_players=reader.integer("max_players", sit_and_go or MAX_PLAYERS, 2, MAX_PLAYERS),
        sit_and_go_size=sit_and_go, start_time=start, password=reader.text("password", None, what="a password"),
        late_registration_seconds=late_minutes * 60.0, re_entries=reader.integer("re_entries", 0, 0, 100),
        entries_per_player=reader.integer("entries_per_player", 1, 1, 100),
        rebuys=_read_rebuys(reader), add_on=_read_add_on(reader, price),
        guarantee=reader.integer("guarantee", 0, 0, BIG), freeroll_pool=reader.integer("freeroll_pool", 0, 0, BIG),
        bounties=_read_bounties(reader, price), deals_allowed=_flag(reader, "deals", True),
        hand_for_hand=_flag(reader, "hand_for_hand", True),
        time_limit_seconds=(reader.integer("time_limit_minutes", 0, 0, 7 * 24 * 60) * 60.0) or None,
    )
    fields.update(_read_payouts(reader))
    if "spin_multipliers" in reader.data:
        fields["spin_table"] = _read_spin(reader)
    try:
        settings = TournamentSettings(**fields)
    except ValueError as problem:  # the director's own check names the setting: say which key it is
        key, _, text = str(problem).partition(": ")
        raise reader.fail(_KEY_OF_SETTING.get(key, key), text or str(problem)) from None
    _check_places(reader, settings)
    name = reader.text("name", None) or f"{variant.name} {tournament_id}"
    recurring = _flag(reader, "recurring", False)
    if recurring and sit_and_go is None:
        raise reader.fail("recurring", "only a Sit & Go recurs (a new one opens when one fills)")
    return TournamentConfig(settings, name, recurring,
                            reader.choice("cancel_refund", CANCEL_REFUNDS, "chips"), dealing)


_KEY_OF_SETTING: Final = {"starting_stack": "starting_chips", "seats_per_table": "seats",
                          "late_registration_seconds": "late_registration_minutes", "start_time": "start",
                          "payout_percentages": "payouts", "payout": "payouts", "players": "max_players",
                          "schedule": "levels", "entries_per_player >= 1 and re_entries >= 0": "re_entries"}


def _flag(reader: Reader, key: str, default: bool) -> bool:
    value = reader.data.get(key, default)
    if not isinstance(value, bool):
        raise reader.fail(key, f"expected true or false, got {value!r}")
    return value


def _sit_and_go_size(reader: Reader, kind: Format, seats: int) -> int | None:
    needs = kind not in (Format.SCHEDULED,)
    if "sit_and_go_size" not in reader.data:
        return {Format.SPIN: 3, Format.HEADS_UP: 2}.get(kind, seats) if needs else None
    if not needs:
        raise reader.fail("sit_and_go_size", "a scheduled tournament starts at its time, not when full")
    return reader.integer("sit_and_go_size", seats, 2, MAX_PLAYERS)


def _read_start(reader: Reader) -> float | None:
    value = reader.data.get("start")
    if value is None:
        return None
    if not isinstance(value, datetime.datetime) or value.tzinfo is None:
        raise reader.fail("start", f"expected a TOML date-time with its zone (2026-12-06T20:00:00Z), got {value!r}")
    return value.timestamp()


def _read_levels(reader: Reader, starting: int, stud: bool) -> tuple[Stage, ...]:
    value = reader.data.get("levels", "turbo")
    if isinstance(value, str):
        if value not in PRESETS:
            raise reader.fail("levels", f"expected one of {', '.join(PRESETS)} or a list of levels, got {value!r}")
        if stud:
            raise reader.fail("levels", "stud games list their levels (ante and bring-in)")
        minutes, big_blinds = PRESETS[value]
        minutes = float(reader.integer("level_minutes", int(minutes), 1, 240)) if "level_minutes" in reader.data \
            else minutes
        first = max(20, starting // big_blinds // 20 * 20)
        levels: list[Level] = [stage for stage in turbo_schedule(first, minutes=minutes, count=20)
                               if isinstance(stage, Level)]
    elif isinstance(value, list) and value:
        if "level_minutes" in reader.data:
            raise reader.fail("level_minutes", "only a named preset takes level_minutes")
        levels = [_read_level(reader, index, item, stud) for index, item in enumerate(value)]
    else:
        raise reader.fail("levels", f"expected a preset name or a list of levels, got {value!r}")
    every = reader.integer("break_every", 0, 0, 100)
    if every:
        return with_breaks(levels, every=every, seconds=reader.integer("break_minutes", 5, 1, 120) * 60.0)
    return tuple(levels)


def _read_level(reader: Reader, index: int, item: Any, stud: bool) -> Level:
    level = Reader(reader.source, item if isinstance(item, dict) else {}, f"{reader.path}.levels[{index}]")
    if not isinstance(item, dict):
        raise reader.fail(f"levels[{index}]", "expected a table {small_blind = …, big_blind = …, minutes = …}")
    level.check_keys(("small_blind", "big_blind", "ante", "big_blind_ante", "bring_in", "minutes"))
    try:
        return Level(level.integer("small_blind", 0, 0, BIG), level.integer("big_blind", 0 if stud else 1, 0, BIG),
                     ante=level.integer("ante", 0, 0, BIG), big_blind_ante=level.integer("big_blind_ante", 0, 0, BIG),
                     bring_in=level.integer("bring_in", 0, 0, BIG),
                     duration=level.integer("minutes", 10, 1, 24 * 60) * 60.0)
    except ValueError as problem:
        if isinstance(problem, ConfigError):
            raise
        raise reader.fail(f"levels[{index}]", str(problem)) from None


def _read_rebuys(reader: Reader) -> Rebuys | None:
    if "rebuys" not in reader.data:
        return None
    item = reader.data["rebuys"]
    table = Reader(reader.source, item if isinstance(item, dict) else {}, f"{reader.path}.rebuys")
    if not isinstance(item, dict):
        raise reader.fail("rebuys", "expected { minutes = …, threshold = …, chips = …, price = … }")
    table.check_keys(("minutes", "threshold", "chips", "price", "fee", "max"))
    return Rebuys(table.integer("minutes", 60, 1, 24 * 60) * 60.0, table.integer("threshold", 0, 0, BIG),
                  table.integer("chips", 1, 1, BIG), table.integer("price", 0, 0, BIG), table.integer("fee", 0, 0, BIG),
                  table.integer("max", 1, 1, 1000) if "max" in item else None)


def _read_add_on(reader: Reader, price: EntryPrice) -> AddOn | None:
    if "add_on" not in reader.data:
        return None
    item = reader.data["add_on"]
    table = Reader(reader.source, item if isinstance(item, dict) else {}, f"{reader.path}.add_on")
    if not isinstance(item, dict):
        raise reader.fail("add_on", "expected { chips = …, price = …, fee = …, minutes = … }")
    table.check_keys(("chips", "price", "fee", "minutes"))
    return AddOn(table.integer("chips", 1, 1, BIG), table.integer("price", price.buy_in, 0, BIG),
                 table.integer("fee", 0, 0, BIG), table.integer("minutes", 5, 1, 240) * 60.0)


def _read_bounties(reader: Reader, price: EntryPrice) -> BountySettings | None:
    progressive = _flag(reader, "progressive", False)
    if progressive and not price.knockout:
        raise reader.fail("progressive", "a progressive knockout needs a knockout part (knockout = …)")
    if not price.knockout:
        return None
    return BountySettings(progressive=progressive, progressive_share=Fraction(1, 2))


def _read_payouts(reader: Reader) -> dict[str, Any]:
    value = reader.data.get("payouts", "default")
    if isinstance(value, list):
        if not value or not all(isinstance(item, int) and not isinstance(item, bool) and item > 0 for item in value) \
                or sum(value) != 100:
            raise reader.fail("payouts", f"a payout table is positive percentages that sum to 100, got {value!r}")
        return {"payout": PayoutKind.TABLE, "payout_percentages": tuple(value)}
    kinds = ("default", "winner_takes_all", "tickets")
    if value not in kinds:
        raise reader.fail("payouts", f"expected one of {', '.join(kinds)} or a list of percentages, got {value!r}")
    fields: dict[str, Any] = {"payout": PayoutKind(value)}
    if value == "tickets":
        fields["ticket_value"] = reader.integer("ticket_value", 0, 1, BIG)
        fields["ticket_to"] = reader.text("ticket_to", None, _ID, "a tournament id")
    elif "ticket_value" in reader.data or "ticket_to" in reader.data:
        raise reader.fail("ticket_value", "only payouts = \"tickets\" (a satellite) pays tickets")
    return fields


def _check_places(reader: Reader, settings: TournamentSettings) -> None:
    """A payout table with more places than the tournament can ever have entries is refused in one line (the
    director would share the pool among the places that exist: better the host says what he means)."""
    entries = settings.sit_and_go_size or settings.max_players
    places = len(settings.payout_percentages) if settings.payout is PayoutKind.TABLE else 0
    if settings.format is Format.SPIN:
        places = max(len(row.percentages) for row in settings.spin_table)
    if places > entries:
        key = "spin_multipliers" if settings.format is Format.SPIN else "payouts"
        raise reader.fail(key, f"the table pays {places} places but at most {entries} players can enter: it can "
                               f"never be filled (list at most {entries} percentages)")


def _read_spin(reader: Reader) -> tuple[SpinRow, ...]:
    value = reader.data["spin_multipliers"]
    if not isinstance(value, list) or not value:
        raise reader.fail("spin_multipliers", "expected a list of { multiplier, chances, percentages }")
    rows = []
    for index, item in enumerate(value):
        row = Reader(reader.source, item if isinstance(item, dict) else {}, f"{reader.path}.spin_multipliers[{index}]")
        row.check_keys(("multiplier", "chances", "percentages"))
        percentages = row.data.get("percentages", [100])
        if not isinstance(percentages, list) or sum(percentages) != 100:
            raise row.fail("percentages", f"expected percentages that sum to 100, got {percentages!r}")
        rows.append(SpinRow(row.integer("multiplier", 2, 1, 100_000), row.integer("chances", 1, 1, SPIN_DRAW_RANGE),
                            tuple(percentages)))
    if sum(row.chances for row in rows) != SPIN_DRAW_RANGE:
        raise reader.fail("spin_multipliers", f"the chances sum to {SPIN_DRAW_RANGE:,}, got "
                                              f"{sum(row.chances for row in rows):,}")
    return tuple(rows)

