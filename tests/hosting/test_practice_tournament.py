"""``croupier play --tournament`` (issue 18), in process: each practice tournament (a 6- and a 9-seat Sit & Go, a
Spin, a 45-player MTT) is declared as a room file would declare it, starts with the bots and "you" registered,
and its hands are dealt by the room's runners; the Sit & Gos and the Spin play to a winner, the MTT opens five
tables and plays hands at each. Bad options are one line."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from engine.tournament.director import Phase
from engine.tournament.formats import Format
from hosting.commands.play import register_bots
from hosting.config import RoomConfig
from hosting.practice_room import practice_room
from hosting.practice_tournament import (
    PracticeTournamentError,
    practice_config,
    practice_players,
    with_level_seconds,
)
from hosting.tournament_bots import TournamentBot
from tests.hosting.tournament_play import until
from tui.connection import LocalConnection


def test_practice_sizes_and_bad_options() -> None:
    assert [practice_players("sng", None), practice_players("sng", 9), practice_players("spin", None),
            practice_players("mtt", None), practice_players("mtt", 27)] == [6, 9, 3, 45, 27]
    for kind, players, words in (("sng", 7, "6 or 9 seats"), ("spin", 4, "three-handed"),
                                 ("mtt", 9, "10 to 1000"), ("freeze", None, "one of sng, spin, mtt")):
        with pytest.raises(PracticeTournamentError, match=words):
            practice_players(kind, players)


def test_practice_configs_are_room_file_tournaments_with_turbo_levels() -> None:
    sng, spin, mtt = practice_config("sng", 9), practice_config("spin"), practice_config("mtt", 45)
    assert (sng.settings.format, sng.settings.sit_and_go_size, sng.settings.seats_per_table) == \
        (Format.SIT_AND_GO, 9, 9)
    assert (spin.settings.format, spin.settings.seats_per_table) == (Format.SPIN, 3)
    assert (mtt.settings.sit_and_go_size, mtt.settings.seats_per_table) == (45, 9)
    assert {stage.duration for stage in sng.settings.schedule} == {180.0}  # turbo: three-minute levels
    assert {stage.duration for stage in with_level_seconds(sng, 2).settings.schedule} == {2.0}


async def _practice(tmp_path: Path, kind: str, players: int | None, level_seconds: float,
                    until_over: bool, tables: int = 1) -> None:
    config = with_level_seconds(practice_config(kind, players), level_seconds)
    room = practice_room(RoomConfig(name="practice room", tables=(), tournaments=(config,)), tmp_path, 0.01, 0.01)
    room.start()
    size = practice_players(kind, players)
    bots = await register_bots(room, config, size - 1, seed=5, think=(0.0, 0.0))
    you_connection = await LocalConnection.attach(room, "you")
    you = TournamentBot("you", you_connection, you_connection.receive, config.id, rng=random.Random(1))
    await you.register()
    you.task = asyncio.get_running_loop().create_task(you.play())
    owner = room.tournaments.owners[config.id]
    try:
        await until(lambda: owner.director.phase is not Phase.REGISTERING, timeout=30)
        assert len(owner.director.entries) == size
        assert "you" in {entry.player for entry in owner.director.entries.values()}
        if not owner.over:  # a Spin of 500 chips can end before this line runs; the reports say it below
            assert len({table.id for table in owner.tables.values()}) == tables
        if until_over:
            await until(lambda: owner.over, timeout=240)
            await until(lambda: all(bot.report.finished for bot in [*bots, you]), timeout=30)
            # hands were played, not a walkover: every player was dealt in (not "a hand a player": on a loaded
            # machine the 3-second levels climb fast and 9 players once went out in 7 hands)
            assert owner.director.hands >= 1 and all(bot.report.hands for bot in [*bots, you])
            # the tables the clients were seated at: as many as the start opened
            assert len({table for bot in [*bots, you] for table in bot.report.tables}) == tables
            if tables > 1:  # tables broke and players were moved to balance them (the bots' clients heard it)
                assert sum(bot.report.moved for bot in [*bots, you]) > 0
            places = sorted(bot.report.place or 1 for bot in [*bots, you])
            # one winner; players out in one hand with equal stacks share a place (TDA): 1, 2, 3, 3, 5, …
            assert places.count(1) == 1 and all(place == index + 1 or place == places[index - 1]
                                                for index, place in enumerate(places)), places
            # the whole pool paid: 100 a head, or a Spin's 100 × its multiplier
            pool = 100 * (owner.director.spin_multiplier or size)
            assert sum(bot.report.prize for bot in [*bots, you]) == pool
        else:
            await until(lambda: owner.director.hands >= 20 or owner.over, timeout=240)
            assert owner.director.hands >= 20, (owner.director.phase, owner.director.hands)
            dealt_tables = {table for bot in [*bots, you] for table, _ in bot.report.hands}
            assert len(dealt_tables) >= tables
        assert you.report.hands and all(bot.report.refused == 0 for bot in [*bots, you])
        # every client verified every hand it was dealt, its last one too (out, or moved, as that hand ended)
        await until(lambda: all(bot.report.hands <= set(bot.connection.fairness.results)  # type: ignore[attr-defined]
                                for bot in [*bots, you]), timeout=10)
        assert all(result.ok for bot in [*bots, you]
                   for result in bot.connection.fairness.results.values())  # type: ignore[attr-defined]
    finally:
        for bot in [*bots, you]:
            if bot.task is not None:
                bot.task.cancel()
        await room.stop()


async def test_practice_sit_and_go_of_six_plays_to_a_winner(tmp_path: Path) -> None:
    await _practice(tmp_path, "sng", 6, 3.0, until_over=True)


async def test_practice_sit_and_go_of_nine_plays_to_a_winner(tmp_path: Path) -> None:
    await _practice(tmp_path, "sng", 9, 3.0, until_over=True)


async def test_practice_spin_plays_to_a_winner(tmp_path: Path) -> None:
    await _practice(tmp_path, "spin", None, 3.0, until_over=True)


async def test_practice_mtt_of_45_opens_five_tables_balances_and_plays_to_a_winner(tmp_path: Path) -> None:
    await _practice(tmp_path, "mtt", 45, 5.0, until_over=True, tables=5)


@pytest.mark.parametrize(("argv", "line"), [
    (["play", "--tournament", "mtt", "--players", "5"],
     "croupier play: a practice MTT has 10 to 1000 players (several tables); got 5"),
    (["play", "--tournament", "sng", "--players", "7"],
     "croupier play: a practice Sit & Go has 6 or 9 seats; --players 7 does not fit"),
    (["bots", "--connect", "localhost:2222", "--tournament", "friday", "--table", "t1"],
     "croupier bots: --table or --tournament, not both"),
])
def test_bad_tournament_options_are_one_line(argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    from hosting.cli import main

    assert main(argv) == 2
    assert capsys.readouterr().err == line + "\n"
