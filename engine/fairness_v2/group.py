"""The prime-order group every v2 proof works in, behind one small interface, with two backends.

Points are their canonical encodings (``bytes``): immutable, hashable, the exact bytes that Fiat–Shamir hashes
and the wire carries. Scalars are Python ints modulo :attr:`Group.order`. No curve arithmetic is written here:
each backend calls a C library (``coincurve``'s libsecp256k1, ``rbcl``'s libsodium).

The identity is never a valid point: :meth:`Group.decode` rejects it, and an operation whose result would be the
identity raises :class:`GroupError`. Honest parties meet it with probability about 2⁻²⁵⁰; a verifier treats it
as a failed proof.

>>> group = SECP256K1
>>> two_g = group.add([group.generator, group.generator])
>>> two_g == group.base_mult(2) == group.mult(group.generator, 2)
True
>>> group.add([two_g, group.negate(group.generator)]) == group.generator
True
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Final, cast

import coincurve
import rbcl  # type: ignore[import-untyped]


class GroupError(ValueError):
    """A point does not decode, or an operation left the group's valid points (the identity)."""


class Group(ABC):
    """The group interface: seven operations, everything the protocol needs."""

    name: str
    order: int
    generator: bytes
    point_size: int

    @abstractmethod
    def base_mult(self, scalar: int) -> bytes:
        """``scalar · G``."""

    @abstractmethod
    def mult(self, point: bytes, scalar: int) -> bytes:
        """``scalar · point``."""

    @abstractmethod
    def add(self, points: Sequence[bytes]) -> bytes:
        """The sum of one or more points."""

    @abstractmethod
    def negate(self, point: bytes) -> bytes:
        """``−point``."""

    @abstractmethod
    def multi_mult(self, terms: Iterable[tuple[bytes, int]]) -> bytes:
        """``Σ scalar_i · point_i`` (terms whose scalar is 0 mod the order are skipped)."""

    @abstractmethod
    def hash_to_point(self, label: bytes) -> bytes:
        """A point nobody knows the logarithm of, derived from ``label`` (deterministic, public)."""

    @abstractmethod
    def decode(self, data: bytes) -> bytes:
        """``data`` checked as a valid, non-identity point in canonical encoding; :class:`GroupError` if not."""

    def subtract(self, left: bytes, right: bytes) -> bytes:
        return self.add([left, self.negate(right)])


# ------------------------------------------------------------------ secp256k1 (coincurve)

_SECP_P: Final = 2**256 - 2**32 - 977
_SECP_N: Final = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


class Secp256k1(Group):
    """secp256k1 through ``coincurve`` (libsecp256k1). Points travel uncompressed (65 bytes): they parse about 7×
    faster than compressed ones, and every received point is parsed once per proof."""

    name = "secp256k1"
    order = _SECP_N
    point_size = 65

    def __init__(self) -> None:
        self.generator = coincurve.PublicKey.from_valid_secret((1).to_bytes(32, "big")).format(compressed=False)

    @staticmethod
    def _secret(scalar: int) -> bytes:
        scalar %= _SECP_N
        if scalar == 0:
            raise GroupError("the result is the identity")
        return scalar.to_bytes(32, "big")

    def base_mult(self, scalar: int) -> bytes:
        return coincurve.PublicKey.from_valid_secret(self._secret(scalar)).format(compressed=False)

    def mult(self, point: bytes, scalar: int) -> bytes:
        return coincurve.PublicKey(point).multiply(self._secret(scalar)).format(compressed=False)

    def add(self, points: Sequence[bytes]) -> bytes:
        if len(points) == 1:
            return points[0]
        try:
            return coincurve.PublicKey.combine_keys([coincurve.PublicKey(point) for point in points]).format(
                compressed=False)
        except ValueError as problem:
            raise GroupError("the result is the identity") from problem

    def negate(self, point: bytes) -> bytes:
        y = int.from_bytes(point[33:], "big")
        return point[:33] + (_SECP_P - y).to_bytes(32, "big")

    def multi_mult(self, terms: Iterable[tuple[bytes, int]]) -> bytes:
        # the generator's terms fold into one fixed-base mult (about half the cost of a variable-base one)
        on_generator = 0
        keys = []
        for point, scalar in terms:
            if point == self.generator:
                on_generator += scalar
            elif scalar % _SECP_N:
                keys.append(coincurve.PublicKey(point).multiply((scalar % _SECP_N).to_bytes(32, "big")))
        if on_generator % _SECP_N:
            keys.append(coincurve.PublicKey.from_valid_secret((on_generator % _SECP_N).to_bytes(32, "big")))
        if not keys:
            raise GroupError("the result is the identity")
        try:
            return keys[0].format(compressed=False) if len(keys) == 1 else coincurve.PublicKey.combine_keys(
                keys).format(compressed=False)
        except ValueError as problem:
            raise GroupError("the result is the identity") from problem

    def hash_to_point(self, label: bytes) -> bytes:
        # try-and-increment on a public label: its timing leaks nothing
        counter = 0
        while True:
            digest = hashlib.sha256(b"croupier/v2/secp256k1/hash-to-point" + counter.to_bytes(4, "big") + label)
            try:
                return coincurve.PublicKey(b"\x02" + digest.digest()).format(compressed=False)
            except ValueError:
                counter += 1

    def decode(self, data: bytes) -> bytes:
        if len(data) != 65 or data[0] != 4:
            raise GroupError("not an uncompressed secp256k1 point")
        try:
            return coincurve.PublicKey(data).format(compressed=False)
        except ValueError as problem:
            raise GroupError("not a point on secp256k1") from problem


# ------------------------------------------------------------------ ristretto255 (rbcl)

_RISTRETTO_L: Final = 2**252 + 27742317777372353535851937790883648493
_IDENTITY: Final = bytes(32)


def _rbcl(function: str, *arguments: bytes) -> bytes:
    try:
        return cast(bytes, getattr(rbcl, function)(*arguments))
    except (RuntimeError, ValueError, TypeError) as problem:
        raise GroupError(f"ristretto255: {problem}") from problem


class Ristretto255(Group):
    """ristretto255 through ``rbcl`` (libsodium); 32-byte points."""

    name = "ristretto255"
    order = _RISTRETTO_L
    point_size = 32

    def __init__(self) -> None:
        self.generator = self.base_mult(1)

    @staticmethod
    def _scalar(scalar: int) -> bytes:
        scalar %= _RISTRETTO_L
        if scalar == 0:
            raise GroupError("the result is the identity")
        return scalar.to_bytes(32, "little")

    @staticmethod
    def _checked(point: bytes) -> bytes:
        if point == _IDENTITY:
            raise GroupError("the result is the identity")
        return point

    def base_mult(self, scalar: int) -> bytes:
        return self._checked(_rbcl("crypto_scalarmult_ristretto255_base", self._scalar(scalar)))

    def mult(self, point: bytes, scalar: int) -> bytes:
        return self._checked(_rbcl("crypto_scalarmult_ristretto255", self._scalar(scalar), point))

    def add(self, points: Sequence[bytes]) -> bytes:
        total = points[0]
        for point in points[1:]:
            total = _rbcl("crypto_core_ristretto255_add", total, point)
        return self._checked(total)

    def negate(self, point: bytes) -> bytes:
        return _rbcl("crypto_core_ristretto255_sub", _IDENTITY, point)

    def multi_mult(self, terms: Iterable[tuple[bytes, int]]) -> bytes:
        products = [_rbcl("crypto_scalarmult_ristretto255", (scalar % _RISTRETTO_L).to_bytes(32, "little"), point)
                    for point, scalar in terms if scalar % _RISTRETTO_L]
        if not products:
            raise GroupError("the result is the identity")
        return self.add(products)

    def hash_to_point(self, label: bytes) -> bytes:
        digest = hashlib.sha512(b"croupier/v2/ristretto255/hash-to-point" + label).digest()
        return _rbcl("crypto_core_ristretto255_from_hash", digest)

    def decode(self, data: bytes) -> bytes:
        if len(data) != 32 or data == _IDENTITY or not rbcl.crypto_core_ristretto255_is_valid_point(data):
            raise GroupError("not a ristretto255 point")
        return data


SECP256K1: Final = Secp256k1()
RISTRETTO255: Final = Ristretto255()
GROUPS: Final[dict[str, Group]] = {group.name: group for group in (SECP256K1, RISTRETTO255)}
DEFAULT_GROUP: Final = SECP256K1
"""The measured choice (docs/fairness-v2-design.md): secp256k1 is the faster backend on CPython 3.11."""
