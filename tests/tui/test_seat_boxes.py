"""Cards never go missing from a seat box (walkthrough: own cards gone in tiles, stud up cards gone at 80×24 or
with long names, a 7-card stud hand showing 6): the name is shortened, never a card. Pilot tests against the
real in-process room with bots, and the seat text at fixed widths."""

from __future__ import annotations

from typing import Any

from hosting.config import TableConfig
from tests.tui.roombots import table
from tests.tui.test_play import join
from tui.model import SeatInfo
from tui.widgets.cards import card_text
from tui.widgets.seat import SeatView, seat_text

LONG_NAMES = ("bot1-2b0bf7", "bot2-073188")


def all_cards_shown(shown: str, info: SeatInfo) -> bool:
    """Every card of ``info`` is in the box's text: each face card, and its backs (``▒▒`` each, or ``▒▒N``)."""
    flat = shown.replace(" ", "").replace("\n", "")
    faces = all(card_text(card).plain in flat for card in info.cards)
    backs = info.face_down == 0 or flat.count("▒▒") == info.face_down or f"▒▒{info.face_down}" in flat
    return faces and backs


def seat_boxes(app: Any, table_id: str) -> list[tuple[SeatInfo, str, int]]:
    """(seat, the box's text as drawn, the box's width) for each seat in use at ``table_id``."""
    boxes = []
    for view in app.query(f"#view-{table_id} SeatView").results(SeatView):
        if view.info is not None and not view.has_class("-unused"):
            drawn = "\n".join(view.render_line(y).text for y in range(view.size.height))
            boxes.append((view.info, drawn.replace("│", " ").replace("─", " "), view.content_size.width))
    return boxes


def test_a_seven_card_stud_hand_and_long_names_fit_any_box_width() -> None:
    mine = SeatInfo(0, "carol", 399, cards=["4h", "4d", "4s", "3h", "Ac", "Td", "9s"])
    theirs = SeatInfo(1, "bot1-2b0bf7", 414, cards=["Ad", "Kc", "7s", "2h"], face_down=3, bet=4)
    assert seat_text(mine, 30, "D", to_act=True).plain == "D carol  399\n4♥ 4♦ 4♠ 3♥ A♣ T♦ 9♠  TO ACT"
    assert seat_text(mine, 16).plain == "carol  399\n4♥4♦4♠3♥A♣T♦9♠"  # gaps go before cards do
    assert seat_text(mine, 12).plain == "4♥4♦4♠3♥A♣T♦\n9♠ carol 399"  # wider than the box: two lines of cards
    assert seat_text(theirs, 30, "SB").plain == "SB bot1-2b0bf7  414\nA♦ K♣ 7♠ 2♥ ▒▒ ▒▒ ▒▒  bet 4"
    assert seat_text(theirs, 16).plain == "bot1-2b0bf7  414\nA♦K♣7♠2♥▒▒3  b4"  # the bet kept: backs counted
    assert seat_text(theirs, 12, "SB").plain == "SB b… 414 b4\nA♦K♣7♠2♥▒▒3"  # the name shortened, backs counted
    # a label is never cut into a word that means something else ("TO" for "TO ACT"): whole or not at all
    for width in range(8, 31):
        for line in seat_text(theirs, width, "SB", to_act=True).plain.split("\n"):
            assert not line.endswith((" TO", " bet", " TO A")), (width, line)
        assert all_cards_shown(seat_text(mine, width).plain, mine), width
        assert all_cards_shown(seat_text(theirs, width).plain, theirs), width


def test_at_80x24_tiles_a_seat_keeps_its_bet_and_never_overflows() -> None:
    """Two tables tiled at 80×24 give 8–9 cell boxes: every bet label vanished (placed whole or not at all)
    and "SB d… 199" overflowed an 8-cell box, pushing the card backs out."""
    dario = SeatInfo(0, "dario", 199, face_down=2, bet=1)
    assert seat_text(dario, 8, "SB").plain == "SB d… b1\n199 ▒▒▒▒"
    assert seat_text(SeatInfo(5, "eve", 244, face_down=2, bet=2), 9, "BB").plain == "BB eve b2\n244 ▒▒ ▒▒"
    assert seat_text(SeatInfo(5, "eve", 244, bet=2), 9, "BB").plain == "BB eve\n244 bet 2"  # the right-hand seat
    raiser = SeatInfo(1, "dario", 199, face_down=2, bet=16, last_action="raise")
    assert seat_text(raiser, 9, "SB").plain == "SB d… 199\n▒▒ ▒▒ r16"
    assert seat_text(raiser, 14, "SB").plain == "SB dario  199\n▒▒ ▒▒ raise 16"  # the long form where it fits
    # the long form before the short one: the cards lose their gaps for it (not counted backs: "▒▒2 raise 16")
    assert seat_text(SeatInfo(3, "Dario", 199, face_down=5, bet=1), 18, "SB").plain == \
        "SB Dario  199\n▒▒▒▒▒▒▒▒▒▒  bet 1"
    assert seat_text(raiser, 12, "SB").plain == "SB dario 199\n▒▒ ▒▒  r16"
    for width in range(8, 31):
        for markers in ("", "D", "SB", "BB", "D/SB"):
            for stack in (7, 88, 199, 1244):
                for action in ("raise", "complete", "call", "bet", "bring-in"):
                    for info in (SeatInfo(2, "bot1-2b0bf7", stack, face_down=2, bet=16, last_action=action),
                                 SeatInfo(3, "al", stack, cards=["Ad", "7s"], face_down=2, bet=6, last_action=action)):
                        shown = seat_text(info, width, markers, to_act=True).plain
                        assert max(len(line) for line in shown.split("\n")) <= width, (width, markers, shown)
                        assert all_cards_shown(shown, info), (width, markers, shown)
                        if width >= 9 and action in ("raise", "complete") and info.name != "al" \
                                and markers != "D/SB" and stack < 1000:  # hold'em at 80×24: the raise shows
                            assert f"{action} {info.bet}" in shown or f"r{info.bet}" in shown.split(), \
                                (width, markers, shown)
    for up_cards in (["Kc"], ["Kc", "9d"]):  # stud's third and fourth street at 80×24: the completion shows
        completer = SeatInfo(4, "dario", 199, cards=up_cards, face_down=2, bet=4, last_action="complete")
        for width in (9, 10, 11):
            shown = seat_text(completer, width).plain
            assert "r4" in shown.split() or "complete 4" in shown, (width, shown)


async def test_own_cards_and_stud_up_cards_show_in_tiles_and_at_80_columns(room_setup: Any) -> None:
    stud = TableConfig("s1", "Stud 2/4", "seven_card_stud", "fixed_limit", 2, 4, 3, 80, 400, ante=1, bring_in=2,
                       clock={"action_seconds": 30.0, "time_bank_seconds": 30.0})
    setup = await room_setup([table("t1", seats=6), stud])
    for name in LONG_NAMES:
        await setup.bot(name, ["t1", "s1"])
    app = setup.app("alice")
    async with app.run_test(size=(120, 35)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        await join(pilot, app, "s1")
        await pilot.press("t")  # tiles: both tables side by side
        assert app.tiled
        stud_model = app.models["s1"]
        for size, tiled in (((120, 35), True), ((80, 24), True), ((80, 24), False)):
            if app.tiled != tiled:
                await pilot.press("t")
            await pilot.resize_terminal(*size)
            if not tiled:
                app.show_table("s1")  # tabs: only the stud table is on screen (and plays)
            await pilot.pause(0.3)  # laid out again
            tables = ("s1", "t1") if tiled else ("s1",)
            most = 0  # the most cards of mine checked in a stud box at this size (seventh street: 7)
            for _ in range(600):
                me = stud_model.seats.get(stud_model.my_seat) if stud_model.my_seat is not None else None
                up_cards = sum(len(info.cards) for info in stud_model.seats.values() if info.name in LONG_NAMES)
                if me is not None and len(me.cards) > most and up_cards >= 2 and stud_model.hand_running:
                    await pilot.pause(0.05)  # drawn
                    for info, shown, width in [box for table_id in tables for box in seat_boxes(app, table_id)]:
                        assert all_cards_shown(shown, info), (size, width, info.name, info.cards, shown)
                    most = max(most, len(me.cards))
                    if most == 7:
                        break
                for model in [app.models[table_id] for table_id in tables]:
                    view = app.view_of(model.table_id)
                    if model.needs_action and view is not None:
                        legal = model.legal or {}
                        view.focus()  # in tiles the focused tile takes the keys
                        await pilot.pause()
                        await pilot.press("c" if legal.get("can_check") or legal.get("call_amount") is not None
                                          or legal.get("bring_in_amount") is not None else "f")
                await pilot.pause(0.05)
            assert most == 7, f"seventh street not seen at {size}, tiled: {tiled}"
        assert app.internal_errors == []


def test_a_folded_seat_shows_no_cards() -> None:
    folded = SeatInfo(4, "dario", 199, in_hand=True, folded=True, face_down=2, last_action="fold")
    assert seat_text(folded, 20).plain == "dario  199\nfolded"
    assert seat_text(folded, 10, "BB").plain == "BB dario\n199 folded"  # narrow: the stack moves down
    mine = SeatInfo(0, "carol", 399, in_hand=True, folded=True, cards=["4h", "4d"], last_action="fold")
    assert "4♥" not in seat_text(mine, 20).plain  # my own folded cards went into the muck as well


async def test_folded_seats_at_a_nine_seat_table_show_no_card_backs(room_setup: Any) -> None:
    """Walk-through: a folded seat still showed its two card backs at a 9-seat table."""
    setup = await room_setup([table("t9", seats=9)])
    for number in range(6):
        await setup.bot(f"bot{number}", ["t9"], folds=number % 2 == 0)  # three fold when asked to pay
    app = setup.app("alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t9")
        model = app.models["t9"]
        checked = 0
        for _ in range(600):
            if model.hand_running and any(info.folded for info in model.seats.values()):
                await pilot.pause(0.05)  # drawn
                for info, shown, width in seat_boxes(app, "t9"):
                    if info.folded and info.face_down:
                        assert "▒" not in shown, (width, info.name, shown)
                        checked += 1
                if checked >= 3:
                    break
            if model.needs_action:
                await pilot.press("c")  # alice plays on: the folds are the bots'

            await pilot.pause(0.05)
        assert checked >= 3, "no folded seat seen"
        assert app.internal_errors == []


async def test_no_bet_is_shown_in_front_of_a_seat_during_the_draw() -> None:
    """2-7 triple draw at 80×24: through the first draw the seats still said "bet 2" / "b2", chips already
    counted in the pot (the round before the draw is over)."""
    from textual.app import App, ComposeResult

    from tui.model import TableModel
    from tui.widgets.felt import Felt

    class FeltApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Felt()

    seats = {0: SeatInfo(0, "me", 198, bet=2, in_hand=True, cards=["4d", "2h", "As", "Qs", "2d"]),
             1: SeatInfo(1, "elena", 111, bet=2, in_hand=True, face_down=5, last_action="call")}
    model = TableModel("t1", "me", game="deuce_to_seven_triple_draw", max_seats=6, hand_running=True,
                       legal={"max_discards": 5}, to_act=0, seats=seats)
    app = FeltApp()
    async with app.run_test(size=(80, 24)) as pilot:
        felt = app.query_one(Felt)
        felt.model = model
        await pilot.pause()
        shown = {view.info.name: str(view.render()) for view in app.query(SeatView).results(SeatView)
                 if view.info is not None and not view.has_class("-unused")}
        assert set(shown) == {"me", "elena"}
        assert not any("bet 2" in text or "b2" in text.split() or "c2" in text.split() or "call 2" in text
                       for text in shown.values()), shown
        model.legal = {"can_check": True}  # betting again (a new round would have cleared the bets anyway)
        model.seats[1].last_action = "bet"
        felt.model = model
        await pilot.pause()
        assert any("bet 2" in str(view.render()) or "b2" in str(view.render()).split()
                   for view in app.query(SeatView).results(SeatView)
                   if view.info is not None and view.info.name == "elena")
