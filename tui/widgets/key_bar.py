"""The bottom line of keys that work now — one widget instead of Textual's Footer.

Textual's :class:`~textual.widgets.Footer` builds one widget per key and rebuilds them all whenever the focus
or the bindings change; at a poker table that happens on nearly every action, and on a plain-ssh screen it
was about 40% of the time to the first frame. :class:`KeyBar` draws the same line (key, then what it does,
disabled keys dimmed, the command palette key on the right) as one line of text, redrawn only when the keys
shown change. A click on a key presses it, as with the Footer.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widget import Widget


class KeyBar(Widget, can_focus=False):
    """Shows the screen's active key bindings (those with ``show=True``), one entry per action."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-bar--key", "key-bar--description", "key-bar--disabled"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        width: 1fr;
        color: $footer-foreground;
        background: $footer-background;
        .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .key-bar--disabled { text-style: dim; }
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entries: list[tuple[str, str, bool, str]] = []  # (key shown, description, enabled, key)
        self._spans: list[tuple[int, int, str]] = []  # (first column, end column, key) of each entry drawn
        self._palette: tuple[int, str] | None = None  # (width, key) of the command palette entry
        self._palette_words = ("", "")

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self.refresh_keys)

    def _bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.refresh_keys)

    @property
    def entries(self) -> list[tuple[str, str, bool]]:
        """``(key shown, description, enabled)`` for each key on the line, left to right (tests read it)."""
        return self._entries_of(self.screen.active_bindings)

    def _entries_of(self, bindings: dict[str, ActiveBinding]) -> list[tuple[str, str, bool]]:
        shown: list[tuple[str, str, bool]] = []
        seen: set[str] = set()
        for active in bindings.values():
            binding = active.binding
            if not binding.show or binding.action in seen or binding.key == self.app.COMMAND_PALETTE_BINDING:
                continue
            seen.add(binding.action)
            shown.append((self.app.get_key_display(binding), binding.description, active.enabled))
        return shown

    def refresh_keys(self) -> None:
        """Rebuild the entries from the active bindings; repaints only when they changed."""
        if not self.is_attached:
            return
        # read once: each read asks every binding's check_action (a table's asks its view), so three reads
        # per refresh tripled the cost of the table's key bar (~30% of a Pilot test's CPU)
        bindings = self.screen.active_bindings
        keys = {self.app.get_key_display(active.binding): active.binding.key for active in bindings.values()}
        entries = [(display, description, enabled, keys.get(display, display))
                   for display, description, enabled in self._entries_of(bindings)]
        palette = bindings.get(self.app.COMMAND_PALETTE_BINDING)
        self._palette = None
        if palette is not None and self.app.ENABLE_COMMAND_PALETTE:
            display = self.app.get_key_display(palette.binding)
            self._palette = (len(display) + len(palette.binding.description) + 3, palette.binding.key)
            self._palette_words = (display, palette.binding.description)
        if entries != self._entries:
            self._entries = entries
            self.refresh()

    def _line(self, entries: list[tuple[str, str, bool, str]], lead: str) -> tuple[Text, list[tuple[int, int, str]]]:
        key_style = self.get_component_rich_style("key-bar--key")
        description_style = self.get_component_rich_style("key-bar--description")
        disabled_style = self.get_component_rich_style("key-bar--disabled")
        text = Text(no_wrap=True, overflow="crop")
        spans: list[tuple[int, int, str]] = []
        for display, description, enabled, key in entries:
            start = text.cell_len
            text.append(f"{lead}{display} ", key_style + disabled_style if not enabled else key_style)
            text.append(f"{description} ", description_style + disabled_style if not enabled else description_style)
            spans.append((start, text.cell_len, key))
        return text, spans

    def render(self) -> Text:
        """The keys in the width there is: spaced; else tighter; else the last (app-wide) keys give way, so
        the table's keys and the palette always show whole (80 columns cut the line before)."""
        width = self.size.width or 80
        palette = self._palette[0] if self._palette is not None else 0
        entries = list(self._entries)
        line, spans = self._line(entries, " ")
        if line.cell_len + palette > width:
            line, spans = self._line(entries, "")
            while entries and line.cell_len + palette > width:
                entries.pop()
                line, spans = self._line(entries, "")
        self._spans = spans
        if self._palette is not None and width >= palette + line.cell_len:
            line.append(" " * (width - palette - line.cell_len))
            display, description = self._palette_words
            line.append_text(Text.assemble((f" {display} ", self.get_component_rich_style("key-bar--key")),
                                           (f"{description} ", self.get_component_rich_style(
                                               "key-bar--description"))))
        return line

    def key_at(self, column: int) -> str | None:
        """The key whose entry covers ``column`` (0 = the first column of the bar), or None."""
        for start, end, key in self._spans:
            if start <= column < end:
                return key
        if self._palette is not None and column >= self.size.width - self._palette[0]:
            return self._palette[1]
        return None

    def on_click(self, event: events.Click) -> None:
        key = self.key_at(event.x)
        if key is not None:
            event.stop()
            self.app.simulate_key(key)
