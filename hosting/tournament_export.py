"""A tournament's summary export: PokerStars' "Tournament summary" text (places, prizes) from its director, with
the proofs of its draws (a Spin's multiplier) after it for ``croupier verify`` (issue 18 "History").

The proofs follow the summary after two empty lines, one ``# croupier draw proof: <JSON>`` line each
(:func:`hosting.hand_records.draw_proof_line`): trackers read the summary and stop at the comment block.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from engine.fair_draw import DrawProof
from engine.history import summary_game_title
from engine.tournament.director import Tournament
from engine.tournament_history import Finish, TournamentInfo, summary_text
from hosting.hand_records import draw_proof_line

PROOFS_HEADING = "# croupier draw proofs: checked by `croupier verify FILE` (trackers skip this block)"


def tournament_info(director: Tournament, number: int) -> TournamentInfo:
    """The summary's and the hands' tournament line: ``number`` as PokerStars prints it, the entry's parts."""
    price = director.settings.price
    return TournamentInfo(number, price.buy_in, price.fee, price.knockout)


def finishes(director: Tournament) -> list[Finish]:
    """Every entry whose place is known, best first (entries of one player count apart, as re-entries do)."""
    placed = [entry for entry in director.entries.values() if entry.place is not None]
    placed.sort(key=lambda entry: (entry.place or 0, entry.number))
    # ``prize`` is new in the entry's state: a director stored before it has none (its entries paid nothing here)
    return [Finish(entry.place or 0, entry.player, getattr(entry, "prize", 0)) for entry in placed]


def summary_export(director: Tournament, number: int, *, started_at: float, finished_at: float | None = None,
                   player: str | None = None, proofs: Sequence[DrawProof] = ()) -> str:
    """The summary text (``player``: his copy, "You finished in …"), then the draw proofs block when any."""
    settings = director.settings
    game = summary_game_title(settings.variant, settings.structure)
    places = finishes(director)
    pool = sum(prize.amount for prize in director.prizes or ()) or sum(finish.prize for finish in places)
    text = summary_text(tournament_info(director, number), game, entrants=len(director.entries),
                        prize_pool=pool, started_at=datetime.fromtimestamp(started_at, UTC), finishes=places,
                        finished_at=None if finished_at is None else datetime.fromtimestamp(finished_at, UTC),
                        player=player, bounties=director.bounties_won)
    if not proofs:
        return text
    return text + "\n\n" + "\n".join([PROOFS_HEADING, *(draw_proof_line(proof) for proof in proofs)]) + "\n"
