"""Bounties (R-TOUR-1; seed 000 "torneos bounty"): who knocked a player out and what he collects.

Kinds, all optional and combinable:

* **knockout** — every entry pays a knockout part that becomes the bounty on his own head; whoever knocks
  him out collects it whole.
* **progressive knockout** (PKO) — the eliminator collects ``progressive_share`` (50% by default) of the
  head now and the rest goes onto his own head (seed: "la segunda porción se añade a tu propio bounty");
  odd units go to the paid half. The winner of the tournament collects his own head (seed: "El ganador del
  torneo knockout progresivo recibe una recompensa por si mismo"); so does a knockout winner.
* **bounty** on named players and **bounty PRO** on players marked pro — room-funded fixed rewards, never
  progressive (seed: "El knockout progresivo aplica solo al premio knockout").

A knockout by a split pot splits every bounty equally among the winners of the pot that took the player's
last chips (odd units to the first of them clockwise from the button; :mod:`engine.tournament.shares`). A
re-entry pays a new knockout part and carries a new head; a player's entries each carry their own head
(multi-entry: the bounties on one player add up, seed "el bounty de dichas entradas se suma").

"The pot that took his last chips" (RULES.md is silent; this is how online rooms pay it): the busted
player's chips at his highest contribution level sit in one pot — main or side — and its winners knock him
out. :func:`knockers` finds it from the hand's public events alone.

>>> from engine.events import AntePosted, Called, PotAwarded, BetPlaced
>>> events = [BetPlaced(1, 100, 100, all_in=True), Called(2, 100), BetPlaced(3, 400, 400), Called(4, 400),
...           PotAwarded(1, 4, 600), PotAwarded(0, 1, 400)]
>>> knockers(events, busted_seat=3)
(4,)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.events import Event, PotAwarded
from engine.tournament.shares import split_equally
from engine.view import HandView


def contributions(events: Iterable[Event], *, dead_antes: bool = False) -> dict[int, int]:
    """Each seat's live chips put into the pots over a hand (dead small blinds and dead antes excluded)."""
    view = HandView.replay(events, dead_antes=dead_antes)
    return {seat: info.committed for seat, info in view.seats.items()}


def knockers(events: Sequence[Event], busted_seat: int, *, dead_antes: bool = False) -> tuple[int, ...]:
    """The seats that won the pot holding ``busted_seat``'s last chips, in award order (several: a split)."""
    put = contributions(events, dead_antes=dead_antes)
    awards = [event for event in events if isinstance(event, PotAwarded)]
    if not awards:
        return ()
    winners = {award.seat for award in awards}
    # With the losers' hands dead, pot k holds the chips between the k-th and (k+1)-th distinct level the
    # winners put in; chips above every winner's level join the last pot (engine.pots.build_pots).
    levels = sorted({put.get(seat, 0) for seat in winners})
    own = put.get(busted_seat, 0)
    index = min(sum(level < own for level in levels), max(award.pot_index for award in awards))
    seats = [award.seat for award in awards if award.pot_index == index]
    return tuple(dict.fromkeys(seats))


@dataclass(frozen=True, slots=True)
class BountySettings:
    """``progressive``: PKO (``progressive_share`` of a head is paid, the rest goes onto the eliminator's
    head). ``named``: player → room-funded bounty. ``pro_bounty``: room-funded bounty on each of
    ``pro_players``."""

    progressive: bool = False
    progressive_share: Fraction = Fraction(1, 2)
    named: Mapping[str, int] = field(default_factory=dict)
    pro_bounty: int = 0
    pro_players: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class BountyPayment:
    """One payment: ``winner`` gets ``amount`` (``kind`` as :class:`engine.tournament.events.BountyWon`);
    ``added_to_own`` went onto his head (PKO); ``room_funded``: paid by the house, not the bounty fund."""

    winner: str
    loser: str
    amount: int
    kind: str
    added_to_own: int = 0
    room_funded: bool = False


@dataclass(slots=True)
class Bounties:
    """The heads of a tournament: entry → bounty on it; ``owner``: entry → player."""

    settings: BountySettings
    heads: dict[int, int] = field(default_factory=dict)
    owner: dict[int, str] = field(default_factory=dict)

    def add_head(self, entry: int, player: str, knockout: int) -> None:
        """A new entry (or re-entry) with its knockout part on its head."""
        self.heads[entry] = knockout
        self.owner[entry] = player

    def knock_out(self, loser: int, winners: Sequence[int]) -> list[BountyPayment]:
        """``loser`` is out, knocked out by ``winners`` (entries; several for a split pot)."""
        if not winners:
            return []
        loser_name = self.owner[loser]
        payments: list[BountyPayment] = []
        head = self.heads.pop(loser, 0)
        for winner, share in zip(winners, split_equally(head, len(winners)), strict=True):
            if not share:
                continue
            if self.settings.progressive:
                kept = int(share * (1 - self.settings.progressive_share))  # onto his own head (rounded down)
                self.heads[winner] = self.heads.get(winner, 0) + kept
                payments.append(BountyPayment(self.owner[winner], loser_name, share - kept, "progressive", kept))
            else:
                payments.append(BountyPayment(self.owner[winner], loser_name, share, "knockout"))
        for kind, amount in (("bounty", self.settings.named.get(loser_name, 0)),
                             ("pro", self.settings.pro_bounty if loser_name in self.settings.pro_players else 0)):
            if amount:
                payments += [BountyPayment(self.owner[winner], loser_name, share, kind, room_funded=True)
                             for winner, share in zip(winners, split_equally(amount, len(winners)), strict=True)
                             if share]
        return payments

    def collect_own(self, entry: int) -> list[BountyPayment]:
        """The winner takes the bounty on his own head."""
        head = self.heads.pop(entry, 0)
        name = self.owner[entry]
        return [BountyPayment(name, name, head, "own")] if head else []

    def outstanding(self) -> int:
        """Knockout money still on heads."""
        return sum(self.heads.values())
