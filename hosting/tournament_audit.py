"""``croupier audit`` for tournaments (issue 18): every unit of a tournament's money is in the ledger.

For each tournament: entries (balance → pool, fees and bounties) = pool + fees + bounties, and the pool = prizes
paid + the pool left (:mod:`hosting.store.tournaments`). From the ledger's rows by tournament: nothing is negative;
what the ledger holds in its pool, fees and bounty fund equals what its director held at its last step; a
tournament that is over (complete or cancelled) holds nothing in its pool or bounty fund. One line per finding.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterator

TOURNAMENT_LOCATIONS = ("tournament", "fee", "bounty")


def tournament_holdings(connection: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """Net chips per tournament id in each of its ledger locations (pool ``tournament``, ``fee``, ``bounty``)."""
    held: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(TOURNAMENT_LOCATIONS, 0))
    for source, destination, tournament, amount in connection.execute(
            "SELECT source, destination, table_id, SUM(amount) FROM ledger WHERE source IN ('tournament', 'fee', "
            "'bounty') OR destination IN ('tournament', 'fee', 'bounty') GROUP BY source, destination, table_id"):
        if source in TOURNAMENT_LOCATIONS:
            held[tournament][source] -= amount
        if destination in TOURNAMENT_LOCATIONS:
            held[tournament][destination] += amount
    return dict(held)


def check_tournaments(connection: sqlite3.Connection) -> Iterator[str]:
    held = tournament_holdings(connection)
    saved = {row[0]: row[1:] for row in connection.execute(
        "SELECT id, status, pool, fees, bounties FROM tournaments")}
    for tournament in sorted(set(held) | set(saved)):
        ledger = held.get(tournament, dict.fromkeys(TOURNAMENT_LOCATIONS, 0))
        for location, amount in ledger.items():
            if amount < 0:
                yield f"tournament {tournament}: its {_NAMES[location]} is negative in the ledger ({amount})"
        if tournament not in saved:
            yield f"tournament {tournament}: ledger rows for a tournament the store does not have"
            continue
        status, pool, fees, bounties = saved[tournament]
        kept = {"tournament": pool, "fee": fees, "bounty": bounties}
        for location in TOURNAMENT_LOCATIONS:
            if ledger[location] != kept[location]:
                yield (f"tournament {tournament}: the ledger holds {ledger[location]} in its {_NAMES[location]}, its "
                       f"director {kept[location]}")
        if status in ("complete", "cancelled") and (ledger["tournament"] or ledger["bounty"]):
            yield (f"tournament {tournament}: {status}, but {ledger['tournament']} is left in its pool and "
                   f"{ledger['bounty']} in its bounties")


_NAMES = {"tournament": "prize pool", "fee": "fees", "bounty": "bounty fund"}
