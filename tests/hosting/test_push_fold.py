"""Push or fold (hosting.push_fold, README "Tournaments"): the Chen score's worked values, the chart by stack
depth with worked cases, and a tracked bot of 10 big blinds or fewer moving all in or folding before the flop —
and playing by equity again when deeper, after the flop, or in another game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.cards import parse_cards
from engine.events import BlindPosted, HandStarted, HoleCardsDealt, Raised
from engine.variants import VARIANTS
from hosting.push_fold import CALL_CHART, PUSH_CHART, chen_score, push_or_fold
from hosting.strategy import STYLES, HandView, Tracker, decide, short_stack_move


@pytest.mark.parametrize(("cards", "score"), [
    ("As Ad", 20), ("Ks Kd", 16), ("Qs Qd", 14), ("Ts Td", 10), ("5s 5d", 5), ("2s 2d", 5),
    ("As Ks", 12), ("As Kd", 10), ("Ah Qd", 9),  # A 10, one gap -1
    ("Js Ts", 9),  # J 6 + suited 2 + connected below a queen 1
    ("9h 8h", 8),  # 4.5 + 2 + 1 = 7.5 -> 8 (halves round up)
    ("Kd 9c", 4),  # 8, three ranks between -4
    ("7s 2d", -1),  # 3.5, four or more between -5 = -1.5 -> -1
    ("5c 4c", 6),  # 2.5 + 2 + 1 = 5.5 -> 6
])
def test_chen_score_worked_values(cards: str, score: int) -> None:
    assert chen_score(parse_cards(cards)) == score
    assert chen_score(tuple(reversed(parse_cards(cards)))) == score  # order of the cards does not matter


def test_chen_score_wants_two_cards() -> None:
    with pytest.raises(ValueError, match="two hole cards"):
        chen_score(parse_cards("As Ks Qs"))


OPEN = {"can_fold": True, "call_amount": 100, "min_raise_to": 400, "max_raise_to": 1_000}  # in the small blind


@pytest.mark.parametrize(("cards", "chips", "move"), [
    # 5 BB (1,000 at 200): push 4+ (K9s 6 and K9o 4 push, Q5o 2 folds)
    ("Ks 9s", 1_000, {"kind": "raise_to", "amount": 1_000}),
    ("Kd 9c", 1_000, {"kind": "raise_to", "amount": 1_000}),
    ("Qd 5c", 1_000, {"kind": "fold"}),
    # 2.5 BB: almost any two cards (2+): Q5o pushes now, 72o (-1) still folds
    ("Qd 5c", 500, {"kind": "raise_to", "amount": 500}),
    ("7s 2d", 500, {"kind": "fold"}),
    # 7 BB: 5+ (A9o 5 pushes, K9o 4 folds)
    ("Ah 9d", 1_400, {"kind": "raise_to", "amount": 1_400}),
    ("Kd 9c", 1_400, {"kind": "fold"}),
    # 10 BB: 6+ (ATo 6 pushes, A9o 5 folds)
    ("Ah Td", 2_000, {"kind": "raise_to", "amount": 2_000}),
    ("Ah 9d", 2_000, {"kind": "fold"}),
])
def test_unraised_pot_push_chart_by_depth(cards: str, chips: int, move: dict[str, Any]) -> None:
    legal = OPEN | {"max_raise_to": chips}
    assert push_or_fold(legal, parse_cards(cards), big_blind=200, chips=chips, to_match=200) == move


def test_deeper_than_ten_big_blinds_is_not_push_or_fold() -> None:
    legal = OPEN | {"max_raise_to": 2_200}
    assert push_or_fold(legal, parse_cards("As Ad"), big_blind=200, chips=2_200, to_match=200) is None


@pytest.mark.parametrize(("cards", "to_call", "move"), [
    # facing an all-in of 8 BB with 8 BB: a call of 7.5 BB needs 9+ (AQo 9 calls, KQo 7 folds)
    ("Ah Qd", 1_500, {"kind": "call"}),
    ("Kh Qd", 1_500, {"kind": "fold"}),
    # a cheap call of 2.5 BB needs 5+ (54s 6 calls, K9o 4 folds)
    ("5c 4c", 500, {"kind": "call"}),
    ("Kd 9c", 500, {"kind": "fold"}),
])
def test_facing_an_all_in_call_chart_by_price(cards: str, to_call: int, move: dict[str, Any]) -> None:
    legal = {"can_fold": True, "call_amount": to_call}  # the raise took more than our stack: call or fold only
    assert push_or_fold(legal, parse_cards(cards), big_blind=200, chips=1_600, to_match=1_600) == move


def test_big_blind_checks_a_weak_hand_rather_than_folding() -> None:
    legal = {"can_fold": True, "can_check": True, "min_raise_to": 400, "max_raise_to": 1_000, "is_bet": False}
    assert push_or_fold(legal, parse_cards("7s 2d"), big_blind=200, chips=1_000, to_match=200) == {"kind": "check"}
    assert push_or_fold(legal, parse_cards("Ks 9s"), big_blind=200, chips=1_000, to_match=200) == \
        {"kind": "raise_to", "amount": 1_000}


def test_charts_widen_as_stacks_shrink() -> None:
    assert [score for _, score in PUSH_CHART] == sorted(score for _, score in PUSH_CHART)
    assert [score for _, score in CALL_CHART] == sorted(score for _, score in CALL_CHART)


def _tracked(stack: int, mine: str, raise_to: int | None = None) -> tuple[Tracker, dict[str, Any]]:
    """A hold'em hand at 100/200 where the bot (seat 0, on the button) has ``stack``; seat 1 posts the small
    blind, seat 2 the big blind; ``raise_to``: seat 3 (first to act) raises to it before the bot acts."""
    tracker = Tracker(lambda table: 0, lambda table: "texas_holdem")
    events: list[Any] = [HandStarted("texas_holdem", "no_limit", 0, ((1, 5_000), (2, 5_000), (3, 5_000), (0, stack))),
                         BlindPosted(1, "small_blind", 100), BlindPosted(2, "big_blind", 200),
                         HoleCardsDealt(0, parse_cards(mine))]
    if raise_to is not None:
        events.append(Raised(3, raise_to, raise_to))
    for event in events:
        tracker.on_event("t", event)
    return tracker, {"can_fold": True, "call_amount": min(stack, raise_to or 200), "min_raise_to": 400,
                     "max_raise_to": stack}


def test_a_short_tracked_bot_pushes_or_folds_and_a_deep_one_plays_by_equity() -> None:
    rng = random.Random(1)
    tracker, legal = _tracked(1_800, "Ah Td")  # 9 BB, ATo 6: push
    assert tracker.view("t").big_blind == 200 and tracker.view("t").chips == 1_800
    assert decide(legal, tracker.view("t"), STYLES["tight"], rng) == {"kind": "raise_to", "amount": 1_800}
    tracker, legal = _tracked(1_800, "Kd 9c")  # 9 BB, K9o 4: fold
    assert decide(legal, tracker.view("t"), STYLES["loose"], rng) == {"kind": "fold"}
    tracker, legal = _tracked(1_800, "Kh Qd", raise_to=1_800)  # a shove of 9 BB: KQo 7 folds to it
    assert tracker.view("t").to_match == 1_800
    assert decide(legal, tracker.view("t"), STYLES["loose"], rng) == {"kind": "fold"}
    tracker, legal = _tracked(1_800, "Ah Qd", raise_to=1_800)  # AQo 9 calls it
    assert decide(legal, tracker.view("t"), STYLES["tight"], rng) == {"kind": "raise_to", "amount": 1_800}
    # deep (50 BB): never a shove of 50 BB with ATo; the equity strategy decides (call, a sized raise, a fold)
    tracker, legal = _tracked(10_000, "Ah Td")
    amounts = {decide(legal, tracker.view("t"), STYLES["tight"], random.Random(seed)).get("amount")
               for seed in range(20)}
    assert 10_000 not in amounts


def test_push_or_fold_only_in_no_limit_holdem_before_the_flop() -> None:
    legal = OPEN | {"max_raise_to": 1_000}
    short: dict[str, Any] = {"big_blind": 200, "chips": 1_000, "to_match": 200, "pot": 300}
    holdem, omaha = VARIANTS["texas_holdem"], VARIANTS["omaha"]
    preflop = HandView(holdem, list(parse_cards("7s 2d")), structure="no_limit", **short)
    assert short_stack_move(legal, preflop) == {"kind": "fold"}
    assert short_stack_move(legal, HandView(holdem, list(parse_cards("Ks 9s")), structure="no_limit", **short)) \
        == {"kind": "raise_to", "amount": 1_000}
    others = [HandView(holdem, list(parse_cards("7s 2d")), list(parse_cards("Kh 8c 3d")), structure="no_limit",
                       **short),
              HandView(omaha, list(parse_cards("7s 2d 3c 9h")), structure="no_limit", **short),
              HandView(holdem, list(parse_cards("7s 2d")), structure="pot_limit", **short),
              HandView(holdem, list(parse_cards("7s 2d")), structure="no_limit", **(short | {"big_blind": 0}))]
    assert [short_stack_move(legal, view) for view in others] == [None] * 4
