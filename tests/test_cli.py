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
        "play", "host", "join", "bots", "replay", "verify", "export", "audit", "reports", "rake", "jackpot",
        "ledger", "admin",
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


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return dict(commands.choices)


def test_every_option_of_every_subcommand_has_a_one_line_help() -> None:
    for name, subparser in _subcommands().items():
        for action in subparser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            label = f"croupier {name} {'/'.join(action.option_strings) or action.dest}"
            assert action.help and action.help != argparse.SUPPRESS, f"{label} has no help"
            assert "\n" not in action.help, label
        assert subparser.description, f"croupier {name} has no description"


def test_croupier_help_lists_each_subcommand_on_one_line(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main(["--help"])
    lines = capsys.readouterr().out.splitlines()
    parser = build_parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    summaries = {choice.dest: choice.help for choice in commands._choices_actions}
    assert set(summaries) == set(_subcommands())
    for name, summary in summaries.items():
        assert f"    {name:<10}{summary}" in lines, name  # name and summary together, not wrapped


def test_host_help_describes_its_options(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit):
        main(["host", "--help"])
    out = capsys.readouterr().out
    assert "--port PORT           TCP port to listen on, 1-65535 (default 2222; 0 picks a free one)" in out
    assert "--config room.toml    room file: name, tables, stakes, access (default: six built-in tables)" in out
    assert "one room per directory" in out
    assert "host.log detail (default info, or $CROUPIER_LOG_LEVEL)" in out


@pytest.mark.parametrize(("argv", "line"), [
    (["play", "--bogus"], "croupier play: unrecognized arguments: --bogus (see `croupier play --help`)"),
    (["--bogus"], "croupier: unrecognized arguments: --bogus (see `croupier --help`)"),
    (["bots"], "croupier bots: the following arguments are required: --connect (see `croupier bots --help`)"),
    (["dance"], "croupier: argument COMMAND: invalid choice: 'dance' (choose from 'play', 'host', 'join', 'bots', "
                "'replay', 'verify', 'export', 'audit', 'reports', 'rake', 'jackpot', 'ledger', 'admin') "
                "(see `croupier --help`)"),
])
def test_argument_errors_are_one_line(argv: list[str], line: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == line + "\n"
