"""Everything the tournament director decides, as small frozen events (issue 17).

They share :class:`engine.events.Event` with the hand and table events, so the room persists and broadcasts
them the same way. All are public — a tournament lobby shows registrations, moves, eliminations, prizes and
deals to everyone — except money that concerns one person only: how he paid, refunds and credits
(:attr:`TournamentEvent.visible_to` names him). :func:`view_for_player` is the per-player filter, as
:func:`engine.events.view_for` is for seats; the hand events at each table keep their own seat visibility.

Entries: a player may hold several entries over a tournament (re-entry) or at once (multi-entry); each entry
has a number (from 1, in order of registration) and plays as its own stack.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.events import Event


@dataclass(frozen=True, slots=True)
class TournamentEvent(Event):
    """Base of the director's events."""

    @property
    def visible_to(self) -> str | None:
        """The only player who may see this event, or ``None`` when it is public."""
        return None


def view_for_player(events: Iterable[Event], player: str | None) -> list[Event]:
    """The events ``player`` may see (``None``: a spectator): public ones and his own money events."""
    return [
        event for event in events
        if not isinstance(event, TournamentEvent) or event.visible_to in (None, player)
    ]


@dataclass(frozen=True, slots=True)
class Registered(TournamentEvent):
    """``player`` holds entry ``entry`` (``late``: after the start; ``re_entry``: after busting)."""

    player: str
    entry: int
    late: bool = False
    re_entry: bool = False


@dataclass(frozen=True, slots=True)
class Paid(TournamentEvent):
    """What ``player`` paid for ``what`` (``"entry"``, ``"rebuy"``, ``"add_on"``): ``method`` ``"balance"``,
    ``"ticket"`` or ``"free"``; ``amount`` the money or ticket value; private to him."""

    player: str
    entry: int
    what: str
    method: str
    amount: int

    @property
    def visible_to(self) -> str | None:
        return self.player


@dataclass(frozen=True, slots=True)
class Unregistered(TournamentEvent):
    """``player`` gave up entry ``entry`` before it played."""

    player: str
    entry: int


@dataclass(frozen=True, slots=True)
class Credited(TournamentEvent):
    """Money (``as_ticket`` ``None``) or a ticket back to ``player``: ``reason`` ``"refund"``,
    ``"excess_ticket_value"`` or ``"cancelled"``; private to him."""

    player: str
    amount: int
    reason: str
    as_ticket: str | None = None

    @property
    def visible_to(self) -> str | None:
        return self.player


@dataclass(frozen=True, slots=True)
class TournamentStarted(TournamentEvent):
    """Play begins with ``entrants`` entries at ``tables`` tables; ``starting_stack`` chips each."""

    entrants: int
    tables: int
    starting_stack: int


@dataclass(frozen=True, slots=True)
class TournamentCancelled(TournamentEvent):
    """The tournament will not be played (``reason``), every entry refunded as it was paid."""

    reason: str


@dataclass(frozen=True, slots=True)
class LateRegistrationClosed(TournamentEvent):
    """No more entries: ``reason`` ``"time"``, ``"first_elimination"``, ``"full"`` or ``"final_table"``."""

    reason: str
    entries: int


@dataclass(frozen=True, slots=True)
class LevelUp(TournamentEvent):
    """Level ``level`` (1-based) applies from the next hand dealt at each table."""

    level: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    bring_in: int


@dataclass(frozen=True, slots=True)
class BreakStarted(TournamentEvent):
    """A break: no new hand until ``ends_at`` (seconds of the caller's clock)."""

    ends_at: float


@dataclass(frozen=True, slots=True)
class BreakEnded(TournamentEvent):
    """The break is over; play resumes at the next level."""


@dataclass(frozen=True, slots=True)
class TableOpened(TournamentEvent):
    """Table ``table`` (a number from 1) is in play."""

    table: int


@dataclass(frozen=True, slots=True)
class PlayerSeatedAt(TournamentEvent):
    """Entry ``entry`` of ``player`` sits at ``table`` seat ``seat`` with ``stack`` chips."""

    player: str
    entry: int
    table: int
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class PlayerMoved(TournamentEvent):
    """Entry ``entry`` of ``player`` moved with his ``stack``: ``reason`` ``"balance"``, ``"table_broken"``
    or ``"final_table"`` (R-TOUR-4)."""

    player: str
    entry: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    stack: int
    reason: str


@dataclass(frozen=True, slots=True)
class TableBroken(TournamentEvent):
    """Table ``table`` is closed; its players were moved (their :class:`PlayerMoved` follow)."""

    table: int


@dataclass(frozen=True, slots=True)
class FinalTable(TournamentEvent):
    """Everyone left plays at ``table``."""

    table: int
    players: int


@dataclass(frozen=True, slots=True)
class HandForHand(TournamentEvent):
    """Hand-for-hand play starts (``on``) or stops: every table plays one hand, then all wait."""

    on: bool


@dataclass(frozen=True, slots=True)
class RebuyOffered(TournamentEvent):
    """Entry ``entry`` has no chips but may rebuy before his table's next hand (else he is out)."""

    player: str
    entry: int


@dataclass(frozen=True, slots=True)
class Rebought(TournamentEvent):
    """A rebuy: ``chips`` added to entry ``entry`` (its ``count``-th rebuy)."""

    player: str
    entry: int
    chips: int
    count: int


@dataclass(frozen=True, slots=True)
class AddedOn(TournamentEvent):
    """The add-on: ``chips`` added to entry ``entry``."""

    player: str
    entry: int
    chips: int


@dataclass(frozen=True, slots=True)
class Eliminated(TournamentEvent):
    """Entry ``entry`` of ``player`` is out in ``place`` (``None`` while late registration is open, or in a
    shootout round played at several tables: the place is given by :class:`Ranked` when it is known). ``by``:
    the players who won his last chips; ``tied``: how many share this place (hand-for-hand)."""

    player: str
    entry: int
    place: int | None
    by: tuple[str, ...] = ()
    tied: int = 1


@dataclass(frozen=True, slots=True)
class Ranked(TournamentEvent):
    """An entry eliminated during late registration gets its ``place`` now that the field is known; in a
    shootout, the players out in a round get theirs when the round ends (by the place reached at their own
    table, equal places across tables tied)."""

    player: str
    entry: int
    place: int


@dataclass(frozen=True, slots=True)
class BountyWon(TournamentEvent):
    """``winner`` collected ``amount`` for knocking out ``loser``. ``kind``: ``"knockout"``,
    ``"progressive"`` (the half paid out; ``added_to_own`` went onto the winner's head), ``"bounty"``
    (room-funded, named player), ``"pro"`` (room-funded, pro player) or ``"own"`` (the winner's own head)."""

    winner: str
    loser: str
    amount: int
    kind: str
    added_to_own: int = 0


@dataclass(frozen=True, slots=True)
class PrizeAwarded(TournamentEvent):
    """``player`` wins ``amount`` for ``place`` (``ticket_to``: a ticket to that tournament instead of money;
    ``secondary``: a secondary prize)."""

    player: str
    entry: int
    place: int
    amount: int
    ticket_to: str | None = None
    secondary: str | None = None


@dataclass(frozen=True, slots=True)
class DealProposed(TournamentEvent):
    """``proposer`` offers a ``kind`` deal (``"equal"``, ``"chips"``, ``"icm"``): ``shares`` (player, amount)."""

    proposer: str
    kind: str
    shares: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class DealAccepted(TournamentEvent):
    """``player`` accepts the deal on the table."""

    player: str


@dataclass(frozen=True, slots=True)
class DealDeclined(TournamentEvent):
    """``player`` refused the deal: play goes on."""

    player: str


@dataclass(frozen=True, slots=True)
class SpinMultiplierDrawn(TournamentEvent):
    """Spin: the prize pool is ``multiplier`` × the buy-ins, ``pool`` in all."""

    multiplier: int
    pool: int


@dataclass(frozen=True, slots=True)
class ShootoutRound(TournamentEvent):
    """Shootout round ``number`` starts with ``players`` at ``tables`` tables, blinds back to level 1."""

    number: int
    players: int
    tables: int


@dataclass(frozen=True, slots=True)
class Completed(TournamentEvent):
    """The tournament is over: ``winner`` (``None`` after a deal, a time limit or a Fifty50/Double-or-Nothing
    end with several survivors); ``how``: ``"last_player"``, ``"deal"``, ``"time"`` or ``"half_out"``."""

    winner: str | None
    how: str
