"""A bad log level (``CROUPIER_LOG_LEVEL`` or ``--log-level``) is one line naming the allowed values, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hosting.cli import build_parser, main
from hosting.commands import play
from hosting.logging_setup import level_from

ALLOWED = "use one of debug, info, warning, error"


def test_croupier_play_with_a_bogus_environment_level_says_so_in_one_line(tmp_path: Path) -> None:
    # a real process: the walkthrough saw a full traceback here
    result = subprocess.run([sys.executable, "-m", "hosting.cli", "play", "--data", str(tmp_path / "data")],
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
                            env=os.environ | {"CROUPIER_LOG_LEVEL": "bogus"})
    assert result.returncode == 2
    assert result.stderr == f"croupier play: CROUPIER_LOG_LEVEL 'bogus' is not a log level; {ALLOWED}\n"
    assert not (tmp_path / "data").exists()


def test_play_names_the_level_before_asking_for_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CROUPIER_LOG_LEVEL", "loud")
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert play.run(build_parser().parse_args(["play", "--data", str(tmp_path / "data")])) == 2
    assert capsys.readouterr().err == f"croupier play: CROUPIER_LOG_LEVEL 'loud' is not a log level; {ALLOWED}\n"
    assert not (tmp_path / "data").exists()


def test_croupier_host_with_a_bogus_environment_level(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CROUPIER_LOG_LEVEL", "bogus")
    assert main(["host", "--port", "0", "--data", str(tmp_path / "room")]) == 2
    assert capsys.readouterr().err == f"croupier host: CROUPIER_LOG_LEVEL 'bogus' is not a log level; {ALLOWED}\n"
    assert not (tmp_path / "room").exists()  # nothing touched


@pytest.mark.parametrize("command", ["play", "host"])
def test_a_bogus_log_level_option_is_refused_by_the_parser(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args([command, "--log-level", "loud"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == (f"croupier {command}: argument --log-level: invalid choice: 'loud' "
                                       "(choose from 'debug', 'info', 'warning', 'error') "
                                       f"(see `croupier {command} --help`)\n")


def test_levels_are_read_in_any_case(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_LOG_LEVEL", "DEBUG")
    assert level_from(None) == 10
    monkeypatch.delenv("CROUPIER_LOG_LEVEL")
    assert level_from(None) == 20  # info by default
    assert build_parser().parse_args(["host", "--log-level", "WARNING"]).log_level == "warning"
    assert level_from("warning") == 30
