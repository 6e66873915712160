"""A checkbox whose state reads without colour: ``✓`` when ticked, blank when not (Textual's own shows an
``X`` either way and tells them apart by colour only, which a monochrome or high-contrast terminal loses)."""

from __future__ import annotations

from textual.widgets import Checkbox


class TickBox(Checkbox):
    """A :class:`~textual.widgets.Checkbox` drawn ``▐✓▌`` ticked and ``▐ ▌`` unticked."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # the name Textual reads
        return "✓" if self.value else " "
