"""The auditor's checks over a store (``croupier audit``): chips, ledger, hands, shuffles.

Each check yields findings, one line each; a clean room has none.

1. Conservation: chips issued = balances + table stacks + pots in play + rake + jackpot pools (DESIGN.md
   "Persistence and recovery"), from the ledger, and again with the stored balances and stacks; every jackpot
   row names its pool and no pool is negative (R-JACK-1).
2. Ledger consistency: every stored balance and stack equals what the ledger says; nothing is negative; every
   finished hand's ledger rows are exactly its result (table → pot per seat, pot → rake, pot → jackpot for
   the jackpot drop, pot → table per winner, jackpot → balance per bad-beat share, the pot back to zero), and
   its jackpot drop and payout conserve chips; voided hands moved nothing, or gave everything back (R-CRASH-1).
3. Hands: every finished hand's events decode, start from its snapshot and conserve chips (start = final +
   rake), and its fairness transcript re-verifies against every card the events show dealt (R-FAIR-1).
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterator

from engine.events import Event
from engine.fairness import FairnessError, Observation, SeenCard, Transcript, cards_dealt, verify
from hosting.hand_codec import CodecError
from hosting.hand_records import HAND_COLUMNS, StoredHand, decode_hand, is_tournament_hand
from hosting.host_blind_verify import check_exported
from hosting.store import HandResult, hand_result, jackpot_pools
from hosting.tournament_audit import check_tournaments


def holdings(connection: sqlite3.Connection) -> dict[str, int]:
    """Net chips per ledger location (``issue`` counts chips issued, as a positive number)."""
    totals: dict[str, int] = defaultdict(int)
    for source, destination, amount in connection.execute(
            "SELECT source, destination, SUM(amount) FROM ledger GROUP BY source, destination"):
        totals[source] -= amount
        totals[destination] += amount
    totals["issue"] = -totals["issue"]
    return dict(totals)


def pots_in_play(connection: sqlite3.Connection) -> int:
    """Chips in the pots of hands still running (a finished or voided hand's pot must be empty)."""
    value = connection.execute(
        "SELECT COALESCE(SUM(CASE WHEN destination = 'pot' THEN amount ELSE -amount END), 0) FROM ledger "
        "WHERE (source = 'pot' OR destination = 'pot') "
        "AND hand_id IN (SELECT id FROM hands WHERE status = 'running')").fetchone()[0]
    return int(value)


def check_conservation(connection: sqlite3.Connection) -> Iterator[str]:
    held = holdings(connection)
    issued = held.get("issue", 0)
    in_play = pots_in_play(connection)
    rake, jackpot = held.get("rake", 0), held.get("jackpot", 0)
    # tournaments' pools, fees and bounty funds, and tickets (hosting.store.tournaments)
    tournaments = sum(held.get(location, 0) for location in ("tournament", "fee", "bounty", "ticket"))
    in_room = held.get("balance", 0) + held.get("table", 0) + in_play + rake + jackpot + tournaments
    if issued != in_room:
        yield (f"conservation: {issued} chips issued but the ledger holds {in_room} (balances "
               f"{held.get('balance', 0)}, tables {held.get('table', 0)}, pots in play {in_play}, "
               f"rake {rake}, jackpot {jackpot}, tournaments {tournaments})")
    balances = connection.execute("SELECT COALESCE(SUM(amount), 0) FROM balances").fetchone()[0]
    stacks = connection.execute("SELECT COALESCE(SUM(amount), 0) FROM table_stacks").fetchone()[0]
    stored = balances + stacks + in_play + rake + jackpot + tournaments
    if issued != stored:
        yield (f"conservation: {issued} chips issued but balances {balances} + table stacks {stacks} + pots in "
               f"play {in_play} + rake {rake} + jackpot pools {jackpot} + tournaments {tournaments} = {stored}")
    for pool, amount in sorted(jackpot_pools(connection).items(), key=lambda item: str(item[0])):
        if pool is None:
            yield f"jackpot: {amount} chips moved in or out of the jackpot without naming a pool"
        elif amount < 0:
            yield f"jackpot: pool {pool} is negative ({amount})"


def check_ledger(connection: sqlite3.Connection) -> Iterator[str]:
    balance_by_ledger: dict[str, int] = defaultdict(int)
    stack_by_ledger: dict[tuple[str, str], int] = defaultdict(int)
    for source, destination, player, table_id, amount in connection.execute(
            "SELECT source, destination, player, table_id, SUM(amount) FROM ledger "
            "WHERE source IN ('balance', 'table') OR destination IN ('balance', 'table') "
            "GROUP BY source, destination, player, table_id"):
        for location, sign in ((source, -1), (destination, 1)):
            if location == "balance":
                balance_by_ledger[player] += sign * amount
            elif location == "table":
                stack_by_ledger[(table_id, player)] += sign * amount
    stored_balances = dict(connection.execute("SELECT name, amount FROM balances").fetchall())
    for name in sorted(set(balance_by_ledger) | set(stored_balances)):
        if balance_by_ledger.get(name, 0) != stored_balances.get(name, 0):
            yield (f"ledger: {name}'s balance is {stored_balances.get(name, 0)} but the ledger says "
                   f"{balance_by_ledger.get(name, 0)}")
        if balance_by_ledger.get(name, 0) < 0:
            yield f"ledger: {name}'s balance is negative ({balance_by_ledger[name]})"
    stored_stacks = {(table_id, name): amount for table_id, name, amount
                     in connection.execute("SELECT table_id, name, amount FROM table_stacks")}
    for key in sorted(set(stack_by_ledger) | set(stored_stacks)):
        if stack_by_ledger.get(key, 0) != stored_stacks.get(key, 0):
            yield (f"ledger: {key[1]}'s stack at {key[0]} is {stored_stacks.get(key, 0)} but the ledger says "
                   f"{stack_by_ledger.get(key, 0)}")
    orphans = connection.execute(
        "SELECT COUNT(*) FROM ledger WHERE hand_id IS NOT NULL AND hand_id NOT IN (SELECT id FROM hands)").fetchone()[0]
    if orphans:
        yield f"ledger: {orphans} row(s) name a hand the store does not have"


def _hand_rows(connection: sqlite3.Connection, hand_id: str) -> list[tuple[str, str, str | None, int, str | None]]:
    return connection.execute("SELECT source, destination, player, amount, pool FROM ledger WHERE hand_id = ?",
                              (hand_id,)).fetchall()


def _stored_jackpot(hand: StoredHand) -> Iterator[str]:
    """Problems with a finished hand's stored jackpot: drop within the rake, payout to seats dealt in."""
    stored = HandResult.from_json(hand.result) if hand.result else None
    if stored is None:
        return
    if not 0 <= stored.jackpot <= stored.rake:
        yield f"hand {hand.hand_id}: jackpot drop {stored.jackpot} is not part of its rake {stored.rake}"
    if (stored.jackpot or stored.jackpot_paid) and not stored.jackpot_pool:
        yield f"hand {hand.hand_id}: a jackpot drop or payout without a pool"
    strangers = sorted(seat for seat in stored.jackpot_paid if seat not in hand.players)
    if strangers:
        yield f"hand {hand.hand_id}: jackpot paid to seats {strangers} not dealt in"


def check_hand_ledger(connection: sqlite3.Connection, hand: StoredHand) -> Iterator[str]:
    rows = _hand_rows(connection, hand.hand_id)
    pot = sum(amount if destination == "pot" else -amount for source, destination, _, amount, _ in rows
              if "pot" in (source, destination))
    if hand.status == "voided":
        if pot:
            yield f"hand {hand.hand_id}: voided, but {pot} chips are still in its pot"
        return
    if hand.status != "finished" or hand.events is None:
        return
    if is_tournament_hand(hand):  # tournament chips: no ledger rows (the director's money is checked apart)
        if pot:
            yield f"hand {hand.hand_id}: a tournament hand with {pot} chips in the ledger's pot"
        return
    if pot:
        yield f"hand {hand.hand_id}: {pot} chips left in its pot after the result"
    try:
        result = hand_result(hand.stacks, hand.events)
    except ValueError as problem:
        yield f"hand {hand.hand_id}: {problem}"
        return
    problems = list(_stored_jackpot(hand))
    yield from problems
    if problems:
        return
    stored = HandResult.from_json(hand.result) if hand.result else result
    pool = stored.jackpot_pool
    expected: dict[tuple[str, str, str | None, str | None], int] = defaultdict(int)
    for seat, amount in result.put_in.items():
        expected[("table", "pot", hand.players[seat], None)] += amount
    for seat, amount in result.awarded.items():
        if amount:
            expected[("pot", "table", hand.players[seat], None)] += amount
    if result.rake - stored.jackpot:
        expected[("pot", "rake", None, None)] += result.rake - stored.jackpot
    if stored.jackpot:
        expected[("pot", "jackpot", None, pool)] += stored.jackpot
    for seat, amount in stored.jackpot_paid.items():
        if amount:
            expected[("jackpot", "balance", hand.players[seat], pool)] += amount
    found: dict[tuple[str, str, str | None, str | None], int] = defaultdict(int)
    for source, destination, player, amount, row_pool in rows:
        found[(source, destination, player, row_pool)] += amount
    if dict(found) != dict(expected):
        yield f"hand {hand.hand_id}: ledger rows {dict(found)} do not match its result {dict(expected)}"


def seen_cards(events: list[Event]) -> tuple[SeenCard, ...]:
    """Every card the events show dealt, per recipient in deal order (the host's full view)."""
    return tuple(SeenCard(recipient, card) for card, recipient in cards_dealt(events))


def check_transcript(hand: StoredHand) -> Iterator[str]:
    if hand.transcript is None:
        yield f"hand {hand.hand_id}: no fairness transcript"
        return
    assert hand.events is not None
    if "host_blind" in hand.transcript:  # fairness v2: the signed transcript, checked in full
        yield from check_exported(f"hand {hand.hand_id}", hand.transcript["host_blind"],
                                  seen_cards(list(hand.events)), hand.transcript.get("button_draw"))
        return
    try:
        transcript = Transcript.from_json(hand.transcript)
    except FairnessError as problem:
        yield f"hand {hand.hand_id}: {problem}"
        return
    if transcript.hand_id != hand.hand_id or transcript.table_id != hand.table_id:
        yield f"hand {hand.hand_id}: its transcript is for hand {transcript.hand_id} at {transcript.table_id}"
    assert hand.events is not None
    observation = Observation(None, None, transcript.commitments, seen_cards(list(hand.events)))
    for violation in verify(transcript, observation).violations:
        yield f"hand {hand.hand_id}: fairness {violation.kind.value}: {violation.message}"


def check_hands(connection: sqlite3.Connection) -> Iterator[str]:
    """Every stored hand, one at a time (a big room's hands never sit in memory together)."""
    rows = connection.execute(f"SELECT {HAND_COLUMNS} FROM hands ORDER BY rowid")
    while batch := rows.fetchmany(200):
        for row in batch:
            try:
                hand = decode_hand(row)
            except (CodecError, ValueError, KeyError, TypeError) as problem:
                yield f"hand {row[1]}: cannot be read: {problem}"
                continue
            yield from check_hand_ledger(connection, hand)
            if hand.status == "finished":
                if hand.events is None:
                    yield f"hand {hand.hand_id}: finished without an event log"
                    continue
                yield from check_transcript(hand)


def audit(connection: sqlite3.Connection) -> list[str]:
    """Every finding, one line each (empty: the room's chips and records are sound). One read transaction,
    so a live room's writes do not tear the picture."""
    connection.execute("BEGIN")
    try:
        return [*check_conservation(connection), *check_ledger(connection), *check_hands(connection),
                *check_tournaments(connection)]
    finally:
        connection.execute("ROLLBACK")
