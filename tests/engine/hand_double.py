"""A TEST DOUBLE of engine.hand.Hand for the table tests: ``TwoRoundHandDouble``.

Not poker-complete on purpose: it posts the forced bets of a :class:`~engine.hand.ForcedBets` plan exactly as
RULES.md says (small blind, big blind, straddle, dead small blinds into the pot, out-of-position live big
blinds, antes), then plays two no-limit betting rounds (preflop in R-BET-ORDER order — left of the big blind
or straddle, heads-up the button first —, then one round from the first live seat left of the button), and
gives each pot layer to the eligible seat holding the highest card of the deck (one card per seat in seat
order). Side pots and the uncalled bet follow R-POT-1 / R-BET-UNCALLED, so chips are conserved exactly.

It is here so the table's own rules (button, blinds, clocks, away, seats) can be tested with hands of known
shape quickly; the scenario tests also run on the real :class:`engine.hand.Hand` when it is available.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.actions import Action, BetOrRaise, Call, Check, Fold, LegalActions
from engine.cards import Card
from engine.errors import IllegalAction, InvalidAmount, NotYourTurn
from engine.events import (
    BetPlaced,
    BlindPosted,
    Called,
    Checked,
    Event,
    Folded,
    HandEnded,
    HandStarted,
    PotAwarded,
    Raised,
    UncalledBetReturned,
)
from engine.fairness import Deal
from engine.hand import ForcedBets, HandConfig


class TwoRoundHandDouble:
    """See the module docstring. Build with :meth:`start` (same signature as ``Hand.start``)."""

    def __init__(self, seats: Mapping[int, int], deck: Sequence[Card], forced: ForcedBets) -> None:
        self.order = sorted(seats)
        self.start_stacks = dict(seats)
        self.stacks = dict(seats)
        self.forced = forced
        self.cards = dict(zip(self.order, deck, strict=False))
        self.bets = dict.fromkeys(self.order, 0)  # this round
        self.total = dict.fromkeys(self.order, 0)  # whole hand, live and dead
        self.dead = 0
        self.folded: set[int] = set()
        self.all_in: set[int] = set()
        self.frozen: set[int] = set()  # artificial all-in
        self.events: list[Event] = []
        self.round = 0
        self.over = False
        self.to_act: int | None = None
        self.pending: list[int] = []
        self.events.append(HandStarted("double", "no_limit", forced.button_seat, tuple(sorted(seats.items()))))
        self._post_forced()

    @property
    def deals(self) -> tuple[Deal, ...]:
        """One card per seat from the top of the deck, in seat order (no event shows them: never dealt face up)."""
        return tuple(Deal(position, seat) for position, seat in enumerate(self.cards))

    @classmethod
    def start(
        cls, config: HandConfig, seats: Mapping[int, int], deck: Sequence[Card], forced_bets: ForcedBets,
    ) -> TwoRoundHandDouble:
        if len(seats) < 2:
            raise ValueError("a hand needs two players")
        posting = (forced_bets.big_blind_seat, *forced_bets.dead_small_blinds, *forced_bets.big_blinds_out_of_position)
        for seat in posting:
            if seat is not None and seat not in seats:
                raise ValueError(f"forced bet for seat {seat}, which is not dealt in")
        return cls(seats, deck, forced_bets)

    # --- forced bets -------------------------------------------------------------------------------

    def _put(self, seat: int, amount: int, *, live: bool) -> tuple[int, bool]:
        paid = min(amount, self.stacks[seat])
        self.stacks[seat] -= paid
        self.total[seat] += paid
        if live:
            self.bets[seat] += paid
        else:
            self.dead += paid
        all_in = self.stacks[seat] == 0
        if all_in:
            self.all_in.add(seat)
        return paid, all_in

    def _post(self, seat: int, kind: str, amount: int, live: bool = True) -> None:
        paid, all_in = self._put(seat, amount, live=live)
        self.events.append(BlindPosted(seat, kind, paid, live, all_in))

    def _post_forced(self) -> None:
        forced = self.forced
        if forced.small_blind_seat is not None and forced.small_blind_seat in self.stacks:
            self._post(forced.small_blind_seat, "small_blind", forced.small_blind)
        if forced.big_blind_seat is not None:
            self._post(forced.big_blind_seat, "big_blind", forced.big_blind)
        for seat in forced.big_blinds_out_of_position:
            self._post(seat, "big_blind_out_of_position", forced.big_blind)
        for seat in forced.dead_small_blinds:
            self._post(seat, "dead_small_blind", forced.small_blind, live=False)
        if forced.straddle_seat is not None:
            self._post(forced.straddle_seat, "straddle", forced.straddle)
        last = forced.straddle_seat if forced.straddle_seat is not None else forced.big_blind_seat
        heads_up = len(self.order) == 2
        if heads_up:
            first = forced.button_seat
        else:
            assert last is not None
            first = self._next(last)
        self._open_round(first)

    # --- rounds ------------------------------------------------------------------------------------

    def _next(self, seat: int) -> int:
        index = [s for s in self.order if s > seat]
        return index[0] if index else self.order[0]

    def _live(self) -> list[int]:
        return [seat for seat in self.order if seat not in self.folded]

    def _can_act(self, seat: int) -> bool:
        return seat not in self.folded and seat not in self.all_in and seat not in self.frozen

    def _open_round(self, first: int) -> None:
        ring = self.order[self.order.index(first):] + self.order[: self.order.index(first)]
        self.pending = [seat for seat in ring if self._can_act(seat)]
        self._next_turn()

    def _next_turn(self) -> None:
        if len(self._live()) == 1:
            self._finish()
            return
        self.pending = [seat for seat in self.pending if self._can_act(seat)]
        highest = max(self.bets.values())
        acting = [seat for seat in self.order if self._can_act(seat)]
        if not self.pending or (len(acting) <= 1 and all(self.bets[s] >= highest for s in acting)):
            if self.round == 0 and len(acting) >= 2:
                self.round = 1
                self.bets = dict.fromkeys(self.order, 0)
                self._open_round(self._next(self.forced.button_seat))
            else:
                self._finish()
            return
        self.to_act = self.pending[0]

    def legal_actions(self) -> LegalActions | None:
        if self.over or self.to_act is None:
            return None
        seat = self.to_act
        highest = max(self.bets.values())
        owed = highest - self.bets[seat]
        stack = self.stacks[seat]
        most = self.bets[seat] + stack
        least = max(highest + self.forced.big_blind, self.forced.big_blind)
        return LegalActions(
            seat=seat,
            can_fold=True,
            can_check=owed == 0,
            call_amount=min(owed, stack) if owed > 0 else None,
            min_raise_to=min(least, most) if most > highest else None,
            max_raise_to=most if most > highest else None,
            is_bet=highest == 0,
        )

    def act(self, seat: int, action: Action) -> list[Event]:
        options = self.legal_actions()
        if options is None or options.seat != seat:
            raise NotYourTurn(f"seat {seat} is not to act")
        if isinstance(action, BetOrRaise) and options.can_raise and not options.allows(action):
            raise InvalidAmount(f"raise to {action.to} outside {options.min_raise_to}..{options.max_raise_to}")
        if not options.allows(action):
            raise IllegalAction(f"{type(action).__name__} is not allowed now")
        before = len(self.events)
        self.pending.remove(seat)
        if isinstance(action, Fold):
            self.folded.add(seat)
            self.events.append(Folded(seat))
        elif isinstance(action, Check):
            self.events.append(Checked(seat))
        elif isinstance(action, Call):
            paid, all_in = self._put(seat, options.call_amount or 0, live=True)
            self.events.append(Called(seat, paid, all_in))
        elif isinstance(action, BetOrRaise):
            highest = max(self.bets.values())
            added, all_in = self._put(seat, action.to - self.bets[seat], live=True)
            self.events.append(
                BetPlaced(seat, action.to, added, all_in) if highest == 0 else Raised(seat, action.to, added, all_in)
            )
            ring = self.order[self.order.index(seat) + 1:] + self.order[: self.order.index(seat)]
            self.pending = [other for other in ring if self._can_act(other)]
        self._next_turn()
        return self.events[before:]

    def leave(self, seat: int) -> list[Event]:
        if seat in self.folded or self.over:
            raise IllegalAction(f"seat {seat} is not live in this hand")
        before = len(self.events)
        self.folded.add(seat)
        if seat in self.pending:
            self.pending.remove(seat)
        self.events.append(Folded(seat, left_table=True))
        self._next_turn()
        return self.events[before:]

    def artificial_all_in(self, seat: int) -> list[Event]:
        """R-DISC-2: the seat stays in for what it has put in, acts no more, keeps the rest of its stack."""
        before = len(self.events)
        self.frozen.add(seat)
        if seat in self.pending:
            self.pending.remove(seat)
        self._next_turn()
        return self.events[before:]

    @property
    def is_over(self) -> bool:
        return self.over

    # --- the end -----------------------------------------------------------------------------------

    def _finish(self) -> None:
        self.over = True
        self.to_act = None
        contributions = dict(self.total)
        live = self._live()
        # R-BET-UNCALLED: the top contributor's excess over the second highest comes back.
        if live:
            ranked = sorted(contributions.items(), key=lambda item: item[1], reverse=True)
            top_seat, top = ranked[0]
            second = ranked[1][1] if len(ranked) > 1 else 0
            if top > second and top_seat in live:
                excess = top - second
                contributions[top_seat] -= excess
                self.stacks[top_seat] += excess
                self.events.append(UncalledBetReturned(top_seat, excess))
        levels = sorted({amount for seat, amount in contributions.items() if seat in live and amount > 0})
        floor = 0
        index = 0
        for level in levels:
            pot = sum(max(0, min(amount, level) - floor) for amount in contributions.values())
            eligible = [seat for seat in live if contributions[seat] >= level]
            winner = max(eligible, key=lambda seat: int(self.cards.get(seat, Card(0))))
            self.stacks[winner] += pot
            self.events.append(PotAwarded(index, winner, pot, pot_total=pot))
            index += 1
            floor = level
        # Chips above every live player's level (folded players' excess) and dead money go to the best live hand.
        leftover = sum(max(0, amount - floor) for amount in contributions.values())
        if leftover:
            winner = max(live, key=lambda seat: int(self.cards.get(seat, Card(0))))
            self.stacks[winner] += leftover
            self.events.append(PotAwarded(index, winner, leftover, pot_total=leftover))
        self.events.append(HandEnded(tuple((seat, self.stacks[seat]) for seat in self.order)))
