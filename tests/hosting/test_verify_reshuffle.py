"""``croupier verify`` on exported triple-draw hands that reshuffled: the replacements dealt from reshuffled
discards are checked against the reshuffles recomputed from the exported transcript (R-DRAW-1, R-FAIR-1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hosting.cli import main
from tests.hosting.draw_play import reshuffling_room


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("draw-export")
    data_dir = reshuffling_room(folder / "room", hands=2)
    paths = {}
    for kind in ("pokerstars", "phh"):
        paths[kind] = folder / f"hands.{kind}"
        assert main(["export", "--data", str(data_dir), "--format", kind, "--output", str(paths[kind])]) == 0
    return paths


@pytest.mark.parametrize("kind", ["pokerstars", "phh"])
def test_exported_reshuffled_hands_verify(exported: dict[str, Path], kind: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["verify", str(exported[kind])]) == 0
    assert "2 hand(s)" in capsys.readouterr().err


def test_a_swapped_reshuffled_card_in_an_export_fails_verify(exported: dict[str, Path], tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = exported["pokerstars"].read_text()
    lines = text.splitlines()
    first_draw = lines.index("*** FIRST DRAW ***")
    dealt = [index for index in range(first_draw, len(lines)) if lines[index].startswith("Dealt to ")][4]
    # the fifth drawer gets the last 2 stub cards, then 3 from the first reshuffle: swap two of those
    head, _, cards = lines[dealt].partition("[")
    names = cards.rstrip("]").split()
    names[2], names[3] = names[3], names[2]
    lines[dealt] = f"{head}[{' '.join(names)}]"
    tampered = tmp_path / "tampered.txt"
    tampered.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["verify", str(tampered)]) == 1
    problems = capsys.readouterr().out.splitlines()
    assert len(problems) == 2 and all(": reshuffle_card_mismatch: " in line for line in problems), problems
    assert "dealt from reshuffle 0, but position 0 of that reshuffle holds" in problems[0]
