"""What players see of a tournament (issue 18; PROTOCOL.md "Tournaments"): typed control data, never prose.

* :func:`lobby_row` — the lobby's row (R-LOBBY-1): type, game, buy-in + fee, registered / max, start (or the Sit
  & Go size it starts at), status.
* :func:`state_body` — the ``tournament`` message (the tournament screen): structure (levels, the level now, the
  next level and the seconds to it, a break's end), payouts, prize pool, players ranked by chips with their
  bounties, tables with their counts, the asker's table and entries, late registration / rebuy / add-on
  availability, hand-for-hand, a deal on the table.
* :func:`event_messages` — each director event (:mod:`engine.tournament.events`) as a ``tournament_event``
  message ``{"tournament": id, "event": body}`` (the one event encoding) to the players it concerns: his own
  (registered, seated, moved, rebuy offered, paid, credited) to him; eliminations, places, bounties and prizes
  to every entrant of a small tournament (:data:`SMALL_FIELD`), and in a larger one to the players they name and
  the players at those players' tables (a 3,000-entry field does not hear 3,000 busts each: its screen's counts
  come when asked); the rest (breaks, hand-for-hand, the final table, deals, the end) to every entrant. A level
  is not sent here: each player hears it once, as his table's ``LevelChanged`` (``TournamentOwner._set_level``).
  A table number ``n`` in an event is the room table ``<tournament>.<n>``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from engine.errors import InvalidAmount, NotSeated, TableRuleError
from engine.events import Event
from engine.tournament.director import Phase, Tournament
from engine.tournament.events import (
    AddedOn,
    BountyWon,
    Credited,
    Eliminated,
    LevelUp,
    Paid,
    PlayerMoved,
    PlayerSeatedAt,
    PrizeAwarded,
    Ranked,
    Rebought,
    RebuyOffered,
    Registered,
    TableBroken,
    TableOpened,
    TournamentEvent,
    Unregistered,
)
from engine.tournament.formats import Format, spin_expected_return
from engine.tournament.levels import Break, Level, time_until_level
from hosting import protocol
from hosting.hand_codec import event_to_json
from hosting.tournament_config import TournamentConfig


class TicketBook(Protocol):
    """The store as these messages read it: a player's tickets (value by the tournament they enter)."""

    def tickets(self, name: str) -> dict[str, int]: ...


class TournamentOwner(Protocol):
    """What these messages read of a tournament (:class:`hosting.tournaments.TournamentOwner`)."""

    config: TournamentConfig
    director: Tournament
    rebuy_decision_seconds: float

    @property
    def store(self) -> TicketBook | None: ...

    @property
    def id(self) -> str: ...

    def table_id(self, number: int) -> str: ...

PERSONAL = (Registered, Unregistered, PlayerSeatedAt, PlayerMoved, RebuyOffered, Rebought, AddedOn, Paid, Credited)
"""Events only their player hears."""
ABOUT_PLAYERS = (Eliminated, Ranked, BountyWon, PrizeAwarded)
"""Events about some players: every entrant hears them in a small field, the players concerned in a large one."""
ABOUT_TABLES = (TableOpened, TableBroken)
"""Events about a table: every entrant hears them in a small field, the players seated there in a large one (a
3,000-entry start opens 334 tables: a million messages otherwise; a broken table's players hear their moves)."""
SMALL_FIELD = 100
"""Up to this many entries every entrant hears every elimination, place, bounty and prize (a Sit & Go, a small
MTT: each bust moves everyone's place); beyond, only the players concerned do."""
RANKED_ROWS = 100
"""Players listed on the tournament screen (the asker's own entries are always there)."""


def tournament_event(tournament_id: str, event: Event) -> dict[str, Any]:
    """One director event as a typed message."""
    return protocol.message("tournament_event", tournament=tournament_id, event=event_to_json(event))


def event_messages(owner: TournamentOwner, events: Sequence[Event], at: int | None = None,
                   ) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, message) for each director event and each player it concerns; ``at``: the table whose hand brought
    them (its players saw the busts there)."""
    entrants: list[str] | None = None
    small = len(owner.director.entries) <= SMALL_FIELD
    for event in events:
        if not isinstance(event, TournamentEvent) or isinstance(event, LevelUp):
            continue  # a level reaches players as their table's LevelChanged (hosting.tournaments._set_level)
        message = tournament_event(owner.id, event)
        if isinstance(event, RebuyOffered):  # his table waits that long for his answer: the window shows it
            message["event"]["seconds"] = owner.rebuy_decision_seconds
        if isinstance(event, PERSONAL):
            yield event.player, message
            continue
        message = protocol.shared(message)  # one JSON line for all who hear it (3,000 at a level change)
        if isinstance(event, ABOUT_PLAYERS) and not small:
            for name in concerned(owner.director, event, at):
                yield name, message
            continue
        if isinstance(event, ABOUT_TABLES) and not small:
            table = owner.director.tables.get(event.table)
            for seat in table.seats.values() if table is not None else ():
                yield seat.player, message
            continue
        if entrants is None:
            entrants = owner.director.players()
        for name in entrants:
            yield name, message


def concerned(director: Tournament, event: Eliminated | Ranked | BountyWon | PrizeAwarded, at: int | None = None,
              ) -> list[str]:
    """The players ``event`` names and the players seated now at their tables and at table ``at`` (where it
    happened)."""
    named = [event.winner, event.loser] if isinstance(event, BountyWon) else [event.player]
    if isinstance(event, Eliminated):
        named += event.by
    tables = {entry.table for name in named for entry in director.entries_of(name)
              if entry.live and entry.table is not None} | ({at} if at is not None else set())
    seated = [seat.entry for number in sorted(tables) if number in director.tables
              for seat in director.tables[number].seats.values()]
    return sorted(set(named) | {director.entries[entry].player for entry in seated})


def _status(owner: TournamentOwner) -> str:
    director = owner.director
    if director.phase is Phase.REGISTERING and director.settings.sit_and_go_size is None:
        return "registering"
    return "late_registration" if director.playing and director.late_registration_open else director.phase.value


def lobby_row(owner: TournamentOwner, now: float) -> dict[str, Any]:
    """The lobby's row for a tournament (R-LOBBY-1)."""
    settings, director = owner.director.settings, owner.director
    return {
        "id": owner.id, "name": owner.config.name, "kind": "tournament", "type": settings.format.value,
        "game": settings.variant.id, "structure": settings.structure.value,
        "buy_in": [settings.price.buy_in, settings.price.fee], "knockout": settings.price.knockout,
        "registered": len(director.entries), "max": settings.sit_and_go_size or settings.max_players,
        "start": settings.start_time, "starts_when": settings.sit_and_go_size, "status": _status(owner),
        "private": settings.password is not None, "players_left": director.live_count if director.playing else None,
        "prize_pool": director.cashier.pool + director.cashier.paid_out,
        "expected_return": _expected_return(owner),
    }


def _expected_return(owner: TournamentOwner) -> float | None:
    """A Spin's expected prize as a percentage of the buy-ins paid in (its multiplier table's: 100 for the
    default table, the room keeps only the fees); ``None`` for other formats."""
    settings = owner.director.settings
    if settings.format is not Format.SPIN:
        return None
    return round(float(spin_expected_return(settings.spin_table, settings.sit_and_go_size or 3)) * 100, 1)


def _levels(owner: TournamentOwner) -> list[dict[str, Any]]:
    return [{"break": item.duration} if isinstance(item, Break) else
            {"small_blind": item.small_blind, "big_blind": item.big_blind, "ante": item.ante,
             "big_blind_ante": item.big_blind_ante, "bring_in": item.bring_in, "seconds": item.duration}
            for item in owner.director.settings.schedule]


def _clock(owner: TournamentOwner, now: float) -> dict[str, Any]:
    """The level now, the next level and the seconds to it, a break's end (seconds from now)."""
    director = owner.director
    level = director.level
    clock: dict[str, Any] = {"level": director.level_number,
                             "blinds": [level.small_blind, level.big_blind, level.ante, level.big_blind_ante],
                             "next_level_in": None, "break_ends_in": None, "on_break": director.in_break}
    if director.started_at is None:
        return clock
    elapsed = director.elapsed(now)
    schedule = director.settings.schedule
    levels = [item for item in schedule if isinstance(item, Level)]
    if director.level_number < len(levels):
        clock["next_level_in"] = round(max(0.0, time_until_level(schedule, director.level_number + 1) - elapsed), 1)
        upcoming = levels[director.level_number]
        clock["next_blinds"] = [upcoming.small_blind, upcoming.big_blind, upcoming.ante, upcoming.big_blind_ante]
    if director.in_break and clock["next_level_in"] is not None:
        clock["break_ends_in"] = clock["next_level_in"]
    return clock


def _players(owner: TournamentOwner, name: str | None) -> list[dict[str, Any]]:
    director = owner.director
    heads = director.bounties.heads
    rows: list[dict[str, Any]] = []
    for entry in director.entries.values():
        rows.append({"name": entry.player, "entry": entry.number, "chips": director.stack_of(entry.number),
                     "bounty": heads.get(entry.number, 0), "table": owner.table_id(entry.table)
                     if entry.table is not None else None, "place": entry.place, "live": entry.live})
    rows.sort(key=lambda row: (not row["live"], -int(row["chips"]), row["place"] or 0, row["entry"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return [row for index, row in enumerate(rows) if index < RANKED_ROWS or row["name"] == name]


def _available(owner: TournamentOwner, name: str | None, now: float) -> dict[str, bool]:
    director = owner.director
    mine = director.entries_of(name) if name is not None else []
    live = [entry for entry in mine if entry.live]
    rebuy = add_on = False
    for entry in live:
        try:
            director.verify_rebuy(entry.number, now)
            rebuy = True
        except (TableRuleError, NotSeated, InvalidAmount):  # the director says why; here only yes or no
            pass
        settings = director.settings
        if settings.add_on is not None and settings.rebuys is not None and not entry.added_on:
            elapsed = director.elapsed(now)
            until = settings.rebuys.until_seconds
            add_on = add_on or until <= elapsed < until + settings.add_on.window_seconds
    register = director.phase is Phase.REGISTERING or (director.playing and director.late_registration_open)
    return {"late_registration": director.playing and director.late_registration_open, "register": register,
            "rebuy": rebuy, "add_on": add_on, "ticket": register and _ticket_pays(owner, name)}


def _ticket_pays(owner: TournamentOwner, name: str | None) -> bool:
    """Whether ``name`` holds tickets for this tournament worth its entry (the lobby asks: ticket or balance)."""
    settings = owner.director.settings
    if name is None or owner.store is None or settings.is_freeroll:
        return False
    return owner.store.tickets(name).get(owner.id, 0) >= settings.price.total


def state_body(owner: TournamentOwner, name: str | None, now: float) -> dict[str, Any]:
    """The ``tournament`` message for ``name`` (None: a watcher)."""
    director = owner.director
    settings = director.settings
    mine = director.entries_of(name) if name is not None else []
    my_table = next((owner.table_id(entry.table) for entry in mine if entry.live and entry.table is not None), None)
    deal = director.deal_on_table
    return {
        **lobby_row(owner, now),
        "type": "tournament", "format": settings.format.value, "phase": director.phase.value,
        "starting_chips": settings.starting_stack, "seats": settings.seats_per_table, "levels": _levels(owner),
        "clock": _clock(owner, now), "payouts": [prize.amount for prize in director.projected_prizes()],
        "pool": director.cashier.pool, "paid_out": director.cashier.paid_out,
        "players": _players(owner, name),
        "tables": [{"id": owner.table_id(number), "players": table.player_count, "chips": table.chips()}
                   for number, table in sorted(director.tables.items())],
        "my_table": my_table, "my_entries": [entry.number for entry in mine],
        "available": _available(owner, name, now), "hand_for_hand": director.hand_for_hand,
        "spin_multiplier": director.spin_multiplier,
        "deal_offers": {} if deal is not None else {kind: [list(share) for share in shares]
                                                      for kind, shares in director.deal_offers().items()},
        "deal": None if deal is None else {
            "kind": deal[0],
            "shares": [[director.entries[entry].player, share] for entry, share in sorted(deal[1].items())],
            "accepted": sorted(director.entries[entry].player for entry in deal[2])},
    }
