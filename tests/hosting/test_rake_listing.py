"""``croupier rake`` (R-RAKE-1, issue 15 item 16): every rulebook rake table and preset listed, rows as the seeds."""

from __future__ import annotations

import pytest

from engine import rake
from hosting.cli import main


def _listing(capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["rake"]) == 0
    return capsys.readouterr().out.splitlines()


def test_r_rake_1_listing_names_every_preset_and_room_table(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _listing(capsys)
    for name in rake.PRESETS:
        assert sum(line.startswith(f'rake = "{name}": ') for line in lines) == 1, name
    for name in rake.TABLES:
        assert sum(line.startswith(f'rake = "{name}"  (') for line in lines) == 1, name
    assert len(rake.PRESETS) == 19  # no rake + 6 white-label + 8 Titan + 4 Caradepoker rows


def test_r_rake_1_listed_rows_are_the_seeds_numbers_in_cents(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _listing(capsys)
    # seeds/004 "Sin límite, límite al bote y límite a ½ bote": 0.05 per 1.00, max 0.75 / 2.00 / 3.00 for
    # 2 / 3-4 / 5-10 players; pots under 4.00: 0.01 per 0.20.
    assert 'rake = "Caradepoker NL/PL/half-PL": 5 per 100; cap 75 (2 players), 200 (3-4), 300 (5-10); ' \
           "pots under 400: 1 per 20" in lines
    # seeds/004 "Con límite y límite repartido (€1/€2)": 0.25 per 5.00, max 0.75 / 2.00 for 2-3 / 4-10.
    assert 'rake = "Caradepoker limit 1/2": 25 per 500; cap 75 (2-3 players), 200 (4-10)' in lines
    # seeds/000 "Sin Limite": 2.5 %, max 1 / 2 / 3 for 2-3 / 4-5 / 6-10 players.
    assert 'rake = "white-label no limit": 2.5%; cap 100 (2-3 players), 200 (4-5), 300 (6-10)' in lines
    # seeds/000 "Fijo, ciega pequeña 0.51 – 10": 2.5 %, min 0.02, max 3.
    assert 'rake = "white-label fixed limit, small blind 0.51-10": 2.5%; cap 300 (2-10 players); minimum 2' in lines
    # seeds/001 limit: pot reaches 100 → 2.00, +0.50 at 125 … 350; max 2.00 for 2-3, 5.00 for 4-10.
    assert 'rake = "Titan limit, pot-size steps to 5.00": pot 10000: 200, 12500: 250, 15000: 300, 20000: 350, ' \
           "25000: 400, 30000: 450, 35000: 500; cap 200 (2-3 players), 500 (4-10)" in lines
    # seeds/001 PL/NL $0.01/$0.02-$0.02/$0.04: 0.10 → 0.01 … 1.50 → 0.10, max 0.10.
    assert 'rake = "Titan PL/NL $0.01/$0.02-$0.02/$0.04": pot 10: 1, 25: 2, 40: 3, 55: 4, 70: 5, 85: 6, ' \
           "100: 7, 115: 8, 130: 9, 150: 10; cap 10 (2-10 players)" in lines
    assert "  fixed_limit, spread_limit, big blind 101+: Caradepoker limit 2/4 and above" in lines


def test_r_rake_1_croupier_help_names_the_rake_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "list the rake tables and presets a room file can name" in capsys.readouterr().out
