"""The state every part of a hand shares (engine.hand): its inputs, the per-player arrays, and the few moves
of chips every part makes (a live bet, a refund, dead money).

:class:`HandState` lays the state out; the concerns that act on it are mixins on top of it, each in its module —
forced bets (:mod:`engine.forced_bets`), draw dealing (:mod:`engine.hand_draw`), showdown and award
(:mod:`engine.hand_showdown`) — and :class:`engine.hand.Hand` (legal actions, acting, betting rounds, streets)
puts them together. Positions: players are numbered 0..n-1 clockwise from the first seat left of the button.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from engine.actions import LegalActions
from engine.cards import Card
from engine.draw import Reshuffle, keep_order
from engine.events import Event, UncalledBetReturned, positional_builder
from engine.home import NO_HOME_OPTIONS, HomeOptions
from engine.home.run_it_twice import Question
from engine.pots import Pot, build_pots
from engine.structures import BettingStructure, StructureKind
from engine.stud import best_showing_by_products, opener_position
from engine.variants import OpenerKind, Opening, Ranking, Variant


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
    :meth:`Hand.act` (R-SHOW-1). Hands turned up at an all-in are always shown. ``home``: the table's home-game
    options (R-HOME-1..4, :mod:`engine.home`): run it twice and the 7-2 bounty happen inside the hand.
    """

    variant: Variant
    structure: BettingStructure
    rake: RakeSource | None = None
    manual_showdown: bool = False
    home: HomeOptions = NO_HOME_OPTIONS


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
    e.g. a big-blind ante). Posts are capped at the stack (the player is then all-in). ``bomb_pot``: R-HOME-3,
    every player antes ``ante``, no blind seat, no preflop betting (:mod:`engine.home.bomb_pot`).
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
    bomb_pot: bool = False


class Phase(Enum):
    """Where the hand stands."""

    BETTING = "betting"
    DRAW = "draw"
    SHOWDOWN = "showdown"
    OVER = "over"
    RUN_IT_TWICE = "run_it_twice"  # R-HOME-1: the players all-in answer whether the rest is dealt twice


# Module-level aliases: a global lookup is cheaper than an Enum class attribute on the hot path.
BETTING, DRAW, SHOWDOWN, OVER = Phase.BETTING, Phase.DRAW, Phase.SHOWDOWN, Phase.OVER
RUN_IT_TWICE = Phase.RUN_IT_TWICE
_FIXED_LIMIT = StructureKind.FIXED_LIMIT
_LIMIT_KINDS = frozenset((StructureKind.FIXED_LIMIT, StructureKind.SPREAD_LIMIT))
_BRING_IN, _LEFT_OF_BIG_BLIND = Opening.BRING_IN, Opening.LEFT_OF_BIG_BLIND
_HIGH_HAND, _THIRTY_TWO_CARD = OpenerKind.HIGH_HAND, Ranking.THIRTY_TWO_CARD

_uncalled_bet_returned = positional_builder(UncalledBetReturned)
_NOBODY: frozenset[int] = frozenset()


_LAYOUTS: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], dict[int, int]]] = {}


def _layout(button: int, seats: tuple[int, ...]) -> tuple[tuple[int, ...], dict[int, int]]:
    """The seats dealt in clockwise from the first left of ``button``, and seat → position; cached (a table
    deals hand after hand to the same few layouts). The dict is shared: hands only read it."""
    key = (button, seats)
    layout = _LAYOUTS.get(key)
    if layout is None:
        ordered = tuple(sorted(seats, key=lambda seat: (seat <= button, seat)))
        layout = (ordered, {seat: position for position, seat in enumerate(ordered)})
        if len(_LAYOUTS) >= 4096:  # many tables and seatings: keep the cache bounded
            _LAYOUTS.clear()
        _LAYOUTS[key] = layout
    return layout


class HandState:
    """The fields of a hand; see :class:`engine.hand.Hand` for the public face."""

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
        "_highest_bet",
        "_hole",
        "_in_hand",
        "_last_raise",
        "_legal",
        "_legal_at",
        "_low",
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
        "_run_twice",
        "_running_out",
        "_seats",
        "_showdown_order",
        "_showing_products",
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
        """Lay out the state of a hand whose inputs were checked (no event yet)."""
        variant = config.variant
        ordered, position_of = _layout(forced.button_seat, tuple(seats))
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
        self._seats: tuple[int, ...] = ordered
        self._position_of: dict[int, int] = position_of  # shared by hands of the same layout: never mutated
        self._starting: tuple[int, ...] = tuple(map(seats.__getitem__, ordered))
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
        # Stud: each position's engine.stud.rank_product of its up cards, kept as they are dealt (_opener).
        self._showing_products: list[int] = [1] * count
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
        self._run_twice: Question | None = None  # R-HOME-1, engine.home.in_hand
        self._showdown_order: list[int] = []
        self._high: dict[int, int | None] = {}
        self._low: dict[int, int | None] | None = None
        self._auto_muck = frozenset(
            self._position_of[seat] for seat in auto_muck if seat in self._position_of) if auto_muck else _NOBODY
        self._rake_total = 0
        self.dead_money = 0
        self.pot_total = 0
        self.events: list[Event] = []
        self.phase = BETTING
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

    def _as_seats(self, pot: Pot) -> Pot:
        return Pot(pot.amount, tuple(self._seats[position] for position in pot.eligible))

    def _contributed_dead(self, amount: int) -> None:
        self.dead_money += amount
        self.pot_total += amount

    def pots(self) -> list[Pot]:
        """Main pot then side pots as they stand, positions mapped to seats (bets in front included)."""
        pots = build_pots(self._contributed, [not folded for folded in self._folded], self.dead_money)
        return [Pot(pot.amount, tuple(self._seats[position] for position in pot.eligible)) for pot in pots]

    def _contenders(self) -> list[int]:
        return [position for position in range(len(self._seats)) if not self._folded[position]]

    def _opener(self, opening: Opening) -> int:
        """Who opens (or shows first) other than left of the button: R-DRAW-32's first player after the big
        blind; R-STUD-1's bring-in on the first street, the hand showing afterwards, as the variant's opener
        kinds say (:class:`~engine.variants.OpenerKind`)."""
        if opening is _LEFT_OF_BIG_BLIND:
            big_blind = self._forced.big_blind_seat
            return (self._position_of[big_blind] + 1) % len(self._seats) if big_blind is not None else 0
        variant = self._variant
        thirty_two_card = variant.ranking is _THIRTY_TWO_CARD
        if opening is not _BRING_IN and variant.showing_opener is _HIGH_HAND and not thirty_two_card:
            # The common later-street case, from the rank products kept as the up cards were dealt.
            return best_showing_by_products(self._showing_products, self._up, self._folded)
        ups: list[Sequence[Card] | None] = [
            None if self._folded[position] else self._up[position] for position in range(len(self._seats))
        ]
        if opening is _BRING_IN:
            # R-STUD-1 (turn 2): every limit structure (fixed and spread) is "limit".
            limit = self._structure.kind in _LIMIT_KINDS
            kind = variant.limit_bring_in if limit else variant.no_limit_bring_in
        else:
            kind = variant.showing_opener
        return opener_position(kind, ups, ace_low=variant.ranking is Ranking.ACE_TO_FIVE,
                               thirty_two_card=thirty_two_card)
