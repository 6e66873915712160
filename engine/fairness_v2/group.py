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
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Final, cast

import coincurve
import rbcl  # type: ignore[import-untyped]
from coincurve._libsecp256k1 import ffi as _ffi  # type: ignore[import-not-found]
from coincurve._libsecp256k1 import lib as _lib
from coincurve.context import GLOBAL_CONTEXT


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

    def precompute(self, point: bytes) -> None:  # noqa: B027 (a hint: backends without tables ignore it)
        """A hint: ``point`` is a fixed base that many multiplications will use (the Pedersen base ``H``). A
        backend may build a table for it; the results never change, only their cost."""


# ------------------------------------------------------------------ secp256k1 (coincurve)

_SECP_P: Final = 2**256 - 2**32 - 977
_SECP_N: Final = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
_CONTEXT: Final = GLOBAL_CONTEXT.ctx
_UNCOMPRESSED: Final = _lib.SECP256K1_EC_UNCOMPRESSED


class _FixedBase:
    """``j·256^k·P`` for every byte position ``k`` and byte value ``j``: a multiplication by a fixed base is then
    the sum of 32 entries, which the library adds at ≈ 0.3 µs each. Built on first use (8,160 additions,
    ≈ 26 ms and 0.5 MB, once per process per base)."""

    def __init__(self, point: object) -> None:
        self._point = point
        self._entries: list[object] = []
        self._windows: list[object] = []  # owns the memory the entries point into
        self._building = threading.Lock()

    def _build(self) -> list[object]:
        with self._building:  # threads may share the table: one builds it, the others wait
            if self._entries:
                return self._entries
            entries: list[object] = []
            base = _ffi.new("secp256k1_pubkey *", self._point[0])  # type: ignore[index]
            pair = _ffi.new("secp256k1_pubkey *[2]")
            for _ in range(32):
                window = _ffi.new("secp256k1_pubkey[255]")
                window[0] = base[0]
                pair[1] = base
                for multiple in range(1, 255):
                    pair[0] = window + (multiple - 1)
                    _lib.secp256k1_ec_pubkey_combine(_CONTEXT, window + multiple, pair, 2)
                self._windows.append(window)
                entries.extend(window + multiple for multiple in range(255))
                base = _ffi.new("secp256k1_pubkey *", base[0])
                _lib.secp256k1_ec_pubkey_tweak_mul(_CONTEXT, base, (256).to_bytes(32, "big"))
            self._entries = entries
            return entries

    def entries(self, scalar: int) -> list[object]:
        """The table entries summing to ``scalar·P`` (``0 ≤ scalar < n``)."""
        table = self._entries or self._build()
        return [table[index * 255 + digit - 1] for index, digit in enumerate(scalar.to_bytes(32, "little"))
                if digit]


class Secp256k1(Group):
    """secp256k1 through ``coincurve``'s libsecp256k1. Points travel uncompressed (65 bytes): they parse about 7×
    faster than compressed ones, and every received point is parsed once per proof.

    The hot paths call the library's functions through coincurve's own cffi module (``coincurve._libsecp256k1``,
    the binding coincurve's classes wrap): a batched shuffle check does ~1,500 multiplications, and the wrapper
    objects around each (a ``PublicKey`` per input and per product, scalar checks, re-serialising) cost a
    quarter as much again as the multiplications themselves."""

    name = "secp256k1"
    order = _SECP_N
    point_size = 65

    def __init__(self) -> None:
        self.generator = self._serialize(self._base(1))
        self._tables: dict[bytes, _FixedBase] = {}
        self._tables[self.generator] = _FixedBase(self._parse(self.generator))

    @staticmethod
    def _secret(scalar: int) -> bytes:
        scalar %= _SECP_N
        if scalar == 0:
            raise GroupError("the result is the identity")
        return scalar.to_bytes(32, "big")

    @staticmethod
    def _parse(point: bytes) -> object:
        parsed = _ffi.new("secp256k1_pubkey *")
        if len(point) != 65 or point[0] != 4 or not _lib.secp256k1_ec_pubkey_parse(_CONTEXT, parsed, point, 65):
            raise GroupError("not an uncompressed secp256k1 point")
        return parsed

    @staticmethod
    def _serialize(parsed: object) -> bytes:
        output = _ffi.new("unsigned char[65]")
        size = _ffi.new("size_t *", 65)
        _lib.secp256k1_ec_pubkey_serialize(_CONTEXT, output, size, parsed, _UNCOMPRESSED)
        return bytes(_ffi.buffer(output, 65))

    def _base(self, scalar: int) -> object:
        parsed = _ffi.new("secp256k1_pubkey *")
        _lib.secp256k1_ec_pubkey_create(_CONTEXT, parsed, self._secret(scalar))
        return parsed

    def _times(self, point: bytes, scalar: int) -> object:
        parsed = self._parse(point)
        scalar %= _SECP_N
        negative = scalar > _SECP_N // 2
        if negative:  # −w·P = w·(−P): the library's multiplication is faster for short w (batch weights)
            _lib.secp256k1_ec_pubkey_negate(_CONTEXT, parsed)
            scalar = _SECP_N - scalar
        if not _lib.secp256k1_ec_pubkey_tweak_mul(_CONTEXT, parsed, self._secret(scalar)):
            raise GroupError("the result is the identity")
        return parsed

    @staticmethod
    def _combine(parsed: Sequence[object]) -> object:
        if len(parsed) == 1:
            return parsed[0]
        total = _ffi.new("secp256k1_pubkey *")
        if not _lib.secp256k1_ec_pubkey_combine(_CONTEXT, total, _ffi.new("secp256k1_pubkey *[]", list(parsed)),
                                               len(parsed)):
            raise GroupError("the result is the identity")
        return total

    def base_mult(self, scalar: int) -> bytes:
        return self._serialize(self._base(scalar))

    def mult(self, point: bytes, scalar: int) -> bytes:
        return self._serialize(self._times(point, scalar))

    def add(self, points: Sequence[bytes]) -> bytes:
        if len(points) == 1:
            return points[0]
        return self._serialize(self._combine([self._parse(point) for point in points]))

    def negate(self, point: bytes) -> bytes:
        y = int.from_bytes(point[33:], "big")
        return point[:33] + (_SECP_P - y).to_bytes(32, "big")

    def precompute(self, point: bytes) -> None:
        if point not in self._tables:
            self._tables[point] = _FixedBase(self._parse(point))

    def multi_mult(self, terms: Iterable[tuple[bytes, int]]) -> bytes:
        # terms on a fixed base (G, and H once precomputed) are table look-ups summed in the same combine as the
        # variable-base products: about 18 µs each instead of 38 (G's would be 23 through the library)
        fixed: dict[bytes, int] = {}
        products: list[object] = []
        tables = self._tables
        parse, negate, multiply = (_lib.secp256k1_ec_pubkey_parse, _lib.secp256k1_ec_pubkey_negate,
                                   _lib.secp256k1_ec_pubkey_tweak_mul)  # this loop runs ~1,500 times a check
        order, half = _SECP_N, _SECP_N // 2
        terms = terms if isinstance(terms, list) else list(terms)
        storage = _ffi.new("secp256k1_pubkey[]", len(terms) or 1)  # one allocation for all the products
        for index, (point, scalar) in enumerate(terms):
            scalar %= order
            if point in tables:
                fixed[point] = fixed.get(point, 0) + scalar
            elif scalar:
                parsed = storage + index
                if len(point) != 65 or point[0] != 4 or not parse(_CONTEXT, parsed, point, 65):
                    raise GroupError("not an uncompressed secp256k1 point")
                if scalar != 1:  # (a scalar of 1: the point itself)
                    if scalar > half:  # as in _times: −w·P = w·(−P)
                        negate(_CONTEXT, parsed)
                        scalar = order - scalar
                    multiply(_CONTEXT, parsed, scalar.to_bytes(32, "big"))  # 0 < scalar < n: cannot fail
                products.append(parsed)
        for point, scalar in fixed.items():
            products.extend(tables[point].entries(scalar % _SECP_N))
        if not products:
            raise GroupError("the result is the identity")
        result = self._serialize(self._combine(products))
        del storage  # (the products point into it: kept alive until combined)
        return result

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
        # an uncompressed encoding that parses is canonical (the library checks x, y < p and the curve equation)
        self._parse(data)
        return bytes(data)


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
        generator = self.generator
        products = [point if scalar % _RISTRETTO_L == 1 else
                    _rbcl("crypto_scalarmult_ristretto255_base", (scalar % _RISTRETTO_L).to_bytes(32, "little"))
                    if point == generator else
                    _rbcl("crypto_scalarmult_ristretto255", (scalar % _RISTRETTO_L).to_bytes(32, "little"), point)
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
