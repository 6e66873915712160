"""Who pays whom at the end of a home game: the fewest transfers that settle everyone's net.

A net is what a player won (positive: he is owed) or lost (negative: he pays) over a session; the nets sum to
zero. Settling ``n`` people takes at most ``n - 1`` transfers, and one fewer for every group of them whose nets
already sum to zero on their own (each such group settles inside itself). So the fewest transfers is
``n - g`` where ``g`` is the largest number of disjoint zero-sum groups the people split into — a partition
problem, NP-hard in general. A home game is small: for up to :data:`EXACT_LIMIT` people with a non-zero net
we search every subset exactly (``2**n`` sums, well under a second at 15); past that we fall back to the
greedy settlement (the biggest loser pays the biggest winner, repeatedly), which is never more than ``n - 1``
transfers but may miss a zero-sum group.

>>> minimal_transfers({"ana": 50, "bob": -50})
[Transfer(payer='bob', payee='ana', amount=50)]
>>> len(minimal_transfers({"a": 10, "b": -10, "c": 7, "d": -7}))
2
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

EXACT_LIMIT: Final = 15
"""Most people with a non-zero net searched exactly; more fall back to the greedy settlement."""


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` gives ``payee`` ``amount`` chips (> 0)."""

    payer: str
    payee: str
    amount: int


def minimal_transfers(nets: Mapping[str, int], *, exact_limit: int = EXACT_LIMIT) -> list[Transfer]:
    """The transfers that settle ``nets`` (name → chips won, summing to zero), as few as there can be when at
    most ``exact_limit`` nets are non-zero (else greedy). Deterministic: ties go by name.

    Raises ``ValueError`` when the nets do not sum to zero (somebody's chips are missing from the list).
    """
    total = sum(nets.values())
    if total:
        raise ValueError(f"the nets sum to {total}, not 0: every chip won must be someone's loss")
    people = sorted(name for name, net in nets.items() if net)
    if len(people) > exact_limit:
        return _greedy(people, nets)
    transfers: list[Transfer] = []
    for group in zero_sum_groups(people, nets):
        transfers += _greedy(group, nets)
    return transfers


def zero_sum_groups(people: list[str], nets: Mapping[str, int]) -> list[list[str]]:
    """``people`` split into the most disjoint groups whose nets each sum to zero (exact, ``2**len(people)``).

    ``best[mask]``: the most zero-sum groups the people of ``mask`` can be cut into, counting ``mask``'s own
    last group only if it sums to zero — removing one person at a time from a mask walks through every way to
    order the groups, so ``best[full]`` is the optimum and the walk back along it finds the groups.
    """
    count = len(people)
    full = (1 << count) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + nets[people[low]]
        best[mask] = max(best[mask & ~(1 << person)] for person in range(count) if mask >> person & 1) \
            + (sums[mask] == 0)
    groups: list[list[str]] = []
    mask, current = full, []
    while mask:
        target = best[mask] - (sums[mask] == 0)
        person = next(person for person in range(count)
                      if mask >> person & 1 and best[mask & ~(1 << person)] == target)
        current.append(people[person])
        mask &= ~(1 << person)
        if sums[mask] == 0:  # the people removed since the last zero-sum mask settle among themselves
            groups.append(sorted(current))
            current = []
    return groups


def _greedy(group: list[str], nets: Mapping[str, int]) -> list[Transfer]:
    """Settle ``group`` (its nets sum to zero): the biggest loser pays the biggest winner what one of them is
    owed, until everyone is square — each transfer squares at least one person, so at most ``len(group) - 1``."""
    owed = {name: nets[name] for name in group if nets[name]}
    transfers: list[Transfer] = []
    while owed:
        payee = max(owed, key=lambda name: (owed[name], _reverse(name)))
        payer = min(owed, key=lambda name: (owed[name], name))
        amount = min(owed[payee], -owed[payer])
        transfers.append(Transfer(payer, payee, amount))
        for name, change in ((payee, -amount), (payer, amount)):
            owed[name] += change
            if owed[name] == 0:
                del owed[name]
    return transfers


def _reverse(name: str) -> tuple[int, ...]:
    """Orders names backwards, so ``max`` picks the first name among equal winners."""
    return tuple(-ord(letter) for letter in name)
