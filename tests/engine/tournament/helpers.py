"""Small builders for tournament tests: settings, a first-choice draw, rigged decks, scripted hands."""

from __future__ import annotations

from collections.abc import Mapping

from engine.actions import BetOrRaise, Call, Check, Fold
from engine.cards import Card, full_deck, parse_cards
from engine.events import Event
from engine.tournament.director import Tournament
from engine.tournament.levels import Level
from engine.tournament.money import Balance
from engine.tournament.settings import TournamentSettings


def first(n: int) -> int:
    """A draw that always picks the first choice: seating and buttons become predictable."""
    return 0


LEVELS = (Level(50, 100, duration=600), Level(100, 200, duration=600), Level(200, 400, duration=600))


def running(settings: TournamentSettings, players: int, *, now: float = 0.0) -> Tournament:
    """A tournament with ``players`` registered (p1, p2, …) by balance and started at ``now``."""
    tournament = Tournament(settings, first)
    tournament.open_registration(now)
    for index in range(1, players + 1):
        tournament.register(f"p{index}", Balance(), now)
    if tournament.started_at is None:
        tournament.start(now)
    return tournament


def rigged_deck(tournament: Tournament, table_number: int, holes: Mapping[int, str], board: str) -> list[Card]:
    """A deck giving each entry in ``holes`` those two cards and the ``board``; others get the rest."""
    table = tournament.tables[table_number]
    first_button = None
    if table.positions is None:
        first_button = min(seat for seat, s in table.seats.items() if s.stack > 0)
    order = table.dealing_order(first_button)
    wanted = {seat: parse_cards(holes[table.seats[seat].entry]) for seat in order if table.seats[seat].entry in holes}
    used = {card for cards in wanted.values() for card in cards} | set(parse_cards(board))
    spare = iter([card for card in full_deck() if card not in used])
    dealt = {seat: list(cards) if seat in wanted else [next(spare), next(spare)] for seat, cards in
             ((seat, wanted.get(seat, ())) for seat in order)}
    deck = [dealt[seat][round_] for round_ in range(2) for seat in order]
    return deck + list(parse_cards(board)) + list(spare)


def play_hand(tournament: Tournament, table_number: int, deck: list[Card], now: float,
              shovers: set[int] | frozenset[int] = frozenset(), callers: set[int] | frozenset[int] = frozenset(),
              ) -> list[Event]:
    """Deal and play one hand: ``shovers`` move all in, ``callers`` call anything, everyone else checks or
    folds. Returns every event."""
    events = tournament.start_hand(table_number, deck, now)
    table = tournament.tables.get(table_number)
    while table is not None and table.hand is not None:
        options = table.legal_actions()
        assert options is not None
        entry = table.seats[options.seat].entry
        if entry in shovers and options.max_raise_to is not None:
            action: BetOrRaise | Call | Check | Fold = BetOrRaise(options.max_raise_to)
        elif (entry in shovers or entry in callers) and options.call_amount is not None:
            action = Call()
        elif options.can_check:
            action = Check()
        else:
            action = Fold()
        events += tournament.act(table_number, entry, action, now)
        table = tournament.tables.get(table_number)
    return events


def of_type(events: list[Event], kind: type[Event]) -> list[Event]:
    """The events of one class."""
    return [event for event in events if isinstance(event, kind)]
