"""Issue 13 item 2: terminal escape injection through ``verification.violations`` (and every other client text).

A client's verdict is accepted only from a player dealt into that hand, about that hand, and relayed typed
(kind and evidence tokens), never as its words; every text from the wire is cleaned by one sanitizer
(:mod:`engine.text`) where it enters the room and where the TUI renders it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine.text import clean_text, clean_value
from hosting import protocol
from tests.hosting.security.wire_room import EVIL, EVIL_CLEAN, PAYLOADS, WireRoom, assert_clean, wire_room
from tui.model import TableModel


@pytest.fixture
async def started(tmp_path: Path) -> AsyncIterator[WireRoom]:
    async for room in wire_room(tmp_path / "room"):
        yield room


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_the_sanitizer_drops_each_payload_of_the_issue_whole(payload: str) -> None:
    assert clean_text(f"left{payload}right") == ("leftclick meright" if "]8;" in payload else "leftright")
    assert clean_text(EVIL) == EVIL_CLEAN
    assert clean_text("\u202egnp.exe\u202c \u2066x\u2069 \x9b2J\x9d0;t\x9cok") == "gnp.exe x ok"


def test_clean_value_cleans_every_string_of_a_message_at_any_depth() -> None:
    message = {"type": "table", "table": "t1", "seats": [{"seat": 0, "name": EVIL, "stack": 40}], EVIL: [EVIL]}
    assert clean_value(message) == {"type": "table", "table": "t1", "seats": [{"seat": 0, "name": EVIL_CLEAN,
                                                                              "stack": 40}],
                                    EVIL_CLEAN: [EVIL_CLEAN]}


async def _a_finished_hand(watcher: Any) -> dict[str, Any]:
    return await watcher.wait_for(lambda: next(iter(watcher.of_type("seeds")), None), "a finished hand")  # type: ignore[no-any-return]


async def test_a_verdict_from_someone_not_dealt_in_is_refused_and_nothing_reaches_the_table(
        started: WireRoom) -> None:
    await started.bot("bob")
    await started.bot("cat")
    ana = await started.listener("ana")  # watches t1: hears everything the table hears
    await ana.connection.send("watch", table="t1")
    mallory = await started.listener("mallory")  # logged in, not seated, not watching
    seeds = await _a_finished_hand(ana)
    attack = [{"kind": "x", "message": EVIL}]
    for hand in (seeds["hand"], "fakehand-1"):  # a real hand he was not in, and an invented one
        await mallory.connection.send("verification", table="t1", hand=hand, ok=False, violations=attack)
    await mallory.wait_for(lambda: len(mallory.of_type("error")) >= 2, "both refusals")
    codes = [m["code"] for m in mallory.of_type("error") if m.get("in_reply_to") == "verification"]
    assert codes == ["not_dealt_in", "no_hand"]
    await ana.wait_for(lambda: len(ana.of_type("seeds")) >= 2, "one more hand")
    assert ana.of_type("verification_result") == []  # no alarm painted on any hand
    assert all(report["name"] in ("bob", "cat") for report in started.room.verification_reports)


async def test_a_players_failed_check_reaches_the_table_typed_never_as_his_words(started: WireRoom) -> None:
    await started.bot("bob")
    eve = await started.bot("eve")
    fairness = eve.connection.fairness
    assert fairness is not None

    def lying_report(key: tuple[str, str], record: Any, ok: bool, violations: Any) -> list[dict[str, Any]]:
        if record.secret is None:
            return []
        return [protocol.message("verification", table=key[0], hand=key[1], ok=False, violations=[
            {"kind": "card_mismatch", "message": EVIL, "evidence": {"position": 0, "card": "As", "note": EVIL}},
            {"kind": EVIL, "message": EVIL}])]

    fairness.inner._report = lying_report  # type: ignore[method-assign]
    ana = await started.listener("ana")
    await ana.connection.send("watch", table="t1")
    alarm = await ana.wait_for(lambda: next(iter(ana.of_type("verification_result")), None), "eve's alarm")
    assert alarm["name"] == "eve" and alarm["ok"] is False
    assert alarm["violations"] == [{"kind": "card_mismatch", "evidence": {"position": 0, "card": "As"}},
                                   {"kind": "unknown", "evidence": {}}]
    assert_clean(alarm, "the relayed alarm")
    model = TableModel("t1", "ana")
    model.apply(alarm)
    summary = next(item for item in model.hands if item.hand_id == alarm["hand"])
    # eve's word is her claim, never ana's verdict (issue 25 item 9)
    assert summary.fairness is None and summary.claims == ["eve: card mismatch", "eve: unknown"]
    assert model.alarm == ""
    kept = [report for report in started.room.verification_reports if report["name"] == "eve"]
    assert kept and all(report["violations"] == alarm["violations"] for report in kept if not report["ok"])
    # one verdict per player per hand: sending it again is refused, and nothing more is relayed
    before = len(ana.of_type("verification_result"))
    await eve.connection.send("verification", table="t1", hand=alarm["hand"], ok=False, violations=[])
    await ana.wait_for(lambda: len(ana.of_type("seeds")) >= 3, "two more hands")
    assert sum(1 for m in ana.of_type("verification_result") if m["hand"] == alarm["hand"]) == 1
    assert len(ana.of_type("verification_result")) >= before


async def test_chat_with_the_payloads_reaches_listeners_clean(started: WireRoom) -> None:
    ana = await started.listener("ana")
    mallory = await started.listener("mallory")
    await mallory.connection.send("chat", text=EVIL)
    chat = await ana.wait_for(lambda: next(iter(ana.of_type("chat")), None), "the chat line")
    assert chat["text"] == EVIL_CLEAN
    assert_clean(ana.received, "what ana received")
