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


class BankrollError(ValueError):
    """A play-money balance request is refused (a refill asked too early or too often, not enough credits)."""


class AlreadySeated(TableRuleError):
    """The player already has a seat at this table (or is already on its waiting list)."""


class NotSeated(TableRuleError):
    """The player has no seat at this table."""


class TableFull(TableRuleError):
    """No seat is free (or the free seats are promised to players ahead on the waiting list)."""


class HandInProgress(TableRuleError):
    """The request must wait until the current hand is over (a top-up, starting another hand…)."""
