"""Where the button and the blinds go, and who is dealt in (R-DEAL-1, R-BLIND-1..4).

Pure functions over seat numbers (0..seat_count-1, clockwise = increasing, wrapping around).

* :func:`draw_for_button` — the first button by the dealer draw (R-DEAL-1).
* :func:`plan_blinds` — the next hand's button, small blind, big blind, straddle, out-of-position posts and
  the blinds players miss, by the **dead-button rule** (R-BLIND-4): the big blind always moves to the next
  player who can take it; the small blind goes to the seat that had the big blind (when that player is no
  longer playing there is no small blind this hand); the button goes to the seat that had the small blind
  (when nobody plays there the button is dead). So nobody skips a big blind and nobody posts two.

Decisions the rulebooks leave open (RULES.md R-BLIND-3/4), written here once:

* A player who misses blinds owes them: passed by the big blind → owes the big blind; passed by the small
  blind (the small blind position reached or went past his seat while he was not dealt in) → owes the small
  blind too. A new player owes only a big blind.
* An owing player is dealt in when the big blind reaches him (he posts it in position and owes nothing
  more), or, if his remembered choice is to post, out of position (big blind live, small blind dead if owed)
  anywhere except from the button to the small blind inclusive (he would get a free look at the blinds);
  otherwise he waits.
* Heads-up (two dealt in) the button posts the small blind and the other player the big blind (R-BET-ORDER);
  no straddle heads-up; both players' debts are cleared by playing (each posts a blind every hand).
* Heads-up, a player who owes takes the big blind; if both owe, or if only waiting players remain, their
  debts are forgiven (``blinds_forgiven``) so that a hand can start at all.
* If the table's previous positions no longer make sense (after heads-up, or when the seats changed a lot)
  the small blind and the button are placed on the nearest playing seats counter-clockwise of the big blind.

>>> from engine.cards import parse_cards
>>> draw_for_button([0, 3, 5], parse_cards("Kh Ks 2c"))
ButtonDraw(button_seat=3, cards=((0, Card('Kh')), (3, Card('Ks')), (5, Card('2c'))))
>>> seats = [SeatState(seat) for seat in (0, 3, 5)]
>>> plan = plan_blinds(9, seats, previous=None, drawn_button=3)
>>> plan.button_seat, plan.small_blind_seat, plan.big_blind_seat
(3, 5, 0)
>>> follow = plan_blinds(9, seats, previous=plan.positions)
>>> follow.button_seat, follow.small_blind_seat, follow.big_blind_seat
(5, 0, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from engine.cards import Card


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """The dealer draw (R-DEAL-1): ``cards`` are (seat, card) in seat order; ``button_seat`` drew highest."""

    button_seat: int
    cards: tuple[tuple[int, Card], ...]


def draw_for_button(seats: Sequence[int], deck: Sequence[Card]) -> ButtonDraw:
    """Give each of ``seats`` (in the order given) the next card of ``deck``; the highest card takes the button,
    equal ranks broken by suit spades > hearts > diamonds > clubs (R-DEAL-1).

    ``deck`` is the caller's shuffled deck (the engine has no randomness). Raises ``ValueError`` when there are
    fewer than 2 seats, fewer cards than seats, or a repeated card.

    >>> from engine.cards import parse_cards
    >>> draw_for_button([1, 2], parse_cards("Th Ts")).button_seat
    2
    """
    if len(seats) < 2:
        raise ValueError(f"the dealer draw needs at least 2 players, got {len(seats)}")
    if len(deck) < len(seats):
        raise ValueError(f"the dealer draw needs {len(seats)} cards, the deck has {len(deck)}")
    cards = tuple(zip(seats, deck[: len(seats)], strict=True))
    if len({card for _, card in cards}) != len(cards):
        raise ValueError("the dealer draw was given a repeated card")
    # Card values are (rank - 2) * 4 + suit with suits ordered clubs < diamonds < hearts < spades, so the
    # highest integer is exactly the R-DEAL-1 winner.
    winner = max(cards, key=lambda pair: int(pair[1]))
    return ButtonDraw(winner[0], cards)


@dataclass(frozen=True, slots=True)
class SeatState:
    """What :func:`plan_blinds` needs to know about one occupied seat.

    ``active``: could play the next hand (seated, not Away, not sitting out, has chips, blinds confirmed when
    auto-post is off). ``owes_big_blind`` / ``owes_small_blind``: missed blinds (a new player owes the big
    blind). ``posts_when_owing``: the player's remembered choice — post now (True) or wait for the big blind.
    ``new``: never dealt in since sitting down (misses only the big blind). ``wants_straddle``: posts a
    straddle whenever he is left of the big blind on a straddle table.
    """

    seat: int
    active: bool = True
    owes_big_blind: bool = False
    owes_small_blind: bool = False
    posts_when_owing: bool = False
    new: bool = False
    wants_straddle: bool = False

    @property
    def owes(self) -> bool:
        """Whether the player owes any blind."""
        return self.owes_big_blind or self.owes_small_blind


@dataclass(frozen=True, slots=True)
class Positions:
    """The three positions the dead-button rule remembers from one hand to the next. ``small_blind_position``
    is a seat even when no small blind was posted there (a dead small blind)."""

    button_position: int
    small_blind_position: int
    big_blind_seat: int


@dataclass(frozen=True, slots=True)
class BlindPlan:
    """Who plays the next hand and which forced bets each posts (R-BLIND-1..4).

    ``button_seat``: the button's seat (``button_is_dead`` when nobody plays there). ``small_blind_seat``:
    ``None`` when there is no small blind this hand. ``dealt_in``: seats in the hand, in seat order.
    ``out_of_position_big_blinds``: returning/new players posting a live big blind out of position;
    ``dead_small_blinds``: players paying a missed small blind dead into the pot. ``settled``: dealt-in seats
    whose missed blinds are paid or cleared by this hand. ``missed_big_blind`` / ``missed_small_blind``: seats
    that now owe because the blinds passed them. ``blinds_forgiven``: dealt-in seats whose debts were dropped
    because everyone who could play owed and waited (otherwise no hand could ever start).
    """

    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    straddle_seat: int | None
    dealt_in: tuple[int, ...]
    out_of_position_big_blinds: tuple[int, ...] = ()
    dead_small_blinds: tuple[int, ...] = ()
    settled: tuple[int, ...] = ()
    missed_big_blind: tuple[int, ...] = ()
    missed_small_blind: tuple[int, ...] = ()
    heads_up: bool = False
    button_is_dead: bool = False
    small_blind_position: int = -1
    blinds_forgiven: tuple[int, ...] = ()

    @property
    def positions(self) -> Positions:
        """What the next call of :func:`plan_blinds` needs as ``previous``."""
        small_blind_position = self.small_blind_position if self.small_blind_position >= 0 else self.button_seat
        return Positions(self.button_seat, small_blind_position, self.big_blind_seat)


def plan_blinds(
    seat_count: int,
    seats: Iterable[SeatState],
    previous: Positions | None,
    *,
    drawn_button: int | None = None,
    straddle_allowed: bool = False,
) -> BlindPlan | None:
    """The next hand's plan, or ``None`` when fewer than two players can be dealt in.

    ``seats``: every occupied seat. ``previous``: the last hand's :attr:`BlindPlan.positions`, or ``None``
    for the table's first hand, which needs ``drawn_button`` (from :func:`draw_for_button` among the active
    seats) and deals in every active player with no blind owed. Raises ``ValueError`` for a seat outside
    ``0..seat_count-1`` or a first hand whose ``drawn_button`` is not an active seat.
    """
    states = {state.seat: state for state in seats}
    for seat in states:
        if not 0 <= seat < seat_count:
            raise ValueError(f"seat {seat} is outside 0..{seat_count - 1}")
    active = sorted(seat for seat, state in states.items() if state.active)
    if len(active) < 2:
        return None
    if previous is None:
        return _first_hand(seat_count, active, drawn_button, straddle_allowed, states)
    big_blind = _next_clockwise(seat_count, previous.big_blind_seat, active)
    plan = _following_hand(seat_count, states, active, previous, big_blind, straddle_allowed)
    if plan is None:
        # Only waiting players could make a hand: give the big blind to the next one of them, which deals
        # him in (otherwise a waiting player and one other could stare at each other forever).
        owing = [seat for seat in active if states[seat].owes]
        if owing:
            big_blind = _next_clockwise(seat_count, previous.big_blind_seat, owing)
            plan = _following_hand(seat_count, states, active, previous, big_blind, straddle_allowed)
    if plan is None:
        # Everyone who could play owes and waits: forgive the debts rather than never dealing again.
        forgiven = {
            seat: replace(state, owes_big_blind=False, owes_small_blind=False) for seat, state in states.items()
        }
        big_blind = _next_clockwise(seat_count, previous.big_blind_seat, active)
        plan = _following_hand(seat_count, forgiven, active, previous, big_blind, straddle_allowed)
        if plan is not None:
            owed = tuple(seat for seat in plan.dealt_in if states[seat].owes)
            plan = replace(plan, settled=owed, blinds_forgiven=owed)
    return plan


def _first_hand(
    seat_count: int, active: list[int], drawn_button: int | None, straddle_allowed: bool,
    states: dict[int, SeatState],
) -> BlindPlan:
    if drawn_button is None or drawn_button not in active:
        raise ValueError(f"the first hand needs a drawn button among the active seats {active}, got {drawn_button}")
    order = _clockwise_from(seat_count, drawn_button, active)
    if len(order) == 2:
        return BlindPlan(
            button_seat=drawn_button, small_blind_seat=drawn_button, big_blind_seat=order[1], straddle_seat=None,
            dealt_in=tuple(active), settled=tuple(active), heads_up=True, small_blind_position=drawn_button,
        )
    straddle = order[3] if len(order) > 3 and straddle_allowed and states[order[3]].wants_straddle else None
    return BlindPlan(
        button_seat=drawn_button, small_blind_seat=order[1], big_blind_seat=order[2], straddle_seat=straddle,
        dealt_in=tuple(active), settled=tuple(active), small_blind_position=order[1],
    )


def _following_hand(
    seat_count: int, states: dict[int, SeatState], active: list[int], previous: Positions, big_blind: int,
    straddle_allowed: bool,
) -> BlindPlan | None:
    ready = {seat for seat in active if not states[seat].owes}
    posting = {seat for seat in active if states[seat].owes and states[seat].posts_when_owing}
    everyone = ready | posting | {big_blind}
    if len(everyone) == 2:
        return _heads_up(seat_count, states, previous, big_blind, everyone)

    small_blind_position = previous.big_blind_seat
    button_position = previous.small_blind_position
    if not _in_order(seat_count, button_position, small_blind_position, big_blind):
        small_blind_position, button_position = _fallback_positions(seat_count, big_blind, ready)
    # An owing player may not buy in between the button and the small blind (inclusive): wait a hand or two.
    blocked = set(_clockwise_interval(seat_count, button_position, small_blind_position, include_start=True))
    posting_now = {seat for seat in posting if seat not in blocked and seat != big_blind}
    dealt_in = ready | posting_now | {big_blind}
    if len(dealt_in) < 2:
        return None
    if len(dealt_in) == 2:
        return _heads_up(seat_count, states, previous, big_blind, dealt_in)

    small_blind = small_blind_position if small_blind_position in ready and small_blind_position != big_blind else None
    straddle = None
    if straddle_allowed:
        after_big_blind = _next_clockwise(seat_count, big_blind, sorted(dealt_in))
        if after_big_blind in ready and states[after_big_blind].wants_straddle:
            straddle = after_big_blind
    out_of_position = tuple(sorted(seat for seat in posting_now if states[seat].owes_big_blind))
    dead_small = tuple(sorted(seat for seat in posting_now if states[seat].owes_small_blind and not states[seat].new))
    return BlindPlan(
        button_seat=button_position,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        straddle_seat=straddle,
        dealt_in=tuple(sorted(dealt_in)),
        out_of_position_big_blinds=out_of_position,
        dead_small_blinds=dead_small,
        settled=tuple(sorted(seat for seat in dealt_in if states[seat].owes)),
        missed_big_blind=_passed(seat_count, states, previous.big_blind_seat, big_blind, dealt_in, inclusive=False),
        missed_small_blind=_passed(
            seat_count, states, previous.small_blind_position, small_blind_position, dealt_in, inclusive=True,
            skip_new=True,
        ),
        button_is_dead=button_position not in dealt_in,
        small_blind_position=small_blind_position,
    )


def _heads_up(
    seat_count: int, states: dict[int, SeatState], previous: Positions, big_blind: int, dealt: set[int],
) -> BlindPlan | None:
    (button,) = dealt - {big_blind}
    if states[button].owes:
        if states[big_blind].owes:
            return None
        # The player who owes takes the big blind (that settles him); the other one gets the button.
        button, big_blind = big_blind, button
    return BlindPlan(
        button_seat=button, small_blind_seat=button, big_blind_seat=big_blind, straddle_seat=None,
        dealt_in=tuple(sorted(dealt)), settled=tuple(sorted(seat for seat in dealt if states[seat].owes)),
        missed_big_blind=_passed(seat_count, states, previous.big_blind_seat, big_blind, dealt, inclusive=False),
        missed_small_blind=_passed(
            seat_count, states, previous.small_blind_position, button, dealt, inclusive=True, skip_new=True,
        ),
        heads_up=True, small_blind_position=button,
    )


def _fallback_positions(seat_count: int, big_blind: int, ready: set[int]) -> tuple[int, int]:
    """Small blind and button on the nearest ready seats counter-clockwise of the big blind (a dead position —
    the seat just counter-clockwise — when there is none)."""
    small_blind = _previous_counter_clockwise(seat_count, big_blind, ready - {big_blind}, stop=big_blind)
    if small_blind is None:
        small_blind = (big_blind - 1) % seat_count
    button = _previous_counter_clockwise(seat_count, small_blind, ready - {big_blind, small_blind}, stop=big_blind)
    if button is None:
        button = (small_blind - 1) % seat_count
    return small_blind, button


def _passed(
    seat_count: int, states: dict[int, SeatState], start: int, end: int, dealt_in: set[int], *, inclusive: bool,
    skip_new: bool = False,
) -> tuple[int, ...]:
    """Occupied seats the moving blind went past (start exclusive, end inclusive or not) that were not dealt in."""
    passed = []
    for seat in _clockwise_interval(seat_count, start, end, include_start=False, include_end=inclusive):
        state = states.get(seat)
        if state is None or seat in dealt_in or (skip_new and state.new):
            continue
        passed.append(seat)
    return tuple(sorted(passed))


def _next_clockwise(seat_count: int, after: int, seats: Sequence[int]) -> int:
    """The first of ``seats`` strictly clockwise of ``after`` (``after`` itself only if it is the only one)."""
    for step in range(1, seat_count + 1):
        seat = (after + step) % seat_count
        if seat in seats:
            return seat
    raise ValueError("no seat to move to")


def _previous_counter_clockwise(seat_count: int, before: int, seats: set[int], *, stop: int) -> int | None:
    for step in range(1, seat_count):
        seat = (before - step) % seat_count
        if seat == stop:
            return None
        if seat in seats:
            return seat
    return None


def _clockwise_from(seat_count: int, start: int, seats: Sequence[int]) -> list[int]:
    return sorted(seats, key=lambda seat: (seat - start) % seat_count)


def _clockwise_interval(
    seat_count: int, start: int, end: int, *, include_start: bool, include_end: bool = True,
) -> list[int]:
    """Seats from ``start`` clockwise to ``end``; empty when start == end and neither end is included."""
    seats = [start] if include_start else []
    seat = start
    while seat != end:
        seat = (seat + 1) % seat_count
        if seat != end or include_end:
            seats.append(seat)
    return seats


def _in_order(seat_count: int, button: int, small_blind: int, big_blind: int) -> bool:
    """Whether button, small blind and big blind are distinct and met in that order going clockwise."""
    if len({button, small_blind, big_blind}) != 3:
        return False
    return (small_blind - button) % seat_count < (big_blind - button) % seat_count
