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
    run: str = ""
    _hand: Any = field(init=False, default=None)
    _hand_id: str = field(init=False, default="")
    _deck: tuple[Card, ...] = field(init=False, default=())
    _dealt: list[tuple[Card, Recipient]] = field(init=False, default_factory=list)
    _seeds: dict[Committer, bytes] = field(init=False, default_factory=dict)
    _commitments: dict[Committer, bytes] = field(init=False, default_factory=dict)

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

    def begin_hand(self, started_at: float) -> str:
        """Shuffle (commit–reveal with the bots' secrets), deal, and give the store the start snapshot."""
        self.between_hands()
        table = self.table
        hand_id = f"{self.config.id}-{self.run}{table.hand_number + 1}"
        players = sorted(seat for seat, seated in table.players.items() if seated.can_play)
        secrets: dict[Committer, bytes] = {HOST: self.rng.randbytes(32)}
        secrets.update({seat: self.rng.randbytes(32) for seat in players})
        plan = table.plan_next_hand(drawn_button=players[0] if table.positions is None else None)
        assert plan is not None
        seeds = {who: secret for who, secret in secrets.items() if who == HOST or who in plan.dealt_in}
        self._commitments = {who: commit(ROOM_ID, self.config.id, hand_id, who, secret)
                             for who, secret in seeds.items()}
        self._seeds = seeds
        cards = table.config.hand.variant.deck
        self._deck = derive_deck(hand_id, seeds, cards)
        button_deck = derive_deck(hand_id + "/button", seeds, cards) if table.positions is None else None
        self.clock += 1.0
        events = table.start_hand(self._deck, self.clock, button_draw_deck=button_deck)
        self._hand = table.hand
        self._hand_id = hand_id
        self.store.hand_started(hand_start_of(table, self.config.id, hand_id, events, started_at, self.settings))
        self._dealt = _dealt(events)
        return hand_id

    def step(self) -> bool:
        """One bot action; ``False`` once the hand is over."""
        table = self.table
        if table.hand is None:
            return False
        turn = table.to_act()
        assert turn is not None, "a running hand without a player to act"
        options = table.hand.legal_actions()
        assert options is not None
        self.clock += 1.0
        more = table.act(table.players[turn[0]].player, choose(options, self.rng), self.clock)
        self._dealt += _dealt(more)
        self._returned(more)
        return table.hand is not None

    def finish_hand(self) -> asyncio.Future[Any] | None:
        """The result, ledger rows and transcript to the store (one operation)."""
        hand_events: list[Event] = list(self._hand.events)  # type: ignore[attr-defined]
        cards = self.table.config.hand.variant.deck
        transcript = Transcript(ROOM_ID, self.config.id, self._hand_id, tuple(cards), self._commitments,
                                self._seeds, deals(self._deck, self._dealt))
        self.hands.append(self._hand_id)
        return self.store.hand_finished(self._hand_id, hand_events, transcript)

    def play_hand(self, started_at: float) -> tuple[str, asyncio.Future[Any] | None]:
        """Play one whole hand at once; returns its id and the store's commit future (``None``: written)."""
        hand_id = self.begin_hand(started_at)
        while self.step():
            pass
        return hand_id, self.finish_hand()

    async def play_hand_slowly(self, started_at: float, think: float) -> str:
        """Play one hand with ``think`` seconds between actions, then wait for its commit."""
        hand_id = self.begin_hand(started_at)
        while self.step():
            await asyncio.sleep(think)
        future = self.finish_hand()
        if future is not None:
            await future
        return hand_id


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
              games: Sequence[tuple[str, str, int, int]] = GAMES, run: str = "") -> list[BotTable]:
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
        room.append(BotTable(store, config, names, random.Random(rng.random()), run=run))
    return room
