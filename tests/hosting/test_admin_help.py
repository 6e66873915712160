"""``croupier admin --help`` says what the room does (attack pass after issue 25, read as a host would): it sent
the host to "the Host screen (H)" — H is the hand log, the Host screen is Ctrl+O (README) — and said a key reset
lets "the next login with that name" register its key, when the next login must give the reset's one-time code."""

from __future__ import annotations

import pytest

from hosting.cli import main


def _help(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    with pytest.raises(SystemExit):
        main(["admin", *arguments, "--help"])
    return " ".join(capsys.readouterr().out.split())


def test_admin_help_names_the_host_screens_key_and_the_reset_code(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(capsys)
    assert "Ctrl+O" in text and "(H)" not in text
    assert "one-time code" in text
    assert "every name of its key" in text
    assert "fast-fold pools, tournaments" in text  # status shows them (it said only tables, seat requests…)
