"""Push or fold: how a bot plays a short stack before the flop in hold'em (tournaments, late, blinds high).

The rule (README "Tournaments"): with 10 big blinds or fewer behind (the bot's own stack plus what it already put
in this round, in big blinds of the hand), a bot no longer bets and calls by equity before the flop: it moves all
in or folds (checks when it may), by one hand-strength number, the **Chen score** of its two cards (Bill Chen's
formula, the field's standard quick count), against a threshold read from a chart by stack depth:

- nobody has raised (the bet to match is the big blind): **push** with a score at least ``PUSH_CHART``'s
  minimum for its depth (the shorter, the wider: at 3 BB or less almost any two cards (2+), at 8–10 BB 6+:
  pairs, A-T, K-Q, suited broadways and connectors); else check in the big blind or fold;
- someone raised (or moved all in): **call** (all in) with a score at least ``CALL_CHART``'s minimum for the
  price, the chips to call in big blinds (a cheap call is made wider, an expensive one only with strong hands);
  else fold.

Chen score: the highest card counts A 10, K 8, Q 7, J 6, 10–2 half their rank; a pair doubles it (at least 5);
suited +2; a gap between the ranks −1, −2, −4, −5 (one, two, three, four or more ranks between); +1 for
connected or one-gap cards both below a queen; halves round up. AA 20, KK 16, AKs 12, AKo 10, JTs 9, 22 5, 72o −1.

Pure: the legal options and the cards come in, one move goes out; no randomness (a push/fold bot is predictable
on purpose, the chart is the whole rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import Card

PUSH_FOLD_DEPTH = 10
"""At this many big blinds or fewer (stack plus this round's bet), a bot plays push or fold before the flop."""

PUSH_CHART: tuple[tuple[float, int], ...] = ((3, 2), (5, 4), (7, 5), (PUSH_FOLD_DEPTH, 6))
"""(stack up to this many big blinds, minimum Chen score to move all in when nobody has raised)."""

CALL_CHART: tuple[tuple[float, int], ...] = ((3, 5), (6, 7), (PUSH_FOLD_DEPTH, 9), (float("inf"), 10))
"""(chips to call up to this many big blinds, minimum Chen score to call an all-in or a raise)."""

_HIGH_CARD_HALVES = {14: 20, 13: 16, 12: 14, 11: 12}  # A 10, K 8, Q 7, J 6 (in half points); else the rank
_GAP_HALVES = {0: 0, 1: -2, 2: -4, 3: -8}  # four or more ranks between: -10


def chen_score(cards: Sequence[Card]) -> int:
    """The Chen score of two hole cards (halves rounded up).

    >>> from engine.cards import parse_cards
    >>> [chen_score(parse_cards(text)) for text in ("As Ad", "Ks Kd", "As Ks", "As Kd", "Js Ts", "2s 2d", "7s 2d")]
    [20, 16, 12, 10, 9, 5, -1]
    """
    if len(cards) != 2:
        raise ValueError(f"the Chen score is for two hole cards, got {len(cards)}")
    high, low = sorted(cards, key=lambda card: card.rank, reverse=True)
    halves = _HIGH_CARD_HALVES.get(high.rank, high.rank)
    if high.rank == low.rank:
        return max(5, halves)  # doubled: halves/2*2 points
    if high.suit == low.suit:
        halves += 4
    gap = high.rank - low.rank - 1
    halves += _GAP_HALVES.get(gap, -10)
    if gap <= 1 and high.rank < 12:
        halves += 2
    return -((-halves) // 2)  # halves round up: 7.5 -> 8, -1.5 -> -1


def _minimum(chart: tuple[tuple[float, int], ...], depth: float) -> int:
    return next(score for limit, score in chart if depth <= limit)


def push_or_fold(legal: dict[str, Any], cards: Sequence[Card], *, big_blind: int, chips: int,
                 to_match: int) -> dict[str, Any] | None:
    """The push/fold move for an ``action_request``'s ``legal`` options before the flop, or ``None`` when the
    rule does not apply (deeper than :data:`PUSH_FOLD_DEPTH`, not two known cards, no big blind known, nothing to
    decide): the caller plays its usual strategy then.

    ``chips``: the bot's stack behind plus its bet this round (its depth); ``to_match``: the street total to
    match (the big blind when nobody raised).

    >>> from engine.cards import parse_cards
    >>> legal = {"can_fold": True, "call_amount": 100, "min_raise_to": 400, "max_raise_to": 1_000}
    >>> push_or_fold(legal, parse_cards("Ks 9s"), big_blind=200, chips=1_000, to_match=200)
    {'kind': 'raise_to', 'amount': 1000}
    >>> push_or_fold(legal | {"call_amount": 700}, parse_cards("Ks 9s"), big_blind=200, chips=1_000, to_match=800)
    {'kind': 'fold'}
    """
    if len(cards) != 2 or big_blind <= 0 or chips <= 0:
        return None
    depth = chips / big_blind
    if depth > PUSH_FOLD_DEPTH or legal.get("can_show") or legal.get("can_muck") or legal.get("max_discards"):
        return None
    score = chen_score(cards)
    passive = {"kind": "check"} if legal.get("can_check") else {"kind": "fold"}
    if to_match > big_blind:  # someone raised (or moved all in) before us
        to_call = legal.get("call_amount") or 0
        return _all_in(legal) if score >= _minimum(CALL_CHART, to_call / big_blind) else passive
    return _all_in(legal) if score >= _minimum(PUSH_CHART, depth) else passive


def _all_in(legal: dict[str, Any]) -> dict[str, Any]:
    """All in: raise to the whole stack when a raise is open, else call (a call that takes the rest), else check
    (everyone else is all in already)."""
    if legal.get("max_raise_to") is not None:
        kind = "bet" if legal.get("is_bet") else "raise_to"
        return {"kind": kind, "amount": int(legal["max_raise_to"])}
    return {"kind": "call"} if legal.get("call_amount") is not None else {"kind": "check"}
