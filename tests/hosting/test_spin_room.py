"""A Spin in the room (issue 18 "Spin"): when its three players are in, the room draws the multiplier by
commit–reveal with their clients (every client verifies it), starts the director from the proof, keeps the proof
with the tournament's state, and plays it to a winner; `croupier export --tournament` writes its summary with
the proof, which `croupier verify` checks."""

from __future__ import annotations

import pickle
from pathlib import Path

from engine.fair_draw import DrawProof, check_proof
from engine.tournament.director import Phase
from engine.tournament.formats import SPIN_MULTIPLIERS, Format, spin_row
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.draw_round import DrawSeconds
from hosting.store import Store
from hosting.tournament_config import TournamentConfig
from tests.hosting.tournament_play import Shover, tournament_room, until

NAMES = ("ana", "bob", "cy")
SPIN = tuple((row.multiplier, row.chances) for row in SPIN_MULTIPLIERS)


def spin_config() -> TournamentConfig:
    levels = tuple(Level(10 * step, 20 * step, duration=1.0) for step in (1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120))
    settings = TournamentSettings("spin", Format.SPIN, sit_and_go_size=3, max_players=3, seats_per_table=3,
                                  price=EntryPrice(100, 7), starting_stack=500, schedule=levels)
    return TournamentConfig(settings, "Spin", False, "chips")


async def test_a_spin_draws_its_multiplier_with_its_players_and_keeps_the_proof(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (spin_config(),))
    room.start()
    bots = [await Shover.join(room, name) for name in NAMES]
    try:
        owner = room.tournaments.owners["spin"]
        owner.draw_seconds = DrawSeconds(commit_seconds=5.0, reveal_seconds=5.0)
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="spin")
        await until(lambda: owner.director.phase is not Phase.REGISTERING, timeout=60)
        director = owner.director
        (data,) = director.draw_proofs
        proof = DrawProof.from_json(data)
        assert proof.draw_id == "spin:spin" and sorted(proof.secrets) == list(NAMES) and proof.withheld == ()
        assert check_proof(proof, outcomes=SPIN) == []
        assert director.spin_multiplier == proof.outcome == spin_row(proof.index).multiplier
        for bot in bots:  # every player's own client took part and checked the draw
            participant = bot.connection.fairness
            assert participant is not None and participant.draws is not None
            assert participant.draws.results == {"spin:spin": []}
        assert pickle.loads(pickle.dumps(director)).draw_proofs == [data]  # kept with the stored state
        await until(lambda: director.phase is Phase.COMPLETE, timeout=240)
        await store.flush()
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
