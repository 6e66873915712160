"""Everything that happens in a hand, as small frozen events (DESIGN.md "engine/").

The hand history writers, the per-player protocol views, the store and the TUI all consume this one
stream. Every event has a ``private_to`` seat: ``None`` means public (everyone may see it); a seat number
means only that seat may see it (its own hole cards). Use :func:`view_for` to build one seat's view: it
keeps public events, that seat's private events, and replaces other seats' private deals with a
:class:`CardsDealtFaceDown` that shows only the count.

Amounts are integer chips. ``to`` is a street total (R-BET-*); ``added`` is what left the stack.

>>> from engine.cards import parse_cards
>>> dealt = HoleCardsDealt(seat=3, cards=parse_cards("As Kd"))
>>> [type(event).__name__ for event in view_for([dealt], seat=5)]
['CardsDealtFaceDown']
>>> view_for([dealt], seat=3) == [dealt]
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import TypeVar

from engine.cards import Card


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all hand events. Public unless a subclass says otherwise."""

    @property
    def private_to(self) -> int | None:
        """The only seat allowed to see this event, or ``None`` when it is public."""
        return None


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand begins. ``stacks``: (seat, stack) in clockwise order from the first seat left of the button,
    before any forced bet. ``variant``/``structure`` are ids (e.g. ``"omaha"``, ``"pot_limit"``)."""

    variant: str
    structure: str
    button_seat: int
    stacks: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    """A dead ante went into the pot (R-ANTE-1). ``all_in`` when it took the whole stack."""

    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class BlindPosted(Event):
    """A blind or straddle was posted (R-BLIND-1..3).

    ``kind``: ``"small_blind"``, ``"big_blind"``, ``"straddle"``, ``"dead_small_blind"`` (goes straight into
    the pot, not a bet) or ``"big_blind_out_of_position"`` (a returning player's live big blind).
    ``live``: counts toward the player's bet of the round. ``amount`` may be short when ``all_in``.
    """

    seat: int
    kind: str
    amount: int
    live: bool = True
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class HoleCardsDealt(Event):
    """Face-down cards dealt to one seat; private to that seat."""

    seat: int
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class CardsDealtFaceDown(Event):
    """The public trace of another seat's face-down cards: only how many (made by :func:`view_for`)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class UpCardsDealt(Event):
    """Face-up cards dealt to one seat (stud games); public."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BoardDealt(Event):
    """Community cards for a street (``street`` e.g. ``"flop"``); ``board`` is the whole board so far."""

    street: str
    cards: tuple[Card, ...]
    board: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BettingRoundStarted(Event):
    """A betting round opens (``round_index`` from 0, ``street`` its name); ``pot`` is all chips committed."""

    round_index: int
    street: str
    pot: int


@dataclass(frozen=True, slots=True)
class Folded(Event):
    """The seat folded (``left_table`` when it was folded out of turn by :meth:`Hand.leave`)."""

    seat: int
    left_table: bool = False


@dataclass(frozen=True, slots=True)
class Checked(Event):
    """The seat checked."""

    seat: int


@dataclass(frozen=True, slots=True)
class Called(Event):
    """The seat called, adding ``amount`` chips (less than owed only when ``all_in``)."""

    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    """First bet of a round: the seat bet ``to`` chips (its street total), adding ``added``."""

    seat: int
    to: int
    added: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Raised(Event):
    """The seat raised to ``to`` (street total), adding ``added``. ``full`` is False for a short all-in raise
    that does not reopen the action (R-BET-ALLIN)."""

    seat: int
    to: int
    added: int
    all_in: bool = False
    full: bool = True


@dataclass(frozen=True, slots=True)
class BringInPosted(Event):
    """Stud: the seat posted the bring-in (R-STUD-1)."""

    seat: int
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """Draw games: the seat discarded ``count`` cards (0 = stood pat); public (R-DRAW-1)."""

    seat: int
    count: int
    timed_out: bool = False


@dataclass(frozen=True, slots=True)
class DrawnCardsDealt(Event):
    """Draw games: the replacements dealt to one seat; private. ``discarded`` are the cards thrown."""

    seat: int
    discarded: tuple[Card, ...]
    cards: tuple[Card, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class SplitAccepted(Event):
    """32-card poker: the seat offered (the first one) or accepted to split the pots (R-STUD-2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TreatedAsAllIn(Event):
    """R-DISC-2 artificial all-in: the disconnected seat stays in for what it has put in and acts no more;
    ``kept`` chips stay behind, out of play, and are back in its stack at the end of the hand."""

    seat: int
    kept: int


@dataclass(frozen=True, slots=True)
class UncalledBetReturned(Event):
    """The part of a bet nobody matched went back to its owner (R-BET-UNCALLED)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """The seat's cards turned face up (at showdown or at an all-in run-out, R-SHOW-1).

    ``cards`` are all the seat's own cards; ``description`` e.g. ``"full house"`` (or ``"... / eight-six low"``
    in hi/lo), empty when the board is not complete yet (all-in before the river)."""

    seat: int
    cards: tuple[Card, ...]
    description: str = ""


@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """The seat threw its hand away at showdown without showing (R-SHOW-1)."""

    seat: int


@dataclass(frozen=True, slots=True)
class RakeTaken(Event):
    """Rake taken from pot ``pot_index`` (0 = main pot) before it was awarded (R-RAKE-1)."""

    pot_index: int
    amount: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """``amount`` chips of pot ``pot_index`` (0 = main pot, then side pots) went to ``seat``.

    ``share``: ``"whole"``, ``"high"`` or ``"low"`` (hi/lo halves, R-POT-2). ``pot_total`` is the pot's size
    after rake; ``description`` names the winning hand (empty when won uncontested, R-SHOW-2)."""

    pot_index: int
    seat: int
    amount: int
    share: str = "whole"
    pot_total: int = 0
    description: str = ""


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The hand cannot be finished and is void (R-CRASH-1): no pot is won. ``returned``: (seat, chips) each
    seat got back from the pot — what he put in, plus his share of what was forfeited; ``forfeited``: (seat,
    chips) lost by a player whose dropping out made the hand fail (host-blind dealing: too few were left to
    open the cards in his place), shared by the others (:func:`engine.pots.void_split`). ``reason`` says why,
    in a player's words. :class:`HandEnded` follows."""

    reason: str
    returned: tuple[tuple[int, int], ...]
    forfeited: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The hand is over. ``stacks``: (seat, final stack) in the order of :class:`HandStarted`;
    ``rake``: total rake taken. Chip conservation: sum of start stacks = sum of final stacks + rake."""

    stacks: tuple[tuple[int, int], ...]
    rake: int = 0


@dataclass(frozen=True, slots=True)
class BombPotStarted(Event):
    """This hand is a bomb pot (R-HOME-3, :mod:`engine.home.bomb_pot`): every player dealt in antes ``ante``,
    nobody posts a blind, there is no preflop betting and the first betting round is on the flop."""

    ante: int


@dataclass(frozen=True, slots=True)
class RunItTwiceOffered(Event):
    """Every player still in is all-in before the river (R-HOME-1, :mod:`engine.home.run_it_twice`): ``seats``
    are asked, in this order, whether the rest of the board is dealt twice."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RunItTwiceAnswered(Event):
    """``seat`` answered the run-it-twice question (``agreed``: yes; a timeout answers no)."""

    seat: int
    agreed: bool


@dataclass(frozen=True, slots=True)
class RunItTwiceDecided(Event):
    """The question is settled: ``twice`` when everyone asked agreed, else the board is run once."""

    twice: bool


@dataclass(frozen=True, slots=True)
class SecondBoardDealt(Event):
    """A street of the second run (R-HOME-1): ``cards`` dealt for ``street``; ``board`` is the whole second board
    so far (the cards both runs share, then the second run's own)."""

    street: str
    cards: tuple[Card, ...]
    board: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BoardPotAwarded(PotAwarded):
    """A pot's half won on one board of a hand run twice (R-HOME-1): ``board`` 1 or 2. ``pot_total`` is that
    half (after rake); everything that counts :class:`PotAwarded` counts these too."""

    board: int = 1


@dataclass(frozen=True, slots=True)
class SevenDeuceBountyPaid(Event):
    """R-HOME-4 (:mod:`engine.home.seven_deuce`): ``seat`` won a pot with 7-2 shown and collected the bounty:
    ``paid`` lists ``(payer seat, chips)`` (a payer short of the bounty pays what he has); ``total`` their sum."""

    seat: int
    paid: tuple[tuple[int, int], ...]
    total: int


PLAYER_ACTIONS: tuple[type[Event], ...] = (Folded, Checked, Called, BetPlaced, Raised, BringInPosted, CardsDrawn)
"""A player's decisions in a hand (his own, or the table's for him at a time-out): a hand's first one ends what
the hand before still offered (R-HOME-2's rabbit, an uncontested winner's show); the deal and forced bets do not."""


_Built = TypeVar("_Built", bound=Event)


def positional_builder(cls: type[_Built]) -> Callable[..., _Built]:
    """A constructor for the event class ``cls`` taking every field positionally, in declaration order (no
    defaults), equal to ``cls(*values)`` but about 40% cheaper: it fills the slots directly instead of
    running the dataclass ``__init__``, whose per-field ``object.__setattr__`` lookups are a visible share of
    a simulated hand (a stud hand builds about fifty events). Events have no ``__post_init__``.

    >>> build = positional_builder(Called)
    >>> build(3, 40, False) == Called(3, 40), build(3, 40, False)
    (True, Called(seat=3, amount=40, all_in=False))
    >>> positional_builder(Raised)(3, 80, 40, False, True) == Raised(3, 80, 40)
    True
    """
    new = object.__new__
    setters = [getattr(cls, field.name).__set__ for field in fields(cls)]
    # One unrolled function per field count: a loop over the setters would cost more than it saves.
    if len(setters) == 1:
        (first,) = setters

        def build_one(a: object) -> _Built:
            event = new(cls)
            first(event, a)
            return event

        return build_one
    if len(setters) == 2:
        first, second = setters

        def build_two(a: object, b: object) -> _Built:
            event = new(cls)
            first(event, a)
            second(event, b)
            return event

        return build_two
    if len(setters) == 3:
        first, second, third = setters

        def build_three(a: object, b: object, c: object) -> _Built:
            event = new(cls)
            first(event, a)
            second(event, b)
            third(event, c)
            return event

        return build_three
    if len(setters) == 4:
        first, second, third, fourth = setters

        def build_four(a: object, b: object, c: object, d: object) -> _Built:
            event = new(cls)
            first(event, a)
            second(event, b)
            third(event, c)
            fourth(event, d)
            return event

        return build_four
    if len(setters) == 5:
        first, second, third, fourth, fifth = setters

        def build_five(a: object, b: object, c: object, d: object, e: object) -> _Built:
            event = new(cls)
            first(event, a)
            second(event, b)
            third(event, c)
            fourth(event, d)
            fifth(event, e)
            return event

        return build_five
    return cls  # more fields: the class itself (all values positional) is fast enough for rare events


def view_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``seat=None``: a spectator), hiding others' private cards.

    Another seat's :class:`HoleCardsDealt` becomes a :class:`CardsDealtFaceDown`; another seat's
    :class:`DrawnCardsDealt` is dropped (its public :class:`CardsDrawn` already says how many).
    """
    view: list[Event] = []
    for event in events:
        owner = event.private_to
        if owner is None or owner == seat:
            view.append(event)
        elif isinstance(event, HoleCardsDealt):
            view.append(CardsDealtFaceDown(event.seat, len(event.cards)))
    return view
