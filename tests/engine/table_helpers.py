"""Shared helpers for the table tests: configs, seeded decks, a fake clock and a simple hand driver."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.actions import Action, Call, Check, Fold, LegalActions
from engine.cards import Card, full_deck
from engine.events import Event
from engine.hand import HandConfig
from engine.structures import BettingStructure
from engine.table import HandStarter, Table, TableConfig
from engine.table_events import HandPlanned
from engine.variants import TEXAS_HOLDEM


def no_limit_config(seat_count: int = 6, **changes: object) -> TableConfig:
    settings: dict[str, object] = {
        "seat_count": seat_count, "small_blind": 5, "big_blind": 10, "min_buy_in": 200, "max_buy_in": 1_000,
    }
    settings.update(changes)
    return TableConfig(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), **settings)  # type: ignore[arg-type]


def limit_config(seat_count: int = 6, **changes: object) -> TableConfig:
    settings: dict[str, object] = {"seat_count": seat_count, "small_blind": 5, "big_blind": 10, "min_buy_in": 100}
    settings.update(changes)
    return TableConfig(HandConfig(TEXAS_HOLDEM, BettingStructure.fixed_limit(10)), **settings)  # type: ignore[arg-type]


def decks(seed: int) -> Callable[[], list[Card]]:
    rng = random.Random(seed)

    def deck() -> list[Card]:
        cards = list(full_deck())
        rng.shuffle(cards)
        return cards

    return deck


def draw_deck(*text: str) -> list[Card]:
    """A dealer-draw deck whose first cards are ``text`` (in seat order of the players who can play)."""
    from engine.cards import parse_cards

    first = list(parse_cards(" ".join(text)))
    return first + [card for card in full_deck() if card not in first]


@dataclass
class FakeClock:
    now: float = 0.0

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def passive(options: LegalActions) -> Action:
    """Check when free, else call: every hand goes to showdown."""
    return Check() if options.can_check else Call()


def fold_to_big_blind(options: LegalActions) -> Action:
    """Check when free, else fold: the big blind wins most hands uncontested."""
    return Check() if options.can_check else Fold()


def play_out(table: Table, clock: FakeClock, strategy: Callable[[LegalActions], Action] = passive,
             seconds_per_action: float = 1.0) -> list[Event]:
    """Act for whoever is to act until the hand ends."""
    events: list[Event] = []
    while table.hand is not None:
        turn = table.to_act()
        assert turn is not None, "a running hand must have a player to act"
        options = table.hand.legal_actions()
        assert options is not None and options.seat == turn[0]
        events += table.act(table.players[turn[0]].player, strategy(options), clock.advance(seconds_per_action))
    return events


def planned(events: list[Event]) -> HandPlanned:
    (plan,) = [event for event in events if isinstance(event, HandPlanned)]
    return plan


def make_table(config: TableConfig, starter: HandStarter | None = None) -> Table:
    return Table(config) if starter is None else Table(config, hand_starter=starter)
