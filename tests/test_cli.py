"""The ``croupier`` command line."""

from __future__ import annotations

import argparse
import importlib

import pytest

from hosting.cli import build_parser, main


def test_help_lists_every_planned_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for name in ("play", "host", "join", "bots", "replay", "verify", "export", "audit"):
        assert name in out


def test_every_subcommand_has_a_module_with_run() -> None:
    parser = build_parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    assert set(commands.choices) == {
        "play", "host", "join", "bots", "replay", "verify", "export", "audit", "reports",
    }
    for name in commands.choices:
        module = importlib.import_module(f"hosting.commands.{name}")
        assert callable(module.run), name


def test_help_no_longer_says_not_built(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "not built" not in capsys.readouterr().out


def test_version_names_the_package(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.startswith("croupier 0.")
