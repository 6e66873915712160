"""Everything that happens at a table between and around hands, as small frozen events.

The room persists and broadcasts these exactly like the hand's own events (:mod:`engine.events`), which
:class:`engine.table.Table` returns interleaved with them. All are public. Chips are integers; times are
the caller's seconds.

Chip movements between a player's balance and the table are exactly three events, so a ledger can follow
them: :class:`PlayerSeated` (``buy_in`` leaves the balance), :class:`ChipsAdded` (a top-up leaves the
balance) and :class:`ChipsReturned` (chips leave the table: the table's owner sends them where they belong —
a cash table to the balance). An owner that brings every stack (a tournament, a pool) moves chips with
:class:`PlayerMovedIn` and :class:`PlayerMovedOut`, which never touch a balance; :class:`ChipsAdded` is then
the owner's rebuy or add-on.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.events import Event


@dataclass(frozen=True, slots=True)
class PlayerSeated(Event):
    """``player`` took ``seat`` buying in for ``buy_in`` chips (taken from the balance, R-BUYIN-1)."""

    seat: int
    player: str
    buy_in: int


@dataclass(frozen=True, slots=True)
class ChipsAdded(Event):
    """A top-up between hands: ``amount`` chips from the balance; ``stack`` is the new stack (R-BUYIN-1)."""

    seat: int
    player: str
    amount: int
    stack: int


@dataclass(frozen=True, slots=True)
class ChipsReturned(Event):
    """``amount`` chips (the whole stack) went from the table back to ``player``'s balance."""

    seat: int
    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class SeatFreed(Event):
    """``seat`` is free again. ``reason``: ``"left"``, ``"away_too_long"`` (Away or disconnected) or
    ``"sat_out_too_long"``. ``offered_to``: the first player on the waiting list, who may now take a seat."""

    seat: int
    player: str
    reason: str
    offered_to: str | None = None


@dataclass(frozen=True, slots=True)
class LeavingAfterHand(Event):
    """``player`` left during a hand he was dealt in: folded now if still live, seat freed when it ends."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class WaitingListJoined(Event):
    """``player`` is number ``position`` (from 1) on the waiting list."""

    player: str
    position: int


@dataclass(frozen=True, slots=True)
class WaitingListLeft(Event):
    """``player`` is no longer on the waiting list (left it, or took a seat)."""

    player: str


@dataclass(frozen=True, slots=True)
class ButtonDrawn(Event):
    """The dealer draw for the first button (R-DEAL-1): (seat, card) per player; ``button_seat`` won."""

    button_seat: int
    cards: tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class HandPlanned(Event):
    """Hand number ``hand_number`` is about to start: the forced-bet plan (R-BLIND-1..4).

    ``small_blind_seat`` ``None``: no small blind (its player left). ``button_is_dead``: nobody plays on the
    button seat. ``big_blinds_out_of_position`` / ``dead_small_blinds``: returning and new players paying in.
    ``blinds_forgiven``: players dealt in whose owed blinds were dropped (only waiting players could play).
    """

    hand_number: int
    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    straddle_seat: int | None
    dealt_in: tuple[int, ...]
    heads_up: bool
    button_is_dead: bool
    big_blinds_out_of_position: tuple[int, ...] = ()
    dead_small_blinds: tuple[int, ...] = ()
    blinds_forgiven: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class BlindOwed(Event):
    """The blinds passed ``player`` (or he is new): he now owes these to be dealt in (R-BLIND-3)."""

    seat: int
    player: str
    small_blind: bool
    big_blind: bool


@dataclass(frozen=True, slots=True)
class BlindsSettled(Event):
    """``player`` owes nothing any more: he posted what he owed or took the big blind in turn."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class HandFinished(Event):
    """Hand ``hand_number`` is over; ``stacks`` (seat, stack) of the players dealt in, ``rake`` taken."""

    hand_number: int
    stacks: tuple[tuple[int, int], ...]
    rake: int


@dataclass(frozen=True, slots=True)
class PlayerSatOut(Event):
    """``player`` is not dealt in until he sits in. ``reason``: ``"asked"``, ``"no_chips"``.
    ``seat_freed_at``: when the seat will be freed unless he comes back."""

    seat: int
    player: str
    reason: str
    seat_freed_at: float


@dataclass(frozen=True, slots=True)
class PlayerAway(Event):
    """``player``'s time ran out (R-DISC-1): he is Away, not dealt in; the seat is freed at ``seat_freed_at``."""

    seat: int
    player: str
    seat_freed_at: float


@dataclass(frozen=True, slots=True)
class PlayerSatIn(Event):
    """``player`` is back (no longer sitting out or Away); he may still owe blinds."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class PlayerDisconnected(Event):
    """``player``'s connection dropped: his turns now run on the disconnection time bank (R-DISC-1)."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class PlayerReconnected(Event):
    """``player`` is connected again."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class CardsShownAfterWin(Event):
    """``player`` won the last hand uncontested and chose to show ``cards`` (one card or his whole hand) before
    the next deal; R-SHOW-2 never shows such a hand unasked."""

    seat: int
    player: str
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerSettingChanged(Event):
    """A remembered choice changed: ``setting`` is ``"blind_choice"``, ``"auto_post_blinds"``, ``"straddle"``
    or ``"blinds_confirmed"``; ``value`` its new value as text."""

    seat: int
    player: str
    setting: str
    value: str


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """``player`` is to act; the turn times out at ``deadline`` (seconds) unless he acts (R-DISC-1)."""

    seat: int
    player: str
    started_at: float
    deadline: float


@dataclass(frozen=True, slots=True)
class TimeBankUsed(Event):
    """``seconds`` of overtime were taken from a bank (``disconnection`` bank or the time bank); ``left``."""

    seat: int
    player: str
    seconds: float
    left: float
    disconnection: bool


@dataclass(frozen=True, slots=True)
class TimeBanksRefilled(Event):
    """After enough hands dealt in: seconds added to the time bank and to the disconnection bank."""

    seat: int
    player: str
    time_bank_added: float
    disconnection_bank_added: float
    time_bank: float
    disconnection_bank: float


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """``player``'s turn ran out; the table acted for him: ``action`` is ``"check"``, ``"fold"``,
    ``"stand_pat"``, ``"show"`` or ``"artificial_all_in"`` (R-DISC-1, R-DISC-2)."""

    seat: int
    player: str
    action: str


@dataclass(frozen=True, slots=True)
class ArtificialAllInGiven(Event):
    """R-DISC-2: disconnected ``player`` is all-in for what he has put in; ``remaining`` today."""

    seat: int
    player: str
    remaining: int


@dataclass(frozen=True, slots=True)
class PlayerMovedIn(Event):
    """``player`` was seated in ``seat`` with ``stack`` chips his table's owner brought (``reason``: ``moved``
    from another table, seated by a pool, a tournament's start) — no buy-in from his balance."""

    seat: int
    player: str
    stack: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerMovedOut(Event):
    """``player`` left ``seat`` with ``stack`` chips, taken by his table's owner (``reason``: ``moved``, ``busted``,
    back to a pool, …): the owner decides where the chips go."""

    seat: int
    player: str
    stack: int
    reason: str


@dataclass(frozen=True, slots=True)
class LevelChanged(Event):
    """The forced bets change from hand ``from_hand`` on (a level up, the host's new blinds); a hand already
    running keeps its own. ``big_blind_ante``: one ante for the table, posted by the big blind. ``level``: the
    tournament's level number (1-based) when its director set it, else 0 (a cash table's, a pool's new blinds)."""

    from_hand: int
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int
    bring_in: int
    level: int = 0


@dataclass(frozen=True, slots=True)
class GameChanged(Event):
    """A mixed table deals another game from hand ``from_hand`` on (R-MIX-1..3): ``game`` (an engine variant id)
    under ``structure`` at these forced bets (stud games: ``ante`` and ``bring_in``, no blinds)."""

    from_hand: int
    game: str
    structure: str
    small_blind: int
    big_blind: int
    ante: int
    bring_in: int
