"""Jackpots: bad beat (R-JACK-1), Monte-Carlo and "smart" (R-JACK-2) — pure functions on shown hands.

The pool itself (one per jackpot type, shared by every table of that type) lives in the room; this module says
how much of a hand's rake feeds it (:func:`contribution_from_rake`), whether a table and a hand can win it
(:func:`table_is_eligible`), whether a shown hand qualifies (:func:`bad_beat_hand`), how a pool is split
(:func:`split_bad_beat`), and — all of it for one finished hand — :func:`settle_hand`.

Sources: seeds/000 "Jackpot" (types, "both hole cards", pocket pair below quads, must show, Omaha 2+3, the
rake share example 5 % of $3 = 15 cents) and seeds/004 "Jackpot" (Q-Q-Q-Q-x in Hold'em, straight flush 6-10 in
Omaha, four aces in 5-card draw, 40/20/20/20, no play money / heads-up / tournaments / stakes below 0.05/0.10).

>>> from engine.cards import parse_cards
>>> bad_beat_hand("holdem", parse_cards("Qs Qh"), parse_cards("Qd Qc 9s Ts Js")).category
'four of a kind'
>>> split_bad_beat(10_000, losers=[3], winners=[1], others=[2, 4, 5])
BadBeatPayout(shares={3: 4000, 1: 2000, 2: 666, 4: 666, 5: 666}, next_pool=2002)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from engine.cards import Card, Rank
from engine.evaluate import HandValue, best_high, evaluate_high
from engine.events import Event, HandEnded
from engine.rake import Percentage
from engine.view import HandView

JackpotGame = Literal["holdem", "omaha", "five_card_draw"]

#: Percent of the pool to the losing hand, the winner(s), the others dealt in; the rest seeds the next pool.
LOSER_PERCENT: Final = 40
WINNER_PERCENT: Final = 20
OTHERS_PERCENT: Final = 20

#: The rulebooks' example share of the rake that funds the pool: 5 % (seeds/000).
DEFAULT_RAKE_SHARE: Final = Percentage(5, 100)

_QUADS: Final = "four of a kind"

#: The lowest Hold'em four of a kind that qualifies for the bad-beat jackpot, by table setting (R-JACK-1
#: decision, turn 2): "four_queens" by default (seeds/000 and one line of seeds/004), "four_tens" for the other
#: line of seeds/004 (Caradepoker); any rank can be named.
QUALIFYING_QUADS: Final[dict[str, Rank]] = {
    f"four_{plural}": Rank(rank) for rank, plural in enumerate(
        ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
         "kings", "aces"), start=2)
}
DEFAULT_QUALIFYING_QUADS: Final = "four_queens"
_STRAIGHT_FLUSHES: Final = frozenset({"straight flush", "royal flush"})


#: The bad-beat jackpot type of each game that has one (R-JACK-1): one pool per type, shared by its tables.
JACKPOT_GAMES: Final[dict[str, JackpotGame]] = {
    "texas_holdem": "holdem",
    "omaha": "omaha",
    "omaha_hi_lo": "omaha",
    "omaha_five_card": "omaha",
    "omaha_five_card_3_hole": "omaha",
    "five_card_draw": "five_card_draw",
}


class JackpotError(ValueError):
    """Bad jackpot input: an unknown game, a negative pool, a seat in two roles, no loser or no winner."""


def contribution_from_rake(rake: int, share: Percentage = DEFAULT_RAKE_SHARE) -> int:
    """Chips of a hand's ``rake`` that go to the jackpot pool, rounded down (R-JACK-1).

    >>> contribution_from_rake(300)   # seeds/000: 5 % of a $3 rake is 15 cents
    15
    """
    if rake < 0:
        raise JackpotError(f"rake cannot be negative, got {rake}")
    return share.rake(rake)


def table_is_eligible(
    *,
    play_money: bool,
    tournament: bool,
    table_seats: int,
    players_dealt_in: int,
    big_blind: int,
    minimum_big_blind: int,
) -> bool:
    """Whether a hand can win a jackpot (R-JACK-1): real money, cash game, not heads-up, stakes high enough.

    Heads-up means a table of two seats, or a hand that only two players were dealt into (croupier's reading
    of "mesas uno contra uno": the others' share would have nobody to go to, and two players alone could
    farm the pool). ``minimum_big_blind`` is the table setting (seeds/004: 0.05/0.10 → 10 cents).

    >>> table_is_eligible(play_money=False, tournament=False, table_seats=6, players_dealt_in=6,
    ...                   big_blind=10, minimum_big_blind=10)
    True
    >>> table_is_eligible(play_money=False, tournament=False, table_seats=6, players_dealt_in=6,
    ...                   big_blind=4, minimum_big_blind=10)
    False
    """
    heads_up = table_seats <= 2 or players_dealt_in <= 2
    return not (play_money or tournament or heads_up or big_blind < minimum_big_blind)


def _straight_high(cards: Sequence[Card]) -> int:
    ranks = sorted((card.rank for card in cards), reverse=True)
    return Rank.FIVE if ranks == [14, 5, 4, 3, 2] else ranks[0]


def _quads_rank(value: HandValue) -> int:
    ranks = [card.rank for card in value.cards]
    return max(set(ranks), key=ranks.count)


def _both_hole_cards_play(hole: Sequence[Card], board: Sequence[Card]) -> HandValue | None:
    """The player's best hand if it can be made with both hole cards (seeds/000), else None."""
    best = best_high(hole, board)
    with_both = best_high(hole, board, must_use_hole=2)
    return with_both if with_both.strength == best.strength else None


def bad_beat_hand(
    game: JackpotGame, hole: Sequence[Card], board: Sequence[Card] = (), *, must_use_hole: int = 2,
    holdem_quads: Rank = Rank.QUEEN,
) -> HandValue | None:
    """The shown hand's value if it is good enough for the bad-beat jackpot, else None (R-JACK-1).

    - ``"holdem"``: four of a kind of ``holdem_quads`` (the table setting, default queens; see
      :data:`QUALIFYING_QUADS`) or better with both hole cards playing; quads need a pocket pair of that rank.
    - ``"omaha"`` (and Omaha Hi/Lo, 5-card Omaha): a straight flush 6-10 or better, 2 hole + 3 board
      (``must_use_hole=3`` for the 5-card Omaha house rule).
    - ``"five_card_draw"``: four aces or better of the five cards in ``hole`` (``board`` empty).

    Raises :class:`JackpotError` on an unknown game, ``ValueError`` on bad cards.

    >>> from engine.cards import parse_cards
    >>> bad_beat_hand("holdem", parse_cards("Qs 9h"), parse_cards("Qd Qc Qh Ts Js")) is None  # no pocket pair
    True
    >>> bad_beat_hand("omaha", parse_cards("6h 7h 2c 2d"), parse_cards("8h 9h Th Ks Kd")).category
    'straight flush'
    """
    if game == "holdem":
        value = _both_hole_cards_play(hole, board)
        if value is None:
            return None
        if value.category in _STRAIGHT_FLUSHES:
            return value
        pocket_pair = len(hole) == 2 and hole[0].rank == hole[1].rank
        if value.category == _QUADS and pocket_pair and _quads_rank(value) == hole[0].rank >= holdem_quads:
            return value
        return None
    if game == "omaha":
        value = best_high(hole, board, must_use_hole=must_use_hole)
        if value.category in _STRAIGHT_FLUSHES and _straight_high(value.cards) >= Rank.TEN:
            return value
        return None
    if game == "five_card_draw":
        value = evaluate_high(tuple(hole) + tuple(board))
        if value.category in _STRAIGHT_FLUSHES or (value.category == _QUADS and _quads_rank(value) == Rank.ACE):
            return value
        return None
    raise JackpotError(f"no bad-beat jackpot for game {game!r}; expected holdem, omaha or five_card_draw")


@dataclass(frozen=True)
class BadBeat:
    """A qualifying bad beat: the seats whose best qualifying hand lost the main pot, the main-pot winners and
    (when known, see :func:`bad_beat_from_events`) the other seats dealt in, who share 20 %."""

    losers: tuple[int, ...]
    loser_hand: HandValue
    winners: tuple[int, ...]
    others: tuple[int, ...] = ()


def find_bad_beat(
    game: JackpotGame,
    shown: Mapping[int, Sequence[Card]],
    board: Sequence[Card],
    main_pot_winners: Collection[int],
    *,
    must_use_hole: int = 2,
    holdem_quads: Rank = Rank.QUEEN,
) -> BadBeat | None:
    """The bad beat of a hand, if any (R-JACK-1).

    ``shown``: hole cards of every seat that showed at showdown (mucked hands never qualify: "hands must be
    shown"). ``main_pot_winners``: the seats that won the main pot (the high half in Omaha Hi/Lo). Only the best
    qualifying losing hand wins; equal best losing hands share the loser's part.

    >>> from engine.cards import parse_cards
    >>> beat = find_bad_beat("holdem", {1: parse_cards("Kh Kd"), 3: parse_cards("As Qs")},
    ...                      parse_cards("Kc Ks Js Ts 3h"), main_pot_winners={3})
    >>> beat.losers, beat.winners, beat.loser_hand.category
    ((1,), (3,), 'four of a kind')
    """
    if not main_pot_winners:
        raise JackpotError("a bad beat needs the winners of the main pot")
    best: HandValue | None = None
    losers: list[int] = []
    for seat, hole in sorted(shown.items()):
        if seat in main_pot_winners:
            continue
        value = bad_beat_hand(game, hole, board, must_use_hole=must_use_hole, holdem_quads=holdem_quads)
        if value is None or (best is not None and value < best):
            continue
        if best is None or value > best:
            best, losers = value, []
        losers.append(seat)
    if best is None:
        return None
    return BadBeat(tuple(losers), best, tuple(sorted(main_pot_winners)))


def _shown(view: HandView) -> dict[int, tuple[Card, ...]]:
    """The hands shown (R-SHOW-1), by seat; mucked hands are not among them."""
    return {seat: info.shown for seat, info in view.seats.items() if info.shown}


def _main_pot_winners(view: HandView) -> set[int]:
    """The seats awarded the main pot (its high half in hi/lo). A hand run twice (R-HOME-1) is judged on its first
    board, the one a single run would have dealt (the view's ``board``): the second board's winners do not count."""
    return {award.seat for award in view.awards
            if award.pot_index == 0 and award.share in ("whole", "high") and getattr(award, "board", 1) == 1}


def bad_beat_from_events(events: Sequence[Event], game: JackpotGame, *, must_use_hole: int = 2,
                         holdem_quads: Rank = Rank.QUEEN) -> BadBeat | None:
    """The bad beat of a finished hand, read from its events (R-JACK-1), or None.

    Shown hands are the :class:`~engine.events.HandShown` events (mucked hands never qualify); the main-pot
    winners are the seats awarded pot 0 (its high half in hi/lo); the others are the remaining seats of
    :class:`~engine.events.HandStarted`. Whether the table and stakes qualify is :func:`table_is_eligible`'s job.
    """
    view = HandView.replay(events)
    shown = _shown(view)
    winners = set(_main_pot_winners(view))
    if len(shown) < 2 or not winners:
        return None
    beat = find_bad_beat(game, shown, tuple(view.board), winners, must_use_hole=must_use_hole,
                         holdem_quads=holdem_quads)
    if beat is None:
        return None
    dealt_in = list(view.starting_stacks)
    others = tuple(seat for seat in dealt_in if seat not in beat.losers and seat not in beat.winners)
    return BadBeat(beat.losers, beat.loser_hand, beat.winners, others)


@dataclass(frozen=True)
class BadBeatPayout:
    """What a bad-beat pool pays: ``shares`` by seat, and ``next_pool``, the chips that seed the next jackpot."""

    shares: dict[int, int]
    next_pool: int


def _equal_parts(amount: int, seats: Sequence[int]) -> tuple[dict[int, int], int]:
    """``amount`` shared equally by ``seats``; returns the parts and the chips left over."""
    if not seats:
        return {}, amount
    part = amount // len(seats)
    return {seat: part for seat in seats}, amount - part * len(seats)


def split_bad_beat(
    pool: int, losers: Iterable[int], winners: Iterable[int], others: Iterable[int]
) -> BadBeatPayout:
    """Split a bad-beat pool of ``pool`` chips: 40 % loser(s), 20 % winner(s), 20 % shared by the others dealt in,
    20 % seeds the next jackpot (seeds/004, R-JACK-1).

    Integer chips: every part rounds down, equal shares within a part round down, and every chip left over by
    rounding — and the others' 20 % when nobody else was dealt in — stays in the pool for the next jackpot, so
    ``sum(shares) + next_pool == pool``. Raises :class:`JackpotError` on a negative pool, no loser or no
    winner, or a seat in two roles.

    >>> split_bad_beat(999, losers=[1], winners=[2, 3], others=[4])
    BadBeatPayout(shares={1: 399, 2: 99, 3: 99, 4: 199}, next_pool=203)
    """
    losers, winners, others = list(losers), list(winners), list(others)
    if pool < 0:
        raise JackpotError(f"a jackpot pool cannot be negative, got {pool}")
    if not losers or not winners:
        raise JackpotError("a bad beat needs at least one losing and one winning seat")
    everyone = losers + winners + others
    if len(set(everyone)) != len(everyone):
        raise JackpotError(f"a seat cannot be loser, winner and other at once: {everyone}")
    shares: dict[int, int] = {}
    left = pool
    for percent, seats in ((LOSER_PERCENT, losers), (WINNER_PERCENT, winners), (OTHERS_PERCENT, others)):
        parts, _ = _equal_parts(pool * percent // 100, seats)
        shares.update(parts)
        left -= sum(parts.values())
    assert sum(shares.values()) + left == pool, "jackpot split must conserve chips"
    return BadBeatPayout(shares, left)


@dataclass(frozen=True)
class HandJackpot:
    """What one finished hand does to its jackpot pool (R-JACK-1), in chips.

    ``pool_before``: the pool when the hand ended; ``drop``: this hand's share of the rake into the pool;
    ``beat``: the bad beat, if one paid; ``paid``: seat → chips paid out of the pool; ``pool_after`` =
    ``pool_before + drop - sum(paid)`` (asserted)."""

    pool_before: int
    drop: int
    beat: BadBeat | None
    paid: dict[int, int]
    pool_after: int

    @property
    def payout_total(self) -> int:
        return sum(self.paid.values())


def settle_hand(pool: int, events: Sequence[Event], game: JackpotGame, *, share: Percentage, eligible: bool,
                must_use_hole: int = 2, holdem_quads: Rank = Rank.QUEEN) -> HandJackpot:
    """The jackpot side of a finished hand (its whole event log, :class:`~engine.events.HandEnded` last).

    Only a hand that could win the jackpot feeds it (``eligible``: :func:`table_is_eligible` for this hand —
    croupier's reading of R-JACK-1: a heads-up hand or a table below the minimum stakes neither pays into nor
    wins the pool). Its drop, ``share`` of the hand's rake rounded down (:func:`contribution_from_rake`; the
    rest of the rake, rounding chips included, stays with the house: no chip is created or lost), goes into the
    pool first; then a bad beat (:func:`bad_beat_from_events`) is paid from the whole pool, this hand's drop
    included, by :func:`split_bad_beat` (its remainders and the 20 % seed stay in the pool). ``holdem_quads``: the
    table's qualifying Hold'em four of a kind (:data:`QUALIFYING_QUADS`).

    Raises :class:`JackpotError` for a negative pool or events that do not end with ``HandEnded``.

    >>> from engine.events import HandEnded, HandStarted
    >>> events = [HandStarted("texas_holdem", "no_limit", 0, ((0, 100), (1, 100), (2, 100))),
    ...           HandEnded(((0, 90), (1, 100), (2, 107)), rake=3)]
    >>> settle_hand(500, events, "holdem", share=Percentage(50, 100), eligible=True)
    HandJackpot(pool_before=500, drop=1, beat=None, paid={}, pool_after=501)
    """
    if pool < 0:
        raise JackpotError(f"a jackpot pool cannot be negative, got {pool}")
    ended = events[-1] if events else None
    if not isinstance(ended, HandEnded):
        raise JackpotError("a jackpot is settled on a whole hand: its events must end with HandEnded")
    if not eligible:
        return HandJackpot(pool, 0, None, {}, pool)
    drop = contribution_from_rake(ended.rake, share)
    beat = bad_beat_from_events(events, game, must_use_hole=must_use_hole, holdem_quads=holdem_quads)
    if beat is None:
        return HandJackpot(pool, drop, None, {}, pool + drop)
    payout = split_bad_beat(pool + drop, beat.losers, beat.winners, beat.others)
    paid = {seat: amount for seat, amount in payout.shares.items() if amount > 0}
    assert pool + drop == sum(paid.values()) + payout.next_pool, "jackpot settlement must conserve chips"
    return HandJackpot(pool, drop, beat, paid, payout.next_pool)


#: Hand categories a Monte-Carlo jackpot can be configured with (R-JACK-2), weakest first.
MONTE_CARLO_CATEGORIES: Final = (
    "one pair", "two pair", "three of a kind", "straight", "flush", "full house", "four of a kind",
    "straight flush", "royal flush",
)
_NEEDS_POCKET_PAIR: Final = frozenset({"one pair", "two pair", "three of a kind", "full house", "four of a kind"})


def monte_carlo_hand(
    hole: Sequence[Card], board: Sequence[Card], categories: Collection[str]
) -> HandValue | None:
    """The winning Hold'em hand's value if it wins a Monte-Carlo jackpot configured for ``categories``, else None.

    R-JACK-2 (seeds/000): Hold'em only; both hole cards must play; pairs, two pair, trips, full houses and quads
    need a pocket pair (the two hole cards form a pair). Raises :class:`JackpotError` on an unknown category.

    >>> from engine.cards import parse_cards
    >>> monte_carlo_hand(parse_cards("9h 9d"), parse_cards("9s Kd Kc 2h 3c"), {"full house"}).category
    'full house'
    >>> monte_carlo_hand(parse_cards("9h Kh"), parse_cards("9s Kd Kc 2h 3c"), {"full house"}) is None
    True
    """
    unknown = set(categories) - set(MONTE_CARLO_CATEGORIES)
    if unknown:
        raise JackpotError(f"unknown hand categories {sorted(unknown)}; expected some of {MONTE_CARLO_CATEGORIES}")
    value = _both_hole_cards_play(hole, board)
    if value is None or value.category not in categories:
        return None
    if value.category in _NEEDS_POCKET_PAIR and not (len(hole) == 2 and hole[0].rank == hole[1].rank):
        return None
    return value


def smart_jackpot_active(hour: int, active_hours: Collection[int]) -> bool:
    """Whether a "smart" bad-beat jackpot is live at ``hour`` (0-23, the room's clock) — R-JACK-2.

    >>> smart_jackpot_active(21, range(20, 24)), smart_jackpot_active(9, range(20, 24))
    (True, False)
    """
    if not 0 <= hour <= 23:
        raise JackpotError(f"hour must be 0..23, got {hour}")
    return hour in active_hours


#: Percent of a Monte-Carlo pool to the winning hand(s); the rest seeds the next pool, as a bad beat's 20 %.
MONTE_CARLO_WINNER_PERCENT: Final = 80


@dataclass(frozen=True)
class MonteCarloHit:
    """The main-pot winners whose shown hand is one of the table's Monte-Carlo hands, and that hand."""

    winners: tuple[int, ...]
    hand: HandValue


def monte_carlo_from_events(events: Sequence[Event], categories: Collection[str]) -> MonteCarloHit | None:
    """The Monte-Carlo hit of a finished Hold'em hand (R-JACK-2), or None: the main pot's winners who showed a
    hand of ``categories`` (:func:`monte_carlo_hand`: both hole cards, a pocket pair below a straight); the best
    such hand only, equal ones share. A hand won without showing never wins ("hay que mostrar las cartas")."""
    view = HandView.replay(events)
    shown = _shown(view)
    winners = sorted(_main_pot_winners(view))
    board = tuple(view.board)
    best: HandValue | None = None
    hits: list[int] = []
    for seat in winners:
        if seat not in shown:
            continue
        value = monte_carlo_hand(shown[seat], board, categories)
        if value is None or (best is not None and value < best):
            continue
        if best is None or value > best:
            best, hits = value, []
        hits.append(seat)
    return None if best is None else MonteCarloHit(tuple(hits), best)


def settle_monte_carlo(pool: int, events: Sequence[Event], categories: Collection[str], *, share: Percentage,
                       eligible: bool) -> tuple[HandJackpot, MonteCarloHit | None]:
    """The Monte-Carlo side of a finished Hold'em hand (R-JACK-2), as :func:`settle_hand` for a bad beat: the
    drop (``share`` of the rake) goes in first, then a hit is paid :data:`MONTE_CARLO_WINNER_PERCENT` % of the
    pool, shared equally by the hitting winners (rounded down); the rest seeds the next pool.

    >>> from engine.events import HandEnded, HandStarted
    >>> events = [HandStarted("texas_holdem", "no_limit", 0, ((0, 100), (1, 100), (2, 100))),
    ...           HandEnded(((0, 90), (1, 100), (2, 107)), rake=3)]
    >>> settle_monte_carlo(500, events, {"royal flush"}, share=Percentage(50, 100), eligible=True)[0].pool_after
    501
    """
    if pool < 0:
        raise JackpotError(f"a jackpot pool cannot be negative, got {pool}")
    ended = events[-1] if events else None
    if not isinstance(ended, HandEnded):
        raise JackpotError("a jackpot is settled on a whole hand: its events must end with HandEnded")
    if not eligible:
        return HandJackpot(pool, 0, None, {}, pool), None
    drop = contribution_from_rake(ended.rake, share)
    hit = monte_carlo_from_events(events, categories)
    if hit is None:
        return HandJackpot(pool, drop, None, {}, pool + drop), None
    parts, _ = _equal_parts((pool + drop) * MONTE_CARLO_WINNER_PERCENT // 100, hit.winners)
    paid = {seat: amount for seat, amount in parts.items() if amount > 0}
    return HandJackpot(pool, drop, None, paid, pool + drop - sum(paid.values())), hit
