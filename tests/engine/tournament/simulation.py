"""Play tournaments with simple bots on real engine hands (shared by the tests and the benchmark).

The bots: fold, check, call, or shove, with probabilities that make stacks move fast. Hands at different
tables are interleaved one action at a time (tables in a drawn order), so balancing and breaking meet
tables that are in the middle of a hand, as in a room.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.actions import Action, BetOrRaise, BringIn, Call, Check, Draw, Fold, LegalActions, Show
from engine.cards import full_deck
from engine.events import Event
from engine.tournament.director import Phase, Tournament

Check_ = Callable[[Tournament, list[Event]], None]


@dataclass
class Bot:
    """Probabilities of shoving and of calling a bet (else fold)."""

    shove: float = 0.15
    call: float = 0.5

    def choose(self, options: LegalActions, rng: random.Random) -> Action:
        if options.max_discards is not None:
            return Draw(())
        if options.bring_in_amount is not None:
            return BringIn()
        if options.can_show:
            return Show()
        roll = rng.random()
        if options.max_raise_to is not None and roll < self.shove:
            return BetOrRaise(options.max_raise_to)
        if options.can_check:
            return Check()
        if options.call_amount is not None and roll < self.shove + self.call:
            return Call()
        return Fold() if options.can_fold else Call()


@dataclass
class Played:
    hands: int = 0
    steps: int = 0


def play(
    tournament: Tournament,
    rng: random.Random,
    *,
    bot: Bot | None = None,
    seconds_per_round: float = 30.0,
    max_steps: int = 10_000_000,
    after_step: Check_ | None = None,
    on_hand_end: Callable[[Tournament, int, float], list[Event]] | None = None,
    now: float = 0.0,
) -> Played:
    """Play ``tournament`` (already running) to its end. Each round: tick the clock, start a hand at every
    table that may, then take one action at each running hand in a drawn table order; the clock moves
    ``seconds_per_round`` per round. ``after_step`` sees every batch of events; ``on_hand_end`` may act for
    players (rebuys, add-ons) after each finished hand and returns its events."""
    bot = bot or Bot()
    deck = list(full_deck())
    played = Played()
    while tournament.phase not in (Phase.COMPLETE, Phase.CANCELLED):
        played.steps += 1
        if played.steps > max_steps:
            raise RuntimeError("the tournament did not finish")
        now += seconds_per_round
        events = tournament.tick(now)
        if after_step is not None:
            after_step(tournament, events)
        for number in list(tournament.tables):
            if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
                break
            if tournament.may_start_hand(number, now):
                rng.shuffle(deck)
                events = tournament.start_hand(number, deck, now)
                played.hands += number in tournament.tables and tournament.tables[number].hand is not None
                if after_step is not None:
                    after_step(tournament, events)
        running = [n for n, t in tournament.tables.items() if t.hand is not None]
        rng.shuffle(running)
        for number in running:
            if tournament.phase in (Phase.COMPLETE, Phase.CANCELLED):
                break  # a Fifty50 or Double-or-Nothing ends when half are out, whatever runs at other tables
            table = tournament.tables.get(number)
            if table is None or table.hand is None:
                continue
            options = table.legal_actions()
            if options is None:
                continue
            entry = table.seats[options.seat].entry
            events = tournament.act(number, entry, bot.choose(options, rng), now)
            if after_step is not None:
                after_step(tournament, events)
            if on_hand_end is not None and (number not in tournament.tables or tournament.tables[number].hand is None):
                extra = on_hand_end(tournament, number, now)
                if after_step is not None:
                    after_step(tournament, extra)
    return played
