"""``croupier play --tournament sng|spin|mtt``: a practice tournament in this process (issue 18) — the room with
one declared tournament, bots registered for every seat but yours, you registered too; the director deals
through the room's own tables and runners exactly as in a hosted room (you are moved like anyone).

* ``sng``: a Sit & Go of ``--players`` (6 or 9; default 6) at one table, turbo levels.
* ``spin``: a three-handed Spin, its multiplier drawn by commit–reveal, turbo levels.
* ``mtt``: a multi-table Sit & Go of ``--players`` (default 45, at least 10) at nine-handed tables, turbo levels:
  tables break and balance as players bust.

The tournament is declared as a room file would declare it (``[[tournaments]]``, read by the room file reader,
so practice and hosted rooms agree); practice chips cost nothing (the room keeps no balances).
"""

from __future__ import annotations

import dataclasses

from hosting.tournament_config import TournamentConfig

KINDS = ("sng", "spin", "mtt")
TOURNAMENT_ID = "practice"


class PracticeTournamentError(ValueError):
    """An option ``croupier play --tournament`` cannot use; the message is one line for the player."""


def practice_players(kind: str, players: int | None) -> int:
    """Entrants, you included: ``sng`` 6 or 9 (default 6), ``spin`` 3, ``mtt`` 10–1,000 (default 45)."""
    if kind not in KINDS:
        raise PracticeTournamentError(f"--tournament is one of {', '.join(KINDS)}, got {kind!r}")
    if kind == "spin":
        if players not in (None, 3):
            raise PracticeTournamentError(f"a Spin is three-handed; --players {players} does not fit")
        return 3
    if kind == "sng":
        if players not in (None, 6, 9):
            raise PracticeTournamentError(f"a practice Sit & Go has 6 or 9 seats; --players {players} does not fit")
        return players or 6
    players = 45 if players is None else players
    if not 10 <= players <= 1_000:
        raise PracticeTournamentError(f"a practice MTT has 10 to 1000 players (several tables); got {players}")
    return players


def practice_config(kind: str, players: int | None = None) -> TournamentConfig:
    """The practice tournament as a ``[[tournaments]]`` entry, read by the room file reader."""
    from hosting.config import parse_room

    size = practice_players(kind, players)
    lines = [f'id = "{TOURNAMENT_ID}"', 'levels = "turbo"', "buy_in = 100", "fee = 0"]
    if kind == "spin":
        lines += ['type = "spin"', 'name = "Practice Spin"']
    elif kind == "sng":
        lines += ['type = "sit_and_go"', f'name = "Practice Sit & Go ({size})"', f"sit_and_go_size = {size}",
                  f"seats = {size}"]
    else:
        lines += ['type = "sit_and_go"', f'name = "Practice MTT ({size})"', f"sit_and_go_size = {size}",
                  "seats = 9"]
    (config,) = parse_room("[[tournaments]]\n" + "\n".join(lines) + "\n", "croupier play").tournaments
    return config


def with_level_seconds(config: TournamentConfig, seconds: float) -> TournamentConfig:
    """``config`` with every level ``seconds`` long (tests and the benchmark: a tournament in minutes)."""
    settings = config.settings
    schedule = tuple(dataclasses.replace(stage, duration=seconds) for stage in settings.schedule)
    return dataclasses.replace(config, settings=dataclasses.replace(settings, schedule=schedule))
