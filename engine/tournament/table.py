"""One tournament table: seats, the button, and real :class:`engine.hand.Hand` s at the director's level.

A thin, game-neutral table for a director to drive (issue 16's seams, built here without the cash policy):
:meth:`seat_with_stack`, :meth:`remove_player` (between his hands), :meth:`start_hand` (at the level the director
passes: the table keeps none, a hand started keeps its own, TDA) / :meth:`act`.
Pure: decks come from the caller; nothing reads a clock.

Rules it follows, beyond RULES.md:

* Button and blinds by the dead-button rule (R-BLIND-4, :func:`engine.button.plan_blinds`), as TDA
  tournaments play it; nobody owes blinds: missed blinds do not exist in a tournament.
* A player who arrives (moved, late, re-entered) "can get any seat including small or big blind or the
  button and be dealt in except between the small blind and button" (TDA 2022 Rule 12): he sits out the
  one hand in which his seat falls between the button and the small blind.
* R-TOUR-6: an absent (disconnected or timed-out) player is never removed: he is dealt in, posts, and at his
  turn is folded at once, even where a check is free (decision of turn 3; :class:`engine.table_events.TimedOut`
  records it).

>>> from engine.cards import full_deck
>>> from engine.tournament.levels import Level
>>> from engine.variants import TEXAS_HOLDEM
>>> table = TournamentTable(1, TEXAS_HOLDEM, seat_count=6)
>>> for seat, entry in enumerate((11, 12, 13)):
...     _ = table.seat_with_stack(entry, f"p{entry}", 1_000, seat=seat)
>>> _ = table.start_hand(list(full_deck()), Level(10, 20), first_button=0)
>>> table.hand.legal_actions().seat, table.hand.pot_total
(0, 30)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action, LegalActions
from engine.button import BlindPlan, Positions, SeatState, plan_blinds
from engine.cards import Card
from engine.errors import HandInProgress, NotSeated, NotYourTurn, TableFull, TableRuleError
from engine.events import Event, HandEnded
from engine.hand import Hand, HandConfig
from engine.structures import StructureKind
from engine.table.hands import absent_action, timeout_action
from engine.table_events import TimedOut
from engine.tournament.levels import Level
from engine.variants import ForcedBetKind, Variant


@dataclass(slots=True)
class TournamentSeat:
    """One entry at the table: ``stack`` chips (up to date between hands). ``waits_one_hand``: just arrived
    between the button and the small blind (TDA). ``absent``: R-TOUR-6."""

    entry: int
    player: str
    stack: int
    waits_one_hand: bool = False
    absent: bool = False


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: every dealt-in seat's starting and final stack, the level it was dealt at, and the
    hand's events (to find who won a busted player's last chips)."""

    table: int
    starting: dict[int, int]
    final: dict[int, int]
    events: tuple[Event, ...]

    @property
    def busted_seats(self) -> list[int]:
        """Seats that ended with no chips, bigger starting stack first (TDA: finishes higher)."""
        return sorted((seat for seat, stack in self.final.items() if stack == 0), key=lambda s: -self.starting[s])


class TournamentTable:
    """A tournament table numbered ``number`` of ``seat_count`` seats for ``variant``, betting ``structure``."""

    def __init__(self, number: int, variant: Variant, *, seat_count: int,
                 structure: StructureKind = StructureKind.NO_LIMIT) -> None:
        if not 2 <= seat_count <= min(10, variant.max_players):
            raise ValueError(f"{variant.name} tables have 2 to {min(10, variant.max_players)} seats, not {seat_count}")
        self.number = number
        self.variant = variant
        self.seat_count = seat_count
        self.structure = structure
        self.seats: dict[int, TournamentSeat] = {}
        self.hand: Hand | None = None
        self.hands_played = 0
        self.positions: Positions | None = None
        self.external: frozenset[int] | None = None
        """Entries dealt into a hand the room plays for this table on its own engine table (its runner: the
        commit–reveal deal, the clocks); ``None`` when no such hand runs. The director moves none of them."""

    # --- questions ---------------------------------------------------------------------------------

    @property
    def hand_running(self) -> bool:
        """Whether a hand is being played (here, or by the room for this table)."""
        return self.hand is not None or self.external is not None

    @property
    def player_count(self) -> int:
        """Entries seated (with or without chips)."""
        return len(self.seats)

    def free_seats(self) -> list[int]:
        """Empty seats, in order."""
        return [seat for seat in range(self.seat_count) if seat not in self.seats]

    def seat_of(self, entry: int) -> int | None:
        """The seat of ``entry``, or ``None``."""
        for seat, seated in self.seats.items():
            if seated.entry == entry:
                return seat
        return None

    def chips(self) -> int:
        """All chips at the table, those in a running hand included."""
        return sum(seated.stack for seated in self.seats.values())

    def in_hand(self, entry: int) -> bool:
        """Whether ``entry`` was dealt into the running hand."""
        seat = self.seat_of(entry)
        if self.external is not None:
            return entry in self.external
        return self.hand is not None and seat is not None and seat in self.hand.seats

    def next_big_blind_seat(self) -> int | None:
        """The seat that will post the big blind in the next hand (the one TDA balancing moves), or ``None``
        (fewer than two can play, or no hand was dealt yet: the button is not drawn)."""
        if self.positions is None:
            return None
        plan = self._plan()
        return None if plan is None else plan.big_blind_seat

    def worst_free_seat(self) -> int | None:
        """TDA 2022 Rule 13: a player moved to balance goes to the worst position — the free seat the big
        blind reaches first (it may mean a big blind at once), never the small blind. ``None`` when full."""
        free = self.free_seats()
        if not free:
            return None
        if self.positions is None:
            return free[0]
        after = self.positions.big_blind_seat
        # Clockwise from the seat after the last big blind: the next big blind comes there first.
        return min(free, key=lambda seat: (seat - after - 1) % self.seat_count)

    # --- seats -------------------------------------------------------------------------------------

    def seat_with_stack(self, entry: int, player: str, stack: int, *, seat: int | None = None,
                        busted: bool = False) -> int:
        """Seat ``entry`` (``player``'s) with ``stack`` chips in ``seat`` (or the first free one); returns the
        seat. ``busted``: a player with no chips who may still rebuy moves with his table (0 chips allowed).
        :class:`TableFull`, :class:`TableRuleError` for a taken seat or an entry already here."""
        if stack < 0 or (stack == 0 and not busted):
            raise TableRuleError(f"a tournament stack is more than 0 chips, got {stack}")
        if self.seat_of(entry) is not None:
            raise TableRuleError(f"entry {entry} already sits at table {self.number}")
        free = self.free_seats()
        if not free:
            raise TableFull(f"table {self.number} is full")
        chosen = free[0] if seat is None else seat
        if chosen not in free:
            raise TableRuleError(f"seat {chosen} of table {self.number} is not free")
        # A hand already running does not deal him in; the TDA "between the small blind and button" check
        # is made when the next hand is planned.
        self.seats[chosen] = TournamentSeat(entry, player, stack, waits_one_hand=self.positions is not None)
        return chosen

    def remove_player(self, entry: int) -> TournamentSeat:
        """Take ``entry`` off the table with his stack (moved, or out). :class:`HandInProgress` while he is
        dealt into the running hand; :class:`NotSeated` if he is not here."""
        seat = self.seat_of(entry)
        if seat is None:
            raise NotSeated(f"entry {entry} has no seat at table {self.number}")
        if (self.hand is not None and seat in self.hand.seats) or (self.external is not None
                                                                    and entry in self.external):
            raise HandInProgress(f"entry {entry} is in a hand at table {self.number}")
        seated = self.seats.pop(seat)
        if not self.seats:
            self.positions = None
        return seated

    def add_chips(self, entry: int, chips: int) -> int:
        """A rebuy or add-on: ``chips`` more for ``entry`` between his hands; returns the new stack."""
        seat = self.seat_of(entry)
        if seat is None:
            raise NotSeated(f"entry {entry} has no seat at table {self.number}")
        if self.in_hand(entry):
            raise HandInProgress("chips bought during a hand are added after it (TDA)")
        self.seats[seat].stack += chips
        return self.seats[seat].stack

    def set_absent(self, entry: int, absent: bool) -> None:
        """R-TOUR-6: mark ``entry`` absent (played for: checked or folded) or back."""
        seat = self.seat_of(entry)
        if seat is None:
            raise NotSeated(f"entry {entry} has no seat at table {self.number}")
        self.seats[seat].absent = absent

    # --- hands -------------------------------------------------------------------------------------

    def _states(self) -> list[SeatState]:
        return [SeatState(seat, active=seated.stack > 0) for seat, seated in self.seats.items()]

    def _plan(self, first_button: int | None = None) -> BlindPlan | None:
        states = self._states()
        plan = plan_blinds(self.seat_count, states, self.positions, drawn_button=first_button)
        if plan is None or self.positions is None:
            return plan
        waiting = {seat for seat in plan.dealt_in if self.seats[seat].waits_one_hand
                   and _strictly_between(self.seat_count, plan.button_seat, seat, plan.small_blind_seat)}
        if not waiting:
            return plan
        states = [SeatState(state.seat, active=state.active and state.seat not in waiting) for state in states]
        return plan_blinds(self.seat_count, states, self.positions)

    def dealing_order(self, first_button: int | None = None) -> tuple[int, ...]:
        """The seats the next hand deals to, in deal order (clockwise from the seat left of the button)."""
        plan = self._plan(first_button)
        if plan is None:
            return ()
        return tuple(sorted(plan.dealt_in, key=lambda seat: (seat <= plan.button_seat, seat)))

    def can_start_hand(self) -> bool:
        """Whether a hand could be dealt now: none running, two players with chips."""
        return not self.hand_running and sum(s.stack > 0 for s in self.seats.values()) >= 2

    def start_hand(self, deck: Sequence[Card], level: Level, *, first_button: int | None = None) -> list[Event]:
        """Deal the next hand from ``deck`` at the director's ``level`` (``ValueError`` for a stud level at a
        blind game or the other way round). The table's first hand needs ``first_button`` (a seat with chips,
        from the director's draw). Returns the hand's events so far, with the absent players' automatic
        actions."""
        if self.hand is not None:
            raise HandInProgress(f"a hand is running at table {self.number}")
        if level.is_stud != (self.variant.forced_bets is ForcedBetKind.ANTE_BRING_IN):
            raise ValueError(f"{self.variant.name} needs {'stud' if not level.is_stud else 'blind'} levels")
        if self.positions is None and first_button is None:
            first_button = min((seat for seat, s in self.seats.items() if s.stack > 0), default=None)
        plan = self._plan(first_button)
        if plan is None:
            raise TableRuleError(f"table {self.number} has fewer than two players with chips")
        forced = level.forced_bets(button_seat=plan.button_seat, small_blind_seat=plan.small_blind_seat,
                                   big_blind_seat=plan.big_blind_seat)
        config = HandConfig(self.variant, level.structure(self.structure))
        stacks = {seat: self.seats[seat].stack for seat in plan.dealt_in}
        hand = Hand.start(config, stacks, deck, forced)
        self.hand = hand
        self.positions = plan.positions
        for seated in self.seats.values():
            seated.waits_one_hand = False
        return list(hand.events) + self._play_for_absent()

    def act(self, entry: int, action: Action) -> list[Event]:
        """``entry`` acts in the running hand; raises as :meth:`engine.hand.Hand.act` (nothing changes)."""
        hand = self.hand
        if hand is None:
            raise NotYourTurn(f"no hand is running at table {self.number}")
        seat = self.seat_of(entry)
        if seat is None:
            raise NotSeated(f"entry {entry} has no seat at table {self.number}")
        events = hand.act(seat, action)
        return events + self._play_for_absent()

    def legal_actions(self) -> LegalActions | None:
        """Who acts and what he may do in the running hand (``None`` when no decision is pending)."""
        return None if self.hand is None else self.hand.legal_actions()

    def act_for_absent(self, entry: int) -> list[Event]:
        """The runner's clock ran out for ``entry``: this turn checked if free, else folded (R-DISC-1: he was
        there, only slow); from then on he is absent and folded at each turn (R-TOUR-6) until he is back."""
        seat = self.seat_of(entry)
        if seat is None:
            raise NotSeated(f"entry {entry} has no seat at table {self.number}")
        self.seats[seat].absent = True
        events: list[Event] = []
        options = self.legal_actions()
        if self.hand is not None and options is not None and options.seat == seat:
            action, name = timeout_action(options)
            events.append(TimedOut(seat, self.seats[seat].player, name))
            events += self.hand.act(seat, action)
        return events + self._play_for_absent()

    def finish_hand(self) -> HandResult:
        """Close a hand that is over: stacks updated; returns the :class:`HandResult`. Busted seats stay
        seated with 0 chips until the director removes them (a rebuy may still save them)."""
        hand = self.hand
        if hand is None or not hand.is_over:
            raise TableRuleError(f"no finished hand at table {self.number}")
        ended = hand.events[-1]
        assert isinstance(ended, HandEnded)
        starting = hand.starting_stacks()
        final = dict(ended.stacks)
        if sum(starting.values()) != sum(final.values()) + ended.rake:
            raise RuntimeError("chip conservation broken at a tournament table")
        for seat, stack in final.items():
            self.seats[seat].stack = stack
        self.hand = None
        self.hands_played += 1
        return HandResult(self.number, starting, final, tuple(hand.events))

    def _play_for_absent(self) -> list[Event]:
        events: list[Event] = []
        hand = self.hand
        while hand is not None and not hand.is_over:
            options = hand.legal_actions()
            if options is None:
                break
            seated = self.seats[options.seat]
            if not seated.absent:
                break
            action, name = absent_action(options)  # R-TOUR-6: folded at his turn, even where a check is free
            events.append(TimedOut(options.seat, seated.player, name))
            events += hand.act(options.seat, action)
        return events


def _strictly_between(seat_count: int, start: int, seat: int, end: int | None) -> bool:
    """Whether ``seat`` lies clockwise strictly after ``start`` and strictly before ``end``."""
    if end is None:
        return False
    return 0 < (seat - start) % seat_count < (end - start) % seat_count
