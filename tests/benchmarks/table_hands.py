"""Benchmark: hands per second through engine.table.Table on real hands (six players, passive play).

Run: ``python tests/benchmarks/table_hands.py [HANDS]``; prints one JSON line.
"""

from __future__ import annotations

import json
import random
import sys
import time

from engine.actions import Call, Check
from engine.cards import full_deck
from engine.hand import HandConfig
from engine.structures import BettingStructure
from engine.table import Table, TableConfig
from engine.variants import TEXAS_HOLDEM


def main(hands: int) -> dict[str, object]:
    config = TableConfig(HandConfig(TEXAS_HOLDEM, BettingStructure.no_limit()), seat_count=6, small_blind=5,
                         big_blind=10, min_buy_in=200, max_buy_in=100_000)
    table = Table(config)
    rng = random.Random(1)
    for index in range(6):
        table.sit(f"player{index}", 100_000, 0.0)
    now = 0.0
    started = time.perf_counter()
    actions = 0
    for _ in range(hands):
        deck = list(full_deck())
        rng.shuffle(deck)
        table.start_hand(deck, now, button_draw_deck=deck)
        while table.hand is not None:
            turn = table.to_act()
            assert turn is not None
            options = table.hand.legal_actions()
            assert options is not None
            now += 1.0
            table.act(table.players[turn[0]].player, Check() if options.can_check else Call(), now)
            actions += 1
    elapsed = time.perf_counter() - started
    assert table.chips_on_table() == 600_000
    return {"benchmark": "table_hands", "hands": hands, "actions": actions, "seconds": round(elapsed, 3),
            "hands_per_second": round(hands / elapsed, 1)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2_000)))
