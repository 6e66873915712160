"""The public checker of a host-blind hold'em hand: the step function every client runs on each entry the
host relays, and the whole of ``croupier verify`` offline.

:meth:`Referee.apply` takes one :class:`~engine.fairness_v2.transcript.Entry` and checks it against everything
before it: the chain, the sender's signature, then what it says — a shuffle must come from the next shuffler
with a proof the batched verifier accepts, a share must open a position the schedule allows with a DLEQ proof,
a cover must stand in for a player timed out, an action must be legal in the engine's replay of the betting.
Problems are collected as :class:`Violation` (what and where); a broken entry is skipped, and checking goes on.

Betting is replayed by the existing engine (:class:`engine.hand.Hand`). Cards do not change betting in
hold'em, so during the hand the engine runs on filler cards; :meth:`Referee.finish` replays it once more with
every opened card in place and checks that every hand the engine turned up was opened. A position nobody
opened (a fold, a muck) stays unknown: to the verifier, to the host, to everyone.

A client passes ``viewer`` (its seat): it then checks what it relies on — every shuffle but its own, the shares
of its own cards, the board and shown hands — and trusts the others to check theirs (they fold a cheater).
``viewer=None`` checks everything (offline verification). The host runs one with ``check_proofs=False``: it
checks the chain and who signed what, and knows whose turn it is; it holds no secret.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.actions import Action, BetOrRaise, Call, Check, Fold, Muck, Show
from engine.cards import Card, full_deck
from engine.errors import IllegalAction, InvalidAmount, NotYourTurn
from engine.events import HandEnded, HandShown, PotAwarded
from engine.fairness_v2.elgamal import Ciphertext, Deck, DleqProof, initial_deck, joint_key, schnorr_verify
from engine.fairness_v2.elgamal import SchnorrProof as Schnorr
from engine.fairness_v2.group import GROUPS, Group, GroupError
from engine.fairness_v2.opening import BOARD, Audience, DecryptionShare, check_share, holdem_audiences
from engine.fairness_v2.randomness import VERSION, ProofContext, RandomSource
from engine.fairness_v2.shuffle import ShuffleProof, ShuffleStep, ShuffleWitness, verify_chains, verify_shuffle
from engine.fairness_v2.threshold import CoverShare as Cover
from engine.fairness_v2.threshold import KeyEscrow, check_cover, check_escrow, combine, threshold_for
from engine.fairness_v2.threshold import check_share as check_escrow_share
from engine.fairness_v2.transcript import (
    HOST_SENDER,
    Act,
    Body,
    Covers,
    Disclosure,
    Entry,
    Escrow,
    HandTranscript,
    Header,
    HostVerifier,
    ShareItem,
    Shares,
    Shuffle,
    Stacks,
    Timeout,
    checkpoint_bytes,
    ed25519_verify,
    entry_head,
    header_head,
    kind_of,
    opening_bytes,
    signed_bytes,
)
from engine.hand import Hand
from engine.hand_state import ForcedBets, HandConfig
from engine.structures import BettingStructure
from engine.variants import OMAHA, TEXAS_HOLDEM, Variant

COMMITTEE_SIZE: Final = 6
DISCLOSE: Final = "disclose"
"""The step at which a dealer answers a complaint about his escrow (:class:`Disclosure`)."""


class ProtocolError(ValueError):
    """A header the hand cannot start from (unknown group, a bad key proof, seats out of order)."""


@dataclass(frozen=True)
class Violation:
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass(frozen=True)
class Outcome:
    """What the replay concluded: the board, the cards shown, the final stacks and who won what."""

    board: tuple[Card, ...]
    shown: dict[int, tuple[Card, ...]]
    stacks: dict[int, int]
    awards: tuple[tuple[int, int], ...]
    void: bool = False


def key_context(table: str, seat: int) -> ProofContext:
    return ProofContext(table, "session", "key", seat)


def shuffle_context(table: str, hand: str, seat: int) -> ProofContext:
    return ProofContext(table, hand, "shuffle", seat)


def deal_order(seats: Sequence[int], button: int) -> list[int]:
    """Seats clockwise from the first seat left of the button (the engine's dealing order)."""
    ordered = sorted(seats)
    after = [seat for seat in ordered if seat > button]
    return after + [seat for seat in ordered if seat <= button]


def committee(seats: Sequence[int], button: int) -> list[int]:
    """The shufflers: everyone up to six players, else the six seats clockwise from the button (the button
    moves every hand, so the host cannot pick them)."""
    order = deal_order(seats, button)
    order = order[-1:] + order[:-1]  # from the button
    return sorted(order[:COMMITTEE_SIZE]) if len(order) > COMMITTEE_SIZE else sorted(order)


def dealt_seats(header: Header) -> list[int]:
    """Every seat dealt in: those holding a key and the absent ones (:class:`~engine.fairness_v2.transcript.
    AbsentSeat`)."""
    return sorted([record.seat for record in header.seats] + [seat.seat for seat in header.absent])


def forced_bets(header: Header) -> ForcedBets:
    ante, big_blind_ante, dead_antes = header.ante, header.big_blind_ante, header.big_blind_ante > 0
    posts = header.posts
    if posts is not None:  # the room's table planned them (a dead small blind, a big blind out of position)
        return ForcedBets(button_seat=header.button, small_blind_seat=posts.small_blind_seat,
                          small_blind=header.small_blind, big_blind_seat=posts.big_blind_seat,
                          big_blind=header.big_blind, dead_small_blinds=posts.dead_small_blinds,
                          big_blinds_out_of_position=posts.big_blinds_out_of_position, ante=ante,
                          big_blind_ante=big_blind_ante, dead_antes=dead_antes)
    order = deal_order(dealt_seats(header), header.button)
    if len(order) == 2:  # heads-up: the button posts the small blind
        small, big = order[1], order[0]
    else:
        small, big = order[0], order[1]
    return ForcedBets(button_seat=header.button, small_blind_seat=small, small_blind=header.small_blind,
                      big_blind_seat=big, big_blind=header.big_blind, ante=ante, big_blind_ante=big_blind_ante,
                      dead_antes=dead_antes)


STRUCTURES: Final[dict[str, Callable[[Header], BettingStructure]]] = {
    "no-limit": lambda header: BettingStructure.no_limit(),
    "pot-limit": lambda header: BettingStructure.pot_limit(),
    "fixed-limit": lambda header: BettingStructure.fixed_limit(header.big_blind),  # small bet = the big blind
}
GAMES: Final[dict[str, Variant]] = {"holdem": TEXAS_HOLDEM, "omaha": OMAHA}
"""The games a transcript can deal: blinds, hole cards one at a time round the table, then a five-card board."""


def engine_action(act: Act) -> Action | None:
    match act.action:
        case "fold":
            return Fold()
        case "check":
            return Check()
        case "call":
            return Call()
        case "bet" | "raise":
            return BetOrRaise(act.to)
        case "muck":
            return Muck()
    return None


def proof_of(group: Group, message: Shuffle) -> tuple[Deck, ShuffleProof]:
    """The deck and proof a shuffle message carries (sizes and scalar ranges checked by the verifier)."""
    points = message.deck
    if len(points) % 2 or len(message.t) < 5 or len(message.s) < 4:
        raise ValueError("malformed shuffle")
    size = len(points) // 2
    deck = tuple(Ciphertext(points[2 * index], points[2 * index + 1]) for index in range(size))
    scalars = [int.from_bytes(value, "big") for value in message.s]
    if len(scalars) != 4 + 2 * size or len(message.t) != 5 + size:
        raise ValueError("malformed shuffle")
    t = message.t
    return deck, ShuffleProof(tuple(message.commitments), tuple(message.chain), t[0], t[1], t[2], t[3], t[4],
                              tuple(t[5:]), scalars[0], scalars[1], scalars[2], scalars[3],
                              tuple(scalars[4:4 + size]), tuple(scalars[4 + size:]))


def share_of(seat: int, item: ShareItem) -> DecryptionShare:
    return DecryptionShare(seat, item.position, item.share,
                           DleqProof(int.from_bytes(item.challenge, "big"), int.from_bytes(item.response, "big")))


@dataclass
class _Replay:
    """The betting as the engine plays it, with the actions in order for the final replay."""

    hand: Hand
    moves: list[tuple[str, int, Action | None]] = field(default_factory=list)


class Referee:
    """Checks a hand entry by entry (clients: as relayed; ``croupier verify``: from the file)."""

    def __init__(self, header: Header, rng: RandomSource, *, host_verifier: HostVerifier | None = None,
                 viewer: int | None = None, check_signatures: bool = True, check_proofs: bool = True,
                 signed_kinds: frozenset[str] | None = None) -> None:
        if header.version != VERSION or header.group not in GROUPS:
            raise ProtocolError(f"not a {VERSION} transcript over a known group ({header.version}, {header.group})")
        if header.variant not in GAMES or header.structure not in STRUCTURES:
            raise ProtocolError(f"host-blind dealing covers hold'em and Omaha only here, not {header.variant} "
                                f"{header.structure}")
        variant = GAMES[header.variant]
        self.header = header
        self.group = group = GROUPS[header.group]
        self.rng = rng
        self.viewer = viewer
        self.host_verifier = host_verifier
        self.check_signatures = check_signatures
        self.signed_kinds = signed_kinds
        """Which entry kinds to check signatures of (``None``: all). Clients check actions, shuffles and escrows
        as they come (what a host could forge without breaking a proof); shares are bound by their DLEQ proofs."""
        self.check_proofs = check_proofs
        self.violations: list[Violation] = []
        self.seats = {record.seat: record for record in header.seats}
        """The seats holding a key of the hand."""
        self.absent = {seat.seat: seat for seat in header.absent}
        """Seats dealt in without a key: folded at the start, their cards never opened."""
        dealt = dealt_seats(header)
        if len(set(dealt)) != len(dealt) or not self.seats or not 2 <= len(dealt) <= 10:
            raise ProtocolError("seats repeat, or the table has fewer than 2 or more than 10 players")
        if any(seat.stack <= 0 for seat in header.absent):
            raise ProtocolError("an absent seat dealt in without chips")
        for record in header.seats:
            proof = Schnorr(int.from_bytes(record.key_proof[0], "big"), int.from_bytes(record.key_proof[1], "big"))
            try:
                group.decode(record.elgamal_key)
            except GroupError:
                raise ProtocolError(f"seat {record.seat} ({record.name}): not a key") from None
            if check_proofs and viewer != record.seat and not schnorr_verify(group, record.elgamal_key, proof,
                                                            key_context(header.table, record.seat)):
                raise ProtocolError(f"seat {record.seat} ({record.name}): the key proof fails")
        if len({record.elgamal_key for record in header.seats}) != len(header.seats):
            raise ProtocolError("two seats share a key")
        if not set(committee(list(self.seats), header.button)) <= set(header.shufflers) <= set(self.seats):
            raise ProtocolError("the shufflers are not the table's committee")
        self.key = joint_key(group, [record.elgamal_key for record in header.seats])
        self.initial = initial_deck(group, self.key)
        self.order = deal_order(dealt, header.button)
        self.audiences: dict[int, Audience] = holdem_audiences(self.order, variant.hole_card_count)
        self.head = header_head(header)
        self.heads: list[bytes] = [self.head]
        self.seq = 0
        self._opening: tuple[int, int] | None = None
        """The opening round the last entry belonged to: (its anchor, the last sender), ``None`` after any other."""
        self.escrows: dict[int, KeyEscrow] = {}
        self.sealed: dict[int, dict[int, bytes]] = {}
        self.steps: list[ShuffleStep] = []
        self.own_shuffle: ShuffleWitness | None = None
        """The viewer's witness of his own shuffle, set by his :class:`~engine.fairness_v2.player.Player` when he
        shuffles: it spares him the multiplications on his own output deck and is dropped after the check."""
        self.shuffles_checked = 0
        self.shares: dict[int, dict[int, bytes]] = {}  # position -> seat -> x_seat·C1
        self.covers: dict[tuple[int, int], dict[int, bytes]] = {}  # (position, missing seat) -> holder -> share
        self.disclosed: dict[tuple[int, int], int] = {}  # (dealer, holder) -> a true escrow share, disclosed
        self.timed_out: set[int] = set()
        self.mucked: set[int] = set()
        self.shown: set[int] = set()
        self.config = HandConfig(variant, STRUCTURES[header.structure](header), manual_showdown=True)
        self.stacks = {record.seat: record.stack for record in header.seats}
        self.stacks.update({seat.seat: seat.stack for seat in header.absent})
        self._replay: _Replay | None = None
        self._voided: Outcome | None = None
        if all(stack == 0 for stack in self.stacks.values()):
            pass  # prepared ahead: the hand starts at the host's Stacks entry
        elif any(stack <= 0 for stack in self.stacks.values()):
            raise ProtocolError("a seat dealt in without chips")
        else:
            self._start()

    def _start(self) -> None:
        try:
            self._replay = _Replay(Hand.start(self.config, self.stacks, full_deck(), forced_bets(self.header)))
        except (ValueError, IllegalAction) as problem:  # posts naming seats not dealt in, a bad stack
            raise ProtocolError(f"the hand cannot start: {problem}") from None
        # timed out while the hand was being prepared, or absent when it was dealt: folded at once
        for seat in sorted(self.timed_out | set(self.absent)):
            if self._void():
                break  # void (R-CRASH-1): nobody else is folded, the hand ends here
            self._fold("the start of the hand", seat)

    @property
    def started(self) -> bool:
        """Whether the betting has begun (a hand prepared ahead starts at the host's Stacks entry)."""
        return self._replay is not None

    @property
    def replay(self) -> _Replay:
        if self._replay is None:
            raise ProtocolError("the hand has not started (the host has not set the stacks)")
        return self._replay

    # ------------------------------------------------------------------ views

    @property
    def deck(self) -> Deck:
        return self.steps[-1].deck if self.steps else self.initial

    def name(self, seat: int) -> str:
        record = self.seats.get(seat)
        return f"seat {seat} ({record.name})" if record else f"seat {seat}"

    def next_shuffler(self) -> int | None:
        done = len(self.steps)
        pending = [seat for seat in self.header.shufflers if seat not in self.timed_out]
        shuffled = [step.context.prover for step in self.steps]
        remaining = [seat for seat in pending if seat not in shuffled]
        return remaining[0] if remaining and done < len(self.header.shufflers) else None

    def shuffled(self) -> bool:
        return self.next_shuffler() is None and bool(self.steps)

    def due_board(self) -> list[int]:
        """Board positions the betting has reached (flop, turn, river)."""
        if self._replay is None:
            return []
        return [position for position in sorted(self.audiences) if self.audiences[position] == BOARD][
            : len(self.replay.hand.board)]

    def positions_of(self, seat: int) -> list[int]:
        return [position for position, audience in self.audiences.items() if audience == seat]

    def needs(self, seat: int) -> dict[str, list[int]]:
        """What the table still waits for from ``seat``: deal shares, board shares (dealt in, not timed out)."""
        if seat in self.timed_out or not self.shuffled() or not self.started:
            return {}
        deal = [position for position, audience in self.audiences.items()
                if audience != BOARD and audience != seat and audience not in self.absent
                and seat not in self.shares.get(position, {})]
        board = [position for position in self.due_board() if seat not in self.shares.get(position, {})]
        return {"deal": deal, "board": board}

    def cover_needed(self, missing: int) -> list[int]:
        """Positions that still need ``missing``'s share: dealt hole cards of others, the due board."""
        if missing not in self.timed_out or not self.started or self.replay.hand.is_over:
            return []
        wanted = [position for position, audience in self.audiences.items()
                  if audience != BOARD and audience != missing and audience not in self.absent] + self.due_board()
        return [position for position in wanted if missing not in self.shares.get(position, {})]

    def share_points(self, position: int) -> dict[int, bytes]:
        """Every share known for ``position``, covers combined in place of timed-out seats."""
        found = dict(self.shares.get(position, {}))
        for seat in self.timed_out:
            if seat not in found and seat in self.escrows:
                covers = self.covers.get((position, seat), {})
                if len(covers) >= self.escrows[seat].threshold:
                    found[seat] = combine(self.group, self.escrows[seat], covers)
        return found

    # ------------------------------------------------------------------ the step function

    def fail(self, where: str, what: str) -> None:
        self.violations.append(Violation(where, what))

    def apply(self, entry: Entry) -> None:
        where = f"entry {entry.seq} ({kind_of(entry.body)} from "
        where += "the host)" if entry.sender == HOST_SENDER else f"{self.name(entry.sender)})"
        if entry.seq != self.seq:
            self.fail(where, f"out of order: expected entry {self.seq}")
        if entry.prev != self.head:
            self.fail(where, "the chain is broken here: " + (
                "the header (table, seats, names, stacks or keys) is not the one the players signed"
                if entry.seq == 0 else "an entry before this one was removed, added or changed"))
        if (self.check_signatures and (self.signed_kinds is None or kind_of(entry.body) in self.signed_kinds)
                and not self._signature_ok(entry)):
            self.fail(where, "the signature does not verify: the entry was changed after it was signed")
        self._check_opening(where, entry)
        self.seq += 1
        self.head = entry_head(entry)
        self.heads.append(self.head)
        if entry.sender != HOST_SENDER and entry.sender not in self.seats:
            self.fail(where, "the sender is not seated at this hand")
            return
        if entry.sender in self.timed_out and not isinstance(entry.body, Covers):
            self.fail(where, "the sender was timed out: nothing more from him counts")
            return
        try:
            self._dispatch(where, entry.sender, entry.body)
        except (GroupError, ValueError) as problem:
            self.fail(where, f"malformed: {problem}")

    def _check_opening(self, where: str, entry: Entry) -> None:
        """An opening's shares are signed apart from the chain (:func:`~engine.fairness_v2.transcript.
        opening_bytes`): each must sit in the unbroken run of its opening, which starts right at the head its
        senders signed (``anchor``), one entry per player in seat order — so the host cannot move one to another
        opening, put anything between them, or reorder them."""
        anchor = entry.anchor
        if anchor is None:
            self._opening = None
            return
        if entry.sender == HOST_SENDER or not isinstance(entry.body, Shares):
            self.fail(where, "only a player's shares are signed apart from the chain")
        elif anchor != self.seq and (self._opening is None or self._opening[0] != anchor):
            self.fail(where, f"signed for the opening at entry {anchor}, but it is not in that opening's unbroken "
                             "run of shares (moved, or entries put between)")
        elif anchor != self.seq and self._opening is not None and entry.sender <= self._opening[1]:
            self.fail(where, f"out of seat order in the opening at entry {anchor} (after seat {self._opening[1]})")
        self._opening = (anchor, entry.sender)

    def _signature_ok(self, entry: Entry) -> bool:
        if entry.anchor is not None:  # an opening's share: signed against the head its opening started from
            record = self.seats.get(entry.sender)
            return record is not None and 0 <= entry.anchor < len(self.heads) and ed25519_verify(
                record.signing_key, entry.signature, opening_bytes(self.header, entry.anchor, self.heads[entry.anchor],
                                                                   entry.sender, entry.body))
        message = signed_bytes(self.header, entry.seq, entry.prev, entry.sender, entry.body)
        if entry.sender == HOST_SENDER:
            if self.viewer == HOST_SENDER:  # the host's own referee: its own entries
                return True
            return self.host_verifier is not None and self.host_verifier(message, entry.signature)
        record = self.seats.get(entry.sender)
        return record is not None and ed25519_verify(record.signing_key, entry.signature, message)

    def _dispatch(self, where: str, sender: int, body: Body) -> None:
        match body:
            case Escrow():
                self._escrow(where, sender, body)
            case Shuffle():
                self._shuffle(where, sender, body)
            case Shares(purpose="show"):
                self._show(where, sender, body)
            case Shares():
                self._shares(where, sender, body)
            case Covers():
                self._covers(where, sender, body)
            case Act():
                self._act(where, sender, body)
            case Timeout():
                self._timeout(where, sender, body)
            case Stacks():
                self._stacks(where, sender, body)
            case Disclosure():
                self._disclosure(where, sender, body)

    def _escrow(self, where: str, sender: int, body: Escrow) -> None:
        players = len(self.seats)
        escrow = KeyEscrow(sender, body.threshold, tuple(body.commitments), tuple(body.holders))
        if sender in self.escrows:
            self.fail(where, "a second key escrow")
        elif self.steps:
            self.fail(where, "key escrow after the shuffle began")
        elif players > 2 and (not check_escrow(self.group, escrow, self.seats[sender].elgamal_key, players)
                              or len(body.sealed) != len(body.holders)):
            self.fail(where, f"the escrow is not a {threshold_for(players)}-of-{players - 1} sharing of this "
                             "player's key")
        else:
            self.escrows[sender] = escrow
            self.sealed[sender] = dict(zip(body.holders, body.sealed, strict=True))

    def _disclosure(self, where: str, sender: int, body: Disclosure) -> None:
        """A dealer's answer to a complaint about the share he sealed to ``holder``: a true share settles it; a
        false one is the dealer's own evidence (the host then times him out at ``disclose``)."""
        escrow = self.escrows.get(sender)
        if escrow is None or body.holder not in escrow.holders:
            self.fail(where, f"a disclosure for {self.name(body.holder)}, who holds no share of this key")
        elif (sender, body.holder) in self.disclosed:
            self.fail(where, "this share was disclosed already")
        elif check_escrow_share(self.group, escrow, body.holder, int.from_bytes(body.share, "big")):
            self.disclosed[(sender, body.holder)] = int.from_bytes(body.share, "big")

    def _shuffle(self, where: str, sender: int, body: Shuffle) -> None:
        if len(self.seats) > 2 and len(self.escrows) < len(self.seats) - len(self.timed_out):
            self.fail(where, "a shuffle before every key escrow")
            return
        if sender != self.next_shuffler():
            self.fail(where, f"not this player's turn to shuffle (next: {self.next_shuffler()})")
            return
        deck, proof = proof_of(self.group, body)
        step = ShuffleStep(deck, proof, shuffle_context(self.header.table, self.header.hand, sender))
        self.steps.append(step)
        if self.shuffled():
            self._check_shuffles(where)

    def _check_shuffles(self, where: str) -> None:
        """Batch-verify the chain. A client skips only its own proof (it knows its shuffle is honest): the
        stretch before it and the stretch after it are each checked, since an honest shuffle on top of a bad
        deck launders nothing."""
        if not self.check_proofs:
            return
        segments: list[tuple[Deck, list[ShuffleStep]]] = [(self.initial, list(self.steps))]
        mine = [index for index, step in enumerate(self.steps) if step.context.prover == self.viewer]
        if self.viewer is not None and mine:
            position = mine[0]
            segments = [(self.initial, self.steps[:position]), (self.steps[position].deck, self.steps[position + 1:])]
        segments = [(start, steps) for start, steps in segments if steps]
        own, self.own_shuffle = self.own_shuffle, None  # used for this one check, then dropped
        if own is not None and (not mine or own.deck != self.steps[mine[0]].deck):
            self.fail(where, "my shuffle was relayed changed")
            own = None
        if verify_chains(self.group, self.key, segments, self.rng, own=own):
            return
        for start, steps in segments:  # name the culprit with the reference verifier (only when something failed)
            bad = _first_bad_shuffle(self.group, self.key, start, steps)
            if bad is not None:
                self.fail(where, f"the shuffle proof of {self.name(bad)} fails: the deck was not only reordered "
                                 "and re-masked (a card substituted, duplicated or dropped)")
                return
        self.fail(where, "the shuffle proofs fail together")

    def _wants(self, position: int) -> bool:
        """Whether this viewer checks shares of ``position``."""
        if not self.check_proofs:
            return False
        if self.viewer is None:
            return True
        audience = self.audiences.get(position)
        return audience in (BOARD, self.viewer)

    def _check_item(self, where: str, seat: int, item: ShareItem) -> bool:
        # a client's own shares need no check: it made them
        if seat != self.viewer and self._wants(item.position) and not check_share(
                self.group, self.seats[seat].elgamal_key, self.deck, share_of(seat, item), self.header.table,
                self.header.hand):
            self.fail(where, f"the share of deck position {item.position} does not match its proof (a changed "
                             "card or share)")
            return False
        return True

    def _shares(self, where: str, sender: int, body: Shares) -> None:
        if not self.shuffled() or not self.started:
            self.fail(where, "shares before the deck was shuffled and the hand started")
            return
        allowed = ({position for position, audience in self.audiences.items()
                    if audience != BOARD and audience != sender and audience not in self.absent}
                   if body.purpose == "deal" else set(self.due_board()))
        for item in body.items:
            audience = self.audiences.get(item.position)
            if item.position not in allowed:
                what = ("his own card opens only by showing" if audience == sender else
                        f"deck position {item.position} is an absent player's card: it never opens"
                        if audience in self.absent else
                        f"deck position {item.position} is not due to open to {body.purpose}")
                self.fail(where, what)
            elif sender in self.shares.get(item.position, {}):
                self.fail(where, f"deck position {item.position} opened twice")
            elif self._check_item(where, sender, item):
                self.shares.setdefault(item.position, {})[sender] = item.share

    def _show(self, where: str, sender: int, body: Shares) -> None:
        hand = self.replay.hand
        legal = hand.legal_actions()
        turned_up = any(isinstance(event, HandShown) and event.seat == sender for event in hand.events)
        if sender in self.mucked:
            self.fail(where, "a mucked hand is never opened")
            return
        if sender in self.shown:
            self.fail(where, "this hand was already shown")
            return
        if not turned_up and (legal is None or legal.seat != sender or not legal.allows(Show())):
            self.fail(where, "not this player's turn to show")
            return
        if sorted(item.position for item in body.items) != sorted(self.positions_of(sender)):
            self.fail(where, "a show opens exactly the player's own cards")
            return
        for item in body.items:
            if self._check_item(where, sender, item):
                self.shares.setdefault(item.position, {})[sender] = item.share
        self.shown.add(sender)
        if not turned_up:
            self._engine(where, sender, Show())

    def _covers(self, where: str, sender: int, body: Covers) -> None:
        missing = body.dealer
        escrow = self.escrows.get(missing)
        if missing not in self.timed_out or escrow is None:
            self.fail(where, f"covers for {self.name(missing)}, who was not timed out")
            return
        if sender not in escrow.holders or sender in self.timed_out:
            self.fail(where, "covers from a player holding no share of that key")
            return
        wanted = set(self.cover_needed(missing))
        for item in body.items:
            if item.position not in wanted:
                own = self.audiences.get(item.position) == missing
                self.fail(where, f"deck position {item.position} may not be covered "
                                 f"({'his own card: never opened' if own else 'not due'})")
                continue
            cover = Cover(missing, sender, item.position, item.share,
                          DleqProof(int.from_bytes(item.challenge, "big"), int.from_bytes(item.response, "big")))
            if self._wants(item.position) and not check_cover(self.group, escrow, self.deck[item.position].c1, cover,
                                                              self.header.table, self.header.hand):
                self.fail(where, f"the cover of deck position {item.position} does not match its proof")
                continue
            self.covers.setdefault((item.position, missing), {})[sender] = item.share

    def _act(self, where: str, sender: int, body: Act) -> None:
        action = engine_action(body)
        if action is None:
            self.fail(where, f"{body.action!r} is not an action")
            return
        if isinstance(action, Muck):
            self.mucked.add(sender)
        self._engine(where, sender, action)

    def _engine(self, where: str, sender: int, action: Action) -> None:
        try:
            self.replay.hand.act(sender, action)
        except (IllegalAction, InvalidAmount, NotYourTurn) as problem:
            self.fail(where, f"{_describe(action)} is not legal here: {problem}")
            return
        self.replay.moves.append(("act", sender, action))

    def _timeout(self, where: str, sender: int, body: Timeout) -> None:
        if sender != HOST_SENDER:
            self.fail(where, "only the host times a player out")
            return
        if body.seat not in self.seats or body.seat in self.timed_out:
            self.fail(where, f"{self.name(body.seat)} cannot be timed out")
            return
        self.timed_out.add(body.seat)
        if body.step == DISCLOSE:  # his escrow share to a holder was false and he did not disclose a true one:
            self.escrows.pop(body.seat, None)  # nobody stands in for him this hand
        if self.started and not self._void():  # void: he is not folded, the hand ends as it stands
            self._fold(where, body.seat)

    def _fold(self, where: str, seat: int) -> None:
        hand = self.replay.hand
        if not hand.is_over and hand.in_hand(seat):
            try:
                hand.leave(seat)
                self.replay.moves.append(("leave", seat, None))
            except (IllegalAction, NotYourTurn) as problem:
                self.fail(where, f"cannot fold {self.name(seat)}: {problem}")

    def _stacks(self, where: str, sender: int, body: Stacks) -> None:
        if sender != HOST_SENDER:
            self.fail(where, "only the host sets the stacks")
        elif self.started:
            self.fail(where, "the stacks were set when the hand started: they cannot change")
        elif len(body.stacks) != len(self.header.seats) or any(stack <= 0 for stack in body.stacks):
            self.fail(where, "the stacks must be one positive amount per seat, in seat order")
        else:
            self.stacks = {record.seat: stack for record, stack in zip(self.header.seats, body.stacks, strict=True)}
            self._start()

    # ------------------------------------------------------------------ end of hand

    def check_checkpoints(self, checkpoints: Sequence[tuple[int, bytes, bytes]]) -> None:
        """``(seq, head, signature)`` of each host checkpoint: each must be a head of this chain, signed."""
        if not checkpoints or checkpoints[-1][0] != self.seq:
            self.fail("checkpoints", "the host's last checkpoint does not cover the whole hand")
        for seq, head, signature in checkpoints:
            where = f"checkpoint at entry {seq}"
            if not 0 <= seq < len(self.heads) or self.heads[seq] != head:
                self.fail(where, "not a head of this chain (entries changed, or the host forked the hand)")
            elif self.host_verifier is None or not self.host_verifier(
                    checkpoint_bytes(self.header, seq, head), signature):
                self.fail(where, "the host's signature does not verify against the host key (the header, an "
                                 "entry or the signature was changed)")

    def open_position(self, position: int) -> Card | None:
        group = self.group
        shares = self.share_points(position)
        if set(shares) != set(self.seats):
            return None
        try:
            point = group.subtract(self.deck[position].c2, group.add(list(shares.values())))
        except GroupError:
            return None
        from engine.fairness_v2.elgamal import card_lookup
        return card_lookup(group).get(point)

    def finish(self) -> Outcome:
        """Open the board and the shown hands, replay the hand with them, check what the engine needed."""
        if not self.started:
            self.fail("end of hand", "the hand never started (no stacks from the host)")
            return Outcome((), {}, dict(self.stacks), (), void=True)
        if self._voided is not None:
            return self._voided
        hand = self.replay.hand
        if not hand.is_over:
            if self._void():
                return self._void_outcome()
            self.fail("end of hand", f"the hand stops before its end (waiting in {hand.street})")
        opened: dict[int, Card] = {}
        for position in self.due_board() + [p for seat in self.shown for p in self.positions_of(seat)]:
            card = self.open_position(position)
            if card is None:
                self.fail(f"deck position {position}", "does not open to a card (shares missing or not a card)")
            elif card in opened.values():
                self.fail(f"deck position {position}", f"{card} was already dealt")
            else:
                opened[position] = card
        filler = iter(card for card in full_deck() if card not in opened.values())
        # not ``opened.get(p) or …``: the two of clubs is card 0, and falsy
        deck = [opened[position] if position in opened else next(filler) for position in range(52)]
        replay = Hand.start(self.config, self.stacks, deck,
                            forced_bets(self.header))
        for move, seat, action in self.replay.moves:
            if move == "leave":
                replay.leave(seat)
            elif action is not None:
                replay.act(seat, action)
        shown: dict[int, tuple[Card, ...]] = {}
        for event in replay.events:
            if isinstance(event, HandShown):
                positions = self.positions_of(event.seat)
                if any(position not in opened for position in positions):
                    self.fail(self.name(event.seat), "his hand was turned up at showdown but never opened")
                shown[event.seat] = tuple(opened[position] for position in positions if position in opened)
        ended = next((event for event in replay.events if isinstance(event, HandEnded)), None)
        stacks = dict(ended.stacks) if ended else {}
        awards = tuple((event.seat, event.amount) for event in replay.events if isinstance(event, PotAwarded))
        return Outcome(tuple(card for card in replay.board), shown, stacks, awards)

    def _void(self) -> bool:
        """R-CRASH-1: a timed-out player's key is still needed — a card the hand may yet open lacks his share
        (the board while two or more players are left, a hole card of a player still in) — and too few holders
        of his key's escrow are left to stand in for him (heads-up has no escrow). Once the hand is over, or
        everything that needed him is open, his key is needed no more."""
        return self._voided is not None or any(
            not self._coverable(seat) and self._needs_key(seat) for seat in self.timed_out)

    def _coverable(self, seat: int) -> bool:
        escrow = self.escrows.get(seat)
        helpers = [holder for holder in (escrow.holders if escrow else ()) if holder not in self.timed_out]
        return escrow is not None and len(helpers) >= escrow.threshold

    def _needs_key(self, seat: int) -> bool:
        if self._replay is None:
            return True  # not started: every card is still to open
        hand = self.replay.hand
        staying = [other for other in self.seats if other not in self.timed_out and hand.in_hand(other)]
        if hand.is_over or len(staying) < 2:
            return False  # over, or over once the timed-out players are folded: nothing more to open
        return any(seat not in self.shares.get(position, {}) and (audience == BOARD or audience in staying)
                   for position, audience in self.audiences.items())

    @property
    def voided(self) -> bool:
        """Whether the hand is void (R-CRASH-1): it ends as it stands; :meth:`finish` gives the void outcome."""
        return self.started and self._void()

    def _void_outcome(self) -> Outcome:
        """Void (R-CRASH-1): every chip goes back to its owner, except that a player who dropped loses what he
        put in (aborting never pays): it is shared by the others (:meth:`engine.hand.Hand.void`)."""
        hand = self.replay.hand
        hand.void(self.timed_out, VOID_REASON)
        self._voided = Outcome((), {}, hand.final_stacks(), (), void=True)
        return self._voided


VOID_REASON: Final = "too few players were left to open the cards"


def _describe(action: Action) -> str:
    if isinstance(action, BetOrRaise):
        return f"bet or raise to {action.to}"
    return type(action).__name__.lower()


def _first_bad_shuffle(group: Group, key: bytes, start: Deck, steps: Sequence[ShuffleStep]) -> int | None:
    before = start
    for step in steps:
        if not verify_shuffle(group, key, before, step.deck, step.proof, step.context):
            return step.context.prover
        before = step.deck
    return None


def verify_transcript(transcript: HandTranscript, host_verifier: HostVerifier,
                      rng: RandomSource) -> tuple[list[Violation], Outcome | None]:
    """Check a whole hand offline: chain, every signature, every proof, every opened card, the betting replayed.
    ``rng`` draws the batch weights (the caller's: ``secrets`` in ``croupier verify``)."""
    try:
        referee = Referee(transcript.header, rng, host_verifier=host_verifier)
    except ProtocolError as problem:
        return [Violation("header", str(problem))], None
    for entry in transcript.entries:
        referee.apply(entry)
    referee.check_checkpoints([(item.seq, item.head, item.signature) for item in transcript.checkpoints])
    try:
        outcome = referee.finish()
    except (ValueError, IllegalAction, InvalidAmount, NotYourTurn) as problem:
        referee.fail("end of hand", f"the hand does not replay: {problem}")
        outcome = None
    return referee.violations, outcome
