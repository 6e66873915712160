"""One hand of poker as a state machine (DESIGN.md "engine/ — a hand is a state machine").

Skeleton: the public API is fixed; bodies land in the next commits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.actions import Action, LegalActions
from engine.cards import Card
from engine.events import Event
from engine.structures import BettingStructure
from engine.variants import Variant


@dataclass(frozen=True, slots=True)
class HandConfig:
    """What kind of hand: game, betting structure, rake, showdown handling.

    ``rake``: an ``engine.rake.RakeSchedule`` or ``None`` (no rake, R-RAKE-1). ``manual_showdown``: when
    False the engine shows every hand that must be shown (auto-mucking for seats in the hand's
    ``auto_muck`` set); when True each player at showdown chooses :class:`~engine.actions.Show` or
    :class:`~engine.actions.Muck` through :meth:`Hand.act` (R-SHOW-1).
    """

    variant: Variant
    structure: BettingStructure
    rake: object | None = None
    manual_showdown: bool = False


@dataclass(frozen=True, slots=True)
class ForcedBets:
    """Who posts what before the cards (R-BLIND-1..3, R-ANTE-1); built by ``engine.table``.

    ``button_seat`` need not be dealt in (dead button). ``small_blind_seat`` may be ``None`` (dead small
    blind). Heads-up the button is the small blind. ``straddle_seat``/``straddle``: the optional live
    straddle (R-BLIND-2). ``ante``: every dealt-in player's dead ante. ``dead_small_blinds``: seats of
    returning players posting a dead small blind (``small_blind`` chips, into the pot, not a bet).
    ``big_blinds_out_of_position``: seats posting a live big blind out of position. ``bring_in``: stud.
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


@dataclass(slots=True)
class Hand:
    """A hand in progress. Build with :meth:`start`; drive with :meth:`legal_actions` and :meth:`act`."""

    config: HandConfig
    events: list[Event] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        config: HandConfig,
        seats: Mapping[int, int],
        deck: Sequence[Card],
        forced_bets: ForcedBets,
        *,
        auto_muck: frozenset[int] = frozenset(),
    ) -> Hand:
        """Start a hand: post forced bets, deal, and stop at the first decision.

        ``seats``: table seat index → stack (chips) of every player dealt in; clockwise is increasing
        seat index (wrapping). ``deck``: cards in deal order (the caller shuffles; see engine.variants).
        Raises ``ValueError`` on a bad plan (unknown seat, too few cards, duplicates, R-GAME-DECK).
        """
        raise NotImplementedError

    def legal_actions(self) -> LegalActions | None:
        """Who acts and what they may do; ``None`` once the hand is over."""
        raise NotImplementedError

    def act(self, seat: int, action: Action) -> list[Event]:
        """Apply ``seat``'s action; returns the events it caused. Raises NotYourTurn / IllegalAction /
        InvalidAmount (engine.errors) with a human message, leaving the hand unchanged."""
        raise NotImplementedError

    def leave(self, seat: int) -> list[Event]:
        """Fold ``seat`` out of turn (left the table); its uncalled bet is returned (R-BET-UNCALLED)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (a :class:`~engine.events.HandEnded` is the last event)."""
        raise NotImplementedError
