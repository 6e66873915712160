"""Tournament exports (issue 18 "History" and "Spin"): a Spin played to a winner, its summary as PokerStars writes
it with the multiplier's proof after it, checked by ``croupier verify`` (tampering the multiplier or a seed
fails); tournament hands in ``croupier export`` in PokerStars' tournament layout, read back by PokerKit."""

from __future__ import annotations

import json
import random
import re
import warnings
from pathlib import Path

import pytest

from engine.fair_draw import draw_commit, make_proof
from engine.tournament.director import Phase, Tournament
from engine.tournament.formats import SPIN_MULTIPLIERS, Format
from engine.tournament.money import Balance, EntryPrice
from engine.tournament.settings import TournamentSettings
from hosting.cli import main
from hosting.hand_records import DRAW_PROOF_PREFIX, tournament_tag
from hosting.store import Store
from hosting.tournament_export import PROOFS_HEADING, summary_export
from tests.engine.tournament.helpers import LEVELS, first
from tests.engine.tournament.simulation import play
from tests.hosting.store_play import BotTable, table_config

SPIN = tuple((row.multiplier, row.chances) for row in SPIN_MULTIPLIERS)
NAMES = ("ann", "bob", "cy")


def played_spin() -> tuple[Tournament, str]:
    settings = TournamentSettings(tournament_id="spin-1", format=Format.SPIN, sit_and_go_size=3, seats_per_table=3,
                                  price=EntryPrice(10, 1), schedule=LEVELS, starting_stack=500)
    director = Tournament(settings, first)
    director.open_registration(0)
    for name in NAMES:
        director.register(name, Balance(), 1)
    secrets = {name: bytes([index + 1]) * 32 for index, name in enumerate(NAMES)}
    committed = {name: draw_commit("room-1", "spin:spin-1", name, secret) for name, secret in secrets.items()}
    proof = make_proof("room-1", "spin:spin-1", SPIN, bytes(32), secrets, committed=committed)
    director.start(2, spin_draw=proof.index)  # the proof's index is the director's draw
    assert director.spin_multiplier == proof.outcome
    play(director, random.Random(18), now=2)
    assert director.phase is Phase.COMPLETE
    return director, summary_export(director, 4242, started_at=1_800_000_000, finished_at=1_800_000_900,
                                    player="bob", proofs=[proof])


def test_a_spin_summary_lists_places_and_prizes_and_carries_the_multipliers_proof() -> None:
    director, text = played_spin()
    summary, proofs = text.split("\n\n\n")
    lines = summary.splitlines()
    multiplier = director.spin_multiplier
    assert multiplier is not None
    assert lines[:5] == ["PokerStars Tournament #4242, No Limit Hold'em", "Buy-In: 10/1", "3 players",
                         f"Total Prize Pool: {10 * multiplier}",
                         "Tournament started 2027/01/15 08:00:00 UTC [2027/01/15 3:00:00 ET]"]
    places = sorted(director.entries.values(), key=lambda entry: (entry.place or 0, entry.number))
    assert [entry.place for entry in places] in ([1, 2, 3], [1, 2, 2])  # two out in one hand share 2nd
    winner = places[0]
    assert lines[5] == f"  1: {winner.player}, {10 * multiplier} (100%)"  # 2× to 10×: the winner takes all
    assert lines[6:8] == [f"  {entry.place}: {entry.player}," for entry in places[1:]]
    assert lines[8] == "Tournament finished 2027/01/15 08:15:00 UTC [2027/01/15 3:15:00 ET]"
    bob = next(entry for entry in places if entry.player == "bob")
    assert lines[9] == f"You finished in {['1st', '2nd', '3rd'][(bob.place or 1) - 1]} place."
    proof_lines = proofs.splitlines()
    assert proof_lines[0] == PROOFS_HEADING and proof_lines[1].startswith(DRAW_PROOF_PREFIX)
    assert json.loads(proof_lines[1][len(DRAW_PROOF_PREFIX):])["outcome"] == multiplier


def test_croupier_verify_checks_the_spin_proof_and_catches_a_tampered_multiplier_or_seed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, text = played_spin()
    path = tmp_path / "summary.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", str(path)]) == 0
    assert "1 draw(s), every draw checks out" in capsys.readouterr().err

    head, _, line = text.rpartition(DRAW_PROOF_PREFIX)
    proof = json.loads(line)
    bigger = {**proof, "outcome": 1000 if proof["outcome"] != 1000 else 2}
    path.write_text(head + DRAW_PROOF_PREFIX + json.dumps(bigger) + "\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"draw spin:spin-1: draw_mismatch: the outcome is {proof['outcome']}, the proof says" in out

    forged = {**proof, "secrets": {**proof["secrets"], "bob": "07" * 32}}
    path.write_text(head + DRAW_PROOF_PREFIX + json.dumps(forged) + "\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "draw spin:spin-1: draw_mismatch: the secret of bob does not match its commitment" in out

    path.write_text(head + DRAW_PROOF_PREFIX + "{not json\n", encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    assert "draw 1: bad_proof:" in capsys.readouterr().out


@pytest.fixture(scope="module")
def tournament_room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("tournament-export") / "room"
    store = Store.open(data_dir)
    config = table_config("sng-1.2", "texas_holdem", "no_limit", 5, 10, seats=4)
    names = ["ann", "bob", "cyd", "dee"]
    for name in names:
        store.register(name, f"ssh-ed25519 K{name}", chips=10_000)
    table = BotTable(store, config, names, random.Random(18))
    # the tag the tournament's table owner stores with each hand (hosting.hand_records.TOURNAMENT_TAG)
    table.settings["tournament"] = tournament_tag("77", 100, 10, 20, 3, 2, {seat: 20 + 5 * seat for seat in range(4)})
    started = 1_800_000_000.0
    for _ in range(8):
        table.play_hand(started)
        started += 60.0
    store.close_now()
    return data_dir


def test_tournament_hands_are_exported_in_the_tournament_layout_and_verify(
        tournament_room: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    output = tmp_path / "hands.txt"
    assert main(["export", "--data", str(tournament_room), "-o", str(output)]) == 0
    text = output.read_text(encoding="utf-8")
    hands = [chunk for chunk in re.split(r"\n{3,}", text) if chunk.startswith("PokerStars Hand #")]
    assert len(hands) == 8
    for chunk in hands:
        first_line, table_line = chunk.splitlines()[:2]
        assert re.fullmatch(r"PokerStars Hand #\d+: Tournament #77, 100\+20\+10 Hold'em No Limit - Level III \(5/10\)"
                            r" - \d{4}/\d\d/\d\d \d\d:\d\d:\d\d UTC \[\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d ET\]",
                            first_line), first_line
        assert table_line.startswith("Table '77 2' 4-max Seat #")
        seat_lines = [line for line in chunk.splitlines() if line.startswith("Seat ") and "in chips" in line]
        assert seat_lines and all(re.fullmatch(r"Seat (\d): \w+ \(\d+ in chips, (\d+) bounty\)", line)
                                  for line in seat_lines), seat_lines
        assert all(int(line.split(", ")[1].split()[0]) == 20 + 5 * (int(line[5]) - 1) for line in seat_lines)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed = list(pokerkit.HandHistory.from_pokerstars(text, error_status=True))
    assert len(parsed) == 8
    assert main(["verify", str(output)]) == 0
    assert "every shuffle checks out" in capsys.readouterr().err


def test_verify_of_a_summary_without_a_draw_says_there_is_nothing_to_check(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a Sit & Go's summary: places and prizes, no hands and no draw proof — not "every shuffle checks out"
    text, _, _ = played_spin()[1].partition(DRAW_PROOF_PREFIX)
    path = tmp_path / "summary.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "nothing to check in" in err and "no hands and no draw proofs" in err
    assert "checks out" not in err
