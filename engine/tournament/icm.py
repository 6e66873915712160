"""The Independent Chip Model (Malmuth–Harville): what a stack is worth in prize money (R-TOUR-5 deals).

Harville's model (D. Harville, "Assigning probabilities to the outcomes of multi-entry competitions", JASA
1973), applied to poker by M. Malmuth: a player finishes first with probability stack / all chips; given
who finished above him, he takes the next place with probability stack / chips of those still left.

Computed exactly by dynamic programming over subsets, not permutations: ``reach[S]`` is the probability that
the set S of players took the top |S| places (in some order). From S, player i (not in S) takes place |S|+1
with probability stack_i / (total − chips of S). That is n · 2ⁿ steps: 10 players take about 10,000
multiplications (a few milliseconds), where the 10! permutations would take seconds.

Worked checks (issue 17): stacks 5,000/3,000/2,000 with prizes 50/30/20 → 38.39 / 32.75 / 28.86.

>>> [round(value, 2) for value in icm_equities([5_000, 3_000, 2_000], [50, 30, 20])]
[38.39, 32.75, 28.86]
>>> [round(value, 2) for value in icm_equities([4_000, 3_000, 2_000, 1_000], [50, 30, 20])]
[33.6, 29.49, 23.59, 13.32]
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_EXACT_PLAYERS = 16
"""Above this the subset table (2ⁿ entries) grows too big for a deal screen; a final table has at most 10."""


def icm_equities(stacks: Sequence[int], prizes: Sequence[float]) -> list[float]:
    """Each player's expected prize under Malmuth–Harville. ``stacks``: chips (> 0); ``prizes``: the prize of
    1st, 2nd, … place (more prizes than players: the extra are ignored; fewer: the rest pay 0).

    ``ValueError`` for an empty table, a stack ≤ 0, or more than :data:`MAX_EXACT_PLAYERS` players.

    >>> icm_equities([1, 1], [70, 30])
    [50.0, 50.0]
    """
    count = len(stacks)
    if not 0 < count <= MAX_EXACT_PLAYERS:
        raise ValueError(f"ICM needs 1 to {MAX_EXACT_PLAYERS} players, got {count}")
    if any(stack <= 0 for stack in stacks):
        raise ValueError("every stack in an ICM deal is more than 0 chips")
    paid = [float(prize) for prize in prizes[:count]]
    equities = [0.0] * count
    total = sum(stacks)
    # chips[S]: chips held by the players in subset S (built incrementally from the lowest bit).
    size = 1 << count
    chips = [0] * size
    for subset in range(1, size):
        low = subset & -subset
        chips[subset] = chips[subset ^ low] + stacks[low.bit_length() - 1]
    reach = [0.0] * size
    reach[0] = 1.0
    # Process subsets by size so every S is complete before it is extended; only the paid places matter.
    by_size: list[list[int]] = [[] for _ in range(count + 1)]
    for subset in range(size):
        by_size[subset.bit_count()].append(subset)
    for place, prize in enumerate(paid):
        for subset in by_size[place]:
            probability = reach[subset]
            if probability == 0.0:
                continue
            left = total - chips[subset]
            for player in range(count):
                bit = 1 << player
                if subset & bit:
                    continue
                step = probability * stacks[player] / left
                reach[subset | bit] += step
                equities[player] += step * prize
    return equities


def finish_probabilities(stacks: Sequence[int]) -> list[list[float]]:
    """``table[i][k]``: probability that player i finishes in place k+1 (Malmuth–Harville).

    >>> [[round(p, 3) for p in row] for row in finish_probabilities([2, 1, 1])]
    [[0.5, 0.333, 0.167], [0.25, 0.333, 0.417], [0.25, 0.333, 0.417]]
    """
    count = len(stacks)
    by_place = [icm_equities(stacks, [1.0 if place == k else 0.0 for place in range(count)]) for k in range(count)]
    return [[by_place[k][player] for k in range(count)] for player in range(count)]
