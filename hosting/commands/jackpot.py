"""``croupier jackpot [--data DIR]`` lists a room's jackpot pools; ``croupier jackpot seed POOL CHIPS`` adds chips
to one (R-JACK-1, R-JACK-2): new chips, one ledger row issue → jackpot with the pool's name, so the audit's
conservation holds.

Seeding writes to the room's database, so the room must be stopped (the data directory's lock says whether it
runs; a running room keeps its pools in memory). Bad input — an unknown pool, chips that are not a whole
number above 0, a directory that holds no room — is refused with one line and exit status 2; nothing changes.
"""

from __future__ import annotations

import argparse
import sys

from engine.jackpot import JACKPOT_GAMES
from hosting import datadir
from hosting.commands.audit import data_dir_of
from hosting.store import Store, StoreError, database_path, jackpot_pools

MAX_SEED = 10**12


def pool_names() -> tuple[str, ...]:
    """Every pool a room can have: a bad-beat pool per game family, Hold'em's Monte-Carlo and smart pools."""
    families = sorted(set(JACKPOT_GAMES.values()))
    return (*(f"bad_beat_{family}" for family in families), "monte_carlo_holdem", "smart_holdem")


def _fail(message: str) -> int:
    print(f"croupier jackpot: {message}", file=sys.stderr)
    return 2


def run(arguments: argparse.Namespace) -> int:
    data_dir = data_dir_of(arguments)
    if not database_path(data_dir).exists():
        return _fail(f"{data_dir} holds no room (no {database_path(data_dir).name}); use --data DIR")
    if getattr(arguments, "action", None) != "seed":
        return _list(data_dir)
    pool, chips = arguments.pool, arguments.chips
    if pool not in pool_names():
        return _fail(f"there is no jackpot pool {pool!r}; pools: {', '.join(pool_names())}")
    if not chips.isdigit() or not 0 < int(chips) <= MAX_SEED:
        return _fail(f"seed a whole number of chips from 1 to {MAX_SEED}, not {chips!r}")
    try:
        datadir.claim(data_dir)
    except datadir.DataDirInUse as busy:
        return _fail(f"{busy} (seed the pool while the room is stopped)")
    try:
        store = Store.open(data_dir)
    except StoreError as problem:
        return _fail(str(problem))
    try:
        store.seed_jackpot(pool, int(chips), reason="jackpot seed by the host")
        print(f"{pool}: {store.jackpot_pool(pool)} chips (+{int(chips)})")
    finally:
        store.close_now()
        datadir.release(data_dir)
    return 0


def _list(data_dir: object) -> int:
    from pathlib import Path

    from hosting.store import connect

    try:
        connection = connect(Path(str(data_dir)), read_only=True)
    except StoreError as problem:
        return _fail(str(problem))
    try:
        pools = jackpot_pools(connection)
    finally:
        connection.close()
    for name in pool_names():
        print(f"{name}: {pools.get(name, 0)} chips")
    return 0
