"""The signed, hash-chained transcript of one host-blind hand, and its wire messages (msgspec, JSON).

A file is one :class:`HandTranscript`: a :class:`Header` (version, group, table and hand, the game and its
limits, every seat's name, stack and keys), then :class:`Entry` items in the order the host relayed them, then
the host's :class:`Checkpoint` signatures.

- **Chain.** ``head_0 = H(header)``; each entry carries ``prev`` (the head before it) and ``head_k = H(prev, seq,
  sender, kind, body, signature)``. Reordering, dropping or inserting an entry breaks every later head.
- **Players sign** each entry they send with Ed25519 over ``(table, hand, seq, prev, sender, kind, body)``:
  binding the head they saw, so a host showing different transcripts to different players holds two signed
  heads. **Shares of one opening** (the deal, a street, hands turned up at an all-in) are asked of every player at
  once, so they are signed apart from the chain: over ``(table, hand, anchor, head_anchor, sender, body)``, the
  head before the opening's first entry (:func:`opening_bytes`). The host chains them in seat order right after
  that head; the entry's ``anchor`` says which opening it answered, and the referee checks that each such entry
  sits in its opening's unbroken run, in seat order. **The host** signs its own entries (timeouts) and, after
  each phase, the checkpoint ``(table, hand, seq, head)`` with its SSH host key as SSHSIG. The SSHSIG code lives
  in ``hosting`` (the engine does no SSH): this module takes the host's signer and verifier as functions.

Points and 256-bit scalars travel as bytes (msgspec writes base64 in JSON).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Final, Literal

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from engine.fairness import field_bytes
from engine.fairness_v2.randomness import VERSION

HOST_SENDER: Final = -1
CHECKPOINT_NAMESPACE: Final = "croupier-v2-transcript"

HostSigner = Callable[[bytes], bytes]
"""Signs a checkpoint message with the host's SSH host key (SSHSIG, armored)."""
HostVerifier = Callable[[bytes, bytes], bool]
"""Checks an SSHSIG on a message against the host key the transcript names."""


class SeatRecord(msgspec.Struct, frozen=True):
    seat: int
    name: str
    stack: int
    signing_key: bytes
    """Ed25519 public key (32 bytes): the player's identity for this transcript."""
    elgamal_key: bytes
    key_proof: tuple[bytes, bytes]
    """Schnorr proof of knowledge of the ElGamal key (challenge, response)."""
    box_key: bytes
    """X25519 public key: escrow shares are sealed to it."""


class Posts(msgspec.Struct, frozen=True):
    """The forced bets as the room's table planned them (R-BLIND-1..3): who posts the blinds, dead small blinds
    and big blinds posted out of position by returning players. A header without it: the blinds of the two
    seats after the button (heads-up, the button posts the small blind)."""

    small_blind_seat: int | None
    big_blind_seat: int
    dead_small_blinds: tuple[int, ...] = ()
    big_blinds_out_of_position: tuple[int, ...] = ()


class AbsentSeat(msgspec.Struct, frozen=True):
    """A seat dealt in while its player was away (a tournament deals absent players in, R-TOUR-6): his forced
    bets are posted and his hand is dead from the start (TDA: not at his seat when the cards were dealt). He
    holds no key of the hand, so no share of his cards is ever published: nobody, the host included, sees them."""

    seat: int
    name: str
    stack: int


class Header(msgspec.Struct, frozen=True, omit_defaults=True):
    """The hand's public start. Fields with a default are left out of the encoding when they hold it, so a
    transcript written before they existed hashes (and verifies) as it did."""

    version: str
    group: str
    table: str
    hand: str
    variant: str
    structure: str
    small_blind: int
    big_blind: int
    button: int
    seats: tuple[SeatRecord, ...]
    shufflers: tuple[int, ...]
    host_key: str
    """The host's SSH public key (OpenSSH text): checkpoints verify against it; ``croupier verify`` prints its
    fingerprint, to compare with the one ``known_hosts`` pins."""
    posts: Posts | None = None
    ante: int = 0
    """Every dealt-in player's ante (a tournament level's); 0: none."""
    big_blind_ante: int = 0
    """One ante for the table, posted by the big blind (dead money, TDA 2022); 0: none."""
    absent: tuple[AbsentSeat, ...] = ()
    """Seats dealt in without a key (:class:`AbsentSeat`), their hands dead from the start."""


# ------------------------------------------------------------------ message bodies

class ShareItem(msgspec.Struct, frozen=True, array_like=True):
    position: int
    share: bytes
    challenge: bytes
    response: bytes


class Escrow(msgspec.Struct, frozen=True, tag="escrow"):
    threshold: int
    commitments: tuple[bytes, ...]
    holders: tuple[int, ...]
    sealed: tuple[bytes, ...]
    """Each holder's share, sealed to his box key, in ``holders`` order."""


class Shuffle(msgspec.Struct, frozen=True, tag="shuffle"):
    deck: tuple[bytes, ...]
    """``c1, c2`` of each position, flattened."""
    commitments: tuple[bytes, ...]
    chain: tuple[bytes, ...]
    t: tuple[bytes, ...]
    """t1, t2, t3, t4 (two points), then t̂_1..t̂_N."""
    s: tuple[bytes, ...]
    """s1..s4, then ŝ_1..ŝ_N, then s'_1..s'_N."""


class Shares(msgspec.Struct, frozen=True, tag="shares"):
    """Decryption shares: at the deal (others' hole cards), for a street of the board, or a show (own cards)."""

    purpose: Literal["deal", "board", "show"]
    items: tuple[ShareItem, ...]


class Covers(msgspec.Struct, frozen=True, tag="covers"):
    """A holder standing in for a missing player's share (threshold cover), per deck position."""

    dealer: int
    items: tuple[ShareItem, ...]


class Act(msgspec.Struct, frozen=True, tag="action"):
    """A betting action: fold, check, call, bet or raise (``to``: the street total), show or muck."""

    action: str
    to: int = 0


class Stacks(msgspec.Struct, frozen=True, tag="stacks"):
    """The host, when a hand prepared ahead starts (its header has every stack 0: the keys were escrowed and the
    deck shuffled during the hand before, when nobody knew the stacks yet): each seat's stack, in header order."""

    stacks: tuple[int, ...]


class Timeout(msgspec.Struct, frozen=True, tag="timeout"):
    """The host: ``seat`` stopped answering at ``step``; he is folded and covered from here on."""

    seat: int
    step: str


class Disclosure(msgspec.Struct, frozen=True, tag="disclosure"):
    """A dealer answers a holder's complaint that the escrow share sealed to him is false (Feldman's dispute):
    ``holder``'s share of the dealer's key, in the clear, for everyone to check against the escrow's commitments.
    A true one settles it (the holder takes it); a false one, or none (the host's ``Timeout`` at step
    ``disclose``), voids the dealer's escrow: nobody can stand in for him this hand."""

    holder: int
    share: bytes


Body = Escrow | Shuffle | Shares | Covers | Act | Stacks | Timeout | Disclosure


class Entry(msgspec.Struct, frozen=True, omit_defaults=True):
    seq: int
    prev: bytes
    sender: int
    body: Body
    signature: bytes
    anchor: int | None = None
    """Shares of an opening round (signed apart from the chain, :func:`opening_bytes`): the ``seq`` of the round's
    first entry, whose head before it the sender signed. ``None`` (left out of the encoding): signed in place."""


class Checkpoint(msgspec.Struct, frozen=True):
    seq: int
    """Entries ``0..seq-1`` are covered (``seq = 0``: the header alone)."""
    head: bytes
    signature: bytes


class HandTranscript(msgspec.Struct, frozen=True):
    header: Header
    entries: tuple[Entry, ...]
    checkpoints: tuple[Checkpoint, ...]


_BODY_ENCODER: Final = msgspec.json.Encoder()
_FILE_DECODER: Final = msgspec.json.Decoder(HandTranscript)


def kind_of(body: Body) -> str:
    return type(body).__struct_config__.tag  # type: ignore[return-value]


def header_head(header: Header) -> bytes:
    return hashlib.sha256(b"croupier/v2/header" + _BODY_ENCODER.encode(header)).digest()


def signed_bytes(header: Header, seq: int, prev: bytes, sender: int, body: Body) -> bytes:
    """What the sender signs: the entry bound to its table, hand, place in the chain and the head before it."""
    return b"".join(field_bytes(part) for part in (
        b"croupier/v2/entry", header.table.encode(), header.hand.encode(), str(seq).encode(), prev,
        str(sender).encode(), _BODY_ENCODER.encode(body)))


def opening_bytes(header: Header, anchor: int, head: bytes, sender: int, body: Body) -> bytes:
    """What a player signs for his shares of an opening asked of everyone at once: bound to the table, the hand
    and the head the opening started from (``anchor``: the seq of its first entry), not to his place in it,
    which the host gives in seat order when every answer is in."""
    return b"".join(field_bytes(part) for part in (
        b"croupier/v2/opening", header.table.encode(), header.hand.encode(), str(anchor).encode(), head,
        str(sender).encode(), _BODY_ENCODER.encode(body)))


def entry_head(entry: Entry) -> bytes:
    anchor = () if entry.anchor is None else (str(entry.anchor).encode(),)
    return hashlib.sha256(b"".join(field_bytes(part) for part in (
        b"croupier/v2/chain", entry.prev, str(entry.seq).encode(), str(entry.sender).encode(),
        _BODY_ENCODER.encode(entry.body), entry.signature, *anchor))).digest()


def checkpoint_bytes(header: Header, seq: int, head: bytes) -> bytes:
    """What the host signs: the header's hash too, so a changed name or stack fails every checkpoint."""
    return b"".join(field_bytes(part) for part in (
        b"croupier/v2/checkpoint", VERSION.encode(), header.table.encode(), header.hand.encode(),
        header_head(header), str(seq).encode(), head))


def ed25519_public(key: Ed25519PrivateKey) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def ed25519_verify(public: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


class TranscriptWriter:
    """The host's side of the chain: appends what players sent (already signed) and signs checkpoints.

    Holds no secret of any player. ``host_signer`` is the host's SSHSIG function."""

    def __init__(self, header: Header, host_signer: HostSigner) -> None:
        self.header = header
        self._signer = host_signer
        self.entries: list[Entry] = []
        self.checkpoints: list[Checkpoint] = []
        self.head = header_head(header)

    @property
    def seq(self) -> int:
        return len(self.entries)

    def append(self, entry: Entry) -> bytes:
        """Add an entry built against the current head (:func:`sign_entry`); the new head."""
        if entry.seq != self.seq or entry.prev != self.head:
            raise ValueError(f"entry {entry.seq} was signed against another head: resend against {self.seq}")
        self.entries.append(entry)
        self.head = entry_head(entry)
        return self.head

    def place(self, entry: Entry) -> bytes:
        """Chain an opening's share (``anchor`` set, signed apart from the chain) at the current head."""
        if entry.anchor is None:
            raise ValueError("only an opening's shares are placed by the host")
        return self.append(msgspec.structs.replace(entry, seq=self.seq, prev=self.head))

    def host_entry(self, body: Body) -> bytes:
        signature = self._signer(signed_bytes(self.header, self.seq, self.head, HOST_SENDER, body))
        return self.append(Entry(self.seq, self.head, HOST_SENDER, body, signature))

    def checkpoint(self) -> Checkpoint:
        checkpoint = Checkpoint(self.seq, self.head, self._signer(checkpoint_bytes(self.header, self.seq,
                                                                                   self.head)))
        self.checkpoints.append(checkpoint)
        return checkpoint

    def transcript(self) -> HandTranscript:
        return HandTranscript(self.header, tuple(self.entries), tuple(self.checkpoints))


def sign_entry(header: Header, seq: int, prev: bytes, sender: int, body: Body, key: Ed25519PrivateKey) -> Entry:
    return Entry(seq, prev, sender, body, key.sign(signed_bytes(header, seq, prev, sender, body)))


def sign_opening(header: Header, anchor: int, head: bytes, sender: int, body: Body,
                 key: Ed25519PrivateKey) -> Entry:
    """An opening's share signed apart from the chain (:func:`opening_bytes`); the host gives its ``seq`` and
    ``prev`` when it chains it (:meth:`TranscriptWriter.place`)."""
    return Entry(anchor, head, sender, body, key.sign(opening_bytes(header, anchor, head, sender, body)), anchor)


def dumps(transcript: HandTranscript) -> bytes:
    return _BODY_ENCODER.encode(transcript)


def loads(data: bytes | str) -> HandTranscript:
    """Parse a transcript file; ``msgspec.ValidationError``/``DecodeError`` (both ``ValueError``) when malformed."""
    return _FILE_DECODER.decode(data)


def encoded_size(body: Body | Entry) -> int:
    return len(_BODY_ENCODER.encode(body))
