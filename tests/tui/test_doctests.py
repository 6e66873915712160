"""The doctest examples in tui/ and the served-TUI modules (pytest collects doctests only under engine/)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["tui.model", "tui.widgets.action_bar", "tui.widgets.cards", "tui.widgets.felt", "tui.widgets.hand_log",
           "tui.widgets.lobby", "tui.results", "tui.presets", "hosting.pty_session", "hosting.commands.join"]


@pytest.mark.parametrize("name", MODULES)
def test_doctest_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
