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
    Shares,
    Stacks,
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

    def _relay(self, entry: object, round_name: str, sender: str, *, chained: bool = False) -> None:
        from engine.fairness_v2.transcript import Entry
        assert isinstance(entry, Entry)
        size = encoded_size(entry)
        self.bytes[sender] += size
        with self.meter("host", round_name):
            if sender != "host" and not chained:
                self.writer.append(entry)
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

    def opening(self, name: str, senders: Sequence[int], make: Callable[[Player], Shares]) -> None:
        """Shares asked of every sender at once (one round trip): each signs his against the head the opening
        starts from, before any answer is relayed; the host chains them in seat order."""
        self.rounds.append(name)
        entries = []
        for seat in sorted(senders):
            player = self.players[seat]
            with self.meter(str(seat), name):
                entries.append(player.sign_opening(make(player)))
        for entry in entries:
            with self.meter("host", name):
                self.writer.place(entry)
            placed = self.writer.entries[-1]
            with self.meter(str(placed.sender), name):
                self.players[placed.sender].receive(placed)
            self._relay(placed, name, sender=str(placed.sender), chained=True)

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
            self.opening(f"board/{street}", self.present(), lambda player: player.board_shares(self.rngs[player.seat]))
            self.cover_missing(f"board/{street}")
            self.checkpoint(f"board/{street}")


@dataclass
class PreparedHand:
    """A hand whose keys are escrowed and whose deck is shuffled, made during the hand before it
    (:func:`prepare_hand`); :func:`play_hand` deals it. Its header has every stack 0 (not known yet)."""

    header: Header
    table: _Table


def _header(players: Sequence[Player], setup: HandSetup, rngs: Mapping[int, RandomSource], meter: Meter, *,
            ahead: bool) -> Header:
    seats = sorted(player.seat for player in players)
    by_seat = {player.seat: player for player in players}
    records = []
    for seat in seats:
        with meter(str(seat), "start"):
            records.append(by_seat[seat].seat_record(setup.table, 0 if ahead else setup.stacks[seat], rngs[seat]))
    shufflers = setup.shufflers or tuple(committee(seats, setup.button))
    return Header(VERSION, players[0].group.name, setup.table, setup.hand, "holdem", setup.structure,
                  setup.small_blind, setup.big_blind, setup.button, tuple(records), shufflers, setup.host_key)


def _escrow_and_shuffle(table: _Table, prefix: str = "") -> None:
    seats = sorted(table.players)
    if len(seats) > 2:
        table.round(f"{prefix}escrow", seats, lambda player: player.escrow(table.rngs[player.seat]))
        table.checkpoint(f"{prefix}escrow")
    for seat in table.header.shufflers:
        table.round(f"{prefix}shuffle/{seat}", [seat], lambda player: player.shuffle(table.rngs[player.seat]))
    table.checkpoint(f"{prefix}shuffle")


def prepare_hand(players: Sequence[Player], setup: HandSetup, host_signer: HostSigner,
                 rngs: Mapping[int, RandomSource], host_rng: RandomSource, *,
                 meter: Meter = _no_meter) -> PreparedHand:
    """Shuffle ahead: the key escrows and every shuffle of the *next* hand, run while the current one is played
    (the room calls this once the current hand is dealt), so nobody waits for a shuffle when it starts. Each
    player works through :meth:`Player.prepare` (his own referee for that hand, the same keys). The stacks in
    ``setup`` are ignored: :func:`play_hand` sets them when the hand starts. If the seated players change before
    then, the preparation is dropped and that hand shuffles at its start as usual. Rounds are metered as
    ``ahead/escrow``, ``ahead/shuffle/<seat>``."""
    header = _header(players, setup, rngs, meter, ahead=True)
    twins = []
    for player in players:
        with meter(str(player.seat), "ahead/start"):
            twins.append(player.prepare(header, rngs[player.seat]))
    table = _Table(twins, header, host_signer, rngs, host_rng, meter)
    _escrow_and_shuffle(table, "ahead/")
    return PreparedHand(header, table)


def _same_hand(prepared: PreparedHand, players: Sequence[Player], setup: HandSetup) -> bool:
    header = prepared.header
    return (header.table, header.hand, header.button, header.small_blind, header.big_blind, header.structure) == (
        setup.table, setup.hand, setup.button, setup.small_blind, setup.big_blind, setup.structure) and sorted(
        record.seat for record in header.seats) == sorted(player.seat for player in players)


def play_hand(players: Sequence[Player], setup: HandSetup, host_signer: HostSigner, strategy: Strategy,
              rngs: Mapping[int, RandomSource], host_rng: RandomSource, *,
              vanish_after_shuffle: frozenset[int] = frozenset(), meter: Meter = _no_meter,
              prepared: PreparedHand | None = None, during: Callable[[], object] | None = None) -> PlayedHand:
    """Play one hand to its end; every player's referee checks it as it goes. With ``prepared`` (the same
    table, hand, button and seats), the hand starts from its shuffled deck: the host's first entry sets the
    stacks. ``during`` is called once the cards are dealt — the moment to :func:`prepare_hand` the next one."""
    by_seat = {player.seat: player for player in players}
    if prepared is not None and _same_hand(prepared, players, setup):
        header = prepared.header
        table = prepared.table
        table.meter = meter
        for player in players:
            with meter(str(player.seat), "start"):
                player.start(header, rngs[player.seat])
        table.players = dict(by_seat)
        table.rngs = rngs
        table.host_says(Stacks(tuple(setup.stacks[record.seat] for record in header.seats)), "start")
    else:
        header = _header(players, setup, rngs, meter, ahead=False)
        for player in players:
            with meter(str(player.seat), "start"):
                player.start(header, rngs[player.seat])
        table = _Table(players, header, host_signer, rngs, host_rng, meter)
        _escrow_and_shuffle(table)
    for seat in sorted(vanish_after_shuffle):
        table.gone.add(seat)
        table.host_says(Timeout(seat, "deal"), "deal")
    if table.host._void():
        return _finish(table, header)
    table.opening("deal", table.present(), lambda player: player.deal_shares(rngs[player.seat]))
    table.cover_missing("deal")
    table.checkpoint("deal")
    if during is not None:
        during()
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
    turned = sorted({event.seat for event in host.replay.hand.events if isinstance(event, HandShown)
                     and event.seat not in host.shown and event.seat not in table.gone})
    if turned:
        table.opening("show/" + ",".join(map(str, turned)), turned,
                      lambda player: player.show(table.rngs[player.seat]))


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
