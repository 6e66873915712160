"""Keys typed while a window opens go into that window (issue 27: in the Z window "150" was kept as "15").

A window (:class:`Window`: the auto top-up, the bet sizes, a buy-in…) is pushed when its key is handled, but
the keys typed right after it may already be on their way: sent to the table under it (where ``2`` put a bet
size in the amount box) or to the window before anything in it has the focus (where they were dropped).
:class:`TypeaheadApp` keeps every such key and, once the window has its focus, hands them over in the order typed:
keys act only where the focus is.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.app import App
from textual.screen import ModalScreen, Screen

ResultType = TypeVar("ResultType")

HELD_AT_MOST = 64
"""Keys kept while a window opens (a paste is delivered whole, not typed)."""


class Window(ModalScreen[ResultType]):
    """A small window over the tables: its first field has the focus from the start (typed keys go there)."""

    AUTO_FOCUS = "Input, Select, Button"
    opened = False
    """Composed, with its focus: the keys held for it may come in."""

    def on_mount(self) -> None:
        self.opened = True
        release = getattr(self.app, "release_typeahead", None)
        if release is not None:
            self.app.call_later(release)


class TypeaheadApp(App[int]):
    """Holds the keys typed while a :class:`Window` opens and gives them to it once it is there."""

    def __init__(self) -> None:
        super().__init__()
        self._typeahead: list[events.Key] = []
        self._forwarded_under: dict[int, Screen[object]] = {}  # key event id -> the screen it was sent into

    def _window_opening(self) -> bool:
        try:
            screen = self.screen
        except Exception:  # no screen yet (starting up): nothing to hold for
            return False
        return isinstance(screen, Window) and not screen.opened

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key):
            if event.is_forwarded:
                origin = self._forwarded_under.pop(id(event), None)
                if origin is not None and origin is not self.screen and isinstance(self.screen, Window):
                    # typed before the window came, sent into the screen under it: it is the window's
                    self._hold(events.Key(event.key, event.character))
                    return
            elif self._typeahead or self._window_opening():
                self._hold(event)
                return
            else:
                if len(self._forwarded_under) > HELD_AT_MOST:
                    self._forwarded_under.clear()
                self._forwarded_under[id(event)] = self.screen
        await super().on_event(event)

    def _hold(self, event: events.Key) -> None:
        if len(self._typeahead) < HELD_AT_MOST:
            self._typeahead.append(event)
        if not self._window_opening():
            self.call_later(self.release_typeahead)

    async def release_typeahead(self) -> None:
        """The window is there: the keys held for it, in the order typed."""
        held, self._typeahead = self._typeahead, []
        for event in held:
            await self.on_event(event)
