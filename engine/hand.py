"""One hand of poker as a state machine (DESIGN.md "engine/ — a hand is a state machine").

:meth:`Hand.start` posts the forced bets, deals, and stops at the first decision; :meth:`Hand.legal_actions`
says who acts and what is allowed; :meth:`Hand.act` validates fully, then mutates, and returns the events
it caused. Nothing else mutates a hand (except :meth:`Hand.leave`, a player folded out of turn).

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
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Protocol

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold, LegalActions, Muck, Show, Split
from engine.cards import Card
from engine.draw import Reshuffle, check_reshuffled, keep_order
from engine.errors import IllegalAction, InvalidAmount, NotYourTurn
from engine.evaluate.thirty_two import telesina_heads_up
from engine.events import (
    AntePosted,
    BetPlaced,
    BettingRoundStarted,
    BlindPosted,
    BoardDealt,
    BringInPosted,
    Called,
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
    SplitAccepted,
    TreatedAsAllIn,
    UncalledBetReturned,
    UpCardsDealt,
    positional_builder,
)
from engine.pots import Pot, award_pot, best_of, build_pots, split_evenly
from engine.showdown import can_still_win, high_name, high_value, low_name, low_value
from engine.structures import BettingStructure, StructureKind, raise_bounds
from engine.stud import best_showing_position, bring_in_position
from engine.variants import ForcedBetKind, Opening, Ranking, Variant, check_player_count


class RakeSource(Protocol):
    """What the hand needs from ``engine.rake.RakeSchedule`` (R-RAKE-1)."""

    def rake_for_pots(self, pot_amounts: Sequence[int], players_dealt_in: int, saw_flop: bool) -> list[int]: ...


@dataclass(frozen=True, slots=True)
class HandConfig:
    """What kind of hand: game, betting structure, rake, showdown handling.

    ``rake``: an ``engine.rake.RakeSchedule`` or ``None`` (no rake, R-RAKE-1); it is applied to each pot when
    the pot is awarded. ``manual_showdown``: when False the engine shows every hand in showdown order
    (auto-mucking, for the seats in the hand's ``auto_muck`` set, hands that cannot win); when True each
    player at showdown chooses :class:`~engine.actions.Show` or :class:`~engine.actions.Muck` through
    :meth:`Hand.act` (R-SHOW-1). Hands turned up at an all-in are always shown.
    """

    variant: Variant
    structure: BettingStructure
    rake: RakeSource | None = None
    manual_showdown: bool = False


@dataclass(frozen=True, slots=True)
class ForcedBets:
    """Who posts what before the cards (R-BLIND-1..3, R-ANTE-1); built by ``engine.table``. Chips.

    ``button_seat`` need not be dealt in (dead button). ``small_blind_seat`` may be ``None`` (no small blind
    this hand). Heads-up the button is the small blind (R-BET-ORDER). ``straddle_seat``/``straddle``: the
    optional live straddle, normally 2 × big blind by the player left of the big blind (R-BLIND-2).
    ``ante``: every dealt-in player's dead ante. ``dead_small_blinds``: seats of returning players posting a
    dead small blind (``small_blind`` chips, straight into the pot, not a bet). ``big_blinds_out_of_position``:
    seats posting a live big blind out of position (R-BLIND-3). ``bring_in``: stud (R-STUD-1); stud games
    have no blinds (``small_blind_seat``/``big_blind_seat`` ``None``). ``big_blind_ante``: the big-blind
    ante, a dead ante posted by the big-blind seat alone (tournaments). Antes count in the pot (pot-limit
    maximums). ``dead_antes``: False (default) — an ante counts in its poster's contribution when side pots
    are built, so a player all-in on the ante contests the antes matched (PokerKit's ``ante_trimming_status``
    True); True — antes are dead money in the main pot, contested by everyone still in (PokerKit's False,
    e.g. a big-blind ante). Posts are capped at the stack (the player is then all-in).
    """

    button_seat: int
    small_blind_seat: int | None
    small_blind: int
    big_blind_seat: int | None
    big_blind: int
    straddle_seat: int | None = None
    straddle: int = 0
    ante: int = 0
    dead_small_blinds: tuple[int, ...] = ()
    big_blinds_out_of_position: tuple[int, ...] = ()
    bring_in: int = 0
    big_blind_ante: int = 0
    dead_antes: bool = False


class Phase(Enum):
    """Where the hand stands."""

    BETTING = "betting"
    DRAW = "draw"
    SHOWDOWN = "showdown"
    OVER = "over"


# Positional event builders for the events every hand makes (engine.events.positional_builder: cheaper than
# the dataclass constructors; equal events). Every field is passed, defaults included.
_checked = positional_builder(Checked)
_folded = positional_builder(Folded)
_called = positional_builder(Called)
_bring_in_posted = positional_builder(BringInPosted)
_bet_placed = positional_builder(BetPlaced)
_raised = positional_builder(Raised)
_cards_drawn = positional_builder(CardsDrawn)
_drawn_cards_dealt = positional_builder(DrawnCardsDealt)
_hole_cards_dealt = positional_builder(HoleCardsDealt)
_up_cards_dealt = positional_builder(UpCardsDealt)
_betting_round_started = positional_builder(BettingRoundStarted)
_ante_posted = positional_builder(AntePosted)
_blind_posted = positional_builder(BlindPosted)
_uncalled_bet_returned = positional_builder(UncalledBetReturned)
_hand_ended = positional_builder(HandEnded)

# Module-level aliases: a global lookup is cheaper than an Enum class attribute on the hot path.
_BETTING, _DRAW, _SHOWDOWN, _OVER = Phase.BETTING, Phase.DRAW, Phase.SHOWDOWN, Phase.OVER
_FIXED_LIMIT = StructureKind.FIXED_LIMIT
_LIMIT_KINDS = frozenset((StructureKind.FIXED_LIMIT, StructureKind.SPREAD_LIMIT))


class Hand:
    """A hand in progress. Build with :meth:`start`; drive with :meth:`legal_actions` and :meth:`act`.

    Read-only views: :attr:`events` (the full log), :attr:`phase`, :attr:`board`, :attr:`pot_total`,
    :meth:`stacks`, :meth:`bets`, :meth:`hole_cards`, :meth:`pots`, :attr:`is_over`.
    """

    __slots__ = (
        "_acted_at",
        "_aggressor",
        "_auto_muck",
        "_bets",
        "_big_bet",
        "_big_blind",
        "_board",
        "_bring_in_pending",
        "_cap",
        "_completion_pending",
        "_contributed",
        "_deck",
        "_deck_index",
        "_draw_pending",
        "_final_aggressor",
        "_fixed_limit",
        "_folded",
        "_forced",
        "_high",
        "_high_names",
        "_highest_bet",
        "_hole",
        "_in_hand",
        "_last_raise",
        "_legal",
        "_legal_at",
        "_low",
        "_low_names",
        "_muck",
        "_mucked",
        "_no_betting_street",
        "_penalized",
        "_pending",
        "_position_of",
        "_raise_count",
        "_rake_total",
        "_recycled",
        "_reserved",
        "_reshuffle",
        "_reshuffles",
        "_round_index",
        "_running_out",
        "_seats",
        "_showdown_order",
        "_shown",
        "_small_bet",
        "_split_accepted",
        "_split_open",
        "_stacks",
        "_starting",
        "_street_index",
        "_streets",
        "_structure",
        "_uncapped_heads_up",
        "_up",
        "_variant",
        "config",
        "dead_money",
        "events",
        "phase",
        "pot_total",
    )

    def __init__(self, config: HandConfig, seats: Mapping[int, int], deck: Sequence[Card], forced: ForcedBets,
                 auto_muck: Collection[int], reshuffle: Reshuffle | None = None) -> None:
        """Use :meth:`start`; this only checks the inputs and lays out the state (no event yet)."""
        variant = config.variant
        _check_inputs(variant, seats, deck, forced)
        button = forced.button_seat
        ordered = sorted(seats, key=lambda seat: (seat <= button, seat))
        count = len(ordered)
        self.config = config
        self._variant = variant
        structure = config.structure
        self._structure = structure
        self._streets = variant.streets
        self._fixed_limit = structure.kind is _FIXED_LIMIT
        self._small_bet = structure.small_bet
        self._big_bet = structure.big_bet
        # raise_cap() unrolled: bets plus raises a round allows (None: unlimited), lifted heads-up if asked.
        self._cap = None if structure.max_raises is None else structure.max_raises + 1
        self._uncapped_heads_up = structure.uncapped_heads_up
        self._forced = forced
        self._seats: tuple[int, ...] = tuple(ordered)
        self._position_of: dict[int, int] = {seat: position for position, seat in enumerate(ordered)}
        self._starting: tuple[int, ...] = tuple(seats[seat] for seat in ordered)
        self._stacks: list[int] = list(self._starting)
        self._reserved: list[int] = [0] * count
        self._bets: list[int] = [0] * count
        self._contributed: list[int] = [0] * count
        self._folded: list[bool] = [False] * count
        self._mucked: list[bool] = [False] * count
        self._shown: list[bool] = [False] * count
        # R-BET-ALLIN, per player: the highest bet when the player last acted (-1: not since the action was
        # opened to him); he may raise again only once the bets rose by a full raise since then.
        self._acted_at: list[int] = [-1] * count
        self._in_hand = count
        self._deck: tuple[Card, ...] = tuple(deck)
        self._deck_index = 0
        self._board: list[Card] = []
        self._hole: list[list[Card]] = [[] for _ in range(count)]
        self._up: list[list[Card]] = [[] for _ in range(count)]
        self._street_index = -1
        self._round_index = -1
        self._big_blind = forced.big_blind or config.structure.small_bet or 1
        self._highest_bet = 0
        self._last_raise = 0
        self._raise_count = 0
        self._aggressor: int | None = None
        self._final_aggressor: int | None = None
        self._pending: list[int] = []
        self._running_out = False
        self._showdown_order: list[int] = []
        self._high: dict[int, int | None] = {}
        self._low: dict[int, int | None] | None = None
        self._high_names: dict[int, str] = {}
        self._low_names: dict[int, str] = {}
        self._auto_muck = frozenset(self._position_of[seat] for seat in auto_muck if seat in self._position_of)
        self._rake_total = 0
        self.dead_money = 0
        self.pot_total = 0
        self.events: list[Event] = []
        self.phase = _BETTING
        self._bring_in_pending = False
        self._completion_pending = False
        self._draw_pending: list[int] = []
        self._muck: list[Card] = []
        self._recycled: list[Card] = []
        self._reshuffle: Reshuffle = reshuffle if reshuffle is not None else keep_order
        self._reshuffles = 0
        self._penalized: set[int] = set()
        self._no_betting_street = False
        self._split_open = False
        self._split_accepted: set[int] = set()
        self._legal: LegalActions | None = None
        self._legal_at = -1

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
        return self.phase is _OVER

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
        if self.phase is not _BETTING:
            return str(self.phase.value)
        return self._variant.streets[self._street_index].name

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

    def pots(self) -> list[Pot]:
        """Main pot then side pots as they stand, positions mapped to seats (bets in front included)."""
        pots = build_pots(self._contributed, [not folded for folded in self._folded], self.dead_money)
        return [Pot(pot.amount, tuple(self._seats[position] for position in pot.eligible)) for pot in pots]

    def final_stacks(self) -> dict[int, int]:
        """Seat → stack after the hand; ``IllegalAction`` if the hand is not over yet."""
        if self.phase is not _OVER:
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
        # Every change of the hand appends an event: the answer is cached until the next one.
        if self._legal_at == len(self.events):
            return self._legal
        self._legal = legal = self._compute_legal_actions()
        self._legal_at = len(self.events)
        return legal

    def _compute_legal_actions(self) -> LegalActions | None:
        phase = self.phase
        if phase is _BETTING:
            position = self._pending[0]
            owed = self._highest_bet - self._bets[position]
            stack = self._stacks[position]
            bounds = self._raise_range(position, owed)
            low, high = bounds if bounds is not None else (None, None)
            # Positional arguments, in LegalActions' field order (seat, can_fold, can_check, call_amount,
            # min_raise_to, max_raise_to, is_bet, bring_in_amount, max_discards, can_split).
            if self._bring_in_pending:
                bring_in = self._forced.bring_in
                return LegalActions(self._seats[position], False, False, None, low, high, True,
                                    bring_in if bring_in < stack else stack)
            return LegalActions(
                self._seats[position], True, owed <= 0, (owed if owed < stack else stack) if owed > 0 else None,
                low, high, self._highest_bet == 0, None, None, self._split_open and owed <= 0)
        if phase is _DRAW:
            position = self._draw_pending[0]
            return LegalActions(self._seats[position], False, False, None, None, None, False, None,
                                self._streets[self._street_index].draw)
        if phase is _SHOWDOWN:
            return LegalActions(seat=self._seats[self._showdown_order[0]], can_show=True, can_muck=True)
        return None

    def _raise_range(self, position: int, owed: int) -> tuple[int, int] | None:
        """``(min_to, max_to)`` for ``position`` now, or ``None``; see :meth:`_why_no_raise`."""
        stacks = self._stacks
        stack = stacks[position]
        if stack <= owed or position in self._penalized:
            return None
        acted_at = self._acted_at[position]
        if acted_at >= 0 and self._highest_bet - acted_at < self._last_raise:
            return None  # R-BET-ALLIN: less than a full raise since this player acted
        cap = self._cap
        if cap is not None and self._raise_count >= cap and not (self._uncapped_heads_up and self._in_hand == 2):
            return None
        highest = self._highest_bet
        bets = self._bets
        folded = self._folded
        for other in range(len(bets)):
            if other != position and not folded[other] and stacks[other] + bets[other] > highest:
                break
        else:
            return None
        street = self._streets[self._street_index]
        completing = self._bring_in_pending or self._completion_pending
        all_in = stack + bets[position]
        if self._fixed_limit:
            # The common case inlined (raise_bounds' fixed-limit formula): one bet of the round's size.
            size = self._big_bet if street.big_bet else self._small_bet
            to = size if completing and size > highest else highest + size
            return (to, to) if to <= all_in else (all_in, all_in)
        minimum, maximum = raise_bounds(
            self._structure,
            round_index=self._round_index,
            big_bet_round=street.big_bet,
            big_blind=self._big_blind,
            highest_bet=0 if completing else highest,
            player_bet=bets[position],
            last_raise=0 if completing else self._last_raise,
            pot_total=self.pot_total,
        )
        if completing and minimum <= highest:
            # R-STUD-1: completing means betting the full small bet; a bring-in at least that large is a bet.
            minimum, maximum = raise_bounds(
                self._structure, round_index=self._round_index, big_bet_round=street.big_bet,
                big_blind=self._big_blind, highest_bet=highest, player_bet=bets[position],
                last_raise=self._last_raise, pot_total=self.pot_total)
        if maximum > all_in:
            maximum = all_in
        if minimum > all_in:
            minimum = all_in
        return minimum, maximum

    def _why_no_raise(self, position: int, owed: int) -> str:
        """The player-readable reason :meth:`_raise_range` gave ``None``."""
        if self._stacks[position] <= owed:
            return "you cannot raise: calling already puts you all-in"
        acted_at = self._acted_at[position]
        if acted_at >= 0 and self._highest_bet - acted_at < self._last_raise:
            return "you cannot raise: a short all-in raise does not reopen the betting (R-BET-ALLIN); call or fold"
        if position in self._penalized:
            return "you cannot bet or raise this round: your draw clock expired (R-DRAW-1); check, call or fold"
        cap = self._structure.raise_cap(self._in_hand)
        if cap is not None and self._raise_count >= cap:
            return f"you cannot raise: the betting is capped ({cap} bets and raises this round)"
        return "you cannot raise: every other player is all-in or has folded"

    # ------------------------------------------------------------------ acting

    def verify_action(self, seat: int, action: Action) -> None:
        """Raise why ``seat`` may not take ``action`` now (``NotYourTurn``, ``IllegalAction``, ``InvalidAmount``)."""
        if self.phase is _OVER:
            raise IllegalAction("the hand is over")
        position = self._position_of.get(seat)
        if position is None:
            raise NotYourTurn(f"seat {seat} is not dealt into this hand")
        if self.phase is _SHOWDOWN:
            actor = self._showdown_order[0]
            if position != actor:
                raise NotYourTurn(f"seat {self._seats[actor]} shows or mucks first, not seat {seat}")
            if type(action) is not Show and type(action) is not Muck:
                raise IllegalAction(f"at showdown you may only show or muck, not {type(action).__name__.lower()}")
            return
        if self.phase is _DRAW:
            self._verify_draw(position, action)
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
        raise IllegalAction(f"{action!r} is not a poker action")

    def _verify_draw(self, position: int, action: Action) -> None:
        actor = self._draw_pending[0]
        if position != actor:
            raise NotYourTurn(f"it is seat {self._seats[actor]}'s turn to draw, not seat {self._seats[position]}'s")
        if not isinstance(action, Draw):
            raise IllegalAction(f"this is a draw: discard 0 or more cards, not {type(action).__name__.lower()}")
        discards = action.discards
        if type(discards) is not tuple:
            raise IllegalAction(f"discards must be a tuple of cards, got {discards!r}")
        if action.timed_out and discards:
            raise IllegalAction("a timed-out draw stands pat: it discards nothing (R-DRAW-1)")
        limit = self._variant.streets[self._street_index].draw
        if len(discards) > limit:
            raise IllegalAction(f"you may discard at most {limit} cards, not {len(discards)}")
        own = self._hole[position]
        if len(set(discards)) != len(discards):
            raise IllegalAction("a card cannot be discarded twice")
        for card in discards:
            if card not in own:
                raise IllegalAction(f"you cannot discard {card}: it is not in your hand")

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
        legal = self._legal
        events = self.events
        first = len(events)
        # Fast path: an action the cached legal actions (computed for this very state) already allow needs
        # no further check; everything else goes through the full verification and its messages.
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
            # The cached legal actions say this seat is the one to draw: only the discards need checking.
            assert isinstance(action, Draw)
            self._verify_draw(self._position_of[seat], action)
        elif kind is not BringIn or legal.bring_in_amount is None:
            self.verify_action(seat, action)
        position = self._position_of[seat]
        phase = self.phase
        if phase is not _BETTING:
            if phase is _SHOWDOWN:
                self._show_or_muck(position, kind is Show)
                self._continue_showdown()
                return events[first:]
            assert isinstance(action, Draw)
            self._draw(position, action)
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

    def leave(self, seat: int) -> list[Event]:
        """Fold ``seat`` out of turn because it left the table (R-BET-UNCALLED: the part of its bet nobody
        called goes back to it at once). At showdown it mucks. ``IllegalAction`` if the hand is over or the
        seat is already out of it; ``NotYourTurn`` for a seat not dealt in.

        Rulebook example: blinds 10/10, A bets 500, B raises to 10,000 and leaves: B gets 9,500 back and
        A wins the 1,020 pot.
        """
        if self.phase is _OVER:
            raise IllegalAction("the hand is over")
        position = self._position_of.get(seat)
        if position is None:
            raise NotYourTurn(f"seat {seat} is not dealt into this hand")
        if self._folded[position]:
            raise IllegalAction(f"seat {seat} is already out of the hand")
        first = len(self.events)
        if self.phase is _SHOWDOWN:
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
        if self.phase is _DRAW:
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
        if self.phase is _OVER:
            raise IllegalAction("the hand is over")
        position = self._position_of.get(seat)
        if position is None:
            raise NotYourTurn(f"seat {seat} is not dealt into this hand")
        if self.phase is not _BETTING or self._pending[0] != position:
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

    # ------------------------------------------------------------------ mutations

    def _position(self, seat: int) -> int:
        position = self._position_of.get(seat)
        if position is None:
            raise KeyError(f"seat {seat} is not dealt into this hand")
        return position

    def _put_in(self, position: int, amount: int) -> None:
        """Move ``amount`` chips from the stack to the bet in front (a live bet)."""
        self._stacks[position] -= amount
        self._bets[position] += amount
        self._contributed[position] += amount
        self.pot_total += amount

    def _refund(self, position: int, amount: int) -> None:
        if amount <= 0:
            return
        self._stacks[position] += amount
        self._bets[position] -= amount
        self._contributed[position] -= amount
        self.pot_total -= amount
        self.events.append(_uncalled_bet_returned(self._seats[position], amount))

    def _fold(self, position: int) -> None:
        self._pending.pop(0)
        self._folded[position] = True
        self._in_hand -= 1
        self.events.append(_folded(self._seats[position], False))

    def _call(self, position: int) -> None:
        self._pending.pop(0)
        self._acted_at[position] = self._highest_bet
        bets = self._bets
        owed = self._highest_bet - bets[position]
        stacks = self._stacks
        stack = stacks[position]
        amount = owed if owed < stack else stack
        # _put_in inlined (the most common action)
        stacks[position] = stack - amount
        bets[position] += amount
        self._contributed[position] += amount
        self.pot_total += amount
        self.events.append(_called(self._seats[position], amount, amount == stack))

    def _post_bring_in(self, position: int) -> None:
        """R-STUD-1: the bring-in is a bet below the completion; it does not count toward the cap and the
        player is not asked again unless someone completes."""
        self._pending.pop(0)
        self._bring_in_pending = False
        amount = min(self._forced.bring_in, self._stacks[position])
        self._put_in(position, amount)
        self._completion_pending = True
        self._last_raise = 0
        self._highest_bet = max(self._highest_bet, self._bets[position])
        self._acted_at[position] = self._highest_bet
        self.events.append(_bring_in_posted(self._seats[position], amount, self._stacks[position] == 0))

    def _bet_or_raise(self, position: int, to: int) -> None:
        self._bring_in_pending = False
        self._completion_pending = False
        added = to - self._bets[position]
        highest = self._highest_bet
        increment = to - highest
        self._put_in(position, added)
        all_in = self._stacks[position] == 0
        seat = self._seats[position]
        if highest == 0:
            # A first bet always opens the action, even an all-in for less than the minimum (PokerKit).
            self.events.append(_bet_placed(seat, to, added, all_in))
        else:
            self.events.append(_raised(seat, to, added, all_in, increment >= self._last_raise))
        if increment > self._last_raise:
            self._last_raise = increment
        # R-BET-ALLIN, per player: whether someone who already acted may raise again is judged when he is to
        # act (_raise_range), from what was raised since his own last action — not from a total for the round.
        self._acted_at[position] = to
        self._raise_count += 1
        self._highest_bet = to
        self._aggressor = position
        folded = self._folded
        stacks = self._stacks
        self._pending = [
            other for other in _clockwise(len(stacks), position)[1:] if not folded[other] and stacks[other] > 0
        ]

    def _advance(self) -> None:
        """After a betting action: end the hand, the round, or wait for the next player."""
        if self._in_hand == 1:
            self._return_uncalled()
            self._award()
            return
        if self._pending:
            return
        self._end_betting_round()

    def _return_uncalled(self) -> None:
        """R-BET-UNCALLED: the highest bet, if nobody matched it, goes back down to the next highest."""
        bets = self._bets
        top = max(bets)
        if top == 0 or bets.count(top) != 1:
            return
        owner = bets.index(top)
        second = max(bet for other, bet in enumerate(bets) if other != owner)
        self._refund(owner, top - second)

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
            if with_chips <= 1:
                self._turn_up_all_in_hands()

    def _turn_up_all_in_hands(self) -> None:
        """R-SHOW-1: all-in with no further betting possible — every hand is turned face up now (in draw
        games the players still draw, so their hands are shown at the showdown instead)."""
        self._running_out = True
        if _facts(self._variant).has_draws:
            return
        for position in range(len(self._seats)):
            if not self._folded[position] and not self._shown[position]:
                self._shown[position] = True
                self.events.append(HandShown(self._seats[position], tuple(self._hole[position])))

    def _next_street(self) -> None:
        """Deal the following streets until one needs a decision, or go to showdown."""
        streets = self._variant.streets
        while True:
            self._street_index += 1
            if self._street_index == len(streets):
                self._start_showdown()
                return
            street = streets[self._street_index]
            self._deal(street.hole_down, street.hole_up, street.board, street.name)
            if street.draw:
                self._draw_pending = [position for position in range(len(self._seats)) if not self._folded[position]]
                self.phase = _DRAW
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
        self.phase = _BETTING
        if not self._open_betting():
            self._next_street()

    def _draw(self, position: int, action: Draw) -> None:
        """R-DRAW-1: discard, receive replacements from the stub, then from the reshuffled discards (never the
        player's own discards of this draw: they join the discards only after the replacements are dealt)."""
        discards = action.discards
        count = len(discards)
        deck = self._deck
        from_stub = min(count, len(deck) - self._deck_index)
        cards = list(deck[self._deck_index:self._deck_index + from_stub])
        recycled = self._recycled
        muck = self._muck
        taken = 0
        reshuffled = False
        if from_stub < count:
            if len(recycled) < count - from_stub:
                # Reshuffle every discard thrown so far and not yet dealt again (R-DRAW-1).
                pool = tuple(recycled) + tuple(muck)
                order = check_reshuffled(pool, self._reshuffle(pool, self._reshuffles))
                reshuffled = True
                recycled = list(order)
            taken = min(count - from_stub, len(recycled))
            cards.extend(recycled[:taken])
        # Everything checked and computed: mutate.
        if reshuffled:
            self._recycled = recycled
            self._muck = []
            self._reshuffles += 1
        self._deck_index += from_stub
        del self._recycled[:taken]
        hole = self._hole[position]
        replacements = iter(cards)
        # Replacements take the discarded cards' places (up to the cards available).
        new_hole = []
        for card in hole:
            if card in discards:
                replacement = next(replacements, None)
                if replacement is not None:
                    new_hole.append(replacement)
            else:
                new_hole.append(card)
        self._hole[position] = new_hole
        self._muck.extend(discards)
        self._draw_pending.pop(0)
        seat = self._seats[position]
        if action.timed_out:
            self._penalized.add(position)
        else:
            self._penalized.discard(position)
        self.events.append(_cards_drawn(seat, count, action.timed_out))
        if count:
            self.events.append(_drawn_cards_dealt(seat, discards, tuple(cards)))
        if not self._draw_pending:
            self._after_draw()

    def _deal(self, down: int, up: int, board: int, name: str) -> None:
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
            for slot, position in enumerate(live):
                cards = deck[index + slot:end:players]
                hole[position].extend(cards)
                self._up[position].extend(cards)
                events.append(_up_cards_dealt(seats[position], cards))
                shown[position] = False
            index = end
        if board:
            cards = deck[index:index + board]
            index += board
            self._board.extend(cards)
            self.events.append(BoardDealt(name, cards, tuple(self._board)))
        self._deck_index = index

    def _begin_betting(self, opening: Opening) -> bool:
        """Open a betting round; ``False`` when nobody can act in it (all-in or alone with chips)."""
        bets = self._bets
        stacks = self._stacks
        folded = self._folded
        count = len(bets)
        self._highest_bet = highest = max(bets)
        self._aggressor = None
        self._acted_at[:] = [-1] * count
        if opening is Opening.BLINDS:
            forced = self._forced
            # The blind counts as the round's bet (cap, R-BET-FL); a straddle as a raise (R-BLIND-2).
            last_blind = forced.big_blind_seat
            self._last_raise = forced.big_blind
            self._raise_count = 1
            if forced.straddle_seat is not None and forced.straddle > 0:
                last_blind = forced.straddle_seat
                self._last_raise = forced.straddle
                self._raise_count = 2
            opener = (self._position_of[last_blind] + 1) % count if last_blind is not None else 0
            if highest < forced.big_blind and forced.big_blind_seat is not None:
                # R-BET-ALLIN, short big blind: a big blind all-in for less is still called in full.
                self._highest_bet = highest = forced.big_blind
        else:
            self._last_raise = 0
            self._raise_count = 0
            opener = 0 if opening is Opening.LEFT_OF_BUTTON else self._opener(opening)
        # The two largest "could put in" totals among players still in (one pass instead of n^2).
        top = second = -1
        top_position = -1
        for position in range(count):
            if not folded[position]:
                reach = stacks[position] + bets[position]
                if reach > top:
                    top, second, top_position = reach, top, position
                elif reach > second:
                    second = reach
        # Nobody else could put in more than this player already has: nothing to decide.
        pending = [
            position for position in _clockwise(count, opener)
            if not folded[position] and stacks[position] != 0
            and (second if position == top_position else top) > bets[position]
        ]
        if len(pending) == 1 and bets[pending[0]] >= highest:
            pending = []
        self._pending = pending
        # R-STUD-1: the bring-in player (or, if that player is all-in, the next one in turn) must bring in.
        self._bring_in_pending = opening is Opening.BRING_IN and bool(pending) and self._forced.bring_in > 0
        self._completion_pending = False
        street = self._variant.streets[self._street_index]
        # R-STUD-2: the split offer opens with the betting round after the last draw.
        self._split_open = self._variant.split_offer and street.draw > 0 and bool(pending)
        self.events.append(_betting_round_started(self._round_index, street.name, self.pot_total))
        return bool(pending)

    def _opener(self, opening: Opening) -> int:
        """Who opens (or shows first) other than left of the button: R-DRAW-32's first player after the big
        blind; R-STUD-1's bring-in card on the first street, the best hand showing afterwards."""
        if opening is Opening.LEFT_OF_BIG_BLIND:
            big_blind = self._forced.big_blind_seat
            return (self._position_of[big_blind] + 1) % len(self._seats) if big_blind is not None else 0
        thirty_two = self._variant.ranking is Ranking.THIRTY_TWO_CARD
        ups: list[Sequence[Card] | None] = [
            None if self._folded[position] else self._up[position] for position in range(len(self._seats))
        ]
        if opening is Opening.BRING_IN:
            # R-STUD-1 (turn 2): every limit structure (fixed and spread) brings in with the lowest card.
            lowest = not thirty_two and self._structure.kind in _LIMIT_KINDS
            return bring_in_position(ups, lowest=lowest, thirty_two_card=thirty_two)
        return best_showing_position(ups, thirty_two)

    # ------------------------------------------------------------------ forced bets

    def _post_forced_bets(self) -> None:
        forced = self._forced
        seats = self._seats
        events = self.events
        events.append(
            HandStarted(
                self._variant.id,
                self._structure.kind.value,
                forced.button_seat,
                tuple(zip(seats, self._starting, strict=True)),
            )
        )
        stacks = self._stacks
        ante = forced.ante
        big_blind_ante_position = -1
        if forced.big_blind_ante > 0 and forced.big_blind_seat is not None:
            big_blind_ante_position = self._position_of[forced.big_blind_seat]
        if ante > 0 or big_blind_ante_position >= 0:
            contributed = self._contributed
            dead_antes = forced.dead_antes
            for position, stack in enumerate(stacks):
                wanted = ante + forced.big_blind_ante if position == big_blind_ante_position else ante
                if wanted <= 0:
                    continue
                # An ante is dead (not a bet of the round) but counts in the poster's contribution, so a
                # player all-in on the ante still contests the pot the antes make (PokerKit).
                amount = wanted if wanted < stack else stack
                stack -= amount
                stacks[position] = stack
                if dead_antes:
                    self._contributed_dead(amount)
                else:
                    contributed[position] += amount
                    self.pot_total += amount
                events.append(_ante_posted(seats[position], amount, stack == 0))
        for seat in forced.dead_small_blinds:
            position = self._position_of[seat]
            amount = min(forced.small_blind, stacks[position])
            if amount:
                stacks[position] -= amount
                self._contributed_dead(amount)
                events.append(BlindPosted(seat, "dead_small_blind", amount, False, stacks[position] == 0))
        live_posts: list[tuple[int | None, str, int]] = [
            (forced.small_blind_seat, "small_blind", forced.small_blind),
            (forced.big_blind_seat, "big_blind", forced.big_blind),
        ]
        if forced.big_blinds_out_of_position:
            live_posts += [(seat, "big_blind_out_of_position", forced.big_blind)
                           for seat in forced.big_blinds_out_of_position]
        live_posts.append((forced.straddle_seat, "straddle", forced.straddle))
        for poster, kind, wanted in live_posts:
            if poster is None or wanted <= 0:
                continue
            position = self._position_of[poster]
            amount = min(wanted, stacks[position])
            if amount:
                self._put_in(position, amount)
                events.append(_blind_posted(poster, kind, amount, True, stacks[position] == 0))

    def _as_seats(self, pot: Pot) -> Pot:
        return Pot(pot.amount, tuple(self._seats[position] for position in pot.eligible))

    def _contributed_dead(self, amount: int) -> None:
        self.dead_money += amount
        self.pot_total += amount

    # ------------------------------------------------------------------ showdown

    def _evaluate(self) -> None:
        """Strengths of every hand still in (once, at showdown)."""
        variant = self._variant
        board = self._board
        hi_lo = variant.low_eight
        lows: dict[int, int | None] = {}
        for position in range(len(self._seats)):
            if self._folded[position]:
                continue
            hole = self._hole[position]
            self._high[position], self._high_names[position] = high_value(variant, hole, board)
            if hi_lo:
                lows[position], self._low_names[position] = low_value(variant, hole, board)
        self._low = lows if hi_lo else None

    def _start_showdown(self) -> None:
        """R-SHOW-1: last aggressor of the final round first, else the variant's ``showdown_opening``: the first
        player left of the button, the best hand showing (stud), or the first after the big blind (R-DRAW-32)."""
        self.phase = _SHOWDOWN
        self._pending = []
        if self._split_accepted and all(self._split_pot(pot) for pot in self.pots()):
            self._award()  # R-STUD-2: every pot split by agreement, nothing to show
            return
        self._evaluate()
        count = len(self._seats)
        aggressor = self._final_aggressor
        if aggressor is not None and not self._folded[aggressor]:
            start = aggressor
        else:
            opening = self._variant.showdown_opening
            start = 0 if opening is Opening.LEFT_OF_BUTTON else self._opener(opening)
        self._showdown_order = [
            position for position in ((start + step) % count for step in range(count))
            if not self._folded[position] and not self._shown[position]
        ]
        self._continue_showdown()

    def _split_pot(self, pot: Pot) -> bool:
        """R-STUD-2: whether every player contesting ``pot`` (seats) accepted the split."""
        contenders = [self._position_of[seat] for seat in pot.eligible if not self._folded[self._position_of[seat]]]
        return len(contenders) > 1 and all(position in self._split_accepted for position in contenders)

    def _pot_high(self, eligible: Sequence[int]) -> dict[int, int | None]:
        """High strengths for one pot: R-RANK-6 (Telesina) when exactly two players contest it, the lowest
        straight flush beats the royal flush."""
        high = self._high
        if not self._variant.heads_up_exception:
            return high
        contenders = [position for position in eligible if high.get(position) is not None]
        if len(contenders) != 2:
            return high
        first, second = contenders
        lifted = telesina_heads_up(high[first] or 0, high[second] or 0)
        if lifted == (high[first], high[second]):
            return high
        adjusted = dict(high)
        adjusted[first], adjusted[second] = lifted
        return adjusted

    def _contenders(self) -> list[int]:
        return [position for position in range(len(self._seats)) if not self._folded[position]]

    def _continue_showdown(self) -> None:
        """Show automatically what needs no decision; award when every hand is shown or mucked."""
        order = self._showdown_order
        manual = self.config.manual_showdown
        while order:
            if self._in_hand == 1:
                order.clear()
                break
            position = order[0]
            if position in self._auto_muck and not self._could_win(position):
                self._show_or_muck(position, show=False)
                continue
            if manual:
                return
            self._show_or_muck(position, show=True)
        self._award()

    def _could_win(self, position: int) -> bool:
        shown = [other for other in range(len(self._seats)) if self._shown[other] and not self._folded[other]]
        pots = build_pots(self._contributed, [not folded for folded in self._folded], self.dead_money)
        return can_still_win(position, pots, shown, self._high, self._low)

    def _show_or_muck(self, position: int, show: bool) -> None:
        self._showdown_order.remove(position)
        seat = self._seats[position]
        if show:
            self._shown[position] = True
            self.events.append(HandShown(seat, tuple(self._hole[position]), self._describe(position)))
        else:
            self._mucked[position] = True
            self._folded[position] = True
            self._in_hand -= 1
            self.events.append(HandMucked(seat))

    def _describe(self, position: int) -> str:
        name = self._high_names.get(position, "")
        low = self._low_names.get(position)
        if self._low is not None:
            return f"{name} / {low}" if low else f"{name} / no low"
        return name

    def _winning_name(self, position: int, low: bool) -> str:
        """The winner's hand named against the other hands still in (R-RANK-7: the kicker where it decided)."""
        rivals = [other for other in self._contenders() if other != position]
        if low:
            lows = self._low or {}
            strength = lows.get(position)
            return low_name(strength, [lows.get(other) for other in rivals]) if strength else ""
        strength = self._high.get(position)
        if strength is None:
            return ""
        return high_name(self._variant, strength, [self._high.get(other) for other in rivals])

    # ------------------------------------------------------------------ awarding

    def _award(self) -> None:
        """Build the pots, take the rake, award from the last side pot to the main pot (R-POT-1/2), end."""
        self.phase = _OVER
        self._pending = []
        count = len(self._seats)
        alive = [not folded for folded in self._folded]
        pots = build_pots(self._contributed, alive, self.dead_money)
        contested = self._in_hand > 1
        # Telesina keeps every pot as contested: R-RANK-6 depends on how many players contest each pot (and
        # 32-card hands never tie, so killing hands would only merge pots).
        if contested and not self._variant.heads_up_exception:
            # Hands that cannot win any part of any pot are dead before the split; pots left with the same
            # contenders merge, so odd chips are counted once (PokerKit's hand killing; RULES is silent).
            winners: set[int] = set()
            for pot in pots:
                if self._split_accepted and self._split_pot(self._as_seats(pot)):
                    winners.update(pot.eligible)
                    continue
                winners.update(best_of(self._pot_high(pot.eligible), pot.eligible))
                if self._low is not None:
                    winners.update(best_of(self._low, pot.eligible))
            if any(alive[position] and position not in winners for position in range(count)):
                alive = [alive[position] and position in winners for position in range(count)]
                pots = build_pots(self._contributed, alive, self.dead_money)
        rake_source = self.config.rake
        if rake_source is not None and pots:
            # "No flop, no drop" (R-RAKE-1) is for flop games only: stud, draw and Telesina (whose one community
            # card is no flop) are always raked.
            saw_flop = not _facts(self._variant).flop_game or len(self._board) > 0
            rakes = rake_source.rake_for_pots([pot.amount for pot in pots], count, saw_flop)
        else:
            rakes = [0] * len(pots)
        winnings = [0] * count
        for index in range(len(pots) - 1, -1, -1):
            pot = pots[index]
            rake = rakes[index]
            net = pot.amount - rake
            if rake:
                self._rake_total += rake
                self.events.append(RakeTaken(index, rake))
            eligible = pot.eligible or tuple(position for position in range(count) if alive[position])
            if contested and len(eligible) > 1 and self._split_accepted and self._split_pot(self._as_seats(pot)):
                shares = [(position, chips, "split") for position, chips in split_evenly(net, eligible)]
            elif contested and len(eligible) > 1:
                shares = award_pot(net, eligible, self._pot_high(eligible), self._low)
            else:
                shares = [(eligible[0], net, "whole")] if len(eligible) == 1 else award_pot(net, eligible, {}, None)
            for position, chips, share in shares:
                winnings[position] += chips
                description = ""
                if contested:
                    if share == "split":
                        description = "split by agreement"
                    else:
                        description = self._winning_name(position, share == "low")
                self.events.append(PotAwarded(index, self._seats[position], chips, share, net, description))
        stacks = self._stacks
        reserved = self._reserved
        for position in range(count):
            stacks[position] += winnings[position] + reserved[position]
        reserved[:] = [0] * count
        self._bets[:] = [0] * count
        self.pot_total = 0
        final = tuple(zip(self._seats, self._stacks, strict=True))
        assert sum(self._stacks) + self._rake_total == sum(self._starting), "chips were created or lost"
        self.events.append(_hand_ended(final, self._rake_total))


@cache
def _clockwise(count: int, start: int) -> tuple[int, ...]:
    """Positions ``start, start + 1, …`` around a table of ``count`` players (each once)."""
    return tuple((start + step) % count for step in range(count))


class _VariantFacts:
    """What a hand needs to know about its variant, computed once per variant (hands start often)."""

    __slots__ = ("board_cards", "deck_set", "flop_game", "has_draws", "hole_cards", "variant")

    def __init__(self, variant: Variant) -> None:
        self.variant = variant  # keeps the variant alive, so its id() is not reused while cached
        self.hole_cards = variant.hole_card_count
        self.board_cards = variant.board_card_count
        self.deck_set = frozenset(variant.deck)
        self.has_draws = variant.has_draws
        self.flop_game = any(street.board >= 3 for street in variant.streets)


_FACTS: dict[int, _VariantFacts] = {}


def _facts(variant: Variant) -> _VariantFacts:
    """The cached :class:`_VariantFacts` of ``variant`` (by identity: hashing a variant hashes its deck)."""
    facts = _FACTS.get(id(variant))
    if facts is None or facts.variant is not variant:
        if len(_FACTS) >= 64:  # variants are few; a caller building many must not grow this forever
            _FACTS.clear()
        facts = _FACTS[id(variant)] = _VariantFacts(variant)
    return facts


def _check_inputs(variant: Variant, seats: Mapping[int, int], deck: Sequence[Card], forced: ForcedBets) -> None:
    """Raise ``ValueError`` naming the first problem with a hand's inputs."""
    facts = _facts(variant)
    players = len(seats)
    needed = players * facts.hole_cards + facts.board_cards
    blinds = variant.forced_bets is ForcedBetKind.BLINDS
    if not variant.min_players <= players <= variant.max_players or (blinds and needed > len(variant.deck)):
        check_player_count(variant, players)  # raises with the reason
    for seat, stack in seats.items():
        if type(stack) is not int or stack <= 0:
            raise ValueError(f"seat {seat} needs a positive whole-chip stack to be dealt in, got {stack!r}")
    if not blinds:
        if forced.small_blind_seat is not None or forced.big_blind_seat is not None or forced.straddle_seat is not None:
            raise ValueError(f"{variant.name} uses antes and a bring-in, not blinds (R-STUD-1)")
        # R-GAME-DECK: when the deck cannot give everyone the last card, it is one community card.
        needed = min(needed, len(variant.deck))
    if len(deck) < needed:
        raise ValueError(f"{variant.name} for {players} players needs {needed} cards, the deck has {len(deck)}")
    allowed = facts.deck_set
    unique = set(deck)
    if len(unique) != len(deck) or not unique <= allowed:  # the fast check; the loop names the first problem
        seen: set[int] = set()
        for card in deck:
            if card not in allowed:
                raise ValueError(f"card {card} is not in the {variant.name} deck")
            if card in seen:
                raise ValueError(f"card {card} appears twice in the deck")
            seen.add(card)
    amounts = (forced.small_blind, forced.big_blind, forced.straddle, forced.ante, forced.bring_in,
               forced.big_blind_ante)
    for name, amount in zip(_FORCED_AMOUNTS, amounts, strict=True):
        if type(amount) is not int or amount < 0:
            raise ValueError(f"{name.replace('_', ' ')} must be a whole number of chips >= 0, got {amount!r}")
    if forced.dead_small_blinds or forced.big_blinds_out_of_position:
        posting: list[int | None] = [forced.small_blind_seat, forced.big_blind_seat, forced.straddle_seat,
                                     *forced.dead_small_blinds, *forced.big_blinds_out_of_position]
    else:
        posting = [forced.small_blind_seat, forced.big_blind_seat, forced.straddle_seat]
    for poster in posting:
        if poster is not None and poster not in seats:
            raise ValueError(f"seat {poster} must post a blind but is not dealt in")
    live = [seat for seat in (forced.small_blind_seat, forced.big_blind_seat, forced.straddle_seat) if seat is not None]
    live += forced.big_blinds_out_of_position
    if len(set(live)) != len(live):
        raise ValueError(f"a seat cannot post two live blinds in one hand: {live}")


_FORCED_AMOUNTS = ("small_blind", "big_blind", "straddle", "ante", "bring_in", "big_blind_ante")


__all__ = ["ForcedBets", "Hand", "HandConfig", "Phase", "RakeSource"]
