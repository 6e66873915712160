"""The client's table model on recorded protocol messages, the amount rules of the action bar, and the app's
palette, help, themes, four-colour deck, compact layout and fairness badges (no room needed)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Button, Checkbox

from hosting.hand_codec import kind_of
from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, event, finished_hand, hello, lobby_rows, msg, side_pot_hand
from tui.app import CroupierApp
from tui.connection import HandsSeen, Participant, fairness_verdicts
from tui.model import TableModel
from tui.presets import parse_preset
from tui.screens import HelpScreen
from tui.widgets.action_bar import ActionBar, check_amount
from tui.widgets.cards import card_text
from tui.widgets.felt import BoardView, places_for
from tui.widgets.hand_log import HandLog, badge
from tui.widgets.table_view import TableView


def model_after(messages: list[dict[str, Any]], table: str = "holdem-1-2") -> TableModel:
    model = TableModel(table, "me")
    for message in messages:
        model.apply(message, now=100.0)
    return model


def test_side_pots_of_the_recorded_hand_match_r_pot_1() -> None:
    model = model_after(side_pot_hand())
    # ana 60, me 100, bruno 25, carla 100 in: main 4×25, side 3×35 (ana, me, carla), side 2×40 (me, carla)
    assert model.pots() == [(100, (0, 1, 2, 3)), (105, (0, 1, 3)), (80, (1, 3))]
    assert model.pot_total == 285
    assert {seat: info.stack for seat, info in model.seats.items()} == {0: 0, 1: 100, 2: 0, 3: 80}
    assert sum(info.stack for info in model.seats.values()) + model.pot_total == 465  # chips conserved
    assert model.seats[0].all_in and model.seats[2].all_in and not model.seats[1].all_in
    assert model.needs_action and model.legal_hand == "holdem-1-2-9a611a-7"
    assert (model.button_seat, model.small_blind_seat, model.big_blind_seat) == (3, 0, 1)
    assert model.seats[1].cards == ["Ah", "Kd"] and model.seats[3].face_down == 2


def test_bets_of_the_current_round_are_not_yet_in_a_pot() -> None:
    model = model_after(side_pot_hand()[:13])  # preflop: bruno all-in for 25, ana all-in for 60, not called yet
    assert model.pots() == []
    assert [model.seats[seat].bet for seat in range(4)] == [60, 2, 25, 25]
    assert model.pot_total == 112


def test_a_finished_hand_gets_its_fairness_badge() -> None:
    model = model_after(finished_hand("t1", "t1-h-1") + finished_hand("t1", "t1-h-2", verified=False), "t1")
    assert [(summary.hand_id, summary.fairness) for summary in model.hands] == [("t1-h-1", True), ("t1-h-2", False)]
    assert badge(model.hands[0]).plain == "✔ verified" and badge(model.hands[1]).plain == "✘ VIOLATION"
    assert model.hands[0].result == "seat 2 collects 2"
    assert model.log[-1] == "FAIRNESS VIOLATION on hand t1-h-2: board card 1 is not where the deck says"


def test_other_players_claims_are_claims_rate_limited_and_only_my_own_check_is_the_alarm() -> None:
    """Issue 25 item 9: another player's failed check (relayed by the room) marked my hand ✘ VIOLATION and raised
    the alarm on every report; now it is his claim beside my own verdict, one notice a minute per table."""
    model = TableModel("t1", "me")
    for message in finished_hand("t1", "t1-h-12"):
        model.apply(message, now=100.0)
    claim = msg("verification_result", table="t1", hand="t1-h-12", name="ana", ok=False,
                violations=[{"kind": "card_mismatch"}])
    model.apply(claim, now=101.0)
    mine = model.hands[-1]
    assert (mine.fairness, mine.violations, mine.claims) == (True, [], ["ana: card mismatch"])
    assert badge(mine).plain == "✔ verified · 1 claim(s)"
    assert model.alarm == ""
    assert model.claim == ("ana reports a problem with hand #12; your own check passed — details in the hand "
                           "history (V)")
    for number, now in ((13, 120.0), (14, 140.0)):  # within the minute: kept with the hands, no notice
        model.apply({**claim, "hand": f"t1-h-{number}"}, now=now)
        assert model.claim == "" and model.alarm == ""
    assert [summary.claims for summary in model.hands[-2:]] == [["ana: card mismatch"], ["ana: card mismatch"]]
    assert all(summary.fairness is None for summary in model.hands[-2:])  # not my verdict: still checking
    model.apply({**claim, "hand": "t1-h-15"}, now=161.5)
    assert model.claim.startswith("ana reports a problem with hand #15; your own check is still running")
    for message in finished_hand("t1", "t1-h-16", verified=False):  # my own check fails: that is the alarm
        model.apply(message, now=170.0)
    assert model.alarm == "FAIRNESS VIOLATION: your own check failed on hand #16"


def test_a_replayed_hand_after_a_reconnect_is_not_counted_twice() -> None:
    messages = side_pot_hand()[:13]
    hand_events = [message for message in messages if message.get("type") == "event"]
    model = model_after(messages + hand_events)  # the room's resync replays the running hand from its start
    once = model_after(messages)
    bets = [model.seats[seat].bet for seat in range(4)]
    assert bets == [once.seats[seat].bet for seat in range(4)] == [60, 2, 25, 25]
    assert model.pot_total == once.pot_total == 112
    assert {seat: info.stack for seat, info in model.seats.items()} == {s: i.stack for s, i in once.seats.items()}
    assert model.seats[1].cards == once.seats[1].cards == ["Ah", "Kd"]
    assert len(model.hands) == len(once.hands) == 1 and model.hand_number == once.hand_number
    # the log says each thing once, plus one line saying the hand was replayed after the reconnect
    assert model.log == [*once.log[:1], "(reconnected: the hand so far, as the room replays it)", *once.log[1:]]
    assert model.log.count("Dealt to you: Ah Kd") == 1 and model.log.count("bruno raises to 25 (all-in)") == 1


def once_each(messages: list[dict[str, Any]]) -> list[str]:
    return model_after(messages, "t1").log[:6]


def test_replay_after_reconnect_keeps_earlier_hands_lines() -> None:
    first = finished_hand("t1", "t1-h-1")
    running = [event("t1", "t1-h-2", "hand_started", variant="texas_holdem", structure="no_limit", button_seat=1,
                     stacks=[[0, 199], [1, 201]]),
               event("t1", "t1-h-2", "blind_posted", kind="small_blind", seat=1, amount=1, live=True, all_in=False),
               event("t1", "t1-h-2", "blind_posted", kind="big_blind", seat=0, amount=2, live=True, all_in=False)]
    model = model_after(first + running + running, "t1")
    assert model.log[:6] == once_each(first)  # hand 1's lines are all kept
    assert model.log[6:] == ["── hand 2 (t1-h-2) ──", "(reconnected: the hand so far, as the room replays it)",
                              "seat 2 posts the small blind 1", "seat 1 posts the big blind 2"]
    assert model.hands[0].fairness is True and [summary.hand_id for summary in model.hands] == ["t1-h-1", "t1-h-2"]


def test_a_table_opened_mid_hand_logs_that_hand_as_joined_late_without_wrong_pots() -> None:
    table, hand = "holdem-1-2", "holdem-1-2-9a611a-7"
    recorded = side_pot_hand(table, hand)
    late = [recorded[0], *recorded[16:19]]  # the snapshot, then from the flop's betting on
    model = model_after([*late, msg("fairness", table=table, hand=hand, ok=True, violations=[], joined_late=True),
                         *finished_hand(table, "holdem-1-2-9a611a-8")])
    assert [(summary.number, summary.hand_id, summary.verdict) for summary in model.hands] == [
        (7, hand, "verified (joined late)"), (8, "holdem-1-2-9a611a-8", "verified")]  # the table's numbers
    assert model.log[:3] == [f"── hand 7 ({hand}) ──", "(joined during this hand: what happened before is not shown)",
                             "You check"]
    assert not model.joined_mid_hand  # the next hand is seen whole
    partial = model_after(late)
    assert partial.joined_mid_hand and partial.hand_running and partial.pot_total == 40  # only carla's bet seen
    board = BoardView()
    board.model = partial
    assert "joined mid-hand: pots from the next hand" in board.render().plain
    assert "pot total" not in board.render().plain


def test_the_first_hand_s_button_draw_is_not_a_hand_joined_mid_way() -> None:
    messages = finished_hand("t1", "t1-h-1")
    model = model_after([event("t1", "t1-h-1", "button_drawn", button_seat=0), *messages], "t1")
    assert model.log == model_after(messages, "t1").log and not model.joined_mid_hand
    assert model.hand_number == 1


def test_a_hand_joined_late_says_so_on_its_badge() -> None:
    late = finished_hand("t1", "t1-h-1")
    late[-1] = {**late[-1], "joined_late": True}
    model = model_after(late + finished_hand("t1", "t1-h-2"), "t1")
    assert [summary.verdict for summary in model.hands] == ["verified (joined late)", "verified"]
    assert badge(model.hands[0]).plain == "✔ verified (joined late)" and badge(model.hands[1]).plain == "✔ verified"


def test_hands_seen_tells_a_hand_joined_late_and_keeps_its_cards_from_the_check() -> None:
    seen = HandsSeen()

    def feed(message: dict[str, Any]) -> bool:
        seen.note(message)
        return seen.for_participant(message)

    start, flop = event("t1", "h1", "hand_started", button_seat=0), event("t1", "h1", "board_dealt", cards=["Qs"])
    # watched from its commitments and its start: every event goes to the check, the full verdict
    assert feed(msg("commitments", table="t1", hand="h1", commitments={})) and feed(start) and feed(flop)
    assert not seen.joined_late(msg("seeds", table="t1", hand="h1"))
    # dealt in (commit request) and replayed from its start after a reconnect: the full verdict too; the
    # first hand's button draw (a table event with the hand's id) comes before its start
    assert feed(msg("commit_request", table="t1", hand="h2", seat=0))
    assert feed(event("t1", "h2", "button_drawn", button_seat=1))
    assert feed(event("t1", "h2", "hand_planned", button_seat=1)) and feed(event("t1", "h2", "folded", seat=0))
    assert not seen.joined_late(msg("seeds", table="t1", hand="h2"))
    # opened between the commitments and the deal: its cards are placed, but the badge says joined late
    assert feed(event("t1", "h3", "hand_started", button_seat=0))
    assert seen.joined_late(msg("seeds", table="t1", hand="h3"))
    # opened after the deal: what it sees cannot be placed in the deck, so the check gets none of it
    assert feed(msg("commitments", table="t2", hand="h4", commitments={}))
    assert not feed(event("t2", "h4", "board_dealt", cards=["Qs", "Jd", "4c"]))
    assert not feed(event("t2", "h4", "hand_started", button_seat=0))  # its start came too late
    assert feed(msg("seeds", table="t2", hand="h4", transcript={}))
    assert seen.joined_late(msg("seeds", table="t2", hand="h4"))


class RecordingParticipant:
    """Stands in for hosting.client.FairnessParticipant: records what it is handed, verifies every hand."""

    def __init__(self) -> None:
        self.handed: list[dict[str, Any]] = []
        self.results: dict[tuple[str, str], Any] = {}

    def handle(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        self.handed.append(message)
        if message.get("type") == "seeds":
            from engine.fairness import Verification

            self.results[(message["table"], message["hand"])] = Verification(violations=())
        return []


def test_every_transport_s_participant_gets_only_what_it_can_place() -> None:
    inner = RecordingParticipant()
    guarded = Participant(inner)  # type: ignore[arg-type]
    late = [msg("commitments", table="t1", hand="h1", commitments={}),
            event("t1", "h1", "board_dealt", cards=["Qs", "Jd", "4c"]), msg("seeds", table="t1", hand="h1")]
    from_start = [msg("commitments", table="t1", hand="h2", commitments={}),
                  event("t1", "h2", "hand_started", button_seat=0), msg("seeds", table="t1", hand="h2")]
    verdicts = []
    for message in late + from_start:
        guarded.handle(message)
        verdicts += fairness_verdicts(guarded, message)
    assert [kind_of(message["event"]) for message in inner.handed if message["type"] == "event"] == [
        "hand_started"]  # the flop of h1 (seen after its deal) never reached the check
    assert [(verdict["hand"], verdict["ok"], verdict["joined_late"]) for verdict in verdicts] == [
        ("h1", True, True), ("h2", True, False)]


def test_time_banks_are_kept_per_seat_and_split_off_the_turn() -> None:
    model = model_after([*side_pot_hand(),
                         event("holdem-1-2", "holdem-1-2-9a611a-7", "time_bank_used", seat=3, player="carla",
                               seconds=12.0, left=48.0, disconnection=False),
                         event("holdem-1-2", "holdem-1-2-9a611a-7", "time_bank_used", seat=0, player="ana",
                               seconds=30.0, left=5.0, disconnection=True)])
    assert model.time_banks == {3: 48.0} and model.time_bank is None  # carla's bank is not mine
    assert model.log[-1] == "ana uses the disconnection bank (5s left)"
    assert model.log[-2] == "carla uses the time bank (48s left)"
    model.to_act, model.turn_seconds, model.turn_started = 3, 68.0, 100.0
    assert model.turn_clock(now=110.0) == (10.0, 20.0, 48.0)  # 20 s to act, then carla's 48 s of bank
    assert model.turn_clock(now=130.0) == (0.0, 20.0, 38.0)
    model.to_act = 1  # my bank is unknown (the room has not said): one bar for the whole turn
    assert model.turn_clock(now=110.0) == (58.0, 68.0, None)
    model.clock = {"action_seconds": 20.0, "time_bank_seconds": 48.0}  # a room that sends its clock
    assert model.turn_clock(now=110.0) == (10.0, 20.0, 48.0)


def test_presets_are_pot_fractions_bounded_by_the_legal_range() -> None:
    legal = {"call_amount": 10, "min_raise_to": 20, "max_raise_to": 100}
    # facing 10 into a pot of 30: call 10 makes 40; a pot raise is to 10 + 40 = 50, half pot to 10 + 20 = 30
    def amount(text: str, legal: dict[str, int] = legal) -> int | None:
        return parse_preset(text).amount(legal, pot=30, my_bet=0, big_blind=2)

    assert amount("pot") == 50
    assert amount("1/2") == 30
    assert amount("1/4") == 20  # below the minimum: the minimum
    assert amount("3 pot") == 100  # above the maximum: all-in
    assert amount("min") == 20 and amount("max") == 100
    assert amount("pot", {"call_amount": 10}) is None


def test_typed_amounts_are_checked_before_anything_is_sent() -> None:
    legal = {"min_raise_to": 4, "max_raise_to": 200}
    assert check_amount(" 1,000 ", {"min_raise_to": 4, "max_raise_to": 2000}) == (1000, "")
    assert check_amount("201", legal) == (None, "the amount must be between 4 and 200")
    assert check_amount("abc", legal) == (None, "type a whole number of chips between 4 and 200")
    assert check_amount("10", {"call_amount": 2}) == (None, "you cannot bet or raise now")


def test_cards_and_seat_places() -> None:
    assert card_text("Ah").plain == "A♥" and "red" in str(card_text("Ah").style)
    assert "blue" in str(card_text("Td", four_colour=True).style)
    assert "green" in str(card_text("2c", four_colour=True).style)
    assert card_text("??").plain == "▒▒"
    places = places_for(6, my_seat=3)
    assert places[3] == 0 and len(set(places.values())) == 6


def replay_app(messages: list[dict[str, Any]]) -> CroupierApp:
    async def connect() -> ReplayConnection:
        return ReplayConnection(messages)

    app = CroupierApp(connect, clock=lambda: 100.0)
    app.strict = True  # type: ignore[attr-defined]
    return app


async def test_palette_help_themes_four_colours_and_compact_layout() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "holdem-1-2" in app.models and app.models["holdem-1-2"].needs_action,
                         what="the recorded hand")
        assert app.screen.has_class("-compact")
        app.show_table("holdem-1-2")
        await pilot.pause()
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("ctrl+p")
        await pilot.press(*"four-colour")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.four_colour, what="four-colour deck from the palette")
        await pilot.press("ctrl+p")
        await pilot.press(*"high-contrast")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.theme == "croupier-high-contrast", what="high-contrast theme")
        await pilot.press("ctrl+p")
        await pilot.press(*"check or call")
        await pilot.pause(0.3)
        await pilot.press("enter")
        connection = app.connection
        assert isinstance(connection, ReplayConnection)
        await wait_until(pilot, lambda: any(item["type"] == "action" for item in connection.sent),
                         what="an action from the palette")
        assert [item for item in connection.sent if item["type"] == "action"] == [
            {"type": "action", "table": "holdem-1-2", "hand": "holdem-1-2-9a611a-7", "kind": "check"}]
        await pilot.resize_terminal(140, 45)
        await pilot.pause()
        assert not app.screen.has_class("-compact")
        assert app.query_one("#view-holdem-1-2 HandLog", HandLog).display
        assert app.internal_errors == []


def test_a_blind_is_read_from_the_typed_event() -> None:
    model = model_after([event("t1", "h1", "hand_started", variant="texas_holdem", structure="no_limit",
                               button_seat=0, stacks=[[0, 100], [1, 100]]),
                         msg("event", table="t1", hand="h1", event={"event": "blind_posted", "seat": 1,
                                                                    "kind": "big_blind", "amount": 2})],
                        "t1")
    assert model.big_blind_seat == 1 and model.seats[1].bet == 2 and model.seats[1].stack == 98
    assert model.log[-1] == "seat 2 posts the big blind 2"


async def test_room_notices_are_shown_and_a_finished_hand_can_be_reported() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), msg("notice", text="Welcome back, me."),
                      msg("table", table="t1", seats=[{"seat": 1, "name": "me", "stack": 200, "sitting_out": False,
                                                       "away": False, "wait_for_big_blind": False}],
                          max_seats=2, waiting=[], hand_running=False),
                      *finished_hand("t1", "t1-h-1")])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "room: Welcome back, me." in app.notices, what="the room's notice")
        await wait_until(pilot, lambda: "t1" in app.models and app.models["t1"].hands, what="the hand")
        app.show_table("t1")
        await pilot.pause(0.2)
        app.report_last_hand()
        connection = app.connection
        assert isinstance(connection, ReplayConnection)
        await wait_until(pilot, lambda: any(item["type"] == "report_hand" for item in connection.sent),
                         what="the report")
        report = next(item for item in connection.sent if item["type"] == "report_hand")
        assert report == {"type": "report_hand", "hand": "t1-h-1", "reason": "reported from the table"}


def showdown_request(table: str = "holdem-1-2", hand: str = "holdem-1-2-9a611a-7") -> list[dict[str, Any]]:
    """The recorded hand, then the river checked through and the room asking me to show or muck."""
    return [*side_pot_hand(table, hand)[:-2],
            event(table, hand, "checked", seat=1), event(table, hand, "checked", seat=3),
            event(table, hand, "board_dealt", street="river", cards=["2d"], board=["Qs", "Jd", "4c", "Tc", "2d"]),
            event(table, hand, "checked", seat=1), event(table, hand, "checked", seat=3),
            msg("action_request", table=table, hand=hand, seat=1,
                legal={"seat": 1, "can_fold": False, "can_check": False, "call_amount": None, "min_raise_to": None,
                       "max_raise_to": None, "is_bet": False, "bring_in_amount": None, "max_discards": None,
                       "can_show": True, "can_muck": True}, deadline=20.0)]


async def test_show_or_muck_with_the_key_or_the_mouse() -> None:
    for choose in ("key", "mouse"):
        app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *showdown_request()])
        async with app.run_test(size=(120, 36)) as pilot:
            model = await shown_table(pilot, app)
            view = app.query_one("#view-holdem-1-2", TableView)
            bar = view.query_one(ActionBar)
            assert bar.query_one("#show", Button).display and bar.query_one("#muck", Button).display
            assert all(bar.query_one(f"#{name}", Button).disabled for name in ("fold", "call", "raise"))
            if choose == "key":
                view.focus()
                await pilot.press("m")
            else:
                await pilot.click("#view-holdem-1-2 #show")
            connection = app.connection
            assert isinstance(connection, ReplayConnection)
            await wait_until(pilot, lambda sent=connection.sent: any(item["type"] == "action" for item in sent),
                             what="sent")
            assert [item for item in connection.sent if item["type"] == "action"] == [
                {"type": "action", "table": "holdem-1-2", "hand": "holdem-1-2-9a611a-7",
                 "kind": "muck" if choose == "key" else "show"}]
            assert not model.needs_action
            assert app.internal_errors == []


async def shown_table(pilot: Any, app: CroupierApp, table: str = "holdem-1-2") -> TableModel:
    await wait_until(pilot, lambda: table in app.models and app.models[table].needs_action, what="the recorded turn")
    app.show_table(table)
    await pilot.pause(0.1)
    return app.models[table]


async def test_pre_action_boxes_belong_to_the_betting_round_they_were_ticked_in() -> None:
    table, hand = "holdem-1-2", "holdem-1-2-9a611a-7"
    recorded = side_pot_hand(table, hand)
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *recorded[:-2],
                      event(table, hand, "checked", seat=1),
                      event(table, hand, "turn_started", seat=3, player="carla", started_at=100.0, deadline=120.0)])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: table in app.models and app.models[table].to_act == 3, what="carla's turn")
        app.show_table(table)
        await pilot.pause(0.1)
        view = app.query_one(f"#view-{table}", TableView)
        bar = view.query_one(ActionBar)
        view.focus()
        await pilot.press("c")  # not my turn: C ticks "call any"
        assert bar.query_one("#pre-call-any", Checkbox).value
        # ticked or not reads without colour: ✓ or blank
        assert bar.query_one("#pre-call-any", Checkbox).render().plain.startswith("▐✓▌")
        assert bar.query_one("#pre-fold", Checkbox).render().plain.startswith("▐ ▌")
        await pilot.click(f"#view-{table} #pre-fold")  # one box at a time
        assert bar.query_one("#pre-fold", Checkbox).value and not bar.query_one("#pre-call-any", Checkbox).value
        # carla bets, I would fold to it: but the river comes first (she checked): the box is gone with the turn
        app.dispatch(event(table, hand, "checked", seat=3))
        app.dispatch(event(table, hand, "board_dealt", street="river", cards=["2d"],
                           board=["Qs", "Jd", "4c", "Tc", "2d"]))
        app.dispatch(event(table, hand, "betting_round_started", round_index=3, street="river", pot=285))
        await pilot.pause(0.1)
        assert not any(box.value for box in bar.query("#pre-actions Checkbox").results(Checkbox))
        # folded, I am out of the hand: the boxes are greyed and F ticks nothing
        app.dispatch(event(table, hand, "folded", seat=1, left_table=False))
        await pilot.pause(0.1)
        assert all(box.disabled for box in bar.query("#pre-actions Checkbox").results(Checkbox))
        view.focus()
        await pilot.press("f")
        assert not any(box.value for box in bar.query("#pre-actions Checkbox").results(Checkbox))
        assert app.internal_errors == []


async def test_every_key_is_also_in_the_command_palette_and_lobby_filters_run_from_it() -> None:
    from textual.widgets import DataTable

    from tui.widgets.lobby import Lobby

    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()])
    async with app.run_test(size=(120, 36)) as pilot:
        await shown_table(pilot, app)
        titles = {command.title for command in app.get_system_commands(app.screen)}
        by_key = {  # every key of the footer and the help screen → its palette command
            "f": "Fold", "c": "Check or call", "r": "Bet or raise", "a": "All-in",
            **{str(number): f"Bet size {number}" for number in range(1, 10)}, "$": "Bet sizes",
            "e": "Type an amount", "d": "Draw or stand pat", "p": "Split", "s": "Show cards", "m": "Muck cards",
            "o": "Sit out / sit in", "b": "Wait for big blind", "u": "Top-up", "x": "Leave table",
            "/": "Chat at this table", "n": "Jump to waiting table", "t": "Tabs / tiles", "l": "Lobby",
            "h": "Hand log and chat", "k": "Four-colour deck", "?": "Keys", "ctrl+right": "Next table",
            "ctrl+left": "Previous table", "F (not your turn)": "Pre-action: check/fold",
            "C (not your turn)": "Pre-action: call any", "(box)": "Pre-action: fold to any bet",
            "lobby s": "Lobby: sort by the next column", "lobby r": "Lobby: reverse the order",
            "lobby g": "Refresh lobby", "lobby p": "Play-money refill", "lobby j": "Join Hold'em 1/2 NL (Hold'em 1/2)",
            "lobby w": "Watch Hold'em 1/2 NL (Hold'em 1/2)", "hide full": "Lobby: hide full tables",
            "hide empty": "Lobby: hide empty tables", "game": "Lobby: only Omaha", "stakes": "Lobby: only stakes 5/10",
        }
        assert {key: title for key, title in by_key.items() if title not in titles} == {}
        # a pre-action from the palette: carla is to act after my check
        app.dispatch(event("holdem-1-2", "holdem-1-2-9a611a-7", "checked", seat=1))
        app.dispatch(event("holdem-1-2", "holdem-1-2-9a611a-7", "turn_started", seat=3, player="carla",
                           started_at=100.0, deadline=120.0))
        app.models["holdem-1-2"].legal = None
        app.dispatch(msg("table", table="holdem-1-2", seats=[], max_seats=6, waiting=[], hand_running=True)
                     | {"seats": [{"seat": seat, "name": info.name, "stack": info.stack, "sitting_out": False,
                                   "away": False, "wait_for_big_blind": False}
                                  for seat, info in app.models["holdem-1-2"].seats.items()]})
        await pilot.pause(0.1)
        for title, box in (("fold to any", "#pre-fold"), ("hide full", None), ("stakes 5/10", None)):
            await pilot.press("ctrl+p")
            await pilot.press(*title)  # enough of "Pre-action: fold to any bet", "Lobby: hide full tables", …
            await pilot.pause(0.3)
            await pilot.press("enter")
            await pilot.pause(0.2)
            if box is not None:
                assert app.query_one(f"#view-holdem-1-2 {box}", Checkbox).value
        grid = app.query_one(Lobby).query_one(DataTable)
        assert app.query_one("#lobby-pane").display
        rows = [str(grid.coordinate_to_cell_key((row, 0)).row_key.value) for row in range(grid.row_count)]
        assert rows == ["omaha-5-10"]  # 5/10 and not full (Hold'em 5/10 is 9/9)
        assert app.internal_errors == []
