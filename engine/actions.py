"""What a player can do in a hand, and what :meth:`engine.hand.Hand.legal_actions` offers.

Actions are small frozen values handed to :meth:`engine.hand.Hand.act`. Amounts are integer chips.

Amount semantics (R-BET-*): a bet or raise names the player's **street total** ("raise to 300"),
exactly like PHH ``cbr 300`` and PokerKit's ``complete_bet_or_raise_to``. A call carries no amount:
the engine knows what is owed (``LegalActions.call_amount``).

>>> BetOrRaise(300)
BetOrRaise(to=300)
>>> LegalActions(seat=4, can_fold=True, can_check=False, call_amount=100,
...              min_raise_to=200, max_raise_to=1000).can_raise
True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card

# Actions without fields take no arguments and need no ``__init__`` of their own (``init=False``): the dataclass
# would generate an empty Python one, a call that every Fold(), Check() and Call() would pay.


@dataclass(frozen=True, slots=True, init=False)
class Fold:
    """Give up the hand. Always allowed to the player to act in a betting round (even facing no bet)."""


@dataclass(frozen=True, slots=True, init=False)
class Check:
    """Pass without betting; only when nothing is to be called (R-BET-END)."""


@dataclass(frozen=True, slots=True, init=False)
class Call:
    """Match the highest bet of the round, or go all-in for less. The amount is the engine's to decide."""


@dataclass(frozen=True, slots=True)
class BetOrRaise:
    """Bet (no bet yet this round) or raise, to a street total of ``to`` chips (R-BET-FL/NL/PL/HPL/SL).

    ``to`` counts everything the player has put in this betting round, live blinds included.
    All-in for less than the minimum is allowed (R-BET-ALLIN): then ``to`` must equal the player's
    whole stack plus what is already in front of them.
    """

    to: int


@dataclass(frozen=True, slots=True, init=False)
class BringIn:
    """Stud: post the bring-in (R-STUD-1) instead of completing (``BetOrRaise`` to the small bet).
    ``LegalActions.bring_in_amount`` says how much (capped at the stack)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw games: discard these of the player's own cards (0..N of them) and receive replacements (R-DRAW-1).

    ``timed_out`` is set by the caller (hosting owns clocks) when the draw clock expired: the player stands
    pat (``discards`` must then be empty) and may not bet or raise in the next betting round; acting in time
    on the next draw lifts that.
    """

    discards: tuple[Card, ...] = ()
    timed_out: bool = False


@dataclass(frozen=True, slots=True, init=False)
class Split:
    """32-card poker (R-STUD-2): offer (first player to act after the draw) or accept to split the pots
    equally instead of showing down. It counts as a check; any other action declines and ends the offer.
    A pot is split when every player contesting it accepted."""


@dataclass(frozen=True, slots=True, init=False)
class Show:
    """Showdown: turn the hand face up (R-SHOW-1)."""


@dataclass(frozen=True, slots=True, init=False)
class Muck:
    """Showdown: throw the hand away unseen, giving up every pot (R-SHOW-1)."""


@dataclass(frozen=True, slots=True)
class RunItTwice:
    """Answer the run-it-twice question (R-HOME-1): ``agree`` True deals the rest of the board twice if every
    player asked agrees; False (or a timeout) runs it once."""

    agree: bool


Action = Fold | Check | Call | BetOrRaise | BringIn | Draw | Split | Show | Muck | RunItTwice
"""Everything :meth:`engine.hand.Hand.act` accepts."""


@dataclass(slots=True)
class LegalActions:
    """Who is to act and what they may do now.

    ``seat``: the table seat to act. Betting: ``can_fold``, ``can_check``, ``call_amount`` (chips the call
    adds, ``None`` if no call is possible; a call for less than owed is an all-in), ``min_raise_to`` /
    ``max_raise_to`` (street totals for :class:`BetOrRaise`, ``None`` when no bet or raise is allowed;
    ``min_raise_to == max_raise_to`` in fixed limit or when only an all-in is possible), ``is_bet`` (no bet
    yet this round: the action is a bet, not a raise). Stud: ``bring_in_amount``. Draw: ``max_discards``.
    32-card poker after the draw: ``can_split`` (R-STUD-2).
    Showdown: ``can_show`` / ``can_muck`` (then no betting fields are set). A hand run out all-in at a table
    that offers it: ``can_run_twice`` (answer :class:`RunItTwice`, R-HOME-1; nothing else is allowed then).

    Read-only by contract: :meth:`engine.hand.Hand.legal_actions` caches the instance until the hand changes
    (not frozen only because building a frozen instance costs a fifth of a simulated action).
    """

    seat: int
    can_fold: bool = False
    can_check: bool = False
    call_amount: int | None = None
    min_raise_to: int | None = None
    max_raise_to: int | None = None
    is_bet: bool = False
    bring_in_amount: int | None = None
    max_discards: int | None = None
    can_split: bool = False
    can_show: bool = False
    can_muck: bool = False
    can_run_twice: bool = False

    @property
    def can_call(self) -> bool:
        """Whether :class:`Call` is allowed."""
        return self.call_amount is not None

    @property
    def can_raise(self) -> bool:
        """Whether :class:`BetOrRaise` is allowed (with ``min_raise_to <= to <= max_raise_to``)."""
        return self.min_raise_to is not None

    def allows(self, action: Action) -> bool:
        """Whether ``action`` is legal for this seat now (amounts checked against the range).

        >>> options = LegalActions(seat=1, can_fold=True, call_amount=50, min_raise_to=100, max_raise_to=400)
        >>> options.allows(BetOrRaise(400)), options.allows(BetOrRaise(401)), options.allows(Check())
        (True, False, False)
        """
        if isinstance(action, Fold):
            return self.can_fold
        if isinstance(action, Check):
            return self.can_check
        if isinstance(action, Call):
            return self.call_amount is not None
        if isinstance(action, BetOrRaise):
            return (
                self.min_raise_to is not None
                and self.max_raise_to is not None
                and self.min_raise_to <= action.to <= self.max_raise_to
            )
        if isinstance(action, BringIn):
            return self.bring_in_amount is not None
        if isinstance(action, Draw):
            return self.max_discards is not None and len(action.discards) <= self.max_discards
        if isinstance(action, Split):
            return self.can_split
        if isinstance(action, Show):
            return self.can_show
        if isinstance(action, Muck):
            return self.can_muck
        if isinstance(action, RunItTwice):
            return self.can_run_twice
        return False
