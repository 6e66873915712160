"""The settle-up ledger (hosting.settle_up, `croupier ledger`): a scripted home game night of five players."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.settle_up import Transfer
from hosting.cli import main
from hosting.ledger import audit
from hosting.settle_up import HOUSE, find_session, open_session, read_csv, settle_up
from hosting.store import Store, move, transaction

PLAYERS = ("ana", "bob", "cleo", "dan", "eve")


def _pot(connection: sqlite3.Connection, at: float, loser: str, winner: str, chips: int) -> None:
    """``loser`` puts ``chips`` in a pot ``winner`` takes (the ledger's hand rows, without the hand)."""
    move(connection, at, "table", "pot", chips, "bet", player=loser, table_id="t1")
    move(connection, at, "pot", "table", chips, "won", player=winner, table_id="t1")


def _night(data_dir: Path) -> None:
    """Thursday (ana beats bob, both leave), then Friday's five players (README: a scripted night).

    Friday, by hand:            in (buy-ins + top-ups + host)      out                 net
      ana   buy-in 200, top-up 100 = 300                       cashes out 550      +250
      bob   buy-in 200, top-up 200 = 400                       30 still seated     -370
      cleo  buy-in 200                                         cashes out 320      +120
      dan   buy-in 100, host +50 (misdeal refund)              cashes out 80        -20
      eve   buy-in 300                                         cashes out 370       +70
      (house)  the host's 50 to dan is the house's, not dan's debt (issue 27 item 8)    -50
    Nets sum to 0; {dan, eve, house} settle apart: 4 transfers (house->eve 50, dan->eve 20, bob->ana 250,
    bob->cleo 120).
    """
    store = Store.open(data_dir)
    for name in PLAYERS:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    connection = store.connection
    with transaction(connection, write=True):
        open_session(connection, "thursday", 10.0)
        move(connection, 11.0, "balance", "table", 100, "buy-in", player="ana", table_id="t1")
        move(connection, 11.0, "balance", "table", 100, "buy-in", player="bob", table_id="t1")
        _pot(connection, 12.0, "bob", "ana", 100)
        move(connection, 13.0, "table", "balance", 200, "left the table", player="ana", table_id="t1")
        open_session(connection, "friday", 100.0)
        for name, chips in (("ana", 200), ("bob", 200), ("cleo", 200), ("dan", 100), ("eve", 300)):
            move(connection, 101.0, "balance", "table", chips, "buy-in", player=name, table_id="t1")
        _pot(connection, 102.0, "bob", "ana", 200)     # bob busts to ana: ana 400, bob 0
        move(connection, 103.0, "balance", "table", 200, "top-up", player="bob", table_id="t1")
        move(connection, 103.0, "balance", "table", 100, "top-up", player="ana", table_id="t1")  # ana 500
        move(connection, 104.0, "issue", "table", 50, "host: misdeal", player="dan", table_id="t1")  # dan 150
        _pot(connection, 105.0, "bob", "cleo", 120)    # bob 80, cleo 320
        _pot(connection, 106.0, "dan", "eve", 70)      # dan 80, eve 370
        _pot(connection, 107.0, "bob", "ana", 50)      # bob 30, ana 550
        for name, chips in (("ana", 550), ("cleo", 320), ("dan", 80), ("eve", 370)):
            move(connection, 108.0, "table", "balance", chips, "left the table", player=name, table_id="t1")
        connection.execute("UPDATE room_sessions SET closed_at = 200.0 WHERE name = 'friday'")
        move(connection, 300.0, "table", "balance", 30, "left the table", player="bob", table_id="t1")  # after
    store.close_now()


EXPECTED = {"ana": (200, 100, 0, 550, 250), "bob": (200, 200, 0, 30, -370), "cleo": (200, 0, 0, 320, 120),
            "dan": (100, 0, 50, 80, -20), "eve": (300, 0, 0, 370, 70), "(house)": (0, 0, -50, 0, -50)}
"""buy-ins, top-ups, host adjustments, cash-outs (bob's 30 still seated at the close), net: worked above."""
TRANSFERS = [Transfer("(house)", "eve", 50), Transfer("dan", "eve", 20), Transfer("bob", "ana", 250),
             Transfer("bob", "cleo", 120)]


def test_a_five_player_night_settles_in_four_transfers_the_hosts_refund_the_houses(tmp_path: Path) -> None:
    _night(tmp_path)
    store = Store.open(tmp_path)
    try:
        assert audit(store.connection) == []  # the host's misdeal refund is issued chips: conserved
        result = settle_up(store.connection, find_session(store.connection, "friday"), now=1000.0)
    finally:
        store.close_now()
    lines = {line.player: (line.buy_ins, line.top_ups, line.adjustments, line.cash_outs, line.net)
             for line in result.lines}
    assert lines == EXPECTED
    assert sorted(result.transfers, key=lambda item: (item.payer, item.payee)) == sorted(
        TRANSFERS, key=lambda item: (item.payer, item.payee))


def test_thursday_is_its_own_session(tmp_path: Path) -> None:
    _night(tmp_path)
    store = Store.open(tmp_path)
    try:
        result = settle_up(store.connection, find_session(store.connection, "thursday"), now=1000.0)
    finally:
        store.close_now()
    assert {line.player: line.net for line in result.lines} == {"ana": 100, "bob": -100}
    assert result.transfers == (Transfer("bob", "ana", 100),)


def test_croupier_ledger_csv_reads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _night(tmp_path)
    assert main(["ledger", "--data", str(tmp_path), "--session", "friday", "--format", "csv"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "player,buy_ins,top_ups,adjustments,cash_outs,jackpot,tournaments,net"
    nets, transfers = read_csv(text)
    assert nets == {name: values[-1] for name, values in EXPECTED.items()}
    assert sorted(transfers, key=lambda item: item.payer + item.payee) == sorted(
        TRANSFERS, key=lambda item: item.payer + item.payee)


def test_croupier_ledger_text_names_who_pays_whom(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _night(tmp_path)
    assert main(["ledger", "--data", str(tmp_path), "--session", "friday"]) == 0
    out = capsys.readouterr().out
    assert 'Session 2 "friday" (closed)' in out
    assert "Who pays whom (4 transfers):" in out
    assert "  bob pays ana 250" in out and "  dan pays eve 20" in out and "  bob pays cleo 120" in out
    assert "  (house) pays eve 50" in out


def test_croupier_ledger_lists_the_sessions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _night(tmp_path)
    assert main(["ledger", "--data", str(tmp_path), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split("  ")[:2] for line in lines] == [["1", "thursday"], ["2", "friday"]]


def test_an_unknown_session_or_no_room_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _night(tmp_path / "room")
    assert main(["ledger", "--data", str(tmp_path / "room"), "--session", "saturday"]) == 2
    assert "no session 'saturday'; the latest: 1 thursday, 2 friday" in capsys.readouterr().err
    assert main(["ledger", "--data", str(tmp_path / "none")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_rake_is_the_house_line_so_the_transfers_still_balance(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    for name in ("ana", "bob"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    connection = store.connection
    with transaction(connection, write=True):
        open_session(connection, "night", 1.0)
        for name in ("ana", "bob"):
            move(connection, 2.0, "balance", "table", 100, "buy-in", player=name, table_id="t1")
        move(connection, 3.0, "table", "pot", 50, "bet", player="ana", table_id="t1")
        move(connection, 3.0, "table", "pot", 50, "bet", player="bob", table_id="t1")
        move(connection, 3.0, "pot", "rake", 5, "rake")
        move(connection, 3.0, "pot", "table", 95, "won", player="bob", table_id="t1")
    result = settle_up(connection, find_session(connection, None), now=10.0)
    store.close_now()
    assert {line.player: line.net for line in result.lines} == {"ana": -50, "bob": 45, HOUSE: 5}
    assert sorted(result.transfers, key=lambda item: item.payee) == [Transfer("ana", HOUSE, 5),
                                                                   Transfer("ana", "bob", 45)]


def test_a_tournament_nights_entries_prizes_and_bounties_settle_up(tmp_path: Path) -> None:
    """A Sit & Go of three, 100 + 10 fee + 20 bounty each (hosting.tournament_money's ledger rows): bob knocks
    cleo out, ana knocks bob out and wins; 300 pool paid 210/90, each bounty to its taker, the winner's own bounty
    back to her. The fees are the house's."""
    store = Store.open(tmp_path)
    for name in ("ana", "bob", "cleo"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    connection = store.connection
    with transaction(connection, write=True):
        open_session(connection, "sng night", 10.0)
        for name in ("ana", "bob", "cleo"):
            for amount, location in ((100, "tournament"), (10, "fee"), (20, "bounty")):
                move(connection, 11.0, "balance", location, amount, "sng: entry", player=name, table_id="sng")
        move(connection, 12.0, "bounty", "balance", 20, "sng: bounty on cleo", player="bob", table_id="sng")
        move(connection, 13.0, "bounty", "balance", 20, "sng: bounty on bob", player="ana", table_id="sng")
        move(connection, 13.0, "tournament", "balance", 90, "sng: prize, place 2", player="bob", table_id="sng")
        move(connection, 13.0, "tournament", "balance", 210, "sng: prize, place 1", player="ana", table_id="sng")
        move(connection, 13.0, "bounty", "balance", 20, "sng: the winner's own bounty", player="ana",
             table_id="sng")
    try:
        result = settle_up(connection, find_session(connection, "sng night"), now=100.0)
    finally:
        store.close_now()
    # in: 130 each; out: ana 210 + 20 + 20 = 250, bob 90 + 20 = 110, cleo 0; the house kept the three fees
    assert {line.player: (line.tournaments, line.net) for line in result.lines} == {
        "ana": (120, 120), "bob": (-20, -20), "cleo": (-130, -130), HOUSE: (0, 30)}
    assert sum(line.net for line in result.lines) == 0
    settled = {line.player: line.net for line in result.lines}
    for item in result.transfers:
        settled[item.payer] += item.amount
        settled[item.payee] -= item.amount
    assert len(result.transfers) == 3 and set(settled.values()) == {0}


def test_a_pool_players_line_counts_his_entry_and_what_he_left_with_not_each_hand(tmp_path: Path) -> None:
    """Fast-fold (hosting.pools): fay joins the pool with 200 (its entry is her buy-in), plays two hands — each
    takes her chips from the pool to a table and back, through her balance — winning 60 from gus, and leaves
    with 260: buy-ins 200, cash-outs 260, net +60; gus joins with 150, loses 60, leaves with 90: net -60. Before,
    the entry was a top-up and every hand a top-up and a cash-out (gus: buy-ins 0, top-ups 610, cash-outs 550)."""
    from hosting.settle_up import POOL_BACK, POOL_JOINED, POOL_SEATED, pool_move_in, pool_move_out

    store = Store.open(tmp_path)
    for name in ("fay", "gus"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    connection = store.connection

    def hand(table: str, stacks: dict[str, int], won: int) -> dict[str, int]:
        for name, chips in stacks.items():
            move(connection, 12.0, "table", "balance", chips, pool_move_out(table), player=name, table_id="zoom")
            move(connection, 12.0, "balance", "table", chips, POOL_SEATED, player=name, table_id=table)
        move(connection, 12.5, "table", "pot", won, "bet", player="gus", table_id=table)
        move(connection, 12.5, "pot", "table", won, "won", player="fay", table_id=table)
        after = {"fay": stacks["fay"] + won, "gus": stacks["gus"] - won}
        for name, chips in after.items():
            move(connection, 13.0, "table", "balance", chips, POOL_BACK, player=name, table_id=table)
            move(connection, 13.0, "balance", "table", chips, pool_move_in(table), player=name, table_id="zoom")
        return after

    with transaction(connection, write=True):
        open_session(connection, "friday", 10.0)
        move(connection, 11.0, "balance", "table", 200, POOL_JOINED, player="fay", table_id="zoom")
        move(connection, 11.0, "balance", "table", 150, POOL_JOINED, player="gus", table_id="zoom")
        stacks = hand("zoom.2", hand("zoom.1", {"fay": 200, "gus": 150}, 40), 20)
        for name, chips in stacks.items():
            move(connection, 14.0, "table", "balance", chips, "left the pool", player=name, table_id="zoom")
    try:
        assert audit(connection) == []
        result = settle_up(connection, find_session(connection, "friday"), now=100.0)
    finally:
        store.close_now()
    assert {line.player: (line.buy_ins, line.top_ups, line.cash_outs, line.net) for line in result.lines} == {
        "fay": (200, 0, 260, 60), "gus": (150, 0, 90, -60)}
    assert result.transfers == (Transfer("gus", "fay", 60),)
