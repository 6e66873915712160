"""Issue 14, the table a player trusts: what the action bar, the seat controls and the small windows show and
do (items 11-18, 20, 21, 25 and the presets players expect), on recorded room messages (no live room)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, Label

from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, event, hello, lobby_rows, msg, side_pot_hand
from tui.app import CroupierApp
from tui.screens import AuthScreen
from tui.widgets.key_bar import KeyBar


def replay_app(messages: list[dict[str, Any]]) -> CroupierApp:
    async def connect() -> ReplayConnection:
        return ReplayConnection(list(messages))

    app = CroupierApp(connect, reconnect=False)
    app.strict = True  # type: ignore[attr-defined]
    return app


async def test_the_room_gate_window_tabs_to_the_invite_field_and_shows_the_whole_prompt() -> None:
    app = replay_app([{**hello(), "room": "Friday night", "needs": ["password", "invite"]}])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, AuthScreen), what="the gate window")
        await pilot.pause(0.1)
        screen = app.screen
        assert isinstance(screen, AuthScreen)
        password = screen.query_one("#auth-password", Input)
        assert password.has_focus
        await pilot.press("s", "w")
        await pilot.press("tab")
        assert screen.query_one("#auth-invite", Input).has_focus
        await pilot.press("F")
        assert screen.query_one("#auth-invite", Input).value == "F" and password.value == "sw"
        prompt = screen.query(Label).first()  # the prompt
        drawn = " ".join(prompt.render_line(row).text.strip() for row in range(prompt.size.height))
        invite = screen.query_one("#auth-invite", Input)
        assert invite.region.bottom <= app.size.height and invite.region.height >= 1  # on screen, not cut
        assert drawn == "Friday night asks for the room password and an invite code (your name is new here)."


TABLE = "holdem-1-2"
HAND = "holdem-1-2-9a611a-7"


async def my_turn(pilot: Any, messages: list[dict[str, Any]] | None = None) -> tuple[CroupierApp, Any]:
    """The app on the recorded side-pot hand (me to act on the turn, 100 behind), the table shown."""
    app = pilot.app
    await wait_until(pilot, lambda: TABLE in app.models and app.models[TABLE].needs_action, what="my turn")
    app.show_table(TABLE)
    await pilot.pause(0.2)
    view = app.view_of(TABLE)
    assert view is not None
    return app, view


def room_app(*extra: dict[str, Any], rows: list[dict[str, Any]] | None = None) -> CroupierApp:
    return replay_app([hello(), msg("lobby", tables=rows or lobby_rows()), *side_pot_hand(), *extra])


def sent(app: CroupierApp, kind: str) -> list[dict[str, Any]]:
    return [item for item in app.sent if item["type"] == kind]


def keys_shown(app: CroupierApp) -> list[tuple[str, str]]:
    return [(key, description) for key, description, _ in app.query_one(KeyBar).entries]


async def test_a_draw_shows_only_the_draw_controls() -> None:
    app = room_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        view.bar.legal = {"seat": 1, "can_fold": False, "can_check": False, "call_amount": None,
                          "min_raise_to": None, "max_raise_to": None, "max_discards": 5}
        await pilot.pause(0.1)
        shown = {widget.id for widget in view.query("ActionBar Button, ActionBar Input") if widget.display
                 and widget.parent is not None and widget.parent.display}
        assert {"fold", "call", "raise", "amount"}.isdisjoint(shown)
        assert not view.query_one("#sizing").display and view.query_one("#draw-row").display
        assert "draw" in shown and "card-0" in shown


async def test_a_letter_typed_in_the_amount_box_after_a_refused_amount_is_a_table_key() -> None:
    app = room_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        await pilot.press("e", "1", "0", "0", "0", "r")
        assert "between 2 and 100" in str(view.query_one("#error", Label).content)
        box = view.query_one("#amount", Input)
        assert box.has_focus and not sent(app, "action")
        await pilot.press("a")  # all-in: not swallowed by the box
        assert [(item["kind"], item.get("amount")) for item in sent(app, "action")] == [("bet", 100)]


async def test_pot_limit_says_pot_where_the_maximum_is_not_all_in() -> None:
    rows = [{**row, "structure": "pot_limit"} if row["id"] == TABLE else row for row in lobby_rows()]
    app = room_app(rows=rows)
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        view.bar.legal = {**(app.models[TABLE].legal or {}), "max_raise_to": 60}  # the pot, less than my 100
        await pilot.pause(0.1)
        assert str(view.query_one("#preset-6").label) == "6:pot"
        app.refresh_bindings()
        await pilot.pause(0.1)
        assert ("a", "Pot") in keys_shown(app) and ("a", "All-in") not in keys_shown(app)
        view.bar.legal = {**(app.models[TABLE].legal or {}), "max_raise_to": 100}  # everything I have
        await pilot.pause(0.1)
        assert str(view.query_one("#preset-6").label) == "6:all-in"


async def test_between_turns_the_bet_box_is_empty_and_c_says_what_i_face() -> None:
    bet = event(TABLE, HAND, "bet_placed", seat=3, to=30, added=30, all_in=False)
    app = room_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        await pilot.press("4")  # a pot-sized amount in the box, then I check
        assert view.query_one("#amount", Input).value != ""
        await pilot.press("c")
        await pilot.pause(0.1)
        assert view.query_one("#amount", Input).value == ""
        assert str(view.query_one("#call").label) == "Check (C)" and str(view.query_one("#raise").label) == "Bet (R)"
        model = app.models[TABLE]
        model.apply(event(TABLE, HAND, "checked", seat=1))
        model.apply(bet)  # carla bets 30 into me: C (not my turn yet) would call, and says so
        app._push(TABLE)
        await pilot.pause(0.1)
        assert str(view.query_one("#call").label) == "Call 30 (C)"
        assert str(view.query_one("#raise").label) == "Raise (R)"
        assert view.query_one("#amount", Input).value == ""


async def test_away_the_button_and_the_keys_say_i_m_back_and_bring_him_back() -> None:
    # his seat is freed far off: the plain away words, not the last minute's warning (test_away_warning)
    away = event(TABLE, HAND, "player_away", seat=1, player="me", seat_freed_at=1e12)
    app = room_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        model = app.models[TABLE]
        model.apply(away)
        model.seats[1].away = True  # as the room's next table snapshot says
        model.legal = None
        app._push(TABLE)
        await pilot.pause(0.2)
        assert str(view.query_one("#sit-out").label) == "I'm back (O)"
        seat_boxes = {box.info.name: box for box in view.query("SeatView") if box.info is not None}
        assert seat_boxes["me"].has_class("-away") and "away" in seat_boxes["me"].render().plain
        assert not seat_boxes["ana"].has_class("-away")  # every seat shows its own state
        assert "You are away" in str(view.query_one("#status").content)
        assert "I'm back" in str(view.query_one("#status").content)
        assert ("o", "I'm back") in keys_shown(app)
        await pilot.press("o")
        assert sent(app, "sit_out")[-1] == {"type": "sit_out", "table": TABLE, "on": False}
        await pilot.press("c")  # a table key while away: he is here, he is back
        assert len(sent(app, "sit_out")) == 2 and sent(app, "sit_out")[-1]["on"] is False
        model.seats[1].away = False
        app._push(TABLE)
        await pilot.pause(0.2)
        assert str(view.query_one("#sit-out").label) == "Sit out (O)" and ("o", "I'm back") not in keys_shown(app)
        assert "away" not in str(view.query_one("#status").content)


async def test_after_a_chat_line_is_sent_the_keys_are_the_table_s_again() -> None:
    app = room_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        await pilot.press("slash")
        chat = view.query_one("#chat-input", Input)
        assert chat.has_focus
        await pilot.press("h", "i", "enter")
        assert sent(app, "chat")[-1]["text"] == "hi"
        assert app.focused is view
        await pilot.press("c")  # checks: nothing typed into the chat
        assert chat.value == "" and sent(app, "action")[-1]["kind"] == "check"


async def test_a_top_up_asked_during_a_hand_is_sent_when_it_ends_and_results_say_you() -> None:
    from tui.screens import AmountScreen

    app = room_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app, _ = await my_turn(pilot)
        await pilot.press("f")  # folded: still in the hand for the room, which refuses a top-up until it ends
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, AmountScreen), what="the top-up window")
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert not sent(app, "top_up")
        assert any("added when this hand ends" in text for text in app.notices)
        model = app.models[TABLE]
        for message in [event(TABLE, HAND, "pot_awarded", pot_index=0, seat=1, amount=12, share="whole"),
                        event(TABLE, HAND, "hand_ended", stacks=[[1, 112]], rake=0),
                        msg("table", table=TABLE, seats=[{"seat": 1, "name": "me", "stack": 112}], max_seats=6,
                            waiting=[], hand_running=False)]:
            app.dispatch(message)
        await pilot.pause(0.1)
        assert sent(app, "top_up") == [{"type": "top_up", "table": TABLE, "amount": 88}]  # 100 asked, 12 won: max 200
        assert model.hands[-1].result == "you collect 12"
        assert "You win 12 from the main pot" in model.log


def test_a_stud_completion_is_logged_as_such_and_my_down_cards_look_apart() -> None:
    from tests.tui.test_player_words import stud_hand
    from tui.widgets.seat import seat_text

    model = stud_hand("seven_card_stud")  # bot1 brought in 2 on third street
    model.apply(event("s1", "s1-h-1", "raised", seat=2, to=4, added=4, all_in=False, full=True))
    assert model.log[-1] == "carla completes to 4" and model.seats[2].last_action == "complete"
    model.apply(event("s1", "s1-h-1", "raised", seat=0, to=8, added=8, all_in=False, full=True))
    assert model.log[-1] == "You raise to 8"
    assert "Dealt to you: Ah Kd (face down)" in model.log and "Dealt to you: 9c (face up)" in model.log
    mine = model.seats[0]
    assert mine.down_cards == ["Ah", "Kd"]
    text = seat_text(mine, 30, mine=True)
    styles = {text.plain[span.start:span.end]: str(span.style) for span in text.spans}
    assert "grey" in styles["A♥"] and "grey" in styles["K♦"] and "white" in styles["9♣"]  # down vs up
    assert "A♥ K♦ 9♣" in text.plain  # spaced while they fit
    assert "raise 8" in text.plain and "bet 8" not in text.plain


async def test_a_watcher_sees_only_what_he_can_use() -> None:
    watched = [msg("table", table=TABLE, seats=[{"seat": 0, "name": "ana", "stack": 60},
                                                {"seat": 3, "name": "carla", "stack": 180}],
                   max_seats=6, waiting=[], hand_running=False)]
    app = replay_app([hello(), msg("lobby", tables=lobby_rows())])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: bool(app.lobby_rows), what="the lobby")
        app.open_table(TABLE, sit=False)
        await wait_until(pilot, lambda: TABLE in app.models, what="the watched table")
        for message in watched:
            app.dispatch(message)
        app.show_table(TABLE)
        await pilot.pause(0.3)
        view = app.view_of(TABLE)
        assert view is not None
        acting = [widget.id for widget in view.query("ActionBar Button, ActionBar Input, ActionBar Checkbox")
                  if widget.visible and widget.display and widget.parent is not None and widget.parent.display
                  and widget.region.area]
        assert acting == []
        assert view.query_one("#clock").display  # the turn clock (and the time bank) still shows
        shown = [button.id for button in view.query("#controls Button") if button.display]
        assert shown == ["sit-down", "leave"] and str(view.query_one("#leave").label) == "Close (X)"
        keys = keys_shown(app)
        assert ("j", "Sit down") in keys and ("x", "Close") in keys
        assert not {"Fold", "Check/Call", "Raise", "All-in", "Leave"} & {description for _, description in keys}
        await pilot.press("j")
        from tui.screens import AmountScreen
        await wait_until(pilot, lambda: isinstance(app.screen, AmountScreen), what="the buy-in window")


async def test_stud_has_no_wait_bb_and_the_key_bar_fits_80_columns() -> None:
    stud_row = {**lobby_rows()[0], "id": "s1", "name": "Stud 2/4", "game": "seven_card_stud",
                "structure": "fixed_limit", "stakes": [2, 4]}
    seats = msg("table", table="s1", seats=[{"seat": 0, "name": "me", "stack": 100},
                                            {"seat": 1, "name": "bob", "stack": 100}],
                max_seats=8, waiting=[], hand_running=False)
    app = replay_app([hello(), msg("lobby", tables=[stud_row]), seats])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "s1" in app.models and app.models["s1"].game == "seven_card_stud",
                         what="the stud table")
        app.show_table("s1")
        await pilot.pause(0.3)
        view = app.view_of("s1")
        assert view is not None and not view.query_one("#wait-bb").display
        bar = app.query_one(KeyBar)
        assert "f Fold" not in bar.render().plain  # between hands: nothing to bet with (issue 27)
        model = app.models["s1"]  # my turn on fourth street: every betting key on the bar
        model.hand_running = True
        model.legal = {"seat": 0, "can_fold": True, "call_amount": 4, "min_raise_to": 8, "max_raise_to": 8}
        app._push("s1")
        await wait_until(pilot, lambda: "f Fold" in bar.render().plain, what="the betting keys")
        drawn = bar.render().plain
        assert len(drawn) <= 80 and drawn.rstrip().endswith("^p palette"), drawn
        words = drawn.split()
        for key, description in (("f", "Fold"), ("c", "Check/Call"), ("r", "Raise"), ("a", "Max"), ("x", "Leave")):
            assert f"{key} {description}" in drawn  # every table key whole; app-wide keys give way first
        shown = [(key, description) for key, description, _ in bar.entries if f"{key} {description} " in drawn]
        assert len(" ".join(f"{key} {description}" for key, description in shown)) <= len(" ".join(words))


async def test_a_tournament_seat_has_no_top_up_wait_bb_or_sit_down() -> None:
    # a cash seat offers them; at a tournament table the director seats and stacks players (new user's report:
    # U said "already at the table maximum (0)", and after busting J opened a 1–1 chips buy-in window)
    row = {**lobby_rows()[0], "id": "t1", "name": "Sit & Go sng · table 1"}

    def seats(kind: str, seated: bool) -> dict[str, Any]:
        players = [{"seat": 0, "name": "me", "stack": 1500}] if seated else []
        return {**msg("table", table="t1", seats=[*players, {"seat": 1, "name": "bob", "stack": 1500}],
                      max_seats=6, waiting=[], hand_running=False), "kind": kind}

    for kind, offered in (("cash", True), ("tournament", False)):
        app = replay_app([hello(), msg("lobby", tables=[row]), seats(kind, True)])
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_until(pilot, lambda shown=app: "t1" in shown.models and bool(shown.models["t1"].seats),  # type: ignore[misc]
                             what="the table")
            app.show_table("t1")
            await pilot.pause(0.3)
            view = app.view_of("t1")
            assert view is not None and app.models["t1"].kind == kind
            assert [view.key_state(key) for key in ("top_up", "wait_big_blind")] == [offered, offered]
            assert [view.query_one(f"#{button}").display for button in ("top-up", "wait-bb")] == [offered, offered]
            app.models["t1"].apply(seats(kind, False))  # out of it (busted, or stood up): sit down again?
            view.watch_model(app.models["t1"])
            await pilot.pause(0.1)
            assert view.key_state("sit_down") is offered


def my_preflop_turn() -> list[dict[str, Any]]:
    """The hand of :func:`side_pot_hand` at 1/2 until my first turn, before the flop: 4 to raise to, no call."""
    return [
        *side_pot_hand()[:10],
        event(TABLE, HAND, "turn_started", seat=1, player="me", started_at=100.0, deadline=120.0),
        msg("action_request", table=TABLE, hand=HAND, seat=1,
            legal={"seat": 1, "can_fold": True, "can_check": False, "call_amount": 0, "min_raise_to": 4,
                   "max_raise_to": 200, "is_bet": False}, deadline=20.0)]


async def test_pre_flop_presets_in_big_blinds() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *my_preflop_turn()])
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        labels = [str(button.label) for button in view.query("#sizing Button") if button.display]
        assert labels == ["1:½", "2:⅔", "3:¾", "4:pot", "5:min", "6:all-in", "7:2BB", "8:2.5BB", "9:3BB"]
        await pilot.click("#view-holdem-1-2 #preset-8")
        assert view.query_one("#amount", Input).value == "5"  # 2.5 big blinds of 2
        await pilot.click("#view-holdem-1-2 #preset-9")
        assert view.query_one("#amount", Input).value == "6"
        model = app.models[TABLE]
        model.apply(event(TABLE, HAND, "board_dealt", street="flop", cards=["Qs", "Jd", "4c"],
                          board=["Qs", "Jd", "4c"]))
        app._push(TABLE)
        await pilot.pause(0.1)
        assert not [button for button in view.query(".preflop-preset") if button.display]  # after the flop: pot sizes


async def test_a_new_level_mid_hand_leaves_the_big_blind_presets_at_the_hand_s_blinds() -> None:
    """Seen at a fast-fold pool: `level zoom --blinds 2/4` during a 1/2 hand updated the pool's lobby row at once,
    and key 7 (2BB) put 8 in the box, key 9 (3BB) 12: big blinds of the next hand's level, not of the hand
    being played (it posted 2). The presets count the running hand's big blind; the next hand, the new one."""
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *my_preflop_turn()])
    async with app.run_test(size=(120, 36)) as pilot:
        app, view = await my_turn(pilot)
        raised = [{**row, "stakes": [2, 4]} if row["id"] == TABLE else row for row in lobby_rows()]
        app.dispatch(msg("lobby", tables=raised))  # the host's new level, from the next hand
        app._push(TABLE)
        await pilot.pause(0.1)
        await pilot.click("#view-holdem-1-2 #preset-7")
        assert view.query_one("#amount", Input).value == "4"  # two big blinds of this hand's 2
        await pilot.click("#view-holdem-1-2 #preset-9")
        assert view.query_one("#amount", Input).value == "6"


async def test_a_fast_fold_table_offers_no_wait_for_the_big_blind() -> None:
    """Issue 27 leftover: a pool's table showed "Wait BB" and B toggled it. A pool deals each hand afresh at the
    table it picks, the blinds following the players (R-FAST-1): there is no big blind to wait for. Its chips
    still top up (the pool keeps the top-up)."""
    pool_row = {**lobby_rows()[0], "id": "zoom", "name": "Zoom", "kind": "pool"}
    seated = {**msg("table", table="zoom.1", seats=[{"seat": 0, "name": "me", "stack": 200},
                                                    {"seat": 1, "name": "bob", "stack": 200}],
                    max_seats=6, waiting=[], hand_running=False), "kind": "pool"}
    app = replay_app([hello(), msg("lobby", tables=[], pools=[pool_row]), seated])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "zoom.1" in app.models and bool(app.models["zoom.1"].seats),
                         what="the pool's table")
        app.show_table("zoom.1")
        await pilot.pause(0.3)
        view = app.view_of("zoom.1")
        assert view is not None and app.models["zoom.1"].kind == "pool"
        assert [view.key_state(key) for key in ("wait_big_blind", "top_up")] == [False, True]
        assert view.query_one("#wait-bb").display is False
