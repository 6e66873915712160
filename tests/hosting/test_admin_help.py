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


def test_every_admin_argument_has_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 leftover 7: `croupier admin stack --help` listed `table player amount reason` with no word on
    any of them."""
    import argparse

    from hosting.admin_parser import add_admin

    parser = argparse.ArgumentParser(prog="croupier")
    add_admin(parser.add_subparsers(), "the data directory", lambda arguments: 0)
    admin = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    actions = next(action for action in admin.choices["admin"]._actions
                   if isinstance(action, argparse._SubParsersAction))
    missing = [f"{name} {argument.dest}" for name, sub in actions.choices.items() for argument in sub._actions
               if not argument.help]
    assert missing == []
    text = _help(capsys, "stack")
    assert "amount chips, + to add or - to take away (e.g. 50, -20)" in text
    assert "table a table's id as room.toml names it" in text


def test_export_help_and_readme_name_the_games_phh_export_keeps(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 27 leftover 7: `croupier export --help` said PHH names hold'em, Omaha, Omaha hi/lo, stud, stud hi/lo
    and triple draw, and counted "the 32-card games" out; the code (engine.variants' phh_codes) and the README
    also keep short deck, razz, 2-7 single draw and badugi."""
    from pathlib import Path

    from engine.variants import VARIANTS

    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = " ".join(capsys.readouterr().out.replace("-\n", "-").split())
    readme = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text().split()).lower()
    for variant in VARIANTS.values():
        if variant.phh_codes:
            assert variant.name in text, variant.name
            words = {"short_deck_holdem": "short deck", "deuce_to_seven_single_draw": "2-7 single draw",
                     "deuce_to_seven_triple_draw": "2-7 triple draw", "seven_card_stud_hi_lo": "stud hi/lo",
                     "omaha_hi_lo": "omaha hi/lo", "seven_card_stud": "stud", "texas_holdem": "hold'em"}
            assert words.get(variant.id, variant.name.lower()) in readme, variant.id
    assert "32-card" not in text
