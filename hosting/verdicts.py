"""Clients' verdicts on finished hands (fairness step 5, DESIGN.md "Fairness"): kept bounded, relayed typed.

A ``verification`` message comes from a client: its violations are what that client claims. The room keeps
only their typed part — each violation's ``kind`` (an :class:`engine.fairness.ViolationKind` value, else
``"unknown"``) and its ``evidence`` reduced to integers and short tokens (cards, positions, hex digests) — and
relays exactly that to the table, never a client's free text (a message could carry escape sequences meant
for the other players' terminals, or paint any words as a violation).

Memory stays flat whatever clients send: one verdict per player per hand, at most :data:`MAX_VIOLATIONS`
violations of :data:`MAX_EVIDENCE` evidence items each, and the verdicts of the last :data:`MAX_HANDS` hands
(older hands are forgotten; failed checks are in the host's log).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from engine.fairness import ViolationKind

MAX_HANDS: Final = 500
"""Hands whose verdicts the room keeps in memory (all tables together)."""
MAX_FINISHED_HANDS: Final = 10_000
"""Finished hands whose dealt-in players the room remembers (all tables together), for their players' verdicts."""
MAX_VIOLATIONS: Final = 16
MAX_EVIDENCE: Final = 8
KNOWN_KINDS: Final = frozenset(kind.value for kind in ViolationKind)
_TOKEN = re.compile(r"[A-Za-z0-9_.:/-]{1,64}\Z")
_MAX_INTEGER = 2**53


def _evidence_value(value: Any) -> int | str | None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _MAX_INTEGER:
        return value
    if isinstance(value, str) and _TOKEN.match(value):
        return value
    return None


def typed_violations(violations: Sequence[Any]) -> list[dict[str, Any]]:
    """The typed part of a client's violations: ``{"kind", "evidence"}`` each, free text dropped.

    >>> typed_violations([{"kind": "card_mismatch", "message": "\\x1b]52;c;x\\x07", "evidence": {"position": 0,
    ...                    "card": "As", "note": "two words"}}, {"kind": "\\x1b[2J"}, "junk"])
    [{'kind': 'card_mismatch', 'evidence': {'position': 0, 'card': 'As'}}, {'kind': 'unknown', 'evidence': {}}]
    """
    typed: list[dict[str, Any]] = []
    for item in violations:
        if not isinstance(item, Mapping):
            continue
        kind = item.get("kind")
        evidence: dict[str, int | str] = {}
        raw = item.get("evidence")
        if isinstance(raw, Mapping):
            for key, value in raw.items():
                kept = _evidence_value(value)
                if isinstance(key, str) and _TOKEN.match(key) and kept is not None and len(evidence) < MAX_EVIDENCE:
                    evidence[key] = kept
        typed.append({"kind": kind if kind in KNOWN_KINDS else "unknown", "evidence": evidence})
        if len(typed) == MAX_VIOLATIONS:
            break
    return typed


@dataclass(frozen=True)
class Verdict:
    """One player's verdict on one hand, typed (:func:`typed_violations`)."""

    table: str
    hand: str
    name: str
    ok: bool
    violations: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table, "hand": self.hand, "name": self.name, "ok": self.ok,
                "violations": [dict(item) for item in self.violations]}


class VerdictBook:
    """The verdicts of the last ``max_hands`` hands, at most one per player per hand.

    Iterating yields each kept verdict as JSON (``{"table", "hand", "name", "ok", "violations"}``).
    """

    def __init__(self, max_hands: int = MAX_HANDS) -> None:
        self.max_hands = max_hands
        self._hands: OrderedDict[tuple[str, str], dict[str, Verdict]] = OrderedDict()

    def add(self, verdict: Verdict) -> bool:
        """Keep ``verdict``; ``False`` (nothing kept) when its player already gave one for that hand."""
        key = (verdict.table, verdict.hand)
        verdicts = self._hands.setdefault(key, {})
        if verdict.name in verdicts:
            return False
        verdicts[verdict.name] = verdict
        self._hands.move_to_end(key)
        while len(self._hands) > self.max_hands:
            self._hands.popitem(last=False)
        return True

    def of_hand(self, table: str, hand: str) -> list[Verdict]:
        return list(self._hands.get((table, hand), {}).values())

    @property
    def hands(self) -> int:
        return len(self._hands)

    def __len__(self) -> int:
        return sum(len(verdicts) for verdicts in self._hands.values())

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for verdicts in list(self._hands.values()):
            for verdict in verdicts.values():
                yield verdict.to_json()


class FinishedHands:
    """Who was dealt into each recently finished hand (the last :data:`MAX_FINISHED_HANDS`, all tables together),
    kept after its table has closed: a client's verdict follows the proof over the network, and by then a
    tournament's table may be broken or the tournament over. Refusing those verdicts spent honest clients' error
    budgets until they were disconnected (issue 25 item 10). The same players' set is stored once."""

    def __init__(self, limit: int = MAX_FINISHED_HANDS) -> None:
        self.limit = limit
        self._hands: OrderedDict[tuple[str, str], frozenset[str]] = OrderedDict()
        self._sets: dict[frozenset[str], frozenset[str]] = {}

    def __len__(self) -> int:
        return len(self._hands)

    def add(self, table: str, hand: str, dealt_in: Iterable[str]) -> None:
        players = frozenset(dealt_in)
        players = self._sets.setdefault(players, players)
        self._hands[(table, hand)] = players
        while len(self._hands) > self.limit:
            self._hands.popitem(last=False)
        if len(self._sets) > self.limit:  # forget the sets of forgotten hands
            self._sets = {kept: kept for kept in self._hands.values()}

    def dealt_in(self, table: str, hand: str) -> frozenset[str] | None:
        """The players dealt into ``hand`` at ``table``; ``None`` for a hand not finished or forgotten."""
        return self._hands.get((table, hand))
