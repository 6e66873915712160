"""One hand of poker as a state machine (DESIGN.md "engine/ — a hand is a state machine").

:meth:`Hand.start` posts the forced bets, deals, and stops at the first decision; :meth:`Hand.legal_actions`
says who acts and what is allowed; :meth:`Hand.act` validates fully, then mutates, and returns the events
it caused. Nothing else mutates a hand (except :meth:`Hand.leave`, a player folded out of turn).

The hand is split by concern, each a mixin over :class:`engine.hand_state.HandState` (the fields and the chip
moves every part makes): :mod:`engine.hand_inputs` checks the inputs, :mod:`engine.forced_bets` posts the forced
bets, :mod:`engine.betting` runs betting rounds, :mod:`engine.hand_draw` checks and deals draws,
:mod:`engine.hand_showdown` shows and awards; this module is the public face (views, legal actions, acting) and
moves the hand from street to street.

Positions: internally players are numbered 0..n-1 clockwise from the first seat left of the button (so
the button, when dealt in, is last). Everything public speaks in table seats.

Stud, draw and 32-card games are the same machine driven by the variant's data (issue 4):
- stud (R-STUD-1): antes, then the bring-in player (lowest up card in fixed and spread limit, clubs lowest;
  highest in no/pot limit; highest with hearts > diamonds > clubs > spades in 32-card games, :mod:`engine.stud`) must
  post :class:`~engine.actions.BringIn` or complete to the small bet; later streets open with the best hand
  showing; a last card the deck cannot give everyone is one community card, with no betting (R-GAME-DECK);
- draws (R-DRAW-1): the hand enters :attr:`Phase.DRAW`; each player still in, from the left of the button,
  acts :class:`~engine.actions.Draw`; replacements come from the stub, then from the discards reshuffled
  by the caller's :data:`engine.draw.Reshuffle` (never the drawing player's own discards of that draw); a
  ``timed_out`` draw stands pat and bars that player from betting or raising in the next round;
- 32-card poker's split offer (R-STUD-2, :class:`~engine.actions.Split`) and Telesina's heads-up exception
  (R-RANK-6, per pot).

Follows R-BLIND-1..3, R-BET-* (structures in :mod:`engine.structures`), R-POT-1/2 (:mod:`engine.pots`),
R-SHOW-1/2 and R-RAKE-1 (through ``engine.rake.RakeSchedule.rake_for_pots``). Where RULES.md differs from
PokerKit (turn 2): a big blind all-in for less is still called in full and the minimum raise is to two big
blinds; the odd chips of a split go one each to the tied winners clockwise from the button. Where RULES.md
is silent the behaviour is PokerKit's: a first bet of a round always reopens the action, and at showdown
hands that cannot win any part of any pot are dead before the pots are split (pots left with the same
contenders are merged).

Worked example (R-BET-PL): pot 50 from earlier rounds, A bets 10, B calls 10, C may raise to 90:

>>> from engine.actions import BetOrRaise, Call, Check
>>> from engine.cards import parse_cards
>>> from engine.structures import BettingStructure
>>> from engine.variants import TEXAS_HOLDEM
>>> deck = parse_cards("As Ks Qs Js Ts Ah Kh Qh Jh Th 2c 7d 9h Jc 3s")
>>> config = HandConfig(TEXAS_HOLDEM, BettingStructure.pot_limit())
>>> plan = ForcedBets(button_seat=5, small_blind_seat=1, small_blind=5, big_blind_seat=2, big_blind=10)
>>> hand = Hand.start(config, {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000}, deck, plan)
>>> hand.legal_actions().seat, hand.legal_actions().call_amount, hand.legal_actions().max_raise_to
(3, 10, 35)
>>> for seat, action in [(3, Call()), (4, Call()), (5, Call()), (1, Call()), (2, Check())]:
...     _ = hand.act(seat, action)
>>> hand.pot_total, hand.board
(50, (Card('2c'), Card('7d'), Card('9h')))
>>> _ = hand.act(1, BetOrRaise(10)); _ = hand.act(2, Call())
>>> hand.legal_actions().seat, hand.legal_actions().min_raise_to, hand.legal_actions().max_raise_to
(3, 20, 90)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from engine.actions import (
    Action,
    BetOrRaise,
    BringIn,
    Call,
    Check,
    Draw,
    Fold,
    LegalActions,
    Muck,
    RunItTwice,
    Show,
    Split,
)
from engine.betting import BettingMixin
from engine.cards import Card
from engine.draw import Reshuffle
from engine.errors import IllegalAction, InvalidAmount, NotYourTurn
from engine.events import (
    BoardDealt,
    Checked,
    Event,
    Folded,
    HandEnded,
    HandMucked,
    HandShown,
    HandVoided,
    HoleCardsDealt,
    RunItTwiceAnswered,
    SplitAccepted,
    TreatedAsAllIn,
    UpCardsDealt,
    positional_builder,
)
from engine.fairness import Deal, cards_dealt, deck_deals
from engine.forced_bets import ForcedBetsMixin
from engine.hand_draw import DrawMixin
from engine.hand_inputs import check_inputs, variant_facts
from engine.hand_showdown import ShowdownMixin
from engine.hand_state import (
    BETTING,
    DRAW,
    OVER,
    RUN_IT_TWICE,
    SHOWDOWN,
    ForcedBets,
    HandConfig,
    Phase,
    RakeSource,
)
from engine.stud import RANK_PRIMES

# Positional event builders for the events every hand makes (engine.events.positional_builder: cheaper than
# the dataclass constructors; equal events). Every field is passed, defaults included.
_checked = positional_builder(Checked)
_hole_cards_dealt = positional_builder(HoleCardsDealt)
_board_dealt = positional_builder(BoardDealt)
_up_cards_dealt = positional_builder(UpCardsDealt)


class Hand(BettingMixin, ShowdownMixin, DrawMixin, ForcedBetsMixin):
    """A hand in progress. Build with :meth:`start`; drive with :meth:`legal_actions` and :meth:`act`.

    Read-only views: :attr:`events` (the full log), :attr:`phase`, :attr:`board`, :attr:`pot_total`,
    :meth:`stacks`, :meth:`bets`, :meth:`hole_cards`, :meth:`pots`, :attr:`is_over`.
    """

    __slots__ = ()

    def __init__(self, config: HandConfig, seats: Mapping[int, int], deck: Sequence[Card], forced: ForcedBets,
                 auto_muck: Collection[int], reshuffle: Reshuffle | None = None) -> None:
        """Use :meth:`start`; this checks the inputs and lays out the state (no event yet)."""
        check_inputs(config.variant, seats, deck, forced)
        super().__init__(config, seats, deck, forced, auto_muck, reshuffle)

    @classmethod
    def start(
        cls,
        config: HandConfig,
        seats: Mapping[int, int],
        deck: Sequence[Card],
        forced_bets: ForcedBets,
        *,
        auto_muck: Collection[int] = (),
        reshuffle: Reshuffle | None = None,
    ) -> Hand:
        """Start a hand: post forced bets, deal the first street, stop at the first decision.

        ``seats``: table seat index → stack (chips, > 0) of every player dealt in; clockwise is increasing seat
        index, wrapping. ``deck``: cards in deal order (the caller shuffles; the engine never randomizes): hole
        cards one at a time clockwise from the first seat left of the button, then board cards street by
        street, no burns (engine.variants); draw replacements come from the rest of the deck (the stub), then
        from the reshuffled discards (R-DRAW-1). ``forced_bets``: the plan (:class:`ForcedBets`). ``auto_muck``:
        seats that muck hands that cannot win at showdown (R-SHOW-1). ``reshuffle``: the order of reshuffled
        discards (:mod:`engine.draw`; default: the order they were thrown).

        Raises ``ValueError`` with a reason on a bad plan: unknown or repeated seats, a non-positive stack,
        a seat count the game does not allow or the deck cannot serve (R-GAME-DECK), duplicate or foreign
        cards, negative amounts, blinds in a stud game.
        """
        hand = cls(config, seats, deck, forced_bets, auto_muck, reshuffle)
        hand._post_forced_bets()
        hand._next_street()
        return hand

    # ------------------------------------------------------------------ views

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (:class:`~engine.events.HandEnded` is the last event)."""
        return self.phase is OVER

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats dealt in, clockwise from the first seat left of the button."""
        return self._seats

    @property
    def board(self) -> tuple[Card, ...]:
        """Community cards dealt so far."""
        return tuple(self._board)

    @property
    def street(self) -> str:
        """Name of the current street (``"preflop"``…), or ``"showdown"`` / ``"over"``."""
        if self.phase is not BETTING:
            return str(self.phase.value)
        return self._variant.streets[self._street_index].name

    @property
    def cards_dealt(self) -> int:
        """Deck cards dealt so far, top-down (the next one is ``deck[cards_dealt]``; R-HOME-2's rabbit)."""
        return self._deck_index

    @property
    def second_board(self) -> tuple[Card, ...]:
        """The second board of a hand run twice (R-HOME-1), shared cards included; empty otherwise."""
        return tuple(self._run_twice.second_board) if self._run_twice is not None else ()

    @property
    def rake(self) -> int:
        """Rake taken so far (only at the end of the hand)."""
        return self._rake_total

    def stacks(self) -> dict[int, int]:
        """Seat → chips behind (not counting bets in front; counting chips kept out of play by an
        artificial all-in)."""
        return {seat: self._stacks[position] + self._reserved[position] for position, seat in enumerate(self._seats)}

    def starting_stacks(self) -> dict[int, int]:
        """Seat → stack before the forced bets."""
        return dict(zip(self._seats, self._starting, strict=True))

    def bets(self) -> dict[int, int]:
        """Seat → chips in front in the current betting round (street totals)."""
        return dict(zip(self._seats, self._bets, strict=True))

    @property
    def deals(self) -> tuple[Deal, ...]:
        """Where each deck position dealt so far went, in deck order (a seat, or ``"board"``): the fairness
        transcript's ``deals`` (R-FAIR-1), from this hand's deck and the cards its events dealt (no burns: the
        engine never burns). Draw games: the deck's own cards only; reshuffled discards are the transcript's
        ``reshuffles``."""
        return deck_deals(self._deck, cards_dealt(self.events))

    def place_cards(self, cards: Mapping[int, Card]) -> None:
        """Host-blind dealing (fairness v2, hold'em): the hand was started on placeholder cards, because nobody —
        the host included — knows the deck. As deck positions are opened (the board before its street is dealt,
        a hand when its owner shows it) the real cards take the placeholders' places: a position not dealt yet
        in the deck, a position of the first deal (face down, one card at a time round the table) in its
        owner's hand (swapping with the placeholder that was that card, below). ``ValueError`` for a position
        past the deck or one dealt face up already (the board is opened before its street, never after).

        >>> from engine.cards import format_cards, full_deck, parse_cards
        >>> from engine.structures import BettingStructure
        >>> from engine.variants import TEXAS_HOLDEM
        >>> hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), {1: 100, 2: 100}, full_deck(),
        ...                   ForcedBets(button_seat=1, small_blind_seat=1, small_blind=1, big_blind_seat=2,
        ...                              big_blind=2))
        >>> hand.place_cards({1: parse_cards("As")[0], 4: parse_cards("Kd")[0]})
        >>> format_cards(hand.hole_cards(1)), format_cards(hand.hole_cards(2))
        ('As 2s', '2c 2h')

        A real card that is some other position's placeholder swaps with the placeholder it replaces (the
        hand's cards stay distinct: an unopened hand is still evaluated at a showdown):

        >>> hand.place_cards({5: parse_cards("2c")[0]})
        >>> format_cards(hand.hole_cards(2))
        '3d 2h'
        """
        # positions by layout, never by value: a real card may equal a placeholder elsewhere in the deck
        dealt_down = [event for event in self.events if isinstance(event, HoleCardsDealt)]
        down = sum(len(event.cards) for event in dealt_down)
        players = len(dealt_down)
        deck = list(self._deck)

        def held(position: int) -> list[Card]:  # the hand holding a dealt face-down position
            return self._hole[self._position(dealt_down[position % players].seat)]

        now = [held(position)[position // players] if position < down else deck[position]
               for position in range(len(deck))]

        def put(position: int, card: Card) -> None:
            if position < down:
                held(position)[position // players] = card
            elif position < self._deck_index:
                raise ValueError(f"deck position {position} was dealt face up already")
            deck[position] = now[position] = card

        for position, card in sorted(cards.items()):
            if not 0 <= position < len(deck):
                raise ValueError(f"deck position {position} is not in this hand's deck")
            # the 52 stay distinct (the evaluator needs it): the placeholder that was this card swaps places
            elsewhere = now.index(card)
            if elsewhere != position:
                put(elsewhere, now[position])
            put(position, card)
        self._deck = tuple(deck)
        if self.phase is SHOWDOWN:  # the strengths were taken from the placeholders on entering the showdown
            self._evaluate()

    def hole_cards(self, seat: int) -> tuple[Card, ...]:
        """All of ``seat``'s own cards, down and up, in deal order (private information!)."""
        position = self._position_of.get(seat)
        return tuple(self._hole[position if position is not None else self._position(seat)])

    def up_cards(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s face-up cards (stud)."""
        return tuple(self._up[self._position(seat)])

    def in_hand(self, seat: int) -> bool:
        """Whether ``seat`` still contests the pot (not folded, not mucked)."""
        position = self._position(seat)
        return not self._folded[position]

    def final_stacks(self) -> dict[int, int]:
        """Seat → stack after the hand; ``IllegalAction`` if the hand is not over yet."""
        if self.phase is not OVER:
            raise IllegalAction("the hand is not over yet")
        return self.stacks()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> LegalActions | None:
        """Who acts and what they may do; ``None`` once the hand is over.

        In a betting round: fold (always), check (nothing to call), call (``call_amount`` chips, capped at the
        stack), bet or raise to ``min_raise_to..max_raise_to`` (street totals, capped at the stack; absent
        when the cap is reached, the player is covered, nobody could call, or a short all-in did not reopen
        the action for this player, R-BET-ALLIN; absent too for a player who let the draw clock expire,
        R-DRAW-1). Stud bring-in (R-STUD-1): only ``bring_in_amount`` or completing (``min_raise_to``).
        32-card poker after the draw: ``can_split`` (R-STUD-2). Draw: ``max_discards``. At showdown: show or
        muck.
        """
        # Every change of the hand appends an event: the answer is cached until the next one. (Computed here,
        # not in a helper: one call fewer on every decision of every hand.)
        at = len(self.events)
        if self._legal_at == at:
            return self._legal
        phase = self.phase
        legal: LegalActions | None = None
        if phase is BETTING:
            position = self._pending[0]
            owed = self._highest_bet - self._bets[position]
            stack = self._stacks[position]
            bounds = self._raise_range(position, owed)
            low, high = bounds if bounds is not None else (None, None)
            # Positional arguments, in LegalActions' field order (seat, can_fold, can_check, call_amount,
            # min_raise_to, max_raise_to, is_bet, bring_in_amount, max_discards, can_split).
            if self._bring_in_pending:
                bring_in = self._forced.bring_in
                legal = LegalActions(self._seats[position], False, False, None, low, high, True,
                                     bring_in if bring_in < stack else stack)
            else:
                legal = LegalActions(
                    self._seats[position], True, owed <= 0, (owed if owed < stack else stack) if owed > 0 else None,
                    low, high, self._highest_bet == 0, None, None, self._split_open and owed <= 0)
        elif phase is DRAW:
            position = self._draw_pending[0]
            legal = LegalActions(self._seats[position], False, False, None, None, None, False, None,
                                 self._streets[self._street_index].draw)
        elif phase is SHOWDOWN:
            legal = LegalActions(seat=self._seats[self._showdown_order[0]], can_show=True, can_muck=True)
        elif phase is RUN_IT_TWICE and self._run_twice is not None:
            legal = LegalActions(seat=self._seats[self._run_twice.waiting[0]], can_run_twice=True)
        self._legal = legal
        self._legal_at = at
        return legal

    # ------------------------------------------------------------------ acting

    def verify_action(self, seat: int, action: Action) -> None:
        """Raise why ``seat`` may not take ``action`` now (``NotYourTurn``, ``IllegalAction``, ``InvalidAmount``),
        naming what is wrong. (:meth:`act` skips it for an action its cached legal actions already allow.)"""
        if self.phase is OVER:
            raise IllegalAction("the hand is over")
        position = self._position_of.get(seat)
        if position is None:
            raise NotYourTurn(f"seat {seat} is not dealt into this hand")
        if self.phase is SHOWDOWN:
            actor = self._showdown_order[0]
            if position != actor:
                raise NotYourTurn(f"seat {self._seats[actor]} shows or mucks first, not seat {seat}")
            if type(action) is not Show and type(action) is not Muck:
                raise IllegalAction(f"at showdown you may only show or muck, not {type(action).__name__.lower()}")
            return
        if self.phase is DRAW:
            self._verify_draw(position, action)
            return
        if self.phase is RUN_IT_TWICE:
            self._verify_run_twice(position, action)
            return
        actor = self._pending[0]
        if position != actor:
            raise NotYourTurn(f"it is seat {self._seats[actor]}'s turn, not seat {seat}'s")
        kind = type(action)
        owed = self._highest_bet - self._bets[position]
        if self._bring_in_pending and kind is not BringIn and kind is not BetOrRaise:
            raise IllegalAction("you must post the bring-in or complete the bet (R-STUD-1)")
        if kind is BringIn:
            if not self._bring_in_pending:
                raise IllegalAction("there is no bring-in to post now")
            return
        if kind is Split:
            if not self._split_open or owed > 0:
                raise IllegalAction("no split is on offer now (R-STUD-2: only before any bet after the draw)")
            return
        if kind is Fold:
            return
        if kind is Check:
            if owed > 0:
                raise IllegalAction(f"you cannot check: {min(owed, self._stacks[position])} to call")
            return
        if kind is Call:
            if owed <= 0:
                raise IllegalAction("there is nothing to call; check instead")
            return
        if kind is BetOrRaise:
            assert isinstance(action, BetOrRaise)
            to = action.to
            if type(to) is not int:
                raise InvalidAmount(f"a bet or raise must be a whole number of chips, got {to!r}")
            legal = self.legal_actions()
            assert legal is not None
            if legal.min_raise_to is None or legal.max_raise_to is None:
                raise IllegalAction(self._why_no_raise(position, owed))
            bounds = (legal.min_raise_to, legal.max_raise_to)
            word = "bet" if self._highest_bet == 0 else "raise"
            if to < bounds[0] or to > bounds[1]:
                if bounds[0] == bounds[1]:
                    raise InvalidAmount(f"you may only {word} to exactly {bounds[0]}, not {to}")
                raise InvalidAmount(f"you may {word} to between {bounds[0]} and {bounds[1]}, not {to}")
            return
        if kind is Draw:
            raise IllegalAction("draw is not possible now: this is a betting round")
        if kind is Show or kind is Muck:
            raise IllegalAction("showing or mucking comes at showdown, not during a betting round")
        if kind is RunItTwice:
            raise IllegalAction("nobody is asked to run it twice now")
        raise IllegalAction(f"{action!r} is not a poker action")

    def can_act(self, seat: int, action: Action) -> bool:
        """Whether :meth:`act` would accept ``action`` from ``seat`` now."""
        try:
            self.verify_action(seat, action)
        except IllegalAction:
            return False
        return True

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s action and everything that follows automatically (dealing, run-outs, showdown,
        awards); returns the events caused, in order.

        Raises ``NotYourTurn``, ``IllegalAction`` or ``InvalidAmount`` (engine.errors) with a human message,
        leaving the hand unchanged (everything is checked before anything changes).
        """
        kind = type(action)
        events = self.events
        first = len(events)
        # Fast path: an action the cached legal actions (computed for this very state) already allow needs no
        # further check; everything else goes through verify_action and its messages. Checked here rather than
        # in verify_action: one call fewer on every action of every hand.
        legal = self._legal
        if self._legal_at != first or legal is None or legal.seat != seat:
            self.verify_action(seat, action)
        elif kind is Call:
            if legal.call_amount is None:
                self.verify_action(seat, action)
        elif kind is Check:
            if not legal.can_check:
                self.verify_action(seat, action)
        elif kind is Fold:
            if not legal.can_fold:
                self.verify_action(seat, action)
        elif kind is BetOrRaise:
            assert isinstance(action, BetOrRaise)
            to = action.to
            low = legal.min_raise_to
            high = legal.max_raise_to
            if low is None or high is None or type(to) is not int or not low <= to <= high:
                self.verify_action(seat, action)
        elif kind is Draw and legal.max_discards is not None:
            # This seat is the one to draw: only the discards need checking.
            assert isinstance(action, Draw)
            self._verify_draw(self._position_of[seat], action)
        elif kind is not BringIn or legal.bring_in_amount is None:
            self.verify_action(seat, action)
        position = self._position_of[seat]
        phase = self.phase
        if phase is not BETTING:
            if phase is SHOWDOWN:
                self._show_or_muck(position, kind is Show)
                self._continue_showdown()
                return events[first:]
            if phase is RUN_IT_TWICE:  # R-HOME-1 (engine.home.in_hand)
                assert isinstance(action, RunItTwice)
                if self._answer_run_twice(position, action.agree):
                    self.phase = BETTING
                    self._next_street()
                return events[first:]
            assert isinstance(action, Draw)
            self._draw(position, action)
            if not self._draw_pending:
                self._after_draw()
            return events[first:]
        if kind is Fold:
            self._fold(position)
        else:
            if kind is not Split:
                self._split_open = False  # R-STUD-2: any other action declines the split offer
            if kind is Check:
                self._pending.pop(0)
                self._acted_at[position] = self._highest_bet
                events.append(_checked(seat))
            elif kind is Call:
                self._call(position)
            elif kind is BetOrRaise:
                assert isinstance(action, BetOrRaise)
                self._bet_or_raise(position, action.to)
            elif kind is BringIn:
                self._post_bring_in(position)
            else:
                self._pending.pop(0)
                self._acted_at[position] = self._highest_bet
                self._split_accepted.add(position)
                events.append(SplitAccepted(seat))
        # _advance() inlined: end the hand, the round, or wait for the next player.
        if self._in_hand == 1:
            self._return_uncalled()
            self._award()
        elif not self._pending:
            self._end_betting_round()
        return events[first:]

    def void(self, lost_by: Collection[int], reason: str, *, put_in: Mapping[int, int] | None = None) -> list[Event]:
        """End the hand void (R-CRASH-1): it cannot be finished. Every chip goes back to its owner, except what
        the seats in ``lost_by`` put in, shared by the others (:func:`engine.pots.void_split`).

        ``put_in``: what each seat put into the pot, when another record is the authority (a host-blind table
        voids from its transcript's replay, which may be one action ahead of this hand: the action that reached
        a street nobody could open); by default this hand's own count. ``IllegalAction`` if the hand is over,
        ``ValueError`` for a count that does not fit the stacks (nothing changes then).

        >>> from engine.structures import BettingStructure
        >>> from engine.variants import TEXAS_HOLDEM
        >>> from engine.cards import full_deck
        >>> hand = Hand.start(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), {0: 100, 1: 100, 2: 100},
        ...                   full_deck(), ForcedBets(button_seat=0, small_blind_seat=1, small_blind=1,
        ...                                           big_blind_seat=2, big_blind=2))
        >>> [type(event).__name__ for event in hand.void({2}, "too few players left to open the cards")]
        ['HandVoided', 'HandEnded']
        >>> hand.final_stacks()
        {1: 101, 2: 98, 0: 101}
        """
        if self.phase is OVER:
            raise IllegalAction("the hand is over")
        from engine.pots import void_split
        starting = self.starting_stacks()
        if put_in is None:
            behind = self.stacks()
            put_in = {seat: starting[seat] - behind[seat] for seat in self._seats}
        if set(put_in) != set(self._seats) or any(not 0 <= put_in[seat] <= starting[seat] for seat in self._seats):
            raise ValueError(f"chips put in {dict(put_in)} do not fit the stacks {starting}")
        returned = void_split(put_in, lost_by, self._seats)
        final = {seat: starting[seat] - put_in[seat] + returned[seat] for seat in self._seats}
        assert sum(final.values()) == sum(starting.values()), "chips were created or lost"
        count = len(self._seats)
        self._stacks[:] = [final[seat] for seat in self._seats]
        self._reserved[:] = [0] * count
        self._bets[:] = [0] * count
        self.pot_total = 0
        self._pending = []
        self.phase = OVER
        events: list[Event] = [
            HandVoided(reason, tuple((seat, returned[seat]) for seat in self._seats if returned[seat]),
                       tuple((seat, put_in[seat]) for seat in self._seats if seat in lost_by and put_in[seat])),
            HandEnded(tuple((seat, final[seat]) for seat in self._seats), 0)]
        self.events += events
        return events

    def leave(self, seat: int) -> list[Event]:
        """Fold ``seat`` out of turn because it left the table (R-BET-UNCALLED: the part of its bet nobody
        called goes back to it at once). At showdown it mucks. ``IllegalAction`` if the hand is over or the
        seat is already out of it; ``NotYourTurn`` for a seat not dealt in.

        Rulebook example: blinds 10/10, A bets 500, B raises to 10,000 and leaves: B gets 9,500 back and
        A wins the 1,020 pot.
        """
        if self.phase is OVER:
            raise IllegalAction("the hand is over")
        position = self._position_of.get(seat)
        if position is None:
            raise NotYourTurn(f"seat {seat} is not dealt into this hand")
        if self._folded[position]:
            raise IllegalAction(f"seat {seat} is already out of the hand")
        first = len(self.events)
        if self.phase is RUN_IT_TWICE:
            # R-HOME-1: he is all-in and stays in for the run-out; leaving answers the question no.
            self.events.append(RunItTwiceAnswered(seat, False))
            self._settle_run_twice(False)
            self.phase = BETTING
            self._next_street()
            return self.events[first:]
        if self.phase is SHOWDOWN:
            if position in self._showdown_order:
                self._showdown_order.remove(position)
            self._mucked[position] = True
            self._folded[position] = True
            self._in_hand -= 1
            self.events.append(HandMucked(seat))
            self._continue_showdown()
            return self.events[first:]
        self._folded[position] = True
        self._in_hand -= 1
        if self.phase is DRAW:
            if position in self._draw_pending:
                self._draw_pending.remove(position)
            self.events.append(Folded(seat, left_table=True))
            if self._in_hand == 1:
                self._award()
            elif not self._draw_pending:
                self._after_draw()
            return self.events[first:]
        if position in self._pending:
            if self._bring_in_pending and self._pending[0] == position:
                self._bring_in_pending = len(self._pending) > 1  # the next player in turn brings in
            self._pending.remove(position)
        self.events.append(Folded(seat, left_table=True))
        bets = self._bets
        if bets[position] == self._highest_bet and bets.count(self._highest_bet) == 1:
            second = max(bet for other, bet in enumerate(bets) if other != position)
            self._refund(position, bets[position] - second)
            self._highest_bet = second
        self._advance()
        return self.events[first:]

    def artificial_all_in(self, seat: int) -> list[Event]:
        """R-DISC-2 (limit tables, an option of the table): the seat to act, disconnected, is treated as all-in
        for what it has already put in. It stays in the hand, may win the pots it has matched, acts no more,
        and keeps the rest of its stack (out of play until the hand ends). Returns the events caused.

        ``NotYourTurn`` unless ``seat`` is to act in a betting round; ``IllegalAction`` once the hand is over.
        """
        if self.phase is OVER:
            raise IllegalAction("the hand is over")
        position = self._position_of.get(seat)
        if position is None:
            raise NotYourTurn(f"seat {seat} is not dealt into this hand")
        if self.phase is not BETTING or self._pending[0] != position:
            raise NotYourTurn(f"seat {seat} is not the player to act in a betting round")
        first = len(self.events)
        self._pending.pop(0)
        self._acted_at[position] = self._highest_bet
        kept = self._stacks[position]
        self._reserved[position] += kept
        self._stacks[position] = 0
        self.events.append(TreatedAsAllIn(seat, kept))
        self._advance()
        return self.events[first:]

    # ------------------------------------------------------------------ betting and streets

    def _advance(self) -> None:
        """After a betting action: end the hand, the round, or wait for the next player."""
        if self._in_hand == 1:
            self._return_uncalled()
            self._award()
            return
        if self._pending:
            return
        self._end_betting_round()

    def _end_betting_round(self) -> None:
        self._final_aggressor = self._aggressor
        self._close_bets()
        self._next_street()

    def _close_bets(self) -> None:
        """After a betting round (or a street nobody could bet on): return the uncalled bet, clear the bets
        in front, and turn the hands up if no more betting is possible (R-SHOW-1)."""
        self._return_uncalled()
        bets = self._bets
        bets[:] = [0] * len(bets)
        if not self._running_out and self._street_index < len(self._streets) - 1:
            folded = self._folded
            with_chips = 0
            for position, stack in enumerate(self._stacks):
                if stack > 0 and not folded[position]:
                    with_chips += 1
                    if with_chips > 1:
                        break  # betting goes on: enough to know
            else:
                self._turn_up_all_in_hands()

    def _turn_up_all_in_hands(self) -> None:
        """R-SHOW-1: all-in with no further betting possible — every hand is turned face up now (in draw
        games the players still draw, so their hands are shown at the showdown instead)."""
        self._running_out = True
        if variant_facts(self._variant).has_draws:
            return
        for position in range(len(self._seats)):
            if not self._folded[position] and not self._shown[position]:
                self._shown[position] = True
                self.events.append(HandShown(self._seats[position], tuple(self._hole[position])))

    def _next_street(self) -> None:
        """Deal the following streets until one needs a decision, or go to showdown."""
        streets = self._variant.streets
        while True:
            if self._running_out and self._run_twice is None and self._offer_run_twice():
                return  # R-HOME-1: the players all-in are asked first
            self._street_index += 1
            if self._street_index == len(streets):
                self._start_showdown()
                return
            street = streets[self._street_index]
            self._deal(street.hole_down, street.hole_up, street.board, street.name)
            if street.draw:
                self._draw_pending = [position for position in range(len(self._seats)) if not self._folded[position]]
                self.phase = DRAW
                return
            if self._open_betting():
                return

    def _open_betting(self) -> bool:
        """The current street's betting round, if any; ``True`` when it waits for a decision."""
        street = self._variant.streets[self._street_index]
        if street.betting and not self._no_betting_street:
            self._round_index += 1
            if not self._running_out and self._begin_betting(street.opening):
                return True
        self._no_betting_street = False
        self._close_bets()
        return False

    def _after_draw(self) -> None:
        """Everyone still in has drawn: the street's betting round, then the following streets."""
        self.phase = BETTING
        if not self._open_betting():
            self._next_street()

    def _deal(self, down: int, up: int, board: int, name: str) -> None:
        if not (down or up or board):
            return  # a draw street deals nothing of its own
        deck = self._deck
        index = self._deck_index
        seats = self._seats
        live = [position for position in range(len(seats)) if not self._folded[position]]
        if (down or up) and index + (down + up) * len(live) > len(deck):
            # R-GAME-DECK: the deck cannot give every player this card: one community card, face up, instead;
            # RULES' decision: that round has no betting.
            board, down, up = down + up, 0, 0
            self._no_betting_street = True
        players = len(live)
        events = self.events
        hole = self._hole
        shown = self._shown
        if down:
            end = index + down * players
            for slot, position in enumerate(live):
                cards = deck[index + slot:end:players]  # one card at a time, round after round
                hole[position].extend(cards)
                events.append(_hole_cards_dealt(seats[position], cards))
                # Stud run-out: a hand turned up at the all-in gets new cards, so it is shown again at showdown.
                shown[position] = False
            index = end
        if up:
            end = index + up * players
            products = self._showing_products
            for slot, position in enumerate(live):
                cards = deck[index + slot:end:players]
                hole[position].extend(cards)
                self._up[position].extend(cards)
                for card in cards:  # engine.stud.rank_product, kept up to date (no call per player and street)
                    products[position] *= RANK_PRIMES[card >> 2]
                events.append(_up_cards_dealt(seats[position], cards))
                shown[position] = False
            index = end
        if board:
            cards = deck[index:index + board]
            index += board
            self._board.extend(cards)
            self.events.append(_board_dealt(name, cards, tuple(self._board)))
        self._deck_index = index


__all__ = ["ForcedBets", "Hand", "HandConfig", "Phase", "RakeSource"]

