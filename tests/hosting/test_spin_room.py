"""A Spin in the room (issue 18 "Spin"): when its three players are in, the room draws the multiplier by
commit–reveal with their clients (every client verifies it), starts the director from the proof, keeps the proof
with the tournament's state, and plays it to a winner; `croupier export --tournament` writes its summary with
the proof, which `croupier verify` checks."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from engine.fair_draw import DrawProof, check_proof
from engine.tournament.director import Phase
from engine.tournament.formats import SPIN_MULTIPLIERS, Format, spin_row
from engine.tournament.levels import Level
from engine.tournament.money import EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.cli import main
from hosting.draw_round import DrawSeconds
from hosting.errors import RoomError
from hosting.hand_records import DRAW_PROOF_PREFIX
from hosting.store import Store
from hosting.tournament_config import TournamentConfig
from hosting.tournament_state import encode_snapshot, load_director
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
        stored_when_sent: list[bool] = []
        send_to = room.send_to

        def watching_send_to(name: str, message: Any) -> None:
            if message.get("type") == "draw_proof":  # the proof is in the stored state before anyone sees it
                (saved,) = [item for item in store.saved_tournaments() if item.id == "spin"]
                stored = load_director(saved.state, saved.steps)  # its snapshot and the steps since
                stored_when_sent.append(stored.draw_proofs == [message["proof"]])
            send_to(name, message)

        room.send_to = watching_send_to  # type: ignore[method-assign]
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="spin")
        await until(lambda: owner.director.phase is not Phase.REGISTERING, timeout=60)
        director = owner.director
        (data,) = director.draw_proofs
        proof = DrawProof.from_json(data)
        assert proof.draw_id == "spin:spin" and sorted(proof.secrets) == list(NAMES) and proof.withheld == ()
        assert check_proof(proof, outcomes=SPIN) == []
        assert director.spin_multiplier == proof.outcome == spin_row(proof.index).multiplier
        assert load_director(encode_snapshot(director)).draw_proofs == [data]  # kept with the stored state
        await until(lambda: len(stored_when_sent) == 3, timeout=30)
        assert stored_when_sent == [True, True, True]
        for bot in bots:  # every player's own client took part and checked the draw
            participant = bot.connection.fairness
            assert participant is not None and participant.draws is not None
            await until(lambda participant=participant: bool(participant.draws.results), timeout=30)
            assert participant.draws.results == {"spin:spin": []}
        await until(lambda: director.phase is Phase.COMPLETE, timeout=240)
        await store.flush()
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
    # the summary export: places and prizes as PokerStars writes them, the multiplier's proof after them
    summary = tmp_path / "summary.txt"
    assert main(["export", "--data", str(tmp_path / "store"), "--tournament", "spin", "--player", "bob",
                 "-o", str(summary)]) == 0
    text = summary.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0].startswith("PokerStars Tournament #") and lines[0].endswith(", No Limit Hold'em")
    assert lines[1:4] == ["Buy-In: 100/7", "3 players", f"Total Prize Pool: {100 * proof.outcome}"]
    winner = next(entry for entry in director.entries.values() if entry.place == 1)
    assert f"  1: {winner.player}, {100 * proof.outcome} (100%)" in lines or proof.outcome >= 25
    assert any(line.startswith("You finished in ") for line in lines)
    assert f"{DRAW_PROOF_PREFIX}" in text
    assert main(["verify", str(summary)]) == 0
    tampered = text.replace(f'"outcome":{proof.outcome}', f'"outcome":{2 if proof.outcome != 2 else 3}')
    assert tampered != text
    summary.write_text(tampered, encoding="utf-8")
    assert main(["verify", str(summary)]) == 1
    assert main(["export", "--data", str(tmp_path / "store"), "--tournament", "nope"]) == 2
    # its hands: PokerStars' tournament layout, numbered as its summary, read back by PokerKit, every proof checks
    number = lines[0].removeprefix("PokerStars Tournament #").split(",")[0]
    hands_file = tmp_path / "hands.txt"
    assert main(["export", "--data", str(tmp_path / "store"), "-o", str(hands_file)]) == 0
    hands_text = hands_file.read_text(encoding="utf-8")
    heads = [line for line in hands_text.splitlines() if line.startswith("PokerStars Hand #")]
    assert heads and len(heads) >= director.hands - 1  # a hand may be left running at the end: never stored
    assert all(f": Tournament #{number}, 100+7 Hold'em No Limit - Level " in head for head in heads)
    assert "Level I (10/20)" in heads[0]
    assert f"Table '{number} 1' 3-max" in hands_text
    pokerkit = pytest.importorskip("pokerkit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = list(pokerkit.HandHistory.from_pokerstars(hands_text, error_status=True))
    assert len(parsed) == len(heads)
    assert list(parsed[0].starting_stacks) == [500, 500, 500]
    assert main(["verify", str(hands_file)]) == 0
    assert main(["audit", "--data", str(tmp_path / "store")]) == 0  # tournament hands: no ledger rows expected


async def test_a_failed_draw_is_drawn_again_with_a_new_id_and_the_players_in_place(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in NAMES:
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (spin_config(),))
    room.start()
    run_draw = room.run_draw
    calls: list[str] = []

    async def failing_once(draw_id: str, *args: Any, **options: Any) -> DrawProof:
        calls.append(draw_id)
        if len(calls) == 1:
            raise RuntimeError("the draw was lost")  # e.g. the room's mailroom failed mid-draw
        return await run_draw(draw_id, *args, **options)

    room.run_draw = failing_once  # type: ignore[method-assign]
    bots = [await Shover.join(room, name) for name in NAMES]
    try:
        owner = room.tournaments.owners["spin"]
        owner.draw_seconds = DrawSeconds(commit_seconds=5.0, reveal_seconds=5.0)
        for bot in bots:
            await bot.connection.send("tournament", action="register", tournament="spin")
        await until(lambda: owner.director.phase is not Phase.REGISTERING, timeout=60)
        assert calls == ["spin:spin", "spin:spin.2"]  # the clock tick drew again, under its own id
        (data,) = owner.director.draw_proofs
        proof = DrawProof.from_json(data)
        assert proof.draw_id == "spin:spin.2" and sorted(proof.secrets) == list(NAMES)
        assert owner.director.spin_multiplier == proof.outcome
        owner.drawing = True  # while a draw runs its players are held: nobody leaves between commit and reveal
        with pytest.raises(RoomError, match="drawing its multiplier"):
            owner.unregister("ana")
    finally:
        for bot in bots:
            await bot.stop()
        await room.stop()
