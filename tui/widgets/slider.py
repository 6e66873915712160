"""A keyboard- and mouse-driven slider over an integer range (the bet amount)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Slider(Widget, can_focus=True):
    """``minimum``..``maximum`` in steps of ``step``; ← → (and shift for ×10) or a click sets :attr:`value`."""

    DEFAULT_CSS = """
    Slider { height: 1; width: 1fr; min-width: 10; }
    Slider:focus { background: $boost; }
    Slider.-disabled { color: $text-disabled; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "less", show=False),
        Binding("right", "move(1)", "more", show=False),
        Binding("shift+left", "move(-10)", show=False),
        Binding("shift+right", "move(10)", show=False),
        Binding("home", "edge(0)", show=False),
        Binding("end", "edge(1)", show=False),
    ]

    class Changed(Message):
        def __init__(self, slider: Slider, value: int) -> None:
            super().__init__()
            self.slider = slider
            self.value = value

    minimum: reactive[int] = reactive(0)
    maximum: reactive[int] = reactive(0)
    step: reactive[int] = reactive(1)
    value: reactive[int] = reactive(0)

    def clamp(self, value: int) -> int:
        return max(self.minimum, min(self.maximum, value))

    def set_value(self, value: int, *, announce: bool = True) -> None:
        value = self.clamp(value)
        if value != self.value:
            self.value = value
            if announce:
                self.post_message(self.Changed(self, value))

    def action_move(self, steps: int) -> None:
        self.set_value(self.value + steps * max(1, self.step))

    def action_edge(self, which: int) -> None:
        self.set_value(self.maximum if which else self.minimum)

    def on_click(self, event: events.Click) -> None:
        width = max(1, self.size.width - 1)
        fraction = min(1.0, max(0.0, event.x / width))
        self.set_value(self.minimum + round(fraction * (self.maximum - self.minimum)))

    def render(self) -> Text:
        width = max(3, self.size.width)
        span = self.maximum - self.minimum
        if span <= 0:
            return Text("━" * width, style="dim")
        position = round((self.value - self.minimum) / span * (width - 1))
        return Text("━" * position, style="bold cyan") + Text("●", style="bold") + Text(
            "─" * (width - position - 1), style="dim")
