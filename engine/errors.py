"""Exceptions the engine raises for bad input. Each carries a message a player can read.

After any of these, the object that raised it is unchanged (DESIGN.md "engine/").
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """The action is not allowed now (e.g. a check facing a bet, a raise after the cap)."""


class NotYourTurn(IllegalAction):
    """A seat tried to act while another seat is to act, or while nobody is."""


class InvalidAmount(IllegalAction):
    """A bet, raise, buy-in or other amount is outside the allowed range."""


class TableRuleError(ValueError):
    """A table request breaks a seating, buy-in or blind rule (sitting twice, a full table, …)."""
