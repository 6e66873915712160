"""The action clock and the time bank as a bar that empties (R-CLOCK-*)."""

from __future__ import annotations

import time

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class TimeBar(Widget):
    """Counts ``seconds`` down from when it was set (local clock); shows the time bank when known."""

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
        left = self.left()
        width = max(4, self.size.width - 16)
        filled = round(width * left / self.seconds) if self.seconds else 0
        style = "green" if left > 10 else "yellow" if left > 5 else "bold red"
        text = Text(f"{self.label}{left:4.0f}s ", style=style) + Text("█" * filled, style=style) + Text(
            "░" * (width - filled), style="dim")
        if self.time_bank is not None:
            text.append(f" bank {self.time_bank:.0f}s", style="dim")
        return text
