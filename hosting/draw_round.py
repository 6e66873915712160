"""A commit–reveal draw with the registered players' clients: a Spin's multiplier, a tournament's first seats
(DESIGN.md "Fairness everywhere"; the draw itself is :mod:`engine.fair_draw`).

The round follows a hand's (:mod:`hosting.table_runner`), over the same mailroom, with named players:

1. the host draws its secret and sends ``draw_commit_request`` (the draw, its outcome table, the host's
   commitment, the deadline) to every registered player; each client answers ``draw_commit``;
2. after ``commit_seconds`` (or when all are in) the host publishes ``draw_commitments`` to them all, then
   ``draw_reveal_request``; each client answers ``draw_reveal`` (to the host only);
3. the host makes the draw from its secret and the revealed ones and sends ``draw_proof`` to every player; each
   client checks it (:class:`DrawParticipant`) with the commitments it was sent and its own secret.

Not revealing, as for decks: a player without a commitment by the deadline is left out of the draw; one who
committed and sent no matching secret by ``reveal_seconds`` is left out of the key and named as withheld in the
proof — never a re-draw. A message from anyone not asked, for another draw, late, early, repeated or not matching
is refused with the codes a hand's shuffle uses (:class:`hosting.errors.RoomError`): it changes nothing in the
draw, and the refusal spends the sender's error budget (a late one from a player the draw asked is a slow link's:
:mod:`hosting.late_answers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.fair_draw import DrawProof, Outcomes, check_proof, draw_commit, make_proof
from engine.fairness import FairnessError
from hosting import protocol
from hosting.errors import NO_HAND, RoomError
from hosting.owner import Mailroom


def button_draw_id(hand_id: str) -> str:
    """A host-blind table's first button draw (R-DEAL-1), bound to that first hand."""
    return f"button:{hand_id}"


def is_button_draw(draw_id: str) -> bool:
    """Whether ``draw_id`` names a first button draw (:func:`button_draw_id`), not a Spin's multiplier.

    >>> is_button_draw(button_draw_id("blind-ab12cd-1")), is_button_draw("spin-7")
    (True, False)
    """
    return draw_id.startswith("button:")


@dataclass(frozen=True)
class DrawSeconds:
    """The round's deadlines (a hand's defaults, :class:`hosting.table_runner.RunnerSettings`)."""

    commit_seconds: float = 5.0
    reveal_seconds: float = 5.0


class DrawRound:
    """One draw's host side. Feed it the players' ``draw_commit``/``draw_reveal`` (:meth:`receive`); await
    :meth:`run` for the proof."""

    def __init__(self, mailroom: Mailroom, draw_id: str, outcomes: Outcomes, players: Sequence[str], *,
                 seconds: DrawSeconds = DrawSeconds(), host_secret: bytes | None = None) -> None:
        self.mailroom = mailroom
        self.draw_id = draw_id
        self.outcomes = tuple(outcomes)
        self.players = tuple(dict.fromkeys(players))
        self.seconds = seconds
        self.host_secret = host_secret if host_secret is not None else secrets.token_bytes(32)
        self.commitments: dict[str, bytes] = {}
        self.revealed: dict[str, bytes] = {}
        self.phase = "commit"
        self._changed = asyncio.Event()

    def receive(self, name: str, message: Mapping[str, Any]) -> None:
        """A player's ``draw_commit`` or ``draw_reveal`` (already validated by :mod:`hosting.protocol`);
        :class:`RoomError` when it is refused (nothing of the draw changed)."""
        if message.get("draw") != self.draw_id:
            raise RoomError(NO_HAND, f"no draw {message.get('draw')} is running")
        if name not in self.players:
            raise RoomError("not_dealt_in", f"you are not taking part in draw {self.draw_id}")
        if message.get("type") == "draw_commit":
            self._commit(name, bytes.fromhex(message["commitment"]))
        else:
            self._reveal(name, bytes.fromhex(message["secret"]))
        self._changed.set()

    def _commit(self, name: str, commitment: bytes) -> None:
        if self.phase != "commit":
            raise RoomError("too_late", f"the commitments of draw {self.draw_id} are already published")
        if name in self.commitments:
            raise RoomError("already_committed", f"you already committed for draw {self.draw_id}")
        self.commitments[name] = commitment

    def _reveal(self, name: str, secret: bytes) -> None:
        if self.phase != "reveal":
            raise RoomError("too_early" if self.phase == "commit" else "too_late",
                            f"reveals of draw {self.draw_id} are not open (phase: {self.phase})")
        if name not in self.commitments:
            raise RoomError("not_dealt_in", f"you did not commit in time for draw {self.draw_id}")
        if name in self.revealed:
            raise RoomError("already_revealed", f"you already revealed for draw {self.draw_id}")
        if draw_commit(self.mailroom.room_id, self.draw_id, name, secret) != self.commitments[name]:
            raise RoomError("bad_reveal", "this secret does not match your commitment")  # counts as none: withheld
        self.revealed[name] = secret

    async def run(self, *, publish: bool = True) -> DrawProof:
        """The draw; its proof is sent to the players unless ``publish`` is false (then the caller keeps it first
        and sends it with :func:`proof_message`: a host that stops the room after showing a result it dislikes
        must not get to draw again — R-CRASH-1 keeps the proof before anyone sees it)."""
        room_id = self.mailroom.room_id
        host_commitment = draw_commit(room_id, self.draw_id, None, self.host_secret).hex()
        request = protocol.message("draw_commit_request", draw=self.draw_id, host_commitment=host_commitment,
                                   outcomes=[list(row) for row in self.outcomes], deadline=self.seconds.commit_seconds)
        for name in self.players:
            self.mailroom.send_to(name, request)
        await self._until(lambda: len(self.commitments) == len(self.players), self.seconds.commit_seconds)
        self.phase = "reveal"
        published = protocol.message("draw_commitments", draw=self.draw_id, host=host_commitment,
                                     commitments={name: value.hex() for name, value in self.commitments.items()})
        for name in self.players:
            self.mailroom.send_to(name, published)
            if name in self.commitments:
                self.mailroom.send_to(name, protocol.message("draw_reveal_request", draw=self.draw_id,
                                                             deadline=self.seconds.reveal_seconds))
        await self._until(lambda: len(self.revealed) == len(self.commitments), self.seconds.reveal_seconds)
        self.phase = "done"
        proof = make_proof(room_id, self.draw_id, self.outcomes, self.host_secret, self.revealed,
                           committed=self.commitments)
        if publish:
            self.publish(proof)
        return proof

    def publish(self, proof: DrawProof) -> None:
        """The proof to every registered player (each client checks it)."""
        for name in self.players:
            self.mailroom.send_to(name, proof_message(proof))

    async def _until(self, done: Any, seconds: float) -> None:
        deadline = self.mailroom.clock() + seconds
        while not done() and self.mailroom.clock() < deadline:
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), deadline - self.mailroom.clock())


def proof_message(proof: DrawProof) -> dict[str, Any]:
    """The ``draw_proof`` message of a draw (each client checks it)."""
    return protocol.message("draw_proof", draw=proof.draw_id, proof=proof.to_json())


@dataclass
class DrawParticipant:
    """A client's side of draws (fed every inbound message, like :class:`hosting.client.FairnessParticipant`):
    commits to a fresh secret, reveals it to the host, checks the proof. ``results``: draw id → the problems
    found (empty: the draw checks out); ``proofs``: the proofs received."""

    room_id: str
    name: str
    results: dict[str, list[str]] = field(default_factory=dict)
    proofs: dict[str, DrawProof] = field(default_factory=dict)
    _secrets: dict[str, bytes] = field(default_factory=dict)
    _seen: dict[str, tuple[bytes, dict[str, bytes], tuple[tuple[int, int], ...]]] = field(default_factory=dict)
    _tables: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    _revealed: set[str] = field(default_factory=set)

    def handle(self, message: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The messages to send back (a ``draw_commit``, a ``draw_reveal``), none for the others."""
        kind, draw = message.get("type"), message.get("draw")
        if not isinstance(draw, str):
            return []
        if kind == "draw_commit_request" and draw not in self._secrets:
            self._secrets[draw] = secrets.token_bytes(32)
            self._tables[draw] = tuple((int(row[0]), int(row[1])) for row in message["outcomes"])
            digest = draw_commit(self.room_id, draw, self.name, self._secrets[draw])
            return [protocol.message("draw_commit", draw=draw, commitment=digest.hex())]
        if kind == "draw_commitments" and draw in self._tables:
            self._seen[draw] = (bytes.fromhex(message["host"]),
                                {name: bytes.fromhex(value) for name, value in message["commitments"].items()},
                                self._tables[draw])
        elif kind == "draw_reveal_request" and draw in self._secrets:
            self._revealed.add(draw)
            return [protocol.message("draw_reveal", draw=draw, secret=self._secrets[draw].hex())]
        elif kind == "draw_proof" and draw in self._seen:
            self.results[draw] = self._check(draw, message["proof"])
        return []

    def _check(self, draw: str, data: Mapping[str, Any]) -> list[str]:
        try:
            proof = DrawProof.from_json(data)
        except FairnessError as problem:
            return [str(problem)]
        self.proofs[draw] = proof
        host, commitments, table = self._seen[draw]
        problems = [] if proof.room_id == self.room_id and proof.draw_id == draw else ["the proof is for another draw"]
        mine = draw_commit(self.room_id, draw, self.name, self._secrets[draw])
        if commitments.get(self.name) != mine:
            problems.append(f"the commitment of {self.name} was left out or changed before the reveal")
        # revealed in time (as far as this client knows): the host may not leave it out of the key
        own = (self.name, self._secrets[draw]) if draw in self._revealed else None
        return problems + check_proof(proof, outcomes=table, commitments=commitments, host_commitment=host, own=own)
