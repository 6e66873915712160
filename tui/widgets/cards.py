"""Cards as coloured text: suit glyphs, a two-colour or four-colour deck (R-CARD-1)."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from rich.text import Text

GLYPHS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
TWO_COLOURS = {"s": "bold black on white", "h": "bold red on white", "d": "bold red on white",
               "c": "bold black on white"}
FOUR_COLOURS = {"s": "bold black on white", "h": "bold red on white", "d": "bold blue on white",
                "c": "bold green4 on white"}
BACK = "bold white on dark_blue"


DOWN = " underline on grey58"
"""A card of mine dealt face down in stud: the others do not see it — underlined on a grey card (not white), so
it is told apart without telling shades of grey (the help screen says so)."""


def card_text(card: str, four_colour: bool = False, down: bool = False) -> Text:
    """``"Ah"`` → ``" A♥ "`` styled; ``"??"`` or ``""`` → a face-down card; ``down``: my own face-down card.

    >>> card_text("Td").plain
    'T♦'
    """
    if len(card) != 2 or card[1] not in GLYPHS:
        return Text("▒▒", style=BACK)
    colours = FOUR_COLOURS if four_colour else TWO_COLOURS
    style = colours[card[1]]
    return Text(card[0] + GLYPHS[card[1]], style=style.replace(" on white", DOWN) if down else style)


def cards_text(cards: Iterable[str], four_colour: bool = False, face_down: int = 0, gap: str = " ",
               count_backs: bool = False, down: Collection[str] = ()) -> Text:
    """Several cards separated by ``gap``, then ``face_down`` backs; ``count_backs`` writes two or more backs
    as one back and their number (``▒▒3``), the tightest form a narrow seat box uses.

    >>> cards_text(["Ah", "Kd"], face_down=2).plain, cards_text(["Ah", "Kd"], face_down=3, gap="").plain
    ('A♥ K♦ ▒▒ ▒▒', 'A♥K♦▒▒▒▒▒▒')
    >>> cards_text(["Ah", "Kd"], face_down=3, gap="", count_backs=True).plain
    'A♥K♦▒▒3'
    """
    text = Text()
    backs = 1 if count_backs and face_down > 1 else face_down
    for card in list(cards) + ["??"] * backs:
        if text:
            text.append(gap)
        text.append_text(card_text(card, four_colour, down=card in down))
    if backs != face_down:
        text.append(str(face_down), style=BACK)
    return text
