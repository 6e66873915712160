"""``croupier host`` (issue 27): the shared line says a password or invite is needed; root is warned."""

from __future__ import annotations

from pathlib import Path

import pytest

from hosting.cli import main
from hosting.commands import host
from hosting.commands.host import gate_words
from hosting.config import AccessConfig


def test_the_share_lines_say_what_else_a_friend_needs() -> None:
    both = gate_words(AccessConfig(password="swordfish", invite_codes=frozenset({"FRIDAY-7"})))
    assert both == ["They also need the room password and, for a name new here, an invite code "
                    "(room.toml: password, invite_codes): tell them yourself."]
    assert "swordfish" not in " ".join(both) and "FRIDAY-7" not in " ".join(both)
    assert gate_words(AccessConfig(invite_codes=frozenset({"F"}))) == [
        "They also need an invite code for a name new here (room.toml: invite_codes): tell them yourself."]
    assert gate_words(AccessConfig(allow=frozenset({"ana", "bruno"}))) == [
        "Only the 2 names under allow in room.toml may log in."]
    assert gate_words(AccessConfig()) == []


def test_host_as_root_is_warned(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                tmp_path: Path) -> None:
    monkeypatch.setattr(host.os, "geteuid", lambda: 0)
    host.warn_if_root()  # what the room says once it is open, before the share lines
    error = capsys.readouterr().err
    assert error.startswith("croupier host: warning: running as root")
    assert "sudo adduser --disabled-password poker" in error
    # A start refused for a bad room file keeps its one line, no warning before it.
    assert main(["host", "--config", str(tmp_path / "missing.toml"), "--data", str(tmp_path / "d")]) == 2
    assert "warning" not in capsys.readouterr().err
    monkeypatch.setattr(host.os, "geteuid", lambda: 1000)
    host.warn_if_root()
    assert capsys.readouterr().err == ""


def test_the_banner_counts_and_lists_the_pools_and_tournaments_too() -> None:
    """Found trying the room as a new host: a room file with a cash table, a pool and a Sit & Go opened with
    "(1 tables)" and listed only the table, as if the pool and the tournament had not been read."""
    from hosting.commands.host import _places
    from hosting.config import parse_room

    config = parse_room('[room]\nname = "friday"\n\n[[tables]]\nid = "home"\ngame = "texas_holdem"\n'
                        'structure = "no_limit"\nstakes = [1, 2]\n\n[[pools]]\nid = "zoom"\ngame = "texas_holdem"\n'
                        'structure = "no_limit"\nstakes = [1, 2]\n\n[[tournaments]]\nid = "sng"\n'
                        'type = "sit_and_go"\n')
    assert _places(config) == "1 table, 1 fast-fold pool, 1 tournament"
