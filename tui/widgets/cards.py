"""Cards as coloured text: suit glyphs, a two-colour or four-colour deck (R-CARD-1)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

GLYPHS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
TWO_COLOURS = {"s": "bold black on white", "h": "bold red on white", "d": "bold red on white",
               "c": "bold black on white"}
FOUR_COLOURS = {"s": "bold black on white", "h": "bold red on white", "d": "bold blue on white",
                "c": "bold green4 on white"}
BACK = "bold white on dark_blue"


def card_text(card: str, four_colour: bool = False) -> Text:
    """``"Ah"`` → ``" A♥ "`` styled; ``"??"`` or ``""`` → a face-down card.

    >>> card_text("Td").plain
    'T♦'
    """
    if len(card) != 2 or card[1] not in GLYPHS:
        return Text("▒▒", style=BACK)
    colours = FOUR_COLOURS if four_colour else TWO_COLOURS
    return Text(card[0] + GLYPHS[card[1]], style=colours[card[1]])


def cards_text(cards: Iterable[str], four_colour: bool = False, face_down: int = 0) -> Text:
    """Several cards separated by a space, then ``face_down`` backs."""
    text = Text()
    for card in list(cards) + ["??"] * face_down:
        if text:
            text.append(" ")
        text.append_text(card_text(card, four_colour))
    return text
