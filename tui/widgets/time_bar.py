"""The action clock and the time bank as a bar that empties (R-CLOCK-*).

The room's deadline for a turn includes the acting player's time bank (used only once the action time has
run out). When the bank is known the bar shows the action time first (green, then yellow, then red) and,
once it is gone, the bank (magenta) with its own seconds; otherwise one bar for the whole turn.
"""

from __future__ import annotations

import time

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from tui.model import split_clock


class TimeBar(Widget):
    """Counts ``seconds`` down from ``started`` (local clock); ``time_bank``: the bank seconds at the end of the
    turn, ``None`` when unknown."""

    DEFAULT_CSS = """
    TimeBar { height: 1; width: 1fr; min-width: 12; }
    """

    seconds: reactive[float] = reactive(0.0)
    started: reactive[float] = reactive(0.0)
    time_bank: reactive[float | None] = reactive(None)
    label: reactive[str] = reactive("")

    def on_mount(self) -> None:
        self.set_interval(0.5, self.refresh)

    def left(self) -> float:
        clock = getattr(self.app, "clock", time.monotonic)  # the app's clock: tests freeze it
        return max(0.0, self.seconds - (clock() - self.started))

    def render(self) -> Text:
        if self.seconds <= 0:
            return Text(self.label or "", style="dim")
        action_left, action_total, bank_left = split_clock(self.seconds, self.left(), self.time_bank)
        if action_left > 0 or bank_left is None:
            style = "green" if action_left > 10 else "yellow" if action_left > 5 else "bold red"
            head = Text(f"{self.label}{action_left:3.0f}s ", style=style)
            share = action_left / action_total if action_total else 0.0
            tail = Text(f" +bank {bank_left:.0f}s", style="dim") if bank_left is not None else Text("")
        else:  # the action time is gone: the bank runs
            style = "bold magenta" if bank_left > 5 else "bold red"
            head = Text(f"{self.label}bank {bank_left:3.0f}s ", style=style)
            share = bank_left / (self.time_bank or 1.0)
            tail = Text("")
        room = self.size.width or 80
        if head.cell_len + tail.cell_len + 4 > room:  # narrow: the bank's note goes, then the label (never cut)
            tail = Text("")
        if head.cell_len + 4 > room and self.label:
            head = Text(head.plain.removeprefix(self.label), style=style)
        width = max(4, room - head.cell_len - tail.cell_len)
        filled = round(width * min(1.0, share))
        return head + Text("█" * filled, style=style) + Text("░" * (width - filled), style="dim") + tail
