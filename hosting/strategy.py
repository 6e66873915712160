"""How practice bots decide: hand strength by quick Monte-Carlo equity, pot odds, a style, a few bluffs.

Works for every game of ``engine.variants``: the equity simulation completes the bot's own cards, the board
and each opponent's cards from the unseen part of the game's deck, and ranks them with the game's own fast
evaluator (``engine.evaluate``): high, Omaha's two-plus-three, 8-or-better low halves, 2-7 and 32-card.
Draws are simulated as standing pat (a cheap, slightly pessimistic estimate). The RNG is passed in, so a
seeded bot plays the same way twice.

Styles (``STYLES``): ``tight`` folds more and bets its good hands, ``loose`` calls more, ``aggressive`` bets
and raises more and bluffs more often, ``steady`` is in between.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import view as hand_view
from engine.cards import Card
from engine.events import BlindPosted, Event, HandStarted
from engine.variants import VARIANTS, Variant
from hosting.push_fold import push_or_fold


@dataclass(frozen=True)
class Style:
    """``continue_at``: relative equity (1.0 = an average share of the pot) under which a bet is folded unless
    the pot odds pay; ``bet_at``/``raise_at``: relative equity to bet / raise for value; ``bluff``: chance to
    bet or raise anyway; ``size``: bet as a share of the pot."""

    name: str
    continue_at: float
    bet_at: float
    raise_at: float
    bluff: float
    size: float


STYLES: dict[str, Style] = {
    "tight": Style("tight", 1.0, 1.35, 1.7, 0.03, 0.66),
    "steady": Style("steady", 0.85, 1.25, 1.6, 0.06, 0.6),
    "loose": Style("loose", 0.65, 1.3, 1.8, 0.05, 0.5),
    "aggressive": Style("aggressive", 0.8, 1.1, 1.4, 0.14, 0.8),
}


@dataclass
class HandView:
    """What one bot knows of the hand in play: its cards, the board, cards others showed, the pot (chips)."""

    variant: Variant
    mine: list[Card] = field(default_factory=list)
    board: list[Card] = field(default_factory=list)
    seen: set[Card] = field(default_factory=set)  # other players' up cards and discards we saw
    opponents: int = 1
    pot: int = 0
    structure: str = ""  # "no_limit", "pot_limit", "fixed_limit" ("": unknown)
    big_blind: int = 0  # the hand's big blind (0: none or unknown)
    chips: int = 0  # the bot's stack behind plus its bet this round
    to_match: int = 0  # the street total to match


def _strength_functions(variant: Variant) -> tuple[Callable[[Sequence[int], Sequence[int]], int],
                                                    Callable[[Sequence[int], Sequence[int]], int] | None]:
    """(high(own, board), low(own, board) or None) from the variant's one ranking object (the showdown's): bigger
    is better for both; a low of 0 does not qualify."""
    ranking = variant.hand_ranking
    return ranking.strength, (ranking.low_strength if ranking.has_low else None)


def equity(view: HandView, rng: random.Random, samples: int = 80) -> float:
    """The share of the pot ``view``'s cards win on average against random hands (0..1), by simulation."""
    variant = view.variant
    own_count = max(variant.hole_card_count, len(view.mine))
    board_count = variant.board_card_count
    known = set(view.mine) | set(view.board) | view.seen
    unseen = [card for card in variant.deck if card not in known]
    need_mine = own_count - len(view.mine)
    need_board = max(0, board_count - len(view.board))
    room = len(unseen) - need_mine - need_board
    opponents = max(1, min(view.opponents, room // max(own_count, 1)))
    if len(view.mine) + need_mine < variant.hand_size - board_count or room < own_count:
        return 1.0 / (view.opponents + 1)
    high, low = _strength_functions(variant)
    total = 0.0
    for _ in range(samples):
        drawn = rng.sample(unseen, need_mine + need_board + opponents * own_count)
        mine = [*view.mine, *drawn[:need_mine]]
        board = [*view.board, *drawn[need_mine:need_mine + need_board]]
        rest = drawn[need_mine + need_board:]
        hands = [mine] + [rest[index * own_count:(index + 1) * own_count] for index in range(opponents)]
        total += _share(hands, board, high, low)
    return total / samples


def _share(hands: list[list[Card]], board: list[Card], high: Callable[[Sequence[int], Sequence[int]], int],
           low: Callable[[Sequence[int], Sequence[int]], int] | None) -> float:
    """Hand 0's share of one simulated showdown (ties split; hi/lo halves when a low qualifies)."""
    highs = [high(hand, board) for hand in hands]
    high_share = (highs[0] == max(highs)) / highs.count(max(highs))
    if low is None:
        return high_share
    lows = [low(hand, board) for hand in hands]
    best_low = max(lows)
    if best_low == 0:
        return high_share
    low_share = (lows[0] == best_low) / lows.count(best_low)
    return (high_share + low_share) / 2


def discards(view: HandView, max_discards: int) -> list[Card]:
    """Cards to throw in a draw round: keep pairs and better (high games), keep low cards (lowball)."""
    mine = view.mine
    if view.variant.hand_ranking.lowball:
        by_rank = sorted(mine, key=lambda card: card.rank)
        keep: list[Card] = []
        for card in by_rank:
            if card.rank <= 8 and all(card.rank != kept.rank for kept in keep):  # 2..8 unpaired
                keep.append(card)
        throw = [card for card in mine if card not in keep]
        return throw[:max_discards]
    counts: dict[int, int] = {}
    for card in mine:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    paired = [card for card in mine if counts[card.rank] >= 2]
    if paired:
        throw = [card for card in mine if counts[card.rank] == 1]
    else:  # keep the highest card, draw to it
        highest = max(mine, key=lambda card: card.rank)
        throw = [card for card in mine if card != highest]
    return sorted(throw, key=lambda card: card.rank)[:max_discards]


def decide(legal: dict[str, Any], view: HandView, style: Style, rng: random.Random,
           samples: int = 80) -> dict[str, Any]:
    """One legal move for an ``action_request``'s ``legal`` options: ``{"kind": …, "amount"?, "discard"?}``."""
    if legal.get("can_show") or legal.get("can_muck"):
        return {"kind": "show" if legal.get("can_show") else "muck"}
    if legal.get("max_discards"):
        return {"kind": "draw", "discard": [str(card) for card in discards(view, int(legal["max_discards"]))]}
    short = short_stack_move(legal, view)
    if short is not None:
        return short
    share = equity(view, rng, samples)
    relative = share * (view.opponents + 1)
    minimum, maximum = legal.get("min_raise_to"), legal.get("max_raise_to")
    bluffing = rng.random() < style.bluff

    def sized(kind: str) -> dict[str, Any]:
        assert minimum is not None and maximum is not None
        target = int(minimum + style.size * max(view.pot, 0) * (0.75 + rng.random() / 2))
        return {"kind": kind, "amount": max(minimum, min(maximum, target))}

    if legal.get("bring_in_amount") is not None and not legal.get("can_check"):
        if minimum is not None and relative >= style.raise_at:
            return sized("raise_to")
        return {"kind": "bring_in"}
    if legal.get("can_check"):
        if minimum is not None and (relative >= style.bet_at or bluffing):
            return sized("bet" if legal.get("is_bet") else "raise_to")
        return {"kind": "check"}
    to_call = legal.get("call_amount")
    if to_call is None:
        return {"kind": "fold"}
    pot_odds = to_call / max(view.pot + to_call, 1)
    if minimum is not None and (relative >= style.raise_at or (bluffing and relative >= 0.5)):
        return sized("raise_to")
    if relative >= style.continue_at or share >= pot_odds:
        return {"kind": "call"}
    return {"kind": "fold"} if legal.get("can_fold", True) else {"kind": "call"}


def short_stack_move(legal: dict[str, Any], view: HandView) -> dict[str, Any] | None:
    """Push or fold (:mod:`hosting.push_fold`) before the flop of no-limit hold'em with 10 big blinds or fewer."""
    holdem = view.variant.hole_card_count == 2 and view.variant.board_card_count == 5
    if not holdem or view.structure != "no_limit" or view.board:
        return None
    return push_or_fold(legal, view.mine, big_blind=view.big_blind, chips=view.chips, to_match=view.to_match)


class Tracker:
    """A :class:`HandView` per table for :func:`decide`, from the room's events of one player's view.

    The hand's state is the one reducer's (:class:`engine.view.HandView`), fed each event as it arrives; at a
    decision :meth:`view` reads from it what the equity needs: the bot's cards, the board, the cards it saw
    elsewhere (others' up cards, its own discards), the opponents still in and the pot."""

    def __init__(self, seat_of: Callable[[str], int | None], game_of: Callable[[str], str]) -> None:
        self._seat_of = seat_of
        self._game_of = game_of
        self.hands: dict[str, hand_view.HandView] = {}
        self.big_blinds: dict[str, int] = {}  # the current hand's big blind at each table (0: none posted)

    def on_event(self, table: str, event: Event) -> None:
        hand = self.hands.get(table)
        if hand is None:
            hand = self.hands[table] = hand_view.HandView()
        if isinstance(event, HandStarted):
            self.big_blinds[table] = 0
        elif isinstance(event, BlindPosted) and event.kind == "big_blind" and not event.all_in:
            self.big_blinds[table] = event.amount  # a big blind all in for less says nothing of the level
        hand.apply(event)

    def view(self, table: str) -> HandView:
        hand = self.hands.get(table)
        # the hand's own game: a mixed table changes game between hands (R-MIX-1)
        variant = VARIANTS.get(hand.variant if hand is not None else "") or VARIANTS[self._game_of(table)]
        if hand is None:
            return HandView(variant)
        me = self._seat_of(table)
        own = hand.seats.get(me) if me is not None else None
        seen = {card for seat, info in hand.seats.items() if seat != me for card in info.up_cards}
        if own is not None:
            seen.update(own.discarded)
        players = {seat for seat, info in hand.seats.items() if info.in_hand and not info.folded}
        opponents = len(players - {me}) if me is not None else len(players) - 1
        return HandView(variant, list(own.cards) if own is not None else [], list(hand.board), seen,
                        max(1, opponents), hand.pot_total, hand.structure, self.big_blinds.get(table, 0),
                        own.stack + own.bet if own is not None else 0, hand.highest_bet)
