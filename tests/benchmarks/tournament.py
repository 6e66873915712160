"""Benchmark: whole tournaments played to one winner in this process, on the director's tables (real engine
Hands), by simple bots (issue 17).

Run: ``python tests/benchmarks/tournament.py [freezeout|pko|rebuy|all] [ENTRANTS]``; prints one JSON line per
run: ``entrants``, ``tables_at_start``, ``hands``, ``player_moves``, ``tables_broken``, ``seconds``,
``cpu_seconds`` (this process's CPU time: on a shared, loaded machine the wall time is mostly other
programs'), ``peak_rss_mib`` (the process's peak resident memory), and each conservation check as a ``*_ok`` boolean.
Target (issue 17): the 3,000-entrant freezeout under 60 s on these machines.

The clock is simulated: every round of play (one action at each running hand) is 10 seconds, levels last
10 minutes. Bots fold, call or shove (8% of decisions), so stacks move as in a fast online tournament.
"""

from __future__ import annotations

import json
import random
import resource
import sys
import time
from typing import Any

import _on_path  # noqa: F401 - first: as a file, the repository's tests package (_on_path.py)

from engine.events import Event
from engine.tournament.bounties import BountySettings
from engine.tournament.director import Phase, Tournament
from engine.tournament.events import AddedOn, BountyWon, Eliminated, PlayerMoved, PrizeAwarded, Rebought, TableBroken
from engine.tournament.levels import turbo_schedule
from engine.tournament.money import Balance, EntryPrice
from engine.tournament.settings import AddOn, Rebuys, TournamentSettings
from tests.engine.tournament.simulation import Bot, play

SCHEDULE = turbo_schedule(20, minutes=10, count=28)


def _settings(kind: str, entrants: int) -> TournamentSettings:
    common: dict[str, Any] = {"tournament_id": f"bench-{kind}", "start_time": 0.0, "schedule": SCHEDULE,
                              "seats_per_table": 9, "starting_stack": 10_000, "max_players": 3_000}
    if kind == "pko":
        return TournamentSettings(price=EntryPrice(50, 10, knockout=50),
                                  bounties=BountySettings(progressive=True), **common)
    if kind == "rebuy":
        return TournamentSettings(
            price=EntryPrice(100, 10),
            rebuys=Rebuys(until_seconds=3_600, threshold=10_000, chips=10_000, price=100, fee=10),
            add_on=AddOn(chips=15_000, price=100, fee=10, window_seconds=600), **common)
    return TournamentSettings(price=EntryPrice(100, 10), **common)


def run(kind: str, entrants: int, seed: int = 1) -> dict[str, object]:
    rng = random.Random(seed)
    tournament = Tournament(_settings(kind, entrants), rng.randrange)
    tournament.open_registration(0)
    for index in range(entrants):
        tournament.register(f"player{index}", Balance(), 0)
    started = time.perf_counter()
    cpu_started = time.process_time()
    tournament.tick(0)
    tables_at_start = len(tournament.tables)
    totals = {"prizes": 0, "bounties": 0, "rebuys": 0, "add_ons": 0}
    checks = {"money_balanced_ok": True, "chips_conserved_ok": True, "one_table_per_entry_ok": True}

    def after_step(current: Tournament, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, PrizeAwarded):
                totals["prizes"] += event.amount
            elif isinstance(event, BountyWon):
                totals["bounties"] += event.amount
        if not current.cashier.balanced():
            checks["money_balanced_ok"] = False
        # Every hand checks its own table's chips (the table raises if a chip is created or lost); all the
        # tables are counted whenever chips change tables or leave the game (per action it would dominate).
        moved = any(isinstance(event, (PlayerMoved, TableBroken, Eliminated, Rebought, AddedOn)) for event in events)
        if moved and current.chips_in_play() + current.chips_retired != current.chips_issued:
            checks["chips_conserved_ok"] = False
        if any(isinstance(event, (PlayerMoved, TableBroken)) for event in events):
            seated = [s.entry for table in current.tables.values() for s in table.seats.values()]
            if len(seated) != len(set(seated)) or any(current.entries[e].table is None for e in seated):
                checks["one_table_per_entry_ok"] = False

    def players_act(current: Tournament, table_number: int, now: float) -> list[Event]:
        events: list[Event] = []
        for entry in [e for e in current.entries.values() if e.pending_rebuy]:
            if rng.random() < 0.6:
                events += current.rebuy(entry.number, Balance(), now)
                totals["rebuys"] += 1
            else:
                events += current.decline_rebuy(entry.number, now)
        add_on = current.settings.add_on
        rebuys = current.settings.rebuys
        if add_on is not None and rebuys is not None and table_number in current.tables:
            elapsed = current.elapsed(now)
            if rebuys.until_seconds <= elapsed < rebuys.until_seconds + add_on.window_seconds:
                for seated in current.tables[table_number].seats.values():
                    state = current.entries[seated.entry]
                    if not state.added_on and not state.pending_rebuy:
                        events += current.add_on(seated.entry, Balance(), now)
                        totals["add_ons"] += 1
        return events

    played = play(tournament, rng, bot=Bot(shove=0.08, call=0.35), seconds_per_round=10.0, after_step=after_step,
                  on_hand_end=players_act if kind == "rebuy" else None)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    peak_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    cashier = tournament.cashier
    entries = tournament.entries.values()
    places = sorted(entry.place or 0 for entry in entries)
    return {
        "benchmark": "tournament", "kind": kind, "entrants": entrants, "tables_at_start": tables_at_start,
        "hands": played.hands, "player_moves": tournament.moves, "tables_broken": tournament.tables_broken,
        "rebuys": totals["rebuys"], "add_ons": totals["add_ons"],
        "seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2),
        "peak_rss_mib": round(peak_rss_kib / 1024, 1),
        "completed_ok": tournament.phase is Phase.COMPLETE,
        "winner_has_every_chip_ok": tournament.chips_retired == tournament.chips_issued,
        **checks,
        "everyone_ranked_once_ok": places[0] == 1 and all(place > 0 for place in places),
        "pool_paid_exactly_ok": cashier.pool == 0 and totals["prizes"] == cashier.paid_out - totals["bounties"],
        "bounties_paid_exactly_ok": cashier.bounty_fund == 0,
        "paid_in_equals_prizes_fees_bounties_ok":
            cashier.paid_in + cashier.house_funded == totals["prizes"] + cashier.fees + totals["bounties"],
    }


def main(argv: list[str]) -> None:
    kind = argv[1] if len(argv) > 1 else "freezeout"
    sizes = {"freezeout": 3_000, "pko": 1_000, "rebuy": 300}
    kinds = list(sizes) if kind == "all" else [kind]
    for name in kinds:
        entrants = int(argv[2]) if len(argv) > 2 else sizes[name]
        print(json.dumps(run(name, entrants)), flush=True)


if __name__ == "__main__":
    main(sys.argv)
