"""Commit–reveal draws that are not decks: a Spin multiplier, initial tournament seats (DESIGN.md "Fairness
everywhere"; the deck protocol is :mod:`engine.fairness`, whose encoding and sampling this module reuses).

Pure: secrets come in as arguments (``hosting`` draws them with ``secrets.token_bytes(32)``, a client its own).

**Who commits.** The host and every registered player, each with a fresh 32-byte secret, before anyone
reveals. Players are named (a tournament has no seats yet); names are unique in a room.

**Encoding** (fields are length-prefixed as in :mod:`engine.fairness`):

- commitment of the host: ``SHA-256(F("croupier/v1/draw-commit") F(room_id) F(draw_id) F("host") F(secret))``;
  of a player: ``SHA-256(F("croupier/v1/draw-commit") F(room_id) F(draw_id) F("player") F(name) F(secret))``.
- draw key: ``SHA-256(F("croupier/v1/draw") F(room_id) F(draw_id) F(table) F(s_host) F(name_1) F(s_1) …)``,
  players by ascending name (Unicode code points), only the secrets revealed. ``table`` is the outcome table
  as text (``"2:690000,3:230000,…"``), so the proof binds the published table.
- outcome: with ``W`` the sum of the weights, an index ``i`` exactly uniform in ``0..W-1`` is read from the
  SHAKE-256(key) stream by **rejection sampling** (:func:`engine.fairness.uniform_below`: the smallest byte
  count ``k`` with ``256**k >= W``; a value ``r >= 256**k - 256**k mod W`` is thrown away and the next read, so
  no outcome gains from a modulo remainder); the outcome is the row whose cumulative range holds ``i``
  (rows in the table's order, each ``weight`` wide). A Spin's ``i`` is the director's ``spin_draw``.
- an order (seats): Fisher–Yates over ``0..n-1`` from the same stream, as the deck's shuffle.

**Not revealing** (the rule for decks, DESIGN.md "Fairness" step 3): a player who does not commit in time is
left out of the draw; one who commits and does not reveal in time is left out of the key and named in the
proof as withheld — never a re-draw (a re-draw would let a player who dislikes an outcome veto it).

>>> proof = make_proof("room", "spin:7", ((2, 3), (5, 1)), bytes(32), {"ann": bytes([1]) * 32})
>>> proof.index in range(4), proof.outcome in (2, 5), check_proof(proof)
(True, True, [])
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine.fairness import SECRET_BYTES, FairnessError, ShakeStream, field_bytes, uniform_below

DRAW_COMMIT_TAG: Final = "croupier/v1/draw-commit"
DRAW_TAG: Final = "croupier/v1/draw"

Outcomes = Sequence[tuple[int, int]]
"""A table of outcomes: ``(outcome, weight)`` rows in order; the outcome is drawn ``weight`` times in the sum."""


def _check(secret: bytes) -> None:
    if not isinstance(secret, bytes) or len(secret) != SECRET_BYTES:
        raise FairnessError(f"a draw secret is exactly {SECRET_BYTES} bytes")


def draw_commit(room_id: str, draw_id: str, player: str | None, secret: bytes) -> bytes:
    """The commitment of the host (``player=None``) or of the named player to ``secret`` for one draw."""
    _check(secret)
    who = [b"host"] if player is None else [b"player", player.encode()]
    parts = [DRAW_COMMIT_TAG.encode(), room_id.encode(), draw_id.encode(), *who, secret]
    return hashlib.sha256(b"".join(field_bytes(part) for part in parts)).digest()


def table_text(outcomes: Outcomes) -> str:
    """The table as the key binds it: ``"outcome:weight"`` rows joined by commas. Weights are positive."""
    if not outcomes:
        raise FairnessError("a draw needs at least one outcome")
    for outcome, weight in outcomes:
        if isinstance(weight, bool) or not isinstance(weight, int) or weight <= 0:
            raise FairnessError(f"the weight of outcome {outcome} is a positive integer, got {weight!r}")
    return ",".join(f"{outcome}:{weight}" for outcome, weight in outcomes)


def draw_key(room_id: str, draw_id: str, outcomes: Outcomes, host_secret: bytes,
             players: Mapping[str, bytes]) -> bytes:
    """The 32-byte key of a draw: the host's secret first, then the revealed players' by ascending name."""
    _check(host_secret)
    parts = [DRAW_TAG.encode(), room_id.encode(), draw_id.encode(), table_text(outcomes).encode(), host_secret]
    for name in sorted(players):
        _check(players[name])
        parts += [name.encode(), players[name]]
    return hashlib.sha256(b"".join(field_bytes(part) for part in parts)).digest()


def draw_index(key: bytes, total: int) -> int:
    """An exactly uniform index in ``0..total-1`` from the key (rejection sampling, module docstring)."""
    if total <= 0:
        raise FairnessError("a draw needs a positive total weight")
    return uniform_below(ShakeStream(key), total)


def outcome_at(outcomes: Outcomes, index: int) -> int:
    """The outcome whose cumulative range holds ``index`` (rows in order, each ``weight`` wide).

    >>> outcome_at(((2, 3), (5, 1)), 2), outcome_at(((2, 3), (5, 1)), 3)
    (2, 5)
    """
    for outcome, weight in outcomes:
        if index < weight:
            return outcome
        index -= weight
    raise FairnessError("the index is past the table's total weight")


class KeyDraw:
    """A ``randrange``-like draw (``bound`` → ``0..bound-1``, exactly uniform) read from a draw key's stream: the
    director's :data:`engine.tournament.seating.Draw` for first seats drawn by commit–reveal, which anyone replays
    from the published key. The stream is SHAKE-256 of ``HMAC-SHA256(key, "order")`` (not the stream the draw's
    index came from). Picklable (the key and how far it was read), as the director's state is stored."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self._stream = ShakeStream(hmac.new(key, b"order", hashlib.sha256).digest())

    def __call__(self, bound: int) -> int:
        return uniform_below(self._stream, bound)

    def __getstate__(self) -> tuple[bytes, int]:
        return self.key, self._stream.position

    def __setstate__(self, state: tuple[bytes, int]) -> None:
        key, position = state
        self.__init__(key)  # type: ignore[misc]
        self._stream.skip(position)


@dataclass(frozen=True, slots=True)
class DrawProof:
    """Everything a verifier needs: who committed to what, the secrets revealed, the table and the result.

    ``withheld``: players who committed and did not reveal (left out of the key). ``index`` is the uniform
    draw in ``0..total-1``, ``outcome`` the table's row for it."""

    room_id: str
    draw_id: str
    outcomes: tuple[tuple[int, int], ...]
    host_commitment: bytes
    host_secret: bytes
    commitments: Mapping[str, bytes]
    secrets: Mapping[str, bytes]
    index: int
    outcome: int
    withheld: tuple[str, ...] = field(default=())

    @property
    def key(self) -> bytes:
        return draw_key(self.room_id, self.draw_id, self.outcomes, self.host_secret, self.secrets)

    def to_json(self) -> dict[str, object]:
        return {
            "protocol": DRAW_TAG, "room_id": self.room_id, "draw_id": self.draw_id,
            "outcomes": [[outcome, weight] for outcome, weight in self.outcomes],
            "host_commitment": self.host_commitment.hex(), "host_secret": self.host_secret.hex(),
            "commitments": {name: value.hex() for name, value in sorted(self.commitments.items())},
            "secrets": {name: value.hex() for name, value in sorted(self.secrets.items())},
            "withheld": list(self.withheld), "index": self.index, "outcome": self.outcome,
        }

    @staticmethod
    def from_json(data: Mapping[str, object]) -> DrawProof:
        """Read a proof back; :class:`FairnessError` naming the field when one is missing or malformed."""
        try:
            if data.get("protocol") != DRAW_TAG:
                raise FairnessError(f"not a {DRAW_TAG} proof")
            rows = data["outcomes"]
            if not isinstance(rows, list):
                raise FairnessError("outcomes is a list of [outcome, weight]")
            outcomes = tuple((_integer(row[0], "outcome"), _integer(row[1], "weight")) for row in rows)
            withheld = data.get("withheld", [])
            if not isinstance(withheld, list) or not all(isinstance(name, str) for name in withheld):
                raise FairnessError("withheld is a list of names")
            return DrawProof(
                _text(data["room_id"], "room_id"), _text(data["draw_id"], "draw_id"), outcomes,
                _hex(data["host_commitment"], "host_commitment"), _hex(data["host_secret"], "host_secret"),
                _hex_map(data["commitments"], "commitments"), _hex_map(data["secrets"], "secrets"),
                _integer(data["index"], "index"), _integer(data["outcome"], "outcome"), tuple(withheld))
        except (KeyError, IndexError, TypeError) as problem:
            raise FairnessError(f"a draw proof is missing or has a malformed field: {problem}") from None


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise FairnessError(f"{name} is text")
    return value


def _integer(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FairnessError(f"{name} is an integer, got {value!r}")
    return value


def _hex(value: object, name: str) -> bytes:
    try:
        return bytes.fromhex(_text(value, name))
    except ValueError:
        raise FairnessError(f"{name} is hex") from None


def _hex_map(value: object, name: str) -> dict[str, bytes]:
    if not isinstance(value, dict):
        raise FairnessError(f"{name} maps names to hex")
    return {_text(key, name): _hex(item, name) for key, item in value.items()}


def make_proof(room_id: str, draw_id: str, outcomes: Outcomes, host_secret: bytes,
               revealed: Mapping[str, bytes], *, committed: Mapping[str, bytes] | None = None) -> DrawProof:
    """The host's side: the draw from the revealed secrets. ``committed``: every player's commitment
    (default: those of the revealed secrets); a committed player missing from ``revealed`` is withheld."""
    commitments = dict(committed) if committed is not None else {
        name: draw_commit(room_id, draw_id, name, secret) for name, secret in revealed.items()}
    unknown = sorted(set(revealed) - set(commitments))
    if unknown:
        raise FairnessError(f"a secret from a player who did not commit: {', '.join(unknown)}")
    rows = tuple((outcome, weight) for outcome, weight in outcomes)
    key = draw_key(room_id, draw_id, rows, host_secret, revealed)
    index = draw_index(key, sum(weight for _, weight in rows))
    return DrawProof(room_id, draw_id, rows, draw_commit(room_id, draw_id, None, host_secret), host_secret,
                     commitments, dict(revealed), index, outcome_at(rows, index),
                     tuple(sorted(set(commitments) - set(revealed))))


def check_proof(proof: DrawProof, *, outcomes: Outcomes | None = None,
                commitments: Mapping[str, bytes] | None = None, host_commitment: bytes | None = None,
                own: tuple[str, bytes] | None = None) -> list[str]:
    """The problems of a draw proof (empty: it checks out). What a verifier knew before the reveal is passed
    in: the published ``outcomes`` table, the ``commitments`` and ``host_commitment`` it was sent, its ``own``
    ``(name, secret)`` — each must be in the proof unchanged."""
    problems: list[str] = []
    try:
        table_text(proof.outcomes)
        key = proof.key
    except FairnessError as problem:
        return [str(problem)]
    if outcomes is not None and table_text(outcomes) != table_text(proof.outcomes):
        problems.append("the outcome table is not the published one")
    if draw_commit(proof.room_id, proof.draw_id, None, proof.host_secret) != proof.host_commitment:
        problems.append("the host's secret does not match its commitment")
    if host_commitment is not None and host_commitment != proof.host_commitment:
        problems.append("the host's commitment changed after it was sent")
    problems += _check_players(proof, commitments, own)
    total = sum(weight for _, weight in proof.outcomes)
    index = draw_index(key, total)
    if proof.index != index:
        problems.append(f"the draw is {index}, the proof says {proof.index}")
    if proof.outcome != outcome_at(proof.outcomes, index):
        problems.append(f"the outcome is {outcome_at(proof.outcomes, index)}, the proof says {proof.outcome}")
    return problems


def _check_players(proof: DrawProof, commitments: Mapping[str, bytes] | None,
                   own: tuple[str, bytes] | None) -> Iterable[str]:
    for name, secret in sorted(proof.secrets.items()):
        committed = proof.commitments.get(name)
        if committed is None or draw_commit(proof.room_id, proof.draw_id, name, secret) != committed:
            yield f"the secret of {name} does not match its commitment"
    if set(proof.withheld) != set(proof.commitments) - set(proof.secrets):
        yield "the withheld players are not those who committed and did not reveal"
    for name, value in sorted((commitments or {}).items()):
        if proof.commitments.get(name) != value:
            yield f"the commitment of {name} changed after it was sent"
    if own is not None:
        name, secret = own
        if proof.secrets.get(name) != secret:
            yield f"the secret of {name} is not the one {name} revealed"

