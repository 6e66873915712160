"""Issue 27 "Must show": a scripted night with the real commands, as a host runs it.

``croupier host`` with a room file (a cash table ``home`` and a fast-fold pool ``zoom``); the host names the night
(``croupier admin night friday``); six ``croupier bots`` play (three at ``home``, three in the pool); the room is
restarted (Ctrl+C, then ``croupier host`` again); six new bots play; the host bans a pool player in the middle of
his hands (``croupier admin ban``); the room closes. Then ``croupier ledger --session friday`` settles the whole
night — both halves — in one table whose nets sum to zero; every player's net is what he has now (bank, and chips
still seated when the room closed) less the 1,000 a new name starts with (R-PLAY-1); the banned player has every
chip of his back in his bank, none left at a table or in the pool."""

from __future__ import annotations

import csv
import io
import json
import signal
import subprocess
from pathlib import Path

import pytest

from hosting.store import connect as open_store
from tests.hosting.room_files import pool_block, room_block, table_block
from tests.room_process import LOOPBACK, MODULE, RoomProcess, start_room_process
from tests.waiting import cpu_ticks, wait_until

pytestmark = pytest.mark.slow

HANDS = 4
"""Hands each group of bots plays (the suite's sample size: the night's arithmetic does not depend on it)."""
NEW_NAME_BANK = 1000
"""What a new name's bank starts with (R-PLAY-1)."""
ROOM = (room_block("Friday game", connections_per_minute=1000)
        + table_block("home", seats=6, buy_in=(100, 200))
        + pool_block("zoom", seats=3, buy_in=(100, 200), fill_seconds=0.5)
        # a turn the banned bot had is played out by the clock: a short one, not 20 s + a 60 s
        # disconnection bank
        + "clock = { action_seconds = 10, time_bank_seconds = 0, disconnection_bank_seconds = 0 }\n")


def croupier(*arguments: str, data: Path | None = None) -> str:
    """A ``croupier`` command as the host types it; its output (it must succeed)."""
    command = [*MODULE, *arguments, *(["--data", str(data)] if data is not None else [])]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{' '.join(arguments)}: {done.stdout}{done.stderr}"
    return done.stdout


def admin(data: Path, *arguments: str) -> str:
    return croupier("admin", "--data", str(data), *arguments)


def online(data: Path) -> set[str]:
    return set(json.loads(admin(data, "status", "--json"))["online"])


def seated_chips(data: Path, name: str) -> int:
    """``name``'s chips at the room's tables and pools, as the store has them now (the room running)."""
    connection = open_store(data, read_only=True)
    try:
        return int(connection.execute("SELECT COALESCE(SUM(amount), 0) FROM table_stacks WHERE name = ?",
                                      (name,)).fetchone()[0])
    finally:
        connection.close()


def bots(room: RoomProcess, table: str, log: Path, hands: int = HANDS) -> subprocess.Popen[str]:
    """``croupier bots --count 3 --table TABLE``: three fresh names, in the background."""
    sink = open(log, "w")  # noqa: SIM115 - the child keeps its own copy
    try:
        return subprocess.Popen([*MODULE, "bots", "--connect", f"{LOOPBACK}:{room.port}", "--count", "3",
                                 "--table", table, "--hands", str(hands), "--seed", "27"],
                                stdout=sink, stderr=subprocess.STDOUT, text=True)
    finally:
        sink.close()


def finished(process: subprocess.Popen[str], log: Path) -> int:
    """Wait for a bots process while it moves (its CPU time or its output); its exit status."""
    wait_until(lambda: process.poll() is not None, f"croupier bots ({log.name}) to finish",
               progress=lambda: (cpu_ticks(process.pid), log.stat().st_size), step=0.2)
    return int(process.returncode)


def summary(log: Path) -> dict[str, object]:
    return dict(json.loads(log.read_text().strip().splitlines()[-1]))


def half_a_night(room: RoomProcess, data: Path, folder: Path, ban: bool) -> str | None:
    """Three bots in the pool and three at ``home``; with ``ban``, the host bans a pool bot while all three are
    in a pool hand (the pool bots play on until then). The banned name."""
    pool_bots = bots(room, "zoom", folder / "pool.log", hands=HANDS * (50 if ban else 1))
    banned = None
    if ban:
        pool_names = wait_until(lambda: online(data) if len(online(data)) == 3 else None,
                                "the pool's bots online", progress=lambda: cpu_ticks(pool_bots.pid), step=0.2)
    home_bots = bots(room, "home", folder / "home.log")
    if ban:
        wait_until(lambda: json.loads(admin(data, "status", "--json"))["pools"][0]["playing"] == 3,
                   "all three in a pool hand", progress=lambda: cpu_ticks(pool_bots.pid), step=0.1)
        banned = sorted(pool_names)[0]
        said = admin(data, "ban", "--player", banned, "--reason", "collusion in the pool")
        assert said.strip() == f"banned {banned} ({banned} removed)"
        # his chips behind are back at once; a blind he had posted stays in that hand's pot (dead money) until
        # the hand ends. Wait for that end: a stop before it voids the hand (R-CRASH-1) and leaves the blind at
        # the pool's table until the room opens again (the CI failure: 2 chips held).
        wait_until(lambda: seated_chips(data, banned) == 0, "the hand he was banned from to end",
                   progress=lambda: (cpu_ticks(room.process.pid), (data / "host.log").stat().st_size), step=0.2)
    if ban:
        # the other two pool bots play on after the ban (one bot removed is not the room closing), but two
        # cannot fill a three-seat pool hand: the host stops them as a person would, with Ctrl+C
        pool_bots.send_signal(signal.SIGINT)
    assert finished(home_bots, folder / "home.log") == 0, (folder / "home.log").read_text()
    pool_status = finished(pool_bots, folder / "pool.log")
    assert summary(folder / "home.log")["players"] == 3
    if not ban:
        assert pool_status == 0, (folder / "pool.log").read_text()
        assert summary(folder / "pool.log")["players"] == 3
    return banned


@pytest.mark.timeout(1800)
def test_a_friday_night_across_a_restart_with_a_ban_settles_in_one_table(tmp_path: Path) -> None:
    data, config = tmp_path / "data", tmp_path / "room.toml"
    config.write_text(ROOM)
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    room = start_room_process(data, tmp_path / "host1.log", "--config", str(config))
    try:
        assert "friday" in admin(data, "night", "friday")
        half_a_night(room, data, first, ban=False)
        assert room.stop(signal.SIGINT) == 0  # the host restarts the room: the night goes on
        room = start_room_process(data, tmp_path / "host2.log", "--config", str(config))
        banned = half_a_night(room, data, second, ban=True)
        assert banned is not None
        assert banned not in online(data)
    finally:
        room.stop(signal.SIGINT)

    listed = croupier("ledger", "--list", data=data)
    assert listed.count("friday") == 1
    rows = list(csv.reader(io.StringIO(croupier("ledger", "--session", "friday", "--format", "csv", data=data))))
    blank = rows.index([])
    header, players, transfers = rows[0], rows[1:blank], rows[blank + 2:]
    assert header == ["player", "buy_ins", "top_ups", "adjustments", "cash_outs", "jackpot", "tournaments", "net"]
    table = {row[0]: [int(value) for value in row[1:]] for row in players}
    print("\n".join(",".join(row) for row in rows))  # the night's table, for the lead's note (pytest -s)

    connection = open_store(data, read_only=True)
    try:
        banks = dict(connection.execute("SELECT name, amount FROM balances").fetchall())
        held = dict(connection.execute("SELECT name, SUM(amount) FROM table_stacks GROUP BY name").fetchall())
    finally:
        connection.close()
    bot_names = {name for name in table if name != "(house)"}
    assert len(bot_names) == 12 and {name for name in banks if name.startswith("bot")} == bot_names
    assert sum(row[-1] for row in table.values()) == 0  # the nets of the whole night settle
    for name in bot_names:
        buy_ins, top_ups, adjustments, cash_outs, jackpot, tournaments, net = table[name]
        assert (adjustments, jackpot, tournaments) == (0, 0, 0), name
        assert buy_ins == 200, name  # one sit (or one pool entry) at the maximum buy-in: bots buy in so
        assert net == cash_outs - buy_ins - top_ups, name
        # what he won or lost: in his bank, or still at a table / in the pool when the room closed (the ledger
        # counts those as cashed out: they are his when the room opens again)
        assert banks[name] + held.get(name, 0) == NEW_NAME_BANK + net, name
    # the banned player: his live pool hand folded, every chip he had left back in his bank at once, none kept in
    # the pool or at its tables
    assert banned in bot_names and held.get(banned, 0) == 0 and banks[banned] == NEW_NAME_BANK + table[banned][-1]
    # no rake in this room: nothing kept by the house
    assert "(house)" not in table
    paid = sum(int(amount) for _, _, amount in transfers)
    assert paid == sum(net for *_, net in table.values() if net > 0)
