"""``croupier replay``: JSON lines, summary, exit status, and the public corpus (issue 3).

The corpus sample: ``CROUPIER_REPLAY_SAMPLE`` Pluribus files (default 300, spread evenly over the 10,000) and
every WSOP file. The full run is a command: ``croupier replay ../shared/corpus/phh/pluribus ../shared/corpus/phh/wsop``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hosting.cli import main
from hosting.commands.replay import replay_file, replay_paths

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "phh"
SUPPORTED = {"NT", "FT", "PO", "FO/8", "F7S", "F7S/8", "F2L3D", "FR", "N2L1D"}  # razz and single draw: issue 16

GOOD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 AsKd', 'd dh p2 ????', 'd dh p3 7h2c', 'p3 f', 'p1 cbr 300', 'p2 f']
finishing_stacks = [10100, 9900, 10000]
"""


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(paths: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]]]:
    status = main(["replay", *paths])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, lines


def test_matching_file_prints_its_line_and_a_summary_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "good.phh", GOOD)
    status, lines = run_cli([str(path)], capsys)
    assert status == 0
    assert lines[0] == {"file": str(path), "variant": "NT", "finishing_stacks": [10100, 9900, 10000],
                        "expected": [10100, 9900, 10000], "match": True}
    summary = lines[-1]["summary"]
    assert isinstance(summary, dict)
    assert summary["files"] == 1 and summary["matched"] == 1 and summary["errors"] == 0


def test_mismatch_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "bad.phh", GOOD.replace("[10100, 9900, 10000]", "[10000, 10000, 10000]"))
    status, lines = run_cli([str(tmp_path)], capsys)
    assert status == 1
    assert lines[0]["match"] is False and lines[0]["expected"] == [10000, 10000, 10000]


def test_unsupported_variant_is_counted_apart_and_does_not_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "a.phh", GOOD)
    write(tmp_path, "b.phh", GOOD.replace("variant = 'NT'", "variant = 'FK'"))  # Kuhn poker
    status, lines = run_cli([str(tmp_path)], capsys)
    assert status == 0
    assert lines[1]["error"] == "unsupported variant FK" and lines[1]["match"] is None
    summary = lines[-1]["summary"]
    assert isinstance(summary, dict) and summary["unsupported"] == 1 and summary["matched"] == 1


def test_unreadable_and_missing_files_are_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "broken.phh", "variant = 'NT'\nactions = [")
    status, lines = run_cli([str(tmp_path / "broken.phh"), str(tmp_path / "missing.phh")], capsys)
    assert status == 1
    assert "not valid TOML" in str(lines[0]["error"])
    assert "missing.phh" in str(lines[1]["error"]) or "No such file" in str(lines[1]["error"])


def test_record_without_finishing_stacks_is_unchecked_not_failed(tmp_path: Path) -> None:
    path = write(tmp_path, "famous.phh", GOOD.replace("finishing_stacks = [10100, 9900, 10000]\n", ""))
    line, outcome = replay_file(path)
    assert outcome == "unchecked" and line["match"] is None and line["finishing_stacks"] == [10100, 9900, 10000]


def corpus_sample() -> tuple[list[Path], int]:
    """The sampled files and how many of them are Pluribus records (all no-limit hold'em, all supported)."""
    pluribus = sorted((CORPUS / "pluribus").rglob("*.phh"))
    count = min(int(os.environ.get("CROUPIER_REPLAY_SAMPLE", "300")), len(pluribus))
    chosen = pluribus[:: max(1, len(pluribus) // count)][:count] if count else []
    return chosen + sorted((CORPUS / "wsop").rglob("*.phh")), len(chosen)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"hand-record corpus not found at {CORPUS}")
def test_corpus_sample_every_supported_record_matches(capsys: pytest.CaptureFixture[str]) -> None:
    failures = []
    supported = 0
    files, pluribus = corpus_sample()
    for path in files:
        line, outcome = replay_file(path)
        if line["variant"] in SUPPORTED:
            supported += 1
        if outcome in ("mismatched", "error"):
            failures.append(line)
        elif line["variant"] in SUPPORTED:
            assert outcome == "matched", line
        else:
            assert outcome == "unsupported", line
    assert supported >= pluribus + 30  # the WSOP day has 39 NT/FT/PO/FO8 records
    # Known engine gap (reported to the hand engine's owner): ForcedBets has no big-blind ante, so a pot-limit
    # record whose maximum raise counts that ante is refused. Any other failure fails the test.
    unexpected = [line for line in failures if not str(line.get("error", "")).startswith("you may bet to")]
    assert unexpected == []
    assert len(failures) <= 1


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"hand-record corpus not found at {CORPUS}")
def test_summary_counts_per_variant_on_the_wsop_records(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    summary = replay_paths([str(CORPUS / "wsop")], io.StringIO())
    by_variant = summary["by_variant"]
    assert isinstance(by_variant, dict)
    assert by_variant["FT"] == {"matched": 7}
    assert by_variant["FO/8"] == {"matched": 14}
    assert by_variant["FR"] == {"matched": 10}  # Razz (issue 16)
    assert by_variant["N2L1D"] == {"matched": 7}  # 2-7 single draw, no limit (issue 16)
    assert summary["files"] == 83 and summary["matched"] == 83
    assert summary["unsupported"] == 0 and summary["errors"] == 0 and summary["mismatched"] == 0


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"hand-record corpus not found at {CORPUS}")
def test_every_checked_record_outside_pluribus_matches(capsys: pytest.CaptureFixture[str]) -> None:
    """The whole corpus but the 10,000 Pluribus hands (all matched, sampled above): 83 of 83 records with finishing
    stacks match and every game is played (0 unsupported); 5 famous hands have no finishing stacks (unchecked):
    badugi (FB) and short-deck hold'em (NS) end as PokerKit plays them. With Pluribus: 10,083 of 10,083."""
    import io

    paths = [str(path) for path in sorted(CORPUS.iterdir()) if path.name != "pluribus"]
    output = io.StringIO()
    summary = replay_paths(paths, output)
    assert (summary["matched"], summary["mismatched"], summary["errors"]) == (83, 0, 0)
    assert (summary["unchecked"], summary["unsupported"]) == (5, 0)
    stacks = {line["variant"]: line["finishing_stacks"] for line in map(json.loads, output.getvalue().splitlines())
              if line.get("variant") in ("FB", "NS")}
    assert stacks == {"FB": [196, 220, 200, 184], "NS": [489000, 226000, 684000, 400000, 0, 198000]}  # PokerKit's
