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


@pytest.mark.parametrize("game", list(play.VARIANTS))
def test_every_game_starts_with_the_default_players(tmp_path: Path, game: str) -> None:
    """``croupier play --game thirty_two_card_draw`` failed: 6 players, the game seats 5 (issue 14 item 8)."""
    arguments = _arguments(tmp_path, "--game", game)
    table = play.check_options(arguments.game, arguments.structure, arguments.players,  # type: ignore[attr-defined]
                               arguments.stakes)  # type: ignore[attr-defined]
    assert table.seats == min(6, play.VARIANTS[game].max_players)
    if game == "thirty_two_card_draw":
        assert table.seats == 5
    # asked for more than the game seats: one line naming the limit
    most = min(10, play.VARIANTS[game].max_players)
    with pytest.raises(play.PlayError, match=f"between 2 and {most} for"):
        play.check_options(game, None, most + 1, "1/2")
