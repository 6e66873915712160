"""Issue 28 step 1: a tournament's level change takes one path. The director's clock moves to the next level; each
of its tables is set to it once (``Table.set_level``), and the one ``LevelChanged`` that returns, naming the level,
is the one message a seated player gets of it: no second ``level_up`` tournament event beside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.events import HandStarted
from engine.table_events import LevelChanged
from engine.tournament.formats import Format
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.store import Store
from hosting.tournament_config import TournamentConfig
from tests.hosting.tournament_play import Shover, tournament_room, until


def _sit_and_go() -> TournamentConfig:
    """Three at one table; level 1 lasts 2 s, level 2 (20/40 ante 5) ten minutes: one level change."""
    settings = TournamentSettings("lv", Format.SIT_AND_GO, sit_and_go_size=3, max_players=3, seats_per_table=3,
                                  price=EntryPrice(100, 10, 0), starting_stack=10_000,
                                  schedule=(Level(10, 20, duration=2.0), Level(20, 40, ante=5, duration=600.0)))
    return TournamentConfig(settings, "Sit & Go lv", False, "chips")


def _level_messages(bot: Shover) -> list[dict[str, Any]]:
    """Every message that told this bot of a level change."""
    return [message for message in bot.messages
            if (message.get("type") == "event" and isinstance(message.get("event"), LevelChanged))
            or (message.get("type") == "tournament_event"
                and message["event"].get("event", message["event"].get("kind")) in ("level_up", "level_changed"))]


def _hands_started(bot: Shover) -> int:
    return sum(1 for message in bot.messages
               if message.get("type") == "event" and isinstance(message.get("event"), HandStarted))


async def test_a_level_change_reaches_each_seated_player_once_as_its_tables_level_changed(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    names = ("ana", "bob", "cy")
    for name in names:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (_sit_and_go(),))
    room.start()
    owner = room.tournaments.owners["lv"]
    owner.director.seats_by_draw = False  # no commit–reveal seat draw: not what this test is about
    bots = [await Shover.join(room, name, shove_rate=0.0) for name in names]
    for bot in bots:
        bot.passive = True  # checks and calls: nobody busts in these few hands
    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="lv")
        await until(lambda: owner.director.level_number == 2, timeout=60)
        counted = [_hands_started(bot) for bot in bots]
        # two more hands after the change: every message of it has arrived
        await until(lambda: all(_hands_started(bot) >= seen + 2 for bot, seen in zip(bots, counted, strict=True)),
                    timeout=60)
        for bot in bots:
            told = _level_messages(bot)
            assert len(told) == 1, (bot.name, told)
            (message,) = told
            event = message["event"]
            assert isinstance(event, LevelChanged), (bot.name, message)
            assert (event.level, event.small_blind, event.big_blind, event.ante) == (2, 20, 40, 5)
            assert message["table"] == "lv.1"
        (table,) = [state for table_id, state in room.tables.items() if table_id.startswith("lv.")]
        assert table.engine.stakes.big_blind == 40 and table.engine.stakes.ante == 5
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
