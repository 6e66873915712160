"""Tournament hand histories that trackers read (issue 26 "Hand histories of tournaments"): a progressive-knockout
Sit & Go played in the room to its winner, exported with ``croupier export``, read by ``pokerdf`` (an independent
PokerStars parser on the package index): the tournament id, level, blinds, antes, stacks, every bust's place and
prize and the bounties, as the director decided them. Before, pokerdf refused every hand (``HandStartTimeCET
'Unknown'``: the header ended in UTC without PokerStars' Eastern Time) and no hand said who finished where.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from engine.tournament.bounties import BountySettings
from engine.tournament.director import Phase
from engine.tournament.levels import Level
from hosting.cli import main
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = ("ana", "bob", "cy", "dee")


async def play_pko(data: Path) -> dict[str, object]:
    """A 4-player PKO Sit & Go (100 + 20 + 10, 1,000 chips, an ante from level 2) played to its winner; what the
    director decided: the tournament's number, each player's place and prize, the bounties taken."""
    store = Store.open(data)
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    levels = tuple(Level(10 * step, 20 * step, ante=0 if step == 1 else 2 * step, duration=2.0)
                   for step in (1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 300, 500))
    config = sit_and_go("pko", size=4, seats=4, knockout=20, bounties=BountySettings(progressive=True))
    config = replace(config, settings=replace(config.settings, schedule=levels))
    room = tournament_room(data / "room", store, (config,))
    room.start()
    bots = [await Shover.join(room, name, shove_rate=0.5) for name in NAMES]
    try:
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="pko")
        owner = room.tournaments.owners["pko"]
        await until(lambda: owner.director.phase is Phase.COMPLETE, timeout=300)
        await until(lambda: not any(table.startswith("pko.") for table in room.tables))
        await store.flush()
        director = owner.director
        number = next(int(row) for name, row in store.connection.execute("SELECT id, rowid FROM tournaments")
                      if name == "pko")
        return {"number": number,
                "places": {entry.player: entry.place for entry in director.entries.values()},
                "prizes": {entry.player: entry.prize for entry in director.entries.values()},
                "bounties": [(event["winner"], event["loser"], event["amount"])
                             for event in bots[0].events("bounty_won") if event["kind"] != "own"]}
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
        await store.close()


async def test_a_hosted_pko_sit_and_gos_export_is_read_by_pokerdf_with_ranks_prizes_and_bounties(
        tmp_path: Path) -> None:
    read_and_convert = pytest.importorskip("pokerdf.core.read_and_convert")
    decided = await play_pko(tmp_path / "data")
    output = tmp_path / "HH pko.txt"
    assert main(["export", "--data", str(tmp_path / "data"), "-o", str(output)]) == 0
    text = output.read_text(encoding="utf-8")
    headers = [line for line in text.splitlines() if line.startswith("PokerStars Hand #")]
    assert headers and all(re.search(r" - \d{4}/\d\d/\d\d \d\d:\d\d:\d\d UTC \[\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET\]$",
                                     line) for line in headers), headers[0]

    frame = read_and_convert.convert_txt_to_tabular_data(str(output))
    number = decided["number"]
    assert set(frame["TournID"]) == {str(number)}
    assert frame["HandStartTimeCET"].notna().all()  # the Eastern Time read: every hand has its time
    assert set(frame["Level"]) >= {"I", "II"}
    first = frame[frame["Level"] == "I"]
    assert all(list(blinds) == [10.0, 20.0] for blinds in first["Blinds"])
    assert first["Ante"].isna().all()
    second = frame[frame["Level"] == "II"]
    assert all(list(blinds) == [20.0, 40.0] for blinds in second["Blinds"]) and set(second["Ante"]) == {4.0}
    opening = frame[frame["HandID"] == frame["HandID"].iloc[0]]
    assert sorted(opening["Stack"]) == [1_000.0] * 4 and set(opening["Bounty"]) == {20.0}

    places = decided["places"]
    prizes = decided["prizes"]
    assert isinstance(places, dict) and isinstance(prizes, dict)
    ranked = frame[frame["FinalRank"] > 0]
    read = {(row.Player, int(row.FinalRank), 0.0 if row.Prize != row.Prize or row.Prize is None else row.Prize)
            for row in ranked.itertuples()}
    assert read == {(name, places[name], float(prizes[name])) for name in NAMES}  # every place, the winner's too
    winner = next(name for name, place in places.items() if place == 1)
    assert int(ranked[ranked["Player"] == winner]["FinalRank"].iloc[0]) == 1
    assert float(ranked[ranked["Player"] == winner]["Prize"].iloc[0]) == prizes[winner] > 0
    bounties = decided["bounties"]
    assert isinstance(bounties, list) and bounties
    won = frame.groupby("Player")["BountyWon"].sum()
    for name in NAMES:
        assert won.get(name, 0.0) == sum(amount for winner_name, _, amount in bounties if winner_name == name)
