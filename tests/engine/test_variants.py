"""Games as data (R-GAME-HE/O4/O5/O8, R-GAME-DECK, R-RANK-2)."""

from __future__ import annotations

import pytest

from engine.variants import (
    OMAHA,
    OMAHA_FIVE_CARD,
    OMAHA_HI_LO,
    TEXAS_HOLDEM,
    VARIANTS,
    ForcedBetKind,
    Opening,
    check_player_count,
    five_card_omaha,
    variant_by_id,
)


def test_holdem_and_omaha_streets_deal_what_rules_say() -> None:
    assert [(s.name, s.hole_down, s.board, s.big_bet) for s in TEXAS_HOLDEM.streets] == [
        ("preflop", 2, 0, False), ("flop", 0, 3, False), ("turn", 0, 1, True), ("river", 0, 1, True),
    ]
    assert TEXAS_HOLDEM.streets[0].opening is Opening.BLINDS
    assert (OMAHA.hole_card_count, OMAHA.must_use_hole) == (4, 2)
    assert (OMAHA_FIVE_CARD.hole_card_count, OMAHA_FIVE_CARD.must_use_hole) == (5, 2)
    assert OMAHA_HI_LO.low_eight and not OMAHA.low_eight
    holdem_family = [v for v in VARIANTS.values() if v.rule in ("R-GAME-HE", "R-GAME-O4", "R-GAME-O5", "R-GAME-O8")]
    assert len(holdem_family) == 4
    assert all(v.forced_bets is ForcedBetKind.BLINDS and v.board_card_count == 5 for v in holdem_family)


def test_seat_limits_follow_the_deck() -> None:
    assert (TEXAS_HOLDEM.max_players, OMAHA.max_players, OMAHA_FIVE_CARD.max_players) == (10, 10, 9)
    check_player_count(OMAHA_FIVE_CARD, 9)
    assert OMAHA_FIVE_CARD.cards_needed(9) == 50
    with pytest.raises(ValueError, match="2 to 9 players, not 10"):
        check_player_count(OMAHA_FIVE_CARD, 10)
    with pytest.raises(ValueError, match="2 to 10 players, not 1"):
        check_player_count(TEXAS_HOLDEM, 1)


def test_five_card_omaha_house_rule_three_hole_cards() -> None:
    assert five_card_omaha().must_use_hole == 2
    assert five_card_omaha(must_use_hole=3).must_use_hole == 3
    with pytest.raises(ValueError, match=r"2 .* or 3"):
        five_card_omaha(must_use_hole=4)


def test_variant_lookup_by_id() -> None:
    assert variant_by_id("omaha_hi_lo") is OMAHA_HI_LO
    with pytest.raises(KeyError, match="unknown variant 'kuhn_poker'"):
        variant_by_id("kuhn_poker")
