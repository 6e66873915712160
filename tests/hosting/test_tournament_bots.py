"""A tournament bot's answers (hosting.tournament_bots): it declines a rebuy offered to it, accepts an ICM deal and
declines an equal or chip deal, counts its moves, place, prize and bounties, and stops at the tournament's end;
a refused move is noted and replaced by a check or fold. Over a fake connection: the room's own runs are in
test_practice_tournament and the SSH room test."""

from __future__ import annotations

import random
from typing import Any

from hosting.tournament_bots import TournamentBot, event_name


class Recorder:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, message_type: str, **fields: Any) -> None:
        self.sent.append({"type": message_type} | fields)


async def _nothing() -> dict[str, Any]:
    raise AssertionError("not read in this test")


def tournament_event(name: str, **fields: Any) -> dict[str, Any]:
    return {"type": "tournament_event", "tournament": "t", "event": {"event": name} | fields}


async def test_answers_and_report() -> None:
    connection = Recorder()
    bot = TournamentBot("ana", connection, _nothing, "t", rng=random.Random(1))
    await bot.register()
    messages = [
        tournament_event("registered", player="ana", entry=1),
        tournament_event("player_moved", player="ana", entry=1, from_table=1, to_table=2, seat=3),
        tournament_event("player_moved", player="bob", entry=2, from_table=1, to_table=2, seat=4),
        tournament_event("rebuy_offered", player="ana", entry=1),
        tournament_event("rebuy_offered", player="bob", entry=2),
        tournament_event("deal_proposed", proposer="bob", kind="icm", shares=[["ana", 60], ["bob", 40]]),
        tournament_event("deal_proposed", proposer="bob", kind="equal", shares=[["ana", 50], ["bob", 50]]),
        tournament_event("deal_proposed", proposer="ana", kind="chips", shares=[["ana", 70], ["bob", 30]]),
        tournament_event("bounty_won", winner="ana", loser="cy", amount=25, kind="progressive"),
        tournament_event("bounty_won", winner="bob", loser="dee", amount=25, kind="progressive"),
        tournament_event("eliminated", player="ana", entry=1, place=2),
        tournament_event("prize_awarded", player="ana", entry=1, place=2, amount=300),
        tournament_event("prize_awarded", player="bob", entry=2, place=1, amount=500),
        {"type": "tournament_event", "tournament": "other", "event": {"event": "completed", "winner": "x"}},
    ]
    for message in messages:
        await bot.on_message(message)
    assert not bot.report.finished  # another tournament's end is not ours
    await bot.on_message(tournament_event("completed", winner="bob", how="last_player"))
    report = bot.report
    assert (report.registered, report.moved, report.place, report.prize, report.bounties, report.finished,
            report.winner) == (True, 1, 2, 300, 25, True, "bob")
    assert [(item["type"], item["action"]) for item in connection.sent] == [
        ("tournament", "register"), ("tournament", "decline_rebuy"), ("tournament", "accept_deal"),
        ("tournament", "decline_deal")]  # its own proposal is not answered


async def test_a_refused_move_is_counted_and_replaced_by_check_or_fold() -> None:
    connection = Recorder()
    bot = TournamentBot("ana", connection, _nothing, "t", rng=random.Random(1),
                        chooser=lambda legal, view, rng: {"kind": "raise_to", "amount": 999})
    legal = {"can_fold": True, "call_amount": 20, "min_raise_to": 40, "max_raise_to": 1_000}
    await bot.on_message({"type": "action_request", "table": "t.1", "hand": "h1", "seat": 2, "legal": legal})
    await bot.on_message({"type": "error", "in_reply_to": "action", "code": "bad_amount", "message": "no"})
    assert bot.report.refused == 1
    assert [item.get("kind") for item in connection.sent] == ["raise_to", "fold"]
    assert connection.sent[-1] == {"type": "action", "table": "t.1", "hand": "h1", "kind": "fold"}


def test_event_name() -> None:
    assert event_name(tournament_event("level_up", level=2)) == "level_up"
    assert event_name({"type": "event", "event": object()}) == ""
