"""Hand-evaluator speed against treys, phevaluator and PokerKit, in one process (issue 2).

Run: ``python tests/benchmarks/evaluator.py`` (``--hands``, ``--seed`` to change the sample). Prints one
JSON line with evaluations per second:

    {"croupier": …, "treys": …, "phevaluator": …, "pokerkit": …, "ratio_vs_treys": …,
     "ratio_vs_phevaluator": …, "omaha_croupier": …, "omaha_pokerkit": …}

All libraries evaluate the same random 7-card hands (PokerKit, being slow, the first ``--pokerkit-hands``
of them), each hand one call of the library's public API, cards pre-converted to the library's own
representation outside the timed loop. croupier is timed on its fast int path ``high_strength``; the
script first checks that path against the ``HandValue`` API and treys on the whole sample, and exits
non-zero on any disagreement. The fast libraries take the best of ``--repeats`` timed passes. Omaha:
4 hole + 5 board, exactly 2 + 3 (``omaha_high_strength`` against PokerKit's ``OmahaHoldemHand``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable


def _rates(runs: dict[str, tuple[int, Callable[[], object]]], repeats: int) -> dict[str, float]:
    """Evaluations per second of each run: best of ``repeats`` passes, passes interleaved so that load
    from other processes on a shared machine hits every library alike."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, (_, run) in runs.items():
            started = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - started)
    return {name: count / best[name] for name, (count, _) in runs.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="random 7-card hands (default 200,000)")
    parser.add_argument("--pokerkit-hands", type=int, default=10_000, help="PokerKit's share of them")
    parser.add_argument("--omaha-hands", type=int, default=50_000, help="random Omaha hands for croupier")
    parser.add_argument("--omaha-pokerkit-hands", type=int, default=2_000, help="PokerKit's share of them")
    parser.add_argument("--repeats", type=int, default=7, help="timed passes for the fast libraries")
    parser.add_argument("--seed", type=int, default=2026)
    arguments = parser.parse_args(argv)

    from phevaluator.evaluator import evaluate_cards
    from pokerkit import Card as PokerKitCard
    from pokerkit import OmahaHoldemHand, StandardHighHand
    from treys import Card as TreysCard
    from treys import Evaluator as TreysEvaluator

    from engine.cards import Card, full_deck
    from engine.evaluate import MAX_HIGH_STRENGTH, evaluate_high, high_strength, omaha_high_strength

    rng = random.Random(arguments.seed)
    deck = list(range(52))
    hands = [tuple(rng.sample(deck, 7)) for _ in range(arguments.hands)]
    names = [str(card) for card in full_deck()]
    treys_cards = [TreysCard.new(name) for name in names]
    pokerkit_cards = [next(iter(PokerKitCard.parse(name))) for name in names]
    treys_hands = [
        ([treys_cards[card] for card in hand[:2]], [treys_cards[card] for card in hand[2:]]) for hand in hands
    ]
    pokerkit_hands = [
        ([pokerkit_cards[card] for card in hand[:2]], [pokerkit_cards[card] for card in hand[2:]])
        for hand in hands[: arguments.pokerkit_hands]
    ]
    treys = TreysEvaluator()

    # Correctness first: the fast path, the HandValue API and treys agree on every hand of the sample.
    for index, hand in enumerate(hands):
        strength = high_strength(hand)
        if strength != MAX_HIGH_STRENGTH + 1 - treys.evaluate(*treys_hands[index]):
            print(f"croupier and treys disagree on hand {index}: {hand}", file=sys.stderr)
            return 1
        if index % 20 == 0 and evaluate_high([Card(card) for card in hand]).strength != strength:
            print(f"fast path and HandValue API disagree on hand {index}: {hand}", file=sys.stderr)
            return 1

    def run_croupier() -> None:
        for hand in hands:
            high_strength(hand)

    def run_phevaluator() -> None:
        for hand in hands:
            evaluate_cards(*hand)

    def run_treys() -> None:
        for hole, board in treys_hands:
            treys.evaluate(hole, board)

    def run_pokerkit() -> None:
        for hole, board in pokerkit_hands:
            StandardHighHand.from_game(hole, board)

    fast = _rates({"croupier": (len(hands), run_croupier), "phevaluator": (len(hands), run_phevaluator)},
                  arguments.repeats)
    slow = _rates({"treys": (len(hands), run_treys), "pokerkit": (len(pokerkit_hands), run_pokerkit)}, 1)
    croupier, phevaluator, treys_rate, pokerkit = fast["croupier"], fast["phevaluator"], slow["treys"], slow["pokerkit"]

    omaha = [tuple(rng.sample(deck, 9)) for _ in range(arguments.omaha_hands)]
    omaha_split = [(hand[:4], hand[4:]) for hand in omaha]
    omaha_pokerkit_hands = [
        ([pokerkit_cards[card] for card in hole], [pokerkit_cards[card] for card in board])
        for hole, board in omaha_split[: arguments.omaha_pokerkit_hands]
    ]

    def run_omaha_croupier() -> None:
        for hole, board in omaha_split:
            omaha_high_strength(hole, board)

    def run_omaha_pokerkit() -> None:
        for hole, board in omaha_pokerkit_hands:
            OmahaHoldemHand.from_game(hole, board)

    omaha_croupier = _rates({"croupier": (len(omaha_split), run_omaha_croupier)}, arguments.repeats)["croupier"]
    omaha_pokerkit = _rates({"pokerkit": (len(omaha_pokerkit_hands), run_omaha_pokerkit)}, 1)["pokerkit"]

    print(json.dumps({
        "croupier": round(croupier),
        "treys": round(treys_rate),
        "phevaluator": round(phevaluator),
        "pokerkit": round(pokerkit),
        "ratio_vs_treys": round(croupier / treys_rate, 2),
        "ratio_vs_phevaluator": round(croupier / phevaluator, 2),
        "omaha_croupier": round(omaha_croupier),
        "omaha_pokerkit": round(omaha_pokerkit),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
