"""One reducer: the hand as one seat (or a spectator) sees it, rebuilt from its events (DESIGN.md "Second wave").

Every consumer of the event stream that needs the hand's state — the TUI's table model, the practice bots, the
hand-history writers — folds the events it may see into a :class:`HandView`, one event at a time
(:meth:`HandView.apply`), so a live client updates as events arrive and a writer replays a finished hand the
same way. Pure: no I/O, no clock; what a viewer may not see never reaches the view (feed it
:func:`engine.events.view_for` of the log), so a spectator's view holds no hidden card.

State: per seat (:class:`SeatView`) the stack behind, the bet in front this betting round (a street total),
the chips committed this hand, folded / all-in / mucked, the cards this viewer knows (own face-down cards,
everyone's up cards, shown hands), how many face-down cards it cannot see, draws and discards, what it won;
for the hand the board, the street, the dead money, the pots (R-POT-1), whose turn (from the table's
:class:`~engine.table_events.TurnStarted`), the showdown and the awards.

Bets in front stay in front until the next betting round opens (or the hand ends), as a player sees the
chips on the felt; an uncalled bet returns to its owner's stack at once (R-BET-UNCALLED).

>>> from engine.cards import parse_cards
>>> from engine.events import BlindPosted, Called, HandStarted, HoleCardsDealt, view_for
>>> events = [HandStarted("texas_holdem", "no_limit", 1, ((0, 100), (1, 100))),
...           BlindPosted(1, "small_blind", 1), BlindPosted(0, "big_blind", 2),
...           HoleCardsDealt(0, parse_cards("As Kd")), HoleCardsDealt(1, parse_cards("7h 7c")), Called(1, 1)]
>>> view = HandView.replay(view_for(events, seat=0))
>>> view.seats[1].stack, view.seats[1].bet, view.pot_total, [str(card) for card in view.seats[0].cards]
(98, 2, 4, ['As', 'Kd'])
>>> view.seats[1].cards, view.seats[1].face_down
([], 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.cards import Card
from engine.events import (
    AntePosted,
    BetPlaced,
    BettingRoundStarted,
    BlindPosted,
    BoardDealt,
    BoardPotAwarded,
    BombPotStarted,
    BringInPosted,
    Called,
    CardsDealtFaceDown,
    CardsDrawn,
    Checked,
    DrawnCardsDealt,
    Event,
    Folded,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
    Raised,
    RakeTaken,
    RunItTwiceDecided,
    RunItTwiceOffered,
    SecondBoardDealt,
    SevenDeuceBountyPaid,
    SplitAccepted,
    TreatedAsAllIn,
    UncalledBetReturned,
    UpCardsDealt,
)
from engine.pots import Pot, build_pots
from engine.table_events import HandPlanned, TurnStarted


class SeatView:
    """One seat in the hand as the viewer knows it. Chips are integers.

    ``cards``: every card of the seat the viewer knows, in the engine's order (own face-down and up cards in
    deal order, a drawn card in its discard's place; another seat's up cards; a shown hand whole).
    ``down_cards``: which of ``cards`` were dealt face down. ``face_down``: face-down cards the viewer cannot
    see. ``discarded``: cards the viewer saw this seat throw (its own draws). ``draws``: how many cards it
    drew in each draw round (0 = stood pat). ``shown``: the cards it showed (at showdown, or at an all-in
    run-out before later streets were dealt), empty while it has shown nothing.
    """

    __slots__ = ("all_in", "bet", "cards", "committed", "description", "discarded", "down_cards", "draws",
                 "face_down", "folded", "in_hand", "mucked", "seat", "shown", "stack", "up_cards", "won")

    def __init__(self, seat: int, stack: int = 0) -> None:
        self.seat = seat
        self.stack = stack
        self.bet = 0
        self.committed = 0
        self.in_hand = False
        self.folded = False
        self.all_in = False
        self.mucked = False
        self.shown: tuple[Card, ...] = ()
        self.cards: list[Card] = []
        self.down_cards: list[Card] = []
        self.up_cards: list[Card] = []
        self.face_down = 0
        self.discarded: list[Card] = []
        self.draws: list[int] = []
        self.description = ""
        self.won = 0

    @property
    def contesting(self) -> bool:
        """Dealt in and still contesting the pots (not folded, not mucked)."""
        return self.in_hand and not self.folded and not self.mucked

    def __repr__(self) -> str:
        return (f"SeatView(seat={self.seat}, stack={self.stack}, bet={self.bet}, committed={self.committed}, "
                f"folded={self.folded}, all_in={self.all_in}, cards={[str(card) for card in self.cards]})")


class HandView:
    """The hand as ``seat`` sees it (``None``: a spectator, or the host's whole log), folded from events.

    ``dead_antes``: the hand's antes are dead money (``ForcedBets.dead_antes``) rather than each poster's
    contribution; the pots' split depends on it, the totals do not. ``big_blind``: the nominal big blind, when
    known (blind games): a big blind all-in for less, or all-in on the ante, is still called in full (R-BET-ALLIN),
    so :attr:`highest_bet` (the street total to match, as the engine counts it) is at least this in the first
    betting round. Home-game options (R-HOME-1..4): ``bomb_pot`` (the bomb's ante, 0: none), ``run_twice`` (""
    not asked, "asked", "twice", "once"), ``second_board``, ``bounties`` (the 7-2 bounties paid).
    """

    __slots__ = ("awards", "big_blind", "big_blind_seat", "board", "bomb_pot", "bounties", "bring_in", "button_seat",
                 "dead_antes", "dead_money", "ended", "final_stacks", "highest_bet", "order", "planned_hand",
                 "pot_total", "rake", "round_index", "run_twice", "seat", "seats", "second_board",
                 "small_blind_seat", "started", "starting_stacks", "street", "structure", "to_act", "variant")

    def __init__(self, seat: int | None = None, *, dead_antes: bool = False, big_blind: int = 0) -> None:
        self.seat = seat
        self.dead_antes = dead_antes
        self.big_blind = big_blind
        self.planned_hand: HandPlanned | None = None
        self._clear()

    def _clear(self) -> None:
        self.variant = ""
        self.structure = ""
        self.button_seat: int | None = None
        self.small_blind_seat: int | None = None
        self.big_blind_seat: int | None = None
        self.seats: dict[int, SeatView] = {}
        self.order: tuple[int, ...] = ()
        self.starting_stacks: dict[int, int] = {}
        self.board: list[Card] = []
        self.street = ""
        self.round_index = -1
        self.dead_money = 0
        self.pot_total = 0
        self.highest_bet = 0
        self.bring_in = 0
        self.to_act: int | None = None
        self.rake = 0
        self.awards: list[PotAwarded] = []
        self.bomb_pot = 0
        self.run_twice = ""
        self.second_board: list[Card] = []
        self.bounties: list[SevenDeuceBountyPaid] = []
        self.final_stacks: dict[int, int] = {}
        self.started = False
        self.ended = False

    @classmethod
    def replay(cls, events: Iterable[Event], seat: int | None = None, *, dead_antes: bool = False,
               big_blind: int = 0) -> HandView:
        """A view with every event of ``events`` applied."""
        view = cls(seat, dead_antes=dead_antes, big_blind=big_blind)
        for event in events:
            view.apply(event)
        return view

    # ------------------------------------------------------------------ reading

    def seat_view(self, seat: int) -> SeatView:
        """``seat``'s state, created empty when the view has not seen it yet (joined mid-hand)."""
        found = self.seats.get(seat)
        if found is None:
            found = self.seats[seat] = SeatView(seat)
            self.order = (*self.order, seat)
        return found

    def seed_stacks(self, stacks: Mapping[int, int]) -> None:
        """A view that joins a hand already under way: the stacks as the table last showed them, for the seats it
        has not seen yet (their chips put in before are unknown; what they put in from now on is counted)."""
        for seat, stack in stacks.items():
            if seat not in self.seats:
                self.seat_view(seat).stack = stack

    @property
    def mine(self) -> SeatView | None:
        """The viewer's own seat, when it is dealt in."""
        return None if self.seat is None else self.seats.get(self.seat)

    def stacks(self) -> dict[int, int]:
        """Seat → chips behind (bets in front not counted)."""
        return {seat: info.stack for seat, info in self.seats.items()}

    def bets(self) -> dict[int, int]:
        """Seat → chips in front this betting round (street totals)."""
        return {seat: info.bet for seat, info in self.seats.items()}

    def contesting(self) -> list[int]:
        """Seats still contesting the pots, in hand order."""
        return [seat for seat in self.order if self.seats[seat].contesting]

    def pots(self, *, include_bets: bool = True) -> list[Pot]:
        """Main pot then side pots as ``Pot(amount, eligible seats)`` (R-POT-1). ``include_bets=False``: only
        the chips gathered at the end of earlier betting rounds (this round's bets still in front)."""
        order = self.order
        seats = self.seats
        contributions = [seats[seat].committed - (0 if include_bets else seats[seat].bet) for seat in order]
        alive = [seats[seat].contesting for seat in order]
        if not any(alive):
            alive = [True] * len(order)
        return [Pot(pot.amount, tuple(order[index] for index in pot.eligible))
                for pot in build_pots(contributions, alive, self.dead_money)]

    def known_cards(self) -> set[Card]:
        """Every card this viewer has seen: the board, its own cards, up cards, shown hands, its discards."""
        known = set(self.board)
        for info in self.seats.values():
            known.update(info.cards)
            known.update(info.discarded)
        return known

    # ------------------------------------------------------------------ folding

    def apply(self, event: Event) -> None:
        """Fold one event into the view. Events the view does not need (chat, table bookkeeping) are ignored."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _put_in(self, seat: int, added: int, street_total: int | None, all_in: bool) -> None:
        info = self.seats.get(seat) or self.seat_view(seat)
        info.stack -= added
        info.committed += added
        info.bet = info.bet + added if street_total is None else street_total
        if all_in:
            info.all_in = True
        self.pot_total += added
        if info.bet > self.highest_bet:
            self.highest_bet = info.bet

    def _hand_started(self, event: HandStarted) -> None:
        planned = self.planned_hand
        self.planned_hand = None  # the plan of this hand only
        self._clear()
        if planned is not None:
            self.small_blind_seat = planned.small_blind_seat
            self.big_blind_seat = planned.big_blind_seat
        self.started = True
        self.variant = event.variant
        self.structure = event.structure
        self.button_seat = event.button_seat
        self.order = tuple(seat for seat, _ in event.stacks)
        self.starting_stacks = dict(event.stacks)
        for seat, stack in event.stacks:
            info = self.seats[seat] = SeatView(seat, stack)
            info.in_hand = True

    def _hand_planned(self, event: HandPlanned) -> None:
        self.planned_hand = event
        self.button_seat = event.button_seat
        self.small_blind_seat = event.small_blind_seat
        self.big_blind_seat = event.big_blind_seat

    def _ante(self, event: AntePosted) -> None:
        info = self.seat_view(event.seat)
        info.stack -= event.amount
        if self.dead_antes:
            self.dead_money += event.amount
        else:
            info.committed += event.amount
        self.pot_total += event.amount
        if event.all_in:
            info.all_in = True

    def _blind(self, event: BlindPosted) -> None:
        if event.live:
            self._put_in(event.seat, event.amount, None, event.all_in)
        else:  # a dead small blind goes straight into the pot (R-BLIND-3)
            info = self.seat_view(event.seat)
            info.stack -= event.amount
            self.dead_money += event.amount
            self.pot_total += event.amount
            if event.all_in:
                info.all_in = True
        if event.kind == "small_blind":
            self.small_blind_seat = event.seat
        elif event.kind == "big_blind":
            self.big_blind_seat = event.seat
            if self.big_blind > self.highest_bet:  # R-BET-ALLIN: a short big blind is called in full
                self.highest_bet = self.big_blind

    def _hole_cards(self, event: HoleCardsDealt) -> None:
        info = self.seat_view(event.seat)
        info.in_hand = True
        info.cards += event.cards
        info.down_cards += event.cards

    def _face_down(self, event: CardsDealtFaceDown) -> None:
        info = self.seat_view(event.seat)
        info.in_hand = True
        info.face_down += event.count

    def _up_cards(self, event: UpCardsDealt) -> None:
        info = self.seat_view(event.seat)
        info.in_hand = True
        info.cards += event.cards
        info.up_cards += event.cards

    def _board(self, event: BoardDealt) -> None:
        self.board = list(event.board)
        self.street = event.street

    def _round(self, event: BettingRoundStarted) -> None:
        self.street = event.street
        self.round_index = event.round_index
        self.pot_total = event.pot  # the room's count: right even for a view that joined mid-hand
        self.bring_in = 0
        if event.round_index > 0:  # round 0 keeps the blinds in front: they are its first bets
            self.highest_bet = 0
            for info in self.seats.values():
                info.bet = 0
        elif self.big_blind > self.highest_bet:  # R-BET-ALLIN: the big blind is owed in full, posted short or not
            self.highest_bet = self.big_blind

    def _folded(self, event: Folded) -> None:
        self.seat_view(event.seat).folded = True

    def _called(self, event: Called) -> None:
        self._put_in(event.seat, event.amount, None, event.all_in)

    def _bet(self, event: BetPlaced | Raised) -> None:
        self.bring_in = 0
        self._put_in(event.seat, event.added, event.to, event.all_in)

    def _bring_in(self, event: BringInPosted) -> None:
        self._put_in(event.seat, event.amount, None, event.all_in)
        self.bring_in = event.amount

    def _drawn(self, event: CardsDrawn) -> None:
        self.seat_view(event.seat).draws.append(event.count)

    def _drawn_cards(self, event: DrawnCardsDealt) -> None:
        """The replacements take the discarded cards' places (as the engine deals them, R-DRAW-1)."""
        info = self.seat_view(event.seat)
        replacements = iter(event.cards)
        kept: list[Card] = []
        for card in info.cards:
            if card in event.discarded:
                replacement = next(replacements, None)
                if replacement is not None:
                    kept.append(replacement)
            else:
                kept.append(card)
        info.cards = kept
        info.down_cards = list(kept)
        info.discarded += event.discarded

    def _all_in(self, event: TreatedAsAllIn) -> None:
        # R-DISC-2: the kept chips stay in the stack, out of play until the hand ends.
        self.seat_view(event.seat).all_in = True

    def _uncalled(self, event: UncalledBetReturned) -> None:
        info = self.seat_view(event.seat)
        info.stack += event.amount
        info.committed -= event.amount
        info.bet = max(0, info.bet - event.amount)
        self.pot_total -= event.amount
        # A leaver's unmatched bet came back: the bet to match is now the highest left in front (as the engine has it).
        self.highest_bet = max((other.bet for other in self.seats.values()), default=0)

    def _shown(self, event: HandShown) -> None:
        info = self.seat_view(event.seat)
        info.cards = list(event.cards)  # every card of the hand: none is left face down
        info.face_down = 0
        info.shown = event.cards
        info.description = event.description

    def _mucked(self, event: HandMucked) -> None:
        info = self.seat_view(event.seat)
        info.mucked = True
        info.face_down = 0  # the unseen cards went into the muck

    def _rake(self, event: RakeTaken) -> None:
        self.rake += event.amount
        self.pot_total -= event.amount

    def _awarded(self, event: PotAwarded) -> None:
        info = self.seat_view(event.seat)
        info.stack += event.amount
        info.won += event.amount
        self.pot_total -= event.amount  # chips go from the middle to the winner: the total stays the same
        self.awards.append(event)

    def _ended(self, event: HandEnded) -> None:
        self.ended = True
        self.to_act = None
        self.rake = event.rake
        self.pot_total = 0
        self.highest_bet = 0
        self.final_stacks = dict(event.stacks)
        for seat, stack in event.stacks:
            info = self.seat_view(seat)
            info.stack = stack
        for info in self.seats.values():
            info.bet = 0

    def _turn(self, event: TurnStarted) -> None:
        self.to_act = event.seat

    def _second_board(self, event: SecondBoardDealt) -> None:
        self.second_board = list(event.board)

    def _bounty(self, event: SevenDeuceBountyPaid) -> None:
        # R-HOME-4: chips from each payer's stack to the winner's, after the pots
        for payer, chips in event.paid:
            self.seat_view(payer).stack -= chips
        self.seat_view(event.seat).stack += event.total
        self.bounties.append(event)

    def _run_twice_offered(self, event: RunItTwiceOffered) -> None:
        self.run_twice = "asked"

    def _run_twice_decided(self, event: RunItTwiceDecided) -> None:
        self.run_twice = "twice" if event.twice else "once"

    def _bomb_pot(self, event: BombPotStarted) -> None:
        self.bomb_pot = event.ante


_HANDLERS: dict[type[Event], Callable[[HandView, Any], None]] = {
    HandPlanned: HandView._hand_planned,
    HandStarted: HandView._hand_started,
    AntePosted: HandView._ante,
    BlindPosted: HandView._blind,
    HoleCardsDealt: HandView._hole_cards,
    CardsDealtFaceDown: HandView._face_down,
    UpCardsDealt: HandView._up_cards,
    BoardDealt: HandView._board,
    BettingRoundStarted: HandView._round,
    Folded: HandView._folded,
    Checked: lambda view, event: None,
    Called: HandView._called,
    BetPlaced: HandView._bet,
    Raised: HandView._bet,
    BringInPosted: HandView._bring_in,
    CardsDrawn: HandView._drawn,
    DrawnCardsDealt: HandView._drawn_cards,
    SplitAccepted: lambda view, event: None,
    TreatedAsAllIn: HandView._all_in,
    UncalledBetReturned: HandView._uncalled,
    HandShown: HandView._shown,
    HandMucked: HandView._mucked,
    RakeTaken: HandView._rake,
    PotAwarded: HandView._awarded,
    BoardPotAwarded: HandView._awarded,
    HandEnded: HandView._ended,
    SecondBoardDealt: HandView._second_board,
    SevenDeuceBountyPaid: HandView._bounty,
    RunItTwiceOffered: HandView._run_twice_offered,
    RunItTwiceDecided: HandView._run_twice_decided,
    BombPotStarted: HandView._bomb_pot,
    TurnStarted: HandView._turn,
}
"""The event classes the view folds, and how (one dict lookup per event: the bots fold at bot speed)."""

HAND_EVENTS: frozenset[type[Event]] = frozenset(_HANDLERS) - {HandPlanned, TurnStarted}
"""The hand's own events the view folds (it also reads two table events: the plan and whose turn it is)."""
