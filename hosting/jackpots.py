"""Bad-beat, Monte-Carlo and smart jackpots of the room's tables (R-JACK-1, R-JACK-2): which pool a table plays
for, whether its hands can feed and win it, and the jackpot side of a finished hand. Pure over the room file's
table settings; the cash tables' owner (:mod:`hosting.cash`) settles them with the store."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.events import Event, HandStarted
from engine.jackpot import (
    JACKPOT_GAMES,
    QUALIFYING_QUADS,
    HandJackpot,
    settle_hand,
    settle_monte_carlo,
    smart_jackpot_active,
    table_is_eligible,
)
from engine.rake import Percentage
from engine.variants import variant_by_id
from hosting.config import TableConfig


def jackpot_pool_name(config: TableConfig) -> str | None:
    """The jackpot pool a table plays for, or None: bad beat ``"bad_beat_holdem"``, ``"bad_beat_omaha"``,
    ``"bad_beat_five_card_draw"`` (one per game family), ``"monte_carlo_holdem"`` and ``"smart_holdem"``
    (R-JACK-2: one pool per jackpot type, shared by every such table of the room)."""
    game = JACKPOT_GAMES.get(config.game)
    return None if config.jackpot is None or game is None else f"{config.jackpot.kind}_{game}"


def jackpot_live(config: TableConfig) -> bool:
    """Whether the table's hands can feed and win its jackpot at all: one is configured, the table is not
    heads-up (more than 2 seats) and its big blind is at least the jackpot's ``minimum_big_blind``."""
    return jackpot_pool_name(config) is not None and config.jackpot is not None and config.seats > 2 \
        and config.big_blind >= config.jackpot.minimum_big_blind


def settle_jackpot(config: TableConfig, pool: int, events: Sequence[Event], players: Mapping[int, str],
                   hour: int | None = None, *, tournament: bool = False) -> tuple[HandJackpot, dict[str, Any] | None]:
    """The jackpot side of a finished hand at ``config``'s table with ``pool`` chips in its pool (R-JACK-1):
    :func:`engine.jackpot.settle_hand`, with the table's share and conditions (``tournament``: its owner's
    word, a tournament table is never eligible; croupier's chips are all play chips, so the host's ``jackpot``
    setting is what opts a table in), and the public
    ``jackpot_paid`` message's body when a bad beat paid (PROTOCOL.md), else None. ``players``: seat → name."""
    settings, game = config.jackpot, JACKPOT_GAMES.get(config.game)
    if settings is None or game is None:
        raise ValueError(f"table {config.id} has no jackpot")
    started = next(event for event in events if isinstance(event, HandStarted))
    eligible = table_is_eligible(play_money=False, tournament=tournament, table_seats=config.seats,
                                 players_dealt_in=len(started.stacks), big_blind=config.big_blind,
                                 minimum_big_blind=settings.minimum_big_blind)
    if settings.kind == "smart":  # R-JACK-2: live only in its hours; outside them it neither feeds nor wins
        eligible = eligible and hour is not None and smart_jackpot_active(hour, settings.hours)
    if settings.kind == "monte_carlo":
        return _settle_monte_carlo(config, pool, events, players, eligible)
    must_use_hole = (variant_by_id(config.game).must_use_hole or 2) if game == "omaha" else 2
    outcome = settle_hand(pool, events, game, share=Percentage(settings.share_percent, 100), eligible=eligible,
                          must_use_hole=must_use_hole, holdem_quads=QUALIFYING_QUADS[settings.qualifying_hand])
    if outcome.beat is None:
        return outcome, None
    beat = outcome.beat
    roles = {**{seat: "other" for seat in beat.others}, **{seat: "winner" for seat in beat.winners},
             **{seat: "loser" for seat in beat.losers}}
    body = {
        "jackpot": jackpot_pool_name(config), "pool": outcome.pool_before + outcome.drop,
        "losing_hand": beat.loser_hand.category, "losing_cards": [str(card) for card in beat.loser_hand.cards],
        "paid": [{"seat": seat, "name": players.get(seat, ""), "role": roles[seat], "amount": amount}
                 for seat, amount in sorted(outcome.paid.items(), key=lambda item: (-item[1], item[0]))],
        "next_pool": outcome.pool_after,
    }
    return outcome, body


def _settle_monte_carlo(config: TableConfig, pool: int, events: Sequence[Event], players: Mapping[int, str],
                        eligible: bool) -> tuple[HandJackpot, dict[str, Any] | None]:
    """:func:`settle_jackpot` for a Monte-Carlo table (R-JACK-2): the winner's shown hand is one of its hands."""
    settings = config.jackpot
    assert settings is not None
    outcome, hit = settle_monte_carlo(pool, events, settings.hands, share=Percentage(settings.share_percent, 100),
                                      eligible=eligible)
    if hit is None or not outcome.paid:
        return outcome, None
    body = {
        "jackpot": jackpot_pool_name(config), "pool": outcome.pool_before + outcome.drop,
        "winning_hand": hit.hand.category, "winning_cards": [str(card) for card in hit.hand.cards],
        "paid": [{"seat": seat, "name": players.get(seat, ""), "role": "winner", "amount": amount}
                 for seat, amount in sorted(outcome.paid.items())],
        "next_pool": outcome.pool_after,
    }
    return outcome, body
