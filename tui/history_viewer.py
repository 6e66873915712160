"""The hand-history viewer (DESIGN: "hand history viewer"): pick the last hand or an earlier one of a table, step
through it street by street on the same felt the table uses, with every card that was shown, the lines of each
street and the hand's fairness badge.

The hands come from the table's own model (:attr:`tui.model.TableModel.records`: each hand's events as this
client received them), replayed into a fresh model per step (:meth:`tui.model.TableModel.replay`).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from tui.model import HandSummary, TableModel, hand_steps
from tui.widgets.felt import Felt
from tui.widgets.hand_log import badge, log_line


class HandHistoryScreen(Screen[None]):
    """A table's recorded hands, newest first; ←/→ step through the chosen hand street by street."""

    DEFAULT_CSS = """
    HandHistoryScreen { layout: vertical; }
    HandHistoryScreen #history-body { height: 1fr; }
    HandHistoryScreen #hands { width: 34; height: 1fr; border: round $panel; }
    HandHistoryScreen #replay { width: 1fr; height: 1fr; }
    HandHistoryScreen #step-title { height: 1; padding: 0 1; background: $boost; }
    HandHistoryScreen #street-lines { height: 1fr; padding: 0 1; overflow-y: auto; }
    HandHistoryScreen #history-keys { height: 1; padding: 0 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,n", "step(1)", "Next street"),
        Binding("left,p", "step(-1)", "Previous street"),
        Binding("home", "first_step", "First street", show=False),
        Binding("end", "last_step", "Result", show=False),
        Binding("escape,v,q", "close", "Close"),
    ]

    def __init__(self, model: TableModel, four_colour: bool = False) -> None:
        super().__init__()
        self.model = model
        self.four_colour = four_colour
        self.hand_ids = [hand for hand in reversed(model.records) if model.records[hand].events]
        self.hand_id = self.hand_ids[0] if self.hand_ids else ""
        self.step = 0

    def compose(self) -> ComposeResult:
        with Horizontal(id="history-body"):
            yield OptionList(*[Option(self._hand_label(hand), id=hand) for hand in self.hand_ids], id="hands")
            with Vertical(id="replay"):
                yield Static(id="step-title")
                yield Felt(id="history-felt")
                yield Static(id="street-lines")
        yield Static("↑/↓ pick a hand · ←/→ street by street · Esc close",
                     id="history-keys")

    def on_mount(self) -> None:
        hands = self.query_one("#hands", OptionList)
        hands.border_title = f"{self.model.name or self.model.table_id}: hands"
        if self.hand_ids:
            hands.highlighted = 0
        hands.focus()
        self._draw()

    # --- what is shown ----------------------------------------------------------------------------------

    def _summary(self, hand: str) -> HandSummary | None:
        return next((item for item in reversed(self.model.hands) if item.hand_id == hand), None)

    def _hand_label(self, hand: str) -> Text:
        summary = self._summary(hand)
        label = Text(f"#{summary.number} " if summary is not None and summary.number else "")
        if summary is not None:
            label.append_text(badge(summary))
            if summary.result:
                label.append(f" {summary.result}")
        else:
            label.append(hand)
        label.no_wrap = True
        label.overflow = "ellipsis"
        return label

    def _steps(self) -> list[tuple[str, int]]:
        if not self.hand_id:
            return []
        return hand_steps(self.model.records[self.hand_id].events)

    def _draw(self) -> None:
        title = self.query_one("#step-title", Static)
        lines = self.query_one("#street-lines", Static)
        felt = self.query_one(Felt)
        steps = self._steps()
        if not steps:
            title.update("No hand recorded at this table yet: hands are kept from when the table was opened.")
            lines.update("")
            return
        self.step = max(0, min(self.step, len(steps) - 1))
        shown = self.model.replay(self.hand_id, self.step)
        before = self.model.replay(self.hand_id, self.step - 1).log if self.step else []
        summary = self._summary(self.hand_id)
        heading = Text()
        heading.append(f"Hand #{summary.number}" if summary is not None and summary.number else self.hand_id,
                       style="bold")
        heading.append(f"  {steps[self.step][0]} ({self.step + 1}/{len(steps)})  ")
        if summary is not None:
            heading.append_text(badge(summary))
            for violation in summary.violations:
                heading.append(f"  {violation}", style="red")
            for claim in summary.claims:  # another player's report, not this client's verdict
                heading.append(f"  claim by {claim}", style="yellow")
        title.update(heading)
        felt.four_colour = self.four_colour
        felt.model = shown
        new_lines = shown.log[len(before):] if shown.log[:len(before)] == before else shown.log
        names = {info.name for info in shown.seats.values()}
        lines.update(Text("\n").join(log_line(line, self.four_colour, names) for line in new_lines))

    # --- keys -------------------------------------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#hands")
    def _pick(self, event: OptionList.OptionHighlighted) -> None:
        hand = event.option.id or ""
        if hand != self.hand_id:
            self.hand_id = hand
            self.step = 0
            self._draw()

    def action_step(self, delta: int) -> None:
        self.step += delta
        self._draw()

    def action_first_step(self) -> None:
        self.step = 0
        self._draw()

    def action_last_step(self) -> None:
        self.step = len(self._steps()) - 1
        self._draw()

    def action_close(self) -> None:
        self.dismiss(None)
