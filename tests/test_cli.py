"""The ``croupier`` command line."""

from __future__ import annotations

import pytest

from hosting.cli import main


def test_help_lists_every_planned_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in ("play", "host", "join", "bots", "replay", "verify", "export", "audit"):
        assert name in out


def test_unbuilt_subcommand_says_so_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play"]) == 2
    assert "not built yet" in capsys.readouterr().err
