"""The amount box with the keyboard, as the walkthrough did it (README: "R: bet or raise to the amount typed
in the box"): E, a refused amount, E again selects the box so typing replaces it, then R from inside the box
sends the typed amount. Pilot test against the real in-process room with a bot."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Label

from tests.tui.helpers import actions_sent, wait_until
from tests.tui.roombots import table
from tests.tui.test_play import join


async def test_r_from_the_amount_box_sends_the_typed_amount_and_e_again_replaces_it(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"], delay=0.2)
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        await wait_until(pilot, lambda: model.needs_action and model.legal is not None
                         and model.legal.get("min_raise_to") is not None, what="a turn where I may raise")
        legal = dict(model.legal or {})
        low, high = int(legal["min_raise_to"]), int(legal["max_raise_to"])
        box = app.query_one("#view-t1 #amount", Input)
        error = app.query_one("#view-t1 #error", Label)
        sent_before = len(actions_sent(app))
        # E, a too-small amount typed, R: refused in words, nothing sent, the cursor stays in the box
        await pilot.press("e")
        assert box.has_focus
        await pilot.press(*str(low - 1))
        assert box.value == str(low - 1)  # the box's amount was selected: typing replaced it
        await pilot.press("r")
        assert str(error.content) == f"the amount must be between {low} and {high}"
        assert len(actions_sent(app)) == sent_before and model.needs_action and box.has_focus
        # E again (the cursor still in the box): the amount is selected, the new one replaces it (not "3060")
        target = min(high, low + 2)
        await pilot.press("e")
        await pilot.press(*str(target))
        assert box.value == str(target)
        assert "r" not in box.value and "e" not in box.value
        await pilot.press("r")  # R from inside the box sends what is typed
        await wait_until(pilot, lambda: len(actions_sent(app)) == sent_before + 1, what="the raise sent")
        sent = actions_sent(app)[-1]
        assert sent["kind"] == ("bet" if legal.get("is_bet") else "raise_to") and sent["amount"] == target
        verb = "bet" if legal.get("is_bet") else "raise to"
        await wait_until(pilot, lambda: f"You {verb} {target}" in model.log, what="the room's bet event")
        assert str(error.content) == ""
        assert app.internal_errors == []
