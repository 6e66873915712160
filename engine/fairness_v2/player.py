"""A player's side of a host-blind hand: the only place his secrets live (ElGamal key, signing key, box key,
the escrow shares he holds), and the step methods that turn the public state into his next message.

Every method decides *from his own :class:`~engine.fairness_v2.referee.Referee`* what is due — never from a
request — so a host cannot talk him into opening a card early, twice, to the wrong audience, or his own.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.cards import Card
from engine.fairness_v2.elgamal import PlayerKey
from engine.fairness_v2.group import Group
from engine.fairness_v2.opening import DecryptionShare, OpeningSchedule, ShareGuard
from engine.fairness_v2.randomness import RandomSource, scalar_bytes
from engine.fairness_v2.referee import Referee, key_context, shuffle_context
from engine.fairness_v2.shuffle import shuffle_with_witness
from engine.fairness_v2.threshold import (
    box_key,
    box_public,
    check_share,
    cover_share,
    deal_key,
    seal,
    threshold_for,
    unseal,
)
from engine.fairness_v2.transcript import (
    Act,
    Body,
    Covers,
    Disclosure,
    Entry,
    Escrow,
    Header,
    SeatRecord,
    ShareItem,
    Shares,
    Shuffle,
    sign_entry,
    sign_opening,
)

CLIENT_SIGNED_KINDS = frozenset({"action", "shuffle", "escrow"})
"""A host could forge these without breaking a proof (an action in someone's name, a shuffle it made itself);
Ed25519 checks cost ≈ 0.12 ms each. The host's own entries (timeouts) are checked offline by ``croupier verify``."""


def _item(share: DecryptionShare) -> ShareItem:
    return ShareItem(share.position, share.share, scalar_bytes(share.proof.challenge),
                     scalar_bytes(share.proof.response))


def escrow_context(header: Header, dealer: int, holder: int) -> bytes:
    return f"{header.table}/{header.hand}/escrow/{dealer}->{holder}".encode()


class Player:
    """One seated player (for a session of hands: keys are made once, each hand calls :meth:`start`)."""

    def __init__(self, seat: int, name: str, group: Group, rng: RandomSource) -> None:
        self.seat = seat
        self.name = name
        self.group = group
        self._key = PlayerKey.generate(group, rng)
        self._signing = Ed25519PrivateKey.from_private_bytes(rng.token_bytes(32))
        self._box = box_key(rng)
        self._held: dict[int, int] = {}
        self._sent: set[bytes] = set()
        self.complaints: list[str] = []
        self.disputes: list[int] = []
        """Dealers whose escrow share sealed to me is false (or does not open): the room is told, the dealer must
        disclose it (:meth:`disclose`)."""
        self._dealt: dict[int, int] = {}  # my escrow's shares, by holder: disclosed if a holder disputes his
        self.referee: Referee | None = None
        self._guard: ShareGuard | None = None
        self._ahead: dict[str, Player] = {}

    def __repr__(self) -> str:
        return f"Player(seat {self.seat}, {self.name!r})"

    def seat_record(self, table: str, stack: int, rng: RandomSource) -> SeatRecord:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
        proof = self._key.prove_possession(key_context(table, self.seat), rng)
        return SeatRecord(self.seat, self.name, stack,
                          self._signing.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw),
                          self._key.public, (scalar_bytes(proof.challenge), scalar_bytes(proof.response)),
                          box_public(self._box))

    def start(self, header: Header, rng: RandomSource) -> None:
        """A new hand: check the header (key proofs), lay out the schedule. A hand prepared ahead with this very
        header (:meth:`prepare`) carries on where its preparation got to."""
        ahead = self._ahead.pop(header.hand, None)
        self._ahead.clear()  # a preparation for any other hand is stale now
        if ahead is not None and ahead.referee is not None and ahead.referee.header == header:
            self.referee, self._guard, self._held, self._dealt = ahead.referee, ahead._guard, ahead._held, ahead._dealt
            return
        self.referee = Referee(header, rng, viewer=self.seat, signed_kinds=CLIENT_SIGNED_KINDS)
        self._guard = ShareGuard(self.seat, self._key, OpeningSchedule(self.referee.audiences), header.table,
                                 header.hand)
        self._held, self._dealt = {}, {}

    def prepare(self, header: Header, rng: RandomSource) -> Player:
        """Shuffle ahead: this player for the next hand while the current one goes on — the same keys, its own
        referee. The room sends the next hand's escrow and shuffle messages through the returned object; when
        that hand starts, :meth:`start` with the same header takes its state over. (Its header has every
        stack 0: the host's :class:`~engine.fairness_v2.transcript.Stacks` entry sets them at the start.)"""
        twin = Player.__new__(Player)
        twin.seat, twin.name, twin.group = self.seat, self.name, self.group
        twin._key, twin._signing, twin._box = self._key, self._signing, self._box
        twin._sent, twin.complaints = self._sent, self.complaints  # shared: one player, one record
        twin.disputes = self.disputes
        twin._held, twin._dealt, twin._ahead = {}, {}, {}
        twin.referee = twin._guard = None
        twin.start(header, rng)
        self._ahead = {header.hand: twin}
        return twin

    @property
    def ref(self) -> Referee:
        if self.referee is None:
            raise RuntimeError("no hand started")
        return self.referee

    @property
    def guard(self) -> ShareGuard:
        if self._guard is None:
            raise RuntimeError("no hand started")
        return self._guard

    def sign(self, seq: int, prev: bytes, body: Body) -> Entry:
        entry = sign_entry(self.ref.header, seq, prev, self.seat, body, self._signing)
        self._sent.add(entry.signature)
        return entry

    def sign_opening(self, body: Shares) -> Entry:
        """My shares of an opening asked of every player at once: signed against the head my referee is at (the
        opening's start), not a place in the chain — the host chains the answers in seat order."""
        ref = self.ref
        entry = sign_opening(ref.header, ref.seq, ref.head, self.seat, body, self._signing)
        self._sent.add(entry.signature)
        return entry

    def receive(self, entry: Entry) -> None:
        """Apply a relayed entry; keep (and check) an escrow share sealed to me."""
        ref = self.ref
        if entry.sender == self.seat and entry.signature not in self._sent:
            self.complaints.append(f"entry {entry.seq} was relayed in my name and I did not send it")
        ref.apply(entry)
        body = entry.body
        if isinstance(body, Escrow) and self.seat in body.holders and entry.sender in ref.escrows:
            sealed = body.sealed[body.holders.index(self.seat)]
            try:
                share = int.from_bytes(unseal(self._box, sealed, escrow_context(ref.header, entry.sender,
                                                                                 self.seat)), "big")
            except ValueError:
                self.complaints.append(f"seat {entry.sender}'s escrow share does not open")
                self.disputes.append(entry.sender)
                return
            if check_share(self.group, ref.escrows[entry.sender], self.seat, share):
                self._held[entry.sender] = share
            else:
                self.complaints.append(f"seat {entry.sender}'s escrow share does not match its commitments")
                self.disputes.append(entry.sender)
        elif isinstance(body, Disclosure) and body.holder == self.seat and (entry.sender, self.seat) in ref.disclosed:
            self._held[entry.sender] = ref.disclosed[(entry.sender, self.seat)]  # the dispute is settled

    # ------------------------------------------------------------------ messages

    def escrow(self, rng: RandomSource) -> Escrow:
        header = self.ref.header
        holders = [record.seat for record in header.seats if record.seat != self.seat]
        escrow, shares = deal_key(self._key, self.seat, holders, threshold_for(len(header.seats)), rng)
        self._dealt = dict(shares)
        sealed = tuple(seal(next(r.box_key for r in header.seats if r.seat == holder),
                            scalar_bytes(shares[holder]), escrow_context(header, self.seat, holder), rng)
                       for holder in holders)
        return Escrow(escrow.threshold, escrow.commitments, escrow.holders, sealed)

    def disclose(self, holder: int) -> Disclosure:
        """``holder`` disputes the share of my key sealed to him: it, in the clear (one share of this hand's
        sharing: alone it tells nothing of my key)."""
        if holder not in self._dealt:
            raise ValueError(f"seat {holder} holds no share of my key this hand")
        return Disclosure(holder, scalar_bytes(self._dealt[holder]))

    def shuffle(self, rng: RandomSource) -> Shuffle:
        ref = self.ref
        deck, proof, witness = shuffle_with_witness(self.group, ref.key, ref.deck, shuffle_context(
            ref.header.table, ref.header.hand, self.seat), rng)
        ref.own_shuffle = witness
        scalars = (proof.s1, proof.s2, proof.s3, proof.s4, *proof.s_hat, *proof.s_prime)
        return Shuffle(tuple(point for item in deck for point in (item.c1, item.c2)), proof.commitments,
                       proof.chain, (proof.t1, proof.t2, proof.t3, proof.t4_first, proof.t4_second, *proof.t_hat),
                       tuple(scalar_bytes(value) for value in scalars))

    def deal_shares(self, rng: RandomSource) -> Shares:
        """My shares of everybody else's hole cards (public: without the owner's key they open nothing)."""
        positions = self.ref.needs(self.seat).get("deal", [])
        return Shares("deal", tuple(_item(self.guard.open_for(position, self.ref.deck, rng))
                                    for position in positions))

    def board_shares(self, rng: RandomSource) -> Shares:
        positions = self.ref.needs(self.seat).get("board", [])
        return Shares("board", tuple(_item(self.guard.open_for(position, self.ref.deck, rng))
                                     for position in positions))

    def covers(self, missing: int, rng: RandomSource) -> Covers:
        """Stand in for a timed-out player's share where the table needs it (never his own cards)."""
        ref = self.ref
        escrow = ref.escrows[missing]
        share = self._held[missing]
        done = {position for (position, seat), holders in ref.covers.items() if seat == missing
                and self.seat in holders}
        items = []
        for position in ref.cover_needed(missing):
            if position in done:
                continue
            cover = cover_share(self.group, escrow, self.seat, share, ref.deck[position].c1, position,
                                self.guard.schedule, ref.header.table, ref.header.hand, rng)
            items.append(ShareItem(position, cover.share, scalar_bytes(cover.proof.challenge),
                                   scalar_bytes(cover.proof.response)))
        return Covers(missing, tuple(items))

    def hole_cards(self) -> tuple[Card | None, ...]:
        ref = self.ref
        cards = []
        for position in ref.positions_of(self.seat):
            public = ref.share_points(position)
            public.pop(self.seat, None)
            cards.append(self.guard.own_card(position, ref.deck, list(public.values()))
                         if len(public) == len(ref.seats) - 1 else None)
        return tuple(cards)

    def show(self, rng: RandomSource) -> Shares:
        return Shares("show", tuple(_item(share) for share in self.guard.show(self.ref.deck, rng)))

    def muck(self) -> Act:
        self.guard.muck()
        return Act("muck")
