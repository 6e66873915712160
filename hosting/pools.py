"""A fast-fold pool in the room (R-FAST-1): the owner of its tables (:class:`hosting.owner.TableOwner`).

Players join the pool (the room's ``sit`` with the pool's id), not a table. The pool's rules are the engine's
(:mod:`engine.table.pool`): who is dealt next, with whom, who posts the blinds. This owner does what is not
pure:

* **Tables.** It adds tables to the room as it needs them (``<pool>.1``, ``<pool>.2``, …; a
  :class:`~engine.table.pool.PoolTable` each) and seats each fresh group at an empty one. Their runners deal as
  at any table: commit–reveal, the clock, the view of each seat.
* **At once after a fold.** When a player folds (or his hand ends) he is taken off that table with his chips
  behind (:meth:`~engine.table.neutral.Table.remove_player`), back in the pool's line, and dealt in the next
  fresh hand. The proof of the hand he left still reaches him when it ends (the runner sends the seeds to every
  player dealt in).
* **Commit ahead.** Each player holds one open *ticket*: the pool asks his commitment for his next hand as soon
  as he is dealt in (``commit_request`` with the pool's id as ``table`` and the ticket as ``hand``, seat 0;
  :mod:`engine.fairness`), so a fold never waits for a commit round: his next hand's runner takes the ticket's
  commitment instead of asking, then asks him to reveal it as for any hand. A ticket is used once.
* **Host-blind** (``dealing = "host-blind"``): no tickets; each table's hand is shuffled and dealt by the
  players seated at it for that hand, with keys of their own for it (:mod:`hosting.host_blind_runner`). A player
  who folded is back in line at once as always; his client still answers for his shares of the hand he left
  (the board needs every key), while it plays the next one.
* **Chips.** Joining moves chips from the balance to the pool (the store's stack of the pool's id); seating a
  group moves each stack from the pool to the table, and a player leaving a table gives his chips back to the
  pool; leaving the pool gives them back to the balance. Hands are kept as at any table (start snapshot,
  result, rake, jackpot: :class:`hosting.cash.CashTables`' hand keeping), so history, export and the audit see
  every pool hand as a table's hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import AlreadySeated, InvalidAmount, NotSeated, TableRuleError
from engine.events import Event, Folded
from engine.fairness import Transcript
from engine.table import Table
from engine.table.pool import FastFoldPool, PoolHand, PoolSettings, PoolState, PoolTable
from engine.table_events import HandFinished, PlayerMovedOut
from hosting import protocol
from hosting.config import PoolConfig, TableConfig
from hosting.engine_tables import build_engine_table
from hosting.errors import ALREADY_SEATED, BAD_AMOUNT, NO_HAND, NOT_SEATED, RoomError
from hosting.missed_shuffles import MissedShuffles
from hosting.owner import Mailroom, TableOwner
from hosting.settle_up import POOL_BACK, POOL_JOINED, POOL_SEATED, pool_move_in, pool_move_out
from hosting.tables import STATS_WINDOW_SECONDS, TableState

if TYPE_CHECKING:
    from hosting.store import Store

log = logging.getLogger("croupier.room")

Publish = Callable[[TableState, list[Event]], None]


class PoolRoom(Mailroom, Protocol):
    """The room as a pool sees it: a mailroom that adds tables."""

    def add_table(self, config: TableConfig, owner: TableOwner | None = None, engine: Table | None = None,
                  ) -> TableState: ...


class HandKeeper(Protocol):
    """Keeps each hand's start and result (rake, jackpot) as at any table: :class:`hosting.cash.CashTables`."""

    def hand_started(self, table: TableState, hand_id: str, events: Sequence[Event]) -> None: ...

    def hand_finished(self, table: TableState, hand_id: str, events: Sequence[Event],
                      transcript: Transcript | Mapping[str, Any]) -> Awaitable[Any] | None: ...


@dataclass
class _Ticket:
    id: str
    commitment: bytes | None = None


class PoolOwner:
    """One pool of the room file. ``room``: where its tables live and its messages go; ``store``: balances and
    stacks (None: no bank — practice); ``hands``: the hand keeper; ``publish``: table events out (the room's)."""

    kind = "pool"

    def __init__(self, config: PoolConfig, room: PoolRoom, store: Store | None, hands: HandKeeper,
                 publish: Publish) -> None:
        self.config = config
        self.room = room
        self.store = store
        self.hands = hands
        self.publish = publish
        table = config.table
        self.pool = FastFoldPool(PoolSettings(table.seats, config.fill_seconds, max(1, table.min_buy_in),
                                              table.max_buy_in or None))
        self.tables: dict[str, TableState] = {}
        self._past_hands: deque[tuple[float, int]] = deque()  # (time, pot) of released tables' last hour
        self._tickets: dict[str, _Ticket] = {}
        self._last_table: dict[str, str] = {}  # the table each player left last: his next hand is elsewhere
        self._top_ups: dict[str, int] = {}  # asked during his hand: added when it lets him go
        self._token = secrets.token_hex(3)
        self._numbers = itertools.count(1)
        self._timer: asyncio.TimerHandle | None = None
        self.hands_dealt = 0
        self.paused = False  # the host's pause: hands in play finish, no new one is dealt until he resumes
        self.missed_shuffles = MissedShuffles()  # who keeps missing: a growing wait before he may sit in again

    @property
    def id(self) -> str:
        return self.config.id

    def owns(self, table_id: str) -> bool:
        """Whether ``table_id`` is the pool's id or one of its tables."""
        return table_id == self.id or table_id in self.tables

    def summary(self, now: float) -> dict[str, Any]:
        """The pool's lobby row: game and stakes as a table's, ``players`` in the pool (playing or waiting),
        ``playing`` in a hand now, ``tables`` running, ``hands_per_hour`` and ``average_pot`` over the last hour's
        hands of its tables, those running and those it let go (as a table's row, R-LOBBY-1)."""
        table = self.config.table
        for state in self.tables.values():
            state.summary(now)  # forgets its hands older than the window
        while self._past_hands and self._past_hands[0][0] < now - STATS_WINDOW_SECONDS:
            self._past_hands.popleft()
        pots = [pot for _, pot in self._past_hands] + [
            pot for state in self.tables.values() for _, pot in state.recent_hands]
        return {
            "id": self.id, "name": table.name, "kind": self.kind, "game": table.game, "structure": table.structure,
            "stakes": [table.small_blind, table.big_blind], "buy_in": [table.min_buy_in, table.max_buy_in],
            "seats": table.seats, "players": len(self.pool.players), "playing": self.pool.playing(),
            "tables": len(self.tables), "hands_per_hour": len(pots),
            "average_pot": sum(pots) // len(pots) if pots else 0,
            "paused": self.paused,
            "clock": {"action_seconds": table.clock.get("action_seconds", 20.0),  # as a table's row: the turn
                      "time_bank_seconds": table.clock.get("time_bank_seconds", 60.0)},  # bar splits off the bank
        }

    # --- players (the room routes sit, leave, sit_out, top_up and commit here) ---------------------------

    def verify_join(self, name: str, buy_in: int) -> None:
        """:class:`RoomError` when ``name`` could not join with ``buy_in`` chips (before asking the host)."""
        if name in self.pool.players:
            raise RoomError(ALREADY_SEATED, f"{name} is already in pool {self.id}")
        settings = self.pool.settings
        if buy_in < settings.min_buy_in or (settings.max_buy_in is not None and buy_in > settings.max_buy_in):
            most = settings.max_buy_in if settings.max_buy_in is not None else "any"
            raise RoomError(BAD_AMOUNT, f"the buy-in here is {settings.min_buy_in} to {most} chips, not {buy_in}")

    def join(self, name: str, buy_in: int, now: float, *, player_id: str = "") -> dict[str, Any]:
        """``name`` joins with ``buy_in`` chips from his balance (``player_id``: his key; one key's names are
        never dealt into one hand); the ``sit`` ack's fields."""
        if self.store is not None and buy_in > self.store.balance(name):
            raise RoomError(BAD_AMOUNT, f"you have {self.store.balance(name)} chips in the bank, not {buy_in}")
        try:
            self.pool.join(name, buy_in, now, player_id=player_id)
        except (TableRuleError, InvalidAmount) as problem:
            raise _refusal(problem) from None
        if self.store is not None:
            self.store.buy_in(self.id, name, buy_in, POOL_JOINED)
        log.info("pool %s: %s joined with %d chips", self.id, name, buy_in)
        self._ask_commitment(name)
        self._deal()
        return {"table": self.id, "stack": buy_in, "pool": True}

    def leave(self, name: str) -> dict[str, Any]:
        """``name`` leaves: at once between hands (his chips to his balance), else when his hand lets him go."""
        try:
            chips = self.pool.leave(name)
        except TableRuleError as problem:
            raise _refusal(problem) from None
        if chips is not None:
            self._cash_out(name, chips)
        return {"table": self.id, "chips": chips, "after_hand": chips is None}

    def remove(self, name: str) -> bool:
        """The host removes ``name`` (a kick or a ban, :mod:`hosting.removal`): out of the line at once, folded out
        of a pool hand he is live in, his chips to his balance as soon as his hand lets him go. Whether he was in
        the pool."""
        if name not in self.pool.players:
            return False
        self._tickets.pop(name, None)
        self.pool.commitment_lost(name)
        chips = self.pool.leave(name)
        if chips is not None:
            self._cash_out(name, chips)
            return True
        now = self.room.clock()
        for table in list(self.tables.values()):
            engine = table.engine
            if engine.seat_of(name) is None:
                continue
            if engine.in_hand(name):  # folded now: back to the pool, then out (his leave is pending)
                self.publish(table, engine.fold_out(name, now))
            if engine.seat_of(name) is not None and not engine.in_hand(name):  # seated for a hand not dealt yet
                self._back_to_pool(table, name)
        self._deal()
        return True

    def sit_out(self, name: str, on: bool, now: float) -> None:
        refusal = None if on else self.missed_shuffles.refusal(name, now)
        if refusal is not None:
            raise RoomError("too_soon", refusal)
        try:
            self.pool.sit_out(name) if on else self.pool.sit_in(name, now)
        except TableRuleError as problem:
            raise _refusal(problem) from None
        self._deal()

    def top_up(self, name: str, amount: int) -> dict[str, Any]:
        """Chips from his balance to his stack in the pool; the ``top_up`` ack's fields. Between his hands they are
        added at once (``stack``: his new stack). In a hand (in a pool he nearly always is) the top-up is kept, as
        at a cash table, and added when the hand lets him go, up to the maximum buy-in (:meth:`_kept_top_up`):
        ``after_hand`` is then true and ``stack`` the stack he brought to the hand. A new one replaces it."""
        if self.store is not None and amount > self.store.balance(name):
            raise RoomError(BAD_AMOUNT, f"you have {self.store.balance(name)} chips in the bank, not {amount}")
        player = self.pool.player(name) if name in self.pool.players else None
        if player is not None and player.state is PoolState.PLAYING:
            maximum = self.pool.settings.max_buy_in
            if maximum is not None and amount > maximum:
                raise RoomError(BAD_AMOUNT, f"the maximum buy-in is {maximum} chips: a top-up of {amount} never fits")
            self._top_ups[name] = amount
            return {"table": self.id, "stack": player.stack, "amount": amount, "after_hand": True}
        stack = self._add_chips(name, amount)
        self._deal()
        return {"table": self.id, "stack": stack, "amount": amount}

    def _add_chips(self, name: str, amount: int) -> int:
        """``amount`` from his balance to his stack in the pool (he is between hands); his new stack."""
        try:
            stack = self.pool.top_up(name, amount)
        except (TableRuleError, InvalidAmount) as problem:
            raise _refusal(problem) from None
        if self.store is not None:
            self.store.buy_in(self.id, name, amount, "top-up")
        if self.pool.player(name).state is PoolState.SITTING_OUT and not self.pool.player(name).sitting_out_next:
            self.pool.sit_in(name, self.room.clock())  # out only for want of chips: back in line
        return stack

    def commit(self, name: str, ticket_id: str, commitment: str) -> None:
        """``name``'s commitment for his next hand (his open ticket); :class:`RoomError` for any other."""
        ticket = self._tickets.get(name)
        if ticket is None or ticket.id != ticket_id:
            raise RoomError(NO_HAND, f"no commitment is asked for {ticket_id!r} at pool {self.id}")
        if ticket.commitment is not None:
            raise RoomError("already_committed", "you already committed for your next hand")
        ticket.commitment = bytes.fromhex(commitment)
        self.pool.committed(name)
        self._deal()

    def connected(self, name: str) -> None:
        """``name`` is back: his old connection's secrets are gone with it, so he commits again."""
        if name in self.pool.players:
            self._tickets.pop(name, None)
            self.pool.commitment_lost(name)
            self._ask_commitment(name)

    def disconnected(self, name: str) -> None:
        """Not dealt in while gone (his client holds his secret); a hand he is in goes on at its table."""
        if name in self.pool.players:
            self._tickets.pop(name, None)
            self.pool.commitment_lost(name)

    def _ask_commitment(self, name: str) -> None:
        if self.config.table.host_blind:  # nothing to commit ahead: each hand's keys and deck come from the
            self.pool.committed(name)     # players at its table (hosting.host_blind_runner), asked there
            return
        ticket = _Ticket(f"{self._token}-{next(self._numbers)}")
        self._tickets[name] = ticket
        self.room.send_to(name, protocol.commit_request(self.id, ticket.id, 0, "", 0.0))
        # his commit may come after the ticket is dropped (a missed shuffle, a reconnect): a slow link's late
        # answer, covered by the same allowance as a table's (hosting.late_answers), not his error budget
        self.room.shuffle_asked(self.id, ticket.id, (name,))

    def _cash_out(self, name: str, chips: int) -> None:
        self._tickets.pop(name, None)
        self._top_ups.pop(name, None)
        self._last_table.pop(name, None)
        if self.store is not None and chips:
            self.store.cash_out(self.id, name, chips, "left the pool")
        self.room.send_to(name, protocol.message("pool_left", pool=self.id, chips=chips))
        log.info("pool %s: %s left with %d chips", self.id, name, chips)

    # --- the host's pause ---------------------------------------------------------------------------------

    def pause(self) -> bool:
        """No new hand is dealt (those in play finish; their players wait in the pool). Whether it was running."""
        running, self.paused = not self.paused, True
        return running

    def resume(self) -> bool:
        """Deal again. Whether it was paused."""
        was, self.paused = self.paused, False
        if was:
            self._deal()
        return was

    def change_level(self, table: TableConfig) -> None:
        """The host's new level (blinds, ante, straddle, rake, clock: ``level``, checked by the console): in the
        pool's lobby row at once, dealt from each of its tables' next hand (a hand in play keeps its own)."""
        self.config = replace(self.config, table=table)
        for state in self.tables.values():
            if not state.engine.hand_running and not state.engine.players:
                self._at_level(state)

    def _at_level(self, table: TableState) -> None:
        """``table`` (empty, between hands) plays the pool's level now, if the host changed it since."""
        config = replace(self.config.table, id=table.id, name=table.config.name)
        if config != table.config:
            table.config = config
            table.engine.reconfigure(build_engine_table(config).config)

    def members(self) -> list[str]:
        """The players in the pool (playing or waiting)."""
        return sorted(self.pool.players)

    # --- dealing -----------------------------------------------------------------------------------------

    def _deal(self) -> None:
        """Seat every group the pool's rules deal now, each at an empty table; wake up at the fill deadline."""
        if self.paused:
            return  # the host's break: players wait in the pool with their chips; resume deals again
        now = self.room.clock()
        self._give_up_stuck_groups()
        while (group := self.pool.next_hand(now)) is not None:
            self._seat(group, self._empty_table({self._last_table.get(name) for name in group.seats.values()}), now)
        deadline = self.pool.next_deadline()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if deadline is not None:
            with contextlib.suppress(RuntimeError):  # no running loop (a synchronous test): nothing to wake
                self._timer = asyncio.get_running_loop().call_later(max(0.0, deadline - now), self._deal)

    def _empty_table(self, left: set[str | None]) -> TableState:
        """An empty table none of the group just left (R-FAST-1: a new hand at another table), a new one if
        need be."""
        for table in self.tables.values():
            if not table.engine.players and not table.engine.hand_running and table.id not in left:
                self._at_level(table)
                return table
        number = len(self.tables) + 1
        config = replace(self.config.table, id=self.config.table_id(number),
                         name=f"{self.config.table.name} #{number}")
        engine = PoolTable(build_engine_table(config).config)
        return self.room.add_table(config, owner=self, engine=engine)

    def _seat(self, group: PoolHand, table: TableState, now: float) -> None:
        if self.store is not None:
            for seat, name in group.seats.items():
                self.store.cash_out(self.id, name, group.stacks[seat], pool_move_out(table.id))
                self.store.buy_in(table.id, name, group.stacks[seat], POOL_SEATED)
        assert isinstance(table.engine, PoolTable)
        self.publish(table, table.engine.seat_group(group, now))
        self.hands_dealt += 1

    def _back_to_pool(self, table: TableState, name: str) -> None:
        """``name`` is done with ``table``'s hand (folded, or it ended): off the table with his chips, back in
        line (or out of the pool if he asked to leave)."""
        now = self.room.clock()
        events = table.engine.remove_player(name, now, reason="pool")
        self._last_table[name] = table.id
        chips = sum(event.stack for event in events if isinstance(event, PlayerMovedOut))
        if self.store is not None and chips:
            self.store.cash_out(table.id, name, chips, POOL_BACK)
            self.store.buy_in(self.id, name, chips, pool_move_in(table.id))
        self.publish(table, events)
        self.room.send_to(name, protocol.table_state(table.snapshot()))  # he no longer hears it: seen once more
        if name not in self.pool.players:
            return
        leaving = self.pool.released(name, chips, now)
        if leaving is not None:
            self._cash_out(name, leaving)
            return
        added = self._kept_top_up(name)
        if name not in self._tickets:  # his ticket went into a hand that never started: a new one
            self._ask_commitment(name)
        self._tell(name, added)

    def _kept_top_up(self, name: str) -> int | None:
        """The top-up he asked for during his hand, now that it let him go: what still fits under the maximum
        buy-in (a hand he won may leave less room, or none) and his bank. The chips added (0: none, and he is
        told why), or None when he had asked for none."""
        asked = self._top_ups.pop(name, None)
        if asked is None:
            return None
        where = self.config.table.name or self.id
        stack = self.pool.player(name).stack
        maximum = self.pool.settings.max_buy_in
        amount = asked if maximum is None else min(asked, maximum - stack)
        if self.store is not None:
            amount = min(amount, self.store.balance(name))
        if amount <= 0:
            reason = f"your stack ({stack}) is at the maximum buy-in" if maximum is not None and stack >= maximum \
                else "your bank is empty"
            self.room.send_to(name, protocol.message("notice", text=f"No top-up at {where}: {reason}."))
            return 0
        try:
            self._add_chips(name, amount)  # no deal from here: the caller deals once everyone is back
        except RoomError as refused:  # e.g. busted, and what is left in the bank is short of the minimum buy-in
            self.room.send_to(name, protocol.message(
                "notice", text=f"Your top-up of {amount} at {where} was not added: {refused}."))
            return 0
        return amount

    def _tell(self, name: str, added: int | None = None) -> None:
        """``pool``: his chips and state between hands (PROTOCOL.md), e.g. to top up when short; ``added``: the
        chips of the top-up kept during his hand, when he had asked for one."""
        player = self.pool.player(name)
        extra = {} if added is None else {"added": added}
        self.room.send_to(name, protocol.message("pool", pool=self.id, stack=player.stack,
                                                 state=player.state.value, **extra))

    def _give_up_stuck_groups(self) -> None:
        """A group seated for a hand that cannot be dealt any more (one of them left the table before the
        deal): back to the pool, to be dealt again."""
        for table in list(self.tables.values()):
            engine = table.engine
            if isinstance(engine, PoolTable) and engine.group is not None and engine.plan_next_hand() is None:
                for name in engine.give_up_group():
                    self._back_to_pool(table, name)

    # --- TableOwner --------------------------------------------------------------------------------------

    def adopt(self, table: TableState) -> None:
        self.tables[table.id] = table
        table.kind = self.kind

    def release(self, table: TableState) -> None:
        if self.tables.pop(table.id, None) is not None:
            self._past_hands.extend(table.recent_hands)  # the lobby's hourly numbers keep its hands
            self._past_hands = deque(sorted(self._past_hands))

    def between_hands(self, table: TableState) -> None:
        pass  # nothing waits for a pool hand's end: its players are already back in the pool

    def may_start_hand(self, table: TableState) -> bool:
        return True  # a pool table has a plan only once a group is seated (PoolTable.plan_next_hand)

    def hand_started(self, table: TableState, hand_id: str, events: Sequence[Event]) -> None:
        self.hands.hand_started(table, hand_id, events)
        for seated in table.engine.players.values():  # used his ticket: commit ahead for the hand after
            if seated.player not in self._tickets and seated.player in self.pool.players:
                self._ask_commitment(seated.player)

    def hand_finished(self, table: TableState, hand_id: str, events: Sequence[Event],
                      transcript: Transcript | Mapping[str, Any]) -> Awaitable[Any] | None:
        return self.hands.hand_finished(table, hand_id, events, transcript)

    def chips_released(self, table: TableState, player: str, amount: int) -> None:
        """A seat freed by the table itself (he left it during a hand): his chips go back to the pool."""
        if self.store is not None and amount:
            self.store.cash_out(table.id, player, amount, POOL_BACK)
            self.store.buy_in(self.id, player, amount, pool_move_in(table.id))
        if player in self.pool.players and self.pool.player(player).state is PoolState.PLAYING:
            leaving = self.pool.released(player, amount, self.room.clock())
            if leaving is not None:
                self._cash_out(player, leaving)
            elif player in self._top_ups:
                self._tell(player, self._kept_top_up(player))

    def shuffle_missed(self, table: TableState, player: str) -> None:
        """He committed ahead but never revealed (or missed a commit): out of the line until he sits in himself,
        so that he cannot stall hand after hand for his whole group (issue 25 item 4); a growing wait before he
        may (:mod:`hosting.missed_shuffles`)."""
        if player not in self.pool.players:
            return
        count = self.missed_shuffles.missed(player, self.room.clock())
        self._tickets.pop(player, None)
        self.pool.commitment_lost(player)
        self.pool.sit_out(player)
        log.info("pool %s: %s missed the shuffle (%d times): sat out", self.id, player, count)
        self.room.send_to(player, protocol.message(
            "notice", table=self.id, text="You missed the shuffle (your client sent no secret in time): you sit "
                                          "out of the pool until you sit in again."))

    def commitment_ahead(self, table: TableState, player: str) -> tuple[tuple[str, str], bytes] | None:
        """The runner of ``table`` deals ``player`` in: his open ticket's commitment, used once."""
        ticket = self._tickets.get(player)
        if ticket is None or ticket.commitment is None:
            return None
        del self._tickets[player]
        return (self.id, ticket.id), ticket.commitment

    def events_published(self, table: TableState, events: Sequence[Event]) -> None:
        """Whoever folded goes back to the pool at once; when the hand ends, everyone left at the table."""
        engine = table.engine
        if any(isinstance(event, HandFinished) for event in events):
            for name in [seated.player for _, seated in sorted(engine.players.items())]:
                if engine.seat_of(name) is not None:
                    self._back_to_pool(table, name)
        else:
            for event in events:
                if isinstance(event, Folded) and event.seat in engine.players and engine.hand_running:
                    self._back_to_pool(table, engine.players[event.seat].player)
        self._deal()


def _refusal(problem: Exception) -> RoomError:
    """An engine refusal as the room's, with the code a client can branch on."""
    codes = [(AlreadySeated, ALREADY_SEATED), (NotSeated, NOT_SEATED), (InvalidAmount, BAD_AMOUNT)]
    return RoomError(next((code for kind, code in codes if isinstance(problem, kind)), "table_rule"), str(problem))
