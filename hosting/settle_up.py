"""The settle-up ledger of a home game: per session of the room, each player's buy-ins, top-ups, cash-outs and
net, and who pays whom (:func:`engine.settle_up.minimal_transfers`).

A session runs from the room's opening to its close (``croupier host`` opens one; closing the room closes it),
or is a night the host names (``croupier admin night NAME`` closes the current session and opens that one).
Sessions live in the store's ``room_sessions`` table; the chips come from the ledger's rows inside the
session's window:

- ``buy_ins``: balance → table rows of a sit ("buy-in"), plus the stacks already at a table when the session
  opened (chips carried in from an earlier session);
- ``top_ups``: every other balance → table row (top-ups, rebuys);
- ``adjustments``: the host's stack adjustments (issue → table adds, table → issue takes away), each with his
  reason (a misdeal refund): the house's, not the player's — shown on his line, not counted in his net (he owes
  nothing for a refund); the house's line carries them (``-`` what the host gave);
- ``cash_outs``: table → balance rows (left the table, kicked, seat freed), plus his stacks still at a table
  when the session closed (or now, for the open session);
- ``jackpot``: jackpot shares paid to him (jackpot → balance).

``net = cash_outs + jackpot + tournaments - buy_ins - top_ups``: what he won at the tables. The nets of the
players sum to minus what the house kept (rake and jackpot drops, less jackpot paid out, less what the host
gave in adjustments); when that is not zero, the house is one more line (:data:`HOUSE`) so the transfers still
settle everyone.
"""

from __future__ import annotations

import csv
import io
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.settle_up import Transfer, minimal_transfers

POOL_JOINED = "joined the pool"
"""The ledger's reason for a fast-fold pool's entry (balance → the pool): his buy-in."""
POOL_SEATED, POOL_BACK = "seated by the pool", "back to the pool"
"""The ledger's reasons for a pool moving a player's chips to one of its tables for a hand and back (each through
his balance): his own chips changing place, neither a buy-in nor a cash-out."""


def pool_move_out(to_table: str) -> str:
    """The reason of the pool's row that takes a player's chips to ``to_table`` for a hand."""
    return f"to {to_table}"


def pool_move_in(from_table: str) -> str:
    """The reason of the pool's row that takes a player's chips back from ``from_table``."""
    return f"from {from_table}"


def _pool_move(reason: str) -> bool:
    return reason in (POOL_SEATED, POOL_BACK) or reason.startswith(("to ", "from "))


HOUSE = "(house)"
"""The rake and jackpot's line: the parentheses keep it apart from every player name (hosting.identity)."""
COLUMNS = ("player", "buy_ins", "top_ups", "adjustments", "cash_outs", "jackpot", "tournaments", "net")
COLUMN_LABELS = ("player", "buy-ins", "top-ups", "host", "cash-outs", "jackpot", "tournaments", "net")
"""The columns' headings on a screen (the TUI's settle-up window)."""
TOURNAMENT_LOCATIONS = ("tournament", "fee", "bounty")
"""Where a tournament's money sits in the ledger (hosting.tournament_money): entries, rebuys and add-ons go there
from balances; prizes, bounties and refunds come back. A player's ``tournaments`` column is what came back less
what went in (fees included); the fees kept show on the house's line."""


@dataclass(frozen=True)
class RoomSession:
    """One session of the room: ``closed_at`` is ``None`` while it runs."""

    id: int
    name: str
    opened_at: float
    closed_at: float | None


@dataclass(frozen=True)
class PlayerLine:
    """One player's chips over a session."""

    player: str
    buy_ins: int = 0
    top_ups: int = 0
    adjustments: int = 0
    cash_outs: int = 0
    jackpot: int = 0
    tournaments: int = 0

    @property
    def net(self) -> int:
        """A player's adjustments are not his (the house's line carries them, negated: counted there)."""
        house = self.adjustments if self.player == HOUSE else 0
        return self.cash_outs + self.jackpot + self.tournaments - self.buy_ins - self.top_ups + house

    def row(self) -> tuple[str, int, int, int, int, int, int, int]:
        return (self.player, self.buy_ins, self.top_ups, self.adjustments, self.cash_outs, self.jackpot,
                self.tournaments, self.net)


@dataclass(frozen=True)
class SettleUp:
    """A session's lines (players by name, the house last when it kept chips) and the transfers settling them."""

    session: RoomSession
    lines: tuple[PlayerLine, ...]
    transfers: tuple[Transfer, ...]

    def to_json(self) -> dict[str, object]:
        """The ``settle_up`` message body (PROTOCOL.md) and the admin socket's reply."""
        return {"session": {"id": self.session.id, "name": self.session.name, "opened_at": self.session.opened_at,
                            "closed_at": self.session.closed_at},
                "players": [dict(zip(COLUMNS, line.row(), strict=True)) for line in self.lines],
                "transfers": [{"payer": item.payer, "payee": item.payee, "amount": item.amount}
                              for item in self.transfers]}


# --- sessions (writes run inside the store's transaction) -----------------------------------------------------

def open_session(connection: sqlite3.Connection, name: str, at: float, night: bool = False) -> int:
    """Close any open session at ``at`` and open ``name`` (a host's ``night``: it spans restarts); its id."""
    close_sessions(connection, at)
    cursor = connection.execute("INSERT INTO room_sessions (name, opened_at, night) VALUES (?, ?, ?)",
                                (name, at, int(night)))
    return int(cursor.lastrowid or 0)


def open_room_session(connection: sqlite3.Connection, name: str, at: float) -> None:
    """The room opens: a night still open (the host's, across a restart or a crash) goes on; else ``name``
    opens (any other session left open by a crash is closed first)."""
    if connection.execute("SELECT 1 FROM room_sessions WHERE closed_at IS NULL AND night = 1").fetchone() is None:
        open_session(connection, name, at)


def close_sessions(connection: sqlite3.Connection, at: float, *, nights: bool = True) -> None:
    """Close the open session; ``nights`` false: not a host's night (the room closing leaves it open)."""
    connection.execute("UPDATE room_sessions SET closed_at = ? WHERE closed_at IS NULL"
                       + ("" if nights else " AND night = 0"), (at,))


def sessions(connection: sqlite3.Connection) -> list[RoomSession]:
    """Every session, oldest first."""
    return [RoomSession(*row) for row in
            connection.execute("SELECT id, name, opened_at, closed_at FROM room_sessions ORDER BY id")]


def find_session(connection: sqlite3.Connection, wanted: str | None) -> RoomSession:
    """The session named or numbered ``wanted`` (the latest of that name), else the latest one.

    ``LookupError`` (one line, naming the sessions there are) when there is none such."""
    known = sessions(connection)
    if not known:
        raise LookupError("this room has no sessions yet: they start when `croupier host` opens the room")
    if wanted is None:
        return known[-1]
    matches = [item for item in known if item.name == wanted or str(item.id) == wanted]
    if not matches:
        names = ", ".join(f"{item.id} {item.name}" for item in known[-8:])
        raise LookupError(f"no session {wanted!r}; the latest: {names}")
    return matches[-1]


# --- the settle-up ---------------------------------------------------------------------------------------

def _stacks_at(connection: sqlite3.Connection, moment: float) -> dict[str, int]:
    """Each player's chips at all tables just before ``moment`` (from the ledger's table rows)."""
    totals: dict[str, int] = defaultdict(int)
    for destination, player, amount in connection.execute(
            "SELECT destination, player, SUM(amount) FROM ledger WHERE at < ? "
            "AND 'table' IN (source, destination) GROUP BY source, destination, player", (moment,)):
        totals[player] += amount if destination == "table" else -amount
    return {player: amount for player, amount in totals.items() if amount}


def player_lines(connection: sqlite3.Connection, start: float, end: float) -> list[PlayerLine]:
    """Each player's line over ``[start, end)``, by name; players who moved no chips are left out."""
    columns: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for player, amount in _stacks_at(connection, start).items():
        columns[player]["buy_ins"] += amount
    for player, amount in _stacks_at(connection, end).items():
        columns[player]["cash_outs"] += amount
    for source, destination, player, reason, amount in connection.execute(
            "SELECT source, destination, player, reason, SUM(amount) FROM ledger WHERE at >= ? AND at < ? "
            "AND player IS NOT NULL GROUP BY source, destination, player, reason", (start, end)):
        column = _column(source, destination, reason)
        if column is not None:
            paid_in = (source, destination) == ("table", "issue") or destination in TOURNAMENT_LOCATIONS
            columns[player][column] += -amount if paid_in else amount
    return [PlayerLine(player, **values) for player, values in sorted(columns.items())]


def _column(source: str, destination: str, reason: str) -> str | None:
    if "balance" in (source, destination) and "table" in (source, destination) and _pool_move(reason):
        return None  # a pool's hand: his chips to its table and back, not money in or out
    if (source, destination) == ("balance", "table"):
        return "buy_ins" if reason in ("buy-in", POOL_JOINED) else "top_ups"
    if (source, destination) == ("table", "balance"):
        return "cash_outs"
    if "issue" in (source, destination) and "table" in (source, destination):
        return "adjustments"
    if (source, destination) == ("jackpot", "balance"):
        return "jackpot"
    if (source in TOURNAMENT_LOCATIONS and destination == "balance") or \
            (source == "balance" and destination in TOURNAMENT_LOCATIONS):
        return "tournaments"
    return None  # balance-only rows (new accounts, refills), and hand rows inside the tables


def settle_up(connection: sqlite3.Connection, session: RoomSession, now: float) -> SettleUp:
    """The settle-up of ``session`` (an open one counts up to ``now``)."""
    end = session.closed_at if session.closed_at is not None else now
    lines = player_lines(connection, session.opened_at, end)
    kept = -sum(line.net for line in lines)
    given = sum(line.adjustments for line in lines)  # the host's adjustments: the house pays them
    if kept or given:
        rake = kept + given
        lines.append(PlayerLine(HOUSE, cash_outs=max(rake, 0), buy_ins=max(-rake, 0), adjustments=-given))
    transfers = minimal_transfers({line.player: line.net for line in lines})
    return SettleUp(session, tuple(lines), tuple(transfers))


def read_settle_up(connection: sqlite3.Connection, wanted: str | None, now: float) -> dict[str, object]:
    """The settle-up of session ``wanted`` (latest: ``None``) as JSON, read in one transaction of
    ``connection`` (a read-only one of its own, beside the room's writer). ``LookupError`` (one line)."""
    connection.execute("BEGIN")
    try:
        return settle_up(connection, find_session(connection, wanted), now).to_json()
    finally:
        connection.execute("ROLLBACK")


# --- text and CSV ------------------------------------------------------------------------------------------

def to_text(result: SettleUp) -> str:
    """The settle-up as a few aligned lines for a terminal."""
    session = result.session
    state = "open" if session.closed_at is None else "closed"
    out = [f"Session {session.id} \"{session.name}\" ({state})",
           _aligned([COLUMNS, *(tuple(str(value) for value in line.row()) for line in result.lines)])]
    if result.transfers:
        out.append(f"Who pays whom ({len(result.transfers)} transfer{'s' * (len(result.transfers) != 1)}):")
        out += [f"  {item.payer} pays {item.payee} {item.amount}" for item in result.transfers]
    else:
        out.append("Nobody owes anything.")
    return "\n".join(out)


def _aligned(rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    return "\n".join("  " + "  ".join(cell.ljust(width) if index == 0 else cell.rjust(width)
                                      for index, (cell, width) in enumerate(zip(row, widths, strict=True)))
                     for row in rows)


TRANSFER_HEADER = ("payer", "payee", "amount")


def to_csv(result: SettleUp) -> str:
    """One row per player (the :data:`COLUMNS`, ``net`` in chips), a blank row, then the transfers."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(line.row() for line in result.lines)
    writer.writerow(())
    writer.writerow(TRANSFER_HEADER)
    writer.writerows((item.payer, item.payee, item.amount) for item in result.transfers)
    return buffer.getvalue()


def read_csv(text: str) -> tuple[dict[str, int], list[Transfer]]:
    """Read :func:`to_csv`'s output back: the nets by player, and the transfers."""
    rows = list(csv.reader(io.StringIO(text)))
    blank = rows.index([])
    header = rows[0]
    nets = {row[0]: int(row[header.index("net")]) for row in rows[1:blank]}
    transfers = [Transfer(payer, payee, int(amount)) for payer, payee, amount in _after_header(rows[blank + 1:])]
    return nets, transfers


def _after_header(rows: Iterable[list[str]]) -> Iterable[list[str]]:
    iterator = iter(rows)
    if next(iterator, None) != list(TRANSFER_HEADER):
        raise ValueError("not a settle-up CSV: the transfers' header is missing")
    return iterator
