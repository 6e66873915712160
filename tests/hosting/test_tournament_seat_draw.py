"""A tournament's first seats come from the same commit–reveal draw as a Spin's multiplier (issue 29): the room
draws them with the registered players' clients, starts the director from the proof's key, keeps the proof with
the tournament and exports it after the summary; `croupier verify` checks it, and a changed proof fails."""

from __future__ import annotations

import json
from pathlib import Path

from engine.fair_draw import DrawProof, KeyDraw, check_proof
from engine.tournament.director import Phase
from engine.tournament.seating import initial_tables
from hosting.cli import main
from hosting.hand_records import DRAW_PROOF_PREFIX
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room, until

NAMES = ("ana", "bob", "cy", "dee", "eve", "fay")


async def test_first_seats_are_drawn_with_the_players_and_their_proof_is_exported(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (sit_and_go(level_seconds=0.5),))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    try:
        owner = room.tournaments.owners["sng"]
        assert owner.director.seats_by_draw
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="sng")
        await until(lambda: owner.director.phase is not Phase.REGISTERING)
        director = owner.director
        (data,) = director.draw_proofs
        proof = DrawProof.from_json(data)
        # every registered player's client committed and revealed; the table binds how many were seated
        assert proof.draw_id == "seats:sng" and sorted(proof.secrets) == sorted(NAMES) and proof.withheld == ()
        assert proof.outcomes == ((6, 1),) and proof.outcome == 6 and check_proof(proof) == []
        # the first seats are the draw's: anyone replays them from the proof's key
        entries = {number: entry.player for number, entry in director.entries.items()}
        drawn = [sorted(entries[number] for number in table)
                 for table in initial_tables(sorted(entries), 3, KeyDraw(proof.key))]
        await until(lambda: all(bot.events("player_seated_at") for bot in bots))
        first = {bot.name: bot.events("player_seated_at")[0]["table"] for bot in bots}
        assert sorted(sorted(name for name, table in first.items() if table == number) for number in (1, 2)) == \
            sorted(drawn)
        for bot in bots:  # each client took part and checked the draw
            participant = bot.connection.fairness
            assert participant is not None and participant.draws is not None
            await until(lambda participant=participant: "seats:sng" in participant.draws.results, timeout=30)
            assert participant.draws.results["seats:sng"] == []
        await until(lambda: director.phase is Phase.COMPLETE, timeout=240)
        await store.flush()
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
    summary = tmp_path / "summary.txt"
    assert main(["export", "--data", str(tmp_path / "store"), "--tournament", "sng", "-o", str(summary)]) == 0
    text = summary.read_text(encoding="utf-8")
    (line,) = [line for line in text.splitlines() if line.startswith(DRAW_PROOF_PREFIX)]
    assert json.loads(line.removeprefix(DRAW_PROOF_PREFIX)) == proof.to_json()
    assert main(["verify", str(summary)]) == 0
    # a changed secret (a seat draw the players did not make) or a changed count fails
    secret = proof.secrets["bob"].hex()
    changed = "0" if secret[0] != "0" else "1"
    for tampered in (text.replace(secret, changed + secret[1:]), text.replace('"outcome":6', '"outcome":5')):
        assert tampered != text
        summary.write_text(tampered, encoding="utf-8")
        assert main(["verify", str(summary)]) == 1


def test_a_director_that_waits_for_its_seat_draw_does_not_start_by_itself_and_keeps_that_when_stored() -> None:
    """Stored and replayed (a room restarted mid-registration), a tournament still waits for the room's draw: its
    registrations do not start it on replay."""
    from engine.tournament.journal import Journal
    from engine.tournament.money import Balance
    from hosting.tournament_state import encode_calls, encode_snapshot, load_director
    from tests.engine.tournament.helpers import first

    settings = sit_and_go(size=3, seats=3).settings
    from engine.tournament.director import Tournament
    director = Tournament(settings, first)
    director.open_registration(0.0)
    snapshot = encode_snapshot(director)
    director.journal = journal = Journal()
    director.seat_by_draw()
    for name in NAMES[:3]:
        director.register(name, Balance(), 1.0)
    assert director.phase is Phase.REGISTERING and director.due_to_start(1.0)  # full: the room draws, then starts
    assert director.tick(2.0) == [] and director.phase is Phase.REGISTERING
    restored = load_director(snapshot, [encode_calls(journal.take())])
    assert restored.seats_by_draw and restored.phase is Phase.REGISTERING and len(restored.entries) == 3
    assert load_director(encode_snapshot(restored)).seats_by_draw
