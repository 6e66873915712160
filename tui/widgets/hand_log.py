"""The hand log with a fairness badge per hand (verified / violation), and the table chat."""

from __future__ import annotations

import re
from collections.abc import Collection

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Input, Static

from tui.model import HandSummary, TableModel
from tui.widgets.cards import card_text

CARD = re.compile(r"(?<![\w'])([2-9TJQKA][shdc])(?![\w'])")


def log_line(line: str, four_colour: bool = False, names: Collection[str] = ()) -> Text:
    """One hand-log line; every card in it gets its suit glyph and colour (deals, boards, shown hands, draws,
    a rabbit, a second board). ``names``: the table's players — a player called "Kc" stays a name.

    >>> log_line("Flop: Qs Jd 4c").plain, log_line("ana shows Ah Kd (two pair)").plain
    ('Flop: Q♠ J♦ 4♣', 'ana shows A♥ K♦ (two pair)')
    >>> log_line("Rabbit hunt (asked by ana), not played: river Th").plain, log_line("Ks folds", names=["Ks"]).plain
    ('Rabbit hunt (asked by ana), not played: river T♥', 'Ks folds')
    """
    if line.startswith("FAIRNESS"):
        return Text(line, style="bold red")
    text = Text()
    last = 0
    for match in CARD.finditer(line):
        if match.group(1) in names:
            continue
        text.append(line[last:match.start()])
        text.append_text(card_text(match.group(1), four_colour))
        last = match.end()
    text.append(line[last:])
    return text


def badge(summary: HandSummary) -> Text:
    """``✔ verified``, ``✔ verified (joined late)``, ``✘ VIOLATION``, ``cancelled`` or ``… checking`` for one hand."""
    claimed = Text(f" · {len(summary.claims)} claim(s)", style="yellow") if summary.claims else Text("")
    if summary.fairness is True and summary.unverified:  # a slow connection missed the commitments: no ✔
        return Text.assemble(Text(f"? {summary.verdict}", style="yellow"), claimed)
    if summary.fairness is True:
        return Text.assemble(Text(f"✔ {summary.verdict}", style="bold green" if not summary.joined_late else "green"),
                             claimed)
    if summary.fairness is False:
        return Text("✘ VIOLATION", style="bold white on red")
    if summary.cancelled:  # voided by the room (it stopped): there is nothing to check
        return Text("cancelled", style="dim italic")
    return Text.assemble(Text("… checking", style="dim"), claimed)


class HandLog(Static):
    """The last hands with their badges, then the running hand's lines."""

    DEFAULT_CSS = """
    HandLog { height: 1fr; overflow-y: auto; padding: 0 1; }
    """

    model: reactive[TableModel | None] = reactive(None, always_update=True)
    lines: reactive[int] = reactive(14)
    four_colour: reactive[bool] = reactive(False)

    def render(self) -> Text:
        model = self.model
        if model is None:
            return Text("")
        text = Text()
        height = self.size.height or self.lines + 4
        # a short strip (the compact layout) keeps the last hand's badge and the newest lines
        summaries = model.hands[-4:] if height > 8 else model.hands[-2:-1] if height > 2 else []
        for summary in summaries:
            text.append(f"#{summary.number} ", style="bold")
            text.append_text(badge(summary))
            if summary.result:
                text.append(f" {summary.result}")
            text.append("\n")
        names = {info.name for info in model.seats.values()}
        shown = max(1, min(self.lines, height - len(summaries))) if height <= self.lines + 4 else self.lines
        for line in model.log[-shown:]:
            text.append_text(log_line(line, self.four_colour, names))
            text.append("\n")
        return text


class ChatPanel(Vertical):
    """Chat lines and an input; sending posts :class:`ChatPanel.Say`."""

    DEFAULT_CSS = """
    ChatPanel { height: 8; }
    ChatPanel Static { height: 1fr; padding: 0 1; }
    ChatPanel Input { height: 1; border: none; }
    """

    class Say(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    model: reactive[TableModel | None] = reactive(None, always_update=True)

    def compose(self) -> ComposeResult:
        yield Static(id="chat-lines")
        yield Input(placeholder="chat…", id="chat-input", max_length=280, compact=True)

    def watch_model(self, model: TableModel | None) -> None:
        if model is None or not self.is_mounted:
            return
        text = Text()
        for sender, line in model.chat[-5:]:
            text.append(f"{sender}: ", style="bold")
            text.append(line + "\n")
        self.query_one("#chat-lines", Static).update(text)

    @on(Input.Submitted, "#chat-input")
    def _send(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.Say(event.value.strip()))
        event.input.value = ""
