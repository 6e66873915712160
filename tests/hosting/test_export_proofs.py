"""Where an export keeps its shuffle proofs (issue 14 item 26): PokerStars-style text has nothing but PokerStars
lines inside its hands (the ``croupier transcript`` lines between hands could break trackers' parsers): the
proofs are one comment block after the last hand, which PokerKit's parser skips and ``croupier verify`` reads;
PHH files end with a newline; ``croupier verify`` names the players, not seat indexes."""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path

import pytest

from hosting.cli import main
from hosting.hand_records import PROOFS_HEADING, TRANSCRIPT_PREFIX
from hosting.store import Store
from tests.hosting.store_play import BotTable, table_config

HANDS = 12


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data_dir = tmp_path_factory.mktemp("proofs") / "room"
    store = Store.open(data_dir)
    config = table_config("t1", "texas_holdem", "no_limit", 5, 10, seats=4)
    names = ["ann", "bob", "cyd", "dee"]
    for name in names:
        store.register(name, f"ssh-ed25519 K{name}", chips=10_000)
    table = BotTable(store, config, names, random.Random(14))
    started = 1_800_000_000.0
    for _ in range(HANDS):
        table.play_hand(started)
        started += 60.0
    store.close_now()
    return data_dir


def export(room: Path, tmp_path: Path, *options: str) -> str:
    output = tmp_path / "export"
    assert main(["export", "--data", str(room), *options, "-o", str(output)]) == 0
    return output.read_text(encoding="utf-8")


def test_pokerstars_hands_hold_only_pokerstars_lines_and_the_proofs_follow_them(
        room: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    text = export(room, tmp_path)
    chunks = re.split(r"\n{3,}", text)
    hands, proofs = chunks[:-1], chunks[-1]
    assert len(hands) == HANDS and all(chunk.startswith("PokerStars Hand #") for chunk in hands)
    assert not [line for chunk in hands for line in chunk.splitlines() if "croupier" in line]
    lines = proofs.splitlines()
    assert lines[0] == PROOFS_HEADING
    assert [line.split(":", 1)[0] for line in lines[1:]] == [f"{TRANSCRIPT_PREFIX}{number}"
                                                            for number in range(1, HANDS + 1)]
    assert text.endswith("}\n")
    # PokerKit reads the whole file: every hand, and nothing of the proofs block as a hand
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        histories = list(pokerkit.HandHistory.from_pokerstars(text, error_status=True))
    assert len(histories) == HANDS
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "export")]) == 0
    said = capsys.readouterr().err
    assert said == f"croupier verify: {HANDS} hand(s) in {tmp_path / 'export'}; every shuffle checks out\n"


def test_an_export_of_the_former_layout_still_verifies(room: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    text = export(room, tmp_path)
    *hands, proofs = re.split(r"\n{3,}", text)
    old = "\n\n".join(f"{hand}\n\n{line.removeprefix('# ')}\n"
                      for hand, line in zip(hands, proofs.splitlines()[1:], strict=True))
    path = tmp_path / "old.txt"
    path.write_text(old, encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(path)]) == 0


def test_phh_exports_end_with_a_newline(room: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    for options in ((), ("--player", "bob")):
        text = export(room, tmp_path, "--format", "phh", *options)
        assert text.endswith("\n") and not text.endswith("\n\n"), repr(text[-40:])
        assert len(list(pokerkit.HandHistory.loads_all(text))) == HANDS
        assert main(["replay", str(tmp_path / "export")]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("output_format", ["pokerstars", "phh"])
def test_verify_names_the_player_whose_card_does_not_check_out(room: Path, tmp_path: Path, output_format: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    text = export(room, tmp_path, "--format", output_format)
    if output_format == "pokerstars":  # bob's first hole card in the first hand
        dealt = re.search(r"^Dealt to bob \[(\w\w) \w\w\]$", text, re.MULTILINE)
    else:  # the first record's "d dh pN" line of bob (p1 is the first player listed in "players")
        players = re.search(r"^players = \[(.*)\]$", text, re.MULTILINE)
        assert players is not None
        number = [name.strip(' "') for name in players[1].split(",")].index("bob") + 1
        dealt = re.search(rf'"d dh p{number} (\w\w)\w\w"', text)
    assert dealt is not None
    # the cards of that hand (PokerStars: up to its end; PHH: its actions, not the hex of its transcript)
    first_hand = text[:text.find("\n\n", dealt.end())] if output_format == "pokerstars" else \
        text[:text.find("]\n", dealt.end())]
    seen = set(re.findall(r"[2-9TJQKA][cdhs]", first_hand))
    replacement = next(rank + suit for rank in "23456789TJQKA" for suit in "cdhs" if rank + suit not in seen)
    tampered = tmp_path / "tampered"
    tampered.write_text(text[:dealt.start(1)] + replacement + text[dealt.end(1):], encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(tampered)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines and all("card_mismatch" in line for line in lines), lines
    assert f"{replacement} was seen as card 1 of bob, but deck position" in lines[0], lines
    assert not [line for line in lines if re.search(r"\bseat \d", line)], lines
