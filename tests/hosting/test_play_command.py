"""``croupier play`` without a terminal: one clear line on stderr, exit status 2, no app started."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hosting.cli import build_parser
from hosting.commands import play


def _arguments(tmp_path: Path, *extra: str) -> object:
    return build_parser().parse_args(["play", "--data", str(tmp_path / "data"), *extra])


@pytest.mark.parametrize(("stdin_tty", "stdout_tty"), [(False, True), (True, False), (False, False)])
def test_play_without_a_terminal_refuses_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str],
                                                     stdin_tty: bool, stdout_tty: bool) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: stdin_tty)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: stdout_tty)
    assert play.run(_arguments(tmp_path)) == 2  # type: ignore[arg-type]
    captured = capsys.readouterr()
    assert captured.err == "croupier play: needs a terminal; run it in a terminal window\n"
    assert captured.out == ""
    assert not (tmp_path / "data").exists()  # refused before touching the data directory or starting the app


def test_bad_options_are_still_named_first_without_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert play.run(_arguments(tmp_path, "--stakes", "2/1")) == 2  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--stakes 2/1" in err
