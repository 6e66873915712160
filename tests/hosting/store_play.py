"""Bot tables that play real engine hands into a :class:`hosting.store.Store`, the way a table runner does.

Each hand: host and seat secrets (from the test's random generator), commitments, the deck from
:func:`engine.fairness.derive_deck`, ``Table.start_hand``, the snapshot to the store, bots acting until the hand
ends, then the result with its ledger rows and the transcript in one store operation. Between hands a bot that
runs low tops up from his balance (a ledger movement), and one who leaves cashes out.

Used by the store, export and fault tests and by ``tests/benchmarks/store.py``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, BetOrRaise, Call, Check, Fold, Muck, Show
from engine.cards import Card
from engine.events import BoardDealt, DrawnCardsDealt, Event, HoleCardsDealt, UpCardsDealt
from engine.fairness import HOST, Committer, Deal, Recipient, Transcript, commit, derive_deck
from engine.table import Table
from engine.table_events import ChipsReturned
from hosting.config import TableConfig
from hosting.room import build_engine_table
from hosting.store import Store, hand_start_of, table_settings

ROOM_ID = "room-under-test"

#: Every game and structure a cash table deals today, with stakes and buy-ins.
GAMES: tuple[tuple[str, str, int, int], ...] = (
    ("texas_holdem", "no_limit", 5, 10),
    ("texas_holdem", "fixed_limit", 5, 10),
    ("omaha", "pot_limit", 5, 10),
    ("omaha_hi_lo", "fixed_limit", 10, 20),
    ("texas_holdem", "pot_limit", 1, 2),
    ("omaha", "no_limit", 2, 5),
)


def table_config(table_id: str, game: str, structure: str, small_blind: int, big_blind: int,
                 seats: int = 6, rake: str = "none") -> TableConfig:
    return TableConfig(table_id, f"Table {table_id}", game, structure, small_blind, big_blind, seats,
                       min_buy_in=40 * big_blind, max_buy_in=100 * big_blind, rake=rake,
                       clock={"action_seconds": 20.0, "time_bank_seconds": 60.0})


def choose(options: Any, rng: random.Random, aggression: float = 0.15) -> Action:
    """A legal move: mostly check/call, sometimes fold or raise (min, max or in between)."""
    if options.can_show or options.can_muck:
        return Show() if options.can_show and rng.random() < 0.8 else Muck()
    roll = rng.random()
    if options.min_raise_to is not None and roll < aggression:
        low, high = options.min_raise_to, options.max_raise_to or options.min_raise_to
        pick = rng.random()
        amount = high if pick < 0.1 else low if pick < 0.6 else rng.randint(low, high)
        return BetOrRaise(amount)
    if options.can_check:
        return Check()
    if options.call_amount is not None:
        return Fold() if roll > 0.8 else Call()
    return Fold()


@dataclass
class BotTable:
    """One table of bots playing into the store. ``settle`` awaits each hand's commit before the next hand
    (what a room does to promise that a finished hand is never lost)."""

    store: Store
    config: TableConfig
    players: Sequence[str]
    rng: random.Random
    clock: float = 0.0
    table: Table = field(init=False)
    hands: list[str] = field(default_factory=list)
    settings: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.table = build_engine_table(self.config)
        self.settings = table_settings(self.config)
        self.store.save_table(self.config.id, self.settings)
        for name in self.players:
            self.sit(name)

    def sit(self, name: str) -> None:
        amount = min(self.config.max_buy_in, self.store.balance(name))
        if amount < self.config.min_buy_in:
            self.store.issue(name, 10 * self.config.max_buy_in, "refill")
            amount = self.config.max_buy_in
        self.store.buy_in(self.config.id, name, amount)
        self.table.sit(name, amount, self.clock)

    def between_hands(self) -> None:
        """Top up the short stacks, bring busted players back in (R-BUYIN-1)."""
        for seated in list(self.table.players.values()):
            name = seated.player
            if seated.stack < self.config.min_buy_in:
                want = self.config.max_buy_in - seated.stack
                if self.store.balance(name) < want:
                    self.store.issue(name, 10 * self.config.max_buy_in, "refill")
                self.store.buy_in(self.config.id, name, want, "top-up")
                self.table.top_up(name, want, self.clock)
            if seated.sitting_out:
                self.table.sit_in(name, self.clock)

    def cash_out_all(self) -> None:
        for seated in list(self.table.players.values()):
            self._returned(self.table.leave(seated.player, self.clock))

    def _returned(self, events: Sequence[Event]) -> None:
        for event in events:
            if isinstance(event, ChipsReturned):
                self.store.cash_out(self.config.id, event.player, event.amount)

    def play_hand(self, started_at: float) -> tuple[str, asyncio.Future[Any] | None]:
        """Play one whole hand; returns its id and the store's commit future (``None`` when writing directly)."""
        self.between_hands()
        table = self.table
        hand_id = f"{self.config.id}-{table.hand_number + 1}"
        players = sorted(seat for seat, seated in table.players.items() if seated.can_play)
        secrets: dict[Committer, bytes] = {HOST: self.rng.randbytes(32)}
        secrets.update({seat: self.rng.randbytes(32) for seat in players})
        commitments = {who: commit(ROOM_ID, self.config.id, hand_id, who, secret) for who, secret in secrets.items()}
        plan = table.plan_next_hand(drawn_button=players[0] if table.positions is None else None)
        assert plan is not None
        seeds = {who: secret for who, secret in secrets.items() if who == HOST or who in plan.dealt_in}
        commitments = {who: digest for who, digest in commitments.items() if who in seeds}
        cards = table.config.hand.variant.deck
        deck = derive_deck(hand_id, seeds, cards)
        button_deck = derive_deck(hand_id + "/button", seeds, cards) if table.positions is None else None
        self.clock += 1.0
        events = table.start_hand(deck, self.clock, button_draw_deck=button_deck)
        hand = table.hand
        assert hand is not None
        self.store.hand_started(hand_start_of(table, self.config.id, hand_id, events, started_at, self.settings))
        dealt = _dealt(events)
        while table.hand is not None:
            turn = table.to_act()
            assert turn is not None, "a running hand without a player to act"
            options = table.hand.legal_actions()
            assert options is not None
            self.clock += 1.0
            more = table.act(table.players[turn[0]].player, choose(options, self.rng), self.clock)
            dealt += _dealt(more)
            self._returned(more)
        hand_events: list[Event] = list(hand.events)  # type: ignore[attr-defined]
        transcript = Transcript(ROOM_ID, self.config.id, hand_id, tuple(cards), commitments, seeds,
                                deals(deck, dealt))
        future = self.store.hand_finished(hand_id, hand_events, transcript)
        self.hands.append(hand_id)
        return hand_id, future


def _dealt(events: Sequence[Event]) -> list[tuple[Card, Recipient]]:
    dealt: list[tuple[Card, Recipient]] = []
    for event in events:
        if isinstance(event, HoleCardsDealt | UpCardsDealt | DrawnCardsDealt):
            dealt += [(card, event.seat) for card in event.cards]
        elif isinstance(event, BoardDealt):
            dealt += [(card, "board") for card in event.cards]
    return dealt


def deals(deck: Sequence[Card], dealt: Sequence[tuple[Card, Recipient]]) -> tuple[Deal, ...]:
    """Deck positions in deal order (as ``hosting.table_runner`` writes them)."""
    positions = {deck.index(card): recipient for card, recipient in dealt}
    last = max(positions, default=-1)
    return tuple(Deal(position, positions.get(position, "burn")) for position in range(last + 1))


def open_room(store: Store, tables: int, *, seed: int = 1, players_per_table: int = 6,
              games: Sequence[tuple[str, str, int, int]] = GAMES) -> list[BotTable]:
    """``tables`` bot tables cycling through ``games``; players registered on first use (1,000 chips)."""
    rng = random.Random(seed)
    room: list[BotTable] = []
    for index in range(tables):
        game, structure, small_blind, big_blind = games[index % len(games)]
        config = table_config(f"t{index + 1}", game, structure, small_blind, big_blind, seats=players_per_table)
        names = [f"bot{index + 1}_{seat}" for seat in range(players_per_table)]
        for name in names:
            if not store.keys(name):
                store.register(name, f"ssh-ed25519 KEY{index}x{name}")
        room.append(BotTable(store, config, names, random.Random(rng.random())))
    return room
