"""One seat around the felt: name, stack, bet, state (to act, folded, all-in, away), button and blind markers."""

from __future__ import annotations

import re

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from tui.model import SeatInfo, short_hand_names
from tui.notes import STYLES as TAG_STYLES
from tui.widgets.cards import cards_text

CHIP_ACTIONS = frozenset({"bet", "raise", "call", "bring-in", "complete"})
"""Last actions that put the chips in front of the seat: said once, with the amount."""


def holds_cards(info: SeatInfo) -> bool:
    """Whether the seat shows cards: dealt some and not folded (a folded hand is in the muck, backs and all)."""
    return bool(info.cards or info.face_down) and not info.folded


def fitting_cards(info: SeatInfo, width: int, four_colour: bool) -> Text:
    """The seat's cards in the widest form that fits ``width`` cells: spaced, then without gaps, then the
    face-down backs as one back and a count. Never fewer cards: the caller splits what still does not fit."""
    down = info.down_cards  # stud: my own face-down cards look apart from my up cards
    forms = [cards_text(info.cards, four_colour, info.face_down, down=down),
             cards_text(info.cards, four_colour, info.face_down, gap="", down=down),
             cards_text(info.cards, four_colour, info.face_down, gap="", count_backs=True, down=down)]
    return next((form for form in forms if form.cell_len <= width), forms[-1])


def name_line(info: SeatInfo, width: int, markers: str, mine: bool, with_stack: bool = True, tag: str = "") -> Text:
    """Markers, the name and the stack in ``width`` cells: the name is shortened (``…``), never the stack.
    ``with_stack`` False: the stack goes on the cards' line (a narrow tile keeps the whole name). ``tag``: the
    player's colour tag (tui.notes), a ● of that colour before the name."""
    line = Text()
    if markers:
        line.append(markers + " ", style="bold yellow")
    if tag in TAG_STYLES:
        line.append("●", style=TAG_STYLES[tag])
    stack = f" {info.stack}" if with_stack else ""
    room = width - line.cell_len - len(stack)
    name = info.name  # shortened only where the box has no room for it
    if with_stack and len(name) + 1 <= room:
        stack = " " + stack  # two spaces when there is room
    elif len(name) > room:
        name = name[:max(1, room - 1)] + "…"
    line.append(name, style="bold" if mine else "")
    line.append(stack, style="green")
    return line


def _place_first_fitting(choices: list[tuple[str, str]], lines: tuple[Text, ...], width: int) -> bool:
    """Append the first of ``choices`` (words, style) that fits whole on one of ``lines``; none if none fits.
    True if one was placed."""
    for word, style in choices:
        for line in lines:
            gap = ("  " if line.cell_len + 2 + len(word) <= width else " ") if line.cell_len else ""
            if line.cell_len + len(gap) + len(word) <= width:
                line.append(gap)
                line.append(word, style=style)
                return True
    return False


COUNTED_BACKS = re.compile("▒[0-9]")
"""Face-down backs shown as one back and a count (``▒▒3``): the tightest form of the cards."""
SHORT_CHIP_WORDS = {"bet": "b", "raise": "r", "call": "c", "complete": "r", "bring-in": "bi"}
"""A narrow box's chip label: ``r6`` for ``raise 6`` (tiles at 80×24 are 8–9 cells wide); a completion raises
the bring-in to a full bet, so it is ``r`` too."""


def _stack_and_cards(info: SeatInfo, width: int, four_colour: bool) -> list[Text]:
    """The stack beside the cards, the cards as tight as needed to fit ``width`` (each distinct form)."""
    stack = str(info.stack)
    if not holds_cards(info):
        return [Text(stack, style="green")]
    forms = {form.plain: form for form in (fitting_cards(info, room, four_colour)
                                            for room in range(width - len(stack) - 1, 0, -1))}
    lines = []
    for form in forms.values():
        gap = "  " if form.cell_len + 2 + len(stack) <= width else " "
        lines.append(Text(stack, style="green") + Text(gap) + form)
    return lines


def _layouts(info: SeatInfo, width: int, markers: str, mine: bool, four_colour: bool,
             tag: str) -> tuple[list[tuple[Text, Text]], tuple[Text, Text] | None]:
    """The seat's two lines without its labels, in the order of preference: the whole name with the stack
    beside it; the whole name alone and the stack by the cards (cards tighter if need be); the name shortened;
    cards wider than the box filling the first line (also returned apart: the one to keep when none fits).
    Lines wider than ``width`` are left for the caller to skip."""
    cards = fitting_cards(info, width, four_colour) if holds_cards(info) else Text()
    first = name_line(info, width, markers, mine, tag=tag)
    alone = name_line(info, width, markers, mine, with_stack=False, tag=tag)
    tighter = {form.plain: form for form in (fitting_cards(info, room, four_colour) for room in range(width, 0, -1))}
    layouts: list[tuple[Text, Text]] = []
    if info.name in first.plain:  # the cards as spaced as they fit, then tighter (room for the bet)
        layouts += [(first, form) for form in tighter.values()] if cards else [(first, cards)]
    if info.name in alone.plain:
        layouts += [(alone, line) for line in _stack_and_cards(info, width, four_colour)]
    if info.name not in first.plain:
        layouts.append((first, cards))
    split = None
    if cards.cell_len > width:  # wider than the box even at its tightest: the cards take the first
        cut = width - width % 2  # line, the rest of them open the second (cards are two cells each)
        if cut == len(cards.plain) - 1 and len(cards.plain) % 2:
            cut -= 2  # "▒▒3" (three backs) stays whole
        rest = cards[cut:]
        split = (cards[:cut], rest + Text(" ") + name_line(
            info, max(1, width - rest.cell_len - 1), markers, mine, tag=tag))
        layouts.append(split)
    return layouts, split


def _short_bet_by_the_name(info: SeatInfo, short: str, width: int, markers: str, mine: bool, four_colour: bool,
                           tag: str) -> tuple[Text, Text] | None:
    """The name shortened to make room for the short bet label beside it ("SB d… b1" over "199 ▒▒▒▒" in 8
    cells): with the stack, or with the stack moved by the cards; None if neither fits."""
    room = width - len(short) - 1
    dealt = holds_cards(info)
    tries = [(name_line(info, room, markers, mine, tag=tag), fitting_cards(info, width, four_colour)
              if dealt else Text())]
    tries += [(name_line(info, room, markers, mine, with_stack=False, tag=tag), line)
              for line in _stack_and_cards(info, width, four_colour)]
    for one, two in tries:
        if 1 < one.cell_len <= room and two.cell_len <= width:
            return one + Text(" ") + Text(short, style="bold cyan"), two
    return None


def seat_text(info: SeatInfo, width: int, markers: str = "", mine: bool = False, to_act: bool = False,
              four_colour: bool = False, tag: str = "") -> Text:
    """Two lines for a seat box ``width`` cells wide: name and stack, then the cards, the bet and the state.

    Every card always shows (a player's own hole cards, every stud up card) and no line is wider than the box:
    the name is shortened first, the cards lose their gaps, then the bet ("raise 6", or "r6" where that does
    not fit: a narrow box keeps the bet rather than the whole name), "TO ACT" and the state go wherever a
    whole word still fits (a word is never cut). Cards wider than the box fill the first line and go on
    before the name.
    """
    state = info.state or ("" if to_act or info.won or info.hand_name else info.last_action)
    if info.won and not info.away and not info.sitting_out:
        state = ""  # the pot he won says more than "all-in"
    chips_word = "bet"
    if info.bet and state in CHIP_ACTIONS:  # "raise 20", not "bet 20 raise" (it wrapped as "bet 9 bet")
        chips_word, state = state, ""
    elif info.bet and info.last_action in CHIP_ACTIONS:  # all-in by a raise: "raise 60" and "all-in", not "bet"
        chips_word = info.last_action
    bet = [(f"{chips_word} {info.bet}", "bold cyan"), (f"{SHORT_CHIP_WORDS[chips_word]}{info.bet}", "bold cyan")]
    extras = [[("TO ACT", "bold reverse")] if to_act else [],
              [(f"wins {info.won}", "bold green")] if info.won else [],
              [(state, "italic")] if state else [],  # away / sitting out still show while the hand asks him
              [(name, "italic") for name in short_hand_names(info.hand_name)]]
    layouts, split = _layouts(info, width, markers, mine, four_colour, tag)
    fitting = [(first, second) for first, second in layouts if max(first.cell_len, second.cell_len) <= width]
    placed = None
    groups: list[list[tuple[Text, Text]]] = []  # the layouts with the same first line: the cards tighter
    for layout in fitting if info.bet else []:
        if groups and groups[-1][0][0].plain == layout[0].plain:
            groups[-1].append(layout)
        else:
            groups.append([layout])
    for group in groups:  # the first layout the bet fits in, the long label with tighter cards first
        for label in bet:  # ("bet 1" beside "▒▒▒▒▒▒▒▒▒▒" rather than "b1" beside "▒▒ ▒▒ ▒▒ ▒▒ ▒▒")
            for one, two in group:
                if label is bet[0] and COUNTED_BACKS.search(two.plain) and len(group) > 1:
                    continue  # "▒▒ ▒▒  r16" rather than "▒▒2 raise 16": the backs counted only for the short one
                one, two = one.copy(), two.copy()
                if _place_first_fitting([label], (two, one), width):
                    placed = one, two
                    break
            if placed is not None:
                break
        if placed is not None:
            break
    if placed is None and info.bet:
        placed = _short_bet_by_the_name(info, bet[1][0], width, markers, mine, four_colour, tag)
    if placed is not None:
        first, second = placed
    elif fitting:
        first, second = fitting[0]
    elif split is not None:  # the cards first: what is cut below is the name's tail
        first, second = split
    else:  # even the name alone is too wide with the markers: shortened to fit, the stack by the cards, or
        first = name_line(info, width, markers, mine, with_stack=False, tag=tag)  # none: the cards first
        second = _stack_and_cards(info, width, four_colour)[-1]
        if second.cell_len > width and holds_cards(info):
            second = fitting_cards(info, width, four_colour)
    for choices in extras:
        _place_first_fitting(choices, (second, first), width)
    for line in (first, second):
        line.truncate(width)  # never wider than the box (it pushed the next box's cards out)
    text = Text("\n").join([first, second]) if second else first
    text.no_wrap = True
    text.overflow = "crop"
    return text


class SeatView(Static):
    """Renders one :class:`SeatInfo`; empty seats show "empty". Data comes in through :attr:`info`."""

    SCOPED_CSS = False  # its rules also depend on the screen's -compact class
    DEFAULT_CSS = """
    SeatView { width: 1fr; height: 4; border: round $panel; padding: 0 1; content-align: center middle; }
    SeatView.-empty { color: $text-disabled; border: round $panel-darken-1; }
    SeatView.-to-act { border: heavy $warning; background: $warning 15%; }
    SeatView.-me { border: round $accent; }
    SeatView.-me.-to-act { border: heavy $warning; }
    SeatView.-folded { color: $text-muted; }
    SeatView.-away { border: dashed $warning; }  /* away or sitting out: seen at a glance, at every seat */
    .-compact SeatView.-away { border: none; background: $warning 20%; }
    SeatView.-winner { border: heavy $success; background: $success 25%; }
    .-compact SeatView.-winner { border: none; background: $success 45%; }
    SeatView.-unused { visibility: hidden; }
    .-compact SeatView { height: 2; border: none; padding: 0 1; background: $boost; }
    .-compact SeatView.-to-act { border: none; background: $warning 40%; }
    .-tiled.-compact SeatView { padding: 0; }
    SeatView.-tight { padding: 0; }
    """

    info: reactive[SeatInfo | None] = reactive(None, always_update=True)
    markers: reactive[str] = reactive("")
    to_act: reactive[bool] = reactive(False)
    four_colour: reactive[bool] = reactive(False)
    mine: reactive[bool] = reactive(False)
    tag: reactive[str] = reactive("")

    def render(self) -> Text:
        info = self.info
        if info is None:
            return Text("empty", style="dim")
        width = self.content_size.width or 40
        return seat_text(info, width, self.markers, mine=self.mine, to_act=self.to_act,
                         four_colour=self.four_colour, tag=self.tag)

    def watch_info(self, info: SeatInfo | None) -> None:
        self._fit_cards()
        self.set_class(info is None, "-empty")
        self.set_class(info is not None and bool(info.folded or info.sitting_out or info.away), "-folded")
        self.set_class(info is not None and info.won > 0, "-winner")
        self.set_class(info is not None and bool(info.sitting_out or info.away), "-away")

    def on_resize(self) -> None:
        self._fit_cards()

    def _fit_cards(self) -> None:
        """A hand wider than the box (stud's seven cards shown at 60 columns) takes the box's padding too,
        so the cards stay on one line under the name."""
        info = self.info
        needed = fitting_cards(info, 0, self.four_colour).cell_len if info is not None and holds_cards(info) else 0
        room = self.content_size.width + self.styles.padding.width  # the box's width inside its border
        self.set_class(self.content_size.width > 0 and needed > room - 2, "-tight")

    def watch_to_act(self, to_act: bool) -> None:
        self.set_class(to_act, "-to-act")

    def watch_mine(self, mine: bool) -> None:
        self.set_class(mine, "-me")
