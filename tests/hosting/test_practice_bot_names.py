"""Practice bots' names (issue 27): a fast-fold pool of ten seats holds 29 bots; no two share a first name
(``Hugo`` and ``Hugo16`` at one table read as one player twice)."""

from __future__ import annotations

from hosting.commands.play import POOL_BOTS_PER_SEAT, bot_name


def test_a_full_fast_fold_pool_has_distinct_first_names() -> None:
    names = [bot_name(index) for index in range(POOL_BOTS_PER_SEAT * 10 - 1)]
    assert len(set(names)) == len(names) == 29
    assert not any(name.rstrip("0123456789") == other.rstrip("0123456789")
                   for index, name in enumerate(names) for other in names[index + 1:])
    assert names[7] == "Hugo" and names[16] == "Quinn"
