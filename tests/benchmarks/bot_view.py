"""Benchmark: how fast a practice bot follows a hand (hosting.strategy.Tracker over engine.view.HandView).

Random-action hands (6-max no-limit hold'em, fixed-limit 7-card stud, fixed-limit 2-7 triple draw) are played
once, untimed; each seat's own view of each hand (engine.events.view_for) is then fed to a fresh Tracker event by
event, and at every decision of that seat the Tracker builds the bot's HandView, as a bot does at bot speed.
Timed in CPU seconds of this process (``time.process_time``: other processes on a shared machine count for
nothing), best of ``--passes``. Prints one JSON line:

    {"events_per_second": …, "decisions_per_second": …, "decide_per_second": …, "events": …, "decisions": …}

``decisions_per_second``: Tracker views built (the state the bot decides from); ``decide_per_second``: whole
decisions with the strategy's equity (40 samples, as ``croupier bots`` plays), for scale.

Usage: python tests/benchmarks/bot_view.py [--hands N] [--passes P]
"""

from __future__ import annotations

import argparse
import json
import random
import time
import typing
from typing import Any

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold
from engine.events import Event, view_for
from engine.hand import ForcedBets, Hand, HandConfig
from engine.structures import BettingStructure
from engine.variants import DEUCE_TO_SEVEN_TRIPLE_DRAW, SEVEN_CARD_STUD, TEXAS_HOLDEM, Variant
from hosting.strategy import STYLES, Tracker, decide

PLAYERS = 6
GAMES: tuple[tuple[Variant, BettingStructure], ...] = (
    (TEXAS_HOLDEM, BettingStructure.no_limit()),
    (SEVEN_CARD_STUD, BettingStructure.fixed_limit(2)),
    (DEUCE_TO_SEVEN_TRIPLE_DRAW, BettingStructure.fixed_limit(2)),
)
Seen = tuple[str, int, list[Any], list[tuple[int, dict[str, Any]]]]
"""One seat's view of one hand: game id, the seat, its events, (events seen before, legal options) per decision."""


def _action(hand: Hand, rng: random.Random) -> tuple[int, Action, dict[str, Any]]:
    legal = hand.legal_actions()
    assert legal is not None
    options: dict[str, Any] = {"can_check": legal.can_check, "call_amount": legal.call_amount,
                               "min_raise_to": legal.min_raise_to, "max_raise_to": legal.max_raise_to,
                               "is_bet": legal.is_bet, "can_fold": legal.can_fold,
                               "bring_in_amount": legal.bring_in_amount, "max_discards": legal.max_discards}
    if legal.max_discards is not None:
        own = hand.hole_cards(legal.seat)
        return legal.seat, Draw(tuple(card for card in own if rng.random() < 0.3)[:legal.max_discards]), options
    if legal.bring_in_amount is not None:
        return legal.seat, BringIn(), options
    choices: list[Action] = [Check() if legal.can_check else Call()]
    if legal.can_fold and not legal.can_check:
        choices.append(Fold())
    if legal.min_raise_to is not None:
        choices.append(BetOrRaise(legal.min_raise_to))
    return legal.seat, rng.choice(choices), options


def play(hands: int, seed: int) -> list[Seen]:
    """Every seat's view of ``hands`` random hands per game, with its decision points."""
    rng = random.Random(seed)
    seen: list[Seen] = []
    for variant, structure in GAMES:
        stud = variant is SEVEN_CARD_STUD
        for _ in range(hands):
            deck = list(variant.deck)
            rng.shuffle(deck)
            plan = ForcedBets(button_seat=5, small_blind_seat=None if stud else 0, small_blind=0 if stud else 1,
                              big_blind_seat=None if stud else 1, big_blind=2, ante=1 if stud else 0,
                              bring_in=1 if stud else 0)
            hand = Hand.start(HandConfig(variant, structure), dict.fromkeys(range(PLAYERS), 200), deck, plan)
            decisions: list[tuple[int, int, dict[str, Any]]] = []
            while not hand.is_over:
                seat, action, options = _action(hand, rng)
                decisions.append((seat, len(hand.events), options))
                hand.act(seat, action)
            for seat in range(PLAYERS):
                events = view_for(hand.events, seat)
                points = [(len(view_for(hand.events[:at], seat)), options)
                          for who, at, options in decisions if who == seat]
                seen.append((variant.id, seat, events, points))
    return seen


def _bodies_if_needed(seen: list[Seen]) -> list[Seen]:
    """A Tracker that takes JSON bodies (before the typed wire encoding) gets bodies, made outside the timing."""
    if typing.get_type_hints(Tracker.on_event).get("event") is Event:
        return seen
    from hosting.views import event_to_json

    return [(game, seat, [event_to_json(event) for event in events], points) for game, seat, events, points in seen]


def follow(seen: list[Seen], with_decide: bool) -> tuple[float, int, int]:
    """CPU seconds to follow every view (and build the bot's view at each decision), events, decisions."""
    events_fed = decisions = 0
    rng = random.Random(1)
    style = STYLES["steady"]
    started = time.process_time()
    for game, seat, events, points in seen:
        tracker = Tracker({"t": seat}.get, {"t": game}.__getitem__)
        position = 0
        for before, options in points:
            for event in events[position:before]:
                tracker.on_event("t", event)
            position = before
            view = tracker.view("t")
            if with_decide:
                decide(options, view, style, rng, samples=40)
            decisions += 1
        for event in events[position:]:
            tracker.on_event("t", event)
        events_fed += len(events)
    return time.process_time() - started, events_fed, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per game")
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    seen = _bodies_if_needed(play(arguments.hands, arguments.seed))
    best = min(follow(seen, with_decide=False)[0] for _ in range(arguments.passes))
    _, events, decisions = follow(seen, with_decide=False)
    decide_seconds = follow(seen[: len(seen) // 10], with_decide=True)
    print(json.dumps({
        "events_per_second": round(events / best),
        "decisions_per_second": round(decisions / best),
        "decide_per_second": round(decide_seconds[2] / decide_seconds[0]),
        "events": events,
        "decisions": decisions,
    }))


if __name__ == "__main__":
    main()
