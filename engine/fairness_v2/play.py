"""One host-blind hold'em hand played in process: the host's relay (:class:`TranscriptWriter` plus a referee
without proofs), each player's :class:`~engine.fairness_v2.player.Player`, and the order of the rounds.

This is how a room drives the core (docs/fairness-v2-design.md, "Plugging it into the room"): the room replaces the
direct calls by messages, the host's relay by its table task, and the strategy by the players' keys. Tests and
the benchmark use it as is. Pure: randomness comes from each party's own source, and time is measured (if at
all) by the caller's ``meter``, a context manager around each party's work.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

from engine.actions import LegalActions, Show
from engine.cards import Card
from engine.events import HandShown
from engine.fairness_v2.player import Player
from engine.fairness_v2.randomness import VERSION, RandomSource
from engine.fairness_v2.referee import Outcome, Referee, committee
from engine.fairness_v2.transcript import (
    HOST_SENDER,
    Act,
    Body,
    HandTranscript,
    Header,
    HostSigner,
    Timeout,
    TranscriptWriter,
    encoded_size,
)

Strategy = Callable[[int, LegalActions, str], Act]
"""``(seat, legal actions, street) → action`` (at showdown: ``Act("show")`` or ``Act("muck")``)."""
Meter = Callable[[str, str], AbstractContextManager[object]]
"""``(party, round) → context`` around that party's work in that round (party: ``"host"`` or the seat)."""


@dataclass(frozen=True)
class HandSetup:
    table: str
    hand: str
    button: int
    stacks: Mapping[int, int]
    small_blind: int
    big_blind: int
    host_key: str
    structure: str = "no-limit"
    shufflers: tuple[int, ...] | None = None


@dataclass
class PlayedHand:
    transcript: HandTranscript
    outcomes: dict[int, Outcome]
    """Each player's own referee's conclusion (the ones who stayed)."""
    host_outcome: Outcome
    hole_cards: dict[int, tuple[Card | None, ...]]
    bytes_by_party: dict[str, int] = field(default_factory=dict)
    rounds: list[str] = field(default_factory=list)


def _no_meter(party: str, round_name: str) -> AbstractContextManager[object]:
    return nullcontext()


class _Table:
    def __init__(self, players: Sequence[Player], header: Header, host_signer: HostSigner,
                 rngs: Mapping[int, RandomSource], host_rng: RandomSource, meter: Meter) -> None:
        self.players = {player.seat: player for player in players}
        self.header = header
        self.rngs = rngs
        self.meter = meter
        self.gone: set[int] = set()
        self.bytes: dict[str, int] = {"host": 0, **{str(seat): 0 for seat in self.players}}
        self.rounds: list[str] = []
        with meter("host", "start"):
            self.writer = TranscriptWriter(header, host_signer)
            self.host = Referee(header, host_rng, viewer=HOST_SENDER, check_proofs=False)
            self.writer.checkpoint()

    def present(self) -> list[int]:
        return [seat for seat in self.players if seat not in self.gone]

    def send(self, seat: int, round_name: str, make: Callable[[], Body]) -> None:
        """``seat`` builds and signs a message; the host chains it and relays it to everyone else."""
        player = self.players[seat]
        with self.meter(str(seat), round_name):
            entry = player.sign(self.writer.seq, self.writer.head, make())
            player.receive(entry)
        self._relay(entry, round_name, sender=str(seat))

    def host_says(self, body: Body, round_name: str) -> None:
        with self.meter("host", round_name):
            self.writer.host_entry(body)
        self._relay(self.writer.entries[-1], round_name, sender="host")

    def _relay(self, entry: object, round_name: str, sender: str) -> None:
        from engine.fairness_v2.transcript import Entry
        assert isinstance(entry, Entry)
        size = encoded_size(entry)
        self.bytes[sender] += size
        with self.meter("host", round_name):
            if sender != "host":
                self.writer.append(entry)
                self.host.apply(entry)
            else:
                self.host.apply(entry)
        for seat in self.present():
            if str(seat) == sender:
                continue
            self.bytes[str(seat)] += size
            self.bytes["host"] += size
            with self.meter(str(seat), round_name):
                self.players[seat].receive(entry)

    def checkpoint(self, round_name: str) -> None:
        with self.meter("host", round_name):
            self.writer.checkpoint()

    def round(self, name: str, senders: Sequence[int], make: Callable[[Player], Body]) -> None:
        self.rounds.append(name)
        for seat in senders:
            self.send(seat, name, lambda seat=seat: make(self.players[seat]))  # type: ignore[misc]

    def cover_missing(self, name: str) -> None:
        for missing in sorted(self.gone):
            escrow = self.host.escrows.get(missing)
            if escrow is None or not self.host.cover_needed(missing):
                continue
            helpers = [seat for seat in escrow.holders if seat not in self.gone][: escrow.threshold]
            if len(helpers) < escrow.threshold:
                return
            self.round(f"{name}/cover {missing}", helpers, lambda player, m=missing: player.covers(  # type: ignore[misc]
                m, self.rngs[player.seat]))

    def open_due_board(self) -> None:
        host = self.host
        due = [position for position in host.due_board() if any(
            seat not in host.shares.get(position, {}) for seat in self.present())]
        if due:
            street = {3: "flop", 4: "turn", 5: "river"}.get(len(host.due_board()), "board")
            self.round(f"board/{street}", self.present(), lambda player: player.board_shares(self.rngs[player.seat]))
            self.cover_missing(f"board/{street}")
            self.checkpoint(f"board/{street}")


def play_hand(players: Sequence[Player], setup: HandSetup, host_signer: HostSigner, strategy: Strategy,
              rngs: Mapping[int, RandomSource], host_rng: RandomSource, *,
              vanish_after_shuffle: frozenset[int] = frozenset(), meter: Meter = _no_meter) -> PlayedHand:
    """Play one hand to its end; every player's referee checks it as it goes."""
    seats = sorted(player.seat for player in players)
    by_seat = {player.seat: player for player in players}
    records = []
    for seat in seats:
        with meter(str(seat), "start"):
            records.append(by_seat[seat].seat_record(setup.table, setup.stacks[seat], rngs[seat]))
    shufflers = setup.shufflers or tuple(committee(seats, setup.button))
    header = Header(VERSION, players[0].group.name, setup.table, setup.hand, "holdem", setup.structure,
                    setup.small_blind, setup.big_blind, setup.button, tuple(records), shufflers, setup.host_key)
    for seat in seats:
        with meter(str(seat), "start"):
            by_seat[seat].start(header, rngs[seat])
    table = _Table(players, header, host_signer, rngs, host_rng, meter)
    if len(seats) > 2:
        table.round("escrow", seats, lambda player: player.escrow(rngs[player.seat]))
        table.checkpoint("escrow")
    for seat in shufflers:
        table.round(f"shuffle/{seat}", [seat], lambda player: player.shuffle(rngs[player.seat]))
    table.checkpoint("shuffle")
    for seat in sorted(vanish_after_shuffle):
        table.gone.add(seat)
        table.host_says(Timeout(seat, "deal"), "deal")
    if table.host._void():
        return _finish(table, header)
    table.round("deal", table.present(), lambda player: player.deal_shares(rngs[player.seat]))
    table.cover_missing("deal")
    table.checkpoint("deal")
    host = table.host
    actions = 0
    while not host.replay.hand.is_over and not host.violations:
        _show_turned_up(table)
        legal = host.replay.hand.legal_actions()
        if legal is None:
            table.open_due_board()
            if host.replay.hand.legal_actions() is None:
                break
            continue
        seat = legal.seat
        if seat in table.gone:  # folded at his clock
            table.host_says(Timeout(seat, "bet"), f"bet/{actions}")
            continue
        choice = strategy(seat, legal, host.replay.hand.street)
        actions += 1
        if legal.allows(Show()) and choice.action == "show":
            table.round(f"show/{seat}", [seat], lambda player: player.show(rngs[player.seat]))
        elif choice.action == "muck":
            table.round(f"muck/{seat}", [seat], lambda player: player.muck())
        else:
            table.round(f"bet/{actions}", [seat], lambda player, choice=choice: choice)  # type: ignore[misc]
        table.open_due_board()
    _show_turned_up(table)
    return _finish(table, header)


def _show_turned_up(table: _Table) -> None:
    """Hands the engine turned up at an all-in must be opened by their owners."""
    host = table.host
    for event in host.replay.hand.events:
        if isinstance(event, HandShown) and event.seat not in host.shown and event.seat not in table.gone:
            table.round(f"show/{event.seat}", [event.seat], lambda player: player.show(table.rngs[player.seat]))


def _finish(table: _Table, header: Header) -> PlayedHand:
    table.checkpoint("end")
    outcomes = {}
    holes = {}
    for seat in table.present():
        with table.meter(str(seat), "end"):
            player = table.players[seat]
            holes[seat] = player.hole_cards()
            outcomes[seat] = player.ref.finish()
    with table.meter("host", "end"):
        host_outcome = table.host.finish()
    return PlayedHand(table.writer.transcript(), outcomes, host_outcome, holes, table.bytes, table.rounds)
