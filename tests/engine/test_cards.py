"""Cards, parsing and decks (R-CARD-1)."""

from __future__ import annotations

import pytest

from engine.cards import Card, Rank, Suit, format_cards, full_deck, parse_cards, short_deck


def test_full_deck_has_52_distinct_cards() -> None:
    deck = full_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert {str(card) for card in deck} == {r + s for r in "23456789TJQKA" for s in "shdc"}


def test_short_deck_is_sevens_to_aces() -> None:
    deck = short_deck()
    assert len(deck) == 32
    assert {card.rank for card in deck} == {Rank(value) for value in range(7, 15)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Kd", "As Kd"),
        ("AsKd", "As Kd"),
        ("10h", "Th"),
        ("10h,9c  2d", "Th 9c 2d"),
        ("a♠ Q♥", "As Qh"),
        ("", ""),
    ],
)
def test_parse_cards_reads_common_forms(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


def test_cards_are_shared_instances_with_rank_and_suit() -> None:
    card = Card.parse("Qh")
    assert card is Card.of(Rank.QUEEN, Suit.HEARTS)
    assert card.rank is Rank.QUEEN and card.suit is Suit.HEARTS
    assert int(card) == (12 - 2) * 4 + 2
    assert card.pretty() == "Q♥"


@pytest.mark.parametrize("text", ["Xs", "As 1h", "Ahh", "AsK", "11c", "Az"])
def test_malformed_card_text_names_the_bad_token(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_cards(text)


def test_duplicate_cards_are_refused() -> None:
    with pytest.raises(ValueError, match="duplicate card As"):
        parse_cards("As Kd as")
    assert len(parse_cards("As As", allow_duplicates=True)) == 2


def test_card_of_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError):
        Card.of(15, 0)
    with pytest.raises(ValueError):
        Card(52)
