"""The owner of the room's cash tables (:class:`hosting.owner.TableOwner`): what is cash about a cash table
outside the engine's cash policy.

* Chips: a buy-in comes from the player's balance (the room's ``sit``/``top_up``), chips leaving the table go
  back to it (:meth:`CashTables.chips_released` → :meth:`Store.cash_out`).
* Hands: each hand's start and result are kept by the store, the result in one transaction with its ledger rows
  and its jackpot drop and payout (R-JACK-1); a bad beat is announced to the table with a public
  ``jackpot_paid`` event, then a ``balance`` message to each player paid (jackpots go to the player's account,
  not his stack). The pool is kept by the store, so it needs one: a room without a store plays no jackpot.
* The host's hooks: :meth:`pause` / :meth:`resume` a table (the hand in play finishes; no new one starts) and
  :meth:`set_level` (new blinds and antes from the next hand, announced at the table).
* Recovery (R-CRASH-1): cash tables do not survive a restart; :meth:`refunds_at_restart` says their stacks go
  back to the balances (:func:`hosting.store.recovery.recover`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.errors import HandInProgress, InvalidAmount, TableRuleError
from engine.events import Event
from engine.fairness import Transcript
from engine.jackpot import JACKPOT_GAMES, smart_jackpot_active
from engine.table import Stakes
from engine.table.cash import AutoTopUp, auto_chips, verify_auto_top_up
from hosting import protocol
from hosting.jackpots import jackpot_live, jackpot_pool_name, settle_jackpot
from hosting.mixed_tables import MixedTables
from hosting.owner import Mailroom
from hosting.store import hand_start_of, table_settings
from hosting.tables import TableState

if TYPE_CHECKING:
    from hosting.store import Store


log = logging.getLogger("croupier.room")

Publish = Callable[[TableState, list[Event]], None]
"""Sends a table's events to its audience and wakes its runner (the room's)."""


class CashTables:
    """The owner of every cash table of one room. ``store``: balances, ledger, hands (None: nothing is kept, no
    jackpot). ``mailroom``: to tell players (jackpots). ``publish``: table events out, the runner woken."""

    kind = "cash"

    def __init__(self, store: Store | None, mailroom: Mailroom, publish: Publish) -> None:
        self.store = store
        self.mailroom = mailroom
        self.publish = publish
        self.tables: dict[str, TableState] = {}
        self.paused: set[str] = set()
        self.waiting_changes: Callable[[str], None] | None = None
        """Applies what waited for the end of a table's hand (the host console's, hosting.admin); set by the room."""
        self._dealt: dict[str, dict[int, str]] = {}  # table → seat → name, as dealt into its running hand
        self.auto_orders: dict[str, dict[str, AutoTopUp]] = {}
        """table → player → his auto top-up / auto rebuy order (R-BUYIN-1), until he leaves the seat."""
        self._short: set[tuple[str, str]] = set()  # (table, player) told his bank cannot pay his order
        self.mixed = MixedTables(mailroom, publish)
        """The mixed tables' rotations and picks (R-MIX-1..4)."""

    # --- tables ------------------------------------------------------------------------------------------

    def adopt(self, table: TableState) -> None:
        """``table`` is a cash table of the room from now on (its lobby row and jackpot are ours)."""
        self.mixed.adopt(table)  # first: a mixed table deals its first game from here on
        self.tables[table.id] = table
        table.kind = self.kind
        if jackpot_live(table.config):  # shown while there is a store to keep its pool
            table.jackpot = lambda: self.jackpot_summary(table)

    def release(self, table: TableState) -> None:
        """``table`` left the room."""
        self.tables.pop(table.id, None)
        self.mixed.release(table)
        self.paused.discard(table.id)
        self._dealt.pop(table.id, None)
        self.auto_orders.pop(table.id, None)

    @staticmethod
    def refunds_at_restart(table_id: str) -> bool:
        """R-CRASH-1: a cash table does not survive a restart: its stacks go back to the balances."""
        return True

    # --- the host's hooks --------------------------------------------------------------------------------

    def pause(self, table_id: str) -> bool:
        """No new hand starts at ``table_id`` (the one in play finishes). Whether it was running before."""
        running = table_id not in self.paused
        self.paused.add(table_id)
        return running

    def resume(self, table_id: str) -> bool:
        """Hands start again at ``table_id``. Whether it was paused."""
        if table_id not in self.paused:
            return False
        self.paused.discard(table_id)
        self.publish(self.tables[table_id], [])  # wakes its runner
        return True

    def set_level(self, table_id: str, stakes: Stakes) -> list[Event]:
        """New forced bets at ``table_id`` from its next hand, announced to the table (``level_changed``).
        ``ValueError`` when they do not fit its game (nothing changes)."""
        table = self.tables[table_id]
        events = table.engine.set_level(stakes)
        self.publish(table, events)
        return events

    # --- TableOwner --------------------------------------------------------------------------------------

    def between_hands(self, table: TableState) -> None:
        if self.waiting_changes is not None:
            self.waiting_changes(table.id)
        self.carry_out_orders(table)
        self.mixed.between_hands(table)  # after the host's changes: his pick of the game is one of them

    # --- auto top-up and auto rebuy (R-BUYIN-1) ----------------------------------------------------------

    def set_order(self, table: TableState, player: str, order: AutoTopUp) -> None:
        """``player``'s standing order at ``table`` (he sits there), carried out now if no hand of his runs.
        :class:`InvalidAmount` when the table's buy-in limits cannot carry it out (nothing changes)."""
        config = table.config
        table.engine.player(player)  # NotSeated
        verify_auto_top_up(order, config.min_buy_in, config.max_buy_in)
        orders = self.auto_orders.setdefault(table.id, {})
        self._short.discard((table.id, player))
        if order.on:
            orders[player] = order
        else:
            orders.pop(player, None)
        self.carry_out_orders(table)

    def carry_out_orders(self, table: TableState) -> None:
        """Each standing order that is due, for players between their hands: chips from the balance to the
        stack (a ledger row, "auto top-up" or "auto rebuy"), a busted player dealt in again; a bank that cannot
        pay is said once."""
        orders = self.auto_orders.get(table.id)
        if not orders:
            return
        engine, config, now = table.engine, table.config, self.mailroom.clock()
        for player, order in list(orders.items()):
            seat = engine.seat_of(player)
            if seat is None:  # he left: the order goes with the seat
                del orders[player]
                continue
            if engine.in_hand(player):
                continue
            seated = engine.players[seat]
            balance = self.store.balance(player) if self.store is not None else None
            due = auto_chips(order, seated.stack, config.min_buy_in, config.max_buy_in, balance)
            if due is None:
                continue
            if due.short:
                if (table.id, player) not in self._short:
                    self._short.add((table.id, player))
                    self.mailroom.send_to(player, protocol.message(
                        "notice", table=table.id, text=f"No {due.kind} at {config.name}: {due.short}."))
                continue
            self._short.discard((table.id, player))
            busted = seated.stack == 0
            try:
                events = engine.top_up(player, due.amount, now)
            except (HandInProgress, InvalidAmount, TableRuleError):  # the engine's limits stand: not now
                log.exception("%s for %s at %s refused", due.kind, player, table.id)
                continue
            if self.store is not None:
                self.store.buy_in(table.id, player, due.amount, due.kind)
            if busted and seated.sitting_out and not seated.away and not seated.disconnected:
                events += engine.sit_in(player, now)  # out only for want of chips
            log.info("%s: %s at %s, %d chips (stack %d)", due.kind, player, table.id, due.amount, seated.stack)
            self.publish(table, events)

    def may_start_hand(self, table: TableState) -> bool:
        return table.id not in self.paused and not self.mixed.choosing(table)

    def hand_started(self, table: TableState, hand_id: str, events: Sequence[Event]) -> None:
        """The start snapshot to the store (its result follows in one transaction)."""
        self.mixed.hand_started(table)
        if self.store is None:
            return
        start = hand_start_of(table.engine, table.id, hand_id, events, time.time(), table_settings(table.config))
        self._dealt[table.id] = dict(start.players)
        self.store.hand_started(start)

    def hand_finished(self, table: TableState, hand_id: str, events: Sequence[Event],
                      transcript: Transcript | Mapping[str, Any]) -> Awaitable[Any] | None:
        """The hand's events, result and transcript to the store, with its jackpot drop and payout; a bad beat
        announced."""
        store = self.store
        players = self._dealt.pop(table.id, {})  # as dealt in: a player paid may have left with the hand's end
        if store is None:
            return None
        pool = jackpot_pool_name(table.config)
        if pool is None or not jackpot_live(table.config):
            return store.hand_finished(hand_id, events, transcript)
        outcome, body = settle_jackpot(table.config, store.jackpot_pool(pool), events, players,
                                       hour=time.localtime().tm_hour,  # a smart jackpot's hours: the room's
                                       tournament=False)
        future = store.hand_finished(hand_id, events, transcript, jackpot_pool=pool, jackpot=outcome,
                                     jackpot_event=body)
        if body is not None:
            self._announce_jackpot(table, hand_id, body, {players[seat]: amount
                                                          for seat, amount in outcome.paid.items()})
        return future

    def shuffle_missed(self, table: TableState, player: str) -> None:
        pass  # sat out at the table by its runner

    def commitment_ahead(self, table: TableState, player: str) -> tuple[tuple[str, str], bytes] | None:
        return None  # a cash table asks each hand's commitments in its own commit round

    def events_published(self, table: TableState, events: Sequence[Event]) -> None:
        pass

    def chips_released(self, table: TableState, player: str, amount: int) -> None:
        """Back to his balance."""
        if self.store is not None:
            self.store.cash_out(table.id, player, amount)

    # --- jackpots ----------------------------------------------------------------------------------------

    def jackpot_summary(self, table: TableState) -> dict[str, Any] | None:
        """The ``jackpot`` field of the lobby row and the table message: ``{"pool": name, "amount": chips,
        "share_percent": …, "minimum_big_blind": …}`` (PROTOCOL.md), None when the table plays no jackpot."""
        store, config, pool = self.store, table.config, jackpot_pool_name(table.config)
        if store is None or pool is None or config.jackpot is None or not jackpot_live(config):
            return None
        summary = {"pool": pool, "amount": store.jackpot_pool(pool), "share_percent": config.jackpot.share_percent,
                   "minimum_big_blind": config.jackpot.minimum_big_blind}
        if JACKPOT_GAMES.get(config.game) == "holdem" and config.jackpot.kind != "monte_carlo":
            summary["qualifying_hand"] = config.jackpot.qualifying_hand
        if config.jackpot.kind != "bad_beat":
            summary["kind"] = config.jackpot.kind
        if config.jackpot.kind == "monte_carlo":
            summary["hands"] = list(config.jackpot.hands)
        if config.jackpot.kind == "smart":
            summary["hours"] = list(config.jackpot.hours)
            summary["live"] = smart_jackpot_active(time.localtime().tm_hour, config.jackpot.hours)
        return summary

    def _announce_jackpot(self, table: TableState, hand_id: str, body: dict[str, Any],
                          amounts: dict[str, int]) -> None:
        """A jackpot paid: the public ``jackpot_paid`` message to the whole table, then each paid player's new
        ``balance`` (the jackpot went to his account); the other tables of the pool show its new amount."""
        assert self.store is not None
        message = protocol.jackpot_paid(table.id, hand_id, body)
        for listener in self.mailroom.audience(table):
            listener.send(message)
        for name in sorted(amounts):
            self.mailroom.send_to(name, protocol.balance(self.store.balance(name), "jackpot"))
        pool = jackpot_pool_name(table.config)
        for other in self.tables.values():  # the pool they show just dropped to its seed
            if other is not table and jackpot_pool_name(other.config) == pool:
                self.mailroom.broadcast_table(other)
