"""The neutral table: a run of hands with people coming and going (RULES.md §4 and §8; DESIGN.md "engine/").

Pure: the caller passes the time (``now``, seconds of any monotonic clock) and the decks; nothing sleeps
or reads a clock. The room's table runner calls :meth:`Table.tick` at :meth:`Table.next_deadline` and
starts a hand when :meth:`Table.can_start_hand` says so (and the table's owner agrees). Every change is
returned as events (the table's own, :mod:`engine.table_events`, interleaved with the hand's,
:mod:`engine.events`).

What the table decides: who sits where (R-GAME-DECK seat limits), the first button by the dealer draw
(R-DEAL-1), then the button, blinds and straddle of every hand by the dead-button rule (R-BLIND-1..4,
:mod:`engine.button`) at the level its owner sets (:meth:`Table.set_level`), missed blinds and the player's
remembered choice to post them or wait (R-BLIND-3), the action clock and time banks, and what happens when a
player runs out of time or disconnects (R-DISC-1, R-DISC-2). What its policy decides (:mod:`engine.table.policy`):
what differs between a cash table (:mod:`engine.table.cash`: buy-ins, waiting list, top-ups), a tournament's
and a pool's. What the hand decides: everything inside a hand (:class:`engine.hand.Hand`); the table gives it
a :class:`~engine.hand.ForcedBets` plan and the stacks, and takes back the finishing stacks from its
:class:`~engine.events.HandEnded`.

Requests that break a rule raise a specific exception (:mod:`engine.errors`) with a message a player can
read, and leave the table unchanged.

>>> from engine.hand import HandConfig
>>> from engine.structures import BettingStructure
>>> from engine.variants import TEXAS_HOLDEM
>>> config = TableConfig(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), seat_count=6,
...                      small_blind=5, big_blind=10, min_buy_in=200, max_buy_in=1_000)
>>> table = Table(config)
>>> [type(event).__name__ for event in table.sit("ana", 500, now=0.0)]
['PlayerSeated']
>>> table.sit("ana", 500, now=1.0)
Traceback (most recent call last):
...
engine.errors.AlreadySeated: ana already sits in seat 0
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from engine.actions import Action, LegalActions
from engine.artificial_all_in import ArtificialAllInQuota
from engine.button import BlindPlan, Positions, SeatState, draw_for_button, plan_blinds
from engine.cards import Card
from engine.clock import PlayerClock
from engine.draw import Reshuffle
from engine.errors import (
    AlreadySeated,
    HandInProgress,
    InvalidAmount,
    NotSeated,
    NotYourTurn,
    TableFull,
    TableRuleError,
)
from engine.events import PLAYER_ACTIONS, Event, Folded, HandEnded, HandShown
from engine.hand import ForcedBets, Hand, HandConfig
from engine.home import HomeOptions, check_home_options
from engine.home.bomb_pot import as_bomb_pot
from engine.home.rabbit_hunt import RabbitHuntShown, RabbitOffer, offer_after, request_rabbit
from engine.seating import BlindChoice, SeatedPlayer, WaitingList
from engine.structures import StructureKind
from engine.table.cash import CashPolicy
from engine.table.config import Stakes, TableConfig
from engine.table.hands import (
    HandEngine,
    HandStarter,
    SupportsArtificialAllIn,
    SupportsStacks,
    absent_action,
    start_real_hand,
    timeout_action,
)
from engine.table.policy import TablePolicy
from engine.table_events import (
    ArtificialAllInGiven,
    BlindOwed,
    BlindsSettled,
    ButtonDrawn,
    CardsShownAfterWin,
    ChipsAdded,
    ChipsReturned,
    GameChanged,
    HandFinished,
    HandPlanned,
    LeavingAfterHand,
    LevelChanged,
    PlayerAway,
    PlayerDisconnected,
    PlayerMovedIn,
    PlayerMovedOut,
    PlayerReconnected,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSettingChanged,
    SeatFreed,
    TimeBanksRefilled,
    TimeBankUsed,
    TimedOut,
    TurnStarted,
)

AFTER_HAND_EVENTS: tuple[type[Event], ...] = (RabbitHuntShown, CardsShownAfterWin)
"""What a finished hand still offers, asked for until the next hand's first action (:data:`PLAYER_ACTIONS`): they
belong to that finished hand, not to the one being dealt."""


class Table:
    """A table. Build with a :class:`TableConfig`; ``policy`` decides what differs between kinds of tables
    (default :class:`CashPolicy`: a cash table; :mod:`engine.table.policy`); ``hand_starter`` builds each hand
    (default the real :class:`engine.hand.Hand`); ``all_in_quota`` is the room's shared
    :class:`ArtificialAllInQuota` (a private one by default). Seats are 0..seat_count-1, clockwise increasing.
    Players are named by their id.
    """

    def __init__(
        self,
        config: TableConfig,
        *,
        policy: TablePolicy | None = None,
        hand_starter: HandStarter = start_real_hand,
        all_in_quota: ArtificialAllInQuota | None = None,
    ) -> None:
        self.config = config
        self.policy: TablePolicy = policy if policy is not None else CashPolicy()
        if isinstance(self.policy, CashPolicy) and not config.buys_in:
            raise ValueError("a cash table needs a minimum buy-in > 0 chips (R-BUYIN-1)")
        self.stakes = config.stakes
        """The level the next hand is dealt at (:meth:`set_level`); a running hand keeps its own."""
        self._hand_config = config.hand
        self.hand_starter = hand_starter
        self.all_in_quota = all_in_quota if all_in_quota is not None else ArtificialAllInQuota()
        self.players: dict[int, SeatedPlayer] = {}
        self.positions: Positions | None = None
        self.hand: HandEngine | None = None
        self.last_hand: HandEngine | None = None
        """The last hand that ended (its whole event log), until the next one ends."""
        self.hand_number = 0
        self.last_plan: BlindPlan | None = None
        self.last_forced_bets: ForcedBets | None = None
        """The exact forced bets of the last hand started (stud tables: antes and bring-in, no blinds)."""
        self.rabbit: RabbitOffer | None = None
        """R-HOME-2: the last hand's rabbit, on offer until the next hand's first action (:data:`PLAYER_ACTIONS`)."""
        self._rabbit_deck: tuple[Card, ...] = ()
        self._rabbit_players: frozenset[str] = frozenset()  # the names dealt into the hand the rabbit is of
        self.rake_taken = 0
        self._dealt_in: tuple[int, ...] = ()
        self._uncontested: tuple[int, tuple[Card, ...]] | None = None  # who may still show his uncontested win
        self._folded: set[int] = set()
        self._all_in: set[int] = set()
        self.acts_for_absent = True
        """Where the policy deals absent players in, act for them the moment their turn comes. False: their turn
        starts with its deadline already reached, so the table's runner acts for them (a host-blind runner folds
        them through the hand's transcript, which the players' own check must see)."""
        self._turn: tuple[int, float] | None = None
        self._starting: dict[int, int] = {}  # the running hand's starting stacks, by seat
        self._released: dict[int, int] = {}  # seat → chips of a folded player removed during the hand
        self._first_button: int | None = None  # the owner's draw for the first hand (set_first_button)
        self._blind_positions: Positions | None = None  # R-MIX-3: the button of blind games, kept during stud

    # --- questions ----------------------------------------------------------------------------------

    def seat_of(self, player: str) -> int | None:
        """The seat of ``player``, or ``None``."""
        for seat, seated in self.players.items():
            if seated.player == player:
                return seat
        return None

    def player(self, player: str) -> SeatedPlayer:
        """The :class:`SeatedPlayer` of ``player``; :class:`NotSeated` if he has no seat here."""
        seat = self.seat_of(player)
        if seat is None:
            raise NotSeated(f"{player} has no seat at this table")
        return self.players[seat]

    def free_seats(self) -> list[int]:
        """Empty seats, in order."""
        return [seat for seat in range(self.config.seat_count) if seat not in self.players]

    @property
    def hand_running(self) -> bool:
        """Whether a hand is being played."""
        return self.hand is not None

    def in_hand(self, player: str) -> bool:
        """Whether ``player`` was dealt into the running hand (folded or not)."""
        seat = self.seat_of(player)
        return seat is not None and self._dealt_in_now(seat)

    def _dealt_in_now(self, seat: int) -> bool:
        """Whether ``seat``'s player is in the running hand's accounting (not removed from it folded)."""
        return self.hand is not None and seat in self._dealt_in and seat not in self._released

    def to_act(self) -> tuple[int, float] | None:
        """(seat, deadline) of the player whose turn it is, or ``None``."""
        if self._turn is None:
            return None
        seat, started_at = self._turn
        return seat, self._deadline(self.players[seat], started_at)

    def chips_on_table(self) -> int:
        """All chips of seated players (including what they have in the running hand)."""
        return sum(seated.stack for seated in self.players.values())

    def next_deadline(self) -> float | None:
        """The earliest time at which :meth:`tick` has something to do (a turn timing out, a held seat to
        free), or ``None``. The runner sets its timer to this."""
        times = [seated.inactive_since + self.config.clock.seat_hold_seconds
                 for seated in self.players.values()
                 if seated.inactive_since is not None and self.policy.frees_held_seats]
        turn = self.to_act()
        if turn is not None:
            times.append(turn[1])
        return min(times, default=None)

    @property
    def waiting_list(self) -> WaitingList:
        """Players promised the next free seats (the policy's; empty where the owner seats everyone)."""
        return self.policy.waiting_list

    @property
    def hand_config(self) -> HandConfig:
        """The game, structure and rake of the next hand (a fixed-limit level changes the bet sizes)."""
        return self._hand_config

    # --- the cash policy's verbs (R-BUYIN-1, R-GAME-DECK) -------------------------------------------

    def _cash(self) -> CashPolicy:
        if not isinstance(self.policy, CashPolicy):
            raise TableRuleError(f"this is a {self.policy.kind} table: its owner seats the players")
        return self.policy

    def verify_sit(self, player: str, buy_in: int, *, seat: int | None = None) -> int:
        """Raise the reason ``player`` may not sit (in ``seat``, or the first free seat) with ``buy_in`` chips;
        returns the seat he would get (:meth:`CashPolicy.verify_sit`)."""
        return self._cash().verify_sit(self, player, buy_in, seat=seat)

    def sit(
        self,
        player: str,
        buy_in: int,
        now: float,
        *,
        seat: int | None = None,
        blind_choice: BlindChoice = BlindChoice.WAIT_FOR_BIG_BLIND,
    ) -> list[Event]:
        """Seat ``player`` in ``seat`` (or the first free one) with ``buy_in`` chips from his balance.

        At a table already playing he is new and owes a big blind: ``blind_choice`` says whether he posts it
        out of position at once or waits for it (R-BLIND-3). Raises as :meth:`verify_sit`.
        """
        return self._cash().sit(self, player, buy_in, now, seat=seat, blind_choice=blind_choice)

    def top_up(self, player: str, amount: int, now: float) -> list[Event]:
        """Add ``amount`` chips from the balance between hands, up to the maximum buy-in (R-BUYIN-1).

        Raises :class:`HandInProgress` while he is dealt in, :class:`InvalidAmount` over the maximum.
        """
        return self._cash().top_up(self, player, amount, now)

    def join_waiting_list(self, player: str) -> list[Event]:
        """Put ``player`` at the end of the waiting list. :class:`AlreadySeated` if seated or already listed."""
        return self._cash().join_waiting_list(self, player)

    def leave_waiting_list(self, player: str) -> list[Event]:
        """Take ``player`` off the waiting list; :class:`NotSeated` if he is not on it."""
        return self._cash().leave_waiting_list(player)

    # --- seats any owner uses: seat_with_stack, remove_player, set_level ------------------------------

    def verify_seat_number(self, seat: int) -> None:
        """:class:`TableRuleError` unless the table has a seat ``seat``."""
        if not 0 <= seat < self.config.seat_count:
            raise TableRuleError(f"there is no seat {seat}: seats are 0 to {self.config.seat_count - 1}")

    def verify_free_seat(self, seat: int) -> None:
        """:class:`TableRuleError` unless ``seat`` exists and is free."""
        self.verify_seat_number(seat)
        if seat in self.players:
            raise TableRuleError(f"seat {seat} is taken by {self.players[seat].player}")

    def seat_with_stack(self, player: str, stack: int, now: float, *, seat: int | None = None,
                        reason: str = "moved",
                        blind_choice: BlindChoice = BlindChoice.WAIT_FOR_BIG_BLIND) -> list[Event]:
        """Seat ``player`` with ``stack`` chips his owner brings (moved from another table, seated by a pool,
        a tournament's start): no buy-in rule; what he owes is the policy's (:meth:`TablePolicy.arrival`).
        A running hand does not deal him in. ``stack`` 0 is allowed (a busted tournament player who may still
        rebuy moves with his table). :class:`AlreadySeated`, :class:`TableFull`, :class:`TableRuleError`
        (no such seat, taken), :class:`InvalidAmount` (not a whole number of chips >= 0)."""
        if not isinstance(stack, int) or isinstance(stack, bool) or stack < 0:
            raise InvalidAmount(f"a stack is a whole number of chips >= 0, got {stack!r}")
        current = self.seat_of(player)
        if current is not None:
            raise AlreadySeated(f"{player} already sits in seat {current}")
        free = self.free_seats()
        if not free:
            raise TableFull(f"the table is full ({self.config.seat_count} seats)")
        if seat is not None:
            self.verify_free_seat(seat)
        chosen = free[0] if seat is None else seat
        seated = SeatedPlayer(player, chosen, stack, PlayerClock.fresh(self.config.clock), blind_choice=blind_choice)
        self.players[chosen] = seated
        return [PlayerMovedIn(chosen, player, stack, reason), *self.policy.arrival(self, seated)]

    def remove_player(self, player: str, now: float, *, reason: str = "moved") -> list[Event]:
        """Take ``player`` off the table with his stack, for his owner (moved, out of a tournament, back to a
        pool): between his hands, or during a hand he has folded (his chips behind leave now; the hand goes on
        without him). The :class:`PlayerMovedOut` event carries the chips. :class:`NotSeated` if he has no
        seat, :class:`HandInProgress` while he is live in the running hand (not folded)."""
        seated = self.player(player)
        stack = seated.stack
        if self.in_hand(player):
            if seated.seat not in self._folded:
                raise HandInProgress(f"{player} is in the hand at seat {seated.seat}: remove him after it")
            stack = self._chips_behind(seated.seat)
            self._released[seated.seat] = stack
            if self._uncontested is not None and self._uncontested[0] == seated.seat:
                self._uncontested = None
        del self.players[seated.seat]
        if not self.players:
            self.positions = None
        return [PlayerMovedOut(seated.seat, player, stack, reason)]

    def _chips_behind(self, seat: int) -> int:
        hand = self.hand
        if not isinstance(hand, SupportsStacks):
            raise HandInProgress("this hand cannot tell a folded player's chips before it ends")
        return hand.stacks()[seat]

    def add_chips(self, player: str, chips: int, *, reason: str = "rebuy") -> list[Event]:
        """``chips`` more for ``player`` between his hands, from his owner (a rebuy or add-on; no buy-in
        limit). :class:`HandInProgress` while he is dealt in, :class:`InvalidAmount` for chips <= 0."""
        seated = self.player(player)
        if self.in_hand(player):
            raise HandInProgress(f"{player} is in a hand: chips are added after it ends")
        if not isinstance(chips, int) or isinstance(chips, bool) or chips <= 0:
            raise InvalidAmount(f"chips added are a whole number > 0, got {chips!r}")
        seated.stack += chips
        return [ChipsAdded(seated.seat, player, chips, seated.stack)]

    def set_home_options(self, options: HomeOptions) -> None:
        """The home-game options (R-HOME-1..4) of the next hands dealt here (a host changing them); a running
        hand keeps its own. ``ValueError`` naming the option when one does not fit the game (nothing changes)."""
        problem = check_home_options(options, self._hand_config.variant.id)
        if problem is not None:
            raise ValueError(problem)
        self._hand_config = replace(self._hand_config, home=options)

    def reconfigure(self, config: TableConfig) -> list[Event]:
        """New settings for the next hands (a host's change between hands): clocks, straddles, rake, buy-ins and
        the level (:meth:`set_level`; its ``LevelChanged`` returned). The game and the seats stay: ``ValueError``
        for another game or seat count, or a level that does not fit (nothing changes then)."""
        if config.hand.variant is not self.config.hand.variant or config.seat_count != self.config.seat_count:
            raise ValueError("a table keeps its game and its seats: open another table for others")
        config.stakes.check_for(config.hand.variant)
        previous = self.config, self._hand_config
        self.config, self._hand_config = config, config.hand
        try:
            return self.set_level(config.stakes)
        except ValueError:
            self.config, self._hand_config = previous
            raise

    def change_game(self, config: TableConfig) -> list[Event]:
        """A mixed table's next game (R-MIX-1..3), between hands: ``config`` is the game's settings (same seats;
        its level from the next hand). The button of the blind games stays where it was while stud games are
        dealt (R-MIX-3): back at a blind game, it moves on from the last blind-game hand's button, as if no stud
        hand had been played, so nobody pays or skips a blind for the stud. :class:`HandInProgress` during a hand,
        ``ValueError`` for another seat count (nothing changes)."""
        if self.hand is not None:
            raise HandInProgress(f"hand {self.hand_number} is still being played: the game changes after it")
        if config.seat_count != self.config.seat_count:
            raise ValueError("a mixed table keeps its seats: every game of it is dealt at the same seats")
        config.stakes.check_for(config.hand.variant)
        if self.config.ante_games != config.ante_games:
            if config.ante_games:  # a blind game hands over to stud: keep its button for its return
                self._blind_positions = self.positions
            elif self._blind_positions is not None:
                self.positions, self._blind_positions = self._blind_positions, None
        self.config, self._hand_config, self.stakes = config, config.hand, config.stakes
        stakes = config.stakes
        return [GameChanged(self.hand_number + 1, config.hand.variant.id, config.hand.structure.kind.value,
                            stakes.small_blind, stakes.big_blind, stakes.ante, stakes.bring_in)]

    def set_first_button(self, seat: int) -> None:
        """The owner drew the first button (a tournament director's draw): the table's first hand puts it at
        ``seat`` instead of drawing cards for it (R-DEAL-1), if that seat can play then."""
        self.verify_seat_number(seat)
        self._first_button = seat

    def set_level(self, stakes: Stakes, *, level: int = 0) -> list[Event]:
        """The forced bets of the next hand dealt here (a level up, a host changing the blinds); a running
        hand keeps its own (TDA 2022 Rule 20). A fixed-limit table bets the new level's big blind (stud: its
        big blind if set, else twice the bring-in) on its early streets and twice it later. ``level``: a
        tournament's level number, carried by the ``LevelChanged`` returned (0: not a tournament's). ``ValueError``
        when ``stakes`` do not fit the game (nothing changes)."""
        stakes.check_for(self.config.hand.variant)
        hand_config = self._hand_config
        if hand_config.structure.kind is StructureKind.FIXED_LIMIT:
            small_bet = stakes.big_blind if not self.config.ante_games or stakes.big_blind else 2 * stakes.bring_in
            hand_config = replace(hand_config, structure=replace(
                hand_config.structure, small_bet=small_bet, big_bet=2 * small_bet))
        self.stakes, self._hand_config = stakes, hand_config
        return [LevelChanged(self.hand_number + 1, stakes.small_blind, stakes.big_blind, stakes.ante,
                             stakes.big_blind_ante, stakes.bring_in, level)]

    def leave(self, player: str, now: float) -> list[Event]:
        """``player`` leaves. Between hands (or not dealt in) the seat is freed and the stack goes back to the
        balance at once; during a hand he is in, he is folded now if still live (his uncalled bet comes back,
        R-BET-UNCALLED) and the seat is freed when the hand ends."""
        seated = self.player(player)
        if not self.in_hand(player):
            return self._free_seat(seated, "left")
        if seated.leaving:
            return []
        seated.leaving = True
        events: list[Event] = [LeavingAfterHand(seated.seat, player)]
        return events + self._fold_now(seated, now)

    def stack_after_hand(self, player: str) -> int | None:
        """The chips ``player``'s seat holds once the running hand is over, when that is sure now: his stack when
        he is not in the hand, his chips behind once he has folded (no pot can be his); ``None`` while his hand
        is live, all in included. :class:`NotSeated` if he has no seat."""
        seated = self.player(player)
        if not self._dealt_in_now(seated.seat):
            return seated.stack
        if seated.seat not in self._folded or not isinstance(self.hand, SupportsStacks):
            return None
        return self._chips_behind(seated.seat)

    def fold_out(self, player: str, now: float) -> list[Event]:
        """Fold ``player`` out of turn in the running hand but keep his seat: the host folds a player who
        did not reveal his shuffle seed (DESIGN.md §Fairness step 3); his forced bets stay in the pot.

        A no-op (``[]``) if he has already folded or is all-in. :class:`NotSeated` if he has no seat,
        :class:`TableRuleError` if he is not dealt into a running hand.
        """
        seated = self.player(player)
        if not self.in_hand(player):
            raise TableRuleError(f"{player} is not in a running hand: nothing to fold")
        return self._fold_now(seated, now)

    def void_hand(self, lost_by: Collection[int], reason: str, now: float, *,
                  put_in: Mapping[int, int] | None = None) -> list[Event]:
        """The running hand cannot be finished: it ends void (R-CRASH-1, :meth:`engine.hand.Hand.void`) — every
        chip back to its owner except what the seats in ``lost_by`` put in, shared by the others — and the table
        moves on as after any hand. :class:`TableRuleError` when no hand is running or its hand cannot be voided;
        the hand's ``ValueError`` for a ``put_in`` that does not fit (nothing changes then)."""
        hand = self.hand
        void = getattr(hand, "void", None)
        if hand is None or void is None:
            raise TableRuleError("no hand is running that could be voided")
        events: list[Event] = void(lost_by, reason, put_in=put_in)
        self._turn = None
        return events + self._advance(now)

    def kill_hand(self, player: str, now: float) -> list[Event]:
        """Fold ``player``'s hand dead, all in or not, and move the hand on. A host-blind hand's players hold its
        keys: a seat dealt in without his (absent at the deal, TDA "dead hand") or timed out cannot have his cards
        opened by anyone, so his hand can never reach a showdown. A no-op (``[]``) if he has already folded;
        :class:`TableRuleError` if he is not dealt into a running hand."""
        seated = self.player(player)
        if not self.in_hand(player):
            raise TableRuleError(f"{player} is not in a running hand: nothing to fold")
        assert self.hand is not None
        if seated.seat in self._folded or self.hand.is_over:
            return []
        if self._turn is not None and self._turn[0] == seated.seat:
            self._turn = None
        self._all_in.discard(seated.seat)
        events = self._watch(self.hand.leave(seated.seat))
        return events + self._advance(now)

    def _fold_now(self, seated: SeatedPlayer, now: float) -> list[Event]:
        """Fold a live seat at once (out of turn if need be), then move the hand on."""
        assert self.hand is not None
        events: list[Event] = []
        if seated.seat not in self._folded and seated.seat not in self._all_in:
            if self._turn is not None and self._turn[0] == seated.seat:
                self._turn = None
            events += self._watch(self.hand.leave(seated.seat))
        events += self._advance(now)
        return events

    # --- sitting out, away, remembered choices (R-BLIND-3, R-DISC-1) ---------------------------------

    def sit_out(self, player: str, now: float) -> list[Event]:
        """Not dealt in from the next hand on ("sit out next hand"); the seat is held for
        ``clock.seat_hold_seconds``, then freed. A no-op if already sitting out."""
        seated = self.player(player)
        if seated.sitting_out:
            return []
        seated.sitting_out = True
        if seated.inactive_since is None:
            seated.inactive_since = now
        return [PlayerSatOut(seated.seat, player, "asked", seated.inactive_since + self.config.clock.seat_hold_seconds)]

    def sit_in(self, player: str, now: float) -> list[Event]:
        """Back from sitting out or Away: dealt in again from the next hand (paying missed blinds as his
        :class:`BlindChoice` says). :class:`TableRuleError` without chips."""
        seated = self.player(player)
        if seated.stack <= 0:
            raise TableRuleError(f"{player} has no chips: top up before sitting in")
        if not (seated.sitting_out or seated.away):
            return []
        seated.sitting_out = seated.away = False
        seated.inactive_since = None
        return [PlayerSatIn(seated.seat, player)]

    def set_blind_choice(self, player: str, choice: BlindChoice) -> list[Event]:
        """Remember whether ``player`` posts owed blinds at once or waits for the big blind (R-BLIND-3)."""
        seated = self.player(player)
        seated.blind_choice = choice
        return [PlayerSettingChanged(seated.seat, player, "blind_choice", choice.value)]

    def set_auto_post_blinds(self, player: str, on: bool) -> list[Event]:
        """Auto-post blinds on (default) or off. Off: he is dealt into a hand where he must post a blind only
        after :meth:`confirm_blinds`; otherwise he sits that hand out and misses the blind."""
        seated = self.player(player)
        seated.auto_post_blinds = on
        return [PlayerSettingChanged(seated.seat, player, "auto_post_blinds", str(on).lower())]

    def confirm_blinds(self, player: str) -> list[Event]:
        """With auto-post off: agree to post the blind due in the next hand."""
        seated = self.player(player)
        seated.blinds_confirmed = True
        return [PlayerSettingChanged(seated.seat, player, "blinds_confirmed", "true")]

    def set_auto_muck(self, player: str, on: bool) -> list[Event]:
        """Auto-muck on or off for ``player``: from the next hand, at a showdown, a hand of his that cannot win
        is mucked without being shown or asked (R-SHOW-1)."""
        seated = self.player(player)
        seated.auto_muck = on
        return [PlayerSettingChanged(seated.seat, player, "auto_muck", str(on).lower())]

    def set_straddle(self, player: str, on: bool) -> list[Event]:
        """Post a straddle (2 × big blind) whenever left of the big blind (R-BLIND-2).
        :class:`TableRuleError` on a table without straddles."""
        seated = self.player(player)
        if on and not self.config.straddle_allowed:
            raise TableRuleError("this table does not allow straddles")
        seated.straddle = on
        return [PlayerSettingChanged(seated.seat, player, "straddle", str(on).lower())]

    def disconnect(self, player: str, now: float) -> list[Event]:
        """``player``'s connection dropped: his turns use the disconnection time bank, and he is not dealt into
        hands that start while he is gone; the seat hold runs from now, or from the end of the hand he is in
        (R-DISC-1)."""
        seated = self.player(player)
        if seated.disconnected:
            return []
        seated.disconnected = True
        if seated.inactive_since is None and not self.in_hand(player):
            seated.inactive_since = now
        events: list[Event] = [PlayerDisconnected(seated.seat, player)]
        events += self._turn_event_if_acting(seated)
        return events

    def reconnect(self, player: str, now: float) -> list[Event]:
        """``player`` is connected again: dealt in from the next hand, unless he is Away (until he sits in)
        or sitting out."""
        seated = self.player(player)
        if not seated.disconnected:
            return []
        seated.disconnected = False
        if not (seated.away or seated.sitting_out):
            seated.inactive_since = None
        events: list[Event] = [PlayerReconnected(seated.seat, player)]
        events += self._turn_event_if_acting(seated)
        return events

    # --- hands ---------------------------------------------------------------------------------------

    def plan_next_hand(self, *, drawn_button: int | None = None) -> BlindPlan | None:
        """The plan :meth:`start_hand` would use now (``None``: fewer than two can play), changing nothing.
        The runner may show it, e.g. to ask a player with auto-post off to confirm his blind."""
        previous = self.positions
        if previous is None and drawn_button is None:
            drawn_button = min(self._playing_seats(), default=None)
        excluded: set[int] = set()
        while True:
            states = [
                replace(seated.seat_state(), active=self._can_play(seated))
                if seated.seat not in excluded
                else _inactive(seated)
                for seated in self.players.values()
            ]
            if self.config.ante_games:
                # No blinds: nobody owes or waits for one; every player ready is dealt in (R-ANTE-1).
                states = [replace(state, owes_big_blind=False, owes_small_blind=False, new=False) for state in states]
            if previous is None:
                active = [state.seat for state in states if state.active]
                if drawn_button not in active:
                    drawn_button = min(active, default=None)
                if len(active) < 2:
                    return None
            plan = plan_blinds(
                self.config.seat_count, states, previous,
                drawn_button=drawn_button, straddle_allowed=self.config.straddle_allowed,
            )
            if plan is None:
                return plan
            waiting = self.policy.sits_out(self, plan) - excluded if previous is not None else set()
            if waiting:
                excluded |= waiting
                continue
            if self.config.ante_games:
                return plan
            unconfirmed = {
                seat for seat in _posting_seats(plan)
                if not self.players[seat].auto_post_blinds and not self.players[seat].blinds_confirmed
            }
            if not unconfirmed:
                return plan
            excluded |= unconfirmed

    def can_start_hand(self) -> bool:
        """Whether :meth:`start_hand` would deal a hand now (none running, two players can play)."""
        return self.hand is None and len(self._playing_seats()) >= 2 and self.plan_next_hand() is not None

    def start_hand(
        self, deck: Sequence[Card], now: float, *, button_draw_deck: Sequence[Card] | None = None,
        reshuffle: Reshuffle | None = None,
    ) -> list[Event]:
        """Deal the next hand from ``deck`` (shuffled by the caller) at time ``now``. Draw games: ``reshuffle``
        orders the discards if the stub runs out (R-DRAW-1; e.g. :func:`engine.draw.seeded_reshuffle`, so a
        host's deal stays reproducible); it needs the real hand (the default ``hand_starter``).

        The table's first hand needs ``button_draw_deck``: one card each to the players who can play, the
        highest takes the button (R-DEAL-1). Raises :class:`HandInProgress`, or :class:`TableRuleError` when
        fewer than two players can play or the first button has no draw deck; ``ValueError`` from the hand for
        a bad deck. The table is unchanged after any of these.
        """
        if self.hand is not None:
            raise HandInProgress(f"hand {self.hand_number} is still being played")
        events: list[Event] = []
        drawn_button: int | None = None
        if self.positions is None and self._first_button in self._playing_seats():
            drawn_button = self._first_button  # the owner drew it (a tournament director's draw)
        elif self.positions is None:
            playing = self._playing_seats()
            if len(playing) < 2:
                raise TableRuleError("a hand needs at least two players ready to play")
            if button_draw_deck is None:
                raise TableRuleError("the first hand needs a deck for the dealer draw (R-DEAL-1)")
            draw = draw_for_button(playing, button_draw_deck)
            drawn_button = draw.button_seat
            events.append(ButtonDrawn(draw.button_seat, draw.cards))
        plan = self.plan_next_hand(drawn_button=drawn_button)
        if plan is None:
            raise TableRuleError("a hand needs at least two players ready to play")
        forced_bets = self.stakes.forced_bets(
            ante_game=self.config.ante_games, button_seat=plan.button_seat, small_blind_seat=plan.small_blind_seat,
            big_blind_seat=plan.big_blind_seat, straddle_seat=plan.straddle_seat,
            dead_small_blinds=plan.dead_small_blinds, big_blinds_out_of_position=plan.out_of_position_big_blinds)
        home = self._hand_config.home  # R-HOME-3: every N-th hand of the table a bomb pot
        forced_bets = as_bomb_pot(forced_bets, hand_number=self.hand_number + 1, every=home.bomb_pot_every,
                                  ante=home.bomb_pot_ante)
        stacks = {seat: self.players[seat].stack for seat in plan.dealt_in}
        auto_muck = [seat for seat in plan.dealt_in if self.players[seat].auto_muck]
        if reshuffle is None and self.hand_starter is not start_real_hand:  # may raise: nothing changed yet
            hand = self.hand_starter(self._hand_config, stacks, deck, forced_bets)
        else:
            hand = Hand.start(self._hand_config, stacks, deck, forced_bets, reshuffle=reshuffle, auto_muck=auto_muck)
        first_hand = self.positions is None

        self.hand = hand
        self.hand_number += 1
        self.last_plan = plan
        self.last_forced_bets = forced_bets
        self.positions = plan.positions
        self._dealt_in = plan.dealt_in
        self._starting, self._released = stacks, {}
        self._folded, self._all_in = set(), set()
        # the last hand's rabbit and uncontested winner's show stay on offer through the deal, until the new hand's
        # first action (_watch): the pause between hands is a second, too short to decide and press a key
        self._rabbit_deck = tuple(deck) if self._hand_config.home.rabbit_hunt else ()
        events.append(HandPlanned(
            self.hand_number, plan.button_seat, plan.small_blind_seat, plan.big_blind_seat, plan.straddle_seat,
            plan.dealt_in, plan.heads_up, plan.button_is_dead, plan.out_of_position_big_blinds,
            plan.dead_small_blinds, plan.blinds_forgiven,
        ))
        events += self._record_blind_debts(plan, first_hand)
        self.policy.hand_started(self)
        for seat in plan.dealt_in:
            seated = self.players[seat]
            seated.new = False
            refilled = seated.clock.hand_played(self.config.clock)
            if refilled.time_bank or refilled.disconnection_bank:
                events.append(TimeBanksRefilled(
                    seat, seated.player, refilled.time_bank, refilled.disconnection_bank,
                    seated.clock.time_bank, seated.clock.disconnection_bank,
                ))
        for seated in self.players.values():
            seated.blinds_confirmed = False
        events += self._watch(list(hand.events))
        events += self._advance(now)
        return events

    def act(self, player: str, action: Action, now: float) -> list[Event]:
        """``player`` acts in the running hand at time ``now``; overtime past the action clock (a draw: the draw
        clock, R-DRAW-1) is taken from his bank. Raises :class:`NotYourTurn` (not his turn, no hand, or his time
        ran out at the deadline — the runner must :meth:`tick`), or the hand's ``IllegalAction`` /
        ``InvalidAmount``; unchanged after."""
        seated = self.player(player)
        if self.hand is None or self._turn is None:
            raise NotYourTurn("no hand is waiting for an action")
        seat, started_at = self._turn
        if seat != seated.seat:
            raise NotYourTurn(f"it is {self.players[seat].player}'s turn, not {player}'s")
        deadline = self._deadline(seated, started_at)
        if now > deadline:
            raise NotYourTurn(f"{player}'s time ran out at {deadline:g} s")
        free_seconds = self._free_seconds()  # of this turn: asked before the hand moves on
        events = self._watch(self.hand.act(seat, action))  # raises before any change on a bad action
        used = seated.clock.charge(started_at, now, self.config.clock, disconnected=seated.disconnected,
                                  free_seconds=free_seconds)
        if used:
            events.insert(0, TimeBankUsed(
                seat, player, used, seated.clock.bank(disconnected=seated.disconnected), seated.disconnected,
            ))
        self._turn = None
        events += self._advance(now)
        return events

    def tick(self, now: float) -> list[Event]:
        """Apply what time ``now`` brings: a turn past its deadline times out (check if free, else fold, or an
        artificial all-in; the player is marked Away, R-DISC-1/2; a draw stands pat and he is not Away,
        R-DRAW-1), and seats held past
        ``clock.seat_hold_seconds`` are freed with the chips returned."""
        events: list[Event] = []
        turn = self.to_act()
        if turn is not None and now >= turn[1]:
            events += self._time_out(self.players[turn[0]], now)
        events += self._free_expired_seats(now)
        return events

    # --- inside ---------------------------------------------------------------------------------------

    def _playing_seats(self) -> list[int]:
        return sorted(seat for seat, seated in self.players.items() if self._can_play(seated))

    def _can_play(self, seated: SeatedPlayer) -> bool:
        """Whether he could be dealt into the next hand; an absent player is, where the policy deals him in
        (R-TOUR-6: disconnected, Away or sitting out — a tournament's "sit out" is "away"), and is then played
        for at his turns."""
        if self.policy.deals_in_absent:
            return seated.stack > 0 and not seated.leaving
        return seated.can_play

    def _played_for(self, seated: SeatedPlayer) -> bool:
        """Whether the table acts for him at once at his turn (Away, leaving, or absent where dealt in)."""
        return seated.away or seated.leaving or (
            self.policy.deals_in_absent and (seated.disconnected or seated.sitting_out))

    def _absent_action(self, options: LegalActions) -> tuple[Action, str]:
        """Where absent players are dealt in (a tournament) they are folded even where a check is free
        (R-TOUR-6, decision of turn 3); elsewhere as a time-out."""
        return absent_action(options) if self.policy.deals_in_absent else timeout_action(options)

    def _record_blind_debts(self, plan: BlindPlan, first_hand: bool) -> list[Event]:
        events: list[Event] = []
        if self.config.ante_games or not self.policy.tracks_missed_blinds:
            return events
        for seat in plan.settled:
            seated = self.players[seat]
            if seated.owes:
                seated.owes_big_blind = seated.owes_small_blind = False
                events.append(BlindsSettled(seat, seated.player))
        missed_big = set(plan.missed_big_blind)
        missed_small = set(plan.missed_small_blind)
        if first_hand:
            # Whoever sits but is not dealt into the first hand joins later like a new player.
            missed_big |= {seat for seat in self.players if seat not in plan.dealt_in}
        for seat in sorted(missed_big | missed_small):
            seated = self.players[seat]
            before = (seated.owes_small_blind, seated.owes_big_blind)
            seated.owes_big_blind |= seat in missed_big
            seated.owes_small_blind |= seat in missed_small and not seated.new
            if (seated.owes_small_blind, seated.owes_big_blind) != before:
                events.append(BlindOwed(seat, seated.player, seated.owes_small_blind, seated.owes_big_blind))
        return events

    def _watch(self, events: list[Event]) -> list[Event]:
        """Follow the hand's events: who folded, who is all-in; the first player action of a hand ends what
        the hand before still offered (its rabbit, its uncontested winner's show)."""
        offered = self.rabbit is not None or self._uncontested is not None
        if offered and any(isinstance(event, PLAYER_ACTIONS) for event in events):
            self.rabbit, self._uncontested = None, None
        for event in events:
            seat = getattr(event, "seat", None)
            if seat is None:
                continue
            if isinstance(event, Folded):
                self._folded.add(seat)
            elif getattr(event, "all_in", False):
                self._all_in.add(seat)
        return events

    def _deadline(self, seated: SeatedPlayer, started_at: float) -> float:
        if not self.acts_for_absent and self._played_for(seated):
            return started_at  # his runner acts for him at once
        return seated.clock.deadline(started_at, self.config.clock, disconnected=seated.disconnected,
                                     free_seconds=self._free_seconds())

    def _free_seconds(self) -> float | None:
        """The running turn's free time: a draw has its own clock (R-DRAW-1); ``None``: the action clock."""
        options = self.hand.legal_actions() if self.hand is not None else None
        if options is None or options.max_discards is None:
            return None
        draw_seconds = self.config.clock.draw_seconds
        return self.config.hand.variant.draw_seconds if draw_seconds is None else draw_seconds

    def _turn_event_if_acting(self, seated: SeatedPlayer) -> list[Event]:
        if self._turn is None or self._turn[0] != seated.seat:
            return []
        started_at = self._turn[1]
        return [TurnStarted(seated.seat, seated.player, started_at, self._deadline(seated, started_at))]

    def _advance(self, now: float) -> list[Event]:
        """After a change in the hand: finish it, or start the next turn (acting at once for Away players)."""
        events: list[Event] = []
        while self.hand is not None:
            if self.hand.is_over:
                events += self._finish_hand(now)
                break
            options = self.hand.legal_actions()
            if options is None:
                break
            if self._turn is not None and self._turn[0] == options.seat:
                break  # the same turn goes on (e.g. someone else left): its clock keeps running
            seated = self.players[options.seat]
            if self._played_for(seated) and self.acts_for_absent:
                action, name = self._absent_action(options)
                events.append(TimedOut(seated.seat, seated.player, name))
                events += self._watch(self.hand.act(seated.seat, action))
                continue
            self._turn = (options.seat, now)
            events.append(TurnStarted(seated.seat, seated.player, now, self._deadline(seated, now)))
            break
        return events

    def _time_out(self, seated: SeatedPlayer, now: float) -> list[Event]:
        assert self.hand is not None and self._turn is not None
        options = self.hand.legal_actions()
        assert options is not None and options.seat == seated.seat
        started_at = self._turn[1]
        used = seated.clock.charge(started_at, now, self.config.clock, disconnected=seated.disconnected,
                                  free_seconds=self._free_seconds())
        events: list[Event] = []
        if used:
            events.append(TimeBankUsed(
                seated.seat, seated.player, used, seated.clock.bank(disconnected=seated.disconnected),
                seated.disconnected,
            ))
        self._turn = None
        if self._artificial_all_in_applies(seated, options, now):
            assert isinstance(self.hand, SupportsArtificialAllIn)
            remaining = self.all_in_quota.use(seated.player, now)
            events.append(TimedOut(seated.seat, seated.player, "artificial_all_in"))
            events.append(ArtificialAllInGiven(seated.seat, seated.player, remaining))
            events += self._watch(self.hand.artificial_all_in(seated.seat))
            self._all_in.add(seated.seat)
        else:
            action, name = timeout_action(options)
            events.append(TimedOut(seated.seat, seated.player, name))
            events += self._watch(self.hand.act(seated.seat, action))
            if options.max_discards is not None or options.can_run_twice:
                # R-DRAW-1 (turn 2): a draw that times out stands pat and bars a bet or raise next round;
                # it is no action timeout, so he is not Away and keeps his turns (call or fold). Neither is a
                # run-it-twice question left unanswered (R-HOME-1: it runs once).
                return events + self._advance(now)
        seated.away = True
        if seated.inactive_since is None:
            seated.inactive_since = now
        freed_at = seated.inactive_since + self.config.clock.seat_hold_seconds
        events.append(PlayerAway(seated.seat, seated.player, freed_at))
        events += self._advance(now)
        return events

    def _artificial_all_in_applies(self, seated: SeatedPlayer, options: LegalActions, now: float) -> bool:
        return (
            self.config.artificial_all_in
            and seated.disconnected
            and not options.can_check
            and options.call_amount is not None
            and isinstance(self.hand, SupportsArtificialAllIn)
            and self.all_in_quota.remaining(seated.player, now) > 0
        )

    def _finish_hand(self, now: float) -> list[Event]:
        assert self.hand is not None
        ended = self.hand.events[-1]
        if not isinstance(ended, HandEnded):
            raise RuntimeError("the hand says it is over but its last event is not HandEnded")
        before = sum(self._starting.values())
        after = sum(stack for _, stack in ended.stacks)
        if before != after + ended.rake:
            raise RuntimeError(f"chip conservation broken: {before} in, {after} + {ended.rake} rake out")
        for seat, stack in ended.stacks:
            if seat in self._released:  # removed folded during the hand: his chips left with him
                if stack != self._released[seat]:
                    raise RuntimeError(f"seat {seat} left with {self._released[seat]} chips but ended with {stack}")
                continue
            self.players[seat].stack = stack
        self.rake_taken += ended.rake
        events: list[Event] = [HandFinished(self.hand_number, ended.stacks, ended.rake)]
        self._uncontested = self._uncontested_winner()
        self.rabbit = None
        if self._hand_config.home.rabbit_hunt:  # R-HOME-2: the cards that would have come, till the next action
            self.rabbit = offer_after(self._hand_config.variant, self._rabbit_deck,
                                      cards_dealt=getattr(self.hand, "cards_dealt", None),
                                      board=getattr(self.hand, "board", ()), dealt_in=self._dealt_in)
            self._rabbit_players = frozenset(self.players[seat].player for seat in self._dealt_in
                                             if seat in self.players)
        self.last_hand = self.hand  # a hand can end inside start_hand (blinds all in): its log stays readable
        self.hand = None
        self._turn = None
        self._dealt_in = ()
        self._starting, self._released = {}, {}
        for seated in list(self.players.values()):
            if seated.disconnected and seated.inactive_since is None:
                seated.inactive_since = now  # gone since the hand: his seat hold starts (R-DISC-1)
            if seated.leaving:
                events += self._free_seat(seated, "left")
            elif seated.stack == 0:
                events += self.policy.out_of_chips(self, seated, now)
        events += self._free_expired_seats(now)
        return events

    def _uncontested_winner(self) -> tuple[int, tuple[Card, ...]] | None:
        """``(seat, hole cards)`` of the player who won the ending hand with nobody left to show against."""
        hand = self.hand
        standing = [seat for seat in self._dealt_in if seat not in self._folded]
        hole_cards = getattr(hand, "hole_cards", None)
        if hand is None or len(standing) != 1 or hole_cards is None \
                or any(isinstance(event, HandShown) for event in hand.events):
            return None
        return standing[0], tuple(hole_cards(standing[0]))

    def rabbit_hunt(self, player: str) -> list[Event]:
        """R-HOME-2: ``player``, dealt into the last hand, asks to see the cards that would have come (once per
        hand, until the next hand's first action). :class:`TableRuleError` says why not; nothing changes then."""
        seat = self.player(player).seat
        if self.rabbit is not None and player not in self._rabbit_players:
            seat = -1  # his seat's player of that hand has gone: he was not dealt in
        return request_rabbit(self.rabbit, seat, player)

    def show_after_win(self, player: str, cards: Sequence[Card]) -> list[Event]:
        """``player`` won the last hand uncontested: show one of his cards or all of them, once, until the next
        hand's first action. :class:`TableRuleError` says why not otherwise; nothing changes then."""
        winner = self._uncontested
        seated = self.players.get(winner[0]) if winner is not None else None
        if winner is None or seated is None or seated.player != player:
            raise TableRuleError("only the player who won the last hand without a showdown can show it, "
                                 "until the next hand's first action")
        hole = winner[1]
        if len(set(cards)) != len(cards) or any(card not in hole for card in cards) \
                or len(cards) not in (1, len(hole)):
            raise TableRuleError("show one of your cards or all of them")
        self._uncontested = None
        return [CardsShownAfterWin(seated.seat, player, tuple(cards))]

    def _free_expired_seats(self, now: float) -> list[Event]:
        events: list[Event] = []
        if not self.policy.frees_held_seats:
            return events
        hold = self.config.clock.seat_hold_seconds
        for seated in sorted(self.players.values(), key=lambda seated: seated.seat):
            if seated.inactive_since is None or now < seated.inactive_since + hold:
                continue
            if self._dealt_in_now(seated.seat):
                continue  # his chips are in the hand's accounting: freed when it ends
            gone = seated.away or seated.disconnected
            events += self._free_seat(seated, "away_too_long" if gone else "sat_out_too_long")
        return events

    def _free_seat(self, seated: SeatedPlayer, reason: str) -> list[Event]:
        del self.players[seated.seat]
        if not self.players:
            self.positions = None  # an empty table starts again with a dealer draw
        return [
            ChipsReturned(seated.seat, seated.player, seated.stack),
            SeatFreed(seated.seat, seated.player, reason, self.waiting_list.first()),
        ]


def _inactive(seated: SeatedPlayer) -> SeatState:
    return replace(seated.seat_state(), active=False)


def _posting_seats(plan: BlindPlan) -> set[int]:
    """Seats that must put chips in before the cards (the straddle is a choice already made)."""
    seats = {plan.big_blind_seat, *plan.out_of_position_big_blinds, *plan.dead_small_blinds}
    if plan.small_blind_seat is not None:
        seats.add(plan.small_blind_seat)
    return seats
